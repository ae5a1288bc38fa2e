import Foundation
import LiveryDiagnostics
import LiveryLoad

/// Standalone DTCG token files (`livery tokens check|resolve`): parsed, layered in the order
/// given (a later file overrides an earlier one's tokens) and resolved.
public enum TokenSet {
    public static func load(_ files: [URL], displayPaths: [String]? = nil) -> (ResolvedTokens, [Diagnostic]) {
        var layers: [[DesignToken]] = []
        var extends: [GroupExtension] = []
        var groupTypes: [String: String] = [:]
        var diagnostics: [Diagnostic] = []
        for (index, file) in files.enumerated() {
            let display = displayPaths?[index] ?? file.path
            let (node, _, found) = ManifestParser.load(file, displayPath: display)
            diagnostics += found
            guard let node else { continue }
            let parsed = TokenParser.parseFile(node)
            diagnostics += parsed.diagnostics
            layers.append(parsed.tokens)
            extends += parsed.groupExtends
            groupTypes.merge(parsed.groupTypes) { _, new in new }
        }
        let (resolved, found) = TokenResolver.resolve(layers, extends: extends, groupTypes: groupTypes)
        return (resolved, (diagnostics + found).normalized())
    }
}

extension ResolvedTokens {
    /// The resolved tokens as a DTCG document: groups nested by path, each token with its
    /// resolved `$type` and `$value` (no references left), and its `$description`,
    /// `$deprecated` and `$extensions` as written. Tokens that did not resolve are left out.
    public func document() -> Node {
        let origin = SourceLocation(file: "", line: 0, column: 0)
        final class Group {
            var children: [String: Group] = [:]
            var token: [Node.Entry]?
        }
        let root = Group()
        for path in values.keys.sorted() {
            guard let value = values[path], let token = tokens[path] else { continue }
            var group = root
            let parts = path.split(separator: ".").map(String.init)
            for part in parts.dropLast() {
                if let next = group.children[part] { group = next } else { let next = Group(); group.children[part] = next; group = next }
            }
            var entries: [Node.Entry] = []
            if let type = types[path] { entries.append(Node.Entry(key: "$type", keyLocation: origin, value: Node(.string(type), at: origin))) }
            entries.append(Node.Entry(key: "$value", keyLocation: origin, value: value))
            if let description = token.description { entries.append(Node.Entry(key: "$description", keyLocation: origin, value: Node(.string(description), at: origin))) }
            if let deprecated = token.deprecated { entries.append(Node.Entry(key: "$deprecated", keyLocation: origin, value: deprecated)) }
            if let extensions = token.extensions { entries.append(Node.Entry(key: "$extensions", keyLocation: origin, value: extensions)) }
            let leaf = Group()
            leaf.token = entries
            group.children[parts.last ?? path] = leaf
        }
        func node(_ group: Group) -> Node {
            if let token = group.token { return Node(.mapping(token), at: origin) }
            return Node(.mapping(group.children.keys.sorted().map { Node.Entry(key: $0, keyLocation: origin, value: node(group.children[$0]!)) }), at: origin)
        }
        return node(root)
    }
}
