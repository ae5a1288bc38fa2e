import Foundation

/// Canonical JSON as TUF signs it (the OLPC form): object keys sorted by code point, no
/// insignificant whitespace, only `"` and `\` escaped in strings, integers only.
///
/// A dedicated encoder because `JSONEncoder` with `.sortedKeys` escapes differently (`/`, control
/// characters, non-ASCII) and allows floats. Tested against securesystemslib's `encode_canonical`.
public enum CanonicalJSON {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public static func encode(_ value: JSONValue) throws -> Data {
        var out: [UInt8] = []
        try write(value, into: &out)
        return Data(out)
    }

    private static func write(_ value: JSONValue, into out: inout [UInt8]) throws {
        switch value {
        case .null: out += Array("null".utf8)
        case .bool(let b): out += Array((b ? "true" : "false").utf8)
        case .int(let i): out += Array(String(i).utf8)
        case .double(let d):
            // Whole numbers read from JSON text may arrive as doubles; anything else cannot be signed.
            guard d == d.rounded(), abs(d) < 9.007e15 else { throw Failure(description: "canonical JSON has no floating-point numbers: \(d)") }
            out += Array(String(Int(d)).utf8)
        case .string(let s): writeString(s, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                try write(item, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            // Code-point order equals UTF-8 byte order.
            let members = Array(object)
            for (index, position) in JSONValue.utf8Order(members.map(\.key)).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                writeString(members[position].key, into: &out)
                out.append(UInt8(ascii: ":"))
                try write(members[position].value, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func writeString(_ string: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { out.append(UInt8(ascii: "\\")) }
            out.append(byte)
        }
        out.append(UInt8(ascii: "\""))
    }
}

extension JSONValue: Decodable {
    /// Parses JSON text strictly (`ReleaseJSONParser`: duplicate keys, invalid UTF-8, a byte order mark,
    /// out-of-range integers, trailing data and deep nesting are refused); a refusal is a
    /// `TUFError(.malformed, …)` that says at which byte, line and column.
    public static func parse(_ data: Data) throws -> JSONValue {
        do {
            return try ReleaseJSONParser.parse(data)
        } catch let error as ReleaseJSONParser.SyntaxError {
            throw TUFError(.malformed, error.description)
        }
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let bool = try? container.decode(Bool.self) { self = .bool(bool) }
        else if let int = try? container.decode(Int.self) { self = .int(int) }
        else if let double = try? container.decode(Double.self) { self = .double(double) }
        else if let string = try? container.decode(String.self) { self = .string(string) }
        else if let array = try? container.decode([JSONValue].self) { self = .array(array) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }
    public var stringValue: String? { if case .string(let s) = self { return s }; return nil }
    public var intValue: Int? {
        switch self {
        case .int(let i): return i
        // Only whole numbers an Int holds exactly: `Int(1e300)` would trap on hostile input.
        case .double(let d) where d == d.rounded() && abs(d) < 9.007e15: return Int(d)
        default: return nil
        }
    }
    public var boolValue: Bool? { if case .bool(let b) = self { return b }; return nil }
    public var objectValue: [String: JSONValue]? { if case .object(let o) = self { return o }; return nil }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a }; return nil }
}
