/// Android resource conventions: resource names, `values-…` folder qualifiers and string escaping.
public enum AndroidResources {
    /// The resource name of a message key: dots and hyphens become underscores (`nav.home` → `nav_home`).
    public static func name(of key: String) -> String {
        // An ASCII key (every key the loader accepts) is mapped byte by byte, each byte being one
        // character: a build names every key of every tenant, and breaking it into characters was slow.
        let utf8 = key.utf8
        if utf8.allSatisfy({ $0 < 0x80 }) {
            guard utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }) else { return key }
            return String(decoding: utf8.map { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") ? UInt8(ascii: "_") : $0 }, as: UTF8.self)
        }
        return String(key.map { $0 == "." || $0 == "-" ? "_" : $0 })
    }

    /// True for names aapt2 accepts: an ASCII letter or `_`, then ASCII letters, digits and `_`
    /// (read as bytes: a name with any other byte is not valid).
    public static func isValidName(_ name: String) -> Bool {
        func letter(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || byte == UInt8(ascii: "_") }
        guard let first = name.utf8.first, letter(first) else { return false }
        return name.utf8.allSatisfy { letter($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// The `res/` folder of a locale: `values` for the default, `values-fr`, `values-pt-rBR`, `values-b+sr+Latn`.
    public static func folder(of locale: String, defaultLocale: String) -> String {
        if locale == defaultLocale { return "values" }
        let parts = locale.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        if parts.count == 1 { return "values-\(parts[0].lowercased())" }
        if parts.count == 2, parts[1].count == 2, parts[1].allSatisfy(\.isLetter) { return "values-\(parts[0].lowercased())-r\(parts[1].uppercased())" }
        // Scripts, numeric regions and longer tags need the BCP 47 form (Android 7+).
        return "values-b+" + parts.joined(separator: "+")
    }

    /// The locale a `values…` folder name stands for; nil for `values` (the default) or names that are no locale.
    public static func locale(ofFolder folder: String) -> String?? {
        if folder == "values" { return .some(nil) }
        guard folder.hasPrefix("values-") else { return nil }
        let rest = folder.dropFirst("values-".count)
        if rest.hasPrefix("b+") { return .some(rest.dropFirst(2).split(separator: "+").joined(separator: "-")) }
        let parts = rest.split(separator: "-")
        if parts.count == 1, (2...3).contains(parts[0].count), parts[0].allSatisfy(\.isLetter) { return .some(String(parts[0])) }
        if parts.count == 2, parts[1].hasPrefix("r"), parts[1].count == 3 { return .some("\(parts[0])-\(parts[1].dropFirst())") }
        return nil
    }

    /// Text as Android string resource content (before XML escaping): quotes, backslashes, a leading `@` or `?`,
    /// line breaks and whitespace that aapt2 would otherwise collapse are escaped.
    public static func escape(_ text: String) -> String {
        if !needsEscape(text) { return text }
        let scalars = Array(text.unicodeScalars)
        var out = ""
        for (index, c) in scalars.enumerated() {
            switch c {
            case "\\": out += "\\\\"
            case "'": out += "\\'"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "@" where index == 0: out += "\\@"
            case "?" where index == 0: out += "\\?"
            case " " where index == 0 || index == scalars.count - 1 || scalars[index - 1] == " ":
                out += "\\u0020"
            default:
                if c.value < 0x20 {
                    let hex = String(c.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(c)
                }
            }
        }
        return out
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// `escape` of text given as UTF-8, appended to `out`, read byte by byte: every scalar `escape`
    /// rewrites is ASCII, and an ASCII byte never occurs inside a multi-byte scalar, so the first, last
    /// and previous byte stand for the first, last and previous scalar.
    static func appendEscaped(utf8 bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        let last = bytes.count - 1
        var previous: UInt8 = 0
        for (index, byte) in bytes.enumerated() {
            defer { previous = byte }
            switch byte {
            case UInt8(ascii: "\\"), UInt8(ascii: "'"), UInt8(ascii: "\""):
                out.append(UInt8(ascii: "\\")); out.append(byte)
            case UInt8(ascii: "\n"): out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "n"))
            case UInt8(ascii: "\t"): out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "t"))
            case UInt8(ascii: "@") where index == 0, UInt8(ascii: "?") where index == 0:
                out.append(UInt8(ascii: "\\")); out.append(byte)
            case UInt8(ascii: " ") where index == 0 || index == last || previous == UInt8(ascii: " "):
                out.append(contentsOf: "\\u0020".utf8)
            case 0..<0x20:
                out.append(contentsOf: "\\u00".utf8)
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            default:
                out.append(byte)
            }
        }
    }

    /// Whether `escape` changes `text`. Most texts need nothing, and a full build escapes every message of
    /// every locale, so the check reads UTF-8 bytes: every scalar `escape` rewrites is ASCII, and an ASCII
    /// byte never occurs inside a multi-byte scalar.
    static func needsEscape(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { needsEscape(utf8: $0) }
    }

    /// `needsEscape` of text given as UTF-8.
    static func needsEscape(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first, let last = bytes.last else { return false }
        if first == UInt8(ascii: "@") || first == UInt8(ascii: "?") || first == UInt8(ascii: " ") || last == UInt8(ascii: " ") { return true }
        var previous: UInt8 = 0
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\\"), UInt8(ascii: "'"), UInt8(ascii: "\""): return true
            case UInt8(ascii: " ") where previous == UInt8(ascii: " "): return true
            case 0..<0x20: return true
            default: break
            }
            previous = byte
        }
        return false
    }

    /// A problem in escaped resource text: what and at which scalar offset.
    public struct EscapeError: Error, Sendable, Equatable {
        public var message: String
        public var offset: Int
    }

    /// Resource content as the app sees it, following aapt2: escapes resolved, `"…"` keeps whitespace,
    /// other whitespace runs become one space and are trimmed at the ends, a bare apostrophe is an error.
    public static func unescape(_ content: String) -> Result<String, EscapeError> {
        let scalars = Array(content.unicodeScalars)
        var out: [(scalar: Unicode.Scalar, soft: Bool)] = []
        var quoted = false
        var i = 0
        while i < scalars.count {
            let c = scalars[i]
            switch c {
            case "\\":
                guard i + 1 < scalars.count else { return .failure(EscapeError(message: "a lone '\\' ends the text; write '\\\\' for a backslash", offset: i)) }
                let next = scalars[i + 1]
                i += 2
                switch next {
                case "n": out.append(("\n", false))
                case "t": out.append(("\t", false))
                case "u":
                    let hex = String(String.UnicodeScalarView(scalars[i..<min(i + 4, scalars.count)]))
                    guard hex.count == 4, let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) else {
                        return .failure(EscapeError(message: "'\\u' needs four hexadecimal digits", offset: i - 2))
                    }
                    out.append((scalar, false))
                    i += 4
                default: out.append((next, false))
                }
                continue
            case "\"":
                quoted.toggle()
            case "'" where !quoted:
                return .failure(EscapeError(message: "an apostrophe must be escaped as \\' (aapt2 refuses a bare one)", offset: i))
            case " ", "\n", "\t", "\r":
                if quoted { out.append((c, false)) } else if out.last?.soft != true { out.append((" ", true)) }
            default:
                out.append((c, false))
            }
            i += 1
        }
        while out.first?.soft == true { out.removeFirst() }
        while out.last?.soft == true { out.removeLast() }
        var text = ""
        text.unicodeScalars.append(contentsOf: out.map(\.scalar))
        return .success(text)
    }
}
