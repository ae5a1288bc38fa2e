import Crypto
import _CryptoExtras
import Foundation

/// A public key as TUF describes it. Livery signs with Ed25519; as a client it also verifies
/// ECDSA P-256 (`ecdsa-sha2-nistp256`, PEM public key, DER signatures) and RSA-PSS with SHA-256
/// (`rsassa-pss-sha256`, PEM public key), which python-tuf and other repositories use. A key of
/// another type is kept as listed and never verifies anything. The key id is the SHA-256 of the
/// key's canonical JSON.
public struct TUFKey: Sendable, Equatable {
    public var keyType: String
    public var scheme: String
    /// `keyval.public`: hex for Ed25519, PEM for ECDSA and RSA.
    public var publicValue: String

    public init(keyType: String, scheme: String, publicValue: String) {
        self.keyType = keyType
        self.scheme = scheme
        self.publicValue = publicValue
    }

    public init(publicKeyHex: String) {
        keyType = "ed25519"
        scheme = "ed25519"
        publicValue = publicKeyHex
    }

    public init(_ key: Curve25519.Signing.PublicKey) {
        self.init(publicKeyHex: key.rawRepresentation.hexString)
    }

    /// The Ed25519 public key in hex (what Livery's key store records).
    public var publicKeyHex: String { publicValue }

    public var json: JSONValue {
        .object(["keytype": .string(keyType), "scheme": .string(scheme), "keyval": .object(["public": .string(publicValue)])])
    }

    public var keyID: String {
        let bytes = (try? CanonicalJSON.encode(json)) ?? Data()
        return SHA256.hash(data: bytes).hexString
    }

    /// Reads a key: `keytype`, `scheme` and `keyval.public` must be text; their values are not
    /// judged here (an unsupported key simply never verifies a signature, as in python-tuf).
    public init(json: JSONValue) throws {
        guard let type = json["keytype"]?.stringValue, let scheme = json["scheme"]?.stringValue,
              json["keyval"]?.objectValue != nil, let value = json["keyval"]?["public"]?.stringValue else {
            throw TUFError(.malformed, "a key needs keytype, scheme and keyval.public as text")
        }
        keyType = type
        self.scheme = scheme
        publicValue = value
    }

    /// A table of keys by id (root's `keys`, a delegation's `keys`).
    static func keyTable(_ value: JSONValue?, what: String) throws -> [String: TUFKey] {
        guard let table = value?.objectValue else { throw TUFError(.malformed, "\(what) must be an object of keys by id") }
        return try table.mapValuesThrowing { _, key in try TUFKey(json: key) }
    }

    /// Whether this client can verify signatures of this key type and scheme.
    public var isSupported: Bool { verifier != nil }

    private enum Verifier {
        case ed25519(Curve25519.Signing.PublicKey)
        case p256(P256.Signing.PublicKey)
        case rsaPSS(_RSA.Signing.PublicKey)
    }

    private var verifier: Verifier? {
        switch (keyType, scheme) {
        case ("ed25519", "ed25519"):
            guard publicValue.utf8.count == 64, let raw = Data(hex: publicValue), let key = try? Curve25519.Signing.PublicKey(rawRepresentation: raw) else { return nil }
            return .ed25519(key)
        case ("ecdsa", "ecdsa-sha2-nistp256"), ("ecdsa-sha2-nistp256", "ecdsa-sha2-nistp256"):
            return (try? P256.Signing.PublicKey(pemRepresentation: publicValue)).map(Verifier.p256)
        case ("rsa", "rsassa-pss-sha256"):
            return (try? _RSA.Signing.PublicKey(pemRepresentation: publicValue)).map(Verifier.rsaPSS)
        default:
            return nil
        }
    }

    /// Whether `signature` (hex) is a valid signature of `message` by this key.
    public func verifies(_ signatureHex: String, of message: Data) -> Bool {
        guard let signature = Data(hex: signatureHex), let verifier else { return false }
        switch verifier {
        case .ed25519(let key):
            return key.isValidSignature(signature, for: message)
        case .p256(let key):
            guard let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: message)
        case .rsaPSS(let key):
            // RSASSA-PSS with SHA-256 and MGF1-SHA-256; swift-crypto checks the salt as the digest's
            // length, which is what securesystemslib signs with.
            return key.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: message, padding: .PSS)
        }
    }
}
