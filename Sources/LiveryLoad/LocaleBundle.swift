import LiveryDiagnostics

/// The messages of one locale: keys (nested groups flattened with dots) to ICU MessageFormat text.
public struct LocaleBundle: Sendable {
    public struct Message: Sendable {
        public var key: String
        public var keyLocation: SourceLocation
        public var text: String
        public var location: SourceLocation
    }

    public var locale: String
    public var file: String
    public var location: SourceLocation
    /// Messages in file order.
    public var messages: [Message]

    public func message(_ key: String) -> Message? { messages.first { $0.key == key } }
    public var keys: Set<String> { Set(messages.map(\.key)) }

    /// Flattens a locale manifest; values must be strings or groups of strings.
    public static func parse(_ manifest: Manifest) -> (LocaleBundle, [Diagnostic]) {
        var messages: [Message] = []
        var diagnostics: [Diagnostic] = []
        var seen: [String: SourceLocation] = [:]
        var stack: [(Node.Entry, String)] = (manifest.node.entries ?? []).reversed().map { ($0, "") }
        while let (entry, prefix) = stack.popLast() {
            if prefix.isEmpty && entry.key == "$schema" { continue }
            let key = prefix.isEmpty ? entry.key : prefix + "." + entry.key
            if !StringFormat.messageKey.matches(key) {
                diagnostics.append(Diagnostic(.error, "'\(entry.key)' is not a valid message key; keys are \(StringFormat.messageKey.summary)",
                                              at: entry.keyLocation, rule: ShapeRule.format))
                continue
            }
            switch entry.value.value {
            case .string(let text):
                if let first = seen[key] {
                    diagnostics.append(Diagnostic(.error, "key '\(key)' is defined twice (first at line \(first.line), column \(first.column))",
                                                  at: entry.keyLocation, rule: LoadRule.duplicateKey))
                } else {
                    seen[key] = entry.keyLocation
                    messages.append(Message(key: key, keyLocation: entry.keyLocation, text: text, location: entry.value.location))
                }
            case .mapping(let children):
                stack.append(contentsOf: children.reversed().map { ($0, key) })
            default:
                diagnostics.append(Diagnostic(.error, "message '\(key)' must be text or a group of messages, found \(entry.value.typeDescription)",
                                              at: entry.value.location, rule: ShapeRule.type,
                                              hint: "quote the value, e.g. \"\(key.split(separator: ".").last ?? ""): '…'\""))
            }
        }
        return (LocaleBundle(locale: manifest.stem, file: manifest.displayPath, location: manifest.node.location, messages: messages), diagnostics)
    }
}
