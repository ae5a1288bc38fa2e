import Foundation
import LiverySign
import LiveryReleaseFormat

/// Who may download what in a tenant's current release: the access of every target, read from
/// the signed metadata through the typed roles (`timestamp.json` → `N.snapshot.json` →
/// `M.targets.json` and every delegated targets role the snapshot lists), and each target's
/// `custom` as a `TargetCustom`. A target counts as the release has it in the role a client
/// resolves it through (TUF's delegation search), so a tour a creator's delegated role signs is
/// protected exactly like one the tenant's targets role signs. Signatures are not checked here: the
/// files are the server's own, and a client checks them anyway.
///
/// A target file is looked up by its consistent-snapshot name (`<sha256>.<name>`). A file the
/// current release does not list by name is still protected when its SHA-256 belongs to a voucher
/// target of the current metadata or of an older targets file (top-level or delegated) kept in
/// `metadata/`: the bytes of a protected tour stay protected under a leftover name or after they
/// left the release. A release built `--unsigned` has no metadata; its download manifest (via
/// `release.json`) is read instead.
public struct ReleaseAccess: Sendable {
    /// One target's access rule.
    public struct Target: Sendable, Equatable {
        public var bundle: String
        /// What a voucher for this target must unlock (its tour, program, library item or pack); nil when public.
        public var subject: VoucherSubject?
        public var isProtected: Bool
    }

    /// One tour, program, library item or pack of the release: whether it needs a voucher, and its
    /// bundles (a tour's shared bundle and its languages; the one bundle of the others).
    public struct Subject: Sendable, Equatable {
        public var isProtected: Bool
        public var bundles: [String]
    }

    public var subjects: [VoucherSubject: Subject] = [:]

    /// How a bundle of the current release is delivered: its target file (`<sha256>.<name>`, under
    /// `targets/`) and, when encrypted, its key id.
    public struct Delivery: Sendable, Equatable {
        public var file: String
        public var encryption: BundleEncryption?
    }

    /// The current release's delivery of each bundle, by bundle id.
    public private(set) var deliveries: [String: Delivery] = [:]

    /// The release's subjects of one kind, by id.
    public func subjects(_ kind: VoucherSubject.Kind) -> [String: Subject] {
        Dictionary(uniqueKeysWithValues: subjects.filter { $0.key.kind == kind }.map { ($0.key.id, $0.value) })
    }
    private var byFile: [String: Target] = [:]
    private var protectedHashes: [String: Target] = [:]

    /// The rule for a file in `targets/`; nil when nothing protects it.
    public func target(file: String) -> Target? {
        if let target = byFile[file] { return target.isProtected ? target : nil }
        guard let dot = file.firstIndex(of: "."), file.distance(from: file.startIndex, to: dot) == 64 else { return nil }
        return protectedHashes[String(file[..<dot])]
    }

    /// Reads the current release in `folder` (`Output/<tenant>`); nil when nothing is published.
    /// Throws when the metadata, or a current target's `custom`, cannot be read: the caller then
    /// refuses every target rather than guess which are protected.
    public static func read(tenant folder: URL) throws -> ReleaseAccess? {
        if let published = try PublishedMetadata.load(release: folder) {
            return try read(published, metadata: folder.appendingPathComponent("metadata"))
        }
        // Unsigned: the download manifest that release.json points at.
        let pointerFile = folder.appendingPathComponent(ReleasePointer.fileName)
        guard FileManager.default.fileExists(atPath: pointerFile.path) else { return nil }
        let pointer = try ReleasePointer(data: Data(contentsOf: pointerFile))
        guard !pointer.manifest.contains("..") else { throw Problem("release.json names a manifest outside the release") }
        let manifest = try DownloadManifest(data: Data(contentsOf: folder.appendingPathComponent(pointer.manifest)))
        var access = ReleaseAccess()
        access.add(manifest.bundles.map { bundle in
            Entry(file: String(bundle.path.split(separator: "/").last ?? ""), sha256: bundle.sha256, bundle: bundle.id, kind: bundle.kind,
                  subject: bundle.subject, isProtected: bundle.access == .voucher, encryption: bundle.encryption)
        }, current: true)
        return access
    }

    /// The access rules of a published chain; `metadata` (the folder of its files, when there is one)
    /// adds the protected hashes of older targets files.
    static func read(_ published: PublishedMetadata, metadata: URL?) throws -> ReleaseAccess {
        var roles: [String: Targets] = [TUFRole.targets.rawValue: published.targets.signed]
        for (name, role) in published.delegated { roles[name] = role.signed }
        // The release as clients see it: each name from the role they resolve it in, read strictly.
        var current: [Entry] = []
        var listed: [Entry] = []
        for (role, targets) in roles {
            for (name, target) in targets.targets {
                if name.hasPrefix(RolloutStage.targetPrefix) {
                    // A release being rolled out: protected by its hash, but not the release every device
                    // gets, so it never takes the place of the current bundle's file in a redemption answer.
                    listed.append(try Entry(name: name, target: target))
                } else if let found = TargetSearch.find(name, in: roles), found.role == role {
                    current.append(try Entry(name: name, target: target))
                } else if let entry = try? Entry(name: name, target: target) {
                    // Listed where no client looks (outside the role's paths, a retired role): its hash only.
                    listed.append(entry)
                }
            }
        }
        var access = ReleaseAccess()
        access.add(current, current: true)
        access.add(listed, current: false)
        // Older versions of every targets role: their protected hashes that the current release does not list.
        let currentFiles = Set([PublishedMetadata.fileName(role: TUFRole.targets.rawValue, version: published.targets.signed.version)]
            + published.delegated.map { PublishedMetadata.fileName(role: $0.key, version: $0.value.signed.version) })
        guard let metadata else { return access }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: metadata.path)) ?? [] where !currentFiles.contains(name) && isTargetsFile(name) {
            guard let data = FileManager.default.contents(atPath: metadata.appendingPathComponent(name).path),
                  let older = try? Metadata<Targets>(data: data) else { continue }
            access.add(older.signed.targets.compactMap { try? Entry(name: $0.key, target: $0.value) }, current: false)
        }
        return access
    }

    /// `N.<role>.json` for a role other than root, snapshot and timestamp.
    static func isTargetsFile(_ name: String) -> Bool {
        guard name.hasSuffix(".json"), let dot = name.firstIndex(of: "."), Int(name[..<dot]) != nil else { return false }
        let role = name[name.index(after: dot)...].dropLast(".json".count)
        return !role.isEmpty && ![TUFRole.root, .snapshot, .timestamp].map(\.rawValue).contains(String(role))
    }

    /// A reason the published release cannot be read.
    struct Problem: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    struct Entry {
        var file: String, sha256: String, bundle: String, kind: BundleKind?, subject: String?, isProtected: Bool
        var encryption: BundleEncryption?

        init(file: String, sha256: String, bundle: String, kind: BundleKind?, subject: String?, isProtected: Bool, encryption: BundleEncryption? = nil) {
            (self.file, self.sha256, self.bundle, self.kind, self.subject, self.isProtected) = (file, sha256, bundle, kind, subject, isProtected)
            self.encryption = encryption
        }

        /// A signed target; its `custom` read strictly (a target without one is public).
        init(name: String, target: TargetFile) throws {
            guard let sha = target.sha256 else { throw Problem("target \(name) has no SHA-256") }
            let bundle = try TargetCustom(of: target)?.bundle
            self.init(file: "\(sha).\(name)", sha256: sha, bundle: bundle?.id ?? name, kind: bundle?.kind, subject: bundle?.subject,
                      isProtected: bundle?.access == .voucher, encryption: bundle?.encryption)
        }
    }

    private mutating func add(_ entries: [Entry], current: Bool) {
        let currentHashes = Set(byFile.keys.compactMap { $0.split(separator: ".", maxSplits: 1).first.map(String.init) })
        for entry in entries {
            let subject = VoucherSubject(bundle: entry.bundle, kind: entry.kind, subject: entry.subject)
            let target = Target(bundle: entry.bundle, subject: entry.isProtected ? subject : nil, isProtected: entry.isProtected)
            if current {
                byFile[entry.file] = target
                deliveries[entry.bundle] = Delivery(file: entry.file, encryption: entry.encryption)
                if let subject {
                    var known = subjects[subject] ?? Subject(isProtected: false, bundles: [])
                    known.bundles.append(entry.bundle)
                    known.bundles.sort()
                    // A tour is protected when its shared bundle is (every bundle of it is, as built);
                    // the other kinds have one bundle.
                    if entry.kind != .tourLanguage { known.isProtected = entry.isProtected }
                    subjects[subject] = known
                }
            }
            if entry.isProtected, current || !currentHashes.contains(entry.sha256), protectedHashes[entry.sha256] == nil || current {
                protectedHashes[entry.sha256] = target
            }
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
