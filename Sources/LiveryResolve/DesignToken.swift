import LiveryDiagnostics
import LiveryLoad

/// One design token of a DTCG file, with where it is defined.
public struct DesignToken: Sendable {
    /// Dot-separated path, e.g. `color.palette.blue-500`.
    public var path: String
    /// `$type`, given on the token or inherited from a group.
    public var type: String?
    /// `$value` as written (it may contain aliases).
    public var value: Node
    /// Where the token's name is written.
    public var location: SourceLocation
    public var description: String?
    public var extensions: Node?
    public var deprecated: Node?

    /// The path a whole-value alias points to (`{color.blue}` → `color.blue`), or nil.
    public var aliasTarget: String? { DesignToken.aliasTarget(of: value) }

    static func aliasTarget(of node: Node) -> String? {
        guard let text = node.string, text.hasPrefix("{"), text.hasSuffix("}"), text.count > 2 else { return nil }
        let inner = text.dropFirst().dropLast()
        return inner.contains("{") || inner.contains("}") ? nil : String(inner)
    }
}

/// The thirteen token types of DTCG 2025.10.
public enum TokenType {
    public static let all = ["color", "dimension", "fontFamily", "fontWeight", "duration", "cubicBezier", "number",
                             "strokeStyle", "border", "transition", "shadow", "gradient", "typography"]
}

/// Parses DTCG token files: groups, tokens, `$type` inheritance and reserved `$` properties.
public enum TokenParser {
    static let tokenProperties: Set<String> = ["$value", "$type", "$description", "$extensions", "$deprecated"]
    static let groupProperties: Set<String> = ["$type", "$description", "$extensions", "$deprecated", "$extends", "$schema"]

    public static func parse(_ manifest: Manifest) -> (tokens: [DesignToken], groupExtensions: [String: Node], diagnostics: [Diagnostic]) {
        var tokens: [DesignToken] = []
        var extensions: [String: Node] = [:]
        var diagnostics: [Diagnostic] = []
        guard manifest.node.entries != nil else {
            diagnostics.append(Diagnostic(.error, "a token file must be a JSON object of groups and tokens, found \(manifest.node.typeDescription)",
                                          at: manifest.node.location, rule: ResolveRule.tokenStructure))
            return ([], [:], diagnostics)
        }
        // Iterative walk: (group node, its path, inherited $type).
        var stack: [(Node, [String], String?)] = [(manifest.node, [], nil)]
        while let (group, path, inheritedType) = stack.popLast() {
            var groupType = inheritedType
            if let typeNode = group["$type"] {
                groupType = checkType(typeNode, &diagnostics) ?? inheritedType
            }
            if let ext = group["$extensions"] { extensions[path.joined(separator: ".")] = ext }
            var children: [(Node, [String], String?)] = []
            for entry in group.entries ?? [] {
                if entry.key.hasPrefix("$") && entry.key != "$root" {
                    if !groupProperties.contains(entry.key) {
                        diagnostics.append(Diagnostic(.warning, "unknown group property '\(entry.key)'", at: entry.keyLocation, rule: ShapeRule.unknownKey,
                                                      hint: DidYouMean.hint(for: entry.key, among: groupProperties)))
                    }
                    continue
                }
                if entry.key.contains(".") || entry.key.contains("{") || entry.key.contains("}") {
                    diagnostics.append(Diagnostic(.error, "token and group names cannot contain '.', '{' or '}': '\(entry.key)'",
                                                  at: entry.keyLocation, rule: ResolveRule.tokenStructure))
                    continue
                }
                guard entry.value.entries != nil else {
                    diagnostics.append(Diagnostic(.error, "'\(entry.key)' must be a group or a token (an object with $value), found \(entry.value.typeDescription)",
                                                  at: entry.value.location, rule: ResolveRule.tokenStructure,
                                                  hint: "write {\"$value\": …}"))
                    continue
                }
                let childPath = path + [entry.key]
                if let value = entry.value["$value"] {
                    var type = groupType
                    if let typeNode = entry.value["$type"] { type = checkType(typeNode, &diagnostics) ?? groupType }
                    for property in entry.value.entries ?? [] where !tokenProperties.contains(property.key) {
                        diagnostics.append(Diagnostic(.error, "unknown token property '\(property.key)' in '\(childPath.joined(separator: "."))'",
                                                      at: property.keyLocation, rule: ShapeRule.unknownKey,
                                                      hint: DidYouMean.hint(for: property.key, among: tokenProperties)
                                                        ?? "a token holds only $value, $type, $description, $extensions and $deprecated"))
                    }
                    tokens.append(DesignToken(path: childPath.joined(separator: "."), type: type, value: value, location: entry.keyLocation,
                                              description: entry.value["$description"]?.string, extensions: entry.value["$extensions"],
                                              deprecated: entry.value["$deprecated"]))
                } else {
                    children.append((entry.value, childPath, groupType))
                }
            }
            stack.append(contentsOf: children.reversed())
        }
        return (tokens, extensions, diagnostics)
    }

    private static func checkType(_ node: Node, _ diagnostics: inout [Diagnostic]) -> String? {
        guard let type = node.string, TokenType.all.contains(type) else {
            let given = node.string ?? node.typeDescription
            diagnostics.append(Diagnostic(.error, "'\(given)' is not a DTCG token type", at: node.location, rule: ResolveRule.tokenType,
                                          hint: DidYouMean.hint(for: given, among: TokenType.all)
                                            ?? "types are \(TokenType.all.joined(separator: ", "))"))
            return nil
        }
        return type
    }
}
