import Crypto
import Foundation
import LiveryReleaseFormat
import LiveryStorage

/// `livery keys rotate`: replaces one role's keys by one new key on a machine that holds enough
/// of the current root keys: the next root, which lists the new key, is signed by a threshold of
/// the current root keys and, when the root key itself changes, by the new one too, so clients
/// that trust the current root walk to the next. Without enough root keys on one machine, the
/// same change is a root ceremony (`RootCeremony`).
public enum KeyRotation {
    public static func rotatedRoot(current: Metadata<Root>, role: TUFRole, newSigner: any MetadataSigner, keys: TenantKeys,
                                   now: Date = Date(), expiry: Expiry = Expiry()) throws -> Metadata<Root> {
        var proposal = try RootCeremony.propose(after: current.signed, change: RootCeremony.Change(keys: [role: [try newSigner.publicKey()]], thresholds: [role: 1]),
                                                now: now, expiry: expiry)
        let oldSigners: [any MetadataSigner]
        // Too few trusted root keys here (a threshold: TUF's) or one that cannot be used (the key store's): either
        // way, the same advice, and the error keeps its type.
        func advised(_ problem: String) -> String {
            "\(problem). Bring the root keys back, or change the root in a ceremony (`livery keys propose-root`, docs/keys.md#a-root-ceremony)"
        }
        do { oldSigners = try keys.signers(for: .root, trustedBy: current.signed, version: current.signed.version) } catch let error as TUFError {
            throw TUFError(error.kind, advised(error.description))
        } catch let error as KeyStoreError {
            throw KeyStoreError(error.kind, error.subject, advised(error.description))
        }
        let file = "\(current.signed.version + 1).root.json"
        try keys.sign(&proposal, with: oldSigners, role: TUFRole.root.rawValue, file: file)
        if role == .root { try keys.sign(&proposal, with: [newSigner], role: TUFRole.root.rawValue, file: file) }
        let root = try RootCeremony.check(proposal, trusted: current, now: now)
        try keys.journal.flush()
        return root
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
        let pending = folder.appendingPathComponent("\(role.rawValue).key.new")
        if FileManager.default.fileExists(atPath: file.path) {
            try KeyStore.retire(file)
        }
        guard rename(pending.path, file.path) == 0 else { throw WriteFailure(errno: errno, path: file.path, operation: .replace) }
    }
}
