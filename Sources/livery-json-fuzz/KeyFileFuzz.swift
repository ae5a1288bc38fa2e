import Crypto
import Foundation
import LiverySign
import LiveryReleaseFormat

// `key-file`: a key file's bytes as `KeyFile` reads them (`KeyFileDocument.parse`), and an encrypted
// document opened with the harness's fixed key in place of a passphrase's, so that no input costs a
// scrypt derivation. Refused: only with a `KeyFileError`. Accepted: written back, it reads as the same
// document; its scrypt cost is within the bounds a reader allows; if it opens, it opens to the key its
// clear public key names.
extension FuzzTarget {
    static func checkKeyFile(_ data: Data) -> String? {
        let document: KeyFileDocument
        do {
            document = try KeyFileDocument.parse(data, file: "input.key")
        } catch is KeyFileError {
            return nil
        } catch {
            return "KeyFileDocument.parse threw \(type(of: error)), not a KeyFileError"
        }
        guard let again = try? KeyFileDocument.parse(document.bytes, file: "input.key") else { return "the written document does not read back" }
        guard again == document else { return "the document reads back differently" }
        guard case .encrypted(let sealed) = document else { return nil }
        let scrypt = sealed.scrypt
        guard scrypt.n >= 1 << 14, scrypt.n <= 1 << 22, 128 * scrypt.n * scrypt.r <= 512 << 20, scrypt.p <= 4 else {
            return "scrypt N = \(scrypt.n), r = \(scrypt.r), p = \(scrypt.p) accepted"
        }
        do {
            let material = try sealed.open(key: fuzzKey, file: "input.key")
            return material.publicKey == sealed.publicKey ? nil : "opened to a key that is not the one its public key names"
        } catch is KeyFileError {
            return nil
        } catch {
            return "EncryptedKey.open threw \(type(of: error)), not a KeyFileError"
        }
    }

    /// An encrypted Ed25519 and P-256 key (sealed with `fuzzKey`), a plain P-256 document, a legacy key.
    static func keyFileSeeds() throws -> [Data] {
        let ed25519 = KeyMaterial.ed25519(try Curve25519.Signing.PrivateKey(rawRepresentation: Data(repeating: 1, count: 32)))
        let p256 = KeyMaterial.p256(try P256.Signing.PrivateKey(rawRepresentation: Data(repeating: 2, count: 32)))
        let scrypt = ScryptParameters(n: 1 << 16, r: 8, p: 1, salt: Data(repeating: 3, count: 16))
        return [
            KeyFileDocument.encrypted(try EncryptedKey.seal(ed25519, key: fuzzKey, scrypt: scrypt)).bytes,
            KeyFileDocument.encrypted(try EncryptedKey.seal(p256, key: fuzzKey, scrypt: scrypt)).bytes,
            KeyFileDocument.plain(p256).bytes,
            KeyFileDocument.legacy(ed25519).bytes,
        ]
    }
}
