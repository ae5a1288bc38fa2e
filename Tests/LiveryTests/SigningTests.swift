import Crypto
import Foundation
import LiveryClient
import LiveryPublish
import LiverySign
import LiveryReleaseFormat
import XCTest

/// Each tenant's release is a TUF repository: checked by python-tuf (an independent client, over a
/// real HTTP server on 127.0.0.1) and by Livery's own verifier, including the attacks TUF exists for.
final class SigningTests: XCTestCase {
    func testCanonicalJSONMatchesSecuresystemslib() throws {
        let value: JSONValue = .object([
            "b": .int(-42), "a": .string("quote \" backslash \\ slash / tab \t newline \n é 😀"), "c": .array([.bool(true), .null, .object([:])]),
            "Z": .object(["y": .int(0), "x": .string("")]), "é": .int(1),
            // Code-point order, which is UTF-8 byte order (UTF-16 order would put U+10000 before U+FFFF); a prefix first.
            "\u{FFFF}": .int(2), "\u{10000}": .int(3), "ab": .int(4), "a\u{0}": .int(5), "": .int(6),
        ])
        let ours = try CanonicalJSON.encode(value)
        // The oracle re-encodes our bytes after parsing them: equal bytes mean we encode canonically.
        let script = "import sys, json; from securesystemslib.formats import encode_canonical; d = sys.stdin.buffer.read(); sys.stdout.buffer.write(encode_canonical(json.loads(d, strict=False)).encode('utf-8'))"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments = ["-c", script]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(ours)
        try input.fileHandleForWriting.close()
        let theirs = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(String(decoding: ours, as: UTF8.self), String(decoding: theirs, as: UTF8.self))
        XCTAssertThrowsError(try CanonicalJSON.encode(.double(1.5)), "floats cannot be signed")
    }

    func testPythonTUFRefreshesAndDownloadsEveryTargetOfEverySample() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let server = try FileServer(root: workspace.output)
        // sonic-walkscape's protected tour needs a voucher's token (VoucherTests covers the refusal).
        let token = try VoucherFetchTests.redeemedToken(workspace: workspace, port: server.port)
        for tenant in ["companero", "companero-lucia", "physio-clinic", "sonic-walkscape", "travel-experiences", "urbannest"] {
            let state = try Self.clientState(in: workspace.root, "tuf-\(tenant)")
            let result = try Self.pythonTUF(port: server.port, tenant: tenant, root: workspace.output.appendingPathComponent("\(tenant)/metadata/1.root.json"), state: state,
                                            token: tenant == "sonic-walkscape" ? token : nil)
            XCTAssertEqual(result.status, 0, "\(tenant): \(result.stdout) \(result.stderr)")
            XCTAssertTrue(result.stdout.hasPrefix("ok "), result.stdout)
        }
        let verify = try LiveryProcess.run(["verify", "--output", "Output"], in: workspace.root)
        XCTAssertEqual(verify.status, 0, verify.stdout)
        XCTAssertEqual(verify.stdout.components(separatedBy: " verified: ").count - 1, 6, verify.stdout)
    }

    func testANewReleaseIsAnUpdatePythonTUFAccepts() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let server = try FileServer(root: workspace.output)
        let state = try Self.clientState(in: workspace.root, "tuf-state")
        let root = workspace.output.appendingPathComponent("urbannest/metadata/1.root.json")
        XCTAssertEqual(try Self.pythonTUF(port: server.port, tenant: "urbannest", root: root, state: state).status, 0)
        try workspace.replace("urbannest/locales/en.yaml", "Home", "Start")
        XCTAssertEqual(try workspace.build().status, 0)
        let timestamp = try SignedMetadata(data: Data(contentsOf: workspace.output.appendingPathComponent("urbannest/metadata/timestamp.json")))
        XCTAssertEqual(timestamp.version, 2)
        let update = try Self.pythonTUF(port: server.port, tenant: "urbannest", root: root, state: state)
        XCTAssertEqual(update.status, 0, update.stderr)
    }

    func testAttacksAreRefusedByPythonTUFAndByLiveryVerify() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let release = workspace.output.appendingPathComponent("urbannest")
        let pristine = BuildTests.tree(workspace.output)
        let core = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: release.appendingPathComponent("targets").path).first { $0.hasSuffix(".core.zip") })
        let server = try FileServer(root: workspace.output)

        /// Applies an attack to a copy of a file, checks both clients refuse it, then restores the file.
        func attack(_ name: String, file: String, _ change: (inout Data) -> Void, expect phrase: String) throws {
            let url = release.appendingPathComponent(file)
            let original = try Data(contentsOf: url)
            var changed = original
            change(&changed)
            unlink(url.path)  // never write through a hard link into the store
            try changed.write(to: url)
            defer { unlink(url.path); try? original.write(to: url) }
            let report = ReleaseVerifier.verify(LocalRepository(root: release))
            XCTAssertFalse(report.isValid, "\(name): livery verify accepted it")
            XCTAssertTrue(report.problems.joined(separator: " ").contains(phrase), "\(name): \(report.problems)")
            let state = try Self.clientState(in: workspace.root, "tuf-\(UUID().uuidString)")
            let python = try Self.pythonTUF(port: server.port, tenant: "urbannest", root: release.appendingPathComponent("metadata/1.root.json"), state: state)
            XCTAssertNotEqual(python.status, 0, "\(name): python-tuf accepted it")
        }
        try attack("one byte of a bundle changed", file: "targets/\(core)", { $0[100] ^= 0xFF }, expect: "does not match its signed sha256 hash")
        try attack("bytes appended to a bundle", file: "targets/\(core)", { $0.append(contentsOf: [0, 1, 2]) }, expect: "longer than the")
        try attack("targets metadata edited", file: "metadata/1.targets.json", { data in
            data = Data(String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\"policy\":\"essential\"", with: "\"policy\":\"on-demand\"").utf8)
        }, expect: "targets.json does not match its signed sha256 hash")
        // Metadata signed by another tenant's keys.
        let other = try Data(contentsOf: workspace.output.appendingPathComponent("physio-clinic/metadata/timestamp.json"))
        try attack("timestamp signed by another tenant", file: "metadata/timestamp.json", { $0 = other }, expect: "timestamp metadata version 1 has 0 valid signatures")
        XCTAssertEqual(BuildTests.tree(workspace.output), pristine)
    }

    func testPythonTUFRefusesAnExpiredTimestampUnderFaketime() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let server = try FileServer(root: workspace.output)
        let state = try Self.clientState(in: workspace.root, "tuf-state")
        let root = workspace.output.appendingPathComponent("urbannest/metadata/1.root.json")
        let script = """
            import sys
            from tuf.ngclient import Updater
            u = Updater(metadata_dir=sys.argv[2], metadata_base_url=sys.argv[1] + "/metadata/", target_base_url=sys.argv[1] + "/targets/",
                        target_dir=sys.argv[2], bootstrap=open(sys.argv[3], "rb").read())
            u.refresh()
            """
        let base = "http://127.0.0.1:\(server.port)/urbannest"
        let now = try LiveryProcess.tool([Self.python, "-c", script, base, state.path, root.path])
        XCTAssertEqual(now.status, 0, now.stderr)
        // Two days on, the one-day timestamp has expired: a freeze attack, refused.
        _ = try Self.clientState(in: workspace.root, "tuf-state")
        let later = try LiveryProcess.tool(["faketime", "-f", "+2d", Self.python, "-c", script, base, state.path, root.path])
        XCTAssertNotEqual(later.status, 0)
        XCTAssertTrue(later.stderr.contains("ExpiredMetadataError") || later.stderr.lowercased().contains("expired"), later.stderr)
    }

    func testAnEndlessResponseIsCutOffAtTheSignedLength() throws {
        let server = try EndlessServer()
        defer { withExtendedLifetime(server) {} }
        let port = server.port
        let repository = HTTPRepository(base: URL(string: "http://127.0.0.1:\(port)/urbannest")!)
        XCTAssertThrowsError(try repository.fetch("metadata/timestamp.json", maxLength: 16 * 1024)) { error in
            XCTAssertTrue("\(error)".contains("endless data"), "\(error)")
        }
        // The client stops taking data as soon as the limit is passed (an unbounded read would run until the timeout).
        XCTAssertLessThan(repository.bytesReceived, 4 << 20, "the client stopped soon after the limit")
    }

    func testRollbackFreezeAndMixAndMatchAreRefused() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let release = workspace.output.appendingPathComponent("urbannest")
        let oldTimestamp = try Data(contentsOf: release.appendingPathComponent("metadata/timestamp.json"))
        let oldManifestName = try XCTUnwrap(Publisher.currentManifest(tenant: "urbannest", output: workspace.output)?.pointer.manifest)
        let oldManifest = try Data(contentsOf: release.appendingPathComponent(oldManifestName))
        let root = try Data(contentsOf: release.appendingPathComponent("metadata/1.root.json"))
        let source = LocalRepository(root: release)
        let first = try TUFUpdater.refresh(source: source, trustedRoot: root)
        try workspace.replace("urbannest/locales/en.yaml", "Home", "Start")
        XCTAssertEqual(try workspace.build().status, 0)
        let second = try TUFUpdater.refresh(source: source, trustedRoot: root, previous: first)
        XCTAssertEqual(second.versions["timestamp"], 2)

        // Rollback: the old timestamp replayed to a client that trusts version 2.
        let timestampURL = release.appendingPathComponent("metadata/timestamp.json")
        let current = try Data(contentsOf: timestampURL)
        unlink(timestampURL.path)
        try oldTimestamp.write(to: timestampURL)
        XCTAssertThrowsError(try TUFUpdater.refresh(source: source, trustedRoot: root, previous: second)) { error in
            XCTAssertTrue("\(error)".contains("rollback"), "\(error)")
        }
        unlink(timestampURL.path)
        try current.write(to: timestampURL)

        // Freeze: metadata read after its timestamp expired (an injected clock, two days ahead).
        let later = ReleaseVerifier.verify(source, now: Date().addingTimeInterval(2 * 86_400))
        XCTAssertTrue(later.problems.joined().contains("timestamp metadata expired"), "\(later.problems)")

        // Mix-and-match: release 1's download manifest served as release 2's.
        let newManifestName = try XCTUnwrap(Publisher.currentManifest(tenant: "urbannest", output: workspace.output)?.pointer.manifest)
        let newManifestURL = release.appendingPathComponent(newManifestName)
        let newManifest = try Data(contentsOf: newManifestURL)
        unlink(newManifestURL.path)
        try oldManifest.write(to: newManifestURL)
        let mixed = ReleaseVerifier.verify(source)
        XCTAssertFalse(mixed.isValid)
        unlink(newManifestURL.path)
        try newManifest.write(to: newManifestURL)
        XCTAssertTrue(ReleaseVerifier.verify(source).isValid)
    }

    func testKeyRotationIsWalkedByClientsThatTrustTheOldRoot() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let server = try FileServer(root: workspace.output)
        let state = try Self.clientState(in: workspace.root, "tuf-state")
        let firstRoot = workspace.root.appendingPathComponent("1.root.json")
        try FileManager.default.copyItem(at: workspace.output.appendingPathComponent("urbannest/metadata/1.root.json"), to: firstRoot)
        XCTAssertEqual(try Self.pythonTUF(port: server.port, tenant: "urbannest", root: firstRoot, state: state).status, 0)
        for role in ["timestamp", "root", "targets"] {
            let rotate = try LiveryProcess.run(["keys", "rotate", "urbannest", role, "--output", "Output"], in: workspace.root)
            XCTAssertEqual(rotate.status, 0, rotate.stdout + rotate.stderr)
        }
        // python-tuf, holding version 1 of root, walks 2, 3 and 4; so does livery verify.
        let update = try Self.pythonTUF(port: server.port, tenant: "urbannest", root: firstRoot, state: state)
        XCTAssertEqual(update.status, 0, update.stderr)
        let report = ReleaseVerifier.verify(LocalRepository(root: workspace.output.appendingPathComponent("urbannest")), trustedRoot: try Data(contentsOf: firstRoot))
        XCTAssertTrue(report.isValid, "\(report.problems)")
        XCTAssertEqual(report.versions["root"], 4)
        // The next build signs with the new keys.
        try workspace.replace("urbannest/locales/en.yaml", "Home", "Start")
        XCTAssertEqual(try workspace.build().status, 0)
        XCTAssertEqual(try Self.pythonTUF(port: server.port, tenant: "urbannest", root: firstRoot, state: state).status, 0)
    }

    func testRotationKeepsOtherRolesAsPublishedAndRefusesAForeignRootKey() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        // An online key file missing from the store: rotating another role must not drop it from the root.
        let keys = workspace.root.appendingPathComponent(".livery-keys/urbannest")
        try FileManager.default.moveItem(at: keys.appendingPathComponent("targets.key"), to: workspace.root.appendingPathComponent("targets.key.elsewhere"))
        let rotate = try LiveryProcess.run(["keys", "rotate", "urbannest", "timestamp", "--output", "Output"], in: workspace.root)
        XCTAssertNotEqual(rotate.status, 0, "re-signing targets needs the targets key")
        try FileManager.default.moveItem(at: workspace.root.appendingPathComponent("targets.key.elsewhere"), to: keys.appendingPathComponent("targets.key"))
        XCTAssertEqual(try LiveryProcess.run(["keys", "rotate", "urbannest", "snapshot", "--output", "Output"], in: workspace.root).status, 0)
        XCTAssertTrue(ReleaseVerifier.verify(LocalRepository(root: workspace.output.appendingPathComponent("urbannest"))).isValid)
        // Another tenant's key store (the wrong --keys folder) cannot rotate this tenant's keys.
        try FileManager.default.createDirectory(at: workspace.root.appendingPathComponent("other-keys"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: workspace.root.appendingPathComponent(".livery-keys/physio-clinic"), to: workspace.root.appendingPathComponent("other-keys/urbannest"))
        let foreign = try LiveryProcess.run(["keys", "rotate", "urbannest", "timestamp", "--output", "Output", "--keys", "other-keys"], in: workspace.root)
        XCTAssertEqual(foreign.status, 2)
        XCTAssertTrue(foreign.stderr.contains("is not one the published root"), foreign.stderr)
        XCTAssertTrue(ReleaseVerifier.verify(LocalRepository(root: workspace.output.appendingPathComponent("urbannest"))).isValid)
    }

    func testARootSignedOnlyByTheNewKeyIsRefused() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let metadata = workspace.output.appendingPathComponent("urbannest/metadata")
        let root = try Data(contentsOf: metadata.appendingPathComponent("1.root.json"))
        // An attacker without the old root key publishes a root that trusts only their key.
        let attacker = Curve25519.Signing.PrivateKey()
        let keys = Dictionary(uniqueKeysWithValues: TUFRole.allCases.map { ($0, [TUFKey(attacker.publicKey)]) })
        var forged = SignedMetadata(signed: TUFDocument.root(version: 2, expires: Date().addingTimeInterval(86_400), keys: keys, thresholds: [:]))
        try forged.sign(with: attacker)
        try forged.bytes().write(to: metadata.appendingPathComponent("2.root.json"))
        XCTAssertThrowsError(try TUFUpdater.refresh(source: LocalRepository(root: workspace.output.appendingPathComponent("urbannest")), trustedRoot: root)) { error in
            XCTAssertTrue("\(error)".contains("root version 2 (by the keys of trusted root version 1)"), "\(error)")
            XCTAssertEqual((error as? TUFError)?.kind, .unsigned)
        }
        let server = try FileServer(root: workspace.output)
        let state = try Self.clientState(in: workspace.root, "tuf-state")
        XCTAssertNotEqual(try Self.pythonTUF(port: server.port, tenant: "urbannest", root: metadata.appendingPathComponent("1.root.json"), state: state).status, 0)
    }

    func testRefreshTimestampKeepsAnUnchangedReleaseFresh() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let refreshed = try workspace.build(["--refresh-timestamp"])
        XCTAssertEqual(refreshed.status, 0, refreshed.stderr)
        // "inputs untouched" may come in between, depending on the build records' racy window.
        XCTAssertTrue(refreshed.stdout.contains("urbannest: unchanged (release 1") && refreshed.stdout.contains("timestamp re-signed)"), refreshed.stdout)
        let report = ReleaseVerifier.verify(LocalRepository(root: workspace.output.appendingPathComponent("urbannest")))
        XCTAssertTrue(report.isValid, "\(report.problems)")
        XCTAssertEqual(report.versions["timestamp"], 2)
        XCTAssertEqual(report.versions["targets"], 1)
    }

    func testTheRootKeyCanBeKeptOffline() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let keys = workspace.root.appendingPathComponent(".livery-keys/urbannest")
        try FileManager.default.moveItem(at: keys.appendingPathComponent("root.key"), to: workspace.root.appendingPathComponent("offline-root.key"))
        try workspace.replace("urbannest/locales/en.yaml", "Home", "Start")
        let build = try workspace.build()
        XCTAssertEqual(build.status, 0, build.stderr)
        XCTAssertTrue(ReleaseVerifier.verify(LocalRepository(root: workspace.output.appendingPathComponent("urbannest"))).isValid)
        let rotate = try LiveryProcess.run(["keys", "rotate", "urbannest", "timestamp", "--output", "Output"], in: workspace.root)
        XCTAssertEqual(rotate.status, 2)
        XCTAssertTrue(rotate.stderr.contains("bring it back to rotate keys"), rotate.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: keys.appendingPathComponent("timestamp.key.new").path), "a failed rotation leaves no staged key")
        let list = try LiveryProcess.run(["keys", "list", "--output", "Output"], in: workspace.root)
        XCTAssertTrue(list.stdout.contains("urbannest  root       (not in the key store: kept offline?)"), list.stdout)
    }

    func testAnUnsignedBuildIsNotVouchedForAndTheNextSignedBuildContinuesTheVersions() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let release = workspace.output.appendingPathComponent("urbannest")
        let root = try Data(contentsOf: release.appendingPathComponent("metadata/1.root.json"))
        let trusted = try TUFUpdater.refresh(source: LocalRepository(root: release), trustedRoot: root)
        try workspace.replace("urbannest/locales/en.yaml", "Home", "Start")
        XCTAssertEqual(try workspace.build(["--unsigned"]).status, 0)
        // The old signatures do not vouch for the unsigned release, and verify says so.
        let unsigned = ReleaseVerifier.verify(LocalRepository(root: release))
        XCTAssertTrue(unsigned.problems.joined().contains("release.json points at a download manifest"), "\(unsigned.problems)")
        let signed = try workspace.build()
        XCTAssertEqual(signed.status, 0)
        XCTAssertTrue(signed.stdout.contains("urbannest: published release 3"), signed.stdout)
        XCTAssertTrue(ReleaseVerifier.verify(LocalRepository(root: release)).isValid)
        // A client that trusted the first signed release accepts the next one: versions continued.
        let next = try TUFUpdater.refresh(source: LocalRepository(root: release), trustedRoot: root, previous: trusted)
        XCTAssertEqual(next.versions["timestamp"], 2)
    }

    func testDailyTimestampRefreshesAlsoRenewASnapshotAboutToExpire() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let release = workspace.output.appendingPathComponent("urbannest")
        let keys = try KeyStore(root: workspace.root.appendingPathComponent(".livery-keys")).keys(for: "urbannest", create: false, warn: { _ in })
        // Six days later the one-week snapshot is close to expiring.
        let later = Date().addingTimeInterval(6 * 86_400)
        try Publisher.amend(tenant: "urbannest", output: workspace.output) { try RepositorySigner.refreshTimestamp(release: $0, keys: keys, now: later) }
        let report = ReleaseVerifier.verify(LocalRepository(root: release), now: later.addingTimeInterval(12 * 3_600))
        XCTAssertTrue(report.isValid, "\(report.problems)")
        XCTAssertEqual(report.versions["snapshot"], 2)
    }

    func testABuildThatCreatesKeysForOneTenantWarnsAsDocumented() throws {
        let workspace = try BuildTests.Workspace()
        let output = try LiveryProcess.run(["build", "Tenants/urbannest", "--output", "Output"], in: workspace.root)
        XCTAssertEqual(output.status, 0, output.stderr)
        // docs/keys.md#development-keys and docs/signing.md show these three lines.
        let folder = workspace.root.appendingPathComponent(".livery-keys/urbannest").path
        XCTAssertEqual(output.stderr.split(separator: "\n").filter { $0.hasPrefix("WARNING") }.joined(separator: "\n"), """
            WARNING: created DEVELOPMENT signing keys for 'urbannest' in \(folder).
            WARNING: they are unprotected files on this machine, with the root key online. Do not publish
            WARNING: a real release with them; create real keys with `livery keys init urbannest`.
            """)
    }

    func testABuildThatCreatesKeysForManyTenantsWarnsOnceBeforePublishingAny() throws {
        let workspace = try BuildTests.Workspace()
        // Stopped right after the first tenant's release is flushed and before it is switched in (`--verbose`
        // steps; companero is packed first): the warning has been given, and nothing is published yet.
        let running = try LiveryProcess.start(["build", "Tenants", "--output", "Output", "--verbose"], in: workspace.root,
                                              environment: ["LIVERY_STOP_AFTER_STEP": "companero signed"], lineByLine: true)
        var steps: [String] = []
        while let line = running.nextLine() {
            steps.append(line)
            if line == "step: companero signed" { break }
        }
        let stderr = running.stderr
        running.kill()
        XCTAssertEqual(steps.last, "step: companero signed", steps.joined(separator: "\n"))
        XCTAssertFalse(steps.contains { $0.hasSuffix(" switched") }, steps.joined(separator: "\n"))
        for tenant in ["companero", "urbannest"] { XCTAssertNil(Publisher.currentManifest(tenant: tenant, output: workspace.output), tenant) }
        let keys = workspace.root.appendingPathComponent(".livery-keys").path
        // One warning for the six tenants (not three lines each): their number, the key store, the first five ids, the advice.
        XCTAssertEqual(stderr.split(separator: "\n").filter { $0.hasPrefix("WARNING") }.joined(separator: "\n"), """
            WARNING: created DEVELOPMENT signing keys for 6 tenants in \(keys) (a folder each): 'companero', 'companero-lucia', 'physio-clinic', 'sonic-walkscape', 'travel-experiences' and 1 more.
            WARNING: they are unprotected files on this machine, with the root key online. Do not publish
            WARNING: a real release with them; create real keys with `livery keys init <tenant>` for each.
            """)
        // The next build finds the keys (made before the kill) and warns no more.
        let next = try workspace.build()
        XCTAssertEqual(next.status, 0, next.stderr)
        XCTAssertFalse(next.stderr.contains("WARNING"), next.stderr)
        XCTAssertEqual(try LiveryProcess.run(["verify", "--output", "Output"], in: workspace.root).status, 0)
    }

    func testTheWarningForSeveralTenantsNamesAtMostFiveInOrder() throws {
        let store = KeyStore(root: URL(fileURLWithPath: "/srv/keys"))
        XCTAssertTrue(store.developmentKeysWarning(tenants: ["b", "a"])
            .hasPrefix("WARNING: created DEVELOPMENT signing keys for 2 tenants in /srv/keys (a folder each): 'a', 'b'.\n"))
        let many = store.developmentKeysWarning(tenants: (1...10_000).map { String(format: "t%05d", $0) }.reversed())
        XCTAssertEqual(many.split(separator: "\n").count, 3)
        XCTAssertTrue(many.hasPrefix("WARNING: created DEVELOPMENT signing keys for 10000 tenants in /srv/keys (a folder each): 't00001', 't00002', 't00003', 't00004', 't00005' and 9995 more.\n"), many)
    }

    func testKeysAreKeptOutsideOutputWithOwnerOnlyPermissions() throws {
        let workspace = try BuildTests.Workspace()
        let output = try workspace.build()
        XCTAssertEqual(output.status, 0)
        XCTAssertTrue(output.stderr.contains("WARNING: created DEVELOPMENT signing keys for 6 tenants in "), output.stderr)
        let keys = workspace.root.appendingPathComponent(".livery-keys/urbannest")
        for role in ["root", "targets", "snapshot", "timestamp"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: keys.appendingPathComponent("\(role).key").path)
            XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600, role)
            let secret = try String(contentsOf: keys.appendingPathComponent("\(role).key"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            XCTAssertFalse(output.stdout.contains(secret) || output.stderr.contains(secret), "a private key reached the log")
            let leaked = try LiveryProcess.tool(["grep", "-rl", secret, workspace.output.path])
            XCTAssertNotEqual(leaked.status, 0, "a private key is under Output/: \(leaked.stdout)")
        }
        // One tenant's keys cannot sign another's release: the published root trusts only its own.
        let urbannest = try SignedMetadata(data: Data(contentsOf: workspace.output.appendingPathComponent("urbannest/metadata/1.root.json")))
        let physio = try SignedMetadata(data: Data(contentsOf: workspace.output.appendingPathComponent("physio-clinic/metadata/1.root.json")))
        XCTAssertTrue(Set(urbannest.signed["keys"]!.objectValue!.keys).isDisjoint(with: physio.signed["keys"]!.objectValue!.keys))
    }
}
