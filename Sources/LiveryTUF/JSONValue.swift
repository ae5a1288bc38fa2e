import Foundation

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
            let members = object.sorted { Self.utf8Precedes($0.key, $1.key) }
            for (index, member) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                member.value.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func writeString(_ string: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Most strings (hashes, names, dates) need no escape: copy their bytes at once.
        var string = string
        let plain = string.withUTF8 { utf8 in
            for byte in utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return false }
            out.append(contentsOf: utf8)
            return true
        }
        if plain {
            out.append(UInt8(ascii: "\""))
            return
        }
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: out += Array("\\n".utf8)
            case 0x0D: out += Array("\\r".utf8)
            case 0x09: out += Array("\\t".utf8)
            case 0..<0x20: out += Array(String(format: "\\u%04x", byte).utf8)
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Whether `a` sorts before `b` by their UTF-8 bytes (canonical JSON's key order), compared with
    /// memcmp: `utf8.lexicographicallyPrecedes` gave the same order one byte at a time.
    static func utf8Precedes(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                let common = min(x.count, y.count)
                if common > 0 {
                    let order = memcmp(x.baseAddress!, y.baseAddress!, common)
                    if order != 0 { return order < 0 }
                }
                return x.count < y.count
            }
        }
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }
}
