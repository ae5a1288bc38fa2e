import Foundation
import LiveryEncoding

// Why a hand-written parser: every release file a client downloads (TUF metadata, the download
// manifest, the release pointer, voucher answers) is read here, and Foundation's `JSONDecoder`
// silently keeps one of two duplicate keys — a signed document that two parsers read two ways is a
// classic signature-confusion hole — accepts inputs RFC 8259 forbids, and is slow. LiveryLoad's
// `JSONParser` is strict too, but LiveryLoad links libyaml and libxml2, which `LiveryClient` (embedded
// by app teams) must not need. This parser's accept/refuse behaviour, and the values it reads, are
// checked against LiveryLoad's `JSONParser` by a differential test (ReleaseJSONParserTests) and fuzzed
// (`make fuzz`).

/// The strict RFC 8259 parser behind `JSONValue.parse`: UTF-8 read in place, duplicate keys refused,
/// integers as `.int` (refused out of `Int`'s range, never turned into doubles), fractions and
/// exponents as `.double`, bounded depth and size, and every refusal located by byte offset.
public enum ReleaseJSONParser {
    /// Bounds on hostile input.
    public struct Limits: Sendable {
        /// A value inside this many containers is refused (the document itself is at depth 0); LiveryLoad's limit.
        public var maxDepth: Int
        /// Larger input is refused before it is read: well above the client's 16 MiB bound on targets metadata.
        public var maxBytes: Int

        public init(maxDepth: Int = 64, maxBytes: Int = 64 << 20) {
            self.maxDepth = maxDepth
            self.maxBytes = maxBytes
        }

        public static let `default` = Limits()
    }

    /// Why a document was refused, for programs (the message says it for people).
    public enum Reason: String, Sendable {
        case syntax, duplicateKey, invalidUTF8, loneSurrogate, byteOrderMark, trailingValue, integerOutOfRange, numberOutOfRange, tooDeep, tooLarge
    }

    /// A refused document: what is wrong and where (byte offset from 0; line and column from 1, the
    /// column counted in Unicode scalars).
    public struct SyntaxError: Error, CustomStringConvertible, Sendable, Equatable {
        public var reason: Reason
        public var message: String
        public var offset: Int
        public var line: Int
        public var column: Int

        public var description: String { "invalid JSON at byte \(offset) (line \(line), column \(column)): \(message)" }
    }

    /// Parses one JSON document.
    public static func parse(_ data: Data, limits: Limits = .default) throws -> JSONValue {
        guard data.count <= limits.maxBytes else {
            throw SyntaxError(reason: .tooLarge, message: "the document is \(data.count) bytes; at most \(limits.maxBytes) are read",
                              offset: limits.maxBytes, line: 1, column: 1)
        }
        return try data.withUnsafeBytes { raw in
            var reader = Reader(bytes: raw.bindMemory(to: UInt8.self), limits: limits)
            return try reader.document()
        }
    }
}

private let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")

/// One parse over bytes that outlive it (the caller's `withUnsafeBytes`).
private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    let limits: ReleaseJSONParser.Limits
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>, limits: ReleaseJSONParser.Limits) {
        self.bytes = bytes
        self.limits = limits
    }

    mutating func document() throws -> JSONValue {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            throw fail(.byteOrderMark, "the document starts with a byte order mark; release files are UTF-8 without one")
        }
        skipWhitespace()
        let value = try parseValue(depth: 0)
        skipWhitespace()
        if index < bytes.count {
            throw fail(.trailingValue, "unexpected \(describeCurrent()) after the end of the JSON value")
        }
        return value
    }

    // MARK: Errors

    func fail(_ reason: ReleaseJSONParser.Reason, _ message: String, at offset: Int? = nil) -> ReleaseJSONParser.SyntaxError {
        let offset = offset ?? index
        // Line and column are worked out only for the error: lines end at LF, columns count scalars.
        var line = 1, lineStart = 0
        for i in 0..<min(offset, bytes.count) where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        var column = 1
        if lineStart < offset {
            for i in lineStart..<min(offset, bytes.count) where bytes[i] & 0xC0 != 0x80 { column += 1 }
        }
        return ReleaseJSONParser.SyntaxError(reason: reason, message: message, offset: offset, line: line, column: column)
    }

    func describeCurrent() -> String {
        guard index < bytes.count else { return "end of input" }
        let byte = bytes[index]
        if byte > 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return String(format: "byte 0x%02X", byte)
    }

    // MARK: Values

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    mutating func parseValue(depth: Int) throws -> JSONValue {
        guard depth < limits.maxDepth else {
            throw fail(.tooDeep, "values are nested more than \(limits.maxDepth) levels deep")
        }
        guard index < bytes.count else { throw fail(.syntax, "unexpected end of input; expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case quote: return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw fail(.syntax, "unexpected \(describeCurrent()); expected a value")
        }
    }

    mutating func expectLiteral(_ word: StaticString) throws {
        let start = index
        let count = word.utf8CodeUnitCount
        let matches = index + count <= bytes.count && (0..<count).allSatisfy { bytes[index + $0] == word.utf8Start[$0] }
        guard matches else { throw fail(.syntax, "invalid literal; expected '\(word)'", at: start) }
        index += count
    }

    mutating func parseObject(depth: Int) throws -> JSONValue {
        index += 1  // {
        var object: [String: JSONValue] = [:]
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == quote else {
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { throw fail(.syntax, "trailing comma before '}'") }
                throw fail(.syntax, "expected a double-quoted key, found \(describeCurrent())")
            }
            let keyOffset = index
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw fail(.syntax, "expected ':' after key \"\(key)\", found \(describeCurrent())")
            }
            index += 1
            skipWhitespace()
            let value = try parseValue(depth: depth + 1)
            // Keys equal as Swift strings (canonically equivalent Unicode) count as one key too: the
            // dictionary could not keep both, and dropping either would change what was signed.
            if object.updateValue(value, forKey: key) != nil {
                throw fail(.duplicateKey, "duplicate key \"\(key)\"", at: keyOffset)
            }
            skipWhitespace()
            guard index < bytes.count else { throw fail(.syntax, "unexpected end of input; expected ',' or '}'") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(object)
            default: throw fail(.syntax, "expected ',' or '}' after the value of \"\(key)\", found \(describeCurrent())")
            }
        }
    }

    mutating func parseArray(depth: Int) throws -> JSONValue {
        index += 1  // [
        var items: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { throw fail(.syntax, "trailing comma before ']'") }
            items.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            guard index < bytes.count else { throw fail(.syntax, "unexpected end of input; expected ',' or ']'") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(items)
            default: throw fail(.syntax, "expected ',' or ']' in an array, found \(describeCurrent())")
            }
        }
    }

    // MARK: Strings

    /// A string's value. Without escapes it is the source's bytes between the quotes, validated as UTF-8 on the way.
    mutating func parseString() throws -> String {
        index += 1  // opening quote
        let first = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == quote {
                let value = String(decoding: UnsafeBufferPointer(rebasing: bytes[first..<index]), as: UTF8.self)
                index += 1
                return value
            }
            if byte == backslash {
                var value = Array(UnsafeBufferPointer(rebasing: bytes[first..<index]))
                return try parseEscapedString(into: &value)
            }
            if byte < 0x20 { throw controlCharacter(byte) }
            if byte < 0x80 { index += 1 } else { index += try utf8Sequence() }
        }
        throw fail(.syntax, "unterminated string", at: first - 1)
    }

    /// The rest of a string from its first escape, built as UTF-8 bytes.
    mutating func parseEscapedString(into value: inout [UInt8]) throws -> String {
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case quote:
                index += 1
                return String(decoding: value, as: UTF8.self)
            case backslash:
                let escapeOffset = index
                index += 1
                guard index < bytes.count else { throw fail(.syntax, "unterminated string") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case quote, backslash, UInt8(ascii: "/"): value.append(escape)
                case UInt8(ascii: "b"): value.append(0x08)
                case UInt8(ascii: "f"): value.append(0x0C)
                case UInt8(ascii: "n"): value.append(0x0A)
                case UInt8(ascii: "r"): value.append(0x0D)
                case UInt8(ascii: "t"): value.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xDC00...0xDFFF).contains(code) {
                        throw fail(.loneSurrogate, "\\u escape is a low surrogate without a high one before it", at: escapeOffset)
                    }
                    if (0xD800...0xDBFF).contains(code) {
                        guard index + 1 < bytes.count, bytes[index] == backslash, bytes[index + 1] == UInt8(ascii: "u") else {
                            throw fail(.loneSurrogate, "\\u escape is a high surrogate without a low one after it", at: escapeOffset)
                        }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else {
                            throw fail(.loneSurrogate, "\\u escape is a high surrogate without a low one after it", at: escapeOffset)
                        }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    // Every code point left is a scalar: surrogates were paired or refused above.
                    UTF8.encode(Unicode.Scalar(code)!) { value.append($0) }
                default:
                    throw fail(.syntax, "invalid escape sequence; valid ones are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX", at: escapeOffset)
                }
            default:
                if byte < 0x20 { throw controlCharacter(byte) }
                if byte < 0x80 {
                    value.append(byte)
                    index += 1
                } else {
                    let length = try utf8Sequence()
                    value.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<index + length]))
                    index += length
                }
            }
        }
        throw fail(.syntax, "unterminated string")
    }

    func controlCharacter(_ byte: UInt8) -> ReleaseJSONParser.SyntaxError {
        fail(.syntax, byte == 0x0A ? "unterminated string (a line break inside a string must be escaped as \\n)"
                                   : String(format: "control character 0x%02X inside a string must be escaped", byte))
    }

    mutating func hex4() throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw fail(.syntax, "\\u escape needs four hexadecimal digits") }
            guard let digit = Hex.value(ofDigit: bytes[index]) else { throw fail(.syntax, "\\u escape needs four hexadecimal digits") }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// The length of the well-formed UTF-8 sequence of two to four bytes at `index` (`UTF8Sequence`); anything else is refused.
    func utf8Sequence() throws -> Int {
        switch UTF8Sequence(in: bytes, at: index) {
        case .valid(let length): return length
        case .cannotStart: throw fail(.invalidUTF8, String(format: "invalid UTF-8: byte 0x%02X cannot start a character", bytes[index]))
        case .cutOff: throw fail(.invalidUTF8, "invalid UTF-8: a character is cut off by the end of input")
        case .cannotContinue(let offset):
            throw fail(.invalidUTF8, String(format: "invalid UTF-8: byte 0x%02X cannot continue the character", bytes[offset]), at: offset)
        }
    }

    // MARK: Numbers

    mutating func parseNumber() throws -> JSONValue {
        let start = index
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw fail(.syntax, "expected a digit in the number") }
        // The integer part, accumulated while it fits: past 2^63 it can only be refused or a double.
        var magnitude: UInt64 = 0
        var overflow = false
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw fail(.syntax, "numbers must not have leading zeros", at: start) }
        } else {
            while index < bytes.count, isDigit(bytes[index]) {
                let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(UInt64(bytes[index] - UInt8(ascii: "0")))
                overflow = overflow || o1 || o2
                magnitude = sum
                index += 1
            }
        }
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail(.syntax, "expected a digit after the decimal point") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail(.syntax, "expected a digit in the exponent") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if isInteger {
            // Canonical JSON signs integers only; one that does not fit is refused, not read as a double.
            let limit = negative ? UInt64(Int.max) + 1 : UInt64(Int.max)
            guard !overflow, magnitude <= limit else {
                throw fail(.integerOutOfRange, "integer \(text(start..<index)) is out of range (\(Int.min)...\(Int.max))", at: start)
            }
            if negative { return .int(magnitude == UInt64(Int.max) + 1 ? Int.min : -Int(magnitude)) }
            return .int(Int(magnitude))
        }
        let text = text(start..<index)
        guard let double = Double(text), double.isFinite else {
            throw fail(.numberOutOfRange, "number \(text) is out of range", at: start)
        }
        return .double(double)
    }

    func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
}
