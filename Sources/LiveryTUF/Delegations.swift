import Crypto
import Foundation

/// One delegated targets role, as a delegating targets role lists it (TUF 1.0.x §2.1.2).
public struct DelegatedRole: Sendable, Equatable {
    public var name: String
    public var keyIDs: [String]
    public var threshold: Int
    /// Path patterns (shell-style, `*` never crossing a `/`); nil when the role uses hash prefixes.
    public var paths: [String]?
    public var pathHashPrefixes: [String]?
    public var terminating: Bool

    public init(name: String, keyIDs: [String], threshold: Int = 1, paths: [String]?, pathHashPrefixes: [String]? = nil, terminating: Bool = true) {
        self.name = name
        self.keyIDs = keyIDs
        self.threshold = threshold
        self.paths = paths
        self.pathHashPrefixes = pathHashPrefixes
        self.terminating = terminating
    }

    /// The role's keys and threshold, for verification against the delegator's key table.
    public var roleKeys: RoleKeys { RoleKeys(keyIDs: keyIDs, threshold: threshold) }

    /// Whether the role may sign `target`: a pattern matches segment by segment (as many segments
    /// as the target has), or the target's SHA-256 starts with one of the hash prefixes.
    public func matches(_ target: String) -> Bool {
        if let paths { return paths.contains { Self.pattern($0, matches: target) } }
        if let prefixes = pathHashPrefixes {
            let digest = SHA256.hash(data: Data(target.utf8)).hexString
            return prefixes.contains { digest.hasPrefix($0) }
        }
        return false
    }

    /// Shell-style matching of one pattern against one target path, as the specification and
    /// python-tuf do it: the same number of `/`-separated parts, each matched case-sensitively with
    /// `*`, `?` and `[…]` (POSIX `fnmatch` without escapes: a backslash is an ordinary character).
    static func pattern(_ pattern: String, matches target: String) -> Bool {
        let patternParts = pattern.split(separator: "/", omittingEmptySubsequences: false)
        let targetParts = target.split(separator: "/", omittingEmptySubsequences: false)
        guard patternParts.count == targetParts.count else { return false }
        return zip(patternParts, targetParts).allSatisfy { fnmatch(String($0), String($1), FNM_NOESCAPE) == 0 }
    }

    public var json: JSONValue {
        var object: [String: JSONValue] = ["name": .string(name), "keyids": .array(keyIDs.sorted().map(JSONValue.string)),
                                           "threshold": .int(threshold), "terminating": .bool(terminating)]
        if let paths { object["paths"] = .array(paths.map(JSONValue.string)) }
        if let pathHashPrefixes { object["path_hash_prefixes"] = .array(pathHashPrefixes.map(JSONValue.string)) }
        return .object(object)
    }

    /// Reads a delegated role strictly: a name, unique key ids, a threshold of at least 1,
    /// `terminating`, and exactly one of `paths` and `path_hash_prefixes`.
    public init(json: JSONValue) throws {
        guard let name = json["name"]?.stringValue else { throw TUFError(.malformed, "a delegated role has no name") }
        let keys = try RoleKeys(json: json, what: "delegated role '\(name)'")
        guard case .bool(let terminating)? = json["terminating"] else { throw TUFError(.malformed, "delegated role '\(name)': terminating must be true or false") }
        func strings(_ key: String) throws -> [String]? {
            guard let value = json[key] else { return nil }
            guard let items = value.arrayValue else { throw TUFError(.malformed, "delegated role '\(name)': \(key) must be a list") }
            return try items.map { try $0.stringValue ?? { throw TUFError(.malformed, "delegated role '\(name)': \(key) holds something other than text") }() }
        }
        let paths = try strings("paths")
        let prefixes = try strings("path_hash_prefixes")
        guard (paths == nil) != (prefixes == nil) else {
            throw TUFError(.malformed, "delegated role '\(name)' must have exactly one of paths and path_hash_prefixes")
        }
        self.init(name: name, keyIDs: keys.keyIDs, threshold: keys.threshold, paths: paths, pathHashPrefixes: prefixes, terminating: terminating)
    }
}

/// The `delegations` of a targets role: the keys it trusts and its delegated roles, in search order.
public struct Delegations: Sendable, Equatable {
    public var keys: [String: TUFKey]
    public var roles: [DelegatedRole]

    public init(keys: [String: TUFKey], roles: [DelegatedRole]) {
        self.keys = keys
        self.roles = roles
    }

    /// The delegations of a targets document, nil when it has none. Malformed entries make it throw:
    /// a client must not guess which role a repository meant.
    public init?(targets signed: JSONValue) throws {
        guard let value = signed["delegations"] else { return nil }
        guard value.objectValue != nil else { throw TUFError(.malformed, "delegations must be an object") }
        if value["succinct_roles"] != nil {
            // TAP 15's hash-bin shorthand: not used by Livery's repositories, refused rather than misread.
            throw TUFError(.malformed, "succinct hash-bin delegations (succinct_roles) are not supported by this client")
        }
        let keys = try TUFKey.keyTable(value["keys"], what: "delegation keys")
        guard let list = value["roles"]?.arrayValue else { throw TUFError(.malformed, "delegations must list roles") }
        var roles: [DelegatedRole] = []
        var names: Set<String> = []
        for item in list {
            let role = try DelegatedRole(json: item)
            guard names.insert(role.name).inserted else { throw TUFError(.malformed, "delegated role '\(role.name)' is listed twice") }
            guard TUFRole(rawValue: role.name) == nil else { throw TUFError(.malformed, "a delegated role may not be named '\(role.name)'") }
            roles.append(role)
        }
        self.init(keys: keys, roles: roles)
    }

    /// The keys allowed to sign delegated role `role`.
    public func keys(for role: DelegatedRole) -> KeyRing { KeyRing(keys: keys, role: role.roleKeys) }

    public var json: JSONValue {
        .object(["keys": .object(keys.mapValues(\.json)), "roles": .array(roles.map(\.json))])
    }
}
