import Crypto
import Foundation

/// An Ed25519 public key as TUF describes it; its id is the SHA-256 of its canonical JSON.
public struct TUFKey: Sendable, Equatable {
    public var publicKeyHex: String

    public init(publicKeyHex: String) {
        self.publicKeyHex = publicKeyHex
    }

    public init(_ key: Curve25519.Signing.PublicKey) {
        publicKeyHex = key.rawRepresentation.hexString
    }

    public var json: JSONValue {
        .object(["keytype": .string("ed25519"), "scheme": .string("ed25519"), "keyval": .object(["public": .string(publicKeyHex)])])
    }

    public var keyID: String {
        let bytes = (try? CanonicalJSON.encode(json)) ?? Data()
        return SHA256.hash(data: bytes).hexString
    }

    public init?(json: JSONValue) {
        guard json["keytype"]?.stringValue == "ed25519", json["scheme"]?.stringValue == "ed25519",
              let hex = json["keyval"]?["public"]?.stringValue, hex.count == 64 else { return nil }
        publicKeyHex = hex
    }

    /// Whether `signature` (hex) is a valid signature of `message` by this key.
    public func verifies(_ signatureHex: String, of message: Data) -> Bool {
        guard let raw = Data(hex: publicKeyHex), let key = try? Curve25519.Signing.PublicKey(rawRepresentation: raw),
              let signature = Data(hex: signatureHex) else { return false }
        return key.isValidSignature(signature, for: message)
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
