import Foundation
import LiveryTUF

/// The metadata a client trusts after a refresh: the top-level roles and every delegated targets
/// role reachable from targets.
public struct TrustedMetadata: Sendable {
    public var root: SignedMetadata
    public var timestamp: SignedMetadata
    public var snapshot: SignedMetadata
    public var targets: SignedMetadata
    /// Delegated targets roles by name.
    public var delegated: [String: SignedMetadata]

    public init(root: SignedMetadata, timestamp: SignedMetadata, snapshot: SignedMetadata, targets: SignedMetadata, delegated: [String: SignedMetadata] = [:]) {
        self.root = root
        self.timestamp = timestamp
        self.snapshot = snapshot
        self.targets = targets
        self.delegated = delegated
    }

    /// A target's length, SHA-256 and `custom` description, or nil when no role that may sign it does.
    public func target(_ name: String) -> (length: Int, sha256: String, custom: JSONValue?)? {
        guard let entry = lookup(name)?.entry, let length = entry["length"]?.intValue,
              let sha = entry["hashes"]?["sha256"]?.stringValue else { return nil }
        return (length, sha, entry["custom"])
    }

    /// The role that signs `name` ("targets" or a delegated role's name).
    public func signer(of name: String) -> String? { lookup(name)?.role }

    /// The target search of TUF 1.0.x §5.6.7: top-level targets first, then the delegated roles in
    /// the order listed, depth first, only through roles whose paths match the name, stopping at a
    /// matching terminating role. Each role is visited once (delegation graphs may have cycles).
    private func lookup(_ name: String) -> (entry: JSONValue, role: String)? {
        var visited: Set<String> = []
        func search(_ role: SignedMetadata, named roleName: String) -> (entry: JSONValue, role: String)? {
            guard visited.insert(roleName).inserted, visited.count <= TUFUpdater.Limits().maxDelegatedRoles else { return nil }
            if let entry = role.signed["targets"]?[name] { return (entry, roleName) }
            guard let delegations = try? Delegations(targets: role.signed) else { return nil }
            for child in delegations.roles where child.matches(name) {
                if let document = delegated[child.name], let found = search(document, named: child.name) { return found }
                if child.terminating { return nil }
            }
            return nil
        }
        return search(targets, named: "targets")
    }

    /// Every target name a client can resolve, sorted.
    public var targetNames: [String] {
        var names = Set((targets.signed["targets"]?.objectValue?.keys).map(Array.init) ?? [])
        for document in delegated.values {
            for name in document.signed["targets"]?.objectValue?.keys ?? [:].keys where target(name) != nil { names.insert(name) }
        }
        return names.sorted()
    }

    /// The unversioned file name a role is kept under in a client's metadata folder (a delegated
    /// role's name percent-encoded, so it cannot leave the folder).
    public static func fileName(ofRole name: String) -> String { percentEncoded(name) + ".json" }

    /// A role name or target path as one file name, as python-tuf names them: everything but
    /// letters, digits and `-._~` percent-encoded, `/` included, so it cannot leave its folder.
    public static func percentEncoded(_ name: String) -> String {
        var unreserved = CharacterSet.alphanumerics
        unreserved.insert(charactersIn: "-._~")
        return name.addingPercentEncoding(withAllowedCharacters: unreserved) ?? name
    }

    /// What a client kept in `folder` (`root.json`, `timestamp.json`, `snapshot.json`,
    /// `targets.json` and each delegated role the snapshot lists), or nil when the first four are
    /// not all there and readable.
    public static func load(from folder: URL) -> TrustedMetadata? {
        func load(_ name: String) -> SignedMetadata? { (try? Data(contentsOf: folder.appendingPathComponent(name))).flatMap { try? SignedMetadata(data: $0) } }
        guard let root = load("root.json"), let timestamp = load("timestamp.json"), let snapshot = load("snapshot.json"),
              let targets = load("targets.json") else { return nil }
        var delegated: [String: SignedMetadata] = [:]
        for file in snapshot.signed["meta"]?.objectValue?.keys ?? [:].keys where file != "targets.json" && file.hasSuffix(".json") {
            let role = String(file.dropLast(".json".count))
            if let document = load(fileName(ofRole: role)) { delegated[role] = document }
        }
        return TrustedMetadata(root: root, timestamp: timestamp, snapshot: snapshot, targets: targets, delegated: delegated)
    }

    /// Every file to keep, under the names `load(from:)` reads.
    public func files() throws -> [(name: String, data: Data)] {
        var files = [("root.json", try root.bytes()), ("timestamp.json", try timestamp.bytes()), ("snapshot.json", try snapshot.bytes()),
                     ("targets.json", try targets.bytes())]
        for (role, document) in delegated.sorted(by: { $0.key < $1.key }) { files.append((Self.fileName(ofRole: role), try document.bytes())) }
        return files
    }
}
