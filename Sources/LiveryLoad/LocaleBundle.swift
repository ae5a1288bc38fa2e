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
    /// Keys written in the file whose value is not text (a number, a list: `structure.type`), with the value's place.
    /// They are not messages, but they are not missing either: findings about such a key (missing in a translation,
    /// absent from the default locale) name this place, so they are folded under the type error (`RootCause`).
    public var refused: [String: SourceLocation] = [:]

    /// The message of `key` (its first definition), through an index kept in `derived`: callers ask
    /// for every key of every locale, and scanning the messages each time was quadratic in a bundle's size.
    public func message(_ key: String) -> Message? {
        index(of: key).map { messages[$0] }
    }

    /// Where the message of `key` is in `messages`.
    public func index(of key: String) -> Int? { keyIndex[key] }

    /// Each key's position in `messages`, computed once per bundle; a loop over many keys should fetch
    /// it once rather than call `index(of:)` for each.
    public var keyIndex: [String: Int] {
        derived.value(MessageIndex.self) {
            var positions: [String: Int] = [:]
            positions.reserveCapacity(messages.count)
            for i in messages.indices where positions[messages[i].key] == nil { positions[messages[i].key] = i }
            return MessageIndex(positions: positions)
        }.positions
    }

    /// Every key (a loop over many keys should look them up in `keyIndex` instead).
    public var keys: Set<String> { Set(keyIndex.keys) }

    /// Flattens a locale manifest; values must be strings or groups of strings.
    public static func parse(_ manifest: Manifest) -> (LocaleBundle, [Diagnostic]) {
        var messages: [Message] = []
        var refused: [String: SourceLocation] = [:]
        var diagnostics: [Diagnostic] = []
        if manifest.node.entries == nil {
            diagnostics.append(Diagnostic(.error, ShapeMessage.notMapping(found: manifest.node.typeDescription), at: manifest.node.location, rule: ShapeRule.type))
        }
        let entries = manifest.node.entries ?? []
        messages.reserveCapacity(entries.count)
        // The YAML and JSON loaders refuse duplicate keys within a mapping, so two messages can only share
        // a key through groups ("a: {b: …}" and "a.b: …"); without groups or dotted keys there is nothing to look up.
        var seen: [String: SourceLocation]? = entries.contains { $0.value.entries != nil || $0.key.utf8.contains(UInt8(ascii: ".")) } ? [:] : nil
        // Entries are read in place (a copy of each entry is several reference counts); groups nest no
        // deeper than the loader's depth limit, so the recursion is bounded.
        func flatten(_ entries: [Node.Entry], prefix: String) {
            for i in entries.indices {
                if prefix.isEmpty && entries[i].key == "$schema" { continue }
                let key = prefix.isEmpty ? entries[i].key : prefix + "." + entries[i].key
                if !StringFormat.messageKey.matches(key) {
                    diagnostics.append(Diagnostic(.error, ShapeMessage.badMessageKey(key: entries[i].key, format: StringFormat.messageKey.summary),
                                                  at: entries[i].keyLocation, rule: ShapeRule.format, hint: InvisibleCharacters.hint(for: entries[i].key)))
                    continue
                }
                switch entries[i].value.value {
                case .string(let text):
                    if let first = seen?[key] {
                        diagnostics.append(Diagnostic(.error, ShapeMessage.duplicateMessageKey(key: key, line: first.line, column: first.column),
                                                      at: entries[i].keyLocation, rule: LoadRule.duplicateKey))
                    } else {
                        seen?[key] = entries[i].keyLocation
                        messages.append(Message(key: key, keyLocation: entries[i].keyLocation, text: text, location: entries[i].value.location,
                                                scalar: entries[i].value.scalar))
                    }
                case .mapping(let children):
                    flatten(children, prefix: key)
                default:
                    if refused[key] == nil { refused[key] = entries[i].value.location }
                    diagnostics.append(Diagnostic(.error, ShapeMessage.messageType(key: key, found: entries[i].value.typeDescription),
                                                  at: entries[i].value.location, rule: ShapeRule.type,
                                                  hint: "quote the value, e.g. \"\(key.split(separator: ".").last ?? ""): '…'\""))
                }
            }
        }
        flatten(entries, prefix: "")
        var bundle = LocaleBundle(locale: manifest.stem, file: manifest.displayPath, location: manifest.node.location, messages: messages)
        bundle.refused = refused
        return (bundle, diagnostics)
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

    /// Drops the value of type `T`; the next `value` computes it again.
    public func forget<T>(_ type: T.Type) {
        lock.withLock { _ = values.removeValue(forKey: ObjectIdentifier(type)) }
    }
}
