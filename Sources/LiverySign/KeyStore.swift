import Crypto
import Foundation
import LiveryStorage
import LiveryReleaseFormat

/// The keys one tenant can sign with on this machine: for each top-level role, the signers this
/// key store holds (files or PKCS#11 tokens, opened on first use), and the delegated roles. The
/// published root decides which of them count and how many signatures each role needs.
public struct TenantKeys: Sendable {
    public var signers: [TUFRole: [any MetadataSigner]]
    /// Keys `keys.yaml` lists whose file is not on this machine (kept offline), by role.
    public var away: [TUFRole: [String]] = [:]
    public var delegations: [DelegationKey] = []
    /// The tenant's first root (`<store>/<tenant>/1.root.json`), made by `livery keys init` or a
    /// root ceremony, which the first build publishes as it is.
    public var initialRoot: Data?
    /// Whether a build may sign a first root itself: only for a key store without `keys.yaml`
    /// (development keys, and stores made before keys.yaml existed), whose root key is a file here.
    public var mayCreateRoot = false
    /// Every signature made with these keys, written to the audit trail when the signing
    /// operation is complete (before anything it signed is published).
    public var journal = SignatureJournal(sink: nil)

    public init(signers: [TUFRole: [any MetadataSigner]], delegations: [DelegationKey] = []) {
        self.signers = signers
        self.delegations = delegations
    }

    /// Keys held in memory, one per role (development keys, tests).
    public init(keys: [TUFRole: Curve25519.Signing.PrivateKey], delegations: [DelegationKey] = []) {
        self.init(signers: keys.mapValues { [Ed25519Signer($0, uri: "memory:")] }, delegations: delegations)
        mayCreateRoot = true
    }

    /// The first signer of `role` on this machine.
    public func signer(_ role: TUFRole) -> (any MetadataSigner)? { signers[role]?.first }

    /// The signers of `role` that `root` (published as `version`) trusts; at least its threshold, or
    /// an error naming the role, the keys the root trusts and the keys this machine has.
    public func signers(for role: TUFRole, trustedBy root: Root, version: Int) throws -> [any MetadataSigner] {
        let listed = root.roles[role] ?? RoleKeys(keyIDs: [], threshold: 1)
        var trusted: [any MetadataSigner] = []
        var untrusted: [String] = []
        for signer in signers[role] ?? [] {
            let id: String
            do { id = try signer.publicKey().keyID } catch {
                throw KeyStoreError(.unusableKey, signer.uri, "the \(role.rawValue) key \(signer.uri) cannot be used: \(error)")
            }
            if listed.keyIDs.contains(id) { trusted.append(signer) } else { untrusted.append("\(signer.uri) (key \(id.prefix(12))…)") }
        }
        guard trusted.count >= listed.threshold else {
            var message = "the \(role.rawValue) role needs \(listed.threshold) signature\(listed.threshold == 1 ? "" : "s") by keys the published root (version \(version)) trusts, "
                + "and this key store has \(trusted.count)"
            if !untrusted.isEmpty { message += "; not trusted by that root: " + untrusted.joined(separator: ", ") + " (rotate keys with `livery keys rotate` or a root ceremony)" }
            if let away = away[role], !away.isEmpty { message += "; not on this machine: " + away.joined(separator: ", ") }
            if (signers[role] ?? []).isEmpty && (away[role] ?? []).isEmpty { message += "; keys.yaml lists no \(role.rawValue) key" }
            throw TUFError(message)
        }
        return trusted
    }

    /// The public keys of each role's signers (a first root made here lists exactly these).
    public func publicKeys() throws -> [TUFRole: [TUFKey]] {
        var keys: [TUFRole: [TUFKey]] = [:]
        for (role, list) in signers { keys[role] = try list.map { try $0.publicKey() } }
        return keys
    }
}

/// The signatures of one signing operation, handed to the audit trail in one write by `flush()`
/// (one append and one fsync per release, not per signature). Shared by copies of a `TenantKeys`.
public final class SignatureJournal: @unchecked Sendable {
    private let lock = NSLock()
    private var pending: [SignatureRecord] = []
    private let sink: (@Sendable ([SignatureRecord]) throws -> Void)?

    public init(sink: (@Sendable ([SignatureRecord]) throws -> Void)?) {
        self.sink = sink
    }

    func add(_ record: SignatureRecord) {
        lock.lock()
        pending.append(record)
        lock.unlock()
    }

    /// Writes the signatures noted since the last flush.
    public func flush() throws {
        lock.lock()
        let records = pending
        pending = []
        lock.unlock()
        guard !records.isEmpty else { return }
        try sink?(records)
    }
}

/// One signature made: what the audit trail records.
public struct SignatureRecord: Sendable, Equatable {
    /// `root`, `targets`, `snapshot`, `timestamp` or a delegated role's name.
    public var role: String
    public var version: Int
    /// The file the metadata is published as (`3.targets.json`, `timestamp.json`).
    public var file: String
    public var keyID: String
    /// SHA-256 of the canonical bytes of `signed` (what the signature covers).
    public var signedSHA256: String
    /// The signer's URI, without secrets.
    public var signer: String

    public init(role: String, version: Int, file: String, keyID: String, signedSHA256: String, signer: String) {
        self.role = role
        self.version = version
        self.file = file
        self.keyID = keyID
        self.signedSHA256 = signedSHA256
        self.signer = signer
    }
}

extension TenantKeys {
    /// Signs `envelope` with each of `signers` and notes each signature in the journal.
    public func sign(_ envelope: inout SignedMetadata, with signers: [any MetadataSigner], role: String, file: String) throws {
        let digest = SHA256.hash(data: try CanonicalJSON.encode(envelope.signed)).hexString
        for signer in signers {
            let keyID = try envelope.sign(with: signer)
            journal.add(SignatureRecord(role: role, version: envelope.version ?? 0, file: file, keyID: keyID,
                                             signedSHA256: digest, signer: signer.uri))
        }
    }
}

/// A folder of signing keys, one sub-folder per tenant, kept outside `Output/`. A tenant folder
/// holds either `keys.yaml` (which key URIs sign each role: files here or elsewhere, PKCS#11
/// tokens) or, without it, one key file per role (`<role>.key`: development keys and stores made
/// before keys.yaml). Files are written with mode 0600 in folders with mode 0700, and key bytes are
/// never printed. A tenant's keys sign only that tenant's release.
public final class KeyStore: Sendable {
    public let root: URL

    public init(root: URL) {
        self.root = root
    }

    public func folder(for tenant: String) -> URL { root.appendingPathComponent(tenant, isDirectory: true) }
    public func configurationFile(for tenant: String) -> URL { folder(for: tenant).appendingPathComponent(KeyConfiguration.fileName, isDirectory: false) }
    /// The tenant's first root before the first build publishes it.
    public func initialRootFile(for tenant: String) -> URL { folder(for: tenant).appendingPathComponent("1.root.json", isDirectory: false) }

    /// Whether the store has anything for `tenant`: a `keys.yaml` (even one naming keys elsewhere), or a key file of a role.
    public func hasKeys(for tenant: String) -> Bool {
        FileManager.default.fileExists(atPath: configurationFile(for: tenant).path) || ((try? configuration(for: tenant)) ?? nil) != nil
    }

    /// The tenant's key configuration: `keys.yaml`, or the one-file-per-role layout without it.
    public func configuration(for tenant: String) throws -> KeyConfiguration? {
        let file = configurationFile(for: tenant)
        if FileManager.default.fileExists(atPath: file.path) { return try KeyConfiguration.load(file) }
        let folder = folder(for: tenant)
        var roles: [TUFRole: [KeyReference]] = [:]
        for role in TUFRole.allCases where FileManager.default.fileExists(atPath: folder.appendingPathComponent("\(role.rawValue).key", isDirectory: false).path) {
            roles[role] = [.file(path: "\(role.rawValue).key", passphrase: nil)]
        }
        return roles.isEmpty ? nil : KeyConfiguration(roles: roles)
    }

    /// The tenant's keys, opened lazily. When it has none and `create` is set, development keys
    /// are made and `warn` is told loudly that they are for development only
    /// (`developmentKeysWarning`), unless `created` is given: then `created` is told the tenant
    /// instead, and the caller warns once for every tenant it made keys for (a build of many tenants).
    ///
    /// `flushedBy`: a folder whose file system the caller flushes whole (`syncfs`) after this returns
    /// and before anything signed with new keys can become live (a build's output: `Publisher.makeDurable`
    /// before its switches). New development keys on that same file system, and the audit lines of
    /// the signatures made with the keys, are then left to that flush; otherwise (nil, or another
    /// file system) they are flushed here and by each append (see `createDevelopmentKeys`).
    public func keys(for tenant: String, create: Bool, flushedBy: URL? = nil, warn: (String) -> Void,
                     created: ((String) -> Void)? = nil) throws -> TenantKeys {
        let folder = folder(for: tenant)
        // A tenant without a folder has no keys, no configuration and no rotation under way: one stat
        // instead of one per file looked for (a first build of many tenants asks this of each).
        let hasFolder = FileManager.default.fileExists(atPath: folder.path)
        for role in TUFRole.allCases where hasFolder && FileManager.default.fileExists(atPath: folder.appendingPathComponent("\(role.rawValue).key.new", isDirectory: false).path) {
            throw KeyStoreError(.interruptedRotation, tenant,
                                "a rotation of the \(role.rawValue) key of '\(tenant)' was interrupted: if the newest root in Output/\(tenant)/metadata lists "
                                + "the key in \(role.rawValue).key.new, rename that file to \(role.rawValue).key; otherwise delete it")
        }
        guard let configuration = hasFolder ? try self.configuration(for: tenant) : nil else {
            guard create else {
                throw KeyStoreError(.noKeys, tenant, "tenant '\(tenant)' has no keys in \(folder.path); create keys with `livery keys init \(tenant)`")
            }
            let keys = try createDevelopmentKeys(for: tenant, flushedBy: flushedBy)
            if let created { created(tenant) } else { warn(developmentKeysWarning(tenants: [tenant])) }
            return keys
        }
        var keys = TenantKeys(signers: [:], delegations: try delegations(for: tenant))
        for (role, references) in configuration.roles {
            for reference in references {
                if let file = reference.fileURL(relativeTo: folder), !FileManager.default.fileExists(atPath: file.path) {
                    keys.away[role, default: []].append(reference.description)
                    continue
                }
                keys.signers[role, default: []].append(signer(reference, tenant: tenant))
            }
        }
        keys.mayCreateRoot = !FileManager.default.fileExists(atPath: configurationFile(for: tenant).path)
        keys.initialRoot = try? Data(contentsOf: initialRootFile(for: tenant))
        // The audit lines of a build's signatures are flushed by the build's syncfs before anything
        // they record is published, when the log is on the output's file system (`flushedBy`).
        keys.journal = SignatureJournal(sink: try AuditTrail.recorder(store: self, tenant: tenant,
                                                                      flushedLater: flushedBy.map { Self.sameFileSystem(folder, $0) } ?? false))
        return keys
    }

    /// How many tenant ids a warning about many tenants' development keys names.
    public static let developmentKeysNamed = 5

    /// The warning for development keys made for `tenants` (docs/keys.md#development-keys): for one
    /// tenant, its key folder and the command that makes real keys; for several, one warning (not three
    /// lines per tenant: a first build of 10,000 tenants printed 30,000) with their number, the key
    /// store's folder, the first few ids, and the same advice.
    public func developmentKeysWarning(tenants: [String]) -> String {
        let tenants = tenants.sorted()
        guard tenants.count > 1 else {
            let tenant = tenants.first ?? ""
            return """
                WARNING: created DEVELOPMENT signing keys for '\(tenant)' in \(folder(for: tenant).path).
                WARNING: they are unprotected files on this machine, with the root key online. Do not publish
                WARNING: a real release with them; create real keys with `livery keys init \(tenant)`.
                """
        }
        let named = tenants.prefix(Self.developmentKeysNamed).map { "'\($0)'" }.joined(separator: ", ")
        let rest = tenants.count - min(tenants.count, Self.developmentKeysNamed)
        return """
            WARNING: created DEVELOPMENT signing keys for \(tenants.count) tenants in \(root.path) (a folder each): \(named)\(rest > 0 ? " and \(rest) more" : "").
            WARNING: they are unprotected files on this machine, with the root key online. Do not publish
            WARNING: a real release with them; create real keys with `livery keys init <tenant>` for each.
            """
    }

    /// A signer for `reference`, opened on first use.
    public func signer(_ reference: KeyReference, tenant: String) -> any MetadataSigner {
        let folder = folder(for: tenant)
        var readPublicKey: (@Sendable () throws -> TUFKey)?
        let file = reference.fileURL(relativeTo: folder)
        // A key file in the store's own folder is checked with its folder (mode 0700); one elsewhere by its own mode.
        let inStore = file?.deletingLastPathComponent().standardizedFileURL.path == folder.standardizedFileURL.path
        if let file {
            readPublicKey = { try KeyStore.publicKeyOfFile(file, inStore: inStore) }
        }
        return LazySigner(uri: reference.description, publicKey: readPublicKey) {
            if let file, case .file(_, let passphrase) = reference {
                return try KeyStore.readKeyFile(file, uri: reference.description, passphrase: passphrase, inStore: inStore)
            }
            return try KeyStore.openKey(reference, relativeTo: folder)
        }
    }

    /// Opens a key: reads a key file (asking for its passphrase when it is encrypted) or finds a key in a PKCS#11 token.
    public static func openKey(_ reference: KeyReference, relativeTo folder: URL) throws -> any MetadataSigner {
        switch reference {
        case .file(_, let passphrase):
            let file = reference.fileURL(relativeTo: folder)!
            return try readKeyFile(file, uri: reference.description, passphrase: passphrase)
        case .pkcs11(let uri):
            return try openPKCS11(uri)
        }
    }

    /// Reads a key file (checked like ssh does: a regular file only its owner can read, in a folder
    /// only its owner can enter); an encrypted one asks `passphrase` (default: the terminal).
    static func readKeyFile(_ file: URL, uri: String, passphrase: SecretSource?, inStore: Bool = false) throws -> any MetadataSigner {
        try KeyFile.read(file, uri: uri, checkingFolder: inStore) { try (passphrase ?? .prompt).read(what: "the passphrase of \(file.path)") }
    }

    /// The public key of a key file, without its passphrase (an encrypted file keeps it in the clear).
    static func publicKeyOfFile(_ file: URL, inStore: Bool = false) throws -> TUFKey {
        try KeyFile.publicKey(file, checkingFolder: inStore)
    }

    static func openPKCS11(_ uri: String) throws -> any MetadataSigner {
        do {
            let signer = try PKCS11Signer(uri: try PKCS11URI(parsing: uri))
            _ = try signer.publicKey()
            return signer
        } catch let error as PKCS11URIError {
            // The URI's own error does not say which URI; the message does (cut short: a URI can carry a long query).
            throw KeyStoreError(.unusableKey, String(uri.prefix(200)), "\(uri.prefix(200)): \(error.description)")
        }
    }

    /// Makes a tenant's development keys (a build signing a tenant that has no keys).
    ///
    /// Durability: the four key files are written without a flush each (an `fsync` of each file and
    /// of the folder after each was eight flushes per tenant). The guarantee that matters is that a key
    /// reaches the disk before anything signed with it can become live, else a power cut could leave a
    /// published root trusting a key that no longer exists. It holds either way:
    /// - when the key folder is on the file system of `flushedBy` (a build's output, the usual case),
    ///   the build's one `syncfs` of that file system (`Publisher.makeDurable`), which it makes after
    ///   every tenant's release is staged and signed, so after these files were written, and before
    ///   its first switch, flushes them with everything else;
    /// - otherwise they are flushed here, once (`KeyFile.makeDurable`: one `syncfs` of the key
    ///   store's file system on Linux), before this function returns, so before anything is signed.
    /// A power cut before that flush leaves no release signed with the new keys live; it may leave
    /// some key files missing or empty, which the next build reports by name (a key file that is not
    /// a key) rather than using. Keys a person makes (`livery keys init`, `keys generate`, rotations,
    /// ceremonies) keep a flush per file and folder.
    private func createDevelopmentKeys(for tenant: String, flushedBy: URL?) throws -> TenantKeys {
        let folder = folder(for: tenant)
        try WriteFailure.writing(folder.path) { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]) }
        chmod(root.path, 0o700)
        var keys: [TUFRole: Curve25519.Signing.PrivateKey] = [:]
        var files: [URL] = []
        // All of a tenant's development keys or none: keys half made (a full disk after the root key) would read as a
        // store with keys away, and the next build would not make them again. None of them has signed anything yet.
        var complete = false
        defer { if !complete { for file in files { unlink(file.path) } } }
        for role in TUFRole.allCases {
            let key = Curve25519.Signing.PrivateKey()
            let file = folder.appendingPathComponent("\(role.rawValue).key", isDirectory: false)
            try KeyFile.write(ed25519: key, to: file, passphrase: nil, durability: .byCaller)
            files.append(file)
            keys[role] = key
        }
        complete = true
        let flushedLater = flushedBy.map { Self.sameFileSystem(folder, $0) } ?? false
        if !flushedLater {
            try KeyFile.makeDurable(folder: folder, files: files)
        }
        var made = TenantKeys(signers: [:])
        for role in TUFRole.allCases { made.signers[role] = [Ed25519Signer(keys[role]!, uri: "file:\(role.rawValue).key")] }
        made.mayCreateRoot = true
        made.journal = SignatureJournal(sink: try AuditTrail.recorder(store: self, tenant: tenant, flushedLater: flushedLater))
        return made
    }

    /// Whether two existing paths are on the same file system (same device); false when either cannot be read.
    static func sameFileSystem(_ a: URL, _ b: URL) -> Bool {
        var first = stat(), second = stat()
        guard stat(a.path, &first) == 0, stat(b.path, &second) == 0 else { return false }
        return first.st_dev == second.st_dev
    }

    /// Writes a private key file that only its owner can read, refusing to replace an existing one;
    /// encrypted when a passphrase is given.
    func write(_ key: Curve25519.Signing.PrivateKey, to file: URL, passphrase: String? = nil) throws {
        try KeyFile.write(ed25519: key, to: file, passphrase: passphrase)
    }

    /// `<store>/<tenant>/content.key`: the secret every content key of the tenant's encrypted bundles
    /// derives from (`ContentSecret`). Voucher servers need it (and nothing else from this folder).
    public func contentSecretFile(for tenant: String) -> URL { folder(for: tenant).appendingPathComponent("content.key", isDirectory: false) }

    /// The tenant's content secret; made on first use when `create` is set (it protects content, it
    /// signs nothing, so a new one only means that the next build encrypts with new keys).
    public func contentSecret(for tenant: String, create: Bool) throws -> ContentSecret? {
        let file = contentSecretFile(for: tenant)
        if let text = try? String(contentsOf: file, encoding: .utf8) {
            guard let raw = Data(hex: text.trimmingCharacters(in: .whitespacesAndNewlines)), let secret = ContentSecret(raw: raw) else {
                throw KeyStoreError(.contentSecret, file.path, "\(file.path) is not a content secret (64 hexadecimal digits)")
            }
            return secret
        }
        guard create else { return nil }
        let tenantFolder = folder(for: tenant)
        try WriteFailure.writing(tenantFolder.path) {
            try FileManager.default.createDirectory(at: tenantFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        chmod(root.path, 0o700)
        let secret = ContentSecret.random()
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor < 0 && errno == EEXIST { return try contentSecret(for: tenant, create: false) }  // made meanwhile by another build thread
        guard descriptor >= 0 else {
            let code = errno
            throw WriteFailure.storage(errno: code, path: file.path) ?? WriteFailure(errno: code, path: file.path, operation: .create)
        }
        defer { close(descriptor) }
        do {
            try FileWriting.writeAll(Data((secret.rawRepresentation.hexString + "\n").utf8), to: descriptor, path: file.path)
        } catch {
            // A half-written secret would be read as no secret at all by the next build: none is better.
            unlink(file.path)
            throw error
        }
        return secret
    }
}
