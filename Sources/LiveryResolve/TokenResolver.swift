import LiveryDiagnostics
import LiveryLoad

/// A set of tokens for one mode with every reference resolved.
public struct ResolvedTokens: Sendable {
    /// Tokens by path, later files overriding earlier ones (and groups' `$extends` applied).
    public var tokens: [String: DesignToken]
    /// Each token's value with references replaced by the values they point to.
    public var values: [String: Node]
    /// Each token's resolved type (its own, or its reference target's).
    public var types: [String: String]
}

/// Resolves references across a stack of token files: `{group.token}` aliases, JSON Pointer `$ref`
/// (to a whole token or into its value), references nested in composite values, and groups'
/// `$extends`. Reports unknown targets and type mismatches with the chain that led there, and
/// cycles naming every token in them.
public enum TokenResolver {
    public static func resolve(_ layers: [[DesignToken]], extends: [GroupExtension] = []) -> (ResolvedTokens, [Diagnostic]) {
        var tokens: [String: DesignToken] = [:]
        tokens.reserveCapacity(layers.reduce(0) { $0 + $1.count })
        for layer in layers {
            for token in layer { tokens[token.path] = token }
        }
        var diagnostics = GroupExtends.apply(extends, to: &tokens)
        var values: [String: Node] = [:]
        var types: [String: String] = [:]
        values.reserveCapacity(tokens.count)
        types.reserveCapacity(tokens.count)
        var failed = Set<String>()
        var reportedCycles = Set<[String]>()

        // Follows whole-value reference chains iteratively; references nested inside composite
        // values are resolved after, against the fully resolved whole-value tokens.
        func resolveChain(_ start: String) {
            var chain: [String] = []
            var current = start
            while true {
                if values[current] != nil || failed.contains(current) { break }
                if let index = chain.firstIndex(of: current) {
                    let cycle = Array(chain[index...])
                    if reportedCycles.insert(cycle.sorted()).inserted {
                        let text = (cycle + [current]).joined(separator: " → ")
                        for member in cycle {
                            if let token = tokens[member] {
                                diagnostics.append(Diagnostic(.error, "alias cycle: \(text)", at: token.value.location, rule: ResolveRule.aliasCycle,
                                                              hint: "one token in the cycle must hold a value instead of a reference"))
                            }
                        }
                    }
                    failed.formUnion(chain)
                    return
                }
                chain.append(current)
                guard let token = tokens[current] else { break }
                guard let reference = token.reference else {
                    values[current] = token.value
                    if let type = token.type { types[current] = type }
                    break
                }
                guard tokens[reference.path] != nil else {
                    let via = chain.count > 1 ? " (reached through \(chain.dropLast().map { "'\($0)'" }.joined(separator: " → ")))" : ""
                    diagnostics.append(Diagnostic(.error, "'\(token.path)' refers to '\(reference.text)', which is not a token\(via)",
                                                  at: token.value.location, rule: ResolveRule.aliasUnknown,
                                                  hint: DidYouMean.suggestion(for: reference.path, among: tokens.keys).map { "did you mean '{\($0)}'?" }))
                    failed.formUnion(chain)
                    return
                }
                current = reference.path
            }
            // Unwind: each token on the chain takes the value of the next one (or the part of it
            // its pointer names). `current` is where the walk stopped: a token holding a value.
            guard values[current] != nil else { return }
            for (offset, member) in chain.enumerated().reversed() where member != current {
                guard let token = tokens[member], let reference = token.reference else { continue }
                let next = offset + 1 < chain.count ? chain[offset + 1] : current
                guard let target = values[next] else { failed.formUnion(chain[...offset]); return }
                guard let value = Self.navigate(target, reference.subpath) else {
                    diagnostics.append(Diagnostic(.error, "'\(member)' refers to '\(reference.text)', but '\(reference.path)' has no \(reference.subpath.joined(separator: "/")) in its value",
                                                  at: token.value.location, rule: ResolveRule.aliasUnknown))
                    failed.formUnion(chain[...offset])
                    return
                }
                values[member] = value
                let targetType = reference.subpath.isEmpty ? types[next] : nil
                if let own = token.type, let targetType, own != targetType {
                    let path = (Array(chain[offset...]) + (chain.last == current ? [] : [current])).joined(separator: " → ")
                    diagnostics.append(Diagnostic(.error, "'\(member)' has type \(own), but its alias resolves to a \(targetType) token (\(path))",
                                                  at: token.value.location, rule: ResolveRule.aliasType))
                }
                if let type = token.type ?? targetType { types[member] = type }
            }
        }

        for path in tokens.keys.sorted() { resolveChain(path) }

        // References inside composite values (a border's colour, a shadow's colour…), resolved
        // depth first so the result does not depend on the order tokens are visited in.
        var composite = CompositeSubstitution(tokens: tokens, values: values)
        for path in values.keys.sorted() where values[path]?.entries != nil || values[path]?.items != nil {
            values[path] = composite.resolved(path)
        }
        diagnostics += composite.diagnostics
        return (ResolvedTokens(tokens: tokens, values: values, types: types), diagnostics)
    }

    /// The part of `node` a JSON Pointer's remaining segments name (object keys, array indexes).
    static func navigate(_ node: Node, _ subpath: [String]) -> Node? {
        var current = node
        for segment in subpath {
            if let entries = current.entries, let entry = entries.first(where: { $0.key == segment }) {
                current = entry.value
            } else if let items = current.items, let index = Int(segment), items.indices.contains(index) {
                current = items[index]
            } else {
                return nil
            }
        }
        return current
    }
}

/// Replaces references nested in composite token values, memoised, with cycles reported.
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

    /// Whether a value holds any reference at all (most composite values hold none, and are then kept as they are).
    private static func hasReference(_ node: Node) -> Bool {
        switch node.value {
        case .string: return TokenReference.curly(node) != nil
        case .sequence(let items): return items.contains(where: hasReference)
        case .mapping(let entries): return TokenReference.pointerObject(node) != nil || entries.contains { hasReference($0.value) }
        default: return false
        }
    }

    private mutating func substitute(_ node: Node, owner: String) -> Node {
        guard Self.hasReference(node) else { return node }
        if let reference = TokenReference.of(node) {
            guard tokens[reference.path] != nil else {
                diagnostics.append(Diagnostic(.error, "'\(owner)' refers to '\(reference.text)', which is not a token", at: node.location, rule: ResolveRule.aliasUnknown,
                                              hint: DidYouMean.suggestion(for: reference.path, among: tokens.keys).map { "did you mean '{\($0)}'?" }))
                return node
            }
            if inProgress.contains(reference.path) {
                diagnostics.append(Diagnostic(.error, "alias cycle through a composite value: '\(owner)' → '\(reference.text)'", at: node.location, rule: ResolveRule.aliasCycle))
                return node
            }
            guard let target = resolved(reference.path) else { return node }
            guard let part = TokenResolver.navigate(target, reference.subpath) else {
                diagnostics.append(Diagnostic(.error, "'\(owner)' refers to '\(reference.text)', but '\(reference.path)' has no \(reference.subpath.joined(separator: "/")) in its value",
                                              at: node.location, rule: ResolveRule.aliasUnknown))
                return node
            }
            return part
        }
        switch node.value {
        case .sequence(let items):
            return Node(.sequence(items.map { substitute($0, owner: owner) }), at: node.location)
        case .mapping(let entries):
            return Node(.mapping(entries.map { Node.Entry(key: $0.key, keyLocation: $0.keyLocation, value: substitute($0.value, owner: owner)) }), at: node.location)
        default:
            return node
        }
    }
}

/// Groups' `$extends`: a group receives a copy of every token of the group it extends that it
/// does not define itself (its own tokens override), applied in dependency order so a chain of
/// extensions composes; cycles and unknown groups are reported at the `$extends`.
enum GroupExtends {
    static func apply(_ extensions: [GroupExtension], to tokens: inout [String: DesignToken]) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var byGroup: [String: GroupExtension] = [:]
        for item in extensions { byGroup[item.group] = item }
        var applied = Set<String>()
        for start in byGroup.keys.sorted() {
            // Walk to the first group whose target is already complete, then apply back down.
            var chain: [String] = []
            var current = start
            while let item = byGroup[current], !applied.contains(current) {
                if let index = chain.firstIndex(of: current) {
                    let cycle = chain[index...] + [current]
                    for member in chain[index...] {
                        if let item = byGroup[member] {
                            diagnostics.append(Diagnostic(.error, "$extends cycle: \(cycle.joined(separator: " → "))", at: item.location, rule: ResolveRule.aliasCycle))
                        }
                    }
                    applied.formUnion(chain)
                    chain = []
                    break
                }
                chain.append(current)
                current = item.target.path
            }
            for group in chain.reversed() {
                guard let item = byGroup[group] else { continue }
                applied.insert(group)
                let prefix = item.target.path + "."
                let inherited = tokens.values.filter { $0.path.hasPrefix(prefix) }
                guard !inherited.isEmpty else {
                    diagnostics.append(Diagnostic(.error, "group '\(group)' extends '\(item.target.text)', which is not a group of tokens",
                                                  at: item.location, rule: ResolveRule.aliasUnknown,
                                                  hint: DidYouMean.suggestion(for: item.target.path, among: Set(tokens.keys.map { $0.split(separator: ".").dropLast().joined(separator: ".") }))
                                                    .map { "did you mean '{\($0)}'?" }))
                    continue
                }
                if group.hasPrefix(prefix) {
                    diagnostics.append(Diagnostic(.error, "group '\(group)' cannot extend a group that contains it", at: item.location, rule: ResolveRule.aliasCycle))
                    continue
                }
                for token in inherited {
                    let path = group + "." + token.path.dropFirst(prefix.count)
                    if tokens[path] == nil {
                        var copy = token
                        copy.path = path
                        tokens[path] = copy
                    }
                }
            }
        }
        return diagnostics
    }
}
