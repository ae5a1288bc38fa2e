import Foundation
import LiveryDiagnostics
import LiveryLoad
import LiveryParallel

/// The findings of a workspace by tenant, kept between checks so that a re-check of a few tenants
/// says only what appeared and what disappeared (`livery watch`, docs/watch.md).
public struct FindingsLedger: Sendable {
    /// Findings that appeared and disappeared in one update, each in the report's order.
    public struct Change: Sendable, Equatable {
        public var appeared: [Diagnostic]
        public var disappeared: [Diagnostic]
        public var isEmpty: Bool { appeared.isEmpty && disappeared.isEmpty }
    }

    /// How the workspace is shown in diagnostics (`Tenants`): a finding in `<displayRoot>/<tenant>/…` is that tenant's.
    public let displayRoot: String
    private var byTenant: [String: Set<Diagnostic>] = [:]

    public init(displayRoot: String) {
        self.displayRoot = displayRoot
    }

    /// Every finding held, in the report's order.
    public var all: [Diagnostic] { byTenant.values.flatMap { $0 }.normalized() }

    /// The tenant a finding belongs to: the folder its file is in (a refused folder's finding names the folder itself).
    public func tenant(of diagnostic: Diagnostic) -> String? {
        let prefix = displayRoot + "/"
        guard diagnostic.location.file.hasPrefix(prefix) else { return nil }
        return diagnostic.location.file.dropFirst(prefix.count).split(separator: "/", maxSplits: 1).first.map(String.init)
    }

    /// Replaces the findings of `tenants` with those of `found` that belong to them (a check of a tenant
    /// also reports its ancestors', which stay as they were unless listed), and says what changed.
    public mutating func replace(_ tenants: Set<String>, with found: [Diagnostic]) -> Change {
        var fresh: [String: Set<Diagnostic>] = [:]
        for diagnostic in found {
            guard let tenant = tenant(of: diagnostic), tenants.contains(tenant) else { continue }
            fresh[tenant, default: []].insert(diagnostic)
        }
        var appeared: [Diagnostic] = [], disappeared: [Diagnostic] = []
        for tenant in tenants {
            let old = byTenant[tenant] ?? [], new = fresh[tenant] ?? []
            appeared += new.subtracting(old)
            disappeared += old.subtracting(new)
            byTenant[tenant] = new.isEmpty ? nil : new
        }
        return Change(appeared: appeared.normalized(), disappeared: disappeared.normalized())
    }
}

/// Which tenants a change to some files concerns: the tenants whose folders hold them and every tenant
/// that extends one of those, transitively. Each tenant manifest's `extends` is read once and again
/// only when that tenant changes, so a change costs the same in a workspace of any size.
public struct TenantDependents: Sendable {
    /// Each tenant's parent, for tenants that extend one.
    private var parent: [String: String] = [:]
    private let workspace: URL
    private let limits: LoadLimits

    public init(workspace: URL, folders: [URL], limits: LoadLimits = .default) {
        self.workspace = workspace
        self.limits = limits
        let parents = ParallelMap.map(folders) { TenantLoader.parentID(of: $0, limits: limits) }
        for (folder, parent) in zip(folders, parents) { self.parent[folder.lastPathComponent] = parent }
    }

    /// The tenant folder a workspace-relative path is in (its first component), ignoring hidden folders.
    public static func tenant(ofRelativePath path: String) -> String? {
        guard let first = path.split(separator: "/").first, !first.hasPrefix(".") else { return nil }
        return String(first)
    }

    /// Reads `changed` tenants' `extends` again (a folder that no longer holds a tenant drops out), then
    /// returns them with every tenant that extends one of them.
    /// `limits` reads the manifests (with an editor's unsaved text, for `livery lsp`); nil uses the ones given at creation.
    public mutating func affected(by changed: Set<String>, limits: LoadLimits? = nil) -> Set<String> {
        for name in changed {
            let folder = workspace.appendingPathComponent(name)
            let isTenant = ["tenant.yaml", "tenant.yml", "tenant.json"].contains { FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path) }
            parent[name] = isTenant ? TenantLoader.parentID(of: folder, limits: limits ?? self.limits) : nil
        }
        var children: [String: [String]] = [:]
        for (child, parent) in parent { children[parent, default: []].append(child) }
        var result = changed
        var queue = Array(changed)
        while let name = queue.popLast() {
            for child in children[name] ?? [] where result.insert(child).inserted { queue.append(child) }
        }
        return result
    }
}
