import Crypto
import Foundation

/// The typed release format's TUF roles (python-tuf's `tuf.api.metadata` is the model): each role is
/// read strictly from the `signed` part of its envelope, and a field of the wrong type, a version
/// below 1, a threshold below 1, a key id listed twice or an unknown date form is a
/// `TUFError.Kind.malformed`, never a guess. Fields a role does not know are kept in `signed`
/// (the envelope's JSON), which is what signatures cover.
public protocol SignedRole: Sendable {
    static var type: TUFRole { get }
    var version: Int { get }
    var expires: Date { get }
    init(signed: JSONValue) throws
}

extension SignedRole {
    /// Expired at `now` (TUF: a role is expired from its `expires` instant on).
    public func isExpired(at now: Date) -> Bool { now >= expires }
}

/// A signature of an envelope: the key id it claims and the signature bytes (hex, as TUF writes them).
public struct Signature: Sendable, Equatable {
    public var keyID: String
    public var hex: String
}

/// One role's metadata file: its typed `signed` part, the JSON that was signed, its signatures
/// (at most one per key id) and the bytes it was read from.
public struct Metadata<Role: SignedRole>: Sendable {
    public let signed: Role
    /// The `signed` object as read, unknown fields included: its canonical form is what is signed.
    public let signedJSON: JSONValue
    public let signatures: [String: Signature]
    public let bytes: Data

    public init(data: Data) throws {
        let value: JSONValue
        do { value = try JSONValue.parse(data) } catch { throw TUFError(.malformed, "not JSON: \(error)") }
        guard case .object(let envelope) = value, let signed = envelope["signed"], signed.objectValue != nil,
              let list = envelope["signatures"]?.arrayValue else {
            throw TUFError(.malformed, "not TUF metadata: expected {\"signed\": {…}, \"signatures\": […]}")
        }
        guard let type = signed["_type"]?.stringValue else { throw TUFError(.malformed, "metadata has no _type") }
        guard type == Role.type.rawValue else { throw TUFError(.wrongType, "expected \(Role.type.rawValue) metadata, found \(type)") }
        var signatures: [String: Signature] = [:]
        for item in list {
            guard let keyID = item["keyid"]?.stringValue, let sig = item["sig"]?.stringValue else { throw TUFError(.malformed, "malformed signature entry") }
            // Two signatures under one key id could count one key twice toward a threshold.
            guard signatures[keyID] == nil else { throw TUFError(.malformed, "two signatures with key id \(keyID.prefix(12))…") }
            signatures[keyID] = Signature(keyID: keyID, hex: sig)
        }
        self.signed = try Role(signed: signed)
        signedJSON = signed
        self.signatures = signatures
        bytes = data
    }

    /// The bytes signatures are made over: the canonical JSON of `signed`.
    public func signedBytes() throws -> Data { try CanonicalJSON.encode(signedJSON) }
}

/// A role's keys and how many of them must sign (as root or a delegating targets role lists them).
public struct RoleKeys: Sendable, Equatable {
    public var keyIDs: [String]
    public var threshold: Int

    public init(keyIDs: [String], threshold: Int) {
        self.keyIDs = keyIDs
        self.threshold = threshold
    }

    init(json: JSONValue, what: String) throws {
        guard let ids = json["keyids"]?.arrayValue, let threshold = json["threshold"]?.intValue, case .int = json["threshold"]! else {
            throw TUFError(.malformed, "\(what) needs keyids and an integer threshold")
        }
        keyIDs = try ids.map { try $0.stringValue ?? { throw TUFError(.malformed, "\(what): a key id is not text") }() }
        guard Set(keyIDs).count == keyIDs.count else { throw TUFError(.malformed, "\(what) lists a key id twice") }
        guard threshold >= 1 else { throw TUFError(.malformed, "\(what) has threshold \(threshold); it must be at least 1") }
        self.threshold = threshold
    }
}

/// The fields every role shares, read strictly.
struct CommonFields {
    var version: Int
    var expires: Date

    init(_ signed: JSONValue) throws {
        guard case .int(let version)? = signed["version"] else { throw TUFError(.malformed, "version must be an integer") }
        guard version >= 1 else { throw TUFError(.malformed, "version \(version) is below 1") }
        guard let spec = signed["spec_version"]?.stringValue else { throw TUFError(.malformed, "spec_version is missing") }
        let parts = spec.split(separator: ".", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }), parts[0] == "1" else {
            throw TUFError(.malformed, "unsupported spec_version \(spec) (this client reads 1.x)")
        }
        guard let text = signed["expires"]?.stringValue, let expires = TUFDate.parseStrict(text) else {
            throw TUFError(.malformed, "expires must be a date like 2030-01-01T00:00:00Z")
        }
        self.version = version
        self.expires = expires
    }
}

/// Root: the keys of every top-level role, and whether files are named by version.
public struct Root: SignedRole {
    public static let type = TUFRole.root
    public var version: Int
    public var expires: Date
    public var consistentSnapshot: Bool
    /// Every key root lists, by id; a key of a type this client cannot verify is kept, and never counts.
    public var keys: [String: TUFKey]
    public var roles: [TUFRole: RoleKeys]

    public init(signed: JSONValue) throws {
        let common = try CommonFields(signed)
        version = common.version
        expires = common.expires
        switch signed["consistent_snapshot"] {
        case nil: consistentSnapshot = false
        case .bool(let b)?: consistentSnapshot = b
        default: throw TUFError(.malformed, "consistent_snapshot must be true or false")
        }
        keys = try TUFKey.keyTable(signed["keys"], what: "root keys")
        guard let roleTable = signed["roles"]?.objectValue, Set(roleTable.keys) == Set(TUFRole.allCases.map(\.rawValue)) else {
            throw TUFError(.malformed, "root must list exactly the roles root, targets, snapshot and timestamp")
        }
        var roles: [TUFRole: RoleKeys] = [:]
        for role in TUFRole.allCases { roles[role] = try RoleKeys(json: roleTable[role.rawValue]!, what: "root's \(role.rawValue) role") }
        self.roles = roles
    }

    /// The keys that may sign `role`, and its threshold.
    public func keys(for role: TUFRole) -> KeyRing { KeyRing(keys: keys, role: roles[role]!) }
}

/// The length and hashes of a file as a parent role describes it, checked before the file is read.
public struct FileHashes: Sendable, Equatable {
    public var length: Int?
    /// Algorithm → lowercase hex digest.
    public var hashes: [String: String]?

    public init(length: Int?, hashes: [String: String]?) {
        self.length = length
        self.hashes = hashes
    }

    init(json: JSONValue, what: String, lengthRequired: Bool) throws {
        switch json["length"] {
        case nil where !lengthRequired: length = nil
        case .int(let n)? where n >= 0: length = n
        default: throw TUFError(.malformed, "\(what): length must be a non-negative integer")
        }
        switch json["hashes"] {
        case nil where !lengthRequired: hashes = nil
        case .object(let table)? where !table.isEmpty:
            var hashes: [String: String] = [:]
            for (algorithm, digest) in table {
                guard let hex = digest.stringValue else { throw TUFError(.malformed, "\(what): the \(algorithm) hash is not text") }
                hashes[algorithm] = hex
            }
            self.hashes = hashes
        default: throw TUFError(.malformed, "\(what): hashes must be a non-empty object")
        }
    }

    /// Checks `data` against the length and every hash this client can compute; a file whose hashes
    /// are all of unknown algorithms is refused (it cannot be verified).
    public func verify(_ data: Data, what: String) throws {
        if let length, data.count != length {
            throw TUFError(.lengthOrHashMismatch, "\(what) is \(data.count) bytes, its signed length is \(length)")
        }
        guard let hashes else { return }
        var checked = 0
        for (algorithm, expected) in hashes {
            guard let actual = HashAlgorithm(rawValue: algorithm)?.hex(of: data) else { continue }
            guard actual == expected.lowercased() else {
                throw TUFError(.lengthOrHashMismatch, "\(what) does not match its signed \(algorithm) hash (tampered, corrupt, or mixed from another release)")
            }
            checked += 1
        }
        guard checked > 0 else {
            throw TUFError(.lengthOrHashMismatch, "\(what) lists only hashes this client cannot compute (\(hashes.keys.sorted().joined(separator: ", ")))")
        }
    }
}

/// A metadata file's entry in the timestamp or snapshot: its version, and optionally length and hashes.
public struct MetaFile: Sendable, Equatable {
    public var version: Int
    public var file: FileHashes

    public init(json: JSONValue, what: String) throws {
        guard case .int(let version)? = json["version"], version >= 1 else { throw TUFError(.malformed, "\(what): version must be an integer of at least 1") }
        self.version = version
        file = try FileHashes(json: json, what: what, lengthRequired: false)
    }

    /// An entry as the signer writes it: version, length and SHA-256.
    public init(version: Int, length: Int? = nil, sha256: String? = nil) {
        self.version = version
        file = FileHashes(length: length, hashes: sha256.map { ["sha256": $0] })
    }

    /// Lenient form for the signer's reading of its own earlier output.
    public init?(json: JSONValue) { try? self.init(json: json, what: "meta entry") }

    public var length: Int? { file.length }
    public var sha256: String? { file.hashes?["sha256"] }

    public var json: JSONValue {
        var object: [String: JSONValue] = ["version": .int(version)]
        if let length = file.length { object["length"] = .int(length) }
        if let hashes = file.hashes { object["hashes"] = .object(hashes.mapValues(JSONValue.string)) }
        return .object(object)
    }
}

/// Timestamp: which snapshot is current.
public struct Timestamp: SignedRole {
    public static let type = TUFRole.timestamp
    public var version: Int
    public var expires: Date
    public var snapshot: MetaFile

    public init(signed: JSONValue) throws {
        let common = try CommonFields(signed)
        version = common.version
        expires = common.expires
        guard let entry = signed["meta"]?["snapshot.json"] else { throw TUFError(.malformed, "timestamp names no snapshot.json") }
        snapshot = try MetaFile(json: entry, what: "timestamp's snapshot.json")
    }
}

/// Snapshot: the version of every targets role's file.
public struct Snapshot: SignedRole {
    public static let type = TUFRole.snapshot
    public var version: Int
    public var expires: Date
    /// File name (`targets.json`, `<role>.json`) → entry.
    public var meta: [String: MetaFile]

    public init(signed: JSONValue) throws {
        let common = try CommonFields(signed)
        version = common.version
        expires = common.expires
        guard let table = signed["meta"]?.objectValue else { throw TUFError(.malformed, "snapshot has no meta object") }
        meta = try table.mapValuesThrowing { name, entry in try MetaFile(json: entry, what: "snapshot's \(name)") }
    }
}

/// A target: its length, hashes and the repository's own description (`custom`).
public struct TargetFile: Sendable, Equatable {
    public var path: String
    public var file: FileHashes
    public var custom: JSONValue?

    public var length: Int { file.length ?? 0 }
    /// The SHA-256 (hex) when listed.
    public var sha256: String? { file.hashes?["sha256"] }

    init(path: String, json: JSONValue) throws {
        self.path = path
        file = try FileHashes(json: json, what: "target \(path)", lengthRequired: true)
        custom = json["custom"]
    }

    /// The hash a consistent-snapshot repository prefixes the file name with: SHA-256 when listed,
    /// else the first algorithm in code-point order (a client may use any listed hash).
    public var namingHash: String? { sha256 ?? file.hashes?.sorted { $0.key < $1.key }.first?.value }
}

/// Targets (top-level or delegated): the targets it signs and the roles it delegates to.
public struct Targets: SignedRole {
    public static let type = TUFRole.targets
    public var version: Int
    public var expires: Date
    public var targets: [String: TargetFile]
    public var delegations: Delegations?

    public init(signed: JSONValue) throws {
        let common = try CommonFields(signed)
        version = common.version
        expires = common.expires
        guard let table = signed["targets"]?.objectValue else { throw TUFError(.malformed, "targets has no targets object") }
        targets = try table.mapValuesThrowing { path, entry in try TargetFile(path: path, json: entry) }
        delegations = try Delegations(targets: signed)
    }
}

/// The keys allowed to sign one role and the threshold: verification counts each listed key once.
public struct KeyRing: Sendable, Equatable {
    public var keys: [String: TUFKey]
    public var role: RoleKeys

    public init(keys: [String: TUFKey], role: RoleKeys) {
        self.keys = keys.filter { role.keyIDs.contains($0.key) }
        self.role = role
    }

    /// How many of the role's keys validly signed `metadata`.
    public func validSignatures<R>(_ metadata: Metadata<R>) -> Int {
        guard let message = try? metadata.signedBytes() else { return 0 }
        var count = 0
        for id in role.keyIDs {
            // The id is the one the delegating role gave the key; it is not recomputed (TUF 1.0.x
            // lets repositories choose ids, and python-tuf does not recompute them either).
            if let key = keys[id], let signature = metadata.signatures[id], key.verifies(signature.hex, of: message) { count += 1 }
        }
        return count
    }

    /// Throws `unsigned` unless a threshold of the role's keys signed `metadata`.
    public func verify<R>(_ metadata: Metadata<R>, as role: String) throws {
        let valid = validSignatures(metadata)
        guard valid >= self.role.threshold else {
            throw TUFError(.unsigned, "\(role) metadata version \(metadata.signed.version) has \(valid) valid signature\(valid == 1 ? "" : "s") of \(self.role.threshold) needed (signed by another key, or edited after signing)")
        }
    }
}

/// The hash algorithms this client verifies.
public enum HashAlgorithm: String, Sendable, CaseIterable {
    case sha256, sha384, sha512

    public func hex(of data: Data) -> String {
        switch self {
        case .sha256: return Data(SHA256.hash(data: data)).hexString
        case .sha384: return Data(SHA384.hash(data: data)).hexString
        case .sha512: return Data(SHA512.hash(data: data)).hexString
        }
    }
}

extension Dictionary where Key == String {
    func mapValuesThrowing<T>(_ transform: (String, Value) throws -> T) throws -> [String: T] {
        var out: [String: T] = [:]
        out.reserveCapacity(count)
        for (key, value) in self { out[key] = try transform(key, value) }
        return out
    }
}
