/// JSON text for writers that lay out their own documents (Xcode's String Catalog layout, the
/// readable context snapshots): a string literal escaped as RFC 8259 asks, control characters as `\u00XX`.
public enum JSONText {
    public static func quoted(_ text: String) -> String {
        // Most text needs no escape: then it is copied whole (appending scalar by scalar was a visible
        // share of writing every locale's String Catalog).
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            return "\"" + text + "\""
        }
        return quoted(text, alsoEscaping: { _ in false }, uppercaseHex: false)
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
