import Crypto
import Foundation
import LiveryTUF

/// The TUF client workflow (specification 1.0.x, §5.3–5.6): walk root versions, then timestamp,
/// snapshot, targets and delegated targets, checking signatures against thresholds, versions
/// against what was trusted before (rollback), expiry (freeze), and lengths and hashes
/// (mix-and-match, endless data).
public struct TUFUpdater: Sendable {
    public struct Limits: Sendable {
        public var root = 512 * 1024
        public var timestamp = 16 * 1024
        public var snapshot = 2 * 1024 * 1024
        public var targets = 16 * 1024 * 1024
        public var maxRootRotations = 256
        /// Delegated roles loaded per refresh (a bound on hostile delegation graphs).
        public var maxDelegatedRoles = 64
        public init() {}
    }

    /// What a refresh tells its caller to keep (`name` like `root.json`; nil data: delete it).
    /// Called as soon as each file is verified, as the specification asks (§5.3.8, §5.4.5, §5.5.7,
    /// §5.6.6), so a refresh that fails part-way still keeps the newer root it walked to.
    public typealias Persist = (_ name: String, _ data: Data?) throws -> Void

    public var source: any RepositorySource
    public var now: Date
    public var limits = Limits()

    public init(source: any RepositorySource, now: Date = Date()) {
        self.source = source
        self.now = now
    }

    /// Refreshes from `trustedRoot` (and, when given, previously trusted metadata for rollback checks
    /// and to skip fetching a snapshot or targets whose version did not change).
    public func refresh(trustedRoot: Data, previous: TrustedMetadata? = nil, persist: Persist = { _, _ in }) throws -> TrustedMetadata {
        var root = try SignedMetadata(data: trustedRoot)
        guard root.role == .root, root.version != nil else { throw TUFError("the trusted root is not root metadata") }
        // The trusted root must verify under its own keys (§5.2).
        try Self.checkSignatures(root, keys: KeySet(root: root, role: .root), role: "root", what: "the trusted root")
        if let previous, let previousVersion = previous.root.version, previousVersion > (root.version ?? 0) { root = previous.root }
        let startRoot = root

        // 5.3: each next root must be signed by a threshold of the old root's keys and of its own.
        for _ in 0..<limits.maxRootRotations {
            let next = (root.version ?? 0) + 1
            guard let data = try source.fetch("metadata/\(next).root.json", maxLength: limits.root) else { break }
            let candidate = try SignedMetadata(data: data)
            guard candidate.role == .root else { throw TUFError("\(next).root.json is not root metadata") }
            try Self.checkSignatures(candidate, keys: KeySet(root: root, role: .root), role: "root", what: "\(next).root.json (by the keys of root version \(root.version ?? 0))")
            try Self.checkSignatures(candidate, keys: KeySet(root: candidate, role: .root), role: "root", what: "\(next).root.json (by its own keys)")
            guard candidate.version == next else { throw TUFError("\(next).root.json says it is version \(candidate.version ?? 0)") }
            root = candidate
            try persist("root.json", data)
        }
        try expiry(root, "root")

        // 5.3.11: when the timestamp or snapshot keys changed, forget the trusted timestamp and
        // snapshot, so a repository recovering from a compromise (a fast-forward attack that
        // pushed versions up) can be followed.
        var previous = previous
        if previous != nil, KeySet(root: startRoot, role: .timestamp) != KeySet(root: root, role: .timestamp)
            || KeySet(root: startRoot, role: .snapshot) != KeySet(root: root, role: .snapshot) {
            previous = nil
            try persist("timestamp.json", nil)
            try persist("snapshot.json", nil)
        }

        // 5.4: timestamp.
        guard let timestampData = try source.fetch("metadata/timestamp.json", maxLength: limits.timestamp) else { throw TUFError("timestamp.json is missing") }
        let timestamp = try SignedMetadata(data: timestampData)
        guard timestamp.role == .timestamp else { throw TUFError("timestamp.json is not timestamp metadata") }
        try Self.checkSignatures(timestamp, keys: KeySet(root: root, role: .timestamp), role: "timestamp", what: "timestamp.json")
        guard let snapshotMeta = timestamp.signed["meta"]?["snapshot.json"].flatMap(MetaFile.init(json:)) else { throw TUFError("timestamp.json names no snapshot") }
        if let previous {
            if (timestamp.version ?? 0) < (previous.timestamp.version ?? 0) {
                throw TUFError("timestamp version \(timestamp.version ?? 0) is older than the trusted version \(previous.timestamp.version ?? 0) (a rollback)")
            }
            let trustedSnapshot = previous.timestamp.signed["meta"]?["snapshot.json"]?["version"]?.intValue ?? 0
            if snapshotMeta.version < trustedSnapshot { throw TUFError("timestamp points at snapshot \(snapshotMeta.version), older than trusted \(trustedSnapshot) (a rollback)") }
        }
        try expiry(timestamp, "timestamp")
        try persist("timestamp.json", timestampData)

        // 5.5: snapshot, exactly the version and bytes the timestamp names.
        // Consistent snapshots name every version; otherwise the current one has a fixed name.
        let consistent = root.signed["consistent_snapshot"]?.boolValue ?? false
        let snapshot = try role(.snapshot, name: "snapshot", meta: snapshotMeta, keys: KeySet(root: root, role: .snapshot), limit: limits.snapshot,
                                consistent: consistent, parent: "timestamp", trusted: previous?.snapshot, persist: persist)
        let snapshotFiles = snapshot.signed["meta"]?.objectValue ?? [:]
        if let previous {
            // Every role the trusted snapshot listed must still be listed, at no older version.
            for (file, entry) in previous.snapshot.signed["meta"]?.objectValue ?? [:] {
                guard let trusted = entry["version"]?.intValue else { continue }
                guard let now = snapshotFiles[file]?["version"]?.intValue else { throw TUFError("snapshot \(snapshotMeta.version) no longer lists \(file) (a rollback)") }
                if now < trusted { throw TUFError("snapshot points at \(file) version \(now), older than trusted \(trusted) (a rollback)") }
            }
        }
        try expiry(snapshot, "snapshot")
        guard let targetsMeta = snapshotFiles["targets.json"].flatMap(MetaFile.init(json:)) else { throw TUFError("snapshot \(snapshotMeta.version) names no targets") }

        // 5.6: targets, exactly the version (and bytes, when given) the snapshot names.
        let targets = try role(.targets, name: "targets", meta: targetsMeta, keys: KeySet(root: root, role: .targets), limit: limits.targets,
                               consistent: consistent, parent: "snapshot", trusted: previous?.targets, persist: persist)
        try expiry(targets, "targets")

        // 5.6.7: delegated targets roles reachable from targets, each verified by its delegator's
        // keys. They are loaded here, in search order, rather than on the first lookup, so a
        // refresh either trusts the whole release or nothing.
        var delegated: [String: SignedMetadata] = [:]
        var queue: [SignedMetadata] = [targets]
        while !queue.isEmpty {
            let delegator = queue.removeFirst()
            guard let delegations = try Delegations(targets: delegator.signed) else { continue }
            for child in delegations.roles where delegated[child.name] == nil {
                guard delegated.count < limits.maxDelegatedRoles else { throw TUFError("more than \(limits.maxDelegatedRoles) delegated roles") }
                guard let meta = snapshotFiles["\(child.name).json"].flatMap(MetaFile.init(json:)) else {
                    throw TUFError("snapshot \(snapshotMeta.version) does not list delegated role '\(child.name)'")
                }
                let keys = KeySet(keys: delegations.keys, allowed: child.keyIDs, threshold: child.threshold)
                let document = try role(.targets, name: child.name, meta: meta, keys: keys, limit: limits.targets, consistent: consistent,
                                        parent: "snapshot", trusted: previous?.delegated[child.name], persist: persist)
                try expiry(document, "delegated role '\(child.name)'")
                delegated[child.name] = document
                queue.append(document)
            }
        }
        return TrustedMetadata(root: root, timestamp: timestamp, snapshot: snapshot, targets: targets, delegated: delegated)
    }

    /// 5.5 and 5.6: exactly the version (and, when given, the length and bytes) the parent role
    /// names, signed by a threshold of `keys`. A trusted copy of that version is used as it is.
    private func role(_ type: TUFRole, name: String, meta: MetaFile, keys: KeySet, limit: Int, consistent: Bool, parent: String,
                      trusted: SignedMetadata?, persist: Persist) throws -> SignedMetadata {
        // Role names become file names: encoded so a hostile name cannot leave the metadata folder.
        let encoded = TrustedMetadata.percentEncoded(name)
        let file = consistent ? "\(meta.version).\(encoded).json" : "\(encoded).json"
        if let trusted, trusted.version == meta.version, let bytes = trusted.original, (try? Self.checkFile(bytes, against: meta, what: file)) != nil,
           (try? Self.checkSignatures(trusted, keys: keys, role: type == .targets ? name : type.rawValue, what: file)) != nil {
            return trusted
        }
        guard let data = try source.fetch("metadata/\(file)", maxLength: meta.length ?? limit) else { throw TUFError("\(file) is missing") }
        try Self.checkFile(data, against: meta, what: file)
        let metadata = try SignedMetadata(data: data)
        guard metadata.role == type else { throw TUFError("\(file) is not \(type.rawValue) metadata") }
        try Self.checkSignatures(metadata, keys: keys, role: type == .targets ? name : type.rawValue, what: file)
        guard metadata.version == meta.version else { throw TUFError("\(file) says it is version \(metadata.version ?? 0), the \(parent) says \(meta.version)") }
        try persist("\(encoded).json", data)
        return metadata
    }

    /// Reads a target by its consistent-snapshot name and checks its length and hash.
    public func target(_ name: String, in trusted: TrustedMetadata) throws -> Data {
        guard let info = trusted.target(name) else { throw TUFError("'\(name)' is not a target of this release") }
        guard let data = try source.fetch("targets/\(info.sha256).\(name)", maxLength: info.length) else { throw TUFError("target file for '\(name)' is missing") }
        guard data.count == info.length else { throw TUFError("'\(name)' is \(data.count) bytes, the signed metadata says \(info.length)") }
        guard SHA256.hash(data: data).hexString == info.sha256 else { throw TUFError("'\(name)' does not match its signed SHA-256 (tampered or corrupt)") }
        return data
    }

    private func expiry(_ metadata: SignedMetadata, _ role: String) throws {
        guard let expires = metadata.expires else { throw TUFError("\(role) metadata has no valid expiry date") }
        if expires <= now { throw TUFError("\(role) metadata expired at \(TUFDate.string(expires)) (a freeze attack, or a release nobody re-signed)") }
    }

    static func checkFile(_ data: Data, against meta: MetaFile, what: String) throws {
        if let length = meta.length, data.count != length { throw TUFError("\(what) is \(data.count) bytes, expected \(length)") }
        if let sha = meta.sha256, SHA256.hash(data: data).hexString != sha {
            throw TUFError("\(what) does not match the hash its parent metadata signed (mix-and-match or tampering)")
        }
        if let sha = meta.sha512, Data(SHA512.hash(data: data)).hexString != sha {
            throw TUFError("\(what) does not match the hash its parent metadata signed (mix-and-match or tampering)")
        }
    }

    /// The keys that may sign a role, and how many must.
    struct KeySet: Equatable {
        var keys: [String: TUFKey]
        var allowed: [String]
        var threshold: Int

        init(keys: [String: TUFKey], allowed: [String], threshold: Int) {
            self.keys = keys.filter { allowed.contains($0.key) }
            self.allowed = allowed.sorted()
            self.threshold = threshold
        }

        /// A top-level role's keys, as `root` lists them.
        init(root: SignedMetadata, role: TUFRole) {
            var keys: [String: TUFKey] = [:]
            for (id, value) in root.signed["keys"]?.objectValue ?? [:] { if let key = TUFKey(json: value) { keys[id] = key } }
            self.init(keys: keys, allowed: root.signed["roles"]?[role.rawValue]?["keyids"]?.arrayValue?.compactMap(\.stringValue) ?? [],
                      threshold: root.signed["roles"]?[role.rawValue]?["threshold"]?.intValue ?? 1)
        }
    }

    static func checkSignatures(_ metadata: SignedMetadata, keys: KeySet, role: String, what: String) throws {
        let valid = metadata.validSignatures(keys: keys.keys, allowed: keys.allowed)
        guard keys.threshold >= 1, valid >= keys.threshold else {
            throw TUFError("\(what) has \(valid) valid \(role) signature\(valid == 1 ? "" : "s"), \(keys.threshold) needed (signed by another key, or edited after signing)")
        }
    }
}
