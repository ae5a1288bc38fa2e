import ArgumentParser
import Crypto
import Foundation
import LiveryPublish
import LiverySign
import LiveryStorage
import LiveryReleaseFormat

/// Parsing and checks shared by the key commands.
enum KeyOptions {
    /// `ROLE=URI` options, by role, in the order given. A relative `file:` path is made absolute
    /// against `folder` (the current folder), since keys.yaml reads relative paths against the tenant's key folder.
    static func roleURIs(_ values: [String], relativeTo folder: String) throws -> [TUFRole: [KeyReference]] {
        var roles: [TUFRole: [KeyReference]] = [:]
        for value in values {
            let parts = value.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let role = TUFRole(rawValue: parts[0]) else {
                throw ValidationError("'\(value)' is not ROLE=URI (role: root, targets, snapshot or timestamp)")
            }
            roles[role, default: []].append(try reference(parts[1], relativeTo: folder))
        }
        return roles
    }

    static func reference(_ text: String, relativeTo folder: String) throws -> KeyReference {
        let parsed: KeyReference
        do { parsed = try KeyReference(parsing: text) } catch let error as KeyConfigurationError {
            throw ValidationError(error.description)
        } catch let error as SecretSourceError {
            throw ValidationError(error.description)
        }
        if case .file(let path, let passphrase) = parsed, !path.hasPrefix("/") {
            return .file(path: URL(fileURLWithPath: folder).appendingPathComponent(path).standardizedFileURL.path, passphrase: passphrase)
        }
        return parsed
    }

    /// `keys rotate` needs root keys the current root trusts on this machine.
    static func checkRootKeysPresent(_ keys: TenantKeys, current: Metadata<Root>) throws {
        let signers = keys.signers[.root] ?? []
        guard !signers.isEmpty else {
            throw Livery.Failure("the root key is not in the key store (kept offline?): bring it back to rotate keys, or change the root in a ceremony (`livery keys propose-root`)")
        }
        let trusted = current.signed.roles[.root]?.keyIDs ?? []
        guard signers.contains(where: { (try? $0.publicKey().keyID).map(trusted.contains) == true }) else {
            throw Livery.Failure("the root key in the key store is not one the published root (version \(current.signed.version)) trusts: wrong --keys folder?")
        }
    }

    /// Writes `data` to `file` through a new file renamed over it.
    static func replace(_ file: URL, with data: Data) throws {
        try AtomicFile.write(data, to: file, mode: 0o644, durable: true)
    }
}

extension Keys {
    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "generate",
            abstract: "Create one key file (a key holder's own key), and its public key as FILE.pub.",
            discussion: "The public key file is what a holder hands over for `livery keys propose-root --key root=file:FILE.pub`; the key file stays with them.")

        @Argument(help: "The key file to create (never replaced).")
        var file: String

        @Option(help: "The key type: ed25519 or ecdsa (P-256, ecdsa-sha2-nistp256).")
        var type = "ed25519"

        @Flag(help: "Encrypt the key file with a passphrase (scrypt and AES-256-GCM).")
        var encrypt = false

        @Option(help: "With --encrypt: where the passphrase comes from (env:NAME, file:PATH, fd:N, or prompt, the default).")
        var passphraseSource: String?

        func validate() throws {
            guard ["ed25519", "ecdsa"].contains(type) else { throw ValidationError("--type must be ed25519 or ecdsa") }
        }

        func run() throws {
            let url = URL(fileURLWithPath: file)
            let passphrase = encrypt ? try KeyOptions.newPassphrase(passphraseSource, for: file) : nil
            let publicKey: TUFKey
            if type == "ecdsa" {
                let key = P256.Signing.PrivateKey()
                try KeyFiles.create(key, at: url, passphrase: passphrase)
                publicKey = TUFKey(key.publicKey)
            } else {
                let key = Curve25519.Signing.PrivateKey()
                try KeyFiles.create(key, at: url, passphrase: passphrase)
                publicKey = TUFKey(key.publicKey)
            }
            try KeyFiles.writePublic(publicKey, to: URL(fileURLWithPath: file + ".pub"))
            print("key \(publicKey.keyID) written to \(url.path) (mode 0600); its public key to \(url.path).pub")
        }
    }

    struct ProposeRoot: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "propose-root",
            abstract: "Write a tenant's next root, unsigned, for a root ceremony (new keys, new thresholds, or both).",
            discussion: """
                Each --key ROLE=URI names a key of the role in the new root; a role named this way gets exactly the keys \
                named (file:PATH of a key or of a public key file from `livery keys generate`, or pkcs11:…). Roles not named \
                keep their published keys. The proposal goes to the holders: `livery keys sign FILE --key URI` on each \
                holder's machine, then `livery keys finish-root TENANT FILE…`. Keys named here that this machine holds are \
                (online roles only) are added to keys.yaml, to sign once the new root is published.
                """)

        @Argument(help: "The tenant id.")
        var tenant: String

        @Option(name: .customLong("key"), help: "ROLE=URI: a key of the role in the new root (repeatable).")
        var keyURIs: [String] = []

        @Option(name: .customLong("threshold"), help: "ROLE=N: the role's threshold in the new root (repeatable).")
        var thresholdValues: [String] = []

        @Option(name: .customLong("file"), help: "Where to write the proposal (default: <tenant>.root-v<N>.json here).")
        var proposalFile: String?

        @OptionGroup var options: Options

        func run() throws {
            let output = URL(fileURLWithPath: options.output)
            let store = options.store
            let given = try KeyOptions.roleURIs(keyURIs, relativeTo: FileManager.default.currentDirectoryPath)
            var thresholds: [TUFRole: Int] = [:]
            for value in thresholdValues {
                let parts = value.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, let role = TUFRole(rawValue: parts[0]), let n = Int(parts[1]) else {
                    throw ValidationError("'\(value)' is not ROLE=N (role: root, targets, snapshot or timestamp)")
                }
                thresholds[role] = n
            }
            let current = try RootPublisher.current(tenant: tenant, output: output, store: store)
            var change = RootCeremony.Change(thresholds: thresholds)
            var local: [TUFRole: [(reference: KeyReference, keyID: String)]] = [:]
            for (role, references) in given {
                for reference in references {
                    let (publicKey, isPrivate) = try KeyFiles.publicKey(of: reference)
                    change.keys[role, default: []].append(publicKey)
                    // Online keys this machine holds sign once the new root trusts them. Root keys are never
                    // added: they stay with their holders and sign only in ceremonies.
                    if isPrivate && role != .root { local[role, default: []].append((reference, publicKey.keyID)) }
                }
            }
            let proposal = try RootCeremony.propose(after: current?.signed, change: change)
            let root = try Root(signed: proposal.signed)
            let file = URL(fileURLWithPath: proposalFile ?? "\(tenant).root-v\(root.version).json")
            guard !FileManager.default.fileExists(atPath: file.path) else { throw Livery.Failure("\(file.path) exists: remove it or give another --file") }
            try WriteFailure.writing(file.path) { try proposal.bytes().write(to: file) }
            // Keys this machine holds sign once the new root trusts them (an untrusted key in keys.yaml is never used).
            let configFile = store.configurationFile(for: tenant)
            // A store with one file per role (development keys) gets its keys.yaml now: it is about to hold other kinds of
            // keys. So does a tenant with no keys yet (a first root made in a ceremony): its build must find these keys,
            // not make development ones.
            if !local.isEmpty, !FileManager.default.fileExists(atPath: configFile.path) {
                try FileManager.default.createDirectory(at: store.folder(for: tenant), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                try (try store.configuration(for: tenant) ?? KeyConfiguration(roles: [:])).write(to: configFile)
            }
            if !local.isEmpty, FileManager.default.fileExists(atPath: configFile.path) {
                var configuration = try KeyConfiguration.load(configFile)
                let folder = store.folder(for: tenant)
                for (role, references) in local {
                    let listed = (configuration.roles[role] ?? []).map { $0.fileURL(relativeTo: folder)?.standardizedFileURL.path ?? $0.description }
                    for (reference, keyID) in references where !listed.contains(reference.fileURL(relativeTo: folder)?.standardizedFileURL.path ?? reference.description) {
                        configuration.add(reference, for: role, keyID: keyID)
                    }
                }
                try configuration.write(to: configFile)
            }
            print("\(tenant): root version \(root.version) proposed in \(file.path)")
            for role in TUFRole.allCases {
                let listed = root.roles[role]!
                let was = current?.signed.roles[role]
                let changed = was.map { Set($0.keyIDs) != Set(listed.keyIDs) || $0.threshold != listed.threshold } ?? true
                print("  \(role.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) \(listed.threshold) of \(listed.keyIDs.count): "
                      + listed.keyIDs.map { String($0.prefix(12)) }.joined(separator: " ") + (changed ? "  (changed)" : ""))
            }
            if let current, let old = current.signed.roles[.root] {
                print("needs \(old.threshold) signature\(old.threshold == 1 ? "" : "s") by the root keys of version \(current.signed.version) (\(old.keyIDs.map { String($0.prefix(12)) }.joined(separator: " "))) "
                      + "and \(root.roles[.root]!.threshold) by the new root keys")
            } else {
                print("needs \(root.roles[.root]!.threshold) signature\(root.roles[.root]!.threshold == 1 ? "" : "s") by its root keys")
            }
            print("next: each holder runs `livery keys sign \(file.lastPathComponent) --key URI`; then `livery keys finish-root \(tenant) FILE…`")
        }
    }

    struct SignRoot: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sign",
            abstract: "Add one signature to a proposed root, with a key this machine holds (a file or a PKCS#11 token).",
            discussion: "The file is changed in place; signatures already in it are kept. Needs no key store and no release: run it where the key is.")

        @Argument(help: "The proposed root (from `livery keys propose-root`).")
        var file: String

        @Option(name: .customLong("key"), help: "The key: file:PATH[?passphrase-source=…] or pkcs11:…")
        var keyURI: String

        @Option(help: "Record the signature in this tenant's audit log of the key store (default: the tenant named by the file, <tenant>.root-v<N>.json, when the store has it).")
        var tenant: String?

        @Option(help: "The key store folder (for the audit log).")
        var keys = ".livery-keys"

        func run() throws {
            let url = URL(fileURLWithPath: file)
            let reference = try KeyOptions.reference(keyURI, relativeTo: FileManager.default.currentDirectoryPath)
            let signer = try KeyStore.openKey(reference, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            guard let data = FileManager.default.contents(atPath: url.path) else { throw ReadFailure(path: url.path) }
            let store = KeyStore(root: URL(fileURLWithPath: keys))
            var recordKeys = TenantKeys(signers: [:])
            let named = tenant ?? url.lastPathComponent.range(of: #"^[a-z0-9]+(-[a-z0-9]+)*(?=\.root-v[0-9]+)"#, options: .regularExpression).map { String(url.lastPathComponent[$0]) }
            if let named, FileManager.default.fileExists(atPath: store.folder(for: named).path) {
                recordKeys.journal = SignatureJournal(sink: try AuditTrail.recorder(store: store, tenant: named))
            }
            let (signed, listed) = try RootCeremony.sign(data, with: signer, keys: recordKeys)
            try KeyOptions.replace(url, with: signed)
            let root = try Metadata<Root>(data: signed)
            print("signed root version \(root.signed.version) with key \(try signer.publicKey().keyID) (\(listed ? "a root key of the proposal" : "not a root key of the proposal: it counts toward the previous root's threshold only"))")
            print("\(root.signatures.count) signature\(root.signatures.count == 1 ? "" : "s") in \(url.path)")
        }
    }

    struct FinishRoot: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "finish-root",
            abstract: "Merge the holders' signatures of a proposed root, check them against TUF's rule, and publish the root.",
            discussion: """
                The new root must carry a threshold of signatures by the root keys of the published root and a threshold by \
                its own root keys; otherwise nothing is published and the message lists the keys still missing. The root goes \
                into every channel; releases whose online keys changed are signed again with this key store's keys.
                """)

        @Argument(help: "The tenant id.")
        var tenant: String

        @Argument(help: "Signed copies of the proposal (one file, or one per holder).")
        var files: [String]

        @OptionGroup var options: Options

        func run() throws {
            let output = URL(fileURLWithPath: options.output)
            let store = options.store
            let lock = try OutputLock(output: output) { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
            defer { withExtendedLifetime(lock) {} }
            let copies = try files.map { path -> (name: String, data: Data) in
                guard let data = FileManager.default.contents(atPath: path) else { throw ReadFailure(path: path) }
                return (path, data)
            }
            let current = try RootPublisher.current(tenant: tenant, output: output, store: store)
            let merged = try RootCeremony.merge(copies)
            let root = try RootCeremony.check(merged, trusted: current)
            let keys = try? store.keys(for: tenant, create: false, warn: { _ in })
            try AuditTrail.recordCeremony(root, store: store, tenant: tenant)
            let outcome = try RootPublisher.publish(root, tenant: tenant, output: output, store: store, keys: keys)
            for (role, keys, dropped) in try store.forgetUntrustedKeys(tenant: tenant, root: root.signed) {
                let lines = keys.map { "    \($0)" }.joined(separator: "\n")
                FileHandle.standardError.write(Data(("""
                    WARNING: \(tenant): keys.yaml lists \(keys.count) \(role.rawValue) key\(keys.count == 1 ? "" : "s") that \(keys.count == 1 ? "is" : "are") not on this machine, \
                    and root version \(root.signed.version) trusts \(dropped == keys.count ? "none of them" : "at most \(keys.count - dropped) of them"): \
                    remove the line\(dropped == 1 ? "" : "s") of the dropped key\(dropped == 1 ? "" : "s") from \(store.configurationFile(for: tenant).path)
                    \(lines)\n
                    """).utf8))
            }
            if outcome.keptForFirstBuild {
                print("\(tenant): root version 1 checked and kept in \(store.initialRootFile(for: tenant).path); the first build publishes it")
            }
            for (channel, resigned) in outcome.published {
                print("\(tenant): root version \(root.signed.version) published\(channel.isStable ? "" : " on \(channel.name)")\(resigned ? "; release signed again with the new online keys" : "")")
            }
            if !outcome.failed.isEmpty {
                throw Livery.Failure("\(tenant): root version \(root.signed.version) is published, but these channels could not take it:\n"
                                     + outcome.failed.map { "\($0.channel.name): \($0.error)" }.joined(separator: "\n"))
            }
        }
    }
}
