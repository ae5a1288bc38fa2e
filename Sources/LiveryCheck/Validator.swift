import Dispatch
import Foundation
import LiveryDiagnostics
import LiveryLoad
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

/// Runs the pipeline up to the check stage: load every tenant, resolve `extends` and tokens, run every rule.
public enum Validator {
    /// Validates the tenants of the workspace folder `root` (shown as `displayRoot`), or only those in `only`
    /// (with their ancestors, whose findings affect them). Audio and video are measured through
    /// `media`, which may hold a probe cache (new measurements are written to it before returning).
    public static func validate(workspace root: URL, displayRoot: String, only: Set<String>? = nil, strict: Bool = false,
                                limits: LoadLimits = .default, media: MediaMeasurements = MediaMeasurements()) -> ValidationResult {
        let (allFolders, refused) = TenantLoader.discover(in: root)
        let folders = only.map { lineage(of: $0, among: allFolders, limits: limits) } ?? allFolders
        let loaded = ParallelMap.map(folders) { folder in
            TenantLoader.load(folder, displayRoot: displayRoot + "/" + folder.lastPathComponent, limits: limits)
        }
        let (tenants, resolveDiagnostics) = TenantResolver.resolve(loaded)
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
            let found = RuleEngine.run(context)
            // The message facts of the tenant's own bundles are needed again only by tenants that extend it.
            if !extended.contains(tenant.id) {
                for bundle in tenant.locales.values where context.owns(bundle.location) { bundle.forgetFacts() }
            }
            return found
        }
        var diagnostics = results.flatMap { $0 }
        for (name, diagnostic) in refused where only == nil || only!.contains(name) {
            var located = diagnostic
            located.location.file = displayRoot + "/" + located.location.file
            diagnostics.append(located)
        }
        if strict {
            diagnostics = diagnostics.map { var d = $0; d.severity = .error; return d }
        }
        media.flush()
        return ValidationResult(diagnostics: diagnostics.normalized(), tenants: tenants,
                                checked: checked.map(\.id) + refused.map(\.name).filter { only == nil || only!.contains($0) }, media: media)
    }
}

extension Validator {
    /// The folders of `selected` tenants and of every tenant they extend, found by reading only the
    /// `extends` of tenant manifests, so checking one tenant does not load the whole workspace.
    static func lineage(of selected: Set<String>, among folders: [URL], limits: LoadLimits) -> [URL] {
        let byName = Dictionary(folders.map { ($0.lastPathComponent, $0) }, uniquingKeysWith: { a, _ in a })
        var needed = Set<String>()
        var queue = Array(selected)
        while let name = queue.popLast() {
            guard byName[name] != nil, needed.insert(name).inserted else { continue }
            if let parent = TenantLoader.parentID(of: byName[name]!, limits: limits) { queue.append(parent) }
        }
        return folders.filter { needed.contains($0.lastPathComponent) }
    }
}

/// Runs every registered rule on one tenant and applies the tenant's severity overrides.
public enum RuleEngine {
    public static let overrideRuleID = "structure.rule-override"

    public static func run(_ context: RuleContext) -> [Diagnostic] {
        var overrides: [String: String] = [:]
        var diagnostics: [Diagnostic] = []
        let known = Dictionary(RuleRegistry.all.map { ($0.description.id, $0.description) }, uniquingKeysWith: { a, _ in a })
        for entry in context.tenant.tenant?["rules"]?.entries ?? [] {
            guard let rule = known[entry.key] else {
                diagnostics.append(Diagnostic(.error, "unknown rule '\(entry.key)'", at: entry.keyLocation, rule: overrideRuleID,
                                              hint: DidYouMean.hint(for: entry.key, among: known.keys) ?? "`livery rules` lists every rule"))
                continue
            }
            if rule.isSecurity, entry.value.string != "error" {
                diagnostics.append(Diagnostic(.error, "'\(entry.key)' is a security rule; its severity cannot be lowered", at: entry.value.location, rule: overrideRuleID))
                continue
            }
            if let severity = entry.value.string { overrides[entry.key] = severity }
        }
        for ruleType in RuleRegistry.all {
            let description = ruleType.description
            let override = overrides[description.id]
            if override == "off" { continue }
            for var diagnostic in ruleType.init().check(context) {
                if let override, let severity = Severity(rawValue: override) { diagnostic.severity = severity }
                diagnostics.append(diagnostic)
            }
        }
        return diagnostics
    }
}
