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
        var stack = [TUFRole.targets.rawValue]
        var visited: Set<String> = []
        while let role = stack.popLast(), visited.count < maxRoles {
            guard !visited.contains(role), let metadata = roles[role] else { continue }
            if let target = metadata.targets[name] { return (target, role) }
            visited.insert(role)
            var children: [String] = []
            for child in metadata.delegations?.roles ?? [] where child.matches(name) {
                children.append(child.name)
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
