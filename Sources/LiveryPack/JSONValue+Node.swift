import LiveryLoad
import LiveryReleaseFormat

extension JSONValue {
    /// A located manifest node as JSON (locations are dropped).
    public init(_ node: Node) {
        switch node.value {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .int(let i): self = .int(i)
        case .float(let d): self = d.isFinite ? .double(d) : .null
        case .string(let s): self = .string(s)
        case .sequence(let items): self = .array(items.map(JSONValue.init))
        case .mapping(let entries):
            var object: [String: JSONValue] = [:]
            for entry in entries where entry.key != "$schema" { object[entry.key] = JSONValue(entry.value) }
            self = .object(object)
        }
    }
}
