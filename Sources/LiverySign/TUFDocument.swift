import Crypto
import Foundation
import LiveryEncoding
import LiveryReleaseFormat

// Writing metadata is the signer's: the builders of each role's `signed` part, and signing with a key in memory,
// live here rather than in the release format (LiveryReleaseFormat), which the client links to read and verify.

/// Builders of the `signed` part of each role (python-tuf's field names and layout).
public enum TUFDocument {
    public static let specVersion = "1.0.31"

    public static func root(version: Int, expires: Date, keys: [TUFRole: [TUFKey]], thresholds: [TUFRole: Int]) -> JSONValue {
        var allKeys: [String: JSONValue] = [:]
        var roles: [String: JSONValue] = [:]
        for role in TUFRole.allCases {
            let roleKeys = keys[role] ?? []
            for key in roleKeys { allKeys[key.keyID] = key.json }
            roles[role.rawValue] = .object(["keyids": .array(roleKeys.map { .string($0.keyID) }.sorted { $0.stringValue! < $1.stringValue! }),
                                            "threshold": .int(thresholds[role] ?? 1)])
        }
        return .object(["_type": .string("root"), "spec_version": .string(specVersion), "version": .int(version), "expires": .string(TUFDate.string(expires)),
                        "consistent_snapshot": .bool(true), "keys": .object(allKeys), "roles": .object(roles)])
    }

    /// A target: length, SHA-256 and Livery's description of it in `custom`.
    public static func target(length: Int, sha256: String, custom: JSONValue?) -> JSONValue {
        var object: [String: JSONValue] = ["length": .int(length), "hashes": .object(["sha256": .string(sha256)])]
        if let custom { object["custom"] = custom }
        return .object(object)
    }

    public static func targets(version: Int, expires: Date, targets: [String: JSONValue], delegations: Delegations? = nil) -> JSONValue {
        var object: [String: JSONValue] = ["_type": .string("targets"), "spec_version": .string(specVersion), "version": .int(version),
                                           "expires": .string(TUFDate.string(expires)), "targets": .object(targets)]
        if let delegations { object["delegations"] = delegations.json }
        return .object(object)
    }

    /// Snapshot metadata listing `targets.json` and, keyed `<role>.json`, each delegated targets role.
    public static func snapshot(version: Int, expires: Date, targets: MetaFile, delegated: [String: MetaFile] = [:]) -> JSONValue {
        var meta: [String: JSONValue] = ["targets.json": targets.json]
        for (role, file) in delegated { meta["\(role).json"] = file.json }
        return .object(["_type": .string("snapshot"), "spec_version": .string(specVersion), "version": .int(version), "expires": .string(TUFDate.string(expires)),
                        "meta": .object(meta)])
    }

    public static func timestamp(version: Int, expires: Date, snapshot: MetaFile) -> JSONValue {
        .object(["_type": .string("timestamp"), "spec_version": .string(specVersion), "version": .int(version), "expires": .string(TUFDate.string(expires)),
                 "meta": .object(["snapshot.json": snapshot.json])])
    }
}

extension SignedMetadata {
    /// Adds a signature by `key` over the canonical form of `signed`.
    public mutating func sign(with key: Curve25519.Signing.PrivateKey) throws {
        let message = try CanonicalJSON.encode(signed)
        let signature = try key.signature(for: message)
        let keyID = TUFKey(key.publicKey).keyID
        signatures.removeAll { $0.keyID == keyID }
        signatures.append((keyID, Data(signature).hexString))
        signatures.sort { $0.keyID < $1.keyID }
    }
}
