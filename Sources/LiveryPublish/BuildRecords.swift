import Foundation
import LiverySQLite
import LiverySign
import LiveryAssets
import LiveryLoad
import LiveryRender
import LiveryResolve
import LiveryStorage
import LiveryReleaseFormat

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
        // Records are a cache: a table from an older Livery (without the output stamps and the release
        // summary) is dropped, and each tenant is simply built once more.
        let columns = try database.query("PRAGMA table_info(tenants)").compactMap { $0.count > 1 ? $0[1].text : nil }
        if !columns.isEmpty && !columns.contains("summary") { try database.execute("DROP TABLE tenants") }
        try database.execute("CREATE TABLE IF NOT EXISTS tenants (tenant TEXT PRIMARY KEY, settings TEXT NOT NULL, manifest TEXT NOT NULL, recorded INTEGER NOT NULL, inputs TEXT NOT NULL, outputs TEXT NOT NULL DEFAULT '', summary TEXT NOT NULL DEFAULT '')")
    }

    /// One tenant's record, as the whole table is read at once by a build (one query, not one per tenant).
    public struct Record: Sendable {
        public var settings: String
        public var manifest: SHA256Hex
        /// When it was recorded (nanoseconds since 1970).
        var recorded: Int64
        var inputs: String
        var outputs: String
        /// The release, its number of bundles and their bytes, as the manifest says; nil for a record without them.
        public var summary: (release: Int, bundles: Int, bytes: Int)?
    }

    /// Every tenant's record, one at a time in one query (a build of many tenants keeps only what it
    /// learns from each: holding every record, inputs and outputs included, cost about 3 KB per tenant).
    /// `body` must not use the build records.
    public func forEach(_ body: (_ tenant: String, _ record: Record) -> Void) {
        try? database.forEachRow("SELECT tenant, settings, manifest, recorded, inputs, outputs, summary FROM tenants") { row in
            guard row.count == 7, let tenant = row[0].text, let settings = row[1].text, let manifest = row[2].text, let recorded = row[3].int,
                  let inputs = row[4].text, let outputs = row[5].text, let summary = row[6].text else { return }
            let numbers = summary.split(separator: " ").compactMap { Int($0) }
            body(tenant, Record(settings: settings, manifest: manifest, recorded: recorded, inputs: inputs, outputs: outputs,
                                summary: numbers.count == 3 ? (numbers[0], numbers[1], numbers[2]) : nil))
        }
    }

    /// Whether the record's inputs are as recorded and the output files it noted are the ones it saw:
    /// then the tenant's release is exactly as that build left it, without reading its metadata.
    /// Output files are written by Livery only by replacing them whole (a new inode), so their stamps
    /// need no racy window; a record without output stamps is never current this way.
    public func isCurrent(_ record: Record) -> Bool {
        guard !record.outputs.isEmpty, Self.stampsMatch(record.outputs, recorded: nil) else { return false }
        return Self.stampsMatch(record.inputs, recorded: record.recorded)
    }

    /// The output files a tenant's record notes: the stable pointer, the channels folder, and the pointer
    /// and timestamp of the channel it published to.
    public static func outputs(tenant: String, channel: ReleaseChannel, output: URL) -> [String] {
        let folder = output.appendingPathComponent(tenant, isDirectory: true)
        let repository = channel.repository(in: folder)
        let paths = [folder.appendingPathComponent(ReleasePointer.fileName, isDirectory: false).path, folder.appendingPathComponent(ReleaseChannel.folderName, isDirectory: true).path,
                     repository.appendingPathComponent(ReleasePointer.fileName, isDirectory: false).path,
                     repository.appendingPathComponent("metadata/timestamp.json", isDirectory: false).path]
        var seen = Set<String>()
        return paths.filter { seen.insert($0).inserted }
    }

    /// A digest of the platform templates a workspace's core bundles are rendered from: part of a build's
    /// settings, so an edited template rebuilds every tenant while each tenant's record lists only its own files.
    public static func templatesDigest(workspace: URL) -> String {
        guard let folder = PlatformTemplates.locate(workspace: workspace)?.appendingPathComponent("platform"),
              let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return "none" }
        var entries: [String] = []
        for case let url as URL in walker { entries.append(url.standardizedFileURL.path) }
        var text = Data()
        for path in entries.sorted() {
            text.append(Data(path.utf8))
            text.append(0)
            text.append(FileManager.default.contents(atPath: path) ?? Data("folder".utf8))
            text.append(0)
        }
        return FileDigest.sha256(of: text)
    }

    /// Whether every `path<TAB>stamp` line matches the file now; `recorded` set applies the racy window.
    private static func stampsMatch(_ lines: String, recorded: Int64?) -> Bool {
        var lines = lines
        return lines.withUTF8 { bytes -> Bool in
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count && bytes[end] != 0x0A { end += 1 }
                var tab = start
                while tab < end && bytes[tab] != 0x09 { tab += 1 }
                guard tab < end else { return false }
                let path = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<tab]), as: UTF8.self)
                let stamp = String(decoding: UnsafeBufferPointer(rebasing: bytes[(tab + 1)..<end]), as: UTF8.self)
                start = end + 1
                // Inputs recorded by content (the key store: small files Livery itself writes, often just before recording).
                if stamp.hasPrefix(contentPrefix) {
                    guard describeContent(path) == stamp else { return false }
                    continue
                }
                let current = FileStamp(path: path)
                guard describe(current) == stamp else { return false }
                if let recorded, let current, recorded - current.mtimeNanoseconds < StatCache.racyWindowNanoseconds { return false }
            }
            return true
        }
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
        // The platform templates are not listed here: their digest is part of the build's settings (`templatesDigest`).
        return paths.sorted()
    }

    /// The tenant's key store files (signing keys, delegated roles' keys, the content key): a rotated
    /// or replaced key makes the next build look at the tenant again.
    public static func keyInputs(_ folder: URL) -> [String] {
        var paths = [folder.path]
        for sub in ["", "delegations"] {
            let dir = sub.isEmpty ? folder : folder.appendingPathComponent(sub, isDirectory: true)
            if !sub.isEmpty { paths.append(dir.path) }
            // The audit log grows with every signature and signs nothing: not an input.
            for name in (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [] where !name.hasPrefix(".") && name != AuditTrail.fileName {
                paths.append(dir.appendingPathComponent(name, isDirectory: false).path)
            }
        }
        return paths.sorted()
    }

    static let contentPrefix = "sha256:"

    /// The largest racy input (a folder is one block) recorded by its content; a larger one (a video written a moment ago) keeps its
    /// stamp and is not trusted by the next build, which loads the tenant again.
    static let racyContentLimit: Int64 = 1 << 20

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

    private static func describe(_ path: String) -> String { describe(FileStamp(path: path)) }

    private static func describe(_ stamp: FileStamp?) -> String {
        guard let stamp else { return "missing" }
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
        return Self.stampsMatch(inputs, recorded: recorded)
    }

    /// `byContent` inputs are recorded by their SHA-256, not their stat stamp: no racy window, for small
    /// files that change rarely but may have been written a moment ago (keys made by this very build).
    /// Notes the output files of a tenant's record again, after Livery itself replaced one (a refreshed timestamp).
    public func restamp(_ tenant: String, outputs: [String]) throws {
        let stamped = outputs.map { "\($0)\t\(Self.describe($0))" }.joined(separator: "\n")
        try database.query("UPDATE tenants SET outputs = ? WHERE tenant = ? AND outputs != ''", [.text(stamped), .text(tenant)])
    }

    /// `outputs` are output files (see `outputs(tenant:channel:output:)`) stamped as they are now, and
    /// `summary` the release, bundle count and bytes of `manifest`, so that a later build can report the
    /// tenant without reading its release.
    public func record(_ tenant: String, inputs paths: [String], byContent: [String] = [], outputs: [String] = [], settings: String, manifest: SHA256Hex,
                       summary: (release: Int, bundles: Int, bytes: Int)? = nil) throws {
        let now = Int64(Date().timeIntervalSince1970 * 1_000_000_000)
        // An input changed less than the racy window ago cannot be trusted by its stamp (an edit within the
        // same timestamp tick would go unseen), so a small one is recorded by its content instead, as git
        // does with racy index entries: otherwise a build that follows its inputs' edit closely (a script,
        // `watch --build`, a fast build of a fresh checkout) would be loaded whole again by the next build.
        func describeInput(_ path: String) -> String {
            let stamp = FileStamp(path: path)
            if let stamp, now - stamp.mtimeNanoseconds < StatCache.racyWindowNanoseconds, stamp.size <= Self.racyContentLimit {
                return Self.describeContent(path)
            }
            return Self.describe(stamp)
        }
        let inputs = (paths.map { "\($0)\t\(describeInput($0))" } + byContent.map { "\($0)\t\(Self.describeContent($0))" }).joined(separator: "\n")
        let stamped = outputs.map { "\($0)\t\(Self.describe($0))" }.joined(separator: "\n")
        try database.query("INSERT OR REPLACE INTO tenants (tenant, settings, manifest, recorded, inputs, outputs, summary) VALUES (?, ?, ?, ?, ?, ?, ?)",
                           [.text(tenant), .text(settings), .text(manifest), .int(now), .text(inputs), .text(stamped),
                            .text(summary.map { "\($0.release) \($0.bundles) \($0.bytes)" } ?? "")])
    }
}
