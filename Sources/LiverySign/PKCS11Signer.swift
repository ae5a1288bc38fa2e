import CPKCS11
import Crypto
import Foundation
import LiveryReleaseFormat

/// A TUF signing key inside a PKCS#11 token (an HSM, a smart card, SoftHSM), named by an RFC 7512 URI.
///
/// Ed25519 keys (`CKK_EC_EDWARDS` on edwards25519) sign with `CKM_EDDSA`; ECDSA P-256 keys (`CKK_EC`
/// on prime256v1) sign a SHA-256 digest made here with `CKM_ECDSA` (SoftHSM 2.6 has no
/// `CKM_ECDSA_SHA256`), and the token's r‖s becomes the DER signature securesystemslib writes. Every
/// signature is checked with the key's public half before it is returned, which catches a token
/// that signed with another key than the one the metadata lists.
///
/// Nothing happens when the signer is made: the module is loaded, the session opened and the PIN
/// read on first use. The session then stays open until the signer goes away.
public final class PKCS11Signer: MetadataSigner, @unchecked Sendable { // mutable state only under `lock`
    /// The key's URI as parsed.
    public let location: PKCS11URI
    /// The URI without secrets (see `PKCS11URI.redacted`).
    public let uri: String
    /// The module this signer loads.
    public let modulePath: String

    /// One signer signs once at a time: a PKCS#11 session is not thread-safe.
    private let lock = NSLock()
    private var state: OpenKey?

    private struct OpenKey {
        let session: PKCS11Session
        let publicKey: PKCS11PublicKey
        /// Found after logging in, on the first signature.
        var privateKey: CK_OBJECT_HANDLE?
    }

    /// Checks that `uri` names one key and a module, without loading the module.
    public init(uri: PKCS11URI) throws {
        guard uri.object != nil || uri.id != nil else {
            throw PKCS11URIError("object", "the URI names no key: add object=LABEL and/or id=%XX (pkcs11-tool --list-objects shows both)")
        }
        if let type = uri.type, type != .privateKey {
            throw PKCS11URIError("type", "type=\(type.rawValue) does not name a signing key: write type=private or leave type out")
        }
        location = uri
        self.uri = uri.redacted
        modulePath = try uri.resolvedModulePath()
    }

    /// Parses `text` as a PKCS#11 URI and checks it as `init(uri:)` does.
    public convenience init(uri text: String) throws {
        try self.init(uri: PKCS11URI(parsing: text))
    }

    deinit { state?.session.close() }

    public func publicKey() throws -> TUFKey {
        lock.lock()
        defer { lock.unlock() }
        return try withReset { try open().publicKey.tufKey }
    }

    public func sign(_ message: Data) throws -> Data {
        lock.lock()
        defer { lock.unlock() }
        return try withReset {
            var key = try open()
            let privateKey = try key.privateKey ?? findPrivateKey(key)
            key.privateKey = privateKey
            state = key
            let subject = "token '\(key.session.token)', key \(location.objectDescription)"
            switch key.publicKey {
            case .ed25519(let publicKey):
                let signature = try key.session.sign(Array(message), mechanism: CK_MECHANISM_TYPE(CKM_EDDSA), key: privateKey, subject: subject)
                guard signature.count == 64, publicKey.isValidSignature(signature, for: message) else { throw mismatch(subject) }
                return Data(signature)
            case .p256(let publicKey):
                let digest = Array(SHA256.hash(data: message))
                let raw = try key.session.sign(digest, mechanism: CK_MECHANISM_TYPE(CKM_ECDSA), key: privateKey, subject: subject)
                guard raw.count == 64, let signature = try? P256.Signing.ECDSASignature(rawRepresentation: raw),
                      publicKey.isValidSignature(signature, for: message) else { throw mismatch(subject) }
                return signature.derRepresentation
            }
        }
    }

    /// After any failure the session is closed and the next call starts afresh: a token pulled out,
    /// a session the module dropped or a wrong PIN must not leave the signer stuck.
    private func withReset<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            state?.session.close()
            state = nil
            throw error
        }
    }

    private func mismatch(_ subject: String) -> PKCS11Error {
        PKCS11Error("the signature from \(subject) does not verify with the key's public key object: "
                    + "the private and public key objects labelled or numbered alike are not one key pair")
    }

    // MARK: Opening

    /// The session and public key, opened on first use.
    private func open() throws -> OpenKey {
        if let state { return state }
        let module = try PKCS11Module.shared(path: modulePath)
        let session = try PKCS11Session.open(module, matching: location)
        var handles = try session.findObjects(CK_OBJECT_CLASS(CKO_PUBLIC_KEY), label: location.object, id: location.id)
        if handles.isEmpty {
            // Some tokens show public keys only after login; and if the private key is missing too,
            // that is the clearer message.
            try session.logIn(pinSource: location.pinSource)
            _ = try findPrivateKey(in: session)
            handles = try session.findObjects(CK_OBJECT_CLASS(CKO_PUBLIC_KEY), label: location.object, id: location.id)
        }
        guard let handle = handles.first else {
            throw PKCS11Error("token '\(session.token)' has the private key \(location.objectDescription) but no public key object beside it: "
                              + "Livery reads the public key from that object (pkcs11-tool --keypairgen makes both)")
        }
        guard handles.count == 1 else {
            throw PKCS11Error("\(handles.count) public keys on token '\(session.token)' match \(location.objectDescription): add id= to the URI to choose one")
        }
        let opened = OpenKey(session: session, publicKey: try PKCS11PublicKey(session: session, object: handle, named: location.objectDescription))
        state = opened
        return opened
    }

    private func findPrivateKey(_ key: OpenKey) throws -> CK_OBJECT_HANDLE {
        try key.session.logIn(pinSource: location.pinSource)
        let handle = try findPrivateKey(in: key.session)
        // The public key object named alike must be of the same kind (the signature check catches the rest).
        let keyType = try key.session.number(CK_ATTRIBUTE_TYPE(CKA_KEY_TYPE), of: handle)
        guard keyType == key.publicKey.keyType else {
            throw PKCS11Error("the private key \(location.objectDescription) on token '\(key.session.token)' is a \(PKCS11PublicKey.name(ofKeyType: keyType)) key "
                              + "but its public key object is \(PKCS11PublicKey.name(ofKeyType: key.publicKey.keyType))")
        }
        return handle
    }

    private func findPrivateKey(in session: PKCS11Session) throws -> CK_OBJECT_HANDLE {
        let handles = try session.findObjects(CK_OBJECT_CLASS(CKO_PRIVATE_KEY), label: location.object, id: location.id)
        guard handles.count <= 1 else {
            throw PKCS11Error("\(handles.count) private keys on token '\(session.token)' match \(location.objectDescription): add id= to the URI to choose one")
        }
        guard let handle = handles.first else {
            throw PKCS11Error("no private key \(location.objectDescription) on token '\(session.token)'; private keys there: \(try privateKeyList(session))")
        }
        return handle
    }

    /// The labels and ids of the token's private keys (sorted: tokens list objects in no set order), for a "not found" message.
    private func privateKeyList(_ session: PKCS11Session) throws -> String {
        let handles = try session.findObjects(CK_OBJECT_CLASS(CKO_PRIVATE_KEY), label: nil, id: nil, limit: 20)
        guard !handles.isEmpty else { return "none" }
        return try handles.map { handle in
            let label = try session.attribute(CK_ATTRIBUTE_TYPE(CKA_LABEL), of: handle).map { "'\(String(decoding: $0, as: UTF8.self))'" } ?? "(no label)"
            let id = try session.attribute(CK_ATTRIBUTE_TYPE(CKA_ID), of: handle).map { " (id \(Data($0).hexString))" } ?? ""
            return label + id
        }.sorted().joined(separator: ", ")
    }
}
