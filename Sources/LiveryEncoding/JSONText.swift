/// JSON string literals, the one escaper of every JSON writer (Xcode's String Catalog layout, the readable
/// context snapshots, release metadata and the download manifest, the client vectors): a string escaped as
/// RFC 8259 asks, `\n` `\r` `\t` by name and the other control characters as lowercase `\u00xx`.
public enum JSONText {
    public static func quoted(_ text: String) -> String {
        // Most text needs no escape: then it is copied whole (appending scalar by scalar was a visible
        // share of writing every locale's String Catalog).
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            return "\"" + text + "\""
        }
        return quoted(text, alsoEscaping: { _ in false }, uppercaseHex: false)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends `text` as a JSON string literal to `bytes`: the bytes `quoted(_:)` returns, without building a String.
    public static func appendQuoted(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { appendQuoted(utf8: $0, to: &bytes) }
    }

    /// `appendQuoted` of text given as UTF-8 bytes.
    public static func appendQuoted(utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        // Every byte that needs an escape is ASCII, so escaping byte by byte equals escaping scalar by scalar.
        // The bytes are scanned eight at a time while none of the eight needs an escape: a release's String
        // Catalogs, `strings.xml` and locale JSON are mostly text without any, and testing byte by byte was
        // a visible share of writing them.
        var start = 0, index = 0
        let count = utf8.count
        while index < count {
            if index + 8 <= count, !needsEscape(UnsafeRawPointer(utf8.baseAddress! + index).loadUnaligned(as: UInt64.self)) {
                index += 8
                continue
            }
            let byte = utf8[index]
            index += 1
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<(index - 1)]))
            start = index
            bytes.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
            case UInt8(ascii: "\n"): bytes.append(UInt8(ascii: "n"))
            case UInt8(ascii: "\r"): bytes.append(UInt8(ascii: "r"))
            case UInt8(ascii: "\t"): bytes.append(UInt8(ascii: "t"))
            default:
                bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]])
            }
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        bytes.append(UInt8(ascii: "\""))
    }

    /// Whether any of the eight bytes of `word` is a control character, `"` or `\\` (the bit tricks for "a byte
    /// less than n" and "a zero byte", exact for any byte of the word, whatever its order in memory).
    @inline(__always)
    private static func needsEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22), backslash = word ^ (ones &* 0x5C)
        let below0x20 = (word &- ones &* 0x20) & ~word
        let zeroAfterQuote = (quote &- ones) & ~quote
        let zeroAfterBackslash = (backslash &- ones) & ~backslash
        return (below0x20 | zeroAfterQuote | zeroAfterBackslash) & highs != 0
    }

    /// The literal with the scalars `extra` picks also written as `\uXXXX`: a YAML double-quoted scalar
    /// takes JSON's escapes and wants the characters YAML does not print (DEL, NEL, U+2028…) escaped too.
    public static func quoted(_ text: String, alsoEscaping extra: (Unicode.Scalar) -> Bool, uppercaseHex: Bool) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || extra(scalar) {
                    let hex = String(scalar.value, radix: 16, uppercase: uppercaseHex)
                    out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
