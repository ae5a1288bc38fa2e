import Crypto
import Foundation
import LiveryTUF

/// The signing keys of one tenant: one Ed25519 key per top-level TUF role, and its delegated roles.
public struct TenantKeys: Sendable {
    public var keys: [TUFRole: Curve25519.Signing.PrivateKey]
    public var delegations: [DelegationKey] = []

    public init(keys: [TUFRole: Curve25519.Signing.PrivateKey], delegations: [DelegationKey] = []) {
        self.keys = keys
        self.delegations = delegations
    }

    public func key(_ role: TUFRole) -> Curve25519.Signing.PrivateKey? { keys[role] }
    public var publicKeys: [TUFRole: [TUFKey]] { keys.mapValues { [TUFKey($0.publicKey)] } }
}

/// A folder of signing keys, one sub-folder per tenant (`<store>/<tenant>/<role>.key`), kept
/// outside `Output/`. Files are written with mode 0600 in folders with mode 0700, and key bytes are
/// never printed. A tenant's keys sign only that tenant's release.
public final class KeyStore: Sendable {
    public let root: URL

    public init(root: URL) {
        self.root = root
    }

    public func folder(for tenant: String) -> URL { root.appendingPathComponent(tenant) }

    /// The tenant's keys. When it has none and `create` is set, development keys are made and
    /// `warn` is told loudly that they are for development only.
    public func keys(for tenant: String, create: Bool, warn: (String) -> Void) throws -> TenantKeys {
        let folder = folder(for: tenant)
        var keys: [TUFRole: Curve25519.Signing.PrivateKey] = [:]
        var missing: [TUFRole] = []
        for role in TUFRole.allCases {
            let file = folder.appendingPathComponent("\(role.rawValue).key")
            if let text = try? String(contentsOf: file, encoding: .utf8) {
                guard let raw = Data(hex: text.trimmingCharacters(in: .whitespacesAndNewlines)),
                      let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: raw) else {
                    throw TUFError("\(file.path) is not an Ed25519 private key")
                }
                keys[role] = key
            } else {
                missing.append(role)
            }
        }
        for role in TUFRole.allCases where FileManager.default.fileExists(atPath: folder.appendingPathComponent("\(role.rawValue).key.new").path) {
            throw TUFError("a rotation of the \(role.rawValue) key of '\(tenant)' was interrupted: if the newest root in Output/\(tenant)/metadata lists "
                           + "the key in \(role.rawValue).key.new, rename that file to \(role.rawValue).key; otherwise delete it")
        }
        // The root key may be kept offline: online operations need only the other three.
        guard missing.count == TUFRole.allCases.count else { return TenantKeys(keys: keys, delegations: try delegations(for: tenant)) }
        guard create else {
            throw TUFError("tenant '\(tenant)' has no keys in \(folder.path); create keys with `livery keys init \(tenant)`")
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        chmod(root.path, 0o700)
        for role in TUFRole.allCases {
            let key = Curve25519.Signing.PrivateKey()
            try write(key, to: folder.appendingPathComponent("\(role.rawValue).key"))
            keys[role] = key
        }
        warn("""
            WARNING: created DEVELOPMENT signing keys for '\(tenant)' in \(folder.path).
            WARNING: they are unprotected files on this machine, with the root key online. Do not publish
            WARNING: a real release with them; create real keys with `livery keys init \(tenant)`.
            """)
        return TenantKeys(keys: keys)
    }

    /// Writes a private key file that only its owner can read, refusing to replace an existing one.
    func write(_ key: Curve25519.Signing.PrivateKey, to file: URL) throws {
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw TUFError("cannot create \(file.path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        let text = key.rawRepresentation.hexString + "\n"
        guard text.withCString({ Glibc.write(descriptor, $0, strlen($0)) }) == text.utf8.count else { throw TUFError("cannot write \(file.path)") }
    }

    /// `<store>/<tenant>/content.key`: the secret every content key of the tenant's encrypted bundles
    /// derives from (`ContentSecret`). Voucher servers need it (and nothing else from this folder).
    public func contentSecretFile(for tenant: String) -> URL { folder(for: tenant).appendingPathComponent("content.key") }

    /// The tenant's content secret; made on first use when `create` is set (it protects content, it
    /// signs nothing, so a new one only means that the next build encrypts with new keys).
    public func contentSecret(for tenant: String, create: Bool) throws -> ContentSecret? {
        let file = contentSecretFile(for: tenant)
        if let text = try? String(contentsOf: file, encoding: .utf8) {
            guard let raw = Data(hex: text.trimmingCharacters(in: .whitespacesAndNewlines)), let secret = ContentSecret(raw: raw) else {
                throw TUFError("\(file.path) is not a content secret (64 hexadecimal digits)")
            }
            return secret
        }
        guard create else { return nil }
        try FileManager.default.createDirectory(at: folder(for: tenant), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        chmod(root.path, 0o700)
        let secret = ContentSecret.random()
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor < 0 && errno == EEXIST { return try contentSecret(for: tenant, create: false) }  // made meanwhile by another build thread
        guard descriptor >= 0 else { throw TUFError("cannot create \(file.path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        let text = secret.rawRepresentation.hexString + "\n"
        guard text.withCString({ Glibc.write(descriptor, $0, strlen($0)) }) == text.utf8.count else { throw TUFError("cannot write \(file.path)") }
        return secret
    }
}
