import ArgumentParser
import Crypto
import Foundation
import LiveryPublish
import LiverySign
import LiveryReleaseFormat

extension KeyOptions {
    /// A passphrase for a key being encrypted: from `source`, asked twice when it is the terminal.
    static func newPassphrase(_ source: String?, for what: String) throws -> String {
        let parsed: SecretSource
        do { parsed = try SecretSource(parsing: source ?? "prompt") } catch let error as SecretSourceError { throw ValidationError(error.description) }
        do {
            let passphrase = try parsed.read(what: "a new passphrase for \(what)")
            guard !passphrase.isEmpty else { throw Livery.Failure("an empty passphrase protects nothing") }
            if parsed == .prompt, try parsed.read(what: "the same passphrase again") != passphrase {
                throw Livery.Failure("the two passphrases differ; nothing was changed")
            }
            return passphrase
        } catch let error as SecretSourceError {
            throw Livery.Failure(error.description)
        }
    }

    /// The passphrase source to record in keys.yaml beside a key encrypted with `source`: a place
    /// (an environment variable, a file) is recorded; a file descriptor (one run's) and the terminal
    /// (the default) are not.
    static func recordedSource(_ source: String?) -> SecretSource? {
        guard let source, let parsed = try? SecretSource(parsing: source) else { return nil }
        switch parsed {
        case .environment, .file: return parsed
        case .descriptor, .prompt: return nil
        }
    }
}

extension Keys {
    struct Encrypt: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "encrypt",
            abstract: "Encrypt key files at rest with a passphrase (scrypt and AES-256-GCM), in place.",
            discussion: """
                The passphrase comes from --passphrase-source: env:NAME, file:PATH, fd:N, or prompt (the default: asked twice on \
                the terminal). Never give it as an argument. The key and its id do not change; the public key stays readable \
                without the passphrase, so `livery keys list` still shows the key. To let a job read the passphrase, add \
                ?passphrase-source=… to the key's URI in keys.yaml.
                """)

        @Argument(help: "Key files to encrypt.")
        var files: [String]

        @Option(help: "Where the passphrase comes from: env:NAME, file:PATH, fd:N or prompt.")
        var passphraseSource: String?

        func run() throws {
            let passphrase = try KeyOptions.newPassphrase(passphraseSource, for: files.count == 1 ? files[0] : "\(files.count) key files")
            // A key file's error ends the command as itself (`ErrorReport` prints its description).
            for file in files {
                try KeyFile.encrypt(URL(fileURLWithPath: file), passphrase: passphrase)
                print("\(file): encrypted (key \(try KeyFile.publicKey(URL(fileURLWithPath: file)).keyID))")
            }
        }
    }

    struct Decrypt: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "decrypt", abstract: "Remove the passphrase of encrypted key files, in place.")

        @Argument(help: "Key files to decrypt.")
        var files: [String]

        @Option(help: "Where the passphrase comes from: env:NAME, file:PATH, fd:N or prompt.")
        var passphraseSource: String?

        func run() throws {
            let source: SecretSource
            do { source = try SecretSource(parsing: passphraseSource ?? "prompt") } catch let error as SecretSourceError { throw ValidationError(error.description) }
            for file in files {
                try KeyFile.decrypt(URL(fileURLWithPath: file), passphrase: try source.read(what: "the passphrase of \(file)"))
                print("\(file): decrypted")
            }
        }
    }

    struct Audit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "audit",
            abstract: "Check a tenant's audit log: its hash chain, and that it records every signature of the published metadata.",
            discussion: """
                Exit status 0 when the chain is intact and every published signature (every channel's root, targets, snapshot, \
                timestamp and delegated roles) has its line; 1 when the chain is broken or a published version carries a \
                signature the log does not record. Logged signatures of metadata that was never published (a build that failed \
                after signing) are listed as notes.
                """)

        @Argument(help: "The tenant id.")
        var tenant: String

        @OptionGroup var options: Options

        func run() throws {
            let store = options.store
            let output = URL(fileURLWithPath: options.output)
            let log = AuditLog(store: store.root, tenant: tenant)
            let entries: [AuditEntry]
            do {
                entries = FileManager.default.fileExists(atPath: log.file.path) ? try log.verify() : []
            } catch let error as AuditLogError {
                print("\(tenant): audit log BROKEN")
                print("    \(error.description)")
                throw ExitCode(1)
            }
            var published: [AuditLog.PublishedSignatures] = []
            for channel in Publisher.channels(tenant: tenant, output: output) {
                let metadata = Publisher.repository(tenant: tenant, channel: channel, output: output).appendingPathComponent("metadata")
                let names = ((try? FileManager.default.contentsOfDirectory(atPath: metadata.path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
                for name in names {
                    guard let data = FileManager.default.contents(atPath: metadata.appendingPathComponent(name).path),
                          let envelope = try? SignedMetadata(data: data), let type = envelope.role, let version = envelope.version else {
                        throw Livery.Failure("\(metadata.path)/\(name) is not TUF metadata")
                    }
                    var role = type.rawValue
                    if type == .targets, name != "\(version).targets.json" {
                        let middle = name.dropFirst("\(version).".count).dropLast(".json".count)
                        role = String(middle).removingPercentEncoding ?? String(middle)
                    }
                    let digest = SHA256.hash(data: try CanonicalJSON.encode(envelope.signed)).hexString
                    published.append((name, channel.isStable ? nil : channel.name, role, version, digest, envelope.signatures.map(\.keyID)))
                }
            }
            if published.isEmpty, let data = try? Data(contentsOf: store.initialRootFile(for: tenant)), let envelope = try? SignedMetadata(data: data) {
                // Before the first build: the first root in the key store.
                published.append(("1.root.json", nil, TUFRole.root.rawValue, 1, SHA256.hash(data: try CanonicalJSON.encode(envelope.signed)).hexString,
                                  envelope.signatures.map(\.keyID)))
            }
            let findings = AuditLog.explain(published: published, log: entries)
            let errors = findings.filter(\.isError)
            print("\(tenant): audit log \(entries.isEmpty ? "empty" : "intact"): \(entries.count) signature\(entries.count == 1 ? "" : "s") recorded; "
                  + "\(published.count) published metadata file\(published.count == 1 ? "" : "s") checked, \(errors.count) not explained")
            for finding in errors { print("    ERROR: \(finding)") }
            // timestamp.json is replaced at each signing (only the newest is published): older versions are not news.
            let newestTimestamp = published.filter { $0.role == TUFRole.timestamp.rawValue }.map(\.version).max() ?? 0
            for finding in findings where !finding.isError && !(finding.role == TUFRole.timestamp.rawValue && finding.version < newestTimestamp) {
                print("    note: \(finding)")
            }
            if !errors.isEmpty { throw ExitCode(1) }
        }
    }
}
