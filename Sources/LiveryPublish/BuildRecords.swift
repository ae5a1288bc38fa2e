import Foundation
import LiverySQLite
import LiverySign
import LiveryAssets
import LiveryLoad
import LiveryRender
import LiveryResolve

/// What a tenant's last successful build read, so that the next build can tell, with `stat` alone,
/// that nothing changed and skip loading, validating and planning the tenant.
///
/// A record lists every input file (manifests, token files, assets — the tenant's and its
/// ancestors') and every folder where a new manifest could appear, each with its stat stamp, plus
/// the Livery version and archive format, and the digest of the manifest it published. Like make and
/// ninja it trusts size, mtime and inode (an edit that restores an old mtime goes unseen); a file
/// modified less than the racy window before the record was written is not trusted.
public final class BuildRecords: Sendable {
    private let database: SQLiteDatabase

    public init(store: ContentStore) throws {
        database = try SQLiteDatabase(path: store.root.appendingPathComponent("builds.sqlite").path)
        try database.execute("CREATE TABLE IF NOT EXISTS tenants (tenant TEXT PRIMARY KEY, settings TEXT NOT NULL, manifest TEXT NOT NULL, recorded INTEGER NOT NULL, inputs TEXT NOT NULL)")
    }

    /// The files and folders a resolved tenant was built from.
    public static func inputs(of tenant: ResolvedTenant) -> [String] {
        var paths = Set<String>()
        for source in tenant.ancestors + [tenant.source] {
            let root = source.paths.realRoot
            for folder in ["", "programs", "locales", "library", "tours"] { paths.insert(folder.isEmpty ? root : root + "/" + folder) }
            for manifest in source.manifests {
                paths.insert(root + "/" + manifest.relativePath)
                if manifest.kind == .tour { paths.insert(root + "/" + manifest.directory) }
            }
            for name in (try? FileManager.default.contentsOfDirectory(atPath: root + "/tours")) ?? [] { paths.insert(root + "/tours/" + name) }
            for reference in source.assets {
                if case .success(let relative) = TenantPath.normalize(reference.path, baseDirectory: reference.baseDirectory) { paths.insert(root + "/" + relative) }
            }
        }
        // The platform templates the core bundle is rendered from: an edited template rebuilds every tenant.
        let workspace = tenant.source.root.standardizedFileURL.deletingLastPathComponent()
        if let templates = PlatformTemplates.locate(workspace: workspace)?.appendingPathComponent("platform") {
            paths.insert(templates.path)
            if let walker = FileManager.default.enumerator(at: templates, includingPropertiesForKeys: nil) {
                for case let url as URL in walker { paths.insert(url.standardizedFileURL.path) }
            }
        }
        return paths.sorted()
    }

    /// The tenant's key store files (signing keys, delegated roles' keys, the content key): a rotated
    /// or replaced key makes the next build look at the tenant again.
    public static func keyInputs(_ folder: URL) -> [String] {
        var paths = [folder.path]
        for sub in ["", "delegations"] {
            let dir = sub.isEmpty ? folder : folder.appendingPathComponent(sub)
            if !sub.isEmpty { paths.append(dir.path) }
            // The audit log grows with every signature and signs nothing: not an input.
            for name in (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [] where !name.hasPrefix(".") && name != AuditTrail.fileName {
                paths.append(dir.appendingPathComponent(name).path)
            }
        }
        return paths.sorted()
    }

    static let contentPrefix = "sha256:"

    private static func describeContent(_ path: String) -> String {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return contentPrefix + "missing" }
        if isFolder.boolValue {
            // A folder: its entries' names (a key added or removed).
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().joined(separator: "/")
            return contentPrefix + FileDigest.sha256(of: Data(names.utf8))
        }
        return contentPrefix + ((try? FileDigest.sha256(of: URL(fileURLWithPath: path)).digest) ?? "unreadable")
    }

    private static func describe(_ path: String) -> String {
        guard let stamp = FileStamp(path: path) else { return "missing" }
        // No ctime: building links assets into the store, which moves their ctime but not their content.
        return "\(stamp.size):\(stamp.mtimeNanoseconds):\(stamp.inode)"
    }

    /// Whether `tenant` is exactly as when it was last built with `settings`, and its release is still the one recorded.
    public func isUnchanged(_ tenant: String, settings: String, published manifest: SHA256Hex?) -> Bool {
        isUnchanged(tenant, settings: { $0 == settings }, published: { $0 == manifest })
    }

    /// Drops a tenant's record, so that its next build loads and packs it again (`livery store repair`).
    public func forget(_ tenant: String) throws {
        _ = try database.query("DELETE FROM tenants WHERE tenant = ?", [.text(tenant)])
    }

    /// Every tenant with a build record.
    public func tenants() throws -> [String] {
        try database.query("SELECT tenant FROM tenants ORDER BY tenant").compactMap { $0.first?.text }
    }

    /// The settings and manifest of a tenant's last build, if it has one.
    public func recorded(_ tenant: String) -> (settings: String, manifest: SHA256Hex)? {
        guard let row = try? database.query("SELECT settings, manifest FROM tenants WHERE tenant = ?", [.text(tenant)]).first,
              let settings = row[0].text, let manifest = row[1].text else { return nil }
        return (settings, manifest)
    }

    /// Whether `tenant`'s inputs are exactly as when it was last built, with settings `settings`
    /// accepts, publishing a manifest `published` accepts.
    public func isUnchanged(_ tenant: String, settings: (String) -> Bool, published: (SHA256Hex) -> Bool) -> Bool {
        guard let row = try? database.query("SELECT settings, manifest, recorded, inputs FROM tenants WHERE tenant = ?", [.text(tenant)]).first,
              let recordedSettings = row[0].text, settings(recordedSettings), let manifest = row[1].text, published(manifest),
              let recorded = row[2].int, let inputs = row[3].text else { return false }
        for line in inputs.split(separator: "\n") {
            guard let tab = line.firstIndex(of: "\t") else { return false }
            let path = String(line[..<tab]), stamp = String(line[line.index(after: tab)...])
            // Inputs recorded by content (the key store: small files Livery itself writes, often just before recording).
            if stamp.hasPrefix(Self.contentPrefix) {
                guard Self.describeContent(path) == stamp else { return false }
                continue
            }
            guard Self.describe(path) == stamp else { return false }
            if let current = FileStamp(path: path), recorded - current.mtimeNanoseconds < StatCache.racyWindowNanoseconds { return false }
        }
        return true
    }

    /// `byContent` inputs are recorded by their SHA-256, not their stat stamp: no racy window, for small
    /// files that change rarely but may have been written a moment ago (keys made by this very build).
    public func record(_ tenant: String, inputs paths: [String], byContent: [String] = [], settings: String, manifest: SHA256Hex) throws {
        let inputs = (paths.map { "\($0)\t\(Self.describe($0))" } + byContent.map { "\($0)\t\(Self.describeContent($0))" }).joined(separator: "\n")
        let now = Int64(Date().timeIntervalSince1970 * 1_000_000_000)
        try database.query("INSERT OR REPLACE INTO tenants (tenant, settings, manifest, recorded, inputs) VALUES (?, ?, ?, ?, ?)",
                           [.text(tenant), .text(settings), .text(manifest), .int(now), .text(inputs)])
    }
}
