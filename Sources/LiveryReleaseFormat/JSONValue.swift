import Foundation
import LiveryEncoding

/// A JSON document written deterministically: object keys sorted by their UTF-8 bytes, no
/// insignificant whitespace, integers as integers, and strings escaped minimally.
/// Bundles and the download manifest must be byte-identical for identical inputs.
public indirect enum JSONValue: Sendable, Equatable {
    case object([String: JSONValue])
    case array([JSONValue])
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case null

    public var bytes: Data {
        var out: [UInt8] = []
        write(into: &out)
        out.append(0x0A)
        return Data(out)
    }

    private func write(into out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): out.append(contentsOf: String(i).utf8)
        case .double(let d):
            if d == d.rounded(), abs(d) < 1e15 { out.append(contentsOf: String(Int(d)).utf8) } else { out.append(contentsOf: "\(d)".utf8) }
        case .string(let s): Self.writeString(s, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                item.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            // The members with their values (no lookup per key), by their keys' UTF-8 bytes.
            let members = Array(object)
            for (index, position) in Self.utf8Order(members.map(\.key)).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(members[position].key, into: &out)
                out.append(UInt8(ascii: ":"))
                members[position].value.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func writeString(_ string: String, into out: inout [UInt8]) {
        JSONText.appendQuoted(string, to: &out)
    }

    /// The positions of `keys` in the order of their UTF-8 bytes (canonical JSON's key order), equal keys
    /// in their given order. The keys are copied once into one buffer and compared there with memcmp:
    /// comparing the strings themselves (`utf8.lexicographicallyPrecedes`) went a byte at a time and
    /// retained and released each string at every comparison.
    public static func utf8Order(_ keys: [String]) -> [Int] {
        var bytes: [UInt8] = []
        var bounds: [(start: Int, count: Int)] = []
        bounds.reserveCapacity(keys.count)
        for key in keys {
            let start = bytes.count
            bytes.append(contentsOf: key.utf8)
            bounds.append((start, bytes.count - start))
        }
        return bytes.withUnsafeBufferPointer { (buffer: UnsafeBufferPointer<UInt8>) -> [Int] in
            func precedes(_ a: Int, _ b: Int) -> Bool {
                let x = bounds[a], y = bounds[b]
                let common: Int = Swift.min(x.count, y.count)
                if common > 0, let base = buffer.baseAddress {
                    let order: Int32 = memcmp(base.advanced(by: x.start), base.advanced(by: y.start), common)
                    if order != 0 { return order < 0 }
                }
                if x.count != y.count { return x.count < y.count }
                return a < b
            }
            return Array(keys.indices).sorted(by: precedes)
        }
    }

    /// The bytes of `.object` of `keys` mapped to `.string` of `values` (same length), written without a
    /// `JSONValue` per member: a locale bundle's messages, thousands per tenant. As in the dictionary that
    /// `.object` holds, keys Swift finds equal (canonically equivalent) are one member, with the first
    /// key's spelling and the last value.
    public static func stringObjectBytes(keys: [String], values: [String]) -> Data {
        precondition(keys.count == values.count)
        var members: [String] = [], texts: [String] = []
        var index: [String: Int] = [:]
        members.reserveCapacity(keys.count)
        texts.reserveCapacity(keys.count)
        index.reserveCapacity(keys.count)
        var capacity = 16
        for (key, value) in zip(keys, values) {
            if let existing = index[key] {
                texts[existing] = value
            } else {
                index[key] = members.count
                members.append(key)
                texts.append(value)
            }
            capacity += key.utf8.count + value.utf8.count + 6
        }
        var out: [UInt8] = []
        out.reserveCapacity(capacity)
        out.append(UInt8(ascii: "{"))
        for (position, member) in utf8Order(members).enumerated() {
            if position > 0 { out.append(UInt8(ascii: ",")) }
            writeString(members[member], into: &out)
            out.append(UInt8(ascii: ":"))
            writeString(texts[member], into: &out)
        }
        out.append(UInt8(ascii: "}"))
        out.append(0x0A)
        return Data(out)
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }
}
