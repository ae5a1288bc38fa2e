import Foundation
import LiveryEncoding
import LiveryReleaseFormat

/// Readable, deterministic JSON for the files people read (case.json, index.json): two-space
/// indentation, object keys in a preferred order (the rest sorted after them by UTF-8 bytes),
/// short objects and lists of scalars on one line, and a final newline. (Not LiveryRender's `NodeJSON`,
/// which keeps a token document's own member order; both escape strings with `JSONText`.)
struct VectorJSON {
    var keyOrder: [String]

    func format(_ value: JSONValue) -> Data {
        var out = ""
        write(value, indent: "", into: &out)
        out += "\n"
        return Data(out.utf8)
    }

    private func orderedKeys(_ object: [String: JSONValue]) -> [String] {
        let preferred = keyOrder.filter { object[$0] != nil }
        let rest = object.keys.filter { !keyOrder.contains($0) }.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return preferred + rest
    }

    private func isScalar(_ value: JSONValue) -> Bool {
        switch value {
        case .object, .array: return false
        default: return true
        }
    }

    /// The value on one line, when it is short and flat enough to read that way.
    private func inline(_ value: JSONValue) -> String? {
        switch value {
        case .array(let items) where items.allSatisfy(isScalar):
            var out = "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += ", " }
                write(item, indent: "", into: &out)
            }
            return out + "]"
        case .object(let object) where object.values.allSatisfy(isScalar):
            var out = "{"
            for (index, key) in orderedKeys(object).enumerated() {
                if index > 0 { out += ", " }
                out += Self.quoted(key) + ": "
                write(object[key]!, indent: "", into: &out)
            }
            out += "}"
            return out.count <= 140 ? out : nil
        default:
            return nil
        }
    }

    private func write(_ value: JSONValue, indent: String, into out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let bool): out += bool ? "true" : "false"
        case .int(let int): out += String(int)
        case .double(let double): out += String(double)
        case .string(let string): out += Self.quoted(string)
        case .array(let items):
            if let line = inline(value) { out += line; return }
            out += "[\n"
            for (index, item) in items.enumerated() {
                out += indent + "  "
                if let line = inline(item) { out += line } else { write(item, indent: indent + "  ", into: &out) }
                out += index < items.count - 1 ? ",\n" : "\n"
            }
            out += indent + "]"
        case .object(let object):
            if object.isEmpty { out += "{}"; return }
            out += "{\n"
            let keys = orderedKeys(object)
            for (index, key) in keys.enumerated() {
                out += indent + "  " + Self.quoted(key) + ": "
                let member = object[key]!
                if let line = inline(member) { out += line } else { write(member, indent: indent + "  ", into: &out) }
                out += index < keys.count - 1 ? ",\n" : "\n"
            }
            out += indent + "}"
        }
    }

    static func quoted(_ string: String) -> String { JSONText.quoted(string) }
}
