import Crypto
import Foundation
import LiveryTUF

/// The metadata a client trusts after a refresh.
public struct TrustedMetadata: Sendable {
    public var root: SignedMetadata
    public var timestamp: SignedMetadata
    public var snapshot: SignedMetadata
    public var targets: SignedMetadata

    /// A target's length, SHA-256 and `custom` description, or nil when targets metadata does not list it.
    public func target(_ name: String) -> (length: Int, sha256: String, custom: JSONValue?)? {
        guard let entry = targets.signed["targets"]?[name], let length = entry["length"]?.intValue,
              let sha = entry["hashes"]?["sha256"]?.stringValue else { return nil }
        return (length, sha, entry["custom"])
    }

    public init(root: SignedMetadata, timestamp: SignedMetadata, snapshot: SignedMetadata, targets: SignedMetadata) {
        self.root = root
        self.timestamp = timestamp
        self.snapshot = snapshot
        self.targets = targets
    }

    public var targetNames: [String] { (targets.signed["targets"]?.objectValue?.keys).map { Array($0).sorted() } ?? [] }
}

/// The TUF client workflow (specification 1.0.x, §5.3–5.6): walk root versions, then timestamp,
/// snapshot and targets, checking signatures against thresholds, versions against what was trusted
/// before (rollback), expiry (freeze), and lengths and hashes (mix-and-match, endless data).
public struct TUFUpdater: Sendable {
    public struct Limits: Sendable {
        public var root = 512 * 1024
        public var timestamp = 16 * 1024
        public var snapshot = 2 * 1024 * 1024
        public var targets = 16 * 1024 * 1024
        public var maxRootRotations = 256
        public init() {}
    }

    public var source: any RepositorySource
    public var now: Date
    public var limits = Limits()

    public init(source: any RepositorySource, now: Date = Date()) {
        self.source = source
        self.now = now
    }

    /// Refreshes from `trustedRoot` (and, when given, previously trusted metadata for rollback checks).
    public func refresh(trustedRoot: Data, previous: TrustedMetadata? = nil) throws -> TrustedMetadata {
        var root = try SignedMetadata(data: trustedRoot)
        guard root.role == .root, let startVersion = root.version else { throw TUFError("the trusted root is not root metadata") }
        if let previous, let previousVersion = previous.root.version, previousVersion > startVersion { root = previous.root }

        // 5.3: each next root must be signed by a threshold of the old root's keys and of its own.
        for _ in 0..<limits.maxRootRotations {
            let next = (root.version ?? 0) + 1
            guard let data = try source.fetch("metadata/\(next).root.json", maxLength: limits.root) else { break }
            let candidate = try SignedMetadata(data: data)
            guard candidate.role == .root else { throw TUFError("\(next).root.json is not root metadata") }
            try Self.checkSignatures(candidate, role: .root, by: root, what: "\(next).root.json (by the keys of root version \(root.version ?? 0))")
            try Self.checkSignatures(candidate, role: .root, by: candidate, what: "\(next).root.json (by its own keys)")
            guard candidate.version == next else { throw TUFError("\(next).root.json says it is version \(candidate.version ?? 0)") }
            root = candidate
        }
        try expiry(root, "root")

        // 5.4: timestamp.
        guard let timestampData = try source.fetch("metadata/timestamp.json", maxLength: limits.timestamp) else { throw TUFError("timestamp.json is missing") }
        let timestamp = try SignedMetadata(data: timestampData)
        guard timestamp.role == .timestamp else { throw TUFError("timestamp.json is not timestamp metadata") }
        try Self.checkSignatures(timestamp, role: .timestamp, by: root, what: "timestamp.json")
        guard let snapshotMeta = timestamp.signed["meta"]?["snapshot.json"].flatMap(MetaFile.init(json:)) else { throw TUFError("timestamp.json names no snapshot") }
        if let previous {
            if (timestamp.version ?? 0) < (previous.timestamp.version ?? 0) {
                throw TUFError("timestamp version \(timestamp.version ?? 0) is older than the trusted version \(previous.timestamp.version ?? 0) (a rollback)")
            }
            let trustedSnapshot = previous.timestamp.signed["meta"]?["snapshot.json"]?["version"]?.intValue ?? 0
            if snapshotMeta.version < trustedSnapshot { throw TUFError("timestamp points at snapshot \(snapshotMeta.version), older than trusted \(trustedSnapshot) (a rollback)") }
        }
        try expiry(timestamp, "timestamp")

        // 5.5: snapshot, exactly the version and bytes the timestamp names.
        // Consistent snapshots name every version; otherwise the current one has a fixed name.
        let consistent = root.signed["consistent_snapshot"]?.boolValue ?? false
        let snapshot = try fetchRole(.snapshot, named: consistent ? "\(snapshotMeta.version).snapshot.json" : "snapshot.json",
                                     meta: snapshotMeta, limit: limits.snapshot, root: root, parent: "timestamp")
        guard let targetsMeta = snapshot.signed["meta"]?["targets.json"].flatMap(MetaFile.init(json:)) else { throw TUFError("snapshot \(snapshotMeta.version) names no targets") }
        if let previous, let trusted = previous.snapshot.signed["meta"]?["targets.json"]?["version"]?.intValue, targetsMeta.version < trusted {
            throw TUFError("snapshot points at targets \(targetsMeta.version), older than trusted \(trusted) (a rollback)")
        }
        try expiry(snapshot, "snapshot")

        // 5.6: targets, exactly the version (and bytes, when given) the snapshot names.
        let targets = try fetchRole(.targets, named: consistent ? "\(targetsMeta.version).targets.json" : "targets.json",
                                    meta: targetsMeta, limit: limits.targets, root: root, parent: "snapshot")
        try expiry(targets, "targets")
        return TrustedMetadata(root: root, timestamp: timestamp, snapshot: snapshot, targets: targets)
    }

    /// 5.5 and 5.6: exactly the version (and, when given, the length and bytes) the parent role names,
    /// signed by a threshold of the role's keys.
    private func fetchRole(_ role: TUFRole, named name: String, meta: MetaFile, limit: Int, root: SignedMetadata, parent: String) throws -> SignedMetadata {
        guard let data = try source.fetch("metadata/\(name)", maxLength: meta.length ?? limit) else { throw TUFError("\(name) is missing") }
        try Self.checkFile(data, against: meta, what: name)
        let metadata = try SignedMetadata(data: data)
        guard metadata.role == role else { throw TUFError("\(name) is not \(role.rawValue) metadata") }
        try Self.checkSignatures(metadata, role: role, by: root, what: name)
        guard metadata.version == meta.version else { throw TUFError("\(name) says it is version \(metadata.version ?? 0), the \(parent) says \(meta.version)") }
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
    }

    static func checkSignatures(_ metadata: SignedMetadata, role: TUFRole, by root: SignedMetadata, what: String) throws {
        var keys: [String: TUFKey] = [:]
        for (id, value) in root.signed["keys"]?.objectValue ?? [:] { if let key = TUFKey(json: value) { keys[id] = key } }
        let allowed = root.signed["roles"]?[role.rawValue]?["keyids"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let threshold = root.signed["roles"]?[role.rawValue]?["threshold"]?.intValue ?? 1
        let valid = metadata.validSignatures(keys: keys, allowed: allowed)
        guard threshold >= 1, valid >= threshold else {
            throw TUFError("\(what) has \(valid) valid \(role.rawValue) signature\(valid == 1 ? "" : "s"), \(threshold) needed (signed by another key, or edited after signing)")
        }
    }
}
