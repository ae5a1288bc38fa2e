import LiveryDiagnostics
import LiveryLoad

/// Types the tokens whose type comes from a group they `$extends`. DTCG 2025.10 gives a token
/// without `$type` the type of its closest group with one, and a group that `$extends` another
/// inherits that group's tokens and properties, `$type` among them (Format §6.4, a deep merge).
/// The parser sees one file; the extended group may be in another, so the resolver, which sees
/// every layer, finishes here: it types each waiting token, checks its value against that type,
/// and reports the tokens whose type cannot be determined.
enum TokenTyping {
    static func apply(to tokens: inout [String: DesignToken], groupTypes: [String: String], extends: [GroupExtension]) -> [Diagnostic] {
        let waiting = tokens.values.filter { $0.awaitsExtendedType && $0.type == nil && $0.reference == nil }
        guard !waiting.isEmpty else { return [] }
        var targets: [String: String] = [:]
        for item in extends { targets[item.group] = item.target.path }
        var groups = GroupTypes(own: groupTypes, targets: targets)
        var diagnostics: [Diagnostic] = []
        for token in waiting.sorted(by: { $0.path < $1.path }) {
            // Names cannot contain '.', so the group is the path up to the last one.
            let group = token.path.split(separator: ".").dropLast().joined(separator: ".")
            guard let type = groups.type(of: group) else {
                diagnostics.append(untyped(token))
                continue
            }
            tokens[token.path]?.type = type
            tokens[token.path]?.awaitsExtendedType = false
            diagnostics += TokenValueChecker.check(token.value, type: type, path: token.path)
        }
        return diagnostics
    }

    /// The finding for a token whose type cannot be determined.
    static func untyped(_ token: DesignToken) -> Diagnostic {
        Diagnostic(.error, TokenTypeMessage.untyped(token: token.path),
                   at: token.location, rule: ResolveRule.tokenType, hint: "add \"$type\" to the token or its group")
    }
}

/// The `$type` a group gives its tokens, with `$extends` applied as a deep merge: a group's own
/// `$type`, else the one of the group it extends, else (inside an extending group) the one of the
/// group it stands for in the extended group, else its parent's.
private struct GroupTypes {
    let own: [String: String]
    /// The group each extending group extends.
    let targets: [String: String]
    private var known: [String: String?] = [:]
    private var visiting = Set<String>()

    init(own: [String: String], targets: [String: String]) {
        self.own = own
        self.targets = targets
    }

    mutating func type(of group: String) -> String? {
        if let found = known[group] { return found }
        // An `$extends` cycle is reported by `GroupExtends`; here it only ends the search.
        guard visiting.insert(group).inserted else { return nil }
        defer { visiting.remove(group) }
        var result = explicitType(of: group)
        if result == nil, let (ancestor, target) = nearestExtendingAncestor(of: group) {
            result = explicitType(of: target + group.dropFirst(ancestor.count))
        }
        if result == nil, !group.isEmpty { result = type(of: Self.parent(of: group)) }
        known[group] = result
        return result
    }

    /// The group's own `$type`, or the type of the group it extends.
    private mutating func explicitType(of group: String) -> String? {
        if let type = own[group] { return type }
        if let target = targets[group] { return type(of: target) }
        return nil
    }

    private func nearestExtendingAncestor(of group: String) -> (String, String)? {
        var current = group
        while !current.isEmpty {
            current = Self.parent(of: current)
            if let target = targets[current], !current.isEmpty { return (current, target) }
        }
        return nil
    }

    static func parent(of group: String) -> String {
        guard let dot = group.lastIndex(of: ".") else { return "" }
        return String(group[..<dot])
    }
}
