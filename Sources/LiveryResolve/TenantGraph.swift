import LiveryDiagnostics
import LiveryLoad

/// The `extends` relation between tenants: each tenant's chain of ancestors, with cycles and
/// unknown parents reported at the `extends` value.
public struct TenantGraph: Sendable {
    /// For each tenant id, its ancestors from the root down to its parent.
    public private(set) var ancestors: [String: [String]] = [:]
    public private(set) var diagnostics: [Diagnostic] = []

    /// `workspace` names every tenant folder when `sources` are only some of them (default: `sources`).
    public init(_ sources: [TenantSource], workspace: Set<String>? = nil) {
        var parents: [String: (id: String, node: Node, file: String)] = [:]
        let known = workspace ?? Set(sources.map(\.id))
        for source in sources {
            guard let tenant = source.tenant, let extends = tenant.node["extends"], let parent = extends.string else { continue }
            if parent == source.id {
                diagnostics.append(Diagnostic(.error, ExtendsMessage.extendsItself(tenant: source.id), at: extends.location, rule: ResolveRule.extendsCycle))
                continue
            }
            guard known.contains(parent) else {
                diagnostics.append(Diagnostic(.error, ExtendsMessage.unknownParent(tenant: source.id, parent: parent),
                                              at: extends.location, rule: ResolveRule.extendsUnknown,
                                              hint: DidYouMean.hint(for: parent, among: known), fixes: DidYouMean.fix(for: extends, among: known)))
                continue
            }
            parents[source.id] = (parent, extends, tenant.displayPath)
        }
        for source in sources {
            var chain: [String] = []
            var current = source.id
            var visited: [String] = [source.id]
            var cyclic = false
            while let parent = parents[current] {
                if let start = visited.firstIndex(of: parent.id) {
                    cyclic = true
                    let cycle = visited[start...] + [parent.id]
                    // Reported once, by the member whose id sorts first.
                    if source.id == visited[start...].min(), let node = parents[source.id]?.node {
                        diagnostics.append(Diagnostic(.error, ExtendsMessage.cycle(tenants: cycle.joined(separator: " → ")),
                                                      at: node.location, rule: ResolveRule.extendsCycle,
                                                      hint: "a tenant cannot inherit from one of its own descendants"))
                    }
                    break
                }
                chain.insert(parent.id, at: 0)
                visited.append(parent.id)
                current = parent.id
            }
            ancestors[source.id] = cyclic ? [] : chain
        }
    }
}

/// The messages of `structure.extends-unknown` (`unknownParent`) and `structure.extends-cycle` (the others).
public enum ExtendsMessage {
    public static func extendsItself(tenant: String) -> DiagnosticMessage { DiagnosticMessage("extends-itself", "tenant '\(tenant)' extends itself") }
    public static func unknownParent(tenant: String, parent: String) -> DiagnosticMessage {
        DiagnosticMessage("unknown-parent", "tenant '\(tenant)' extends '\(parent)', which is not a tenant folder next to it")
    }
    public static func cycle(tenants: String) -> DiagnosticMessage { DiagnosticMessage("cycle", "'extends' forms a cycle: \(tenants)") }
}
