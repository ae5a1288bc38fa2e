import Foundation
import LiveryCheck
import LiveryDiagnostics
import LiveryLoad
import LiveryResolve

/// Validates the tenant an edited file belongs to, and every tenant that `extends` it, with the
/// editor's unsaved texts in place of their files.
struct TenantChecker {
    /// The tenant folder holding `path`: the nearest folder above it with a tenant manifest.
    static func tenantFolder(containing path: String) -> URL? {
        var folder = URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL
        while folder.path != "/" && !folder.path.isEmpty {
            if ["tenant.yaml", "tenant.yml", "tenant.json"].contains(where: { FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path) }) {
                return folder
            }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }

    struct Outcome {
        var diagnostics: [Diagnostic]
        /// The folders of every tenant checked (the edited one, its descendants and their ancestors).
        var checkedFolders: [String]
        var tenants: [ResolvedTenant]
    }

    /// Checks tenant `id` of the workspace `root`, the tenants that extend it (at any depth), and their ancestors.
    /// Diagnostics carry absolute paths. `media` keeps what the probes measured between checks (a keystroke does not
    /// probe the tour's audio again) and answers hovers on media files.
    static func check(tenant id: String, workspace root: URL, overlay: SourceOverlay, media: MediaMeasurements) -> Outcome {
        let limits = { var limits = LoadLimits.default; limits.overlay = overlay; return limits }()
        let discovered = WorkspaceFolders(discovering: root)
        // Only each tenant manifest's `extends` is read to find the descendants (as `Validator.groups` does).
        let parents = ParallelMap.map(discovered.folders) { TenantLoader.parentID(of: $0, limits: limits) }
        var children: [String: [String]] = [:]
        for (folder, parent) in zip(discovered.folders, parents) {
            if let parent { children[parent, default: []].append(folder.lastPathComponent) }
        }
        var affected: Set<String> = [id]
        var queue = [id]
        while let next = queue.popLast() {
            for child in children[next] ?? [] where affected.insert(child).inserted { queue.append(child) }
        }
        let result = Validator.validate(workspace: root, displayRoot: root.path, only: affected, limits: limits, media: media, discovered: discovered)
        let folders = result.checked.map { root.appendingPathComponent($0).path }
        return Outcome(diagnostics: result.diagnostics, checkedFolders: folders, tenants: result.tenants)
    }
}
