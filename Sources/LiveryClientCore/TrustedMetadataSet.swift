import Foundation
import LiveryReleaseFormat

/// The client's trust logic, the detailed client workflow of the TUF specification 1.0.x (§5.2–5.6),
/// as a state machine with no I/O: it takes a file's bytes and the reference time, and either
/// trusts the metadata or throws a typed `TUFError`. The updater around it only fetches and stores
/// (python-tuf's `ngclient.TrustedMetadataSet` is the model; its order of checks is kept, because
/// the conformance suite probes it).
///
/// The order is fixed: every root update comes first, then the timestamp, the snapshot, targets,
/// and delegated targets roles, each loaded only after its delegator. What is checked when:
/// - a new root must be signed by a threshold of the trusted root's keys and of its own, and be
///   exactly the next version; its expiry is checked only once the walk is over (§5.3.10);
/// - a timestamp (local or new) is verified by root's keys; a new one may not go back in version,
///   nor point at an older snapshot; an equal version means "keep the trusted one";
/// - a snapshot must match the timestamp's length and hashes (unless it is the client's own
///   verified copy), may not drop or roll back any file the trusted snapshot lists, and is final
///   only when it is the timestamp's version and not expired;
/// - a targets role must be listed in the final snapshot, match its length and hashes, be its
///   version, be signed by its delegator's keys for it, and not be expired.
///
/// A timestamp or snapshot may be loaded while expired (it still protects against rollback of the
/// next one): such a load throws after recording it, and the workflow goes on with the new file.
public struct TrustedMetadataSet: Sendable {
    public private(set) var root: Metadata<Root>
    public private(set) var timestamp: Metadata<Timestamp>?
    public private(set) var snapshot: Metadata<Snapshot>?
    /// `targets` and delegated targets roles, by role name.
    public private(set) var targets: [String: Metadata<Targets>] = [:]
    public let now: Date

    /// Starts from a trusted root, which must be signed by a threshold of its own keys (§5.2).
    /// Its expiry is not checked here: an expired trusted root can still be updated.
    public init(root data: Data, now: Date) throws {
        let root = try Metadata<Root>(data: data)
        try root.signed.keys(for: .root).verify(root, as: "the trusted root")
        self.root = root
        self.now = now
    }

    /// §5.3: the next root version, signed by the trusted root's keys and its own.
    @discardableResult
    public mutating func updateRoot(_ data: Data) throws -> Metadata<Root> {
        precondition(timestamp == nil, "root is updated before the timestamp")
        let new = try Metadata<Root>(data: data)
        try root.signed.keys(for: .root).verify(new, as: "root version \(new.signed.version) (by the keys of trusted root version \(root.signed.version))")
        guard new.signed.version == root.signed.version + 1 else {
            throw TUFError(.badVersion, "root version \(new.signed.version) came where version \(root.signed.version + 1) was expected")
        }
        try new.signed.keys(for: .root).verify(new, as: "root version \(new.signed.version) (by its own keys)")
        root = new
        return new
    }

    /// §5.4: a timestamp. Throws `.equalVersion` when it is the trusted timestamp again (keep that one).
    @discardableResult
    public mutating func updateTimestamp(_ data: Data) throws -> Metadata<Timestamp> {
        precondition(snapshot == nil, "the timestamp is updated before the snapshot")
        // §5.3.10: the root the walk ended on must be current before anything it signs is used.
        guard !root.signed.isExpired(at: now) else {
            throw TUFError(.expired, "root version \(root.signed.version) expired at \(TUFDate.string(root.signed.expires)) and no newer root is published")
        }
        let new = try Metadata<Timestamp>(data: data)
        try root.signed.keys(for: .timestamp).verify(new, as: "timestamp")
        if let trusted = timestamp?.signed {
            if new.signed.version < trusted.version {
                throw TUFError(.badVersion, "timestamp version \(new.signed.version) is older than trusted version \(trusted.version) (a rollback)")
            }
            if new.signed.version == trusted.version {
                throw TUFError(.equalVersion, "timestamp version \(new.signed.version) is the trusted version")
            }
            if new.signed.snapshot.version < trusted.snapshot.version {
                throw TUFError(.badVersion, "timestamp names snapshot version \(new.signed.snapshot.version), older than trusted version \(trusted.snapshot.version) (a rollback)")
            }
        }
        timestamp = new
        try checkFinalTimestamp()
        return new
    }

    /// §5.5: the snapshot the timestamp names. `verified`: the client's own copy, already checked
    /// against a timestamp's hashes when it was stored.
    @discardableResult
    public mutating func updateSnapshot(_ data: Data, verified: Bool = false) throws -> Metadata<Snapshot> {
        guard let timestamp else { preconditionFailure("the snapshot is updated after the timestamp") }
        precondition(targets.isEmpty, "the snapshot is updated before targets")
        try checkFinalTimestamp()
        if !verified { try timestamp.signed.snapshot.file.verify(data, what: "snapshot.json") }
        let new = try Metadata<Snapshot>(data: data)
        try root.signed.keys(for: .snapshot).verify(new, as: "snapshot")
        if let trusted = snapshot?.signed {
            for (file, entry) in trusted.meta {
                guard let now = new.signed.meta[file] else {
                    throw TUFError(.repository, "snapshot version \(new.signed.version) no longer lists \(file) (a role removed, or a rollback)")
                }
                if now.version < entry.version {
                    throw TUFError(.badVersion, "snapshot names \(file) version \(now.version), older than trusted version \(entry.version) (a rollback)")
                }
            }
        }
        snapshot = new
        try checkFinalSnapshot()
        return new
    }

    /// §5.6: top-level targets.
    @discardableResult
    public mutating func updateTargets(_ data: Data) throws -> Metadata<Targets> {
        try updateDelegatedTargets(data, role: TUFRole.targets.rawValue, delegator: nil)
    }

    /// §5.6 for a delegated role: `delegator` is the trusted targets role that delegates to it
    /// (nil for top-level targets, which root's keys sign).
    @discardableResult
    public mutating func updateDelegatedTargets(_ data: Data, role name: String, delegator: String?) throws -> Metadata<Targets> {
        guard snapshot != nil else { preconditionFailure("targets are updated after the snapshot") }
        try checkFinalSnapshot()
        let keys = try self.keys(for: name, delegator: delegator)
        guard let meta = snapshot?.signed.meta["\(name).json"] else {
            throw TUFError(.repository, "the snapshot does not list role '\(name)'")
        }
        try meta.file.verify(data, what: "\(name).json")
        let new = try Metadata<Targets>(data: data)
        try keys.verify(new, as: "'\(name)'")
        guard new.signed.version == meta.version else {
            throw TUFError(.badVersion, "'\(name)' is version \(new.signed.version), the snapshot names version \(meta.version)")
        }
        guard !new.signed.isExpired(at: now) else {
            throw TUFError(.expired, "'\(name)' metadata expired at \(TUFDate.string(new.signed.expires)) (a freeze attack, or a release nobody re-signed)")
        }
        targets[name] = new
        return new
    }

    /// Checks a trusted targets role against `delegator`'s keys for it: a role reached through
    /// another delegation than the one it was loaded through must not inherit that authority.
    public func verifyDelegation(of name: String, by delegator: String?) throws {
        guard let metadata = targets[name] else { preconditionFailure("the role is trusted") }
        try keys(for: name, delegator: delegator).verify(metadata, as: "'\(name)' (delegated by '\(delegator ?? "root")')")
    }

    /// The keys that may sign targets role `name`: root's targets keys, or those `delegator` lists for it.
    private func keys(for name: String, delegator: String?) throws -> KeyRing {
        guard let delegator else { return root.signed.keys(for: .targets) }
        guard let parent = targets[delegator] else { preconditionFailure("a delegated role is loaded after its delegator") }
        guard let delegations = parent.signed.delegations, let role = delegations.roles.first(where: { $0.name == name }) else {
            throw TUFError(.repository, "'\(delegator)' does not delegate to '\(name)'")
        }
        return delegations.keys(for: role)
    }

    private func checkFinalTimestamp() throws {
        guard let timestamp else { return }
        if timestamp.signed.isExpired(at: now) {
            throw TUFError(.expired, "timestamp metadata expired at \(TUFDate.string(timestamp.signed.expires)) (a freeze attack, or a release nobody re-signed)")
        }
    }

    private func checkFinalSnapshot() throws {
        guard let snapshot, let timestamp else { return }
        if snapshot.signed.isExpired(at: now) {
            throw TUFError(.expired, "snapshot metadata expired at \(TUFDate.string(snapshot.signed.expires)) (a freeze attack, or a release nobody re-signed)")
        }
        if snapshot.signed.version != timestamp.signed.snapshot.version {
            throw TUFError(.badVersion, "snapshot is version \(snapshot.signed.version), the timestamp names version \(timestamp.signed.snapshot.version)")
        }
    }
}
