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

    static func pattern(_ pattern: String, matches target: String) -> Bool {
        let patternParts = pattern.split(separator: "/", omittingEmptySubsequences: false)
        let targetParts = target.split(separator: "/", omittingEmptySubsequences: false)
        guard patternParts.count == targetParts.count else { return false }
        return zip(patternParts, targetParts).allSatisfy { fnmatch(String($0), String($1), 0) == 0 }
    }

    public var json: JSONValue {
        var object: [String: JSONValue] = ["name": .string(name), "keyids": .array(keyIDs.sorted().map(JSONValue.string)),
                                           "threshold": .int(threshold), "terminating": .bool(terminating)]
        if let paths { object["paths"] = .array(paths.map(JSONValue.string)) }
        if let pathHashPrefixes { object["path_hash_prefixes"] = .array(pathHashPrefixes.map(JSONValue.string)) }
        return .object(object)
    }

    public init?(json: JSONValue) {
        guard let name = json["name"]?.stringValue, let ids = json["keyids"]?.arrayValue?.compactMap(\.stringValue),
              let threshold = json["threshold"]?.intValue else { return nil }
        let paths = json["paths"]?.arrayValue?.compactMap(\.stringValue)
        let prefixes = json["path_hash_prefixes"]?.arrayValue?.compactMap(\.stringValue)
        // Exactly one of the two ways to say what the role may sign.
        guard (paths == nil) != (prefixes == nil) else { return nil }
        self.init(name: name, keyIDs: ids, threshold: threshold, paths: paths, pathHashPrefixes: prefixes,
                  terminating: json["terminating"]?.boolValue ?? false)
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
        var keys: [String: TUFKey] = [:]
        for (id, key) in value["keys"]?.objectValue ?? [:] { if let parsed = TUFKey(json: key) { keys[id] = parsed } }
        var roles: [DelegatedRole] = []
        for item in value["roles"]?.arrayValue ?? [] {
            guard let role = DelegatedRole(json: item) else { throw TUFError("a delegated role entry is malformed") }
            guard !roles.contains(where: { $0.name == role.name }) else { throw TUFError("delegated role '\(role.name)' is listed twice") }
            guard TUFRole(rawValue: role.name) == nil else { throw TUFError("a delegated role may not be named '\(role.name)'") }
            roles.append(role)
        }
        self.init(keys: keys, roles: roles)
    }

    public var json: JSONValue {
        .object(["keys": .object(keys.mapValues(\.json)), "roles": .array(roles.map(\.json))])
    }
}
