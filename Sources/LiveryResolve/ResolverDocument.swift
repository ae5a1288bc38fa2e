import LiveryDiagnostics
import LiveryLoad

/// A DTCG 2025.10 resolver document: named sets of token sources, modifiers whose contexts
/// (light/dark, brand, density…) each add their own sources, and the resolution order that
/// layers them. Given one context per modifier, it yields the token sources in order; a later
/// source overrides an earlier one's tokens.
public struct ResolverDocument: Sendable {
    /// Where tokens come from: a token file (a path relative to the tenant folder) or tokens written inline.
    public enum Source: Sendable {
        case file(String, SourceLocation)
        case inline(Node)
    }

    public struct Modifier: Sendable {
        public var name: String
        /// Context names in document order, with their sources.
        public var contexts: [(name: String, sources: [Source])]
        public var defaultContext: String?
        public var location: SourceLocation
    }

    enum Step: Sendable {
        case set([Source])
        case modifier(Modifier)
    }

    var steps: [Step]

    /// The modifiers of the resolution order, in order.
    public var modifiers: [Modifier] {
        steps.compactMap { if case .modifier(let modifier) = $0 { return modifier } else { return nil } }
    }

    /// Every combination of contexts, the default one first and called `default`; the others
    /// are named by their non-default contexts joined with `+` (`dark`, `dark+compact`).
    public var combinations: [(name: String, inputs: [String: String])] {
        var result: [[String: String]] = [[:]]
        for modifier in modifiers {
            result = result.flatMap { partial in modifier.contexts.map { partial.merging([modifier.name: $0.name]) { $1 } } }
        }
        let named = result.map { inputs -> (String, [String: String]) in
            let parts = modifiers.compactMap { modifier -> String? in
                guard let chosen = inputs[modifier.name], chosen != (modifier.defaultContext ?? modifier.contexts.first?.name) else { return nil }
                return chosen
            }
            return (parts.isEmpty ? "default" : parts.joined(separator: "+"), inputs)
        }
        return named.sorted { ($0.0 == "default" ? 0 : 1, $0.0) < ($1.0 == "default" ? 0 : 1, $1.0) }
    }

    /// The sources for one choice of contexts (a modifier without an input takes its default).
    public func sources(for inputs: [String: String]) throws(ResolverError) -> [Source] {
        var sources: [Source] = []
        for step in steps {
            switch step {
            case .set(let items): sources += items
            case .modifier(let modifier):
                guard let chosen = inputs[modifier.name] ?? modifier.defaultContext else {
                    throw ResolverError("modifier '\(modifier.name)' has no default: choose one of \(modifier.contexts.map(\.name).joined(separator: ", "))")
                }
                guard let context = modifier.contexts.first(where: { $0.name == chosen }) else {
                    throw ResolverError("'\(chosen)' is not a context of modifier '\(modifier.name)'; contexts are \(modifier.contexts.map(\.name).joined(separator: ", "))")
                }
                sources += context.sources
            }
        }
        return sources
    }

    /// Reads a resolver document. `resolvePath` turns a `$ref` file reference (relative to the
    /// document) into a tenant-relative path, or nil when it leaves the tenant folder.
    public static func parse(_ root: Node, resolvePath: @escaping (String) -> String?) -> (ResolverDocument?, [Diagnostic]) {
        var parser = Parser(root: root, resolvePath: resolvePath)
        let document = parser.document()
        // A mistake that leaves the document's meaning whole (a misspelt top-level property) is reported and
        // the document still used, so its tokens resolve and no finding follows from it; any other drops it.
        let usable = parser.diagnostics.allSatisfy { ResolverMessage.keepsTokens($0.messageID) }
        return (usable ? document : nil, parser.diagnostics)
    }

    private struct Parser {
        let root: Node
        let resolvePath: (String) -> String?
        var diagnostics: [Diagnostic] = []

        mutating func fail(_ message: DiagnosticMessage, at location: SourceLocation, hint: String? = nil) {
            diagnostics.append(Diagnostic(.error, message, at: location, rule: ResolveRule.resolver, hint: hint))
        }

        mutating func document() -> ResolverDocument? {
            guard let entries = root.entries else {
                fail(ResolverMessage.notAnObject(), at: root.location)
                return nil
            }
            let known = ["$schema", "name", "version", "description", "sets", "modifiers", "resolutionOrder", "$defs"]
            for entry in entries where !known.contains(entry.key) {
                fail(ResolverMessage.unknownProperty(key: entry.key), at: entry.keyLocation, hint: DidYouMean.hint(for: entry.key, among: known))
            }
            if let version = root["version"] {
                if version.string != "2025.10" { fail(ResolverMessage.wrongVersion(found: version.string.map { "'\($0)'" } ?? version.typeDescription), at: version.location) }
            } else {
                fail(ResolverMessage.noVersion(), at: root.location)
            }
            guard let order = root["resolutionOrder"], let items = order.items, !items.isEmpty else {
                fail(ResolverMessage.noResolutionOrder(), at: root["resolutionOrder"]?.location ?? root.location)
                return nil
            }
            var steps: [Step] = []
            var names = Set<String>()
            for item in items {
                if let reference = item["$ref"] {
                    guard let text = reference.string else { fail(ResolverMessage.referenceNotString(), at: reference.location); continue }
                    if text.hasPrefix("#/sets/"), let name = Self.pointerName(text, prefix: "#/sets/") {
                        guard let set = root["sets"]?[name] else { fail(ResolverMessage.noSet(name: name), at: reference.location, hint: hint(name, root["sets"])); continue }
                        guard names.insert(name).inserted else { fail(ResolverMessage.orderedTwice(name: name), at: reference.location); continue }
                        var visiting: Set<String> = [name]
                        steps.append(.set(sources(set["sources"], in: set, visiting: &visiting)))
                    } else if text.hasPrefix("#/modifiers/"), let name = Self.pointerName(text, prefix: "#/modifiers/") {
                        guard let node = root["modifiers"]?[name] else { fail(ResolverMessage.noModifier(name: name), at: reference.location, hint: hint(name, root["modifiers"])); continue }
                        guard names.insert(name).inserted else { fail(ResolverMessage.orderedTwice(name: name), at: reference.location); continue }
                        if let modifier = modifier(node, name: name) { steps.append(.modifier(modifier)) }
                    } else {
                        fail(ResolverMessage.orderReference(), at: reference.location)
                    }
                    continue
                }
                // Inline sets and modifiers carry their own name and type.
                guard let name = item["name"]?.string, let type = item["type"]?.string else {
                    fail(ResolverMessage.inlineItem(), at: item.location)
                    continue
                }
                guard names.insert(name).inserted else { fail(ResolverMessage.orderedTwice(name: name), at: item.location); continue }
                switch type {
                case "set":
                    var visiting: Set<String> = []
                    steps.append(.set(sources(item["sources"], in: item, visiting: &visiting)))
                case "modifier":
                    if let modifier = modifier(item, name: name) { steps.append(.modifier(modifier)) }
                default:
                    fail(ResolverMessage.itemType(type: type), at: item["type"]!.location)
                }
            }
            return ResolverDocument(steps: steps)
        }

        func hint(_ name: String, _ group: Node?) -> String? {
            DidYouMean.hint(for: name, among: (group?.entries ?? []).map(\.key))
        }

        static func pointerName(_ text: String, prefix: String) -> String? {
            let rest = text.dropFirst(prefix.count)
            guard !rest.isEmpty, !rest.contains("/") else { return nil }
            return rest.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }

        mutating func modifier(_ node: Node, name: String) -> Modifier? {
            guard let contexts = node["contexts"]?.entries else {
                fail(ResolverMessage.noContexts(modifier: name), at: node.location)
                return nil
            }
            if contexts.count < 2 { fail(ResolverMessage.oneContext(modifier: name), at: node["contexts"]!.location) }
            var list: [(name: String, sources: [Source])] = []
            for context in contexts {
                var visiting: Set<String> = []
                list.append((context.key, sources(context.value, in: node, visiting: &visiting)))
            }
            let fallback = node["default"]
            if let fallback, !(fallback.string.map { value in contexts.contains { $0.key == value } } ?? false) {
                fail(ResolverMessage.defaultNotContext(modifier: name, contexts: contexts.map(\.key).joined(separator: ", ")), at: fallback.location)
            }
            return Modifier(name: name, contexts: list, defaultContext: fallback?.string, location: node.location)
        }

        /// A sources array: file references, references to other sets, and inline tokens.
        mutating func sources(_ node: Node?, in owner: Node, visiting: inout Set<String>) -> [Source] {
            guard let items = node?.items else {
                fail(ResolverMessage.sourcesNotArray(), at: node?.location ?? owner.location)
                return []
            }
            var result: [Source] = []
            for item in items {
                guard let reference = item["$ref"], item.entries?.count == 1 else {
                    if item.entries != nil { result.append(.inline(item)) } else { fail(ResolverMessage.sourceShape(), at: item.location) }
                    continue
                }
                guard let text = reference.string else { fail(ResolverMessage.referenceNotString(), at: reference.location); continue }
                if text.hasPrefix("#/modifiers/") || text.hasPrefix("#/resolutionOrder/") {
                    fail(ResolverMessage.sourceNotASet(), at: reference.location)
                } else if text.hasPrefix("#/sets/"), let name = Self.pointerName(text, prefix: "#/sets/") {
                    guard let set = root["sets"]?[name] else { fail(ResolverMessage.noSet(name: name), at: reference.location, hint: hint(name, root["sets"])); continue }
                    guard visiting.insert(name).inserted else { fail(ResolverMessage.setCycle(name: name), at: reference.location); continue }
                    result += sources(set["sources"], in: set, visiting: &visiting)
                    visiting.remove(name)
                } else if text.hasPrefix("#") || text.contains("#") {
                    fail(ResolverMessage.pointerIntoFile(), at: reference.location)
                } else if let path = resolvePath(text) {
                    result.append(.file(path, reference.location))
                } else {
                    fail(ResolverMessage.outsideTenant(path: text), at: reference.location)
                }
            }
            return result
        }
    }
}

/// A resolver input that does not match the document.
public struct ResolverError: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ description: String) { self.description = description }
}
