import ArgumentParser
import Crypto
import Foundation
import LiveryPublish
import LiverySign
import LiveryTUF

struct Keys: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Manage each tenant's signing keys: create, list, rotate and delegate.",
        discussion: """
            Keys live in a key store (default .livery-keys/, one folder per tenant, files with mode 0600), \
            never under Output/. `livery build` creates development keys on first use, with a warning.
            """,
        subcommands: [Init.self, List.self, Rotate.self, Delegate.self]
    )

    struct Options: ParsableArguments {
        @Option(help: "The key store folder.")
        var keys = ".livery-keys"

        @Option(name: .shortAndLong, help: "The output folder (to compare keys with published roots).")
        var output = "Output"

        var store: KeyStore { KeyStore(root: URL(fileURLWithPath: keys)) }
    }

    struct Init: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "init", abstract: "Create a tenant's root, targets, snapshot and timestamp keys.")

        @Argument(help: "The tenant id.")
        var tenant: String

        @OptionGroup var options: Options

        func validate() throws {
            guard tenant.range(of: "^[a-z0-9]+(-[a-z0-9]+)*$", options: .regularExpression) != nil else { throw ValidationError("'\(tenant)' is not a tenant id (a slug)") }
        }

        func run() throws {
            do {
                let keys = try options.store.create(for: tenant)
                for role in TUFRole.allCases {
                    print("\(tenant) \(role.rawValue): key \(TUFKey(keys.key(role)!.publicKey).keyID)")
                }
                print("keys written to \(options.store.folder(for: tenant).path) (mode 0600); keep root.key offline after the first build")
            } catch let error as TUFError {
                throw Livery.Failure(error.description)
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List every tenant's key ids, and whether its published root trusts them.")

        @OptionGroup var options: Options

        func run() throws {
            let root = options.store.root
            let tenants = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
            if tenants.isEmpty { print("no keys in \(root.path)") }
            for tenant in tenants {
                guard let keys = try? options.store.keys(for: tenant, create: false, warn: { _ in }) else {
                    print("\(tenant): incomplete key set")
                    continue
                }
                let metadata = URL(fileURLWithPath: options.output).appendingPathComponent("\(tenant)/metadata")
                let published = RepositorySigner.latestVersion(of: .root, in: metadata).flatMap {
                    try? Metadata<Root>(data: Data(contentsOf: metadata.appendingPathComponent("\($0).root.json")))
                }
                for role in TUFRole.allCases {
                    guard let key = keys.key(role) else {
                        print("\(tenant)  \(role.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0))  (not in the key store: kept offline?)")
                        continue
                    }
                    let id = TUFKey(key.publicKey).keyID
                    var state = "no published release"
                    if let published {
                        let trusted = published.signed.roles[role]?.keyIDs ?? []
                        state = trusted.contains(id) ? "trusted by root v\(published.signed.version)" : "NOT trusted by root v\(published.signed.version)"
                    }
                    print("\(tenant)  \(role.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0))  \(id)  \(state)")
                }
                // Delegated roles: whether the published targets delegate to this key, and what it may sign.
                let delegations = PublishedMetadata.read(release: metadata.deletingLastPathComponent())?.targets.signed.delegations
                for delegation in keys.delegations {
                    let id = delegation.publicKey.keyID
                    var state = "not published yet"
                    if let published = delegations?.roles.first(where: { $0.name == delegation.name }) {
                        state = published.keyIDs.contains(id) ? "delegated" : "NOT the published key"
                    }
                    if delegation.privateKey == nil { state += "; key kept elsewhere" }
                    print("\(tenant)  delegated \(delegation.name)  \(id)  \(state); signs \(delegation.paths.joined(separator: " "))")
                }
            }
        }
    }

    struct Rotate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rotate",
            abstract: "Replace one role's key, publishing a new root version signed by the old and new root keys.",
            discussion: "Clients that trust the previous root walk to the new one; the old key file is kept as <role>.key.retired-<n>.")

        @Argument(help: "The tenant id.")
        var tenant: String

        @Argument(help: "The role: root, targets, snapshot or timestamp.")
        var role: String

        @OptionGroup var options: Options

        func run() throws {
            guard let role = TUFRole(rawValue: role) else { throw ValidationError("role must be root, targets, snapshot or timestamp") }
            let output = URL(fileURLWithPath: options.output)
            do {
                let lock = try OutputLock(output: output) { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
                defer { withExtendedLifetime(lock) {} }
                let keys = try options.store.keys(for: tenant, create: false, warn: { _ in })
                let newKey = Curve25519.Signing.PrivateKey()
                try options.store.stage(newKey, for: role, tenant: tenant)
                // Every channel gets the same new root (the first channel's bytes), so one root file serves them all.
                let channels = Publisher.channels(tenant: tenant, output: output)
                var root: Data?
                var failed: [String] = []
                for channel in channels.isEmpty ? [.stable] : channels {
                    do {
                        try Publisher.amend(tenant: tenant, channel: channel, output: output) { folder in
                            _ = try KeyRotation.rotate(role, release: folder, keys: keys, newKey: newKey, root: root)
                            if root == nil, let version = RepositorySigner.latestVersion(of: .root, in: folder.appendingPathComponent("metadata")) {
                                root = try Data(contentsOf: folder.appendingPathComponent("metadata/\(version).root.json"))
                            }
                        }
                    } catch {
                        // Nothing published trusts the new key yet: forget it.
                        guard root != nil else {
                            options.store.unstage(role, tenant: tenant)
                            throw error
                        }
                        failed.append("\(channel.name): \(error)")
                    }
                }
                // A published root trusts the new key from here on: keep it, even if a channel failed.
                try options.store.install(role, tenant: tenant)
                if !failed.isEmpty {
                    throw Livery.Failure("\(tenant): the \(role.rawValue) key was rotated, but these channels still have the old root and cannot be signed until "
                                         + "they get the new one (copy the newest N.root.json of the stable channel into their metadata/ and run "
                                         + "`livery build --refresh-timestamp`):\n" + failed.joined(separator: "\n"))
                }
                print("\(tenant): \(role.rawValue) key rotated to \(TUFKey(newKey.publicKey).keyID); new root published")
            } catch let error as TUFError {
                throw Livery.Failure(error.description)
            }
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
            do {
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
            } catch let error as TUFError {
                throw Livery.Failure(error.description)
            }
        }
    }
}
