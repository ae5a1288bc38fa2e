import CLiverySystem
import Dispatch
import Foundation
import LiveryDiagnostics
import LiveryLoad
import LiveryMedia
import LiveryParallel
import LiveryResolve

/// The outcome of validating a workspace.
public struct ValidationResult: Sendable {
    public var diagnostics: [Diagnostic]
    public var tenants: [ResolvedTenant]
    /// Ids of the tenants that were checked.
    public var checked: [String]
    /// What the media probes measured in the checked tenants' audio and video.
    public var media: MediaMeasurements

    public init(diagnostics: [Diagnostic], tenants: [ResolvedTenant], checked: [String], media: MediaMeasurements = MediaMeasurements()) {
        self.diagnostics = diagnostics
        self.tenants = tenants
        self.checked = checked
        self.media = media
    }
}

/// The tenant folders of a workspace, discovered once: a command that validates a workspace piece by
/// piece passes it to every piece (listing a workspace of thousands of tenants for every piece made a
/// build quadratic in their number).
public struct WorkspaceFolders: Sendable {
    public let folders: [URL]
    /// Folders the loader refuses (a symbolic link out of the workspace), with the reason.
    public let refused: [(name: String, diagnostic: Diagnostic)]
    /// Every tenant folder's name, which is its tenant id.
    public let names: Set<String>
    let byName: [String: URL]

    public init(discovering root: URL) {
        (folders, refused) = TenantLoader.discover(in: root)
        names = Set(folders.map(\.lastPathComponent))
        byName = Dictionary(folders.map { ($0.lastPathComponent, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// The findings about refused folders among `only` (all when nil), located under `displayRoot`.
    public func refusedDiagnostics(displayRoot: String, only: Set<String>?) -> [Diagnostic] {
        refused.filter { only?.contains($0.name) ?? true }.map { _, diagnostic in
            var located = diagnostic
            located.location.file = displayRoot + "/" + located.location.file
            return located
        }
    }
}

/// Runs the pipeline up to the check stage: load every tenant, resolve `extends` and tokens, run every rule.
public enum Validator {
    /// Validates the tenants of the workspace folder `root` (shown as `displayRoot`) with `rules` (every stage's are
    /// `RuleSet.all`, in LiveryWorkflow), or only those in `only`
    /// (with their ancestors, whose findings affect them). Audio and video are measured through
    /// `media`, which may hold a probe cache (new measurements are written to it before returning).
    ///
    /// With `keepingTenants` false, the tenants are checked a group of whole lineages (a base and every
    /// tenant that extends it) at a time and `tenants` comes back empty: memory holds one group, not the
    /// workspace, and the findings are the same, in the same order.
    public static func validate(workspace root: URL, displayRoot: String, rules: RuleSet, only: Set<String>? = nil, strict: Bool = false,
                                limits: LoadLimits = .default, media: MediaMeasurements = MediaMeasurements(),
                                keepingTenants: Bool = true, discovered: WorkspaceFolders? = nil) -> ValidationResult {
        let discovered = discovered ?? WorkspaceFolders(discovering: root)
        let (allFolders, refused, known) = (discovered.folders, discovered.refused, discovered.names)
        var diagnostics: [Diagnostic] = []
        var tenants: [ResolvedTenant] = []
        var checked: [String] = []
        if !keepingTenants {
            for group in groups(of: discovered, only: only, limits: limits) {
                let names = Set(group.map(\.lastPathComponent))
                let result = check(group, only: only.map { $0.intersection(names) }, known: known, displayRoot: displayRoot, rules: rules, limits: limits, media: media)
                diagnostics += result.diagnostics
                checked += result.checked.map(\.id)
                // Give the group's memory back before loading the next.
                livery_release_free_memory()
            }
        } else {
            let folders = only.map { lineage(of: $0, in: discovered, limits: limits) } ?? allFolders
            let result = check(folders, only: only, known: known, displayRoot: displayRoot, rules: rules, limits: limits, media: media)
            diagnostics = result.diagnostics
            tenants = result.tenants
            checked = result.checked.map(\.id)
        }
        diagnostics += discovered.refusedDiagnostics(displayRoot: displayRoot, only: only)
        if strict {
            diagnostics = diagnostics.map { var d = $0; if d.severity != .note { d.severity = .error }; return d }
        }
        media.flush()
        return ValidationResult(diagnostics: diagnostics.normalized(), tenants: tenants,
                                checked: checked + refused.map(\.name).filter { only == nil || only!.contains($0) }, media: media)
    }

    /// Loads `folders`, resolves them and runs `rules` on the ones in `only` (all when nil) and their
    /// ancestors. `known` names every tenant folder of the workspace, for `extends` checks and hints.
    private static func check(_ folders: [URL], only: Set<String>?, known: Set<String>, displayRoot: String, rules: RuleSet, limits: LoadLimits,
                              media: MediaMeasurements) -> (diagnostics: [Diagnostic], tenants: [ResolvedTenant], checked: [ResolvedTenant]) {
        let loaded = ParallelMap.map(folders) { folder in
            TenantLoader.load(folder, displayRoot: displayRoot + "/" + folder.lastPathComponent, limits: limits)
        }
        let (tenants, resolveDiagnostics) = TenantResolver.resolve(loaded, workspace: known)
        let workspace = Dictionary(tenants.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })

        var selected = Set(only ?? Set(workspace.keys))
        for id in selected { selected.formUnion(workspace[id]?.ancestors.map(\.id) ?? []) }
        let checked = tenants.filter { selected.contains($0.id) }
        let extended = Set(tenants.flatMap { $0.ancestors.map(\.id) })

        let results = ParallelMap.map(checked) { tenant in
            let prefix = tenant.source.displayRoot + "/"
            var collected = tenant.source.diagnostics
            collected += resolveDiagnostics.filter { $0.location.file.hasPrefix(prefix) }
            collected += AssetCheck.run(tenant.source, media: media, limits: MediaLimits(tenant.tenant))
            let context = RuleContext(tenant: tenant, workspace: workspace, collected: Dictionary(grouping: collected, by: \.ruleID), media: media)
            // Follow-on findings are folded into their cause: first those of a manifest that did not load, then
            // those of a value its field does not allow.
            let found = RootCause.fold(Cascade.filter(RuleEngine.run(context, rules: rules), tenant: tenant).normalized())
            // The message facts of the tenant's own bundles are needed again only by tenants that extend it.
            if !extended.contains(tenant.id) {
                for bundle in tenant.locales.values where context.owns(bundle.location) { bundle.forgetFacts() }
            }
            return found
        }
        return (results.flatMap { $0 }, tenants, checked)
    }

    /// The folders of `only` (every tenant when nil) and of their ancestors, in groups of whole lineages:
    /// what a command that walks a workspace holds at once.
    public static func groups(of workspace: WorkspaceFolders, only: Set<String>? = nil, limits: LoadLimits = .default) -> [[URL]] {
        lineageGroups(only.map { lineage(of: $0, in: workspace, limits: limits) } ?? workspace.folders, limits: limits)
    }

    /// How many tenants a group of lineages holds at most (a lineage larger than this is a group of its own).
    static let groupSize = 64

    /// The workspace's folders in groups of whole lineages (a tenant, its ancestors and every tenant that
    /// extends one of them), in folder order, each group up to `groupSize` tenants. Only each tenant
    /// manifest's `extends` is read to find them.
    static func lineageGroups(_ folders: [URL], limits: LoadLimits) -> [[URL]] {
        let names = folders.map(\.lastPathComponent)
        let index = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        let parents = ParallelMap.map(folders) { TenantLoader.parentID(of: $0, limits: limits) }
        // Union-find over `extends`: each lineage is one set, named by its first folder.
        var leader = Array(names.indices)
        func find(_ i: Int) -> Int {
            var root = i
            while leader[root] != root { root = leader[root] }
            var node = i
            while leader[node] != root { (node, leader[node]) = (leader[node], root) }
            return root
        }
        for (child, parent) in parents.enumerated() {
            guard let parent, let p = index[parent] else { continue }
            let (a, b) = (find(child), find(p))
            if a != b { leader[max(a, b)] = min(a, b) }
        }
        var lineages: [Int: [URL]] = [:]
        var order: [Int] = []
        for i in folders.indices {
            let root = find(i)
            if lineages[root] == nil { order.append(root) }
            lineages[root, default: []].append(folders[i])
        }
        var groups: [[URL]] = []
        var current: [URL] = []
        for root in order {
            let lineage = lineages[root] ?? []
            if !current.isEmpty && current.count + lineage.count > groupSize {
                groups.append(current)
                current = []
            }
            current += lineage
        }
        if !current.isEmpty { groups.append(current) }
        return groups
    }
}

extension Validator {
    /// The folders of `selected` tenants and of every tenant they extend, found by reading only the
    /// `extends` of tenant manifests, so checking one tenant does not load the whole workspace.
    static func lineage(of selected: Set<String>, in workspace: WorkspaceFolders, limits: LoadLimits) -> [URL] {
        var needed = Set<String>()
        var queue = Array(selected)
        while let name = queue.popLast() {
            guard let folder = workspace.byName[name], needed.insert(name).inserted else { continue }
            if let parent = TenantLoader.parentID(of: folder, limits: limits) { queue.append(parent) }
        }
        // In the workspace's folder order (by name, byte order), without walking every folder.
        return needed.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.compactMap { workspace.byName[$0] }
    }
}

/// Runs every rule of a set on one tenant and applies the tenant's severity overrides.
public enum RuleEngine {
    public static let overrideRuleID: RuleID = "structure.rule-override"

    public static func run(_ context: RuleContext, rules: RuleSet) -> [Diagnostic] {
        var overrides: [String: String] = [:]
        var diagnostics: [Diagnostic] = []
        let known = Dictionary(rules.rules.map { ($0.description.id.rawValue, $0.description) }, uniquingKeysWith: { a, _ in a })
        for entry in context.tenant.tenant?["rules"]?.entries ?? [] {
            guard let rule = known[entry.key] else {
                diagnostics.append(Diagnostic(.error, RuleOverrideRule.Message.unknownRule(rule: entry.key), at: entry.keyLocation, rule: overrideRuleID,
                                              hint: DidYouMean.hint(for: entry.key, among: known.keys) ?? "`livery rules` lists every rule",
                                              fixes: DidYouMean.suggestion(for: entry.key, among: known.keys).flatMap { Fix.renaming(entry, to: $0) }.map { [$0] } ?? []))
                continue
            }
            if rule.isSecurity, entry.value.string != "error" {
                diagnostics.append(Diagnostic(.error, RuleOverrideRule.Message.securityRule(rule: entry.key), at: entry.value.location, rule: overrideRuleID))
                continue
            }
            if let severity = entry.value.string { overrides[entry.key] = severity }
        }
        for ruleType in rules.rules {
            let description = ruleType.description
            let override = overrides[description.id.rawValue]
            if override == "off" { continue }
            for var diagnostic in ruleType.init().check(context) {
                if let override, let severity = Severity(rawValue: override) { diagnostic.severity = severity }
                diagnostics.append(diagnostic)
            }
        }
        return diagnostics
    }
}
