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
    /// python-tuf do it: the same number of `/`-separated parts, each matched case-sensitively
    /// with `*`, `?` and `[…]` / `[!…]` sets, exactly as Python's `fnmatch.fnmatchcase`.
    /// Hand-written rather than POSIX `fnmatch`: glibc reads `[^…]` and `[[:lower:]]` as sets and
    /// matches `?` against a byte, where Python (so python-tuf and every client written to it) reads
    /// `^` and `[:` literally and matches one code point; clients must agree on which role signs a
    /// path. Checked against Python's `fnmatchcase` in the tests.
    static func pattern(_ pattern: String, matches target: String) -> Bool {
        let patternParts = pattern.split(separator: "/", omittingEmptySubsequences: false)
        let targetParts = target.split(separator: "/", omittingEmptySubsequences: false)
        guard patternParts.count == targetParts.count else { return false }
        return zip(patternParts, targetParts).allSatisfy { PathPattern(String($0)).matches(Array(String($1).unicodeScalars)) }
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

/// One `/`-free part of a delegation path pattern, compiled as Python's `fnmatch.translate` reads it.
struct PathPattern {
    enum Token {
        case star, any
        case literal(Unicode.Scalar)
        case set(negated: Bool, singles: [Unicode.Scalar], ranges: [ClosedRange<UInt32>])
    }

    let tokens: [Token]

    init(_ text: String) {
        let p = Array(text.unicodeScalars)
        var tokens: [Token] = []
        var i = 0
        while i < p.count {
            let c = p[i]
            i += 1
            switch c {
            case "*": if case .star? = tokens.last {} else { tokens.append(.star) }
            case "?": tokens.append(.any)
            case "[":
                // The set's end: a `!` and a first `]` belong to the set; no end means a literal `[`.
                var j = i
                if j < p.count, p[j] == "!" { j += 1 }
                if j < p.count, p[j] == "]" { j += 1 }
                while j < p.count, p[j] != "]" { j += 1 }
                guard j < p.count else { tokens.append(.literal("[")); continue }
                var body = Array(p[i..<j])
                i = j + 1
                let negated = body.first == "!"
                if negated { body.removeFirst() }
                var singles: [Unicode.Scalar] = [], ranges: [ClosedRange<UInt32>] = []
                var k = 0
                while k < body.count {
                    if k + 2 < body.count, body[k + 1] == "-" {
                        // A reversed range (`z-a`) matches nothing, as in Python.
                        if body[k].value <= body[k + 2].value { ranges.append(body[k].value...body[k + 2].value) }
                        k += 3
                    } else {
                        singles.append(body[k])
                        k += 1
                    }
                }
                tokens.append(.set(negated: negated, singles: singles, ranges: ranges))
            default: tokens.append(.literal(c))
            }
        }
        self.tokens = tokens
    }

    private func token(_ token: Token, matches c: Unicode.Scalar) -> Bool {
        switch token {
        case .star: return true
        case .any: return true
        case .literal(let l): return l == c
        case .set(let negated, let singles, let ranges):
            let inSet = singles.contains(c) || ranges.contains { $0.contains(c.value) }
            return inSet != negated
        }
    }

    /// Greedy matching with one remembered `*` to backtrack to (linear in practice).
    func matches(_ name: [Unicode.Scalar]) -> Bool {
        var t = 0, n = 0
        var star: Int? = nil, starName = 0
        while n < name.count {
            if t < tokens.count, case .star = tokens[t] {
                star = t
                starName = n
                t += 1
            } else if t < tokens.count, token(tokens[t], matches: name[n]) {
                t += 1
                n += 1
            } else if let s = star {
                t = s + 1
                starName += 1
                n = starName
            } else {
                return false
            }
        }
        while t < tokens.count, case .star = tokens[t] { t += 1 }
        return t == tokens.count
    }
}
