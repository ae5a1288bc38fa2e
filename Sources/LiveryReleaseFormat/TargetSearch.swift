import Foundation

/// Which targets role a client finds a target in: the search of TUF 1.0.x §5.6.7 (preorder,
/// depth first from the top-level targets; a delegated role only for the paths it matches; a
/// terminating role that matches ends the search) over targets roles already loaded.
///
/// It verifies nothing: it is for a repository reading its own metadata (`livery serve`), which must
/// see the release as clients resolve it. A client verifies each role against its delegator on the way.
public enum TargetSearch {
    /// The target `name` and the role that lists it, nil when no client would find it. `roles` holds
    /// the top-level `targets` and delegated roles by name; a role not loaded is skipped.
    public static func find(_ name: String, in roles: [String: Targets], maxRoles: Int = 32) -> (target: TargetFile, role: String)? {
        find(name, maxRoles: maxRoles) { role, _ in roles[role] }
    }

    /// The same search with the roles supplied as it reaches them: `role(name, delegator)` gives a
    /// role (loading and verifying it against `delegator`, nil for `targets` itself), or nil to skip
    /// it. At most `maxRoles` roles are visited after the first (python-tuf's `max_delegations`).
    /// The one search of the client (`TUFUpdater`, `TrustedMetadata`) and of the server.
    public static func find(_ name: String, maxRoles: Int = 32,
                            role: (_ name: String, _ delegator: String?) throws -> Targets?) rethrows -> (target: TargetFile, role: String)? {
        var stack: [(role: String, delegator: String?)] = [(TUFRole.targets.rawValue, nil)]
        var visited: Set<String> = []
        while let (current, delegator) = stack.popLast(), visited.count <= maxRoles {
            guard !visited.contains(current), let metadata = try role(current, delegator) else { continue }
            if let target = metadata.targets[name] { return (target, current) }
            visited.insert(current)
            var children: [(String, String?)] = []
            for child in metadata.delegations?.roles ?? [] where child.matches(name) {
                children.append((child.name, current))
                if child.terminating {
                    stack.removeAll()
                    break
                }
            }
            stack.append(contentsOf: children.reversed())
        }
        return nil
    }
}
