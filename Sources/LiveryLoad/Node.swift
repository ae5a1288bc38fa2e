import LiveryDiagnostics

/// A parsed manifest value that remembers where it came from (file, line, column).
///
/// YAML and JSON both load into this one tree, so every later stage can point at the exact
/// character a finding is about, whichever format the creator wrote.
public struct Node: Sendable, Hashable {
    public enum Value: Sendable, Hashable {
        case null
        case bool(Bool)
        case int(Int)
        case float(Double)
        case string(String)
        case sequence([Node])
        case mapping([Entry])
    }

    /// One key–value pair of a mapping; the key keeps its own location.
    public struct Entry: Sendable, Hashable {
        public var key: String
        public var keyLocation: SourceLocation
        public var value: Node

        public init(key: String, keyLocation: SourceLocation, value: Node) {
            self.key = key
            self.keyLocation = keyLocation
            self.value = value
        }
    }

    public var value: Value
    public var location: SourceLocation
    /// For a text value: how it was written, to map positions inside the text back to the file.
    /// Nil for other values, and for text built in memory.
    public var scalar: ScalarSource?

    public init(_ value: Value, at location: SourceLocation, scalar: ScalarSource? = nil) {
        self.value = value
        self.location = location
        self.scalar = scalar
    }

    // MARK: Accessors

    public var entries: [Entry]? {
        if case .mapping(let entries) = value { return entries }
        return nil
    }

    public var items: [Node]? {
        if case .sequence(let items) = value { return items }
        return nil
    }

    public var string: String? {
        if case .string(let s) = value { return s }
        return nil
    }

    public var int: Int? {
        if case .int(let i) = value { return i }
        return nil
    }

    /// Integers and floats both read as a number.
    public var number: Double? {
        switch value {
        case .int(let i): return Double(i)
        case .float(let d): return d
        default: return nil
        }
    }

    public var bool: Bool? {
        if case .bool(let b) = value { return b }
        return nil
    }

    public var isNull: Bool {
        if case .null = value { return true }
        return false
    }

    /// The value for `key` in a mapping, or nil.
    public subscript(key: String) -> Node? {
        entries?.first { $0.key == key }?.value
    }

    /// The entry for `key` in a mapping, with the key's own location.
    public func entry(_ key: String) -> Entry? {
        entries?.first { $0.key == key }
    }

    /// A short name of the value's type for messages ("a string", "a mapping").
    public var typeDescription: String {
        switch value {
        case .null: return "null"
        case .bool: return "a boolean"
        case .int: return "an integer"
        case .float: return "a number"
        case .string: return "a string"
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        }
    }

    /// Visits this node and every node below it, depth first, in document order.
    public func walk(_ visit: (Node) -> Void) {
        var stack = [self]
        while let node = stack.popLast() {
            visit(node)
            switch node.value {
            case .sequence(let items): stack.append(contentsOf: items.reversed())
            case .mapping(let entries): stack.append(contentsOf: entries.map(\.value).reversed())
            default: break
            }
        }
    }
}
