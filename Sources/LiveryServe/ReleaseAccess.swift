import Foundation

/// Who may download what in a tenant's current release: the `access` of every target, read from
/// the signed targets metadata (`timestamp.json` → `N.snapshot.json` → `M.targets.json`) with
/// plain Foundation, so that serve needs no TUF code. Signatures are not checked here: the files
/// are the server's own, and a client checks them anyway.
///
/// A target file is looked up by its consistent-snapshot name (`<sha256>.<name>`). A file the
/// current targets do not list by name is still protected when its SHA-256 belongs to a voucher
/// target of the current release or of an older targets version kept in `metadata/`: the bytes of
/// a protected tour stay protected under a leftover name or after they left the release.
/// A release built `--unsigned` has no metadata; its download manifest (via `release.json`) is
/// read instead.
public struct ReleaseAccess: Sendable {
    /// One target's access rule.
    public struct Target: Sendable, Equatable {
        public var bundle: String
        /// The tour a voucher target belongs to (`custom.subject`); nil for other kinds.
        public var tour: String?
        public var isProtected: Bool
    }

    /// One tour of the release: whether it needs a voucher, and its bundles (the tour and its languages).
    public struct Tour: Sendable, Equatable {
        public var isProtected: Bool
        public var bundles: [String]
    }

    public var tours: [String: Tour] = [:]
    private var byFile: [String: Target] = [:]
    private var protectedHashes: [String: Target] = [:]

    /// The rule for a file in `targets/`; nil when nothing protects it.
    public func target(file: String) -> Target? {
        if let target = byFile[file] { return target.isProtected ? target : nil }
        guard let dot = file.firstIndex(of: "."), file.distance(from: file.startIndex, to: dot) == 64 else { return nil }
        return protectedHashes[String(file[..<dot])]
    }

    /// Reads the current release in `folder` (`Output/<tenant>`); nil when nothing is published.
    public static func read(tenant folder: URL) throws -> ReleaseAccess? {
        let metadata = folder.appendingPathComponent("metadata")
        let fm = FileManager.default
        if fm.fileExists(atPath: metadata.appendingPathComponent("timestamp.json").path) {
            let timestamp = try signed(metadata.appendingPathComponent("timestamp.json"))
            guard let snapshotVersion = version(timestamp, "snapshot.json") else { throw Problem("timestamp.json names no snapshot version") }
            let snapshot = try signed(metadata.appendingPathComponent("\(snapshotVersion).snapshot.json"))
            guard let targetsVersion = version(snapshot, "targets.json") else { throw Problem("\(snapshotVersion).snapshot.json names no targets version") }
            var access = ReleaseAccess()
            let current = try targets(metadata.appendingPathComponent("\(targetsVersion).targets.json"))
            access.add(current, current: true)
            // Older versions: their protected hashes that the current release does not list.
            let older = ((try? fm.contentsOfDirectory(atPath: metadata.path)) ?? []).filter { name in
                name.hasSuffix(".targets.json") && name != "\(targetsVersion).targets.json" && Int(name.dropLast(".targets.json".count)) != nil
            }
            for name in older {
                if let entries = try? targets(metadata.appendingPathComponent(name)) { access.add(entries, current: false) }
            }
            return access
        }
        // Unsigned: the download manifest that release.json points at.
        let pointer = folder.appendingPathComponent("release.json")
        guard fm.fileExists(atPath: pointer.path) else { return nil }
        guard let release = try JSONSerialization.jsonObject(with: Data(contentsOf: pointer)) as? [String: Any],
              let path = release["manifest"] as? String, !path.contains("..") else { throw Problem("release.json names no manifest") }
        guard let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent(path))) as? [String: Any],
              let bundles = manifest["bundles"] as? [[String: Any]] else { throw Problem("\(path) lists no bundles") }
        var access = ReleaseAccess()
        access.add(bundles.compactMap { bundle in
            guard let id = bundle["id"] as? String, let sha = bundle["sha256"] as? String, let file = (bundle["path"] as? String)?.split(separator: "/").last else { return nil }
            return Entry(file: String(file), sha256: sha, bundle: id, kind: bundle["kind"] as? String, tour: bundle["subject"] as? String,
                         isProtected: bundle["access"] as? String == "voucher")
        }, current: true)
        return access
    }

    /// A reason the published metadata cannot be read.
    struct Problem: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    struct Entry {
        var file: String, sha256: String, bundle: String, kind: String?, tour: String?, isProtected: Bool
    }

    private mutating func add(_ entries: [Entry], current: Bool) {
        let currentHashes = Set(byFile.keys.compactMap { $0.split(separator: ".", maxSplits: 1).first.map(String.init) })
        for entry in entries {
            let target = Target(bundle: entry.bundle, tour: entry.isProtected ? entry.tour : nil, isProtected: entry.isProtected)
            if current {
                byFile[entry.file] = target
                if let tour = entry.tour, entry.kind == "tour" || entry.kind == "tour-language" {
                    var known = tours[tour] ?? Tour(isProtected: false, bundles: [])
                    known.bundles.append(entry.bundle)
                    known.bundles.sort()
                    // A tour is protected when its shared bundle is (every bundle of it is, as built).
                    if entry.kind == "tour" { known.isProtected = entry.isProtected }
                    tours[tour] = known
                }
            }
            if entry.isProtected, current || !currentHashes.contains(entry.sha256), protectedHashes[entry.sha256] == nil || current {
                protectedHashes[entry.sha256] = target
            }
        }
    }

    private static func signed(_ file: URL) throws -> [String: Any] {
        guard let document = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any],
              let signed = document["signed"] as? [String: Any] else { throw Problem("\(file.lastPathComponent) is not TUF metadata") }
        return signed
    }

    private static func version(_ signed: [String: Any], _ role: String) -> Int? {
        ((signed["meta"] as? [String: Any])?[role] as? [String: Any])?["version"] as? Int
    }

    private static func targets(_ file: URL) throws -> [Entry] {
        guard let targets = try signed(file)["targets"] as? [String: Any] else { throw Problem("\(file.lastPathComponent) lists no targets") }
        return targets.compactMap { name, value in
            guard let info = value as? [String: Any], let sha = (info["hashes"] as? [String: Any])?["sha256"] as? String else { return nil }
            let custom = info["custom"] as? [String: Any] ?? [:]
            return Entry(file: "\(sha).\(name)", sha256: sha, bundle: custom["bundle"] as? String ?? name, kind: custom["kind"] as? String,
                         tour: custom["subject"] as? String, isProtected: custom["access"] as? String == "voucher")
        }
    }
}

/// `ReleaseAccess` per tenant, read again when the tenant's `timestamp.json` (or, unsigned, its
/// `release.json`) is replaced: one `stat` per target request.
public final class ReleaseAccessCache: @unchecked Sendable {
    private struct Stamp: Equatable {
        var inode: UInt64, size: Int64, seconds: Int, nanoseconds: Int
    }

    private let root: URL
    private let lock = NSLock()
    // Guarded by `lock`.
    private var cached: [String: (stamp: Stamp?, access: ReleaseAccess?)] = [:]

    public init(root: URL) {
        self.root = root
    }

    /// The tenant's current access rules; nil when it has no release; throws when its metadata
    /// cannot be read (the caller then refuses every target rather than guess).
    public func access(tenant: String) throws -> ReleaseAccess? {
        let folder = root.appendingPathComponent(tenant)
        let stamp = Self.stamp(folder.appendingPathComponent("metadata/timestamp.json")) ?? Self.stamp(folder.appendingPathComponent("release.json"))
        if let entry = lock.withLock({ cached[tenant] }), entry.stamp == stamp { return entry.access }
        let access = try ReleaseAccess.read(tenant: folder)
        lock.withLock { cached[tenant] = (stamp, access) }
        return access
    }

    private static func stamp(_ file: URL) -> Stamp? {
        var info = stat()
        guard stat(file.path, &info) == 0 else { return nil }
        return Stamp(inode: UInt64(info.st_ino), size: Int64(info.st_size), seconds: Int(info.st_mtim.tv_sec), nanoseconds: Int(info.st_mtim.tv_nsec))
    }
}
