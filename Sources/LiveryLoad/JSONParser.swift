import LiveryDiagnostics
import LiveryEncoding

/// A strict RFC 8259 JSON parser that keeps the line and column of every value and key.
///
/// Hand-written because Foundation's `JSONSerialization` reports no positions and silently
/// keeps one of two duplicate keys; Livery must point at the exact character of every finding.
struct JSONParser {
    /// The text's UTF-8, valid only while `parse` runs (the parser never outlives it).
    private let bytes: UnsafeBufferPointer<UInt8>
    private let file: String
    private let limits: LoadLimits
    private var index = 0
    private var line = 1
    /// Where the current line starts, and how many UTF-8 continuation bytes it has before
    /// `index`: a column counts Unicode scalars, and is worked out only when a location is taken.
    private var lineStart = 0
    private var continuationBytes = 0
    private var nodeCount = 0
    private(set) var diagnostics: [Diagnostic] = []

    struct Stop: Error { let diagnostic: Diagnostic }

    /// Objects with fewer keys than this find a duplicate key by scanning their entries.
    private static let scannedObjectSize = 16

    private init(bytes: UnsafeBufferPointer<UInt8>, file: String, limits: LoadLimits) {
        self.bytes = bytes
        self.file = file
        self.limits = limits
    }

    static func parse(_ text: String, file: String, limits: LoadLimits = .default) -> (Node?, [Diagnostic]) {
        var text = text
        return text.withUTF8 { bytes in
            var parser = JSONParser(bytes: bytes, file: file, limits: limits)
            return parser.parseDocument()
        }
    }

    private mutating func parseDocument() -> (Node?, [Diagnostic]) {
        do {
            skipWhitespace()
            guard index < bytes.count else {
                throw Stop(diagnostic: Diagnostic(.error, "file is empty; expected a JSON object", at: here, rule: LoadRule.syntax))
            }
            let root = try parseValue(depth: 0)
            skipWhitespace()
            if index < bytes.count {
                throw stop("unexpected \(describeCurrent()) after the end of the JSON value")
            }
            return (root, diagnostics)
        } catch let stop as Stop {
            return (nil, diagnostics + [stop.diagnostic])
        } catch {
            return (nil, diagnostics)
        }
    }

    private var column: Int { index - lineStart - continuationBytes + 1 }

    private var here: SourceLocation { SourceLocation(file: file, line: line, column: column) }

    private func stop(_ message: String, hint: String? = nil) -> Stop {
        Stop(diagnostic: Diagnostic(.error, message, at: here, rule: LoadRule.syntax, hint: hint))
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// The file ends inside the `[`, `{` or string that began at `start`: the finding points at the
    /// opener, which is where the creator fixes it, and names where the file ends.
    private func unclosed(_ what: String, at start: SourceLocation, hint: String) -> Stop {
        Stop(diagnostic: Diagnostic(.error, "\(what) is not closed: the file ends at line \(line), column \(column)", at: start, rule: LoadRule.syntax,
                                    hint: hint, related: [RelatedLocation("the file ends here", at: here)]))
    }

    /// Whether a failure happened at the end of the file and no inner construct has claimed it yet.
    private func endedInside(_ failure: Stop) -> Bool { current == nil && failure.diagnostic.related.isEmpty }

    private mutating func advance() {
        let byte = bytes[index]
        index += 1
        if byte == 0x0A { newLine() }
        else if byte & 0xC0 == 0x80 { continuationBytes += 1 }
    }

    /// Just after a line feed.
    private mutating func newLine() {
        line += 1
        lineStart = index
        continuationBytes = 0
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A: index += 1; newLine()
            default: return
            }
        }
    }

    /// The text of `bytes[range]`.
    private func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    private func describeCurrent() -> String {
        guard let byte = current else { return "end of file" }
        if byte < 0x80 { return "character '\(Character(Unicode.Scalar(byte)))'" }
        return "character"
    }

    private mutating func parseValue(depth: Int) throws -> Node {
        guard depth < limits.maxDepth else {
            throw Stop(diagnostic: Diagnostic(.error, LoadMessage.tooDeep(limit: limits.maxDepth), at: here, rule: LoadRule.limits))
        }
        nodeCount += 1
        guard nodeCount <= limits.maxNodes else {
            throw Stop(diagnostic: Diagnostic(.error, LoadMessage.tooManyValues(limit: limits.maxNodes), at: here, rule: LoadRule.limits))
        }
        switch current {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""):
            let start = here
            let first = index
            let text = try parseString()
            // Without escapes the value's bytes are the source's bytes between the quotes.
            let raw = index - first - 2 == text.utf8.count ? nil : self.text(first..<index)
            return Node(.string(text), at: start, scalar: ScalarSource(style: .doubleQuoted, endLine: line, endColumn: column, raw: raw))
        case UInt8(ascii: "t"): let start = here; try expectWord("true"); return Node(.bool(true), at: start)
        case UInt8(ascii: "f"): let start = here; try expectWord("false"); return Node(.bool(false), at: start)
        case UInt8(ascii: "n"): let start = here; try expectWord("null"); return Node(.null, at: start)
        case .some(UInt8(ascii: "-")), .some(UInt8(ascii: "0")...UInt8(ascii: "9")): return try parseNumber()
        case nil: throw stop("unexpected end of file; expected a value")
        default:
            if current == UInt8(ascii: "'") {
                throw stop("JSON strings use double quotes, not single quotes")
            }
            throw stop("unexpected \(describeCurrent()); expected a value")
        }
    }

    private mutating func expectWord(_ word: String) throws {
        for expected in word.utf8 {
            guard current == expected else { throw stop("invalid literal; expected '\(word)'") }
            advance()
        }
    }

    private mutating func parseObject(depth: Int) throws -> Node {
        let start = here
        do {
            return try parseObjectBody(depth: depth, start: start)
        } catch let failure as Stop where endedInside(failure) {
            throw unclosed("this '{'", at: start, hint: "close the object with '}', and separate its entries with ','")
        }
    }

    private mutating func parseObjectBody(depth: Int, start: SourceLocation) throws -> Node {
        advance()  // {
        var entries: [Node.Entry] = []
        // Entry positions by key, for duplicate keys: most objects are small enough for a scan to be
        // cheaper than hashing every key, so the index is built only when an object grows large.
        var positions: [String: Int] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") { advance(); return Node(.mapping([]), at: start) }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else {
                if current == UInt8(ascii: "}") { throw stop("trailing comma before '}' is not allowed in JSON") }
                throw stop("expected a double-quoted key, found \(describeCurrent())")
            }
            let keyLocation = here
            let key = try parseString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw stop("expected ':' after key \"\(key)\"") }
            advance()
            skipWhitespace()
            let value = try parseValue(depth: depth + 1)
            let duplicate: Int?
            if entries.count < Self.scannedObjectSize {
                duplicate = entries.firstIndex { $0.key == key }
            } else {
                if positions.isEmpty {
                    positions.reserveCapacity(entries.count * 2)
                    for (position, entry) in entries.enumerated() { positions[entry.key] = position }
                }
                duplicate = positions[key]
                if duplicate == nil { positions[key] = entries.count }
            }
            if let duplicate {
                let first = entries[duplicate].keyLocation
                diagnostics.append(Diagnostic(.error, ShapeMessage.duplicateJSONKey(key: key, line: first.line, column: first.column),
                                              at: keyLocation, rule: LoadRule.duplicateKey,
                                              hint: "remove one of the two; only the first is used"))
            } else {
                entries.append(Node.Entry(key: key, keyLocation: keyLocation, value: value))
            }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): advance()
            case UInt8(ascii: "}"): advance(); return Node(.mapping(entries), at: start)
            default: throw stop("expected ',' or '}' after the value of \"\(key)\", found \(describeCurrent())")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws -> Node {
        let start = here
        do {
            return try parseArrayBody(depth: depth, start: start)
        } catch let failure as Stop where endedInside(failure) {
            throw unclosed("this '['", at: start, hint: "close the list with ']', and separate its items with ','")
        }
    }

    private mutating func parseArrayBody(depth: Int, start: SourceLocation) throws -> Node {
        advance()  // [
        var items: [Node] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") { advance(); return Node(.sequence([]), at: start) }
        while true {
            skipWhitespace()
            if current == UInt8(ascii: "]") { throw stop("trailing comma before ']' is not allowed in JSON") }
            items.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): advance()
            case UInt8(ascii: "]"): advance(); return Node(.sequence(items), at: start)
            default: throw stop("expected ',' or ']' in list, found \(describeCurrent())")
            }
        }
    }

    /// A string's value: the source's bytes between the quotes, decoded from escapes when it has any.
    private mutating func parseString() throws -> String {
        // Where the quote is, kept as two integers: the location is made only if the string never ends.
        let quoteLine = line, quoteColumn = column
        advance()  // opening quote
        let first = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let value = text(first..<index)
                index += 1
                return value
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            if byte & 0xC0 == 0x80 { continuationBytes += 1 }
            index += 1
        }
        do {
            return try parseEscapedString(from: first)
        } catch let failure as Stop where endedInside(failure) {
            throw unclosed("this string", at: SourceLocation(file: file, line: quoteLine, column: quoteColumn), hint: "end the string with '\"'")
        }
    }

    /// The rest of a string from its first escape (or its first fault), the bytes from `first` on
    /// already read: the value is built as UTF-8 bytes, each escape appended as the scalar it names.
    private mutating func parseEscapedString(from first: Int) throws -> String {
        var value = Array(bytes[first..<index])
        while true {
            guard let byte = current else { throw stop("unterminated string") }
            switch byte {
            case UInt8(ascii: "\""):
                advance()
                return String(decoding: value, as: UTF8.self)
            case UInt8(ascii: "\\"):
                advance()
                guard let escape = current else { throw stop("unterminated string") }
                if let simple = Self.simpleEscape(escape) {
                    advance()
                    value.append(simple)
                } else if escape == UInt8(ascii: "u") {
                    advance()
                    var code = try parseHex4()
                    if (0xD800...0xDBFF).contains(code) {
                        guard current == UInt8(ascii: "\\") else { throw stop("unpaired UTF-16 surrogate in \\u escape") }
                        advance()
                        guard current == UInt8(ascii: "u") else { throw stop("unpaired UTF-16 surrogate in \\u escape") }
                        advance()
                        let low = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw stop("invalid low surrogate in \\u escape") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw stop("\\u escape is not a Unicode scalar") }
                    UTF8.encode(scalar) { value.append($0) }
                } else {
                    throw stop("invalid escape sequence in string", hint: "valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX")
                }
            default:
                if byte < 0x20 {
                    throw stop(byte == 0x0A ? "unterminated string (a raw line break is not allowed inside a JSON string)" : "control character inside a string must be escaped")
                }
                value.append(byte)
                advance()
            }
        }
    }

    /// The byte a one-character escape (`\n`, `\"`…) stands for, or nil.
    private static func simpleEscape(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return byte
        case UInt8(ascii: "b"): return 0x08
        case UInt8(ascii: "f"): return 0x0C
        case UInt8(ascii: "n"): return 0x0A
        case UInt8(ascii: "r"): return 0x0D
        case UInt8(ascii: "t"): return 0x09
        default: return nil
        }
    }

    private mutating func parseHex4() throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = Hex.value(ofDigit: byte).map(UInt32.init) else { throw stop("\\u escape needs four hexadecimal digits") }
            value = value * 16 + digit
            advance()
        }
        return value
    }

    private mutating func parseNumber() throws -> Node {
        let start = here
        let begin = index
        func isDigit(_ b: UInt8?) -> Bool { b.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
        if current == UInt8(ascii: "-") { advance() }
        guard isDigit(current) else { throw stop("expected a digit in number") }
        if current == UInt8(ascii: "0") {
            advance()
            if isDigit(current) { throw Stop(diagnostic: Diagnostic(.error, "numbers must not have leading zeros", at: start, rule: LoadRule.syntax)) }
        } else {
            while isDigit(current) { advance() }
        }
        var isInteger = true
        if current == UInt8(ascii: ".") {
            isInteger = false
            advance()
            guard isDigit(current) else { throw stop("expected a digit after the decimal point") }
            while isDigit(current) { advance() }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            advance()
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { advance() }
            guard isDigit(current) else { throw stop("expected a digit in the exponent") }
            while isDigit(current) { advance() }
        }
        let text = self.text(begin..<index)
        if isInteger, let int = Int(text) { return Node(.int(int), at: start) }
        guard let double = Double(text), double.isFinite else {
            throw Stop(diagnostic: Diagnostic(.error, "number \(text) is out of range", at: start, rule: LoadRule.syntax))
        }
        return Node(.float(double), at: start)
    }
}
