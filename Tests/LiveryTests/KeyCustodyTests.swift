import Crypto
import Foundation
import LiveryClient
import LiveryPublish
import LiverySign
import LiveryReleaseFormat
import XCTest

/// Key custody (docs/keys.md): several keys per role with thresholds, root changes made in a
/// ceremony without all root keys on one machine, builds that never sign a root, and a timestamp
/// refresh that needs only the timestamp key. Checked by python-tuf and by Livery's own client.
final class KeyCustodyTests: XCTestCase {
    static let tenant = "urbannest"

    func livery(_ arguments: [String], _ workspace: BuildTests.Workspace, in folder: String? = nil) throws -> LiveryProcess.Output {
        try LiveryProcess.run(arguments, in: folder.map { workspace.root.appendingPathComponent($0) } ?? workspace.root)
    }

    func build(_ workspace: BuildTests.Workspace) throws -> LiveryProcess.Output {
        try livery(["build", "Tenants/\(Self.tenant)", "--output", "Output"], workspace)
    }

    var release: (BuildTests.Workspace) -> URL { { $0.output.appendingPathComponent(Self.tenant) } }

    /// A tenant made with a 2-of-3 root whose second and third keys then go to their holders' machines.
    func ceremonyWorkspace() throws -> BuildTests.Workspace {
        let workspace = try BuildTests.Workspace()
        let initialized = try livery(["keys", "init", Self.tenant, "--root-keys", "3", "--root-threshold", "2"], workspace)
        XCTAssertEqual(initialized.status, 0, initialized.stderr)
        let built = try build(workspace)
        XCTAssertEqual(built.status, 0, built.stderr)
        XCTAssertFalse(built.stderr.contains("DEVELOPMENT"), "keys init made real keys")
        let keys = workspace.root.appendingPathComponent(".livery-keys/\(Self.tenant)")
        for holder in ["holder-b", "holder-c"] {
            try FileManager.default.createDirectory(at: workspace.root.appendingPathComponent(holder), withIntermediateDirectories: true)
        }
        try FileManager.default.moveItem(at: keys.appendingPathComponent("root-2.key"), to: workspace.root.appendingPathComponent("holder-b/root-2.key"))
        try FileManager.default.moveItem(at: keys.appendingPathComponent("root-3.key"), to: workspace.root.appendingPathComponent("holder-c/root-3.key"))
        return workspace
    }

    func testATwoOfThreeRootCeremonyIsWalkedByPythonTUFAndLiverysClient() throws {
        let workspace = try ceremonyWorkspace()
        let release = release(workspace)
        let firstRoot = workspace.root.appendingPathComponent("1.root.json")
        try FileManager.default.copyItem(at: release.appendingPathComponent("metadata/1.root.json"), to: firstRoot)
        let root1 = try Metadata<Root>(data: Data(contentsOf: firstRoot))
        XCTAssertEqual(root1.signed.roles[.root]?.threshold, 2)
        XCTAssertEqual(root1.signed.roles[.root]?.keyIDs.count, 3)
        XCTAssertEqual(root1.signatures.count, 3, "keys init signs the first root with every root key")
        let server = try SigningTests.FileServer(root: workspace.output)
        let state = try SigningTests.clientState(in: workspace.root)
        XCTAssertEqual(try SigningTests.pythonTUF(port: server.port, tenant: Self.tenant, root: firstRoot, state: state).status, 0)

        // Holder C replaces their root key with a new one made on their own machine, and the
        // platform moves the timestamp key to a new file. Nobody holds two root keys.
        XCTAssertEqual(try livery(["keys", "generate", "root-new.key"], workspace, in: "holder-c").status, 0)
        XCTAssertEqual(try livery(["keys", "generate", "timestamp-2.key"], workspace).status, 0)
        let propose = try livery(["keys", "propose-root", Self.tenant, "--output", "Output",
                                  "--key", "root=file:.livery-keys/\(Self.tenant)/root-1.key", "--key", "root=file:holder-b/root-2.key.pub",
                                  "--key", "root=file:holder-c/root-new.key.pub", "--key", "timestamp=file:timestamp-2.key"], workspace)
        XCTAssertEqual(propose.status, 2, "holder B's public key file does not exist yet: \(propose.stdout)")
        XCTAssertTrue(propose.stderr.contains("root-2.key.pub"), propose.stderr)
        // Holder B exports the public key of the key they hold (from the key file itself).
        let proposal = try livery(["keys", "propose-root", Self.tenant, "--output", "Output",
                                   "--key", "root=file:.livery-keys/\(Self.tenant)/root-1.key", "--key", "root=file:holder-b/root-2.key",
                                   "--key", "root=file:holder-c/root-new.key.pub", "--key", "timestamp=file:timestamp-2.key"], workspace)
        XCTAssertEqual(proposal.status, 0, proposal.stderr)
        XCTAssertTrue(proposal.stdout.contains("needs 2 signatures by the root keys of version 1"), proposal.stdout)
        let file = "\(Self.tenant).root-v2.json"
        let keysYAML = try String(contentsOf: workspace.root.appendingPathComponent(".livery-keys/\(Self.tenant)/keys.yaml"), encoding: .utf8)
        XCTAssertTrue(keysYAML.contains("timestamp-2.key"), "an online key this machine holds is listed, to sign once trusted")
        XCTAssertFalse(keysYAML.contains("holder-b"), "root keys are never added to keys.yaml")

        // One signature is not enough: nothing is published.
        XCTAssertEqual(try livery(["keys", "sign", file, "--key", "file:.livery-keys/\(Self.tenant)/root-1.key"], workspace).status, 0)
        let before = BuildTests.tree(workspace.output)
        let early = try livery(["keys", "finish-root", Self.tenant, file, "--output", "Output"], workspace)
        XCTAssertEqual(early.status, 2)
        XCTAssertTrue(early.stderr.contains("1 valid signature by the root keys of root version 1, 2 needed"), early.stderr)
        XCTAssertEqual(BuildTests.tree(workspace.output), before, "nothing is published")

        // Holders B and C sign copies on their own machines; the copies are merged.
        for (holder, key) in [("holder-b", "root-2.key"), ("holder-c", "root-new.key")] {
            try FileManager.default.copyItem(at: workspace.root.appendingPathComponent(file), to: workspace.root.appendingPathComponent("\(holder)/\(file)"))
            let signed = try livery(["keys", "sign", file, "--key", "file:\(key)"], workspace, in: holder)
            XCTAssertEqual(signed.status, 0, signed.stderr)
            XCTAssertTrue(signed.stdout.contains("a root key of the proposal"), signed.stdout)
        }
        let finish = try livery(["keys", "finish-root", Self.tenant, file, "holder-b/\(file)", "holder-c/\(file)", "--output", "Output"], workspace)
        XCTAssertEqual(finish.status, 0, finish.stderr)
        XCTAssertTrue(finish.stdout.contains("root version 2 published; release signed again with the new online keys"), finish.stdout)
        let root2 = try Metadata<Root>(data: Data(contentsOf: release.appendingPathComponent("metadata/2.root.json")))
        XCTAssertEqual(root2.signatures.count, 3)

        // Both clients, trusting only version 1, walk to version 2 and accept the re-signed timestamp.
        let update = try SigningTests.pythonTUF(port: server.port, tenant: Self.tenant, root: firstRoot, state: state)
        XCTAssertEqual(update.status, 0, update.stderr)
        let report = ReleaseVerifier.verify(LocalRepository(root: release), trustedRoot: try Data(contentsOf: firstRoot))
        XCTAssertTrue(report.isValid, "\(report.problems)")
        XCTAssertEqual(report.versions["root"], 2)
        // keys.yaml keeps only the timestamp key the new root trusts; the next build signs with it.
        let after = try String(contentsOf: workspace.root.appendingPathComponent(".livery-keys/\(Self.tenant)/keys.yaml"), encoding: .utf8)
        XCTAssertFalse(after.contains("file:timestamp.key"), after)
        try workspace.replace("\(Self.tenant)/locales/en.yaml", "Home", "Start")
        XCTAssertEqual(try build(workspace).status, 0)
        XCTAssertEqual(try SigningTests.pythonTUF(port: server.port, tenant: Self.tenant, root: firstRoot, state: state).status, 0)
        // The audit log explains every published version, the holders' signatures included (recorded by finish-root).
        let audit = try livery(["keys", "audit", Self.tenant, "--output", "Output"], workspace)
        XCTAssertEqual(audit.status, 0, audit.stdout)
        let logged = try String(contentsOf: workspace.root.appendingPathComponent(".livery-keys/\(Self.tenant)/audit.log"), encoding: .utf8)
        XCTAssertTrue(logged.contains("ceremony: signed with `livery keys sign` where the key is held"), logged)

        // A root signed by one of the three, published by hand, is refused by both clients.
        let holderC = try KeyStore.openKey(.file(path: "holder-c/root-new.key", passphrase: nil), relativeTo: workspace.root)
        var forged = try RootCeremony.propose(after: root2.signed, change: RootCeremony.Change(keys: [.root: [try holderC.publicKey()]], thresholds: [.root: 1]))
        try forged.sign(with: holderC)
        XCTAssertThrowsError(try RootCeremony.check(forged, trusted: root2))
        try forged.bytes().write(to: release.appendingPathComponent("metadata/3.root.json"))
        XCTAssertNotEqual(try SigningTests.pythonTUF(port: server.port, tenant: Self.tenant, root: firstRoot, state: try SigningTests.clientState(in: workspace.root)).status, 0)
        XCTAssertThrowsError(try TUFUpdater.refresh(source: LocalRepository(root: release), trustedRoot: try Data(contentsOf: firstRoot))) { error in
            XCTAssertEqual((error as? TUFError)?.kind, .unsigned, "\(error)")
        }
    }

    func testAFirstRootMadeInACeremonyIsPublishedByTheFirstBuild() throws {
        let workspace = try BuildTests.Workspace()
        for holder in ["ana", "ben", "online"] {
            try FileManager.default.createDirectory(at: workspace.root.appendingPathComponent(holder), withIntermediateDirectories: true)
        }
        for (holder, key) in [("ana", "root.key"), ("ben", "root.key"), ("online", "targets.key"), ("online", "snapshot.key"), ("online", "timestamp.key")] {
            XCTAssertEqual(try livery(["keys", "generate", key], workspace, in: holder).status, 0)
        }
        // No keys yet: the first root is proposed, signed by both holders, and kept for the first build.
        let proposed = try livery(["keys", "propose-root", Self.tenant, "--output", "Output", "--key", "root=file:ana/root.key.pub", "--key", "root=file:ben/root.key.pub",
                                   "--threshold", "root=2", "--key", "targets=file:online/targets.key", "--key", "snapshot=file:online/snapshot.key",
                                   "--key", "timestamp=file:online/timestamp.key"], workspace)
        XCTAssertEqual(proposed.status, 0, proposed.stderr)
        XCTAssertTrue(proposed.stdout.contains("needs 2 signatures by its root keys"), proposed.stdout)
        let file = "\(Self.tenant).root-v1.json"
        for holder in ["ana", "ben"] { XCTAssertEqual(try livery(["keys", "sign", "../\(file)", "--key", "file:root.key"], workspace, in: holder).status, 0) }
        let finished = try livery(["keys", "finish-root", Self.tenant, file, "--output", "Output"], workspace)
        XCTAssertEqual(finished.status, 0, finished.stderr)
        XCTAssertTrue(finished.stdout.contains("root version 1 checked and kept in"), finished.stdout)
        let built = try build(workspace)
        XCTAssertEqual(built.status, 0, built.stderr)
        XCTAssertFalse(built.stderr.contains("DEVELOPMENT"), "the ceremony's keys sign, not development keys")
        let release = release(workspace)
        let root = try Metadata<Root>(data: Data(contentsOf: release.appendingPathComponent("metadata/1.root.json")))
        XCTAssertEqual(root.signatures.count, 2)
        XCTAssertEqual(root.signed.roles[.root]?.threshold, 2)
        let server = try SigningTests.FileServer(root: workspace.output)
        XCTAssertEqual(try SigningTests.pythonTUF(port: server.port, tenant: Self.tenant, root: release.appendingPathComponent("metadata/1.root.json"),
                                                  state: try SigningTests.clientState(in: workspace.root)).status, 0)
        XCTAssertEqual(try livery(["keys", "audit", Self.tenant, "--output", "Output"], workspace).status, 0)
    }

    func testACopyOfAnotherProposalIsNotMergedAndAnAlreadyPublishedRootIsSaidSo() throws {
        let workspace = try ceremonyWorkspace()
        for name in ["a.json", "b.json"] {
            XCTAssertEqual(try livery(["keys", "propose-root", Self.tenant, "--output", "Output", "--threshold", "root=3", "--file", name], workspace).status, 0)
        }
        // Same change, proposed twice: the expiry differs by the seconds between them, or not; a changed threshold always differs.
        XCTAssertEqual(try livery(["keys", "propose-root", Self.tenant, "--output", "Output", "--threshold", "root=1", "--file", "c.json"], workspace).status, 0)
        let merged = try livery(["keys", "finish-root", Self.tenant, "a.json", "c.json", "--output", "Output"], workspace)
        XCTAssertEqual(merged.status, 2)
        XCTAssertTrue(merged.stderr.contains("c.json proposes another root than a.json"), merged.stderr)
        let threshold = try livery(["keys", "propose-root", Self.tenant, "--output", "Output", "--threshold", "root=4", "--file", "d.json"], workspace)
        XCTAssertEqual(threshold.status, 2)
        XCTAssertTrue(threshold.stderr.contains("threshold 4 but 3 keys"), threshold.stderr)
    }

    func testABuildNeverOpensARootKeyAndNeedsEveryThresholdOfOnlineKeys() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try livery(["keys", "init", Self.tenant, "--targets-keys", "2", "--targets-threshold", "2"], workspace).status, 0)
        let keys = workspace.root.appendingPathComponent(".livery-keys/\(Self.tenant)")
        // The root key is unreadable garbage: a build that opened it would fail.
        unlink(keys.appendingPathComponent("root.key").path)
        try Data("not a key\n".utf8).write(to: keys.appendingPathComponent("root.key"))
        chmod(keys.appendingPathComponent("root.key").path, 0o600)
        let first = try build(workspace)
        XCTAssertEqual(first.status, 0, first.stderr)
        let targets = try Metadata<Targets>(data: Data(contentsOf: release(workspace).appendingPathComponent("metadata/1.targets.json")))
        XCTAssertEqual(targets.signatures.count, 2, "both targets keys sign")
        let server = try SigningTests.FileServer(root: workspace.output)
        XCTAssertEqual(try SigningTests.pythonTUF(port: server.port, tenant: Self.tenant, root: release(workspace).appendingPathComponent("metadata/1.root.json"),
                                                  state: try SigningTests.clientState(in: workspace.root)).status, 0)

        // One targets key away: the threshold cannot be met, the error says so, nothing is published.
        try FileManager.default.moveItem(at: keys.appendingPathComponent("targets-2.key"), to: workspace.root.appendingPathComponent("targets-2.key"))
        try workspace.replace("\(Self.tenant)/locales/en.yaml", "Home", "Start")
        let before = BuildTests.tree(workspace.output)
        let refused = try build(workspace)
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("the targets role needs 2 signatures by keys the published root (version 1) trusts, and this key store has 1"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("not on this machine: file:targets-2.key"), refused.stderr)
        XCTAssertEqual(BuildTests.tree(workspace.output), before)
        // `keys list` still tells the away key by the id keys.yaml recorded for it.
        let awayID = try XCTUnwrap(KeyConfiguration.load(keys.appendingPathComponent("keys.yaml")).keyID(of: .file(path: "targets-2.key", passphrase: nil)))
        XCTAssertTrue(targets.signatures.keys.contains(awayID), "the recorded id is the key that signed")
        let list = try livery(["keys", "list", Self.tenant, "--output", "Output"], workspace)
        XCTAssertTrue(list.stdout.contains("\(awayID)  not on this machine, trusted by root v1  file:targets-2.key"), list.stdout)

        // Without its first root, a keys.yaml store is never given one by a build.
        let other = try BuildTests.Workspace()
        XCTAssertEqual(try livery(["keys", "init", Self.tenant], other).status, 0)
        unlink(other.root.appendingPathComponent(".livery-keys/\(Self.tenant)/1.root.json").path)
        let rootless = try build(other)
        XCTAssertNotEqual(rootless.status, 0)
        XCTAssertTrue(rootless.stderr.contains("`livery build` never signs one"), rootless.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: other.output.appendingPathComponent(Self.tenant).path))
    }

    func testTimestampRefreshNeedsOnlyTheTimestampKey() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try livery(["keys", "init", Self.tenant], workspace).status, 0)
        XCTAssertEqual(try build(workspace).status, 0)
        // The refresh machine's store: keys.yaml, and only the timestamp key file.
        let keys = workspace.root.appendingPathComponent(".livery-keys/\(Self.tenant)")
        for role in ["root", "targets", "snapshot"] {
            try FileManager.default.moveItem(at: keys.appendingPathComponent("\(role).key"), to: workspace.root.appendingPathComponent("\(role).key"))
        }
        let refreshed = try livery(["timestamp", "refresh", "--output", "Output"], workspace)
        XCTAssertEqual(refreshed.status, 0, refreshed.stderr)
        XCTAssertTrue(refreshed.stdout.contains("\(Self.tenant): timestamp version 2 signed"), refreshed.stdout)
        let release = release(workspace)
        XCTAssertTrue(ReleaseVerifier.verify(LocalRepository(root: release)).isValid)

        // Five days on, the one-week snapshot is due for renewal: without its key the timestamp is
        // refreshed alone, with a warning; a day and a half later the snapshot would expire first, and the refresh stops.
        let store = KeyStore(root: workspace.root.appendingPathComponent(".livery-keys"))
        let tenantKeys = try store.keys(for: Self.tenant, create: false, warn: { _ in })
        var warnings: [String] = []
        let fiveDays = Date().addingTimeInterval(5 * 86_400)
        try Publisher.amend(tenant: Self.tenant, output: workspace.output) {
            try RepositorySigner.refreshTimestamp(release: $0, keys: tenantKeys, now: fiveDays, warn: { warnings.append($0) })
        }
        XCTAssertTrue(warnings.contains { $0.contains("snapshot metadata expires at") && $0.contains("only the timestamp key") }, "\(warnings)")
        XCTAssertTrue(ReleaseVerifier.verify(LocalRepository(root: release), now: fiveDays.addingTimeInterval(3_600)).isValid)
        let before = BuildTests.tree(workspace.output)
        XCTAssertThrowsError(try Publisher.amend(tenant: Self.tenant, output: workspace.output) {
            try RepositorySigner.refreshTimestamp(release: $0, keys: tenantKeys, now: fiveDays.addingTimeInterval(36 * 3_600))
        }) { error in
            XCTAssertTrue("\(error)".contains("the snapshot role needs 1 signature"), "\(error)")
        }
        XCTAssertEqual(BuildTests.tree(workspace.output), before)
    }

    func testEncryptedKeysSignWithTheirPassphraseAndKeyFilesOthersCanReadAreRefused() throws {
        let workspace = try BuildTests.Workspace()
        let passphrase = ["LIVERY_KEY_PASSPHRASE": "correct horse battery staple"]
        func run(_ arguments: [String], _ environment: [String: String] = passphrase) throws -> LiveryProcess.Output {
            try LiveryProcess.run(arguments, in: workspace.root, environment: environment)
        }
        let initialized = try run(["keys", "init", Self.tenant, "--encrypt", "--passphrase-source", "env:LIVERY_KEY_PASSPHRASE"])
        XCTAssertEqual(initialized.status, 0, initialized.stderr)
        let keys = workspace.root.appendingPathComponent(".livery-keys/\(Self.tenant)")
        let configuration = try String(contentsOf: keys.appendingPathComponent("keys.yaml"), encoding: .utf8)
        XCTAssertTrue(configuration.contains("file:targets.key?passphrase-source=env:LIVERY_KEY_PASSPHRASE"), configuration)
        // Each key's id is recorded beside it: the ids of the first root.
        let firstRoot = try Metadata<Root>(data: Data(contentsOf: keys.appendingPathComponent("1.root.json")))
        let listed = try KeyConfiguration.load(keys.appendingPathComponent("keys.yaml"))
        for role in TUFRole.allCases {
            XCTAssertEqual(Set(try XCTUnwrap(listed.roles[role]).compactMap { listed.keyID(of: $0) }), Set(firstRoot.signed.roles[role]?.keyIDs ?? []), "\(role)")
        }
        let targetsFile = try String(contentsOf: keys.appendingPathComponent("targets.key"), encoding: .utf8)
        XCTAssertTrue(targetsFile.contains("\"kdf\"") || targetsFile.contains("scrypt"), "the key file is encrypted: \(targetsFile)")
        XCTAssertEqual(try run(["build", "Tenants/\(Self.tenant)", "--output", "Output"]).status, 0)
        XCTAssertTrue(ReleaseVerifier.verify(LocalRepository(root: workspace.output.appendingPathComponent(Self.tenant))).isValid)
        // Key ids are listed without the passphrase (the public key is kept in the clear).
        let list = try run(["keys", "list", "--output", "Output"], [:])
        XCTAssertTrue(list.stdout.contains("targets") && list.stdout.contains("trusted by root v1  file:targets.key"), list.stdout)

        try workspace.replace("\(Self.tenant)/locales/en.yaml", "Home", "Start")
        let before = BuildTests.tree(workspace.output)
        for (environment, expected) in [(["LIVERY_KEY_PASSPHRASE": "wrong"], "wrong passphrase for"),
                                        ([:], "should be in the environment variable LIVERY_KEY_PASSPHRASE, which is not set")] {
            let refused = try run(["build", "Tenants/\(Self.tenant)", "--output", "Output"], environment)
            XCTAssertNotEqual(refused.status, 0)
            XCTAssertTrue(refused.stderr.contains(expected), refused.stderr)
            XCTAssertEqual(BuildTests.tree(workspace.output), before, "nothing is published")
        }
        // Like ssh: a key file or key folder others can read is refused, with the chmod that fixes it.
        chmod(keys.appendingPathComponent("targets.key").path, 0o644)
        let readable = try run(["build", "Tenants/\(Self.tenant)", "--output", "Output"])
        XCTAssertNotEqual(readable.status, 0)
        XCTAssertTrue(readable.stderr.contains("chmod 600 \(keys.appendingPathComponent("targets.key").path)"), readable.stderr)
        chmod(keys.appendingPathComponent("targets.key").path, 0o600)
        chmod(keys.path, 0o755)
        let folder = try run(["build", "Tenants/\(Self.tenant)", "--output", "Output"])
        XCTAssertNotEqual(folder.status, 0)
        XCTAssertTrue(folder.stderr.contains("chmod 700 \(keys.path)"), folder.stderr)
        chmod(keys.path, 0o700)
        XCTAssertEqual(BuildTests.tree(workspace.output), before)
        XCTAssertEqual(try run(["build", "Tenants/\(Self.tenant)", "--output", "Output"]).status, 0)

        // Decrypting and encrypting again keeps the key (and so the published root's trust).
        let id = try KeyFile.publicKey(keys.appendingPathComponent("timestamp.key")).keyID
        XCTAssertEqual(try run(["keys", "decrypt", ".livery-keys/\(Self.tenant)/timestamp.key", "--passphrase-source", "env:LIVERY_KEY_PASSPHRASE"]).status, 0)
        XCTAssertFalse(KeyFile.isEncrypted(keys.appendingPathComponent("timestamp.key")))
        XCTAssertEqual(try run(["keys", "encrypt", ".livery-keys/\(Self.tenant)/timestamp.key", "--passphrase-source", "env:LIVERY_KEY_PASSPHRASE"]).status, 0)
        XCTAssertTrue(KeyFile.isEncrypted(keys.appendingPathComponent("timestamp.key")))
        XCTAssertEqual(try KeyFile.publicKey(keys.appendingPathComponent("timestamp.key")).keyID, id)
        XCTAssertEqual(try run(["timestamp", "refresh", "--output", "Output"]).status, 0)
    }

    func testTheAuditTrailExplainsEverySignatureAndFindsTamperingAndUnloggedVersions() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try livery(["keys", "init", Self.tenant], workspace).status, 0)
        XCTAssertEqual(try build(workspace).status, 0)
        XCTAssertEqual(try livery(["keys", "rotate", Self.tenant, "snapshot", "--output", "Output"], workspace).status, 0)
        XCTAssertEqual(try livery(["keys", "delegate", Self.tenant, "--output", "Output"], workspace).status, 0)
        XCTAssertEqual(try livery(["timestamp", "refresh", "--output", "Output"], workspace).status, 0)
        let clean = try livery(["keys", "audit", Self.tenant, "--output", "Output"], workspace)
        XCTAssertEqual(clean.status, 0, clean.stdout + clean.stderr)
        XCTAssertTrue(clean.stdout.contains("audit log intact") && clean.stdout.contains(", 0 not explained"), clean.stdout)
        let logFile = workspace.root.appendingPathComponent(".livery-keys/\(Self.tenant)/audit.log")
        let log = try String(contentsOf: logFile, encoding: .utf8)
        var lines = log.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertGreaterThan(lines.count, 8)
        let entry = try JSONValue.parse(Data(lines[2].utf8))
        XCTAssertEqual(entry["machine"]?.stringValue, AuditLog.machineName)
        XCTAssertNotNil(entry["signer"]?.stringValue?.hasPrefix("file:"))

        // A line changed, or a line removed: the chain breaks, and the command says where.
        lines[3] = lines[3].replacingOccurrences(of: "\"version\":", with: "\"version\":1")
        try lines.joined(separator: "\n").write(to: logFile, atomically: true, encoding: .utf8)
        chmod(logFile.path, 0o600)
        let tampered = try livery(["keys", "audit", Self.tenant, "--output", "Output"], workspace)
        XCTAssertEqual(tampered.status, 1)
        XCTAssertTrue(tampered.stdout.contains("audit log BROKEN") && tampered.stdout.contains("audit.log:4"), tampered.stdout)
        var removed = log.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        removed.remove(at: 2)
        try removed.joined(separator: "\n").write(to: logFile, atomically: true, encoding: .utf8)
        XCTAssertEqual(try livery(["keys", "audit", Self.tenant, "--output", "Output"], workspace).status, 1)
        try log.write(to: logFile, atomically: true, encoding: .utf8)

        // A timestamp signed with the real key outside Livery (no log line) is a published version the log does not explain.
        let metadata = workspace.output.appendingPathComponent("\(Self.tenant)/metadata")
        let store = KeyStore(root: workspace.root.appendingPathComponent(".livery-keys"))
        let key = try XCTUnwrap(try store.keys(for: Self.tenant, create: false, warn: { _ in }).signer(.timestamp))
        var timestamp = try SignedMetadata(data: Data(contentsOf: metadata.appendingPathComponent("timestamp.json")))
        timestamp.signed = .object((timestamp.signed.objectValue ?? [:]).merging(["version": .int(99)]) { $1 })
        timestamp.signatures = []
        try timestamp.sign(with: key)
        unlink(metadata.appendingPathComponent("timestamp.json").path)
        try timestamp.bytes().write(to: metadata.appendingPathComponent("timestamp.json"))
        let unexplained = try livery(["keys", "audit", Self.tenant, "--output", "Output"], workspace)
        XCTAssertEqual(unexplained.status, 1)
        XCTAssertTrue(unexplained.stdout.contains("ERROR: timestamp.json: version 99 of timestamp carries signatures the audit log does not record"), unexplained.stdout)
    }

    func testSecretsComeFromTheEnvironmentAFileOrADescriptorNeverFromText() throws {
        XCTAssertEqual(try SecretSource(parsing: "env:HSM_PIN"), .environment("HSM_PIN"))
        XCTAssertEqual(try SecretSource(parsing: "file:/run/secrets/pin"), .file("/run/secrets/pin"))
        XCTAssertEqual(try SecretSource(parsing: "fd:3"), .descriptor(3))
        XCTAssertEqual(try SecretSource(parsing: "prompt"), .prompt)
        for text in ["1234", "env:", "fd:-1", "fd:x", "file:"] {
            XCTAssertThrowsError(try SecretSource(parsing: text), text)
        }
        // A pipe (a secret manager's output): the first line only, nothing after it consumed.
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&fds), 0)
        defer { close(fds[0]) }
        _ = "s3cret\nnext\n".withCString { write(fds[1], $0, strlen($0)) }
        close(fds[1])
        XCTAssertEqual(try SecretSource.descriptor(fds[0]).read(what: "the PIN"), "s3cret")
        XCTAssertEqual(try SecretSource.descriptor(fds[0]).read(what: "the PIN"), "next")
        XCTAssertThrowsError(try SecretSource.descriptor(fds[0]).read(what: "the PIN")) { XCTAssertTrue("\($0)".contains("gave nothing"), "\($0)") }
        // A file others can read is refused, with the chmod.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("livery-pin-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("1234\r\n".utf8).write(to: file)
        chmod(file.path, 0o644)
        XCTAssertThrowsError(try SecretSource.file(file.path).read(what: "the PIN")) { XCTAssertTrue("\($0)".contains("chmod 600 \(file.path)"), "\($0)") }
        chmod(file.path, 0o600)
        XCTAssertEqual(try SecretSource.file(file.path).read(what: "the PIN"), "1234")
        XCTAssertThrowsError(try SecretSource.environment("LIVERY_TEST_UNSET_\(UUID().uuidString.prefix(8))").read(what: "the PIN")) {
            XCTAssertTrue("\($0)".contains("which is not set"), "\($0)")
        }
    }

    /// A key store in a temporary folder with the folder of tenant "acme" made (0700, as a store's folders are).
    private func awayKeyStore(_ name: String) throws -> (root: URL, store: KeyStore, folder: URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("livery-\(name)-\(UUID().uuidString)")
        let store = KeyStore(root: root)
        let folder = store.folder(for: "acme")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return (root, store, folder)
    }

    /// A root of `version` whose timestamp role trusts `timestamp` (the other roles one throwaway key each).
    private func rootTrusting(version: Int = 2, timestamp: [Curve25519.Signing.PrivateKey]) throws -> Root {
        let signer = TUFKey(Curve25519.Signing.PrivateKey().publicKey)
        return try Root(signed: TUFDocument.root(version: version, expires: Date().addingTimeInterval(86_400),
                                                 keys: [.root: [signer], .targets: [signer], .snapshot: [signer], .timestamp: timestamp.map { TUFKey($0.publicKey) }],
                                                 thresholds: [.root: 1, .targets: 1, .snapshot: 1, .timestamp: 1]))
    }

    /// After a new root, keys.yaml keeps a key it cannot open (its file is away): only its holder can tell whether the root
    /// still trusts it. When there are more such lines for a role than keys of the root that no other line matched, some
    /// of them name a dropped key, and finish-root says so; an away key the root may still trust is not reported.
    func testAnAwayKeyTheNewRootMayHaveDroppedIsNamed() throws {
        let (root, store, folder) = try awayKeyStore("away")
        defer { try? FileManager.default.removeItem(at: root) }
        let here = Curve25519.Signing.PrivateKey(), away = Curve25519.Signing.PrivateKey(), other = Curve25519.Signing.PrivateKey()
        try KeyFiles.create(here, at: folder.appendingPathComponent("timestamp-2.key"))
        try "timestamp:\n  - file:timestamp-2.key\n  - file:timestamp-1.key\n".write(to: store.configurationFile(for: "acme"), atomically: true, encoding: .utf8)
        // The new root trusts the key here and one other: the away line may be that other key.
        XCTAssertTrue(try store.forgetUntrustedKeys(tenant: "acme", root: rootTrusting(timestamp: [here, away])).isEmpty)
        // The new root trusts only the key here: the away line names a dropped key, and stays until its holder removes it.
        let stale = try store.forgetUntrustedKeys(tenant: "acme", root: rootTrusting(timestamp: [here]))
        XCTAssertEqual(stale.map(\.role), [.timestamp])
        XCTAssertEqual(stale.first?.keys, [.file(path: "timestamp-1.key", passphrase: nil)])
        XCTAssertEqual(stale.first?.dropped, 1)
        XCTAssertTrue(try String(contentsOf: store.configurationFile(for: "acme"), encoding: .utf8).contains("timestamp-1.key"))
        // A root that trusts another key only: the key here is dropped and its file retired; the away line may be
        // that other key, so it is not named.
        XCTAssertTrue(try store.forgetUntrustedKeys(tenant: "acme", root: rootTrusting(timestamp: [other])).isEmpty)
        let left = try String(contentsOf: store.configurationFile(for: "acme"), encoding: .utf8)
        XCTAssertFalse(left.contains("timestamp-2.key"), left)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("timestamp-2.key.retired-1").path))
    }

    /// A key judged once has its id recorded in keys.yaml; when its file has since gone to its holder, the next root that
    /// drops that id drops its line (and no warning is needed), while a root that still trusts it keeps it.
    func testAnAwayKeyWithARecordedIDIsJudgedByIt() throws {
        let (root, store, folder) = try awayKeyStore("away-id")
        defer { try? FileManager.default.removeItem(at: root) }
        let first = Curve25519.Signing.PrivateKey(), second = Curve25519.Signing.PrivateKey(), other = Curve25519.Signing.PrivateKey()
        try KeyFiles.create(first, at: folder.appendingPathComponent("timestamp-1.key"))
        try KeyFiles.create(second, at: folder.appendingPathComponent("timestamp-2.key"))
        try "timestamp:\n  - file:timestamp-1.key\n  - file:timestamp-2.key\n".write(to: store.configurationFile(for: "acme"), atomically: true, encoding: .utf8)
        // Both keys are here and trusted: their ids are recorded beside their URIs.
        XCTAssertTrue(try store.forgetUntrustedKeys(tenant: "acme", root: rootTrusting(version: 2, timestamp: [first, second])).isEmpty)
        let recorded = try KeyConfiguration.load(store.configurationFile(for: "acme"))
        XCTAssertEqual(recorded.keyID(of: .file(path: "timestamp-1.key", passphrase: nil)), TUFKey(first.publicKey).keyID)
        XCTAssertEqual(recorded.keyID(of: .file(path: "timestamp-2.key", passphrase: nil)), TUFKey(second.publicKey).keyID)
        // Both files go to their holders. A root that still trusts both keeps both lines.
        for name in ["timestamp-1.key", "timestamp-2.key"] {
            try FileManager.default.moveItem(at: folder.appendingPathComponent(name), to: root.appendingPathComponent(name))
        }
        XCTAssertTrue(try store.forgetUntrustedKeys(tenant: "acme", root: rootTrusting(version: 3, timestamp: [first, second])).isEmpty)
        XCTAssertEqual(try KeyConfiguration.load(store.configurationFile(for: "acme")).roles[.timestamp]?.count, 2)
        // A root that drops the first key (and trusts one this machine never listed): its line goes, with no warning to give.
        XCTAssertTrue(try store.forgetUntrustedKeys(tenant: "acme", root: rootTrusting(version: 4, timestamp: [second, other])).isEmpty)
        let left = try KeyConfiguration.load(store.configurationFile(for: "acme"))
        XCTAssertEqual(left.roles[.timestamp], [.file(path: "timestamp-2.key", passphrase: nil)])
        XCTAssertEqual(left.keyID(of: .file(path: "timestamp-2.key", passphrase: nil)), TUFKey(second.publicKey).keyID)
        XCTAssertFalse(try String(contentsOf: store.configurationFile(for: "acme"), encoding: .utf8).contains(TUFKey(first.publicKey).keyID))
    }

    func testKeysYAMLMistakesAreLocated() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livery-keys-yaml-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("keys.yaml")
        let cases: [(String, String)] = [
            ("root: [file:root.key]\nrooot: [file:x.key]\n", "keys.yaml:2:1: 'rooot' is not a role"),
            ("targets:\n  - http://example.com/key\n", "keys.yaml:2:5: 'http://example.com/key' is not a key URI"),
            ("targets: file:targets.key\n", "keys.yaml:1:10: targets must be a list of key URIs"),
            ("timestamp: [file:t.key, file:t.key]\n", "keys.yaml:1:25: file:t.key is listed twice"),
            ("snapshot: [\"file:s.key?passphrase=hunter2\"]\n", "never the passphrase itself"),
            ("snapshot: [\"file:s.key?passphrase-source=hunter2\"]\n", "is not a secret source"),
            ("root: [file:root.key\n", "keys.yaml:"),
            ("targets:\n  - {uri: file:t.key, keyid: 4e7f}\n", "keys.yaml:2:30: keyid is a key id (64 lowercase hex digits"),
            ("targets:\n  - {url: file:t.key}\n", "keys.yaml:2:6: 'url' is not a field of a key: use uri, and keyid"),
            ("targets:\n  - {keyid: \(String(repeating: "a", count: 64))}\n", "keys.yaml:2:5: this key has no uri"),
            ("targets:\n  - {uri: [file:t.key]}\n", "keys.yaml:2:11: uri is a key URI"),
            ("targets:\n  - {uri: \"http://example.com/key\"}\n", "keys.yaml:2:11: 'http://example.com/key' is not a key URI"),
        ]
        for (text, expected) in cases {
            try Data(text.utf8).write(to: file)
            XCTAssertThrowsError(try KeyConfiguration.load(file), text) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(text): \(error)")
            }
        }
        let good = KeyConfiguration(roles: [.root: [], .targets: [try KeyReference(parsing: "file:targets.key?passphrase-source=env:TARGETS_PASSPHRASE")],
                                            .timestamp: [.pkcs11("pkcs11:token=livery;object=ts?module-path=/usr/lib/softhsm/libsofthsm2.so&pin-source=env:PIN")]])
        try good.write(to: file)
        XCTAssertEqual(try KeyConfiguration.load(file), good, "keys.yaml round-trips")
        var withIDs = good
        withIDs.keyIDs = ["file:targets.key?passphrase-source=env:TARGETS_PASSPHRASE": String(repeating: "0f", count: 32)]
        try withIDs.write(to: file)
        XCTAssertEqual(try KeyConfiguration.load(file), withIDs, "keys.yaml round-trips with a key id")
    }
}

/// Releases signed with keys held in a PKCS#11 token (SoftHSM2, started by the test setup),
/// verified by python-tuf and by Livery's client; and the ways an HSM key can fail to sign.
final class HSMCustodyTests: XCTestCase {
    static let tenant = KeyCustodyTests.tenant

    func hsmURI(_ label: String, pinSource: String = "env:\(SoftHSMFixture.pinVariable)") -> String {
        SoftHSMFixture.uri("token=custody;object=\(label)", pinSource: pinSource)
    }

    func run(_ arguments: [String], _ workspace: BuildTests.Workspace, in folder: String? = nil, environment extra: [String: String] = [:]) throws -> LiveryProcess.Output {
        let hsm = try SoftHSMFixture.shared()
        return try LiveryProcess.run(arguments, in: folder.map { workspace.root.appendingPathComponent($0) } ?? workspace.root,
                                     environment: hsm.environment.merging(extra) { $1 })
    }

    func testAReleaseSignedWithHSMHeldOnlineKeysVerifiesAndAnUnusableTokenPublishesNothing() throws {
        let hsm = try SoftHSMFixture.shared()
        let prefix = "t\(UUID().uuidString.prefix(8).lowercased())"
        try hsm.generateKey(label: "\(prefix)-targets", type: "EC:edwards25519")
        try hsm.generateKey(label: "\(prefix)-snapshot", type: "EC:prime256v1")
        try hsm.generateKey(label: "\(prefix)-timestamp", type: "EC:prime256v1")
        let workspace = try BuildTests.Workspace()
        let initialized = try run(["keys", "init", Self.tenant, "--key", "targets=\(hsmURI("\(prefix)-targets"))",
                                   "--key", "snapshot=\(hsmURI("\(prefix)-snapshot"))", "--key", "timestamp=\(hsmURI("\(prefix)-timestamp"))"], workspace)
        XCTAssertEqual(initialized.status, 0, initialized.stderr)
        XCTAssertTrue(initialized.stdout.contains("pkcs11:token=custody;object=\(prefix)-targets"), initialized.stdout)
        let built = try run(["build", "Tenants/\(Self.tenant)", "--output", "Output"], workspace)
        XCTAssertEqual(built.status, 0, built.stderr)
        let release = workspace.output.appendingPathComponent(Self.tenant)
        let root = try Metadata<Root>(data: Data(contentsOf: release.appendingPathComponent("metadata/1.root.json")))
        XCTAssertEqual(root.signed.keys[root.signed.roles[.snapshot]!.keyIDs[0]]?.scheme, "ecdsa-sha2-nistp256")
        XCTAssertEqual(root.signed.keys[root.signed.roles[.targets]!.keyIDs[0]]?.scheme, "ed25519")
        let server = try SigningTests.FileServer(root: workspace.output)
        let python = try SigningTests.pythonTUF(port: server.port, tenant: Self.tenant, root: release.appendingPathComponent("metadata/1.root.json"),
                                                state: try SigningTests.clientState(in: workspace.root))
        XCTAssertEqual(python.status, 0, python.stderr)
        XCTAssertTrue(ReleaseVerifier.verify(LocalRepository(root: release)).isValid)
        let list = try run(["keys", "list", "--output", "Output"], workspace)
        XCTAssertTrue(list.stdout.contains("trusted by root v1  pkcs11:token=custody;object=\(prefix)-timestamp"), list.stdout)
        XCTAssertFalse(list.stdout.contains(SoftHSMFixture.pin), "no PIN is printed")

        // A timestamp refresh signs through the token too.
        XCTAssertEqual(try run(["timestamp", "refresh", "--output", "Output"], workspace).status, 0)

        // Wrong PIN, a missing module, a key the token does not have: a clear error, nothing published.
        try workspace.replace("\(Self.tenant)/locales/en.yaml", "Home", "Start")
        let before = BuildTests.tree(workspace.output)
        let wrongPIN = try run(["build", "Tenants/\(Self.tenant)", "--output", "Output"], workspace, environment: [SoftHSMFixture.pinVariable: "0000"])
        XCTAssertNotEqual(wrongPIN.status, 0)
        XCTAssertTrue(wrongPIN.stderr.contains("wrong PIN for token 'custody'"), wrongPIN.stderr)
        XCTAssertEqual(BuildTests.tree(workspace.output), before)
        let keysFile = workspace.root.appendingPathComponent(".livery-keys/\(Self.tenant)/keys.yaml")
        let good = try String(contentsOf: keysFile, encoding: .utf8)
        for (broken, expected) in [(good.replacingOccurrences(of: SoftHSMFixture.module, with: "/nonexistent/libpkcs11.so"), "/nonexistent/libpkcs11.so"),
                                   (good.replacingOccurrences(of: "object=\(prefix)-snapshot", with: "object=\(prefix)-gone"), "\(prefix)-gone")] {
            try broken.write(to: keysFile, atomically: true, encoding: .utf8)
            let refused = try run(["build", "Tenants/\(Self.tenant)", "--output", "Output"], workspace)
            XCTAssertNotEqual(refused.status, 0)
            XCTAssertTrue(refused.stderr.contains(expected), refused.stderr)
            XCTAssertEqual(BuildTests.tree(workspace.output), before, "nothing is published")
        }
        try good.write(to: keysFile, atomically: true, encoding: .utf8)
        let rebuilt = try run(["build", "Tenants/\(Self.tenant)", "--output", "Output"], workspace)
        XCTAssertEqual(rebuilt.status, 0, rebuilt.stderr)
        XCTAssertTrue(ReleaseVerifier.verify(LocalRepository(root: release)).isValid)
        // A PIN written into the URI is refused where keys.yaml is read, with its line (at the next release to sign).
        try workspace.replace("\(Self.tenant)/locales/en.yaml", "Start", "Begin")
        try good.replacingOccurrences(of: "pin-source=env:\(SoftHSMFixture.pinVariable)", with: "pin-value=1234").write(to: keysFile, atomically: true, encoding: .utf8)
        let inline = try run(["build", "Tenants/\(Self.tenant)", "--output", "Output"], workspace)
        XCTAssertNotEqual(inline.status, 0)
        XCTAssertTrue(inline.stderr.contains("keys.yaml:") && inline.stderr.contains("pin-source"), inline.stderr)
    }

    /// docs/keys.md#a-root-ceremony, step by step: a tenant built with development keys moves its
    /// online keys into the token and its root to three holders (2 of 3), then rotates a holder's
    /// key in a second ceremony; apps that ship the first root follow, and the audit log explains it all.
    func testTheWalkthroughOfDocsKeysMoveASampleTenantToHSMKeysAndATwoOfThreeRoot() throws {
        let hsm = try SoftHSMFixture.shared()
        let prefix = "w\(UUID().uuidString.prefix(8).lowercased())"
        try hsm.generateKey(label: "\(prefix)-snapshot", type: "EC:edwards25519")
        try hsm.generateKey(label: "\(prefix)-timestamp", type: "EC:edwards25519")
        let workspace = try BuildTests.Workspace()
        let built = try run(["build", "Tenants/\(Self.tenant)", "--output", "Output"], workspace)
        XCTAssertEqual(built.status, 0, built.stderr)
        XCTAssertTrue(built.stderr.contains("DEVELOPMENT"))
        let release = workspace.output.appendingPathComponent(Self.tenant)
        let shipped = workspace.root.appendingPathComponent("shipped-1.root.json")
        try FileManager.default.copyItem(at: release.appendingPathComponent("metadata/1.root.json"), to: shipped)
        for holder in ["ana", "ben", "chloe"] {
            try FileManager.default.createDirectory(at: workspace.root.appendingPathComponent(holder), withIntermediateDirectories: true)
            XCTAssertEqual(try run(["keys", "generate", "root.key"], workspace, in: holder).status, 0)
        }
        // Ceremony 1: the development root key signs its own replacement (the old root's threshold, 1 of 1),
        // and two of the three holders sign for the new root (2 of 3).
        let proposed = try run(["keys", "propose-root", Self.tenant, "--output", "Output", "--key", "root=file:ana/root.key.pub", "--key", "root=file:ben/root.key.pub",
                                "--key", "root=file:chloe/root.key.pub", "--threshold", "root=2",
                                "--key", "snapshot=\(hsmURI("\(prefix)-snapshot"))", "--key", "timestamp=\(hsmURI("\(prefix)-timestamp"))"], workspace)
        XCTAssertEqual(proposed.status, 0, proposed.stderr)
        let file = "\(Self.tenant).root-v2.json"
        XCTAssertEqual(try run(["keys", "sign", file, "--key", "file:.livery-keys/\(Self.tenant)/root.key"], workspace).status, 0)
        for holder in ["ana", "ben"] {
            let signed = try run(["keys", "sign", "../\(file)", "--key", "file:root.key"], workspace, in: holder)
            XCTAssertEqual(signed.status, 0, signed.stderr)
        }
        let finished = try run(["keys", "finish-root", Self.tenant, file, "--output", "Output"], workspace)
        XCTAssertEqual(finished.status, 0, finished.stderr)
        XCTAssertTrue(finished.stdout.contains("release signed again with the new online keys"), finished.stdout)
        // The development keys no root trusts any more are retired: the build machine signs with targets.key and the token's keys.
        let store = workspace.root.appendingPathComponent(".livery-keys/\(Self.tenant)")
        for role in ["root", "snapshot", "timestamp"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: store.appendingPathComponent("\(role).key").path), role)
            XCTAssertTrue(FileManager.default.fileExists(atPath: store.appendingPathComponent("\(role).key.retired-1").path), role)
        }
        try workspace.replace("\(Self.tenant)/locales/en.yaml", "Home", "Start")
        let rebuilt = try run(["build", "Tenants/\(Self.tenant)", "--output", "Output"], workspace)
        XCTAssertEqual(rebuilt.status, 0, rebuilt.stderr)

        // Ceremony 2: Chloe's key is replaced; Ana and Ben sign (2 of the old 3, and 2 of the new 3).
        XCTAssertEqual(try run(["keys", "generate", "root-2.key"], workspace, in: "chloe").status, 0)
        XCTAssertEqual(try run(["keys", "propose-root", Self.tenant, "--output", "Output", "--key", "root=file:ana/root.key.pub", "--key", "root=file:ben/root.key.pub",
                                "--key", "root=file:chloe/root-2.key.pub"], workspace).status, 0)
        let second = "\(Self.tenant).root-v3.json"
        for holder in ["ana", "ben"] { XCTAssertEqual(try run(["keys", "sign", "../\(second)", "--key", "file:root.key"], workspace, in: holder).status, 0) }
        XCTAssertEqual(try run(["keys", "finish-root", Self.tenant, second, "--output", "Output"], workspace).status, 0)

        let server = try SigningTests.FileServer(root: workspace.output)
        let python = try SigningTests.pythonTUF(port: server.port, tenant: Self.tenant, root: shipped, state: try SigningTests.clientState(in: workspace.root))
        XCTAssertEqual(python.status, 0, python.stderr)
        let report = ReleaseVerifier.verify(LocalRepository(root: release), trustedRoot: try Data(contentsOf: shipped))
        XCTAssertTrue(report.isValid, "\(report.problems)")
        XCTAssertEqual(report.versions["root"], 3)
        let audit = try run(["keys", "audit", Self.tenant, "--output", "Output"], workspace)
        XCTAssertEqual(audit.status, 0, audit.stdout)
    }

    func testATwoOfThreeRootRotationWithOneHolderOnAnHSMIsWalkedByBothClients() throws {
        let hsm = try SoftHSMFixture.shared()
        let label = "r\(UUID().uuidString.prefix(8).lowercased())-root"
        try hsm.generateKey(label: label, type: "EC:prime256v1")
        let workspace = try BuildTests.Workspace()
        // Three key stores: the platform's (root-a), holder B's files, holder C's token.
        for holder in ["holder-b", "holder-c"] {
            try FileManager.default.createDirectory(at: workspace.root.appendingPathComponent(holder), withIntermediateDirectories: true)
        }
        XCTAssertEqual(try run(["keys", "generate", "root-a.key"], workspace).status, 0)
        XCTAssertEqual(try run(["keys", "generate", "root-b.key"], workspace, in: "holder-b").status, 0)
        let initialized = try run(["keys", "init", Self.tenant, "--root-threshold", "2", "--key", "root=file:root-a.key", "--key", "root=file:holder-b/root-b.key",
                                   "--key", "root=\(hsmURI(label))"], workspace)
        XCTAssertEqual(initialized.status, 0, initialized.stderr)
        XCTAssertEqual(try run(["build", "Tenants/\(Self.tenant)", "--output", "Output"], workspace).status, 0)
        let release = workspace.output.appendingPathComponent(Self.tenant)
        let firstRoot = workspace.root.appendingPathComponent("1.root.json")
        try FileManager.default.copyItem(at: release.appendingPathComponent("metadata/1.root.json"), to: firstRoot)
        XCTAssertEqual(try Metadata<Root>(data: Data(contentsOf: firstRoot)).signatures.count, 3)

        // Holder B's key is replaced; A signs with a file, C with the token. B never takes part.
        XCTAssertEqual(try run(["keys", "generate", "root-b2.key"], workspace, in: "holder-b").status, 0)
        let proposed = try run(["keys", "propose-root", Self.tenant, "--output", "Output", "--key", "root=file:root-a.key.pub",
                                "--key", "root=file:holder-b/root-b2.key.pub", "--key", "root=\(hsmURI(label))"], workspace)
        XCTAssertEqual(proposed.status, 0, proposed.stderr)
        let file = "\(Self.tenant).root-v2.json"
        XCTAssertEqual(try run(["keys", "sign", file, "--key", "file:root-a.key"], workspace).status, 0)
        let viaToken = try run(["keys", "sign", file, "--key", hsmURI(label)], workspace)
        XCTAssertEqual(viaToken.status, 0, viaToken.stderr)
        let finished = try run(["keys", "finish-root", Self.tenant, file, "--output", "Output"], workspace)
        XCTAssertEqual(finished.status, 0, finished.stderr)
        let server = try SigningTests.FileServer(root: workspace.output)
        let python = try SigningTests.pythonTUF(port: server.port, tenant: Self.tenant, root: firstRoot, state: try SigningTests.clientState(in: workspace.root))
        XCTAssertEqual(python.status, 0, python.stderr)
        let report = ReleaseVerifier.verify(LocalRepository(root: release), trustedRoot: try Data(contentsOf: firstRoot))
        XCTAssertTrue(report.isValid, "\(report.problems)")
        XCTAssertEqual(report.versions["root"], 2)
    }
}
