import Crypto
import _CryptoExtras
import Foundation
import LiveryReleaseFormat

/// The bytes of a key file, apart from the file: parsed, sealed and opened without touching a
/// disk, so that every check here is tested (and fuzzed) on bytes. `KeyFile` does the I/O.
///
/// Three forms are read:
/// - legacy: 64 hexadecimal digits and a line end, an Ed25519 private key in the clear (what key
///   stores have always held, and what `KeyFile` still writes for an unencrypted Ed25519 key);
/// - a plain document, one line of JSON: `{"keytype":…,"livery-key":1,"private":"<hex>","public":…}`,
///   the form of an unencrypted P-256 key (the legacy form has no room for a key type);
/// - an encrypted document: `{"cipher":{"name":"aes-256-gcm","nonce":…},"ciphertext":…,"kdf":{"n":…,
///   "name":"scrypt","p":…,"r":…,"salt":…},"keytype":…,"livery-key":1,"public":…,"tag":…}`.
/// Documents are written with their keys sorted (`JSONValue.bytes`), so a key file changes only
/// when its key or its encryption does.
public enum KeyFileDocument: Sendable, Equatable {
    case legacy(KeyMaterial)
    case plain(KeyMaterial)
    case encrypted(EncryptedKey)

    /// The largest file read as a key file: an encrypted P-256 document is under 600 bytes.
    public static let maximumSize = 16 * 1024

    /// Reads `data`; `file` names it in errors.
    public static func parse(_ data: Data, file: String) throws -> KeyFileDocument {
        guard data.count <= maximumSize else {
            throw KeyFileError(file, .malformed, "is \(data.count) bytes long, too long to be a key file (at most \(maximumSize))")
        }
        let text = String(decoding: data, as: UTF8.self)
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix("{") else {
            guard trimmed.utf8.count == 64, trimmed.utf8.allSatisfy(\.isHexDigit), let raw = Data(hex: trimmed) else {
                throw KeyFileError(file, .malformed, "is not a key file: expected 64 hexadecimal digits (an Ed25519 private key) or a Livery key document (JSON)",
                                   fix: "restore it from your backup")
            }
            return .legacy(try KeyMaterial(.ed25519, raw: raw, file: file))
        }
        let json: JSONValue
        do {
            json = try JSONValue.parse(data)
        } catch {
            throw KeyFileError(file, .malformed, "is not a valid key document (\(error)); it may have been cut short", fix: "restore it from your backup")
        }
        guard let fields = json.objectValue else { throw KeyFileError(file, .malformed, "is not a key document: expected a JSON object") }
        guard let format = fields["livery-key"] else { throw KeyFileError(file, .malformed, "is not a Livery key document: it has no \"livery-key\" field") }
        guard case .int(1) = format else {
            throw KeyFileError(file, .unsupported, "is a key document of format \(shown(format)), which this Livery does not read (it reads format 1)",
                               fix: "use the Livery that wrote it")
        }
        guard let typeName = fields["keytype"]?.stringValue, let keyType = KeyType(rawValue: typeName) else {
            throw KeyFileError(file, .unsupported, "has key type \(shown(fields["keytype"])); Livery reads \(KeyType.allCases.map(\.rawValue).joined(separator: " and "))")
        }
        guard let publicValue = fields["public"]?.stringValue else { throw KeyFileError(file, .malformed, "has no \"public\" key as text") }
        // The clear public key must be written exactly as TUF lists it: `keys list` takes key ids from it.
        guard let publicKey = keyType.publicKey(publicValue), publicKey.publicValue == publicValue else {
            throw KeyFileError(file, .malformed, "has a \"public\" value that is not a \(keyType.rawValue) public key as Livery writes it")
        }
        if fields["private"] != nil {
            try expectFields(fields, ["livery-key", "keytype", "public", "private"], file: file)
            guard let raw = hexField(fields["private"], bytes: 32) else { throw KeyFileError(file, .malformed, "has a \"private\" value that is not 64 hexadecimal digits") }
            let material = try KeyMaterial(keyType, raw: raw, file: file)
            guard material.publicKey == publicKey else { throw KeyFileError(file, .malformed, "holds a private key that does not belong to its \"public\" key") }
            return .plain(material)
        }
        try expectFields(fields, ["livery-key", "keytype", "public", "kdf", "cipher", "ciphertext", "tag"], file: file)
        guard let kdf = fields["kdf"]?.objectValue else { throw KeyFileError(file, .malformed, "has no \"kdf\" object") }
        try expectFields(kdf, ["name", "n", "r", "p", "salt"], file: file, in: "kdf")
        guard kdf["name"]?.stringValue == "scrypt" else { throw KeyFileError(file, .unsupported, "uses key derivation \(shown(kdf["name"])); Livery reads scrypt") }
        // Whole numbers only, as written (`intValue` would trap on a double such as 1e300).
        guard case .int(let n)? = kdf["n"], case .int(let r)? = kdf["r"], case .int(let p)? = kdf["p"] else {
            throw KeyFileError(file, .malformed, "has scrypt parameters n, r and p that are not all integers")
        }
        guard let salt = hexField(kdf["salt"], bytes: nil), ScryptParameters.saltBytes.contains(salt.count) else {
            throw KeyFileError(file, .malformed, "has a scrypt salt that is not 16 to 64 bytes in hex")
        }
        let parameters = ScryptParameters(n: n, r: r, p: p, salt: salt)
        try parameters.check(file: file)
        guard let cipher = fields["cipher"]?.objectValue else { throw KeyFileError(file, .malformed, "has no \"cipher\" object") }
        try expectFields(cipher, ["name", "nonce"], file: file, in: "cipher")
        guard cipher["name"]?.stringValue == "aes-256-gcm" else { throw KeyFileError(file, .unsupported, "uses cipher \(shown(cipher["name"])); Livery reads aes-256-gcm") }
        guard let nonce = hexField(cipher["nonce"], bytes: 12) else { throw KeyFileError(file, .malformed, "has a nonce that is not 12 bytes in hex") }
        guard let ciphertext = hexField(fields["ciphertext"], bytes: 32) else { throw KeyFileError(file, .malformed, "has a ciphertext that is not 32 bytes in hex") }
        guard let tag = hexField(fields["tag"], bytes: 16) else { throw KeyFileError(file, .malformed, "has a tag that is not 16 bytes in hex") }
        return .encrypted(EncryptedKey(keyType: keyType, publicKey: publicKey, scrypt: parameters, nonce: nonce, ciphertext: ciphertext, tag: tag))
    }

    /// The file's bytes.
    public var bytes: Data {
        switch self {
        case .legacy(let material): return Data((material.raw.hexString + "\n").utf8)
        case .plain(let material):
            return JSONValue.object(["livery-key": .int(1), "keytype": .string(material.keyType.rawValue), "public": .string(material.publicKey.publicValue),
                                     "private": .string(material.raw.hexString)]).bytes
        case .encrypted(let key):
            var fields = key.header
            fields["ciphertext"] = .string(key.ciphertext.hexString)
            fields["tag"] = .string(key.tag.hexString)
            return JSONValue.object(fields).bytes
        }
    }

    public var isEncrypted: Bool { if case .encrypted = self { return true }; return false }

    /// The public key as TUF lists it, known without the passphrase (an encrypted document keeps it in
    /// the clear; it is authenticated only when the document is opened).
    public var publicKey: TUFKey {
        switch self {
        case .legacy(let material), .plain(let material): return material.publicKey
        case .encrypted(let key): return key.publicKey
        }
    }

    /// The plain form of `material`: legacy hex for Ed25519 (which every Livery reads), a plain document for P-256.
    public static func unencrypted(_ material: KeyMaterial) -> KeyFileDocument {
        material.keyType == .ed25519 ? .legacy(material) : .plain(material)
    }

    /// A value as the file spells it, for messages.
    private static func shown(_ value: JSONValue?) -> String {
        guard let value else { return "(none)" }
        return String(decoding: value.bytes.dropLast(), as: UTF8.self)
    }

    private static func expectFields(_ fields: [String: JSONValue], _ known: Set<String>, file: String, in object: String? = nil) throws {
        let place = object.map { " in \"\($0)\"" } ?? ""
        if let unknown = fields.keys.sorted().first(where: { !known.contains($0) }) {
            throw KeyFileError(file, .malformed, "has a field \"\(unknown)\"\(place) that a key document does not have")
        }
        if let missing = known.sorted().first(where: { fields[$0] == nil }) {
            throw KeyFileError(file, .malformed, "has no \"\(missing)\" field\(place)")
        }
    }

    /// Lowercase hex only (what is written), of `bytes` bytes when given.
    private static func hexField(_ value: JSONValue?, bytes: Int?) -> Data? {
        guard let text = value?.stringValue, text.utf8.allSatisfy(\.isLowercaseHexDigit), let data = Data(hex: text) else { return nil }
        if let bytes, data.count != bytes { return nil }
        return data
    }
}

/// The key types a key file holds, named as in the file's `keytype`.
public enum KeyType: String, Sendable, CaseIterable {
    case ed25519
    case p256 = "ecdsa-sha2-nistp256"

    /// `text` read as a public key of this type, or nil if it is not one.
    func publicKey(_ text: String) -> TUFKey? {
        switch self {
        case .ed25519:
            guard let raw = Data(hex: text), let key = try? Curve25519.Signing.PublicKey(rawRepresentation: raw) else { return nil }
            return TUFKey(key)
        case .p256:
            return (try? P256.Signing.PublicKey(pemRepresentation: text)).map(TUFKey.init)
        }
    }
}

/// A private key in the clear, of one of the types a key file holds.
public enum KeyMaterial: Sendable, Equatable {
    case ed25519(Curve25519.Signing.PrivateKey)
    case p256(P256.Signing.PrivateKey)

    /// Reads 32 raw bytes (an Ed25519 seed, a P-256 scalar) as a key of `keyType`.
    init(_ keyType: KeyType, raw: Data, file: String) throws {
        switch keyType {
        case .ed25519:
            guard raw.count == 32, let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: raw) else { break }
            self = .ed25519(key)
            return
        case .p256:
            guard raw.count == 32, let key = try? P256.Signing.PrivateKey(rawRepresentation: raw) else { break }
            self = .p256(key)
            return
        }
        throw KeyFileError(file, .malformed, "does not hold a valid \(keyType.rawValue) private key")
    }

    public var keyType: KeyType {
        switch self {
        case .ed25519: return .ed25519
        case .p256: return .p256
        }
    }

    /// The key's 32 raw bytes.
    public var raw: Data {
        switch self {
        case .ed25519(let key): return key.rawRepresentation
        case .p256(let key): return key.rawRepresentation
        }
    }

    /// The public key as TUF lists it.
    public var publicKey: TUFKey {
        switch self {
        case .ed25519(let key): return TUFKey(key.publicKey)
        case .p256(let key): return TUFKey(key.publicKey)
        }
    }

    /// A signer of this key; `uri` says where it is kept.
    public func signer(uri: String) -> any MetadataSigner {
        switch self {
        case .ed25519(let key): return Ed25519Signer(key, uri: uri)
        case .p256(let key): return P256Signer(key, uri: uri)
        }
    }

    public static func == (left: KeyMaterial, right: KeyMaterial) -> Bool {
        left.keyType == right.keyType && left.raw == right.raw
    }
}

/// scrypt's cost parameters and salt, as an encrypted key file records them.
public struct ScryptParameters: Sendable, Equatable {
    public var n: Int
    public var r: Int
    public var p: Int
    public var salt: Data

    /// What new files are encrypted with: N = 2^16, r = 8, p = 1 (64 MiB). Measured on this project's
    /// 2-core machine (swift-crypto 4.5.2's BoringSSL scrypt, with another build running): 0.12 s per
    /// derivation in a release build (N = 2^15: 0.06 s, 2^17: 0.25 s); 0.5 to 0.85 s in a debug build,
    /// whose C code is not optimised (2^17 would be twice that). 2^16 is the strongest setting that stays
    /// near 0.1–0.5 s in both. `KeyFileTests.testRecommendedScryptCost` prints the time where it runs.
    public static func recommended() -> ScryptParameters { ScryptParameters(n: 1 << 16, r: 8, p: 1, salt: randomSalt()) }

    /// The cheapest parameters a file may have (N = 2^14, r = 8): tests use them to stay fast.
    public static func minimum() -> ScryptParameters { ScryptParameters(n: 1 << 14, r: 8, p: 1, salt: randomSalt()) }

    public init(n: Int, r: Int, p: Int, salt: Data) {
        self.n = n
        self.r = r
        self.p = p
        self.salt = salt
    }

    static let saltBytes = 16...64
    /// scrypt holds 128·N·r bytes: a file may not ask for more (N = 2^19 at r = 8).
    static let maximumMemory = 512 << 20

    static func randomSalt() -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// Refuses parameters that are too weak to protect a key, or so costly that a hostile file could
    /// make a reader allocate gigabytes or spin for minutes, before anything is allocated.
    func check(file: String) throws {
        guard n > 0, n & (n - 1) == 0, (1 << 14 ... 1 << 22).contains(n) else {
            throw KeyFileError(file, .unsupported, "asks for scrypt N = \(n); Livery reads a power of two from 2^14 to 2^22")
        }
        guard (8...32).contains(r) else { throw KeyFileError(file, .unsupported, "asks for scrypt r = \(r); Livery reads 8 to 32") }
        guard (1...4).contains(p) else { throw KeyFileError(file, .unsupported, "asks for scrypt p = \(p); Livery reads 1 to 4") }
        guard 128 * n * r <= Self.maximumMemory else {
            throw KeyFileError(file, .unsupported, "asks scrypt for \(128 * n * r >> 20) MiB (N = \(n), r = \(r)); Livery allows at most \(Self.maximumMemory >> 20) MiB")
        }
        guard Self.saltBytes.contains(salt.count) else { throw KeyFileError(file, .malformed, "has a scrypt salt of \(salt.count) bytes; Livery reads 16 to 64") }
    }

    /// The AES-256 key that `passphrase` gives under these parameters.
    func deriveKey(from passphrase: String, file: String) throws -> SymmetricKey {
        try check(file: file)
        // An empty passphrase protects nothing (and BoringSSL's wrapper needs at least one byte).
        guard !passphrase.isEmpty else { throw KeyFileError(file, .wrongPassphrase, "needs a passphrase, and the one given is empty") }
        do {
            return try KDF.Scrypt.deriveKey(from: Data(passphrase.utf8), salt: salt, outputByteCount: 32, rounds: n, blockSize: r, parallelism: p)
        } catch {
            throw KeyFileError(file, .io, "could not derive its key with scrypt (N = \(n), r = \(r), p = \(p)): \(error)")
        }
    }

    var json: JSONValue {
        .object(["name": .string("scrypt"), "n": .int(n), "r": .int(r), "p": .int(p), "salt": .string(salt.hexString)])
    }
}

/// A private key sealed with AES-256-GCM under a key derived from a passphrase with scrypt. The
/// header (format, key type, public key, scrypt parameters, cipher and nonce) is the cipher's
/// authenticated data: changing any of it makes opening fail as a wrong passphrase does.
public struct EncryptedKey: Sendable, Equatable {
    public var keyType: KeyType
    /// The public key as TUF lists it (`public` holds its `keyval.public`: hex for Ed25519, PEM for P-256).
    public var publicKey: TUFKey
    public var scrypt: ScryptParameters
    public var nonce: Data
    public var ciphertext: Data
    public var tag: Data

    /// Seals `material` with `passphrase`.
    public static func seal(_ material: KeyMaterial, passphrase: String, scrypt: ScryptParameters = .recommended(), file: String) throws -> EncryptedKey {
        try seal(material, key: try scrypt.deriveKey(from: passphrase, file: file), scrypt: scrypt)
    }

    /// Seals `material` with an already derived key (fuzz seeds; `seal(_:passphrase:…)` otherwise).
    public static func seal(_ material: KeyMaterial, key: SymmetricKey, scrypt: ScryptParameters) throws -> EncryptedKey {
        var sealed = EncryptedKey(keyType: material.keyType, publicKey: material.publicKey, scrypt: scrypt, nonce: Data(AES.GCM.Nonce()), ciphertext: Data(), tag: Data())
        let box = try AES.GCM.seal(material.raw, using: key, nonce: try AES.GCM.Nonce(data: sealed.nonce), authenticating: sealed.authenticatedData)
        sealed.ciphertext = box.ciphertext
        sealed.tag = box.tag
        return sealed
    }

    /// The private key; a wrong passphrase, or a changed file, is a `.wrongPassphrase` error.
    public func open(passphrase: String, file: String) throws -> KeyMaterial {
        try open(key: try scrypt.deriveKey(from: passphrase, file: file), file: file)
    }

    /// The private key, opened with an already derived key.
    public func open(key: SymmetricKey, file: String) throws -> KeyMaterial {
        let raw: Data
        do {
            let box = try AES.GCM.SealedBox(nonce: try AES.GCM.Nonce(data: nonce), ciphertext: ciphertext, tag: tag)
            raw = try AES.GCM.open(box, using: key, authenticating: authenticatedData)
        } catch {
            throw KeyFileError(file, .wrongPassphrase, "wrong passphrase for \(file) (or the file was changed since it was encrypted)",
                               fix: "try again with the right passphrase, or restore the file from your backup")
        }
        let material = try KeyMaterial(keyType, raw: raw, file: file)
        // Authenticated data binds the public key to the ciphertext; this only catches a writer's mistake.
        guard material.publicKey == publicKey else { throw KeyFileError(file, .malformed, "holds a private key that does not belong to its \"public\" key") }
        return material
    }

    /// The document without its ciphertext and tag.
    var header: [String: JSONValue] {
        ["livery-key": .int(1), "keytype": .string(keyType.rawValue), "public": .string(publicKey.publicValue), "kdf": scrypt.json,
         "cipher": .object(["name": .string("aes-256-gcm"), "nonce": .string(nonce.hexString)])]
    }

    /// The header in canonical JSON: what the tag authenticates besides the ciphertext.
    var authenticatedData: Data { (try? CanonicalJSON.encode(.object(header))) ?? Data() }
}

private extension UInt8 {
    var isHexDigit: Bool { isLowercaseHexDigit || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self) }
    var isLowercaseHexDigit: Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self) }
}
