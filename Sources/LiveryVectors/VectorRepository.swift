import Crypto
import Foundation
import LiveryReleaseFormat

/// Fixed expiry dates: valid metadata expires in 2100, expired metadata expired in 2000.
enum Expires {
    static let future = "2100-01-01T00:00:00Z"
    static let past = "2000-01-01T00:00:00Z"
}

/// The keys and thresholds one root version gives the four top-level roles.
struct RoleKeys: Sendable {
    var root: [VectorKey]
    var targets: [VectorKey]
    var snapshot: [VectorKey]
    var timestamp: [VectorKey]
    var thresholds: [String: Int] = [:]

    /// One key per role, named `<prefix>-<role>`.
    static func single(_ prefix: String) -> RoleKeys {
        RoleKeys(root: [VectorKey("\(prefix)-root")], targets: [VectorKey("\(prefix)-targets")],
                 snapshot: [VectorKey("\(prefix)-snapshot")], timestamp: [VectorKey("\(prefix)-timestamp")])
    }

    var byRole: [(String, [VectorKey])] { [("root", root), ("targets", targets), ("snapshot", snapshot), ("timestamp", timestamp)] }
}

/// A delegated targets role of a vector repository, with the target names it signs.
struct Delegation: Sendable {
    var name: String
    var key: VectorKey
    var paths: [String]
    var terminating: Bool
    /// Names of targets listed in this role's metadata instead of the top-level targets.
    var signs: [String]
    /// Keep the role's published metadata file instead of signing a new version (its content did not change).
    var keepPublished = false

    var json: JSONValue {
        .object(["name": .string(name), "keyids": .array([.string(key.keyID)]), "threshold": .int(1),
                 "paths": .array(paths.map(JSONValue.string)), "terminating": .bool(terminating)])
    }
}

/// A static TUF repository with consistent snapshots, as `livery build` lays it out:
/// `metadata/N.root.json`, `metadata/N.targets.json`, `metadata/N.snapshot.json`,
/// `metadata/timestamp.json`, `metadata/N.<role>.json` for delegated roles, and
/// `targets/<sha256>.<name>`. A value type: copying it keeps a repository state for one step
/// while the next state is built from it. Files are never rewritten by `publish`, only added
/// (except `timestamp.json`); attacks change the files afterwards.
struct VectorRepository: Sendable {
    /// Files under `metadata/`, by name.
    var metadata: [String: Data] = [:]
    /// Files under `targets/`, by path (`dir/<sha256>.name`).
    var targetFiles: [String: Data] = [:]
    /// The keys of the newest root.
    private(set) var keys: RoleKeys
    private(set) var rootVersion = 0
    /// The version last published of each role (`targets`, `snapshot`, `timestamp`, delegated names).
    private(set) var versions: [String: Int] = [:]

    /// A repository whose first root gives the roles `keys`.
    init(keys: RoleKeys) throws {
        self.keys = keys
        try publishRoot(keys)
    }

    /// The next root version, giving the roles `keys`, signed by the previous root keys and the
    /// new ones (each key once), or by `signers` when given.
    mutating func publishRoot(_ keys: RoleKeys, signers: [VectorKey]? = nil, expires: String = Expires.future) throws {
        let version = rootVersion + 1
        var allKeys: [String: JSONValue] = [:]
        var roles: [String: JSONValue] = [:]
        for (role, roleKeys) in keys.byRole {
            for key in roleKeys { allKeys[key.keyID] = key.tufKey.json }
            roles[role] = .object(["keyids": .array(roleKeys.map(\.keyID).sorted().map(JSONValue.string)), "threshold": .int(keys.thresholds[role] ?? 1)])
        }
        let document: JSONValue = .object([
            "_type": .string("root"), "spec_version": .string(TUFSpec.version), "version": .int(version), "expires": .string(expires),
            "consistent_snapshot": .bool(true), "keys": .object(allKeys), "roles": .object(roles),
        ])
        var defaultSigners: [VectorKey] = []
        for key in (rootVersion == 0 ? [] : self.keys.root) + keys.root where !defaultSigners.contains(where: { $0.keyID == key.keyID }) {
            defaultSigners.append(key)
        }
        metadata["\(version).root.json"] = try Envelope(document, signedBy: signers ?? defaultSigners).bytes()
        rootVersion = version
        self.keys = keys
    }

    /// The bytes of the trusted root a client starts from: version 1.
    var firstRoot: Data { metadata["1.root.json"] ?? Data() }

    /// Adds the file index objects of `release` beside its targets (docs/deltas.md: trusted through the manifest, not signed themselves).
    mutating func addIndexes(of release: VectorRelease) {
        for (name, data) in release.indexFiles { targetFiles[name] = data }
    }

    /// Adds target files (under their consistent-snapshot names).
    mutating func add(_ targets: [VectorTarget]) {
        for target in targets { targetFiles[target.fileName] = target.data }
    }

    /// The versions, lengths and bytes of one publication.
    struct Published: Sendable {
        var targets: Int
        var snapshot: Int
        var timestamp: Int
    }

    /// Publishes `targets` as a new version of the targets role (and of each delegated role, which
    /// lists the targets it `signs`), then a new snapshot and a new timestamp, like a `livery build`
    /// of a changed release. `expires` and `signers` override a role's expiry or signing keys;
    /// `leaveOutOfSnapshot` drops role files from the snapshot's `meta`.
    @discardableResult
    mutating func publish(_ targets: [VectorTarget], delegations: [Delegation] = [], expires: [String: String] = [:],
                          signers: [String: [VectorKey]] = [:], leaveOutOfSnapshot: Set<String> = []) throws -> Published {
        add(targets)
        var meta: [String: JSONValue] = [:]
        var delegated = Set<String>()
        for delegation in delegations {
            let entries = targets.filter { delegation.signs.contains($0.name) }
            delegated.formUnion(entries.map(\.name))
            if delegation.keepPublished {
                meta["\(delegation.name).json"] = metaEntry(delegation.name)
                continue
            }
            let version = (versions[delegation.name] ?? 0) + 1
            let bytes = try sign(targetsDocument(version: version, expires: expires[delegation.name], entries: entries, delegations: []),
                                 by: signers[delegation.name] ?? [delegation.key], as: "\(version).\(delegation.name).json")
            versions[delegation.name] = version
            meta["\(delegation.name).json"] = Self.meta(version: version, of: bytes)
        }
        let targetsVersion = (versions["targets"] ?? 0) + 1
        let targetsBytes = try sign(targetsDocument(version: targetsVersion, expires: expires["targets"], entries: targets.filter { !delegated.contains($0.name) },
                                                    delegations: delegations),
                                    by: signers["targets"] ?? keys.targets, as: "\(targetsVersion).targets.json")
        versions["targets"] = targetsVersion
        meta["targets.json"] = Self.meta(version: targetsVersion, of: targetsBytes)
        for name in leaveOutOfSnapshot { meta[name] = nil }
        let snapshotVersion = try publishSnapshot(meta: meta, expires: expires["snapshot"], signers: signers["snapshot"])
        let timestampVersion = try publishTimestamp(expires: expires["timestamp"], signers: signers["timestamp"])
        return Published(targets: targetsVersion, snapshot: snapshotVersion, timestamp: timestampVersion)
    }

    /// A new snapshot version with `meta`; returns its version.
    mutating func publishSnapshot(meta: [String: JSONValue], expires: String? = nil, signers: [VectorKey]? = nil) throws -> Int {
        let version = (versions["snapshot"] ?? 0) + 1
        _ = try sign(Self.snapshotDocument(version: version, expires: expires, meta: meta), by: signers ?? keys.snapshot, as: "\(version).snapshot.json")
        versions["snapshot"] = version
        return version
    }

    /// A new `timestamp.json` naming the newest snapshot (or snapshot `version`, when given); returns its version.
    mutating func publishTimestamp(snapshot version: Int? = nil, version timestampVersion: Int? = nil, expires: String? = nil, signers: [VectorKey]? = nil) throws -> Int {
        let snapshotVersion = version ?? versions["snapshot"] ?? 1
        let snapshotBytes = metadata["\(snapshotVersion).snapshot.json"] ?? Data()
        let newVersion = timestampVersion ?? (versions["timestamp"] ?? 0) + 1
        let document: JSONValue = .object([
            "_type": .string("timestamp"), "spec_version": .string(TUFSpec.version), "version": .int(newVersion),
            "expires": .string(expires ?? Expires.future), "meta": .object(["snapshot.json": Self.meta(version: snapshotVersion, of: snapshotBytes)]),
        ])
        _ = try sign(document, by: signers ?? keys.timestamp, as: "timestamp.json")
        versions["timestamp"] = max(versions["timestamp"] ?? 0, newVersion)
        return newVersion
    }

    static func snapshotDocument(version: Int, expires: String?, meta: [String: JSONValue]) -> JSONValue {
        .object([
            "_type": .string("snapshot"), "spec_version": .string(TUFSpec.version), "version": .int(version),
            "expires": .string(expires ?? Expires.future), "meta": .object(meta),
        ])
    }

    func targetsDocument(version: Int, expires: String?, entries: [VectorTarget], delegations: [Delegation]) -> JSONValue {
        var object: [String: JSONValue] = [
            "_type": .string("targets"), "spec_version": .string(TUFSpec.version), "version": .int(version),
            "expires": .string(expires ?? Expires.future),
            "targets": .object(Dictionary(entries.map { ($0.name, $0.entry) }, uniquingKeysWith: { first, _ in first })),
        ]
        if !delegations.isEmpty {
            object["delegations"] = .object([
                "keys": .object(Dictionary(delegations.map { ($0.key.keyID, $0.key.tufKey.json) }, uniquingKeysWith: { first, _ in first })),
                "roles": .array(delegations.map(\.json)),
            ])
        }
        return .object(object)
    }

    /// Signs `document` with `keys` and stores it as `metadata/<name>`; returns the file's bytes.
    mutating func sign(_ document: JSONValue, by keys: [VectorKey], as name: String) throws -> Data {
        let bytes = try Envelope(document, signedBy: keys).bytes()
        metadata[name] = bytes
        return bytes
    }

    /// The snapshot `meta` entry of the newest version of a targets role (`targets` or a delegated role's name).
    func metaEntry(_ role: String) -> JSONValue {
        let version = versions[role] ?? 1
        return Self.meta(version: version, of: metadata["\(version).\(role).json"] ?? Data())
    }

    /// A `meta` entry of snapshot or timestamp metadata: version, length and SHA-256 of `bytes`.
    static func meta(version: Int, of bytes: Data) -> JSONValue {
        .object(["version": .int(version), "length": .int(bytes.count), "hashes": .object(["sha256": .string(SHA256.hash(data: bytes).hexString)])])
    }

    /// Writes `metadata/` and `targets/` into `folder`.
    func write(to folder: URL) throws {
        let fm = FileManager.default
        for (base, files) in [("metadata", metadata), ("targets", targetFiles)] {
            for (name, data) in files {
                let file = folder.appendingPathComponent(base).appendingPathComponent(name)
                try fm.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try data.write(to: file)
            }
        }
    }
}

/// The TUF specification version the vectors' metadata declares (as `livery build` does).
enum TUFSpec {
    static let version = "1.0.31"
}
