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
    /// `groupTypes`: every group's own `$type` across the layers (`TokenParser.Result.groupTypes`),
    /// which tokens in groups that `$extends` another take their type from.
    public static func resolve(_ layers: [[DesignToken]], extends: [GroupExtension] = [], groupTypes: [String: String] = [:]) -> (ResolvedTokens, [Diagnostic]) {
        var tokens: [String: DesignToken] = [:]
        tokens.reserveCapacity(layers.reduce(0) { $0 + $1.count })
        for layer in layers {
            for token in layer { tokens[token.path] = token }
        }
        // Typed before `$extends` copies tokens, so that copies carry their type.
        var diagnostics = TokenTyping.apply(to: &tokens, groupTypes: groupTypes, extends: extends)
        diagnostics += GroupExtends.apply(extends, to: &tokens)
        let table = TokenTable(tokens)
        var chains = ChainResolution(table)
        for id in table.tokens.indices { chains.resolve(from: id) }
        diagnostics += chains.diagnostics

        // References inside composite values (a border's colour, a shadow's colour…), resolved
        // depth first so the result does not depend on the order tokens are visited in.
        // A `$ref` into a value may land on a reference (a border's colour written "{color.blue}"):
        // that one is resolved here too.
        var values = chains.values
        var composite = CompositeSubstitution(table: table, chains: chains)
        for id in table.tokens.indices {
            guard let value = values[id], value.isComposite || TokenReference.curly(value) != nil else { continue }
            values[id] = composite.resolved(id)
        }
        diagnostics += composite.diagnostics

        var valuesByPath: [String: Node] = [:], typesByPath: [String: String] = [:]
        valuesByPath.reserveCapacity(table.paths.count)
        typesByPath.reserveCapacity(table.paths.count)
        for (id, path) in table.paths.enumerated() {
            if let value = values[id] { valuesByPath[path] = value }
            if let type = chains.types[id] { typesByPath[path] = type }
        }
        return (ResolvedTokens(tokens: tokens, values: valuesByPath, types: typesByPath), diagnostics)
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

/// The tokens numbered in path order, so that resolution walks arrays instead of hashing paths
/// at every step, and visits tokens in the same order on every run.
private struct TokenTable {
    /// Paths by id, sorted.
    let paths: [String]
    let tokens: [DesignToken]
    let ids: [String: Int]
    /// The token each token's whole-value reference names, when that is a token.
    let targets: [Int?]

    init(_ byPath: [String: DesignToken]) {
        let sorted = byPath.sorted { $0.key < $1.key }
        paths = sorted.map(\.key)
        tokens = sorted.map(\.value)
        var ids: [String: Int] = [:]
        ids.reserveCapacity(paths.count)
        for (id, path) in paths.enumerated() { ids[path] = id }
        self.ids = ids
        targets = tokens.map { token in token.reference.flatMap { ids[$0.path] } }
    }
}

/// Follows whole-value reference chains iteratively; references nested inside composite values
/// are resolved after, against the fully resolved whole-value tokens.
private struct ChainResolution {
    let table: TokenTable
    /// Each token's value with its whole-value reference followed (nested references not yet).
    var values: [Node?]
    /// Each token's resolved type (its own, or its reference target's).
    var types: [String?]
    /// For a token whose value is another token's whole value (an alias without a pointer into
    /// the value), the token that holds that value.
    var valueHolders: [Int?]
    var diagnostics: [Diagnostic] = []
    private var failed: [Bool]
    private var onChain: [Bool]
    /// The walk in progress, kept between walks for its storage.
    private var chain: [Int] = []
    private var reportedCycles = Set<[Int]>()

    init(_ table: TokenTable) {
        self.table = table
        values = Array(repeating: nil, count: table.tokens.count)
        types = Array(repeating: nil, count: table.tokens.count)
        valueHolders = Array(repeating: nil, count: table.tokens.count)
        failed = Array(repeating: false, count: table.tokens.count)
        onChain = failed
    }

    mutating func resolve(from start: Int) {
        if values[start] != nil || failed[start] { return }
        chain.removeAll(keepingCapacity: true)
        defer { for member in chain { onChain[member] = false } }
        var current = start
        while true {
            if values[current] != nil || failed[current] { break }
            if onChain[current], let index = chain.firstIndex(of: current) {
                let cycle = Array(chain[index...])
                // Ids are in path order: sorted ids are the cycle's members sorted by path.
                if reportedCycles.insert(cycle.sorted()).inserted {
                    let text = (cycle + [current]).map { table.paths[$0] }.joined(separator: " → ")
                    for member in cycle {
                        diagnostics.append(Diagnostic(.error, AliasMessage.cycle(tokens: text), at: table.tokens[member].value.location, rule: ResolveRule.aliasCycle,
                                                      hint: "one token in the cycle must hold a value instead of a reference"))
                    }
                }
                markFailed(chain[...])
                return
            }
            chain.append(current)
            onChain[current] = true
            let token = table.tokens[current]
            guard let reference = token.reference else {
                values[current] = token.value
                if let type = token.type { types[current] = type }
                break
            }
            guard let target = table.targets[current] else {
                let via = chain.count > 1 ? " (reached through \(chain.dropLast().map { "'\(table.paths[$0])'" }.joined(separator: " → ")))" : ""
                diagnostics.append(Diagnostic(.error, AliasMessage.notAToken(owner: token.path, reference: reference.text, via: via),
                                              at: token.value.location, rule: ResolveRule.aliasUnknown,
                                              hint: DidYouMean.suggestion(for: reference.path, among: table.paths).map { "did you mean '{\($0)}'?" }))
                markFailed(chain[...])
                return
            }
            current = target
        }
        // Unwind: each token on the chain takes the value of the next one (or the part of it
        // its pointer names). `current` is where the walk stopped: a token holding a value.
        guard values[current] != nil else { return }
        for (offset, member) in chain.enumerated().reversed() where member != current {
            let token = table.tokens[member]
            guard let reference = token.reference else { continue }
            let next = offset + 1 < chain.count ? chain[offset + 1] : current
            guard let target = values[next] else { markFailed(chain[...offset]); return }
            guard let value = TokenResolver.navigate(target, reference.subpath) else {
                diagnostics.append(Diagnostic(.error, AliasMessage.noMember(owner: table.paths[member], reference: reference.text, target: reference.path, member: reference.subpath.joined(separator: "/")),
                                              at: token.value.location, rule: ResolveRule.aliasUnknown))
                markFailed(chain[...offset])
                return
            }
            values[member] = value
            if reference.subpath.isEmpty { valueHolders[member] = valueHolders[next] ?? next }
            // A pointer into a value hands over a part of it, which must be a whole value of the
            // token's own type: a dimension cannot take a colour's component, a bare number. A part
            // that is itself a reference is checked when `CompositeSubstitution` resolves it.
            if !reference.subpath.isEmpty, let own = token.type, TokenReference.of(value) == nil, !TokenValueChecker.fits(value, own) {
                diagnostics.append(Diagnostic(.error, AliasMessage.pointsAtOtherValue(owner: table.paths[member], type: own, reference: reference.text, found: value.typeDescription),
                                              at: token.value.location, rule: ResolveRule.aliasType,
                                              hint: "point at a \(own) value, or give the token the type of the part it takes"))
            }
            let targetType = reference.subpath.isEmpty ? types[next] : nil
            if let own = token.type, let targetType, own != targetType {
                let path = (Array(chain[offset...]) + (chain.last == current ? [] : [current])).map { table.paths[$0] }.joined(separator: " → ")
                diagnostics.append(Diagnostic(.error, AliasMessage.resolvesToOtherType(owner: table.paths[member], type: own, targetType: targetType, chain: path),
                                              at: token.value.location, rule: ResolveRule.aliasType))
            }
            if let type = token.type ?? targetType { types[member] = type }
        }
    }

    private mutating func markFailed(_ members: ArraySlice<Int>) {
        for member in members { failed[member] = true }
    }
}

/// Replaces references nested in composite token values, memoised, with cycles reported.
private struct CompositeSubstitution {
    let table: TokenTable
    var values: [Node?]
    let valueHolders: [Int?]
    /// Each token's resolved type, which says what each part of its value must be.
    let types: [String?]
    var done: [Bool]
    var inProgress: [Bool]
    /// Whether a token's value as its chain left it holds no reference, by the token holding the
    /// value: most values are shared by several aliases, and are looked through once.
    var referenceFree: [Bool?]
    var diagnostics: [Diagnostic] = []

    init(table: TokenTable, chains: ChainResolution) {
        self.table = table
        values = chains.values
        valueHolders = chains.valueHolders
        types = chains.types
        done = Array(repeating: false, count: values.count)
        inProgress = done
        referenceFree = Array(repeating: nil, count: values.count)
    }

    mutating func resolved(_ id: Int) -> Node? {
        guard let value = values[id] else { return nil }
        if done[id] || inProgress[id] { return value }
        // Not yet visited, so `value` is still the value its chain left.
        let holder = valueHolders[id] ?? id
        let free = referenceFree[holder] ?? !Self.hasReference(value)
        referenceFree[holder] = free
        if free {
            done[id] = true
            return value
        }
        inProgress[id] = true
        // Named after the token that holds the value, which is where the references are written:
        // its aliases substitute the same references, and report the same findings once.
        var part: [String] = []
        let result = substitute(value, owner: table.paths[holder], type: types[holder], at: &part)
        inProgress[id] = false
        done[id] = true
        values[id] = result
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

    /// `node` with its references replaced; `part` is where `node` sits in a value of `type`.
    private mutating func substitute(_ node: Node, owner: String, type: String?, at part: inout [String]) -> Node {
        guard Self.hasReference(node) else { return node }
        if let reference = TokenReference.of(node) {
            guard let target = table.ids[reference.path] else {
                diagnostics.append(Diagnostic(.error, AliasMessage.notAToken(owner: owner, reference: reference.text, via: ""), at: node.location, rule: ResolveRule.aliasUnknown,
                                              hint: DidYouMean.suggestion(for: reference.path, among: table.paths).map { "did you mean '{\($0)}'?" }))
                return node
            }
            if inProgress[target] {
                diagnostics.append(Diagnostic(.error, AliasMessage.compositeCycle(owner: owner, reference: reference.text), at: node.location, rule: ResolveRule.aliasCycle))
                return node
            }
            guard let resolvedTarget = resolved(target) else { return node }
            guard let resolvedPart = TokenResolver.navigate(resolvedTarget, reference.subpath) else {
                diagnostics.append(Diagnostic(.error, AliasMessage.noMember(owner: owner, reference: reference.text, target: reference.path, member: reference.subpath.joined(separator: "/")),
                                              at: node.location, rule: ResolveRule.aliasUnknown))
                return node
            }
            // A value that is a reference as a whole came through a pointer into another value:
            // the mistake is the pointer's, written on the token itself.
            let location = part.isEmpty ? (table.ids[owner].map { table.tokens[$0].value.location } ?? node.location) : node.location
            checkType(of: resolvedPart, from: reference, target: target, owner: owner, type: type, at: part, location: location)
            return resolvedPart
        }
        switch node.value {
        case .sequence(let items):
            var substituted: [Node] = []
            substituted.reserveCapacity(items.count)
            for (index, item) in items.enumerated() {
                part.append(String(index))
                substituted.append(substitute(item, owner: owner, type: type, at: &part))
                part.removeLast()
            }
            return Node(.sequence(substituted), at: node.location)
        case .mapping(let entries):
            var substituted: [Node.Entry] = []
            substituted.reserveCapacity(entries.count)
            for entry in entries {
                part.append(entry.key)
                substituted.append(Node.Entry(key: entry.key, keyLocation: entry.keyLocation, value: substitute(entry.value, owner: owner, type: type, at: &part)))
                part.removeLast()
            }
            return Node(.mapping(substituted), at: node.location)
        default:
            return node
        }
    }

    /// A reference inside a value must bring what that place of a `type` value takes (DTCG
    /// 2025.10, Format §7 "type mismatches"): a border's colour a color token, a dimension's value
    /// a number. Reported at the reference.
    private mutating func checkType(of value: Node, from reference: TokenReference, target: Int, owner: String, type: String?, at part: [String], location: SourceLocation) {
        guard let type, let expected = TokenValueChecker.partType(type, at: part[...]) else { return }
        let place = part.isEmpty ? "" : " at \(part.joined(separator: "/"))"
        if reference.subpath.isEmpty, let targetType = types[target], TokenType.all.contains(expected) {
            guard targetType != expected else { return }
            diagnostics.append(Diagnostic(.error, AliasMessage.partTakesOtherType(owner: owner, expected: expected, place: place, reference: reference.text, targetType: targetType),
                                          at: location, rule: ResolveRule.aliasType))
            return
        }
        guard !TokenValueChecker.fits(value, expected) else { return }
        diagnostics.append(Diagnostic(.error, AliasMessage.partPointsAtOtherValue(owner: owner, expected: TokenValueChecker.describe(part: expected), place: place, reference: reference.text, found: value.typeDescription),
                                      at: location, rule: ResolveRule.aliasType))
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
                            diagnostics.append(Diagnostic(.error, AliasMessage.extendsCycle(groups: cycle.joined(separator: " → ")), at: item.location, rule: ResolveRule.aliasCycle))
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
                    diagnostics.append(Diagnostic(.error, AliasMessage.extendsNotAGroup(group: group, target: item.target.text),
                                                  at: item.location, rule: ResolveRule.aliasUnknown,
                                                  hint: DidYouMean.suggestion(for: item.target.path, among: Set(tokens.keys.map { $0.split(separator: ".").dropLast().joined(separator: ".") }))
                                                    .map { "did you mean '{\($0)}'?" }))
                    continue
                }
                if group.hasPrefix(prefix) {
                    diagnostics.append(Diagnostic(.error, AliasMessage.extendsContainer(group: group), at: item.location, rule: ResolveRule.aliasCycle))
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

private extension Node {
    /// A mapping or a list: a value that may hold references to other tokens' values.
    var isComposite: Bool {
        switch value {
        case .mapping, .sequence: true
        default: false
        }
    }
}

/// The messages of `branding.alias-unknown`, `branding.alias-cycle` and `branding.alias-type`.
public enum AliasMessage {
    // branding.alias-unknown
    public static func notAToken(owner: String, reference: String, via: String) -> DiagnosticMessage {
        DiagnosticMessage("not-a-token", "'\(owner)' refers to '\(reference)', which is not a token\(via)")
    }
    public static func noMember(owner: String, reference: String, target: String, member: String) -> DiagnosticMessage {
        DiagnosticMessage("no-member", "'\(owner)' refers to '\(reference)', but '\(target)' has no \(member) in its value")
    }
    public static func extendsNotAGroup(group: String, target: String) -> DiagnosticMessage {
        DiagnosticMessage("extends-not-a-group", "group '\(group)' extends '\(target)', which is not a group of tokens")
    }
    // branding.alias-cycle
    public static func cycle(tokens: String) -> DiagnosticMessage { DiagnosticMessage("cycle", "alias cycle: \(tokens)") }
    public static func compositeCycle(owner: String, reference: String) -> DiagnosticMessage {
        DiagnosticMessage("composite-cycle", "alias cycle through a composite value: '\(owner)' → '\(reference)'")
    }
    public static func extendsCycle(groups: String) -> DiagnosticMessage { DiagnosticMessage("extends-cycle", "$extends cycle: \(groups)") }
    public static func extendsContainer(group: String) -> DiagnosticMessage {
        DiagnosticMessage("extends-container", "group '\(group)' cannot extend a group that contains it")
    }
    // branding.alias-type
    public static func pointsAtOtherValue(owner: String, type: String, reference: String, found: String) -> DiagnosticMessage {
        DiagnosticMessage("points-at-other-value", "'\(owner)' has type \(type), but '\(reference)' points at \(found), not a \(type) value")
    }
    public static func resolvesToOtherType(owner: String, type: String, targetType: String, chain: String) -> DiagnosticMessage {
        DiagnosticMessage("resolves-to-other-type", "'\(owner)' has type \(type), but its alias resolves to a \(targetType) token (\(chain))")
    }
    public static func partTakesOtherType(owner: String, expected: String, place: String, reference: String, targetType: String) -> DiagnosticMessage {
        DiagnosticMessage("part-takes-other-type", "'\(owner)' takes a \(expected)\(place), but '\(reference)' is a \(targetType) token")
    }
    public static func partPointsAtOtherValue(owner: String, expected: String, place: String, reference: String, found: String) -> DiagnosticMessage {
        DiagnosticMessage("part-points-at-other-value", "'\(owner)' takes \(expected)\(place), but '\(reference)' points at \(found)")
    }
}

/// The messages of `branding.token-type`.
public enum TokenTypeMessage {
    public static func untyped(token: String) -> DiagnosticMessage {
        DiagnosticMessage("untyped", "'\(token)' has no $type, on the token or a parent group, and its value is not a reference")
    }
    public static func unknownType(type: String) -> DiagnosticMessage { DiagnosticMessage("unknown-type", "'\(type)' is not a DTCG token type") }
}
