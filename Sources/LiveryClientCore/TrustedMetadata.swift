import Foundation
import LiveryReleaseFormat

/// A whole release's trusted metadata at once (what `verify` and `fetch` work from): the state of a
/// `TrustedMetadataSet` after a refresh that loaded every reachable delegated role.
public struct TrustedMetadata: Sendable {
    public let set: TrustedMetadataSet

    public init(_ set: TrustedMetadataSet) throws {
        guard set.timestamp != nil, set.snapshot != nil, set.targets[TUFRole.targets.rawValue] != nil else {
            throw TUFError(.repository, "the refresh did not reach targets")
        }
        self.set = set
    }

    /// The trusted version of each role loaded (`root`, `timestamp`, `snapshot`, `targets`, delegated roles).
    public var versions: [String: Int] {
        var out = ["root": set.root.signed.version]
        if let timestamp = set.timestamp { out["timestamp"] = timestamp.signed.version }
        if let snapshot = set.snapshot { out["snapshot"] = snapshot.signed.version }
        for (name, metadata) in set.targets { out[name] = metadata.signed.version }
        return out
    }

    /// The bytes of each trusted file, by unversioned role name.
    public var roleFiles: [String: Data] {
        var out = ["root": set.root.bytes]
        if let timestamp = set.timestamp { out["timestamp"] = timestamp.bytes }
        if let snapshot = set.snapshot { out["snapshot"] = snapshot.bytes }
        for (name, metadata) in set.targets { out[name] = metadata.bytes }
        return out
    }

    /// A target's length, SHA-256 and `custom` description, or nil when no role that may sign it does.
    public func target(_ name: String) -> (length: Int, sha256: String, custom: JSONValue?)? {
        guard let file = targetFile(name), let sha = file.sha256 else { return nil }
        return (file.length, sha, file.custom)
    }

    /// The role that signs `name` ("targets" or a delegated role's name).
    public func signer(of name: String) -> String? { lookup(name)?.role }

    public func targetFile(_ name: String) -> TargetFile? { lookup(name)?.target }

    /// The target search of TUF 1.0.x §5.6.7 over the loaded roles (see `TUFUpdater.targetInfo`).
    private func lookup(_ name: String) -> (target: TargetFile, role: String)? {
        TargetSearch.find(name, maxRoles: TUFUpdater.Limits().maxDelegations) { role, delegator in
            guard let metadata = set.targets[role], (try? set.verifyDelegation(of: role, by: delegator)) != nil else { return nil }
            return metadata.signed
        }
    }

    /// Every target name a client can resolve, sorted.
    public var targetNames: [String] {
        var names: Set<String> = []
        for metadata in set.targets.values {
            for name in metadata.signed.targets.keys where lookup(name) != nil { names.insert(name) }
        }
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The unversioned file name a role is kept under in a client's metadata folder.
    public static func fileName(ofRole name: String) -> String { TUFName.fileName(ofRole: name) }

    /// A role name or target path as one file name, as python-tuf names them.
    public static func percentEncoded(_ name: String) -> String { TUFName.quoted(name) }

    /// What a client kept in `folder`, or nil when root, timestamp, snapshot and targets are not all
    /// there and trusted together (each is verified again, against `now`'s clock).
    public static func load(from folder: URL, now: Date = Date()) -> TrustedMetadata? {
        let store = MetadataFolder(folder)
        guard let root = store.load("root"), var set = try? TrustedMetadataSet(root: root, now: now),
              let timestamp = store.load("timestamp"), (try? set.updateTimestamp(timestamp)) != nil,
              let snapshot = store.load("snapshot"), (try? set.updateSnapshot(snapshot, verified: true)) != nil,
              let targets = store.load("targets"), (try? set.updateTargets(targets)) != nil else { return nil }
        return try? TrustedMetadata(set)
    }

    /// Every file to keep, under the names `MetadataFolder` reads.
    public func files() -> [(name: String, data: Data)] {
        var files: [(String, Data)] = [("root.json", set.root.bytes)]
        if let timestamp = set.timestamp { files.append(("timestamp.json", timestamp.bytes)) }
        if let snapshot = set.snapshot { files.append(("snapshot.json", snapshot.bytes)) }
        for (role, metadata) in set.targets.sorted(by: { $0.key < $1.key }) { files.append((TUFName.fileName(ofRole: role), metadata.bytes)) }
        return files
    }
}
