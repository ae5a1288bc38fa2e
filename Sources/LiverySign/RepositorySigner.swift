import Crypto
import Foundation
import LiveryStorage
import LiveryReleaseFormat

/// How long each role's metadata stays valid (docs/signing.md).
public struct Expiry: Sendable {
    public var root: TimeInterval = 365 * 86_400
    public var targets: TimeInterval = 90 * 86_400
    public var snapshot: TimeInterval = 7 * 86_400
    public var timestamp: TimeInterval = 86_400

    public init() {}
}

/// Writes the TUF metadata of one tenant's release into its (staging) folder: a new targets,
/// snapshot and timestamp for the release's targets, and `1.root.json` the first time. Metadata
/// versions only grow; files are new (consistent snapshots), except `timestamp.json`, which is
/// replaced by a new file (never rewritten in place: it may be a hard link into the live release).
public enum RepositorySigner {
    public struct Target: Sendable {
        public var name: String
        public var length: Int
        public var sha256: String
        /// Livery's description of the target, signed as its `custom`.
        public var custom: TargetCustom?

        public init(name: String, length: Int, sha256: String, custom: TargetCustom?) {
            self.name = name
            self.length = length
            self.sha256 = sha256
            self.custom = custom
        }
    }

    /// The highest N of `N.<role>.json` in `metadata`.
    public static func latestVersion(of role: TUFRole, in metadata: URL) -> Int? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: metadata.path)) ?? []
        return names.compactMap { name -> Int? in
            guard name.hasSuffix(".\(role.rawValue).json") else { return nil }
            return Int(name.dropLast(".\(role.rawValue).json".count))
        }.max()
    }

    /// The root the release's metadata must satisfy: the newest published one; else the key store's
    /// first root (made by `livery keys init` or a ceremony), published here as it is; else, for a
    /// store without keys.yaml whose root key is a file here (development keys), a first root
    /// signed now. A store with keys.yaml never has a build sign a root.
    static func trustedRoot(release folder: URL, keys: TenantKeys, now: Date, expiry: Expiry) throws -> (root: Root, version: Int) {
        let metadata = folder.appendingPathComponent("metadata", isDirectory: true)
        if let version = latestVersion(of: .root, in: metadata) {
            return (try Metadata<Root>(data: Data(contentsOf: metadata.appendingPathComponent("\(version).root.json", isDirectory: false))).signed, version)
        }
        if let initial = keys.initialRoot {
            let root: Metadata<Root>
            do {
                root = try Metadata<Root>(data: initial)
                guard root.signed.version == 1 else { throw TUFError("it is version \(root.signed.version), not 1") }
                try root.signed.keys(for: .root).verify(root, as: "root")
            } catch let error as TUFError {
                throw TUFError("the key store's 1.root.json cannot start the tenant's root chain: \(error.description)")
            }
            try StagedFile.write(initial, to: metadata.appendingPathComponent("1.root.json", isDirectory: false))
            return (root.signed, 1)
        }
        guard keys.mayCreateRoot, let signers = keys.signers[.root], !signers.isEmpty else {
            throw TUFError("the tenant has no root yet, and `livery build` never signs one: make it with `livery keys init` "
                           + "or a root ceremony (`livery keys propose-root`, docs/keys.md#a-root-ceremony)")
        }
        let document = TUFDocument.root(version: 1, expires: now.addingTimeInterval(expiry.root), keys: try keys.publicKeys(), thresholds: [:])
        var envelope = SignedMetadata(signed: document)
        try keys.sign(&envelope, with: signers, role: TUFRole.root.rawValue, file: "1.root.json")
        try StagedFile.write(envelope.bytes(), to: metadata.appendingPathComponent("1.root.json", isDirectory: false))
        return (try Root(signed: document), 1)
    }

    /// `warn` hears of delegated roles close to expiry whose key is away (a line starting with `WARNING`).
    public static func sign(release folder: URL, targets: [Target], keys: TenantKeys, now: Date = Date(), expiry: Expiry = Expiry(),
                            warn: (String) -> Void = { _ in }) throws {
        // Recorded patterns are checked again (a record older than the check, or edited by hand):
        // a role whose patterns clients read differently is never published.
        for delegation in keys.delegations {
            do {
                try DelegationKey.checkPatterns(delegation.paths)
            } catch let error as TUFError {
                throw TUFError("delegated role '\(delegation.name)': \(error.description); give it other paths with "
                               + "`livery keys delegate <tenant> \(delegation.name) --path …`, or end it with --remove")
            }
        }
        let metadata = folder.appendingPathComponent("metadata", isDirectory: true)
        try WriteFailure.writing(metadata.path) { try FileManager.default.createDirectory(at: metadata, withIntermediateDirectories: true) }
        let (root, rootVersion) = try trustedRoot(release: folder, keys: keys, now: now, expiry: expiry)
        // Every online role's keys are checked before anything is signed: a missing or untrusted
        // key stops the release with the role and the key named, and nothing is published.
        var online: [TUFRole: [any MetadataSigner]] = [:]
        for role in [TUFRole.targets, .snapshot, .timestamp] {
            online[role] = try keys.signers(for: role, trustedBy: root, version: rootVersion)
        }
        func write(_ document: JSONValue, role: TUFRole, as name: String) throws -> Data {
            var envelope = SignedMetadata(signed: document)
            try keys.sign(&envelope, with: online[role] ?? [], role: role.rawValue, file: name)
            let bytes = try envelope.bytes()
            let file = metadata.appendingPathComponent(name, isDirectory: false)
            unlink(file.path)
            try StagedFile.write(bytes, to: file)
            return bytes
        }

        // A chain that cannot be read stops signing: starting the versions again at 1 would publish
        // a rollback that every client refuses.
        let published = try PublishedMetadata.load(release: folder)
        let previous = (targets: published?.targets.signed.version ?? 0, snapshot: published?.snapshot.signed.version ?? 0,
                        timestamp: published?.timestamp.signed.version ?? 0)

        // Each target goes to the first delegated role whose paths match it (the order clients
        // search in), the rest to the targets role.
        var entries: [String: JSONValue] = [:]
        var delegatedEntries: [String: [String: JSONValue]] = [:]
        for target in targets {
            let entry = TUFDocument.target(length: target.length, sha256: target.sha256, custom: target.custom?.json)
            if let role = keys.delegations.first(where: { $0.role.matches(target.name) }) {
                delegatedEntries[role.name, default: [:]][target.name] = entry
            } else {
                entries[target.name] = entry
            }
        }
        var delegatedFiles: [String: MetaFile] = [:]
        for delegation in keys.delegations {
            delegatedFiles[delegation.name] = try signDelegated(delegation, targets: delegatedEntries[delegation.name] ?? [:], published: published,
                                                                metadata: metadata, keys: keys, now: now, expiry: expiry, warn: warn)
        }
        // A role no longer delegated stays in the snapshot at its last version: clients refuse a
        // snapshot that drops a file their trusted snapshot listed (TUF 1.0.x §5.5.5).
        for (role, document) in published?.delegated ?? [:] where delegatedFiles[role] == nil {
            delegatedFiles[role] = MetaFile(version: document.signed.version, length: document.bytes.count, sha256: SHA256.hash(data: document.bytes).hexString)
        }
        let delegations = keys.delegations.isEmpty ? nil
            : Delegations(keys: Dictionary(keys.delegations.map { ($0.publicKey.keyID, $0.publicKey) }, uniquingKeysWith: { first, _ in first }),
                          roles: keys.delegations.map(\.role))

        let targetsVersion = previous.targets + 1
        let targetsBytes = try write(TUFDocument.targets(version: targetsVersion, expires: now.addingTimeInterval(expiry.targets), targets: entries, delegations: delegations),
                                     role: .targets, as: "\(targetsVersion).targets.json")
        let snapshotVersion = previous.snapshot + 1
        let snapshotBytes = try write(TUFDocument.snapshot(version: snapshotVersion, expires: now.addingTimeInterval(expiry.snapshot),
                                                           targets: MetaFile(version: targetsVersion, length: targetsBytes.count, sha256: SHA256.hash(data: targetsBytes).hexString),
                                                           delegated: delegatedFiles),
                                      role: .snapshot, as: "\(snapshotVersion).snapshot.json")
        _ = try write(TUFDocument.timestamp(version: previous.timestamp + 1, expires: now.addingTimeInterval(expiry.timestamp),
                                            snapshot: MetaFile(version: snapshotVersion, length: snapshotBytes.count, sha256: SHA256.hash(data: snapshotBytes).hexString)),
                      role: .timestamp, as: "timestamp.json")
        try keys.journal.flush()
    }

    /// A delegated role's metadata: the published version when its targets and key are unchanged
    /// and it is not close to expiry (so its version grows only with its content, and a creator
    /// who keeps the key away is needed only when their content changes); otherwise the next
    /// version, signed with the role's key. Close to expiry with the key away, the published
    /// version is kept while it outlives a new timestamp, with a warning.
    private static func signDelegated(_ delegation: DelegationKey, targets: [String: JSONValue], published: PublishedMetadata?,
                                      metadata: URL, keys: TenantKeys, now: Date, expiry: Expiry, warn: (String) -> Void) throws -> MetaFile {
        let keyID = delegation.publicKey.keyID
        if let current = published?.delegated[delegation.name],
           current.signedJSON["targets"] == .object(targets), current.signatures[keyID] != nil,
           published?.activeDelegations.contains(delegation.name) == true {
            let reused = MetaFile(version: current.signed.version, length: current.bytes.count, sha256: SHA256.hash(data: current.bytes).hexString)
            if current.signed.expires > now.addingTimeInterval(expiry.targets / 3) { return reused }
            if delegation.signer == nil {
                try checkKeptAway(delegation.name, expires: current.signed.expires, now: now, expiry: expiry, warn: warn)
                return reused
            }
        }
        guard let signer = delegation.signer else {
            throw TUFError("the targets of delegated role '\(delegation.name)' changed, but its key is not in the key store: "
                           + "bring \(delegation.name).key back to the delegations folder (the creator signs their own content)")
        }
        let version = (published?.version(ofDelegated: delegation.name) ?? 0) + 1
        var envelope = SignedMetadata(signed: TUFDocument.targets(version: version, expires: now.addingTimeInterval(expiry.targets), targets: targets))
        let name = PublishedMetadata.fileName(role: delegation.name, version: version)
        try keys.sign(&envelope, with: [signer], role: delegation.name, file: name)
        let bytes = try envelope.bytes()
        let file = metadata.appendingPathComponent(name, isDirectory: false)
        unlink(file.path)
        try StagedFile.write(bytes, to: file)
        return MetaFile(version: version, length: bytes.count, sha256: SHA256.hash(data: bytes).hexString)
    }

    /// A delegated role whose key is away can only be reused: fine while it outlives the timestamp
    /// about to be signed (so no timestamp vouches for an expired role), with a warning in the last
    /// third of its lifetime; refused after that.
    static func checkKeptAway(_ name: String, expires: Date, now: Date, expiry: Expiry, warn: (String) -> Void) throws {
        guard expires > now.addingTimeInterval(expiry.timestamp) else {
            throw TUFError("delegated role '\(name)' expires at \(TUFDate.string(expires)) and its key is not in the key store, so it cannot be "
                           + "signed again: bring \(name).key back to the delegations folder")
        }
        if expires < now.addingTimeInterval(expiry.targets / 3) {
            warn("WARNING: delegated role '\(name)' expires at \(TUFDate.string(expires)) and its key is not in the key store: bring \(name).key "
                 + "back to the delegations folder before then, or the release stops verifying")
        }
    }
}

extension RepositorySigner {
    /// Re-signs the timestamp of an unchanged release with a new version and expiry, pointing at the
    /// same snapshot, so a release that does not change does not expire (`livery build --refresh-timestamp`).
    public static func refreshTimestamp(release folder: URL, keys: TenantKeys, now: Date = Date(), expiry: Expiry = Expiry(),
                                        warn: (String) -> Void = { _ in }) throws {
        let file = folder.appendingPathComponent("metadata/timestamp.json")
        let current = try Metadata<Timestamp>(data: Data(contentsOf: file))
        if let published = try PublishedMetadata.load(release: folder) {
            // A snapshot, targets or delegated role that would expire within a third of its lifetime
            // is signed again (same content, next version), so daily refreshes keep the whole chain
            // valid. A delegated role whose key is away cannot be: it is kept while it outlives the
            // new timestamp.
            let active = published.activeDelegations.sorted().compactMap { name in published.delegated[name].map { (name: name, document: $0) } }
            let away = Set(keys.delegations.filter { $0.signer == nil }.map(\.name))
            let renewable = [published.targets] + active.filter { !away.contains($0.name) }.map(\.document)
            let due = published.snapshot.signed.expires < now.addingTimeInterval(expiry.snapshot / 3)
                || renewable.contains(where: { $0.signed.expires < now.addingTimeInterval(expiry.targets / 3) })
            // A machine that holds only the timestamp key (role separation) refreshes the timestamp
            // alone while the rest of the chain outlives it, with a warning; past that it stops.
            let (root, version) = try trustedRoot(release: folder, keys: keys, now: now, expiry: expiry)
            let canRenew = [TUFRole.targets, .snapshot].allSatisfy { (try? keys.signers(for: $0, trustedBy: root, version: version)) != nil }
            if due && canRenew {
                try sign(release: folder, targets: try published.signedTargets, keys: keys, now: now, expiry: expiry, warn: warn)
                return
            }
            let newExpiry = now.addingTimeInterval(expiry.timestamp)
            if due {
                let chain: [(String, Date)] = [("snapshot", published.snapshot.signed.expires), ("targets", published.targets.signed.expires)]
                    + active.filter { !away.contains($0.name) }.map { ($0.name, $0.document.signed.expires) }
                for (role, expires) in chain where expires < now.addingTimeInterval((role == "snapshot" ? expiry.snapshot : expiry.targets) / 3) {
                    guard expires > newExpiry else {
                        _ = try keys.signers(for: role == "snapshot" ? .snapshot : .targets, trustedBy: root, version: version)
                        throw TUFError("\(role) metadata expires at \(TUFDate.string(expires)), before the new timestamp would: sign the release again with the targets and snapshot keys")
                    }
                    warn("WARNING: \(role) metadata expires at \(TUFDate.string(expires)); this machine has only the timestamp key: sign the release again with the targets and snapshot keys before then")
                }
            }
            for role in active where away.contains(role.name) {
                try checkKeptAway(role.name, expires: role.document.signed.expires, now: now, expiry: expiry, warn: warn)
            }
            var envelope = SignedMetadata(signed: TUFDocument.timestamp(version: current.signed.version + 1, expires: newExpiry, snapshot: current.signed.snapshot))
            try keys.sign(&envelope, with: try keys.signers(for: .timestamp, trustedBy: root, version: version), role: TUFRole.timestamp.rawValue, file: "timestamp.json")
            unlink(file.path)
            try StagedFile.write(envelope.bytes(), to: file)
            try keys.journal.flush()
            return
        }
        throw TUFError("the release's snapshot or targets metadata cannot be read: build the release again")
    }
}
