import Foundation
import LiveryCheck
import LiveryDiagnostics
import LiveryLoad
import LiveryMedia
import LiveryResolve
import LiveryWorkflow

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
    /// `dependents` is the workspace's map of who extends whom, kept by the server between checks: only the
    /// edited tenant's `extends` is read again (with its unsaved text), not every tenant manifest of the workspace.
    static func check(tenant id: String, workspace root: URL, overlay: SourceOverlay, media: MediaMeasurements, dependents: inout TenantDependents?) -> Outcome {
        let limits = { var limits = LoadLimits.default; limits.overlay = overlay; return limits }()
        let discovered = WorkspaceFolders(discovering: root)
        var map = dependents ?? TenantDependents(workspace: root, folders: discovered.folders, limits: limits)
        let affected = map.affected(by: [id], limits: limits)
        dependents = map
        let result = Validator.validate(workspace: root, displayRoot: root.path, rules: .all, only: affected, limits: limits, media: media, discovered: discovered)
        let folders = result.checked.map { root.appendingPathComponent($0).path }
        return Outcome(diagnostics: result.diagnostics, checkedFolders: folders, tenants: result.tenants)
    }
}
