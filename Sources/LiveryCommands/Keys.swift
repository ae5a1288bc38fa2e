import ArgumentParser
import Crypto
import Foundation
import LiveryPublish
import LiverySign
import LiveryReleaseFormat

struct Keys: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Manage each tenant's signing keys: create, list, rotate, delegate, and change a root in a ceremony.",
        discussion: """
            Keys live in a key store (default .livery-keys/, one folder per tenant, files with mode 0600), \
            never under Output/; keys.yaml says which key (a file, or a PKCS#11 token key) signs which role. \
            `livery build` creates development keys on first use, with a warning. See docs/keys.md.
            """,
        subcommands: [Init.self, List.self, Rotate.self, Delegate.self, Generate.self, ProposeRoot.self, SignRoot.self, FinishRoot.self, Encrypt.self, Decrypt.self, Audit.self]
    )

    struct Options: ParsableArguments {
        @Option(help: "The key store folder.")
        var keys = ".livery-keys"

        @Option(name: .shortAndLong, help: "The output folder (to compare keys with published roots).")
        var output = "Output"

        var store: KeyStore { KeyStore(root: URL(fileURLWithPath: keys)) }
    }

    struct Init: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "init",
            abstract: "Create a tenant's keys and its first root.",
            discussion: """
                Each role gets one new key file, or --root-keys/--targets-keys files with a threshold, or the keys named by \
                --key ROLE=URI (a PKCS#11 token key: pkcs11:…, or an existing key file: file:PATH). The first root \
                (1.root.json, kept in the tenant's key folder until the first build publishes it) is signed here by every root \
                key, and keys.yaml records which URI signs which role. After this, move root keys to their holders \
                (docs/keys.md#keeping-the-root-keys-offline).
                """)

        @Argument(help: "The tenant id.")
        var tenant: String

        @Option(help: "How many root keys to create.")
        var rootKeys = 1

        @Option(help: "How many root keys must sign a new root.")
        var rootThreshold = 1

        @Option(help: "How many targets keys to create.")
        var targetsKeys = 1

        @Option(help: "How many targets keys must sign the targets metadata.")
        var targetsThreshold = 1

        @Option(name: .customLong("key"), help: "ROLE=URI: use this key for the role instead of creating a file (repeatable; pkcs11:… or file:PATH).")
        var keyURIs: [String] = []

        @Flag(help: "Encrypt the new key files with a passphrase (scrypt and AES-256-GCM).")
        var encrypt = false

        @Option(help: "With --encrypt: where the passphrase comes from (env:NAME, file:PATH, fd:N, or prompt, the default). An env: or file: source is recorded in keys.yaml.")
        var passphraseSource: String?

        @OptionGroup var options: Options

        func validate() throws {
            guard tenant.range(of: "^[a-z0-9]+(-[a-z0-9]+)*$", options: .regularExpression) != nil else { throw ValidationError("'\(tenant)' is not a tenant id (a slug)") }
            for (count, threshold, role) in [(rootKeys, rootThreshold, "root"), (targetsKeys, targetsThreshold, "targets")] {
                guard (1...20).contains(count) else { throw ValidationError("--\(role)-keys must be between 1 and 20") }
                guard threshold >= 1 else { throw ValidationError("--\(role)-threshold must be at least 1") }
            }
        }

        func run() throws {
            let given = try KeyOptions.roleURIs(keyURIs, relativeTo: FileManager.default.currentDirectoryPath)
            var counts: [TUFRole: Int] = [.root: rootKeys, .targets: targetsKeys, .snapshot: 1, .timestamp: 1]
            for (role, list) in given { counts[role] = list.count }
            for (role, threshold) in [(TUFRole.root, rootThreshold), (.targets, targetsThreshold)] where threshold > counts[role]! {
                throw Livery.Failure("the \(role.rawValue) threshold is \(threshold) but the role has \(counts[role]!) key\(counts[role]! == 1 ? "" : "s")")
            }
            let passphrase = encrypt ? try KeyOptions.newPassphrase(passphraseSource, for: "the keys of '\(tenant)'") : nil
            let made = try options.store.initialize(tenant: tenant, given: given, counts: counts,
                                                    thresholds: [.root: rootThreshold, .targets: targetsThreshold],
                                                    passphrase: passphrase, passphraseSource: KeyOptions.recordedSource(passphraseSource))
            for role in TUFRole.allCases {
                for (uri, id) in made[role] ?? [] { print("\(tenant) \(role.rawValue): key \(id)  \(uri)") }
            }
            print("keys written to \(options.store.folder(for: tenant).path) (mode 0600), with keys.yaml and the first root (1.root.json); "
                  + "move the root keys to their holders (docs/keys.md#keeping-the-root-keys-offline)")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List each tenant's keys: where each is, its id, and whether the published root trusts it.")

        @Argument(help: "The tenants whose keys to list (default: every tenant of the key store).")
        var tenants: [String] = []

        @OptionGroup var options: Options

        func run() throws {
            let root = options.store.root
            let stored = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
            // Named tenants must all be there: a typo lists nothing, and would read as "no keys" for a tenant that has them.
            let missing = tenants.filter { !stored.contains($0) }
            if !missing.isEmpty {
                throw Livery.Failure("no keys for \(missing.map { "'\($0)'" }.joined(separator: ", ")) in \(root.path)"
                                     + (stored.isEmpty ? " (it holds none)" : " (it holds keys for \(stored.joined(separator: ", ")))"))
            }
            let tenants = self.tenants.isEmpty ? stored : Array(Set(self.tenants)).sorted()
            if tenants.isEmpty { print("no keys in \(root.path)") }
            let output = URL(fileURLWithPath: options.output)
            for tenant in tenants {
                let keys: TenantKeys
                do { keys = try options.store.keys(for: tenant, create: false, warn: { _ in }) } catch {
                    print("\(tenant): incomplete key set: \(error)")
                    continue
                }
                let published = try? RootPublisher.current(tenant: tenant, output: output, store: options.store)
                // Ids recorded in keys.yaml tell whether a key that is away is trusted, without its file.
                let recorded = (try? options.store.configuration(for: tenant))?.keyIDs ?? [:]
                let pad = { (role: String) in role.padding(toLength: 9, withPad: " ", startingAt: 0) }
                for role in TUFRole.allCases {
                    if let published, let listed = published.signed.roles[role] {
                        print("\(tenant)  \(pad(role.rawValue))  root v\(published.signed.version) trusts \(listed.keyIDs.count) key\(listed.keyIDs.count == 1 ? "" : "s"), threshold \(listed.threshold)")
                    }
                    let signers = keys.signers[role] ?? []
                    if signers.isEmpty {
                        print("\(tenant)  \(pad(role.rawValue))  (not in the key store: kept offline?)")
                    }
                    for signer in signers {
                        var state = "no published release"
                        let id: String
                        do { id = try signer.publicKey().keyID } catch {
                            print("\(tenant)  \(pad(role.rawValue))  (cannot be opened: \(error))  \(signer.uri)")
                            continue
                        }
                        if let published {
                            let trusted = published.signed.roles[role]?.keyIDs ?? []
                            state = trusted.contains(id) ? "trusted by root v\(published.signed.version)" : "NOT trusted by root v\(published.signed.version)"
                        }
                        print("\(tenant)  \(pad(role.rawValue))  \(id)  \(state)  \(signer.uri)")
                    }
                    for uri in keys.away[role] ?? [] {
                        guard let id = recorded[uri] else {
                            print("\(tenant)  \(pad(role.rawValue))  (not on this machine: kept offline?)  \(uri)")
                            continue
                        }
                        let trusted = published.map { ($0.signed.roles[role]?.keyIDs ?? []).contains(id) ? ", trusted by root v\($0.signed.version)" : ", NOT trusted by root v\($0.signed.version)" } ?? ""
                        print("\(tenant)  \(pad(role.rawValue))  \(id)  not on this machine\(trusted)  \(uri)")
                    }
                }
                // Delegated roles: whether the published targets delegate to this key, and what it may sign.
                let metadata = output.appendingPathComponent("\(tenant)/metadata")
                let delegations = PublishedMetadata.read(release: metadata.deletingLastPathComponent())?.targets.signed.delegations
                for delegation in keys.delegations {
                    let id = delegation.publicKey.keyID
                    var state = "not published yet"
                    if let published = delegations?.roles.first(where: { $0.name == delegation.name }) {
                        state = published.keyIDs.contains(id) ? "delegated" : "NOT the published key"
                    }
                    if delegation.signer == nil { state += "; key kept elsewhere" }
                    print("\(tenant)  delegated \(delegation.name)  \(id)  \(state); signs \(delegation.paths.joined(separator: " "))")
                }
            }
        }
    }

    struct Rotate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rotate",
            abstract: "Replace one role's keys by one new key file, publishing a new root signed by the current and new root keys.",
            discussion: """
                Needs a threshold of the current root keys on this machine; without them, change the root in a ceremony \
                (`livery keys propose-root`). Clients that trust the previous root walk to the new one; the old key file is kept \
                as <file>.retired-<n>.
                """)

        @Argument(help: "The tenant id.")
        var tenant: String

        @Argument(help: "The role: root, targets, snapshot or timestamp.")
        var role: String

        @OptionGroup var options: Options

        func run() throws {
            guard let role = TUFRole(rawValue: role) else { throw ValidationError("role must be root, targets, snapshot or timestamp") }
            let output = URL(fileURLWithPath: options.output)
            let store = options.store
            let lock = try OutputLock(output: output) { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
            defer { withExtendedLifetime(lock) {} }
            let keys = try store.keys(for: tenant, create: false, warn: { _ in })
            guard let current = try RootPublisher.current(tenant: tenant, output: output, store: store) else {
                throw Livery.Failure("'\(tenant)' has no root yet: create keys with `livery keys init \(tenant)`")
            }
            try KeyOptions.checkRootKeysPresent(keys, current: current)
            let newKey = Curve25519.Signing.PrivateKey()
            let pending = try store.stageRotation(newKey, for: role, tenant: tenant)
            var rotated = keys
            rotated.signers[role] = [pending.signer]
            let outcome: RootPublisher.Outcome
            do {
                let root = try KeyRotation.rotatedRoot(current: current, role: role, newSigner: pending.signer, keys: keys)
                outcome = try RootPublisher.publish(root, tenant: tenant, output: output, store: store, keys: rotated)
            } catch {
                // Nothing published trusts the new key: forget it.
                store.abandonRotation(pending, tenant: tenant)
                throw error
            }
            // A published root trusts the new key from here on: keep it, even if a channel failed.
            try store.completeRotation(pending, for: role, tenant: tenant)
            if !outcome.failed.isEmpty {
                throw Livery.Failure("\(tenant): the \(role.rawValue) key was rotated, but these channels still have the old root and cannot be signed until "
                                     + "they get the new one (copy the newest N.root.json of the stable channel into their metadata/ and run "
                                     + "`livery timestamp refresh`):\n" + outcome.failed.map { "\($0.channel.name): \($0.error)" }.joined(separator: "\n"))
            }
            print("\(tenant): \(role.rawValue) key rotated to \(TUFKey(newKey.publicKey).keyID); new root published")
        }
    }

    struct Delegate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delegate",
            abstract: "Give a creator their own key for their own content: a delegated targets role limited to some target paths.",
            discussion: """
                The tenant's targets role delegates the bundles whose target names match the paths (by default the creator's \
                content: program.*, library.*, library-item.*, tour.*) to a role with its own key, kept in \
                <keys>/<tenant>/delegations/<name>.key; the core, locale bundles and the download manifest stay with the \
                platform's keys. Clients (python-tuf, livery fetch) accept those bundles only when signed by that key. When \
                the tenant has a published release, it is signed again at once; otherwise the next build publishes the role. \
                Running it again for the same role changes its paths and keeps its key; --remove ends the delegation.
                """)

        @Argument(help: "The tenant id.")
        var tenant: String

        @Argument(help: "The delegated role's name (a slug; default: the tenant id).")
        var name: String?

        @Option(help: "A target path pattern the role may sign, such as 'program.*': letters, digits, '.', '_', '-', '/' and the wildcards '*' and '?' (repeatable; default: the creator's content).")
        var path: [String] = []

        @Flag(help: "End the delegation: the role's bundles go back to the tenant's targets role.")
        var remove = false

        @OptionGroup var options: Options

        func validate() throws {
            guard tenant.range(of: "^[a-z0-9]+(-[a-z0-9]+)*$", options: .regularExpression) != nil else { throw ValidationError("'\(tenant)' is not a tenant id (a slug)") }
            if remove && !path.isEmpty { throw ValidationError("--remove takes no --path") }
        }

        func run() throws {
            let role = name ?? tenant
            let output = URL(fileURLWithPath: options.output)
            let lock = try OutputLock(output: output) { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
            defer { withExtendedLifetime(lock) {} }
            let store = options.store
            // The tenant's own keys must exist first: a delegation is granted by its targets key.
            _ = try store.keys(for: tenant, create: false, warn: { _ in })
            if remove {
                try store.removeDelegation(tenant: tenant, name: role)
            } else {
                let key = try store.delegate(tenant: tenant, name: role, paths: path.isEmpty ? DelegationKey.contentPaths : path)
                print("\(tenant): delegated role '\(role)' (key \(key.publicKey.keyID)) signs \(key.paths.joined(separator: ", "))")
            }
            let keys = try store.keys(for: tenant, create: false, warn: { _ in })
            var signed = false
            // Every channel's release is signed again: the delegation holds for all of them.
            for channel in Publisher.channels(tenant: tenant, output: output) {
                let release = channel.repository(in: output.appendingPathComponent(tenant))
                guard let published = try PublishedMetadata.load(release: release) else { continue }
                try Publisher.amend(tenant: tenant, channel: channel, output: output) { folder in
                    try RepositorySigner.sign(release: folder, targets: try published.signedTargets, keys: keys)
                }
                let version = PublishedMetadata.read(release: release)?.targets.signed.version ?? 0
                let on = channel.isStable ? "" : " on \(channel.name)"
                print("\(tenant): release\(on) signed again (targets version \(version))\(remove ? "; '\(role)' no longer delegated" : "")")
                signed = true
            }
            if !signed { print("\(tenant): no signed release yet; the next `livery build` publishes the delegation") }
        }
    }
}
