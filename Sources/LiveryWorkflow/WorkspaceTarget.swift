import Foundation
import LiveryLoad
import LiveryResolve

/// What a PATH argument names: a whole workspace, or one tenant inside its workspace. Every command that takes workspace
/// or tenant folders reads them through this, so a tool built on LiveryWorkflow reads a path as `livery` does.
public struct WorkspaceTarget: Sendable {
    /// The workspace folder: the path itself, or the folder holding the tenant it names.
    public var workspace: URL
    /// The workspace as the user would write it from the current folder (findings' file names start with it).
    public var displayWorkspace: String
    /// The tenant the path names, when it names a tenant folder (one with a `tenant.yaml`) rather than a workspace.
    public var tenant: String?

    public init(_ path: String) {
        // Work on the standardised absolute URL: paths such as "." or "a/.." have no usable last component.
        let absolute = URL(fileURLWithPath: path).standardizedFileURL
        let isTenant = ["tenant.yaml", "tenant.yml", "tenant.json"].contains { FileManager.default.fileExists(atPath: absolute.appendingPathComponent($0).path) }
        if isTenant {
            workspace = absolute.deletingLastPathComponent().standardizedFileURL
            tenant = absolute.lastPathComponent
        } else {
            workspace = absolute
            tenant = nil
        }
        displayWorkspace = Self.display(workspace)
    }

    /// `url` as the user would write it from the current folder: relative when it shares more than the root with it.
    public static func display(_ url: URL) -> String {
        let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.pathComponents
        let target = url.pathComponents
        var common = 0
        while common < min(current.count, target.count) && current[common] == target[common] { common += 1 }
        guard common > 1 || current.count == 1 else { return url.path }
        let ups = Array(repeating: "..", count: current.count - common)
        let parts = ups + target[common...]
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }

    /// The tenants a command works on: the one the path names (nil: every tenant of the workspace), narrowed to
    /// `shard`'s share of the workspace's lineages when there is one (empty when the shard holds none of them).
    public func tenants(in shard: TenantShard?) -> Set<String>? {
        let named = tenant.map { Set([$0]) }
        guard let shard else { return named }
        return shard.select(named, in: workspace)
    }

    /// Whether the workspace holds any tenant folder (a folder with a `tenant.yaml`): an empty shard of a workspace that
    /// has tenants is normal (more runners than lineages), a workspace with none is a mistake.
    public var hasTenantFolders: Bool { !TenantLoader.discover(in: workspace).folders.isEmpty }
}
