import LiveryDiagnostics
import LiveryLoad

/// A set of tokens for one mode with every alias resolved.
public struct ResolvedTokens: Sendable {
    /// Tokens by path, later files overriding earlier ones.
    public var tokens: [String: DesignToken]
    /// Each token's value with aliases replaced by the values they point to.
    public var values: [String: Node]
    /// Each token's resolved type (its own, or its alias target's).
    public var types: [String: String]
}

/// Resolves `{group.token}` aliases across a stack of token files, reporting unknown targets,
/// cycles (naming every token in the cycle) and aliases whose target has another type.
public enum TokenResolver {
    public static func resolve(_ layers: [[DesignToken]]) -> (ResolvedTokens, [Diagnostic]) {
        var tokens: [String: DesignToken] = [:]
        for layer in layers {
            for token in layer { tokens[token.path] = token }
        }
        var diagnostics: [Diagnostic] = []
        var values: [String: Node] = [:]
        var types: [String: String] = [:]
        var failed = Set<String>()
        var reportedCycles = Set<[String]>()

        // Follows whole-value alias chains iteratively; nested aliases inside composite values are
        // resolved after, against the fully resolved whole-value tokens.
        func resolveChain(_ start: String) {
            var chain: [String] = []
            var current = start
            while true {
                if values[current] != nil || failed.contains(current) { break }
                if let index = chain.firstIndex(of: current) {
                    let cycle = Array(chain[index...])
                    let key = cycle.sorted()
                    if reportedCycles.insert(key).inserted {
                        let text = (cycle + [current]).joined(separator: " → ")
                        for member in cycle {
                            if let token = tokens[member] {
                                diagnostics.append(Diagnostic(.error, "alias cycle: \(text)", at: token.value.location, rule: ResolveRule.aliasCycle,
                                                              hint: "one token in the cycle must hold a value instead of an alias"))
                            }
                        }
                    }
                    failed.formUnion(chain)
                    return
                }
                chain.append(current)
                guard let token = tokens[current] else { break }
                guard let target = token.aliasTarget else {
                    values[current] = token.value
                    if let type = token.type { types[current] = type }
                    break
                }
                guard tokens[target] != nil else {
                    diagnostics.append(Diagnostic(.error, "'\(token.path)' refers to '{\(target)}', which is not a token",
                                                  at: token.value.location, rule: ResolveRule.aliasUnknown,
                                                  hint: DidYouMean.suggestion(for: target, among: tokens.keys).map { "did you mean '{\($0)}'?" }))
                    failed.formUnion(chain)
                    return
                }
                current = target
            }
            // Unwind: every token on the chain takes the value at its end.
            // `current` is where the walk stopped: a token holding a value (or one resolved earlier).
            guard let value = values[current] else { return }
            for member in chain.reversed() where member != current {
                values[member] = value
                if let own = tokens[member]?.type, let targetType = types[current], own != targetType {
                    diagnostics.append(Diagnostic(.error, "'\(member)' has type \(own), but its alias resolves to a \(targetType) token",
                                                  at: tokens[member]!.value.location, rule: ResolveRule.aliasType))
                }
                types[member] = tokens[member]?.type ?? types[current]
            }
        }

        for path in tokens.keys.sorted() { resolveChain(path) }

        // Aliases inside composite values (a border's colour, a shadow's colour…), resolved depth
        // first so the result does not depend on the order tokens are visited in.
        var composite = CompositeSubstitution(tokens: tokens, values: values)
        for path in values.keys.sorted() where values[path]?.entries != nil || values[path]?.items != nil {
            values[path] = composite.resolved(path)
        }
        diagnostics += composite.diagnostics
        return (ResolvedTokens(tokens: tokens, values: values, types: types), diagnostics)
    }
}

/// Replaces aliases nested in composite token values, memoised, with cycles reported.
private struct CompositeSubstitution {
    let tokens: [String: DesignToken]
    var values: [String: Node]
    var done = Set<String>()
    var inProgress = Set<String>()
    var diagnostics: [Diagnostic] = []

    init(tokens: [String: DesignToken], values: [String: Node]) {
        self.tokens = tokens
        self.values = values
    }

    mutating func resolved(_ path: String) -> Node? {
        guard let value = values[path] else { return nil }
        if done.contains(path) { return value }
        guard inProgress.insert(path).inserted else { return value }
        let result = substitute(value, owner: path)
        inProgress.remove(path)
        done.insert(path)
        values[path] = result
        return result
    }

    private mutating func substitute(_ node: Node, owner: String) -> Node {
        switch node.value {
        case .string:
            guard let target = DesignToken.aliasTarget(of: node) else { return node }
            if tokens[target] == nil {
                diagnostics.append(Diagnostic(.error, "'\(owner)' refers to '{\(target)}', which is not a token", at: node.location, rule: ResolveRule.aliasUnknown,
                                              hint: DidYouMean.suggestion(for: target, among: tokens.keys).map { "did you mean '{\($0)}'?" }))
                return node
            }
            if inProgress.contains(target) {
                diagnostics.append(Diagnostic(.error, "alias cycle through a composite value: '\(owner)' → '{\(target)}'", at: node.location, rule: ResolveRule.aliasCycle))
                return node
            }
            return resolved(target) ?? node
        case .sequence(let items):
            return Node(.sequence(items.map { substitute($0, owner: owner) }), at: node.location)
        case .mapping(let entries):
            return Node(.mapping(entries.map { Node.Entry(key: $0.key, keyLocation: $0.keyLocation, value: substitute($0.value, owner: owner)) }), at: node.location)
        default:
            return node
        }
    }
}
