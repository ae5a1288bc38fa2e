import Crypto
import Foundation

/// A public key as TUF describes it. Livery signs with Ed25519; as a client it also verifies
/// ECDSA P-256 (`ecdsa-sha2-nistp256`, PEM public key, DER signatures), which python-tuf and
/// other repositories use. The key id is the SHA-256 of the key's canonical JSON.
public struct TUFKey: Sendable, Equatable {
    public var keyType: String
    public var scheme: String
    /// `keyval.public`: hex for Ed25519, PEM for ECDSA.
    public var publicValue: String

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

    /// A key of a supported type and scheme; nil for anything else (its signatures never count).
    public init?(json: JSONValue) {
        guard let type = json["keytype"]?.stringValue, let scheme = json["scheme"]?.stringValue,
              let value = json["keyval"]?["public"]?.stringValue else { return nil }
        switch (type, scheme) {
        case ("ed25519", "ed25519"):
            guard value.count == 64, Data(hex: value) != nil else { return nil }
        case ("ecdsa", "ecdsa-sha2-nistp256"), ("ecdsa-sha2-nistp256", "ecdsa-sha2-nistp256"):
            guard (try? P256.Signing.PublicKey(pemRepresentation: value)) != nil else { return nil }
        default:
            return nil
        }
        keyType = type
        self.scheme = scheme
        publicValue = value
    }

    /// Whether `signature` (hex) is a valid signature of `message` by this key.
    public func verifies(_ signatureHex: String, of message: Data) -> Bool {
        guard let signature = Data(hex: signatureHex) else { return false }
        switch scheme {
        case "ed25519":
            guard let raw = Data(hex: publicValue), let key = try? Curve25519.Signing.PublicKey(rawRepresentation: raw) else { return false }
            return key.isValidSignature(signature, for: message)
        case "ecdsa-sha2-nistp256":
            guard let key = try? P256.Signing.PublicKey(pemRepresentation: publicValue),
                  let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: message)
        default:
            return false
        }
    }
}

extension SHA256.Digest {
    /// The digest as lowercase hex.
    public var hexString: String { Data(self).hexString }
}

extension Data {
    public var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(count * 2)
        for byte in self {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    public init?(hex: String) {
        guard hex.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hex.count / 2)
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        self.init(bytes)
    }
}
