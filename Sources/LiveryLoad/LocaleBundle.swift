import Foundation
import LiveryDiagnostics

/// The messages of one locale: keys (nested groups flattened with dots) to ICU MessageFormat text.
public struct LocaleBundle: Sendable {
    public struct Message: Sendable {
        public var key: String
        public var keyLocation: SourceLocation
        public var text: String
        public var location: SourceLocation
        /// How the text was written, to map positions inside it back to the file.
        public var scalar: ScalarSource? = nil

        /// The file location of the text's character at `offset` (Unicode scalars from its start; the
        /// text's length is just past its end), through quotes, escapes and block scalars.
        public func location(atOffset offset: Int) -> SourceLocation {
            guard let scalar else { return ScalarSource.shifted(location, by: offset, quoted: false) }
            return scalar.location(ofValueOffset: offset, value: text, start: location)
        }
    }

    public var locale: String
    public var file: String
    public var location: SourceLocation
    /// Messages in file order. Changing them starts a new `derived` cache.
    public var messages: [Message] {
        didSet { derived = DerivedValues() }
    }
    /// What later stages compute from these messages (parsed MessageFormat trees), kept once for
    /// every rule that asks; copies of an unchanged bundle share it.
    public private(set) var derived = DerivedValues()

    /// The message of `key` (its first definition), through an index kept in `derived`: callers ask
    /// for every key of every locale, and scanning the messages each time was quadratic in a bundle's size.
    public func message(_ key: String) -> Message? {
        let index = derived.value(MessageIndex.self) {
            MessageIndex(positions: Dictionary(messages.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { first, _ in first }))
        }
        return index.positions[key].map { messages[$0] }
    }
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
                    messages.append(Message(key: key, keyLocation: entry.keyLocation, text: text, location: entry.value.location, scalar: entry.value.scalar))
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

/// Values derived from an immutable input, computed once and shared by every copy of that input.
///
/// Rules run one after another on a tenant and tenants run in parallel, while an inherited bundle
/// is shared by every tenant that extends it, so the first caller computes under the lock and the
/// others wait for that result instead of computing it again.
/// Where each key's message sits in `LocaleBundle.messages`.
struct MessageIndex: Sendable {
    let positions: [String: Int]
}

public final class DerivedValues: @unchecked Sendable {
    // The lock guards `values`; each value is immutable once stored.
    private let lock = NSLock()
    private var values: [ObjectIdentifier: any Sendable] = [:]

    public init() {}

    /// The value of type `T`, computed by `make` on first use.
    public func value<T: Sendable>(_ type: T.Type = T.self, _ make: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        if let stored = values[ObjectIdentifier(type)] as? T { return stored }
        let made = make()
        values[ObjectIdentifier(type)] = made
        return made
    }
}
