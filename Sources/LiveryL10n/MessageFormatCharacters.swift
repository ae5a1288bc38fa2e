// The two Unicode properties ICU's MessagePattern uses to tokenise argument syntax (Unicode's PropList.txt,
// stable by policy): Pattern_White_Space separates tokens, and an identifier (argument name, type, select
// keyword) is a run of characters that are neither Pattern_White_Space nor Pattern_Syntax.

enum MessageFormatCharacters {
    /// Pattern_White_Space: the only whitespace ICU skips inside braces (not NBSP, not ideographic space).
    static func isWhiteSpace(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x09...0x0D, 0x20, 0x85, 0x200E, 0x200F, 0x2028, 0x2029: return true
        default: return false
        }
    }

    /// Pattern_Syntax: ASCII punctuation and symbols plus the listed non-ASCII symbol blocks.
    static func isSyntax(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x21...0x2F, 0x3A...0x40, 0x5B...0x5E, 0x60, 0x7B...0x7E: return true
        case 0xA1...0xA7, 0xA9, 0xAB, 0xAC, 0xAE, 0xB0, 0xB1, 0xB6, 0xBB, 0xBF, 0xD7, 0xF7: return true
        case 0x2010...0x2027, 0x2030...0x203E, 0x2041...0x2053, 0x2055...0x205E: return true
        case 0x2190...0x245F, 0x2500...0x2775, 0x2794...0x2BFF, 0x2E00...0x2E7F: return true
        case 0x3001...0x3003, 0x3008...0x3020, 0x3030, 0xFD3E, 0xFD3F, 0xFE45, 0xFE46: return true
        default: return false
        }
    }

    /// A character that may appear in an ICU pattern identifier.
    static func isIdentifier(_ c: Unicode.Scalar) -> Bool { !isWhiteSpace(c) && !isSyntax(c) }

    /// The characters ICU's `skipDouble` accepts in a number (`=N`, `offset:`): digits, signs, `.`, `e`, `E`, `∞`.
    static func isNumberCharacter(_ c: Unicode.Scalar) -> Bool {
        switch c {
        case "0"..."9", "+", "-", ".", "e", "E", "\u{221E}": return true
        default: return false
        }
    }

    static func isASCIIDigit(_ c: Unicode.Scalar) -> Bool { ("0"..."9").contains(c) }
}
