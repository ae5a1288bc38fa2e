import Crypto
import Foundation
import LiveryTUF

/// `livery keys rotate`: replaces one role's key without shipping new apps. A new root version
/// (`N+1.root.json`) lists the new key and is signed by the old root key and, when the root key
/// itself changes, by the new one too, so clients that trust version N can walk to N+1. When an
/// online role changes, targets, snapshot and timestamp are signed again with the new keys.
public enum KeyRotation {
    /// Writes the rotated metadata into `folder` (a staging copy of the release) and returns the new keys.
    ///
    /// `root` is the new root another channel of the tenant already published for this rotation: its
    /// bytes are written here unchanged, so every channel keeps one root chain (one root file ships in apps).
    public static func rotate(_ role: TUFRole, release folder: URL, keys: TenantKeys, newKey: Curve25519.Signing.PrivateKey,
                              root: Data? = nil, now: Date = Date(), expiry: Expiry = Expiry()) throws -> TenantKeys {
        let metadata = folder.appendingPathComponent("metadata")
        guard let version = RepositorySigner.latestVersion(of: .root, in: metadata) else { throw TUFError("the release has no root metadata") }
        let current = try Metadata<Root>(data: Data(contentsOf: metadata.appendingPathComponent("\(version).root.json")))
        guard let oldRoot = keys.key(.root) else { throw TUFError("root.key is not in the key store (kept offline?): bring it back to rotate keys") }
        let trustedRoots = current.signed.roles[.root]?.keyIDs ?? []
        guard trustedRoots.contains(TUFKey(oldRoot.publicKey).keyID) else {
            throw TUFError("the root key in the key store is not one the published root (version \(version)) trusts: wrong --keys folder?")
        }
        var rotated = keys
        rotated.keys[role] = newKey
        // Start from the published root: every other role keeps exactly the keys and thresholds it has.
        var publicKeys: [TUFRole: [TUFKey]] = [:]
        var thresholds: [TUFRole: Int] = [:]
        let published = current.signed
        for r in TUFRole.allCases {
            let listed = published.roles[r] ?? RoleKeys(keyIDs: [], threshold: 1)
            thresholds[r] = listed.threshold
            publicKeys[r] = r == role ? [TUFKey(newKey.publicKey)] : listed.keyIDs.compactMap { published.keys[$0] }
        }
        let file = metadata.appendingPathComponent("\(version + 1).root.json")
        if let root {
            guard (try? Metadata<Root>(data: root))?.signed.version == version + 1 else {
                throw TUFError("this channel's root is at version \(version), and the rotated root of the tenant's other channels is not version \(version + 1)")
            }
            try root.write(to: file)
        } else {
            var next = SignedMetadata(signed: TUFDocument.root(version: version + 1, expires: now.addingTimeInterval(expiry.root), keys: publicKeys, thresholds: thresholds))
            try next.sign(with: oldRoot)
            if role == .root { try next.sign(with: newKey) }
            try next.bytes().write(to: file)
        }
        if role != .root {
            // Re-sign the online roles so the current release verifies under the new root.
            guard let published = try PublishedMetadata.load(release: folder) else {
                throw TUFError("the release's timestamp, snapshot or targets metadata cannot be read")
            }
            try RepositorySigner.sign(release: folder, targets: try published.signedTargets, keys: rotated, now: now, expiry: expiry)
        }
        return rotated
    }
}

extension KeyStore {
    /// Writes the new key as `<role>.key.new` before the rotated metadata is published, so a crash
    /// cannot lose a key the published root already trusts.
    public func stage(_ key: Curve25519.Signing.PrivateKey, for role: TUFRole, tenant: String) throws {
        let pending = folder(for: tenant).appendingPathComponent("\(role.rawValue).key.new")
        unlink(pending.path)
        try write(key, to: pending)
    }

    /// Abandons a staged key (the rotation was not published).
    public func unstage(_ role: TUFRole, tenant: String) {
        unlink(folder(for: tenant).appendingPathComponent("\(role.rawValue).key.new").path)
    }

    /// Makes a staged key the role's key after the rotation was published, keeping the old one as `<role>.key.retired-<n>`.
    public func install(_ role: TUFRole, tenant: String) throws {
        let folder = folder(for: tenant)
        let file = folder.appendingPathComponent("\(role.rawValue).key")
        var n = 1
        while FileManager.default.fileExists(atPath: folder.appendingPathComponent("\(role.rawValue).key.retired-\(n)").path) { n += 1 }
        let pending = folder.appendingPathComponent("\(role.rawValue).key.new")
        if FileManager.default.fileExists(atPath: file.path) {
            guard rename(file.path, folder.appendingPathComponent("\(role.rawValue).key.retired-\(n)").path) == 0 else { throw TUFError("cannot retire \(file.path)") }
        }
        guard rename(pending.path, file.path) == 0 else { throw TUFError("cannot install \(file.path)") }
    }

    /// Creates a tenant's keys for real use (no development warning); refuses to replace existing keys.
    public func create(for tenant: String) throws -> TenantKeys {
        let existing = TUFRole.allCases.filter { FileManager.default.fileExists(atPath: folder(for: tenant).appendingPathComponent("\($0.rawValue).key").path) }
        guard existing.isEmpty else { throw TUFError("tenant '\(tenant)' already has keys in \(folder(for: tenant).path); use `livery keys rotate`") }
        return try keys(for: tenant, create: true, warn: { _ in })
    }
}
