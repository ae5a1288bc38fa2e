import Crypto
import Foundation
import LiveryEncoding
import LiveryReleaseFormat

// Signer-only: here rather than in the release format (LiveryReleaseFormat), which every app embedding LiveryClient links.

/// One signing key, wherever it is kept: a key file, or a key inside a PKCS#11 token (an HSM, a
/// cloud KMS, a smart card). Signers are opened lazily: a signer that is never asked to sign never
/// touches its token or asks for its passphrase.
public protocol MetadataSigner: Sendable {
    /// Where the key is, without secrets (no PIN, no passphrase): for messages and the audit trail.
    var uri: String { get }
    /// The public key as TUF lists it in root (or delegating targets) metadata.
    func publicKey() throws -> TUFKey
    /// The signature of `message` as TUF records it (hex in the envelope): Ed25519's 64 bytes, or
    /// an ECDSA P-256 signature DER-encoded, as securesystemslib writes it.
    func sign(_ message: Data) throws -> Data
}

/// An Ed25519 key held in memory (a key file, or a key made for development).
public struct Ed25519Signer: MetadataSigner {
    public let key: Curve25519.Signing.PrivateKey
    public let uri: String

    public init(_ key: Curve25519.Signing.PrivateKey, uri: String) {
        self.key = key
        self.uri = uri
    }

    public func publicKey() throws -> TUFKey { TUFKey(key.publicKey) }
    public func sign(_ message: Data) throws -> Data { Data(try key.signature(for: message)) }
}

/// An ECDSA P-256 key held in memory (`ecdsa-sha2-nistp256`).
public struct P256Signer: MetadataSigner {
    public let key: P256.Signing.PrivateKey
    public let uri: String

    public init(_ key: P256.Signing.PrivateKey, uri: String) {
        self.key = key
        self.uri = uri
    }

    public func publicKey() throws -> TUFKey { TUFKey(key.publicKey) }
    public func sign(_ message: Data) throws -> Data { try key.signature(for: message).derRepresentation }
}

extension TUFKey {
    /// An ECDSA P-256 key as securesystemslib lists it: keytype `ecdsa`, scheme
    /// `ecdsa-sha2-nistp256`, the public key as PEM (SubjectPublicKeyInfo).
    public init(_ key: P256.Signing.PublicKey) {
        self.init(keyType: "ecdsa", scheme: "ecdsa-sha2-nistp256", publicValue: key.pemRepresentation + "\n")
    }
}

extension SignedMetadata {
    /// Adds (or replaces) the signature of `signer` over the canonical form of `signed`; returns the key id it signed as.
    @discardableResult
    public mutating func sign(with signer: any MetadataSigner) throws -> String {
        let message = try CanonicalJSON.encode(signed)
        let keyID = try signer.publicKey().keyID
        let signature = try signer.sign(message)
        signatures.removeAll { $0.keyID == keyID }
        signatures.append((keyID, signature.hexString))
        signatures.sort { $0.keyID < $1.keyID }
        return keyID
    }
}
