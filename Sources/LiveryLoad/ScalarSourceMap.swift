import LiveryDiagnostics

/// Maps each character of a scalar's value to the character of the file it came from, by replaying
/// how YAML (or JSON) turns the written scalar into the value.
///
/// Flow scalars (plain, quoted) are decoded here: escapes, `''`, and line folding (a line break
/// becomes a space, empty lines become line breaks, spaces around breaks are dropped). Block
/// scalars keep every content character verbatim, so they are aligned greedily against the value
/// after skipping the header line and each line's indentation. Either way the result is checked
/// against the value the parser produced; when they differ the map is not built and callers fall
/// back to a plain column shift, so a mistake here can misplace a caret but never invent text.
struct ScalarSourceMap {
    /// The file line and column of every raw scalar (index into `raw`), plus one past the end.
    private var places: [(line: Int, column: Int)] = []
    /// For every value scalar, the index in `raw` it came from; then one entry for the end.
    private var origins: [Int] = []
    private let file: String

    init?(raw: String, style: ScalarSource.Style, value: String, start: SourceLocation) {
        file = start.file
        let rawScalars = Array(raw.unicodeScalars)
        places.reserveCapacity(rawScalars.count + 1)
        var line = start.line, column = start.column
        for (i, scalar) in rawScalars.enumerated() {
            places.append((line, column))
            // "\r\n" is one line break: the column advances over "\r" and resets after "\n".
            let isCRBeforeLF = scalar == "\r" && i + 1 < rawScalars.count && rawScalars[i + 1] == "\n"
            if Self.isBreak(scalar) && !isCRBeforeLF { line += 1; column = 1 } else { column += 1 }
        }
        places.append((line, column))
        let valueScalars = Array(value.unicodeScalars)
        let decoded: [(scalar: Unicode.Scalar, origin: Int)]?
        switch style {
        case .plain, .singleQuoted, .doubleQuoted: decoded = Self.decodeFlow(rawScalars, style: style)
        case .literal, .folded: decoded = Self.alignBlock(rawScalars, value: valueScalars, folded: style == .folded)
        }
        guard let decoded, decoded.count == valueScalars.count, zip(decoded, valueScalars).allSatisfy({ $0.scalar == $1 }) else { return nil }
        origins = decoded.map(\.origin)
        // Just past the value: right after its last character's source (a closing quote stays after it).
        origins.append(min((decoded.last?.origin).map { $0 + 1 } ?? (style.isQuoted ? 1 : 0), rawScalars.count))
    }

    func location(ofValueOffset offset: Int) -> SourceLocation {
        let index = origins[max(0, min(offset, origins.count - 1))]
        let place = places[min(index, places.count - 1)]
        return SourceLocation(file: file, line: place.line, column: place.column)
    }

    // MARK: Flow scalars

    static func isBreak(_ s: Unicode.Scalar) -> Bool {
        // libyaml counts these as line breaks (YAML 1.1), so its marks and this map must too.
        s == "\n" || s == "\r" || s == "\u{85}" || s == "\u{2028}" || s == "\u{2029}"
    }

    private static func isBlank(_ s: Unicode.Scalar) -> Bool { s == " " || s == "\t" }

    /// The index after the line break at `i` ("\r\n" counts as one).
    private static func afterBreak(_ raw: [Unicode.Scalar], _ i: Int) -> Int {
        raw[i] == "\r" && i + 1 < raw.count && raw[i + 1] == "\n" ? i + 2 : i + 1
    }

    private static func decodeFlow(_ raw: [Unicode.Scalar], style: ScalarSource.Style) -> [(scalar: Unicode.Scalar, origin: Int)]? {
        var i = 0, end = raw.count
        if style.isQuoted {
            guard raw.count >= 2 else { return nil }
            i = 1
            end = raw.count - 1
        }
        var out: [(scalar: Unicode.Scalar, origin: Int)] = []
        // Blanks are held back until something follows them on the same line: before a break they are dropped.
        var pending: [(scalar: Unicode.Scalar, origin: Int)] = []
        while i < end {
            let c = raw[i]
            if isBreak(c) {
                pending.removeAll()
                let breakAt = i
                i = afterBreak(raw, i)
                var emptyLines: [Int] = []
                while true {
                    while i < end, isBlank(raw[i]) { i += 1 }
                    guard i < end, isBreak(raw[i]) else { break }
                    emptyLines.append(i)
                    i = afterBreak(raw, i)
                }
                if emptyLines.isEmpty { out.append((" ", breakAt)) } else { out += emptyLines.map { ("\n", $0) } }
                continue
            }
            if isBlank(c) {
                pending.append((c, i))
                i += 1
                continue
            }
            out += pending
            pending.removeAll()
            if style == .doubleQuoted, c == "\\" {
                guard i + 1 < end else { return nil }
                let escape = raw[i + 1]
                if isBreak(escape) {
                    // An escaped line break joins the lines: the break and the next line's indentation vanish.
                    i = afterBreak(raw, i + 1)
                    while i < end, isBlank(raw[i]) { i += 1 }
                    continue
                }
                if let (scalar, length) = hexEscape(raw, at: i, end: end) {
                    out.append((scalar, i))
                    i += length
                    continue
                }
                guard let scalar = simpleEscapes[escape] else { return nil }
                out.append((scalar, i))
                i += 2
                continue
            }
            if style == .singleQuoted, c == "'" {
                guard i + 1 < end, raw[i + 1] == "'" else { return nil }
                out.append(("'", i))
                i += 2
                continue
            }
            out.append((c, i))
            i += 1
        }
        return out + pending
    }

    private static let simpleEscapes: [Unicode.Scalar: Unicode.Scalar] = [
        "0": "\0", "a": "\u{07}", "b": "\u{08}", "t": "\t", "\t": "\t", "n": "\n", "v": "\u{0B}", "f": "\u{0C}",
        "r": "\r", "e": "\u{1B}", " ": " ", "\"": "\"", "/": "/", "\\": "\\", "N": "\u{85}", "_": "\u{A0}",
        "L": "\u{2028}", "P": "\u{2029}",
    ]

    /// `\xXX`, `\uXXXX` (with a following low surrogate, as JSON writes characters beyond U+FFFF) and `\UXXXXXXXX`.
    private static func hexEscape(_ raw: [Unicode.Scalar], at i: Int, end: Int) -> (Unicode.Scalar, Int)? {
        let digits: Int
        switch raw[i + 1] {
        case "x": digits = 2
        case "u": digits = 4
        case "U": digits = 8
        default: return nil
        }
        func hex(_ from: Int, _ count: Int) -> UInt32? {
            guard from + count <= end else { return nil }
            return UInt32(String(String.UnicodeScalarView(raw[from..<(from + count)])), radix: 16)
        }
        guard let code = hex(i + 2, digits) else { return nil }
        var length = 2 + digits
        var value = code
        if digits == 4, (0xD800...0xDBFF).contains(code), i + 7 < end, raw[i + 6] == "\\", raw[i + 7] == "u",
           let low = hex(i + 8, 4), (0xDC00...0xDFFF).contains(low) {
            value = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            length += 6
        }
        return Unicode.Scalar(value).map { ($0, length) }
    }

    // MARK: Block scalars

    /// Aligns a literal or folded block scalar with its value. Content characters appear verbatim and
    /// in order; what the value lacks (the header line, indentation, folded or chomped breaks) is skipped.
    private static func alignBlock(_ raw: [Unicode.Scalar], value: [Unicode.Scalar], folded: Bool) -> [(scalar: Unicode.Scalar, origin: Int)]? {
        // Content starts on the line after the `|` or `>` header (which may hold a comment).
        guard var i = raw.firstIndex(where: isBreak).map({ afterBreak(raw, $0) }) else { return value.isEmpty ? [] : nil }
        let indent = blockIndent(raw, from: i, value: value)
        func skipIndent() {
            var skipped = 0
            while skipped < indent, i < raw.count, raw[i] == " " { i += 1; skipped += 1 }
        }
        skipIndent()
        var out: [(scalar: Unicode.Scalar, origin: Int)] = []
        out.reserveCapacity(value.count)
        for scalar in value {
            while true {
                guard i < raw.count else { return nil }
                let c = raw[i]
                if isBreak(c) {
                    // A value break or a folded space stands for this break; anything else means the break was dropped.
                    let matches = scalar == "\n" || (folded && scalar == " ")
                    let at = i
                    i = afterBreak(raw, i)
                    skipIndent()
                    if matches { out.append((scalar, at)); break }
                    continue
                }
                i += 1
                if c == scalar { out.append((scalar, i - 1)); break }
            }
        }
        return out
    }

    /// The content indentation: the leading spaces of the first content line, less the spaces the value
    /// keeps at the start of that line (an indentation indicator such as `|2` lets content start indented).
    private static func blockIndent(_ raw: [Unicode.Scalar], from start: Int, value: [Unicode.Scalar]) -> Int {
        // Tabs are content in a block scalar, never indentation, so only spaces count here.
        var kept = 0
        for scalar in value {
            if scalar == "\n" { kept = 0 } else if scalar == " " { kept += 1 } else { break }
        }
        var i = start
        while i < raw.count {
            var spaces = 0
            while i + spaces < raw.count, raw[i + spaces] == " " { spaces += 1 }
            let next = i + spaces
            if next < raw.count, !isBreak(raw[next]) { return max(0, spaces - kept) }
            guard next < raw.count else { return spaces }
            i = afterBreak(raw, next)
        }
        return 0
    }
}
