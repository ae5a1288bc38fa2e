import LiveryDiagnostics
import LiveryLoad

/// What a reference points at: a token, and optionally a part of its value (JSON Pointer
/// references may reach into a value, e.g. `#/color/blue/$value/components/0`).
public struct TokenReference: Sendable, Hashable {
    /// The token's dot-separated path.
    public var path: String
    /// Keys or indexes inside the token's resolved value; empty for the whole value.
    public var subpath: [String]
    /// The reference as written, for messages.
    public var text: String

    /// `{group.token}`: the whole string is one curly-brace reference.
    public static func curly(_ node: Node) -> TokenReference? {
        // On UTF-8 bytes: this runs for every string of every value, and Foundation's
        // `contains(_: String)` on a substring was a tenth of `livery tokens check`'s time.
        guard let text = node.string else { return nil }
        let bytes = text.utf8
        guard bytes.count > 2, bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}") else { return nil }
        let inner = bytes.dropFirst().dropLast()
        guard !inner.contains(where: { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") }) else { return nil }
        return TokenReference(path: String(decoding: inner, as: UTF8.self), subpath: [], text: text)
    }

    /// A JSON Pointer (RFC 6901) URI fragment into the token document: `#/group/token/$value/…`.
    /// Nil when it is not one; a pointer to a group yields that group's path (reported later as
    /// not a token).
    public static func pointer(_ text: String) -> TokenReference? {
        guard text.hasPrefix("#/") else { return nil }
        let raw = text.dropFirst(2).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        var parts: [String] = []
        for segment in raw {
            let decoded = segment.removingPercentEncoding ?? segment
            parts.append(decoded.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~"))
        }
        guard !parts.isEmpty, !parts.contains(where: \.isEmpty) else { return nil }
        if let index = parts.firstIndex(of: "$value") {
            guard index > 0 else { return nil }
            return TokenReference(path: parts[..<index].joined(separator: "."), subpath: Array(parts[(index + 1)...]), text: text)
        }
        return TokenReference(path: parts.joined(separator: "."), subpath: [], text: text)
    }

    /// `{"$ref": "#/…"}` used as a value or a part of one.
    public static func pointerObject(_ node: Node) -> TokenReference? {
        guard let entries = node.entries, entries.count == 1, entries[0].key == "$ref", let text = entries[0].value.string else { return nil }
        return pointer(text)
    }

    /// Any reference a value may be: curly braces or a pointer object.
    public static func of(_ node: Node) -> TokenReference? { curly(node) ?? pointerObject(node) }
}

/// One design token of a DTCG file, with where it is defined.
///
/// A token is copied into every layer, index and result it appears in, and its fields (three
/// located values among them) take some 400 bytes: they live in one shared box, copied only when
/// a copy is changed, so that copying a token is a reference count and not a memory copy.
public struct DesignToken: Sendable {
    /// Dot-separated path, e.g. `color.palette.blue-500`.
    public var path: String {
        get { storage.path }
        set { uniqueStorage().path = newValue }
    }
    /// `$type`, given on the token or inherited from a group.
    public var type: String? {
        get { storage.type }
        set { uniqueStorage().type = newValue }
    }
    /// `$value` as written (it may be a reference); for a `$ref` token, the pointer string.
    public var value: Node {
        get { storage.value }
        set { uniqueStorage().value = newValue }
    }
    /// Where the token's name is written.
    public var location: SourceLocation {
        get { storage.location }
        set { uniqueStorage().location = newValue }
    }
    public var description: String? {
        get { storage.description }
        set { uniqueStorage().description = newValue }
    }
    public var extensions: Node? {
        get { storage.extensions }
        set { uniqueStorage().extensions = newValue }
    }
    public var deprecated: Node? {
        get { storage.deprecated }
        set { uniqueStorage().deprecated = newValue }
    }
    /// Set when the token has no `$type` of its own and sits in a group that `$extends` another
    /// (with no `$type` nearer): its type comes from the extended group, which the resolver finds.
    public var awaitsExtendedType: Bool {
        get { storage.awaitsExtendedType }
        set { uniqueStorage().awaitsExtendedType = newValue }
    }
    /// Set when the whole value is a reference: `"$value": "{a.b}"` or `"$ref": "#/a/b/$value"`.
    public var reference: TokenReference? {
        get { storage.reference }
        set { uniqueStorage().reference = newValue }
    }

    private var storage: Storage

    public init(path: String, type: String?, value: Node, location: SourceLocation, description: String? = nil,
                extensions: Node? = nil, deprecated: Node? = nil, reference: TokenReference? = nil) {
        storage = Storage(path: path, type: type, value: value, location: location, description: description,
                          extensions: extensions, deprecated: deprecated, reference: reference ?? TokenReference.curly(value))
    }

    /// The path a whole-value reference points to, or nil.
    public var aliasTarget: String? { reference?.path }

    static func aliasTarget(of node: Node) -> String? { TokenReference.curly(node)?.path }

    /// The box, copied first if another token shares it.
    private mutating func uniqueStorage() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    /// A token's fields. Unchecked `Sendable`: a box is changed only through the one token that
    /// holds it (`uniqueStorage()`), the way a standard library collection's buffer is.
    private final class Storage: @unchecked Sendable {
        var path: String
        var type: String?
        var value: Node
        var location: SourceLocation
        var description: String?
        var extensions: Node?
        var deprecated: Node?
        var reference: TokenReference?
        var awaitsExtendedType = false

        init(path: String, type: String?, value: Node, location: SourceLocation, description: String?,
             extensions: Node?, deprecated: Node?, reference: TokenReference?) {
            self.path = path
            self.type = type
            self.value = value
            self.location = location
            self.description = description
            self.extensions = extensions
            self.deprecated = deprecated
            self.reference = reference
        }

        func copy() -> Storage {
            let copy = Storage(path: path, type: type, value: value, location: location, description: description,
                               extensions: extensions, deprecated: deprecated, reference: reference)
            copy.awaitsExtendedType = awaitsExtendedType
            return copy
        }
    }
}

/// A group's `$extends`: the group inherits every token of another group it does not define itself.
public struct GroupExtension: Sendable {
    public var group: String
    public var target: TokenReference
    public var location: SourceLocation
}

/// The thirteen token types of DTCG 2025.10.
public enum TokenType {
    public static let all = ["color", "dimension", "fontFamily", "fontWeight", "duration", "cubicBezier", "number",
                             "strokeStyle", "border", "transition", "shadow", "gradient", "typography"]
}

/// Parses DTCG token files: groups, tokens, `$type` inheritance and reserved `$` properties.
public enum TokenParser {
    // Lists, not sets: a handful of short keys compare faster than they hash.
    static let tokenProperties = ["$value", "$ref", "$type", "$description", "$extensions", "$deprecated"]
    static let groupProperties = ["$type", "$description", "$extensions", "$deprecated", "$extends", "$schema"]

    /// A token's reserved properties, found in one pass over its object (the first of each, as a
    /// lookup by key finds it).
    private struct TokenProperties {
        private let entries: [Node.Entry]
        private var valueAt, refAt, typeAt, descriptionAt, extensionsAt, deprecatedAt: Int?

        init(_ object: Node) {
            entries = object.entries ?? []
            for position in entries.indices {
                switch entries[position].key {
                case "$value": valueAt = valueAt ?? position
                case "$ref": refAt = refAt ?? position
                case "$type": typeAt = typeAt ?? position
                case "$description": descriptionAt = descriptionAt ?? position
                case "$extensions": extensionsAt = extensionsAt ?? position
                case "$deprecated": deprecatedAt = deprecatedAt ?? position
                default: break
                }
            }
        }

        var value: Node? { valueAt.map { entries[$0].value } }
        var ref: Node? { refAt.map { entries[$0].value } }
        var type: Node? { typeAt.map { entries[$0].value } }
        var description: Node? { descriptionAt.map { entries[$0].value } }
        var extensions: Node? { extensionsAt.map { entries[$0].value } }
        var deprecated: Node? { deprecatedAt.map { entries[$0].value } }
    }

    /// A parsed token file.
    public struct Result: Sendable {
        public var tokens: [DesignToken] = []
        /// Group `$extensions` by group path.
        public var groupExtensions: [String: Node] = [:]
        public var groupExtends: [GroupExtension] = []
        /// Each group's own `$type` by group path ("" for the file's root), for the resolver: a
        /// token in a group that `$extends` another takes its type from that group.
        public var groupTypes: [String: String] = [:]
        public var diagnostics: [Diagnostic] = []
    }

    public static func parse(_ manifest: Manifest) -> (tokens: [DesignToken], groupExtensions: [String: Node], diagnostics: [Diagnostic]) {
        let result = parseFile(manifest.node)
        return (result.tokens, result.groupExtensions, result.diagnostics)
    }

    /// A group waiting in the walk: its node, its dot-separated path (nil for the file's root), the `$type` it
    /// inherits, and whether that type comes from a group this one or a parent `$extends`.
    private typealias PendingGroup = (group: Node, path: String?, inheritedType: String?, inheritedFromExtends: Bool)

    /// Parses a token document: groups, tokens, `$type` inheritance, `$root`, `$extends`, `$ref`
    /// tokens, and each token's value against its type.
    public static func parseFile(_ root: Node) -> Result {
        var result = Result()
        guard root.entries != nil else {
            result.diagnostics.append(Diagnostic(.error, TokenStructureMessage.notAnObject(found: root.typeDescription),
                                                 at: root.location, rule: ResolveRule.tokenStructure))
            return result
        }
        // Iterative walk, a group's children in document order.
        var stack: [PendingGroup] = [(root, nil, nil, false)]
        while let pending = stack.popLast() {
            let path = pending.path
            let (groupType, typeFromExtends) = readGroupProperties(pending, into: &result)
            var children: [PendingGroup] = []
            for entry in pending.group.entries ?? [] {
                guard isGroupOrToken(entry, &result.diagnostics) else { continue }
                let name = path.map { $0 + "." + entry.key } ?? entry.key
                let properties = TokenProperties(entry.value)
                if properties.value != nil || properties.ref != nil {
                    if let token = token(entry, named: name, properties, groupType: groupType, typeFromExtends: typeFromExtends, &result.diagnostics) {
                        result.tokens.append(token)
                    }
                } else if entry.key == "$root" {
                    result.diagnostics.append(Diagnostic(.error, TokenStructureMessage.rootNotToken(name: name), at: entry.keyLocation,
                                                         rule: ResolveRule.tokenStructure))
                } else {
                    children.append((entry.value, name, groupType, typeFromExtends))
                }
            }
            stack.append(contentsOf: children.reversed())
        }
        return result
    }

    /// A group's own properties (`$type`, metadata, `$extensions`, `$extends`) into `result`; returns the type its
    /// tokens and groups inherit and whether it comes from an `$extends`.
    private static func readGroupProperties(_ pending: PendingGroup, into result: inout Result) -> (type: String?, fromExtends: Bool) {
        let (group, path, inheritedType, inheritedFromExtends) = pending
        var groupType = inheritedType
        var typeFromExtends = inheritedFromExtends
        let groupPath = path ?? ""
        var ownType: String?
        if let typeNode = group["$type"] {
            ownType = checkType(typeNode, &result.diagnostics)
            groupType = ownType ?? inheritedType
            if let ownType {
                result.groupTypes[groupPath] = ownType
                typeFromExtends = false
            }
        }
        checkMetadata(group, &result.diagnostics)
        if let ext = group["$extensions"] { result.groupExtensions[groupPath] = ext }
        if let extends = group["$extends"] {
            if let text = extends.string, let target = TokenReference.curly(extends) ?? TokenReference.pointer(text), path != nil {
                result.groupExtends.append(GroupExtension(group: groupPath, target: target, location: extends.location))
                // The extended group's `$type` comes before any parent's (DTCG 2025.10 §6.4: the
                // extending group inherits the other group's properties): only the resolver, which
                // sees every file, knows it, so tokens below without a type of their own wait for it.
                if ownType == nil {
                    groupType = nil
                    typeFromExtends = true
                }
            } else {
                result.diagnostics.append(Diagnostic(.error, TokenStructureMessage.badExtends(),
                                                     at: extends.location, rule: ResolveRule.tokenStructure))
            }
        }
        return (groupType, typeFromExtends)
    }

    /// Whether a group's entry is a token or a group (or `$root`); a group property, a name with '.', '{' or '}', and
    /// a value that is not an object are not (and all but a known group property are reported).
    private static func isGroupOrToken(_ entry: Node.Entry, _ diagnostics: inout [Diagnostic]) -> Bool {
        if entry.key.hasPrefix("$") && entry.key != "$root" {
            if !groupProperties.contains(entry.key) {
                diagnostics.append(Diagnostic(.warning, TokenShapeMessage.unknownGroupProperty(key: entry.key), at: entry.keyLocation, rule: ShapeRule.unknownKey,
                                              hint: DidYouMean.hint(for: entry.key, among: groupProperties)))
            }
            return false
        }
        // Bytes first, as almost no name has any of the three; then characters, which is what
        // the rule compares (a '.' with a combining mark on it is another character).
        if entry.key.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") }),
           entry.key.contains(where: { $0 == "." || $0 == "{" || $0 == "}" }) {
            diagnostics.append(Diagnostic(.error, TokenStructureMessage.badName(name: entry.key),
                                          at: entry.keyLocation, rule: ResolveRule.tokenStructure))
            return false
        }
        guard entry.value.entries != nil else {
            diagnostics.append(Diagnostic(.error, TokenStructureMessage.notGroupOrToken(name: entry.key, found: entry.value.typeDescription),
                                          at: entry.value.location, rule: ResolveRule.tokenStructure,
                                          hint: "write {\"$value\": …}"))
            return false
        }
        return true
    }

    /// The token an entry with `$value` or `$ref` declares, typed by its own `$type` or its group's, its value checked
    /// against the type; nil (reported) for a `$ref` that is not a JSON pointer.
    private static func token(_ entry: Node.Entry, named name: String, _ properties: TokenProperties, groupType: String?,
                              typeFromExtends: Bool, _ diagnostics: inout [Diagnostic]) -> DesignToken? {
        let valueNode = properties.value, refNode = properties.ref
        var type = groupType
        if let typeNode = properties.type { type = checkType(typeNode, &diagnostics) ?? groupType }
        for property in entry.value.entries ?? [] where !tokenProperties.contains(property.key) {
            diagnostics.append(Diagnostic(.error, TokenShapeMessage.unknownTokenProperty(key: property.key, token: name),
                                          at: property.keyLocation, rule: ShapeRule.unknownKey,
                                          hint: DidYouMean.hint(for: property.key, among: tokenProperties)
                                             ?? "a token holds only $value (or $ref), $type, $description, $extensions and $deprecated"))
        }
        var reference: TokenReference?
        let value: Node
        if let valueNode {
            value = valueNode
            if let refNode {
                diagnostics.append(Diagnostic(.error, TokenStructureMessage.valueAndRef(token: name),
                                              at: refNode.location, rule: ResolveRule.tokenStructure))
            }
        } else {
            value = refNode!
            reference = refNode!.string.flatMap(TokenReference.pointer)
            if reference == nil {
                diagnostics.append(Diagnostic(.error, TokenStructureMessage.badRef(token: name),
                                              at: refNode!.location, rule: ResolveRule.tokenStructure))
                return nil
            }
        }
        checkMetadata(entry.value, &diagnostics)
        var token = DesignToken(path: name, type: type, value: value, location: entry.keyLocation,
                                description: properties.description?.string, extensions: properties.extensions,
                                deprecated: properties.deprecated, reference: reference)
        if token.reference == nil {
            if let type {
                diagnostics += TokenValueChecker.check(value, type: type, path: name)
            } else if typeFromExtends {
                // Typed, or reported, by the resolver (`TokenTyping`), which sees the extended group.
                token.awaitsExtendedType = true
            } else {
                diagnostics.append(TokenTyping.untyped(token))
            }
        }
        return token
    }

    /// `$description` is a string, `$deprecated` a boolean or a string, `$extensions` an object
    /// (DTCG 2025.10 §5.2, §5.3, §5.4 and the same properties of groups); reported at the value.
    static func checkMetadata(_ object: Node, _ diagnostics: inout [Diagnostic]) {
        for entry in object.entries ?? [] {
            let expected: String
            switch entry.key {
            case "$description":
                if entry.value.string != nil { continue }
                expected = "a string"
            case "$deprecated":
                if entry.value.string != nil || entry.value.bool != nil { continue }
                expected = "true, false or a string saying why"
            case "$extensions":
                if entry.value.entries != nil { continue }
                expected = "an object keyed by vendor, like {\"com.example\": …}"
            default:
                continue
            }
            diagnostics.append(Diagnostic(.error, TokenPropertyMessage.wrongType(property: entry.key, expected: expected, found: entry.value.typeDescription), at: entry.value.location,
                                          rule: ResolveRule.tokenProperty,
                                          hint: entry.key == "$deprecated" ? "write \"$deprecated\": true, or a string such as \"use color.brand instead\"" : nil))
        }
    }

    private static func checkType(_ node: Node, _ diagnostics: inout [Diagnostic]) -> String? {
        guard let type = node.string, TokenType.all.contains(type) else {
            let given = node.string ?? node.typeDescription
            diagnostics.append(Diagnostic(.error, TokenTypeMessage.unknownType(type: given), at: node.location, rule: ResolveRule.tokenType,
                                          hint: DidYouMean.hint(for: given, among: TokenType.all)
                                            ?? "types are \(TokenType.all.joined(separator: ", "))"))
            return nil
        }
        return type
    }
}

/// The `structure.unknown-key` messages of token files.
public enum TokenShapeMessage {
    public static func unknownGroupProperty(key: String) -> DiagnosticMessage { DiagnosticMessage("unknown-group-property", "unknown group property '\(key)'") }
    public static func unknownTokenProperty(key: String, token: String) -> DiagnosticMessage {
        DiagnosticMessage("unknown-token-property", "unknown token property '\(key)' in '\(token)'")
    }
}

/// The messages of `branding.token-structure`.
public enum TokenStructureMessage {
    public static func notAnObject(found: String) -> DiagnosticMessage {
        DiagnosticMessage("not-an-object", "a token file must be a JSON object of groups and tokens, found \(found)")
    }
    public static func badExtends() -> DiagnosticMessage { DiagnosticMessage("bad-extends", "$extends names another group, as \"{group.name}\" or \"#/group/name\"") }
    public static func badName(name: String) -> DiagnosticMessage { DiagnosticMessage("bad-name", "token and group names cannot contain '.', '{' or '}': '\(name)'") }
    public static func notGroupOrToken(name: String, found: String) -> DiagnosticMessage {
        DiagnosticMessage("not-group-or-token", "'\(name)' must be a group or a token (an object with $value), found \(found)")
    }
    public static func valueAndRef(token: String) -> DiagnosticMessage { DiagnosticMessage("value-and-ref", "'\(token)' has both $value and $ref; a token has one or the other") }
    public static func badRef(token: String) -> DiagnosticMessage {
        DiagnosticMessage("bad-ref", "'\(token)': $ref is a JSON Pointer into the document, like \"#/color/blue/$value\"")
    }
    public static func rootNotToken(name: String) -> DiagnosticMessage { DiagnosticMessage("root-not-token", "'\(name)' must be a token (an object with $value)") }
}

/// The message of `branding.token-property`.
public enum TokenPropertyMessage {
    public static func wrongType(property: String, expected: String, found: String) -> DiagnosticMessage {
        DiagnosticMessage("wrong-type", "\(property) is \(expected), found \(found)")
    }
}
