import Crypto
import Foundation
import LiveryStorage
import LiveryReleaseFormat

extension KeyStore {
    /// `livery keys init`: a tenant's keys, its `keys.yaml` and its first root, signed by every
    /// root key. Each role uses the keys in `given`, or gets `counts[role]` new key files
    /// (`<role>.key`, or `<role>-1.key`, `<role>-2.key`, … for several). Refuses a tenant that has keys.
    /// Returns each role's keys as (URI, key id).
    /// New key files are encrypted with `passphrase` when one is given, and keys.yaml records
    /// `passphraseSource` beside them (a place to read it from, never the passphrase).
    public func initialize(tenant: String, given: [TUFRole: [KeyReference]], counts: [TUFRole: Int], thresholds: [TUFRole: Int],
                           passphrase: String? = nil, passphraseSource: SecretSource? = nil,
                           now: Date = Date(), expiry: Expiry = Expiry()) throws -> [TUFRole: [(uri: String, id: String)]] {
        let folder = folder(for: tenant)
        if (try? configuration(for: tenant)) != nil || FileManager.default.fileExists(atPath: configurationFile(for: tenant).path)
            || FileManager.default.fileExists(atPath: initialRootFile(for: tenant).path) {
            throw KeyStoreError(.keysExist, tenant, "tenant '\(tenant)' already has keys in \(folder.path); use `livery keys rotate` or a root ceremony")
        }
        try WriteFailure.writing(folder.path) { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]) }
        chmod(root.path, 0o700)
        var configuration = KeyConfiguration(roles: [:])
        var keys = TenantKeys(signers: [:])
        for role in TUFRole.allCases {
            if let references = given[role] {
                configuration.roles[role] = references
                keys.signers[role] = references.map { signer($0, tenant: tenant) }
                continue
            }
            let count = counts[role] ?? 1
            let names = count == 1 ? ["\(role.rawValue).key"] : (1...count).map { "\(role.rawValue)-\($0).key" }
            for name in names {
                let key = Curve25519.Signing.PrivateKey()
                try write(key, to: folder.appendingPathComponent(name), passphrase: passphrase)
                let reference = KeyReference.file(path: name, passphrase: passphrase == nil ? nil : passphraseSource)
                configuration.roles[role, default: []].append(reference)
                keys.signers[role, default: []].append(Ed25519Signer(key, uri: reference.description))
            }
        }
        keys.journal = SignatureJournal(sink: try AuditTrail.recorder(store: self, tenant: tenant))
        var proposal = try RootCeremony.propose(after: nil, change: RootCeremony.Change(keys: try keys.publicKeys(), thresholds: thresholds), now: now, expiry: expiry)
        try keys.sign(&proposal, with: keys.signers[.root] ?? [], role: TUFRole.root.rawValue, file: "1.root.json")
        let root = try RootCeremony.check(proposal, trusted: nil, now: now)
        try keys.journal.flush()
        let file = initialRootFile(for: tenant)
        try AtomicFile.write(root.bytes, to: file, mode: 0o644, durable: true)
        var made: [TUFRole: [(uri: String, id: String)]] = [:]
        for (role, signers) in keys.signers { made[role] = try signers.map { ($0.uri, try $0.publicKey().keyID) } }
        // Each key's id beside it, so a later ceremony can judge a key whose file has gone to its holder.
        for (reference, signer) in TUFRole.allCases.flatMap({ zip(configuration.roles[$0] ?? [], keys.signers[$0] ?? []) }) {
            configuration.keyIDs[reference.description] = try signer.publicKey().keyID
        }
        // keys.yaml last: its presence means the tenant's keys are complete.
        try configuration.write(to: configurationFile(for: tenant))
        return made
    }

    /// A new key for `livery keys rotate`, written before the new root is published.
    public struct PendingKey: Sendable {
        public var signer: any MetadataSigner
        /// `keys.yaml` stores add the key as a new file; stores without it stage `<role>.key.new`.
        var reference: KeyReference?
    }

    public func stageRotation(_ key: Curve25519.Signing.PrivateKey, for role: TUFRole, tenant: String) throws -> PendingKey {
        let configFile = configurationFile(for: tenant)
        guard FileManager.default.fileExists(atPath: configFile.path) else {
            try stage(key, for: role, tenant: tenant)
            return PendingKey(signer: Ed25519Signer(key, uri: "file:\(role.rawValue).key"), reference: nil)
        }
        let name = "\(role.rawValue)-\(TUFKey(key.publicKey).keyID.prefix(8)).key"
        try write(key, to: folder(for: tenant).appendingPathComponent(name))
        let reference = KeyReference.file(path: name, passphrase: nil)
        // Listed before the root that trusts it is published (a key the root does not trust is never used), so a crash cannot lose it.
        var configuration = try KeyConfiguration.load(configFile)
        configuration.add(reference, for: role, keyID: TUFKey(key.publicKey).keyID)
        try configuration.write(to: configFile)
        return PendingKey(signer: Ed25519Signer(key, uri: reference.description), reference: reference)
    }

    /// Forgets a new key that no published root trusts.
    public func abandonRotation(_ pending: PendingKey, tenant: String) {
        guard let reference = pending.reference else {
            for role in TUFRole.allCases { unstage(role, tenant: tenant) }
            return
        }
        let configFile = configurationFile(for: tenant)
        if var configuration = try? KeyConfiguration.load(configFile) {
            for role in TUFRole.allCases { configuration.roles[role]?.removeAll { $0 == reference } }
            try? configuration.write(to: configFile)
        }
        if let file = reference.fileURL(relativeTo: folder(for: tenant)) { unlink(file.path) }
    }

    /// Makes the new key the role's only key once a published root trusts it; the role's old key
    /// files in the tenant's folder are kept as `<file>.retired-<n>`.
    public func completeRotation(_ pending: PendingKey, for role: TUFRole, tenant: String) throws {
        guard let reference = pending.reference else {
            try install(role, tenant: tenant)
            return
        }
        let configFile = configurationFile(for: tenant)
        var configuration = try KeyConfiguration.load(configFile)
        let old = (configuration.roles[role] ?? []).filter { $0 != reference }
        configuration.roles[role] = [reference]
        try configuration.write(to: configFile)
        for retired in old { retireStoreFile(of: retired, tenant: tenant) }
    }

    /// Keeps the key file `reference` names as `<file>.retired-<n>`, when it is a file of the tenant's folder of the
    /// store (a key elsewhere, on a USB stick or in a token, is its holder's to keep).
    func retireStoreFile(of reference: KeyReference, tenant: String) {
        guard case .file(let path, _) = reference, !path.hasPrefix("/"), let file = reference.fileURL(relativeTo: folder(for: tenant)) else { return }
        // The new key is in place already: an old file left where it was is harmless.
        try? KeyStore.retire(file)
    }

    /// Renames `file` to `<file>.retired-<n>`, the first `n` not taken.
    static func retire(_ file: URL) throws {
        var n = 1
        while FileManager.default.fileExists(atPath: file.path + ".retired-\(n)") { n += 1 }
        guard rename(file.path, file.path + ".retired-\(n)") == 0 else { throw WriteFailure(errno: errno, path: file.path, operation: .rename) }
    }
}

/// The audit trail of a tenant's signatures (docs/keys.md#the-audit-trail).
public enum AuditTrail {
    /// `<store>/<tenant>/audit.log`.
    public static let fileName = "audit.log"

    /// Where a `SignatureJournal` writes: the tenant's log in `store`. Each signing operation's lines
    /// are flushed before it returns, unless `flushedLater` (the caller flushes the log's whole file
    /// system before anything signed is published: see `KeyStore.keys(for:create:flushedBy:warn:)`).
    public static func recorder(store: KeyStore, tenant: String, flushedLater: Bool = false) throws -> (@Sendable ([SignatureRecord]) throws -> Void)? {
        let log = AuditLog(store: store.root, tenant: tenant)
        let machine = AuditLog.machineName
        return { records in
            do {
                try log.append(records.map { AuditEvent(role: $0.role, version: $0.version, keyID: $0.keyID, signed: $0.signedSHA256, file: $0.file,
                                                        machine: machine, signer: $0.signer) }, flush: !flushedLater)
            } catch let error as AuditLogError {
                // A signature the log cannot record is not published: the trail must explain every release.
                throw KeyStoreError(.auditLog, log.file.path, "the audit log cannot record this signing, so nothing is published: \(error.description)")
            }
        }
    }

    /// Records the signatures of a root made in a ceremony (signed on other machines) as
    /// published by this key store, so the log explains every published root version.
    public static func recordCeremony(_ root: Metadata<Root>, store: KeyStore, tenant: String) throws {
        let log = AuditLog(store: store.root, tenant: tenant)
        let digest = SHA256.hash(data: try root.signedBytes()).hexString
        let known = Set((FileManager.default.fileExists(atPath: log.file.path) ? try log.verify() : [])
            .filter { $0.event.role == TUFRole.root.rawValue && $0.event.signed == digest }.map(\.event.keyID))
        let events = root.signatures.keys.sorted().filter { !known.contains($0) }.map {
            AuditEvent(role: TUFRole.root.rawValue, version: root.signed.version, keyID: $0, signed: digest, file: "\(root.signed.version).root.json",
                       signer: "ceremony: signed with `livery keys sign` where the key is held")
        }
        do { try log.append(events) } catch let error as AuditLogError {
            throw KeyStoreError(.auditLog, log.file.path, "the audit log cannot record the ceremony, so nothing is published: \(error.description)")
        }
    }
}
