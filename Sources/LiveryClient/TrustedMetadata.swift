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
}
