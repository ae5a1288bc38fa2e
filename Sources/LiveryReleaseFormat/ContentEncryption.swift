import Crypto
import Foundation
import LiveryStorage

// Encryption at rest of voucher-protected bundles (docs/vouchers.md, "Encryption at rest"). The
// signer encrypts, the voucher server hands out content keys wrapped for one device, the client
// unwraps and decrypts after it has verified the ciphertext against the signed TUF metadata. All
// three go through these types.
//
// Built from swift-crypto's primitives (AES-256-GCM, HKDF-SHA256, HMAC-SHA256, X25519): a streaming
// AEAD of the kind Tink and age use (segments sealed one by one, each with its index in the nonce
// and a final flag in the additional data) is not offered by any package that resolves here.

/// How a bundle's target is encrypted: named in its download-manifest entry and its TUF `custom`.
public struct BundleEncryption: Sendable, Equatable {
    /// The only scheme: `SegmentedAEAD` with a key derived by `ContentSecret`.
    public static let scheme = "livery-aes-256-gcm-segmented-v1"

    public var scheme: String
    /// Names the content key (32 lowercase hex digits); reveals nothing about it or the bundle without the tenant's secret.
    public var keyID: String

    public init(keyID: String, scheme: String = BundleEncryption.scheme) {
        self.keyID = keyID
        self.scheme = scheme
    }

    public var json: JSONValue { .object(["scheme": .string(scheme), "keyId": .string(keyID)]) }

    /// Reads `{"scheme": …, "keyId": …}` strictly.
    public init(json: JSONValue, what: String) throws {
        guard case .object(let fields) = json, case .string(let scheme)? = fields["scheme"], case .string(let keyID)? = fields["keyId"] else {
            throw TUFError(.malformed, "\(what): \"encryption\" must be an object with the texts \"scheme\" and \"keyId\"")
        }
        guard keyID.utf8.count == 32, keyID.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            throw TUFError(.malformed, "\(what): encryption.keyId must be 32 lowercase hexadecimal digits")
        }
        self.init(keyID: keyID, scheme: scheme)
    }
}

/// A tenant's content secret (32 random bytes, kept in the key store and by the voucher servers):
/// every content key is derived from it, so encryption is deterministic (the same archive always
/// gives the same ciphertext, and builds stay reproducible) and a server needs no per-bundle key list.
///
/// `keyId = hex(HMAC-SHA256(secret, "livery-content-key-id-v1:" + sha256(plaintext) in hex)[0..<16])`;
/// `key = HKDF-SHA256(ikm: secret, salt: "livery-content-key-v1", info: keyId, 32 bytes)`. Each key
/// encrypts exactly one plaintext (its id depends on the plaintext's digest), which is what makes the
/// segment counter a safe nonce.
public struct ContentSecret: Sendable {
    public let key: SymmetricKey

    public init(_ key: SymmetricKey) { self.key = key }

    public init?(raw: Data) {
        guard raw.count == 32 else { return nil }
        key = SymmetricKey(data: raw)
    }

    public static func random() -> ContentSecret { ContentSecret(SymmetricKey(size: .bits256)) }

    public var rawRepresentation: Data { key.withUnsafeBytes { Data($0) } }

    public func keyID(plaintextSHA256: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data("livery-content-key-id-v1:\(plaintextSHA256)".utf8), using: key)
        return Data(mac).prefix(16).hexString
    }

    public func contentKey(keyID: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: key, salt: Data("livery-content-key-v1".utf8), info: Data(keyID.utf8), outputByteCount: 32)
    }
}

/// The ciphertext format of an encrypted bundle: a 12-byte header, then the plaintext in segments of
/// `segmentSize` bytes (the last one shorter, possibly empty), each sealed with AES-256-GCM:
///
///     header    = "LVRYENC" 0x01 ‖ segmentSize (u32, big-endian)
///     segment i = AES-256-GCM(key, nonce = 0x00000000 ‖ i (u64, big-endian),
///                             aad = header ‖ final (one byte, 1 for the last segment, else 0))
///                 → ciphertext ‖ 16-byte tag
///
/// Reordered, dropped, repeated or truncated segments fail to open; bytes after the final segment
/// are refused. Memory is one segment, whatever the file size.
public enum SegmentedAEAD {
    public static let magic = Data("LVRYENC".utf8) + Data([1])
    public static let defaultSegmentSize = 1 << 20
    static let tagSize = 16
    static let headerSize = 12
    /// A header naming a segment size outside this range is refused (hostile files must not choose the buffer size).
    static let segmentSizes = 1024...(16 << 20)

    /// The ciphertext's length for a plaintext of `length` bytes.
    public static func ciphertextLength(plaintext length: Int, segmentSize: Int = defaultSegmentSize) -> Int {
        let segments = max(1, (length + segmentSize - 1) / segmentSize)
        return headerSize + length + segments * tagSize
    }

    /// Encrypts `source` into `destination` (created or truncated).
    public static func encrypt(_ source: URL, to destination: URL, key: SymmetricKey, segmentSize: Int = defaultSegmentSize) throws {
        precondition(segmentSizes.contains(segmentSize))
        let input = try FileHandle(forReadingFrom: source)
        defer { try? input.close() }
        let descriptor = Foundation.open(destination.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            throw WriteFailure.storage(errno: code, path: destination.path) ?? WriteFailure(errno: code, path: destination.path, operation: .create)
        }
        let output = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        // A full device (or a failing one) while writing is said as such, naming the file being written.
        try WriteFailure.writing(destination.path) {
            let header = header(segmentSize: segmentSize)
            try output.write(contentsOf: header)
            try eachSegment(of: input, size: segmentSize, into: output) { try seal($0, index: $1, final: $2, header: header, key: key) }
            try output.close()
        }
    }

    /// Encrypts bytes in memory (small files, tests).
    public static func encrypt(_ plaintext: Data, key: SymmetricKey, segmentSize: Int = defaultSegmentSize) throws -> Data {
        precondition(segmentSizes.contains(segmentSize))
        let header = header(segmentSize: segmentSize)
        var out = header
        var start = plaintext.startIndex
        var index: UInt64 = 0
        repeat {
            let end = min(start + segmentSize, plaintext.endIndex)
            let final = end == plaintext.endIndex
            out += try seal(plaintext[start..<end], index: index, final: final, header: header, key: key)
            start = end
            index += 1
        } while start < plaintext.endIndex
        return out
    }

    /// Decrypts `source` into `destination`; throws (and leaves `destination` to the caller to remove)
    /// on a wrong key or any change to the ciphertext.
    public static func decrypt(_ source: URL, to destination: URL, key: SymmetricKey) throws {
        let input = try FileHandle(forReadingFrom: source)
        defer { try? input.close() }
        guard FileManager.default.createFile(atPath: destination.path, contents: nil) else { throw WriteFailure(errno: errno, path: destination.path, operation: .create) }
        let output = try FileHandle(forWritingTo: destination)
        defer { try? output.close() }
        let header = try input.read(upToCount: headerSize) ?? Data()
        let segmentSize = try readHeader(header)
        try eachSegment(of: input, size: segmentSize + tagSize, into: output) { try open($0, index: $1, final: $2, header: header, key: key) }
    }

    /// Reads `input` in pieces of `size` bytes, one ahead so that the last is known (a short or empty
    /// read ends it), and writes what `transform(piece, index, isLast)` makes of each: the one loop of
    /// both directions. At least one piece, possibly empty, is always transformed.
    static func eachSegment(of input: FileHandle, size: Int, into output: FileHandle, _ transform: (Data, UInt64, Bool) throws -> Data) throws {
        var index: UInt64 = 0
        var current = try input.read(upToCount: size) ?? Data()
        while true {
            let next = current.count == size ? (try input.read(upToCount: size) ?? Data()) : Data()
            try output.write(contentsOf: try transform(current, index, next.isEmpty))
            if next.isEmpty { return }
            current = next
            index += 1
        }
    }

    /// Decrypts bytes in memory.
    public static func decrypt(_ ciphertext: Data, key: SymmetricKey) throws -> Data {
        let header = Data(ciphertext.prefix(headerSize))
        let chunk = try readHeader(header) + tagSize
        var out = Data()
        var start = ciphertext.startIndex + headerSize
        var index: UInt64 = 0
        repeat {
            let end = min(start + chunk, ciphertext.endIndex)
            out += try open(ciphertext[start..<end], index: index, final: end == ciphertext.endIndex, header: header, key: key)
            start = end
            index += 1
        } while start < ciphertext.endIndex
        return out
    }

    static func header(segmentSize: Int) -> Data {
        var size = UInt32(segmentSize).bigEndian
        return magic + Data(bytes: &size, count: 4)
    }

    static func readHeader(_ header: Data) throws -> Int {
        guard header.count == headerSize, header.prefix(magic.count) == magic else {
            throw TUFError(.malformed, "not an encrypted Livery bundle (its header is not \"LVRYENC\" version 1)")
        }
        let size = header.suffix(4).reduce(0) { $0 << 8 | Int($1) }
        guard segmentSizes.contains(size) else { throw TUFError(.malformed, "an encrypted bundle's segment size \(size) is outside \(segmentSizes)") }
        return size
    }

    static func nonce(_ index: UInt64) throws -> AES.GCM.Nonce {
        var counter = index.bigEndian
        return try AES.GCM.Nonce(data: Data(count: 4) + Data(bytes: &counter, count: 8))
    }

    static func seal<D: DataProtocol>(_ segment: D, index: UInt64, final: Bool, header: Data, key: SymmetricKey) throws -> Data {
        let box = try AES.GCM.seal(segment, using: key, nonce: try nonce(index), authenticating: header + Data([final ? 1 : 0]))
        return box.ciphertext + box.tag
    }

    static func open(_ chunk: Data, index: UInt64, final: Bool, header: Data, key: SymmetricKey) throws -> Data {
        guard chunk.count >= tagSize else { throw TUFError(.malformed, "encrypted bundle: segment \(index) is cut short") }
        do {
            let box = try AES.GCM.SealedBox(nonce: try nonce(index), ciphertext: chunk.dropLast(tagSize), tag: chunk.suffix(tagSize))
            return try AES.GCM.open(box, using: key, authenticating: header + Data([final ? 1 : 0]))
        } catch {
            throw TUFError(.malformed, "encrypted bundle: segment \(index) does not open with this key (wrong key, or the bytes were changed, reordered or cut)")
        }
    }
}

/// A content key sealed for one device (the redemption answer's `keys`): X25519 between a fresh
/// ephemeral key and the device's public key, HKDF-SHA256 over the shared secret (salt: ephemeral
/// public key ‖ device public key; info: "livery-content-key-wrap-v1:" + keyId) to a 32-byte
/// wrapping key, and AES-256-GCM over the content key (additional data: the key id). Only the
/// holder of the device's private key can open it; a wrapped key copied to another device is useless.
public struct WrappedContentKey: Sendable, Equatable {
    public var bundle: String
    public var keyID: String
    /// The ephemeral X25519 public key, 32 bytes.
    public var ephemeral: Data
    /// Nonce (12) ‖ sealed content key (32) ‖ tag (16).
    public var sealed: Data

    public init(bundle: String, keyID: String, ephemeral: Data, sealed: Data) {
        (self.bundle, self.keyID, self.ephemeral, self.sealed) = (bundle, keyID, ephemeral, sealed)
    }

    /// Seals `key` for the device whose X25519 public key is `device`.
    public static func wrap(_ key: SymmetricKey, bundle: String, keyID: String, for device: Curve25519.KeyAgreement.PublicKey) throws -> WrappedContentKey {
        let ephemeral = Curve25519.KeyAgreement.PrivateKey()
        let wrapping = try wrappingKey(ephemeral.sharedSecretFromKeyAgreement(with: device), ephemeral: ephemeral.publicKey.rawRepresentation,
                                       device: device.rawRepresentation, keyID: keyID)
        let box = try AES.GCM.seal(key.withUnsafeBytes { Data($0) }, using: wrapping, authenticating: Data(keyID.utf8))
        guard let combined = box.combined else { throw TUFError("cannot seal a content key") }
        return WrappedContentKey(bundle: bundle, keyID: keyID, ephemeral: ephemeral.publicKey.rawRepresentation, sealed: combined)
    }

    /// The content key, opened with the device's private key; throws when it was sealed for another device or changed.
    public func unwrap(with device: Curve25519.KeyAgreement.PrivateKey) throws -> SymmetricKey {
        do {
            let peer = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: ephemeral)
            let wrapping = Self.wrappingKey(try device.sharedSecretFromKeyAgreement(with: peer), ephemeral: ephemeral,
                                            device: device.publicKey.rawRepresentation, keyID: keyID)
            let raw = try AES.GCM.open(AES.GCM.SealedBox(combined: sealed), using: wrapping, authenticating: Data(keyID.utf8))
            guard raw.count == 32 else { throw TUFError("bad key length") }
            return SymmetricKey(data: raw)
        } catch {
            throw TUFError(.malformed, "the content key of '\(bundle)' does not open with this device's key (sealed for another device, or changed)")
        }
    }

    static func wrappingKey(_ shared: SharedSecret, ephemeral: Data, device: Data, keyID: String) -> SymmetricKey {
        shared.hkdfDerivedSymmetricKey(using: SHA256.self, salt: ephemeral + device, sharedInfo: Data("livery-content-key-wrap-v1:\(keyID)".utf8), outputByteCount: 32)
    }

    public var json: JSONValue {
        .object(["bundle": .string(bundle), "keyId": .string(keyID), "ephemeral": .string(Base64URL.encode(ephemeral)), "sealed": .string(Base64URL.encode(sealed))])
    }

    public init(json: JSONValue, what: String) throws {
        let o = try StrictObject(json, what: what)
        guard let ephemeral = Base64URL.decode(try o.string("ephemeral")), ephemeral.count == 32,
              let sealed = Base64URL.decode(try o.string("sealed")), sealed.count == 12 + 32 + 16 else {
            throw TUFError(.malformed, "\(what): \"ephemeral\" and \"sealed\" must be base64url keys of 32 and 60 bytes")
        }
        self.init(bundle: try o.string("bundle"), keyID: try o.string("keyId"), ephemeral: ephemeral, sealed: sealed)
    }
}

/// Base64url without padding (RFC 4648 §5), read in its canonical spelling only.
public enum Base64URL {
    public static func encode(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    public static func decode<S: StringProtocol>(_ text: S) -> Data? {
        guard !text.isEmpty, text.utf8.count <= 1 << 16, text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        // The last character's unused bits must be zero, or one value would have several spellings.
        guard let data = Data(base64Encoded: base64), encode(data) == text else { return nil }
        return data
    }
}
