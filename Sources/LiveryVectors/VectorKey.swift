import Crypto
import Foundation
import LiveryReleaseFormat

/// An Ed25519 key derived from a fixed seed, so that every run of the generator signs with the
/// same keys. Never use these keys for anything but test vectors: their seeds are public.
struct VectorKey: Sendable {
    let name: String
    let privateKey: Curve25519.Signing.PrivateKey

    /// The key named `name`: its 32-byte seed is SHA-256("livery client vectors: <name>").
    init(_ name: String) {
        self.name = name
        let seed = SHA256.hash(data: Data("livery client vectors: \(name)".utf8))
        // A 32-byte seed is always a valid Ed25519 private key.
        privateKey = try! Curve25519.Signing.PrivateKey(rawRepresentation: Data(seed))
    }

    var tufKey: TUFKey { TUFKey(privateKey.publicKey) }
    var keyID: String { tufKey.keyID }

    /// A signature entry (`{"keyid": …, "sig": …}`) over `message`. Ed25519 signatures are
    /// deterministic (RFC 8032); swift-crypto's BoringSSL backend on Linux follows it, so the same
    /// message gives the same bytes on every run.
    func signature(over message: Data) throws -> JSONValue {
        let signature = try privateKey.signature(for: message)
        return .object(["keyid": .string(keyID), "sig": .string(Data(signature).hexString)])
    }
}

/// One TUF metadata file: a `signed` document and its signature entries, written as canonical JSON
/// on one line (as `livery build` writes metadata).
struct Envelope: Sendable {
    var signed: JSONValue
    var signatures: [JSONValue]

    /// `signed`, signed by each of `keys` in order (the same key twice gives two identical entries).
    init(_ signed: JSONValue, signedBy keys: [VectorKey]) throws {
        self.signed = signed
        let message = try CanonicalJSON.encode(signed)
        signatures = try keys.map { try $0.signature(over: message) }
    }

    func bytes() throws -> Data {
        try CanonicalJSON.encode(.object(["signatures": .array(signatures), "signed": signed]))
    }
}
