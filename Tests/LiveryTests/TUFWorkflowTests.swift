import Crypto
import Foundation
import LiveryClient
import LiveryPublish
import LiverySign
import LiveryReleaseFormat
import XCTest

/// The parts of the TUF client workflow beyond the basic checks: what is kept after a partial
/// refresh, fast-forward recovery, not fetching what did not change, and the attacks of the issue
/// as seen by python-tuf (an independent client).
final class TUFWorkflowTests: XCTestCase {
    /// A source that records every path asked for.
    final class RecordingSource: RepositorySource, @unchecked Sendable {
        let base: LocalRepository
        private let lock = NSLock()
        private var paths: [String] = []

        init(_ root: URL) { base = LocalRepository(root: root) }

        func fetch(_ path: String, maxLength: Int) throws -> Data? {
            lock.withLock { paths.append(path) }
            return try base.fetch(path, maxLength: maxLength)
        }

        func take() -> [String] { lock.withLock { defer { paths = [] }; return paths } }
    }

    func testAnUnchangedSnapshotAndTargetsAreNotFetchedAgain() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let release = workspace.output.appendingPathComponent("urbannest")
        let root = try Data(contentsOf: release.appendingPathComponent("metadata/1.root.json"))
        let source = RecordingSource(release)
        let first = try TUFUpdater.refresh(source: source, trustedRoot: root)
        XCTAssertEqual(source.take(), ["metadata/2.root.json", "metadata/timestamp.json", "metadata/1.snapshot.json", "metadata/1.targets.json"])

        // Only the timestamp changes (a daily refresh): the trusted snapshot and targets are used as they are.
        XCTAssertEqual(try workspace.build(["--refresh-timestamp"]).status, 0)
        let second = try TUFUpdater.refresh(source: source, trustedRoot: root, previous: first)
        XCTAssertEqual(second.versions["timestamp"], 2)
        XCTAssertEqual(source.take(), ["metadata/2.root.json", "metadata/timestamp.json"])

        // A new release: both are fetched again.
        try workspace.replace("urbannest/locales/en.yaml", "Home", "Start")
        XCTAssertEqual(try workspace.build().status, 0)
        _ = try TUFUpdater.refresh(source: source, trustedRoot: root, previous: second)
        XCTAssertEqual(source.take(), ["metadata/2.root.json", "metadata/timestamp.json", "metadata/2.snapshot.json", "metadata/2.targets.json"])
    }

    func testATrustedCopyThatNoLongerMatchesIsFetchedAgain() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let release = workspace.output.appendingPathComponent("urbannest")
        let root = try Data(contentsOf: release.appendingPathComponent("metadata/1.root.json"))
        let source = RecordingSource(release)
        let first = try TUFUpdater.refresh(source: source, trustedRoot: root)
        _ = source.take()
        // A local copy edited on disk (same version number, other bytes) is not trusted as it is.
        var edited = try SignedMetadata(data: try XCTUnwrap(first.roleFiles["snapshot"]))
        edited.signed = .object((edited.signed.objectValue ?? [:]).merging(["expires": .string("2099-01-01T00:00:00Z")]) { $1 })
        var kept: [String: Data] = [:]
        for (name, data) in first.files() { kept[String(name.dropLast(".json".count))] = data }
        kept["snapshot"] = try edited.bytes()
        let store = MemoryMetadataStore(kept)
        try TUFUpdater(source: source, store: store).refresh()
        XCTAssertEqual(source.take(), ["metadata/2.root.json", "metadata/timestamp.json", "metadata/1.snapshot.json"])
        XCTAssertNotEqual(store.files["snapshot"], try edited.bytes(), "the fetched snapshot replaces the edited copy")
    }

    func testFastForwardRecoveryAfterTheTimestampKeyIsRotated() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let release = workspace.output.appendingPathComponent("urbannest")
        let root = try Data(contentsOf: release.appendingPathComponent("metadata/1.root.json"))
        let keys = try KeyStore(root: workspace.root.appendingPathComponent(".livery-keys")).keys(for: "urbannest", create: false, warn: { _ in })

        // An attacker with the (compromised) timestamp key pushes clients to timestamp version 1000.
        let timestampURL = release.appendingPathComponent("metadata/timestamp.json")
        let genuine = try Data(contentsOf: timestampURL)
        var forged = try SignedMetadata(data: genuine)
        forged.signed = .object((forged.signed.objectValue ?? [:]).merging(["version": .int(1000)]) { $1 })
        forged.signatures = []
        try forged.sign(with: try XCTUnwrap(keys.signer(.timestamp)))
        unlink(timestampURL.path)
        try forged.bytes().write(to: timestampURL)
        let fastForwarded = try TUFUpdater.refresh(source: LocalRepository(root: release), trustedRoot: root)
        XCTAssertEqual(fastForwarded.versions["timestamp"], 1000)
        unlink(timestampURL.path)
        try genuine.write(to: timestampURL)

        // The genuine timestamp now looks like a rollback to that client…
        XCTAssertThrowsError(try TUFUpdater.refresh(source: LocalRepository(root: release), trustedRoot: root, previous: fastForwarded)) { error in
            XCTAssertTrue("\(error)".contains("rollback"), "\(error)")
        }
        // …until the repository rotates the timestamp key: the kept timestamp no longer verifies under
        // the new root, so it no longer holds the client back (§5.3.11), and the client follows the
        // repository again; the kept snapshot and targets are still the current ones.
        let rotate = try LiveryProcess.run(["keys", "rotate", "urbannest", "timestamp"], in: workspace.root)
        XCTAssertEqual(rotate.status, 0, rotate.stderr)
        var kept: [(String, Bool)] = []
        let recovered = try TUFUpdater.refresh(source: LocalRepository(root: release), trustedRoot: root, previous: fastForwarded) { name, _ in
            kept.append((name, true))
        }
        XCTAssertEqual(recovered.versions["root"], 2)
        XCTAssertEqual(recovered.versions["timestamp"], 2)
        XCTAssertEqual(Array(kept.map(\.0).prefix(2)), ["root.json", "timestamp.json"], "the new root, then the genuine timestamp")
    }

    func testAFailedRefreshKeepsTheNewerRootItWalkedTo() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let release = workspace.output.appendingPathComponent("urbannest")
        let state = workspace.root.appendingPathComponent("tuf-client")
        let initialise = try LiveryProcess.run(["tuf-client", "--metadata-dir", state.path, "init", release.appendingPathComponent("metadata/1.root.json").path], in: workspace.root)
        XCTAssertEqual(initialise.status, 0, initialise.stderr)
        XCTAssertEqual(try LiveryProcess.run(["keys", "rotate", "urbannest", "root"], in: workspace.root).status, 0)
        // The timestamp is now signed by another tenant's key: the refresh fails after the root walk.
        let timestampURL = release.appendingPathComponent("metadata/timestamp.json")
        unlink(timestampURL.path)
        try Data(contentsOf: workspace.output.appendingPathComponent("physio-clinic/metadata/timestamp.json")).write(to: timestampURL)
        let server = try SigningTests.FileServer(root: workspace.output)
        let refresh = try LiveryProcess.run(["tuf-client", "--metadata-dir", state.path, "--metadata-url", "http://127.0.0.1:\(server.port)/urbannest/metadata", "refresh"],
                                            in: workspace.root)
        XCTAssertEqual(refresh.status, 1, refresh.stderr)
        XCTAssertTrue(refresh.stderr.contains("timestamp metadata version 1 has 0 valid signatures"), refresh.stderr)
        XCTAssertEqual(try SignedMetadata(data: Data(contentsOf: state.appendingPathComponent("root.json"))).version, 2, "the verified root version 2 was kept")
        XCTAssertFalse(FileManager.default.fileExists(atPath: state.appendingPathComponent("timestamp.json").path), "the bad timestamp was not")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: state.path).sorted(), ["root.json"], "no partial files are left")
    }

    func testPythonTUFRefusesARollbackAMixAndMatchAndAnEndlessBody() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let release = workspace.output.appendingPathComponent("urbannest")
        let root = release.appendingPathComponent("metadata/1.root.json")
        let oldTimestamp = try Data(contentsOf: release.appendingPathComponent("metadata/timestamp.json"))
        let oldManifest = try Data(contentsOf: release.appendingPathComponent(try XCTUnwrap(Publisher.currentManifest(tenant: "urbannest", output: workspace.output)?.pointer.manifest)))
        try workspace.replace("urbannest/locales/en.yaml", "Home", "Start")
        XCTAssertEqual(try workspace.build().status, 0)
        let server = try SigningTests.FileServer(root: workspace.output)
        let state = try SigningTests.clientState(in: workspace.root)
        XCTAssertEqual(try SigningTests.pythonTUF(port: server.port, tenant: "urbannest", root: root, state: state).status, 0)

        // Rollback: release 1's timestamp replayed to a client that trusts release 2's.
        let timestampURL = release.appendingPathComponent("metadata/timestamp.json")
        let current = try Data(contentsOf: timestampURL)
        unlink(timestampURL.path)
        try oldTimestamp.write(to: timestampURL)
        let rollback = try SigningTests.pythonTUF(port: server.port, tenant: "urbannest", root: root, state: state)
        XCTAssertNotEqual(rollback.status, 0)
        XCTAssertTrue(rollback.stderr.contains("BadVersionNumberError"), rollback.stderr)
        unlink(timestampURL.path)
        try current.write(to: timestampURL)

        // Mix-and-match: release 1's download manifest served as release 2's.
        let manifestURL = release.appendingPathComponent(try XCTUnwrap(Publisher.currentManifest(tenant: "urbannest", output: workspace.output)?.pointer.manifest))
        let manifest = try Data(contentsOf: manifestURL)
        unlink(manifestURL.path)
        try oldManifest.write(to: manifestURL)
        let fresh = try SigningTests.clientState(in: workspace.root)
        let mixed = try SigningTests.pythonTUF(port: server.port, tenant: "urbannest", root: root, state: fresh, targets: ["download-manifest.json"])
        XCTAssertNotEqual(mixed.status, 0)
        XCTAssertTrue(mixed.stderr.contains("LengthOrHashMismatchError"), mixed.stderr)
        unlink(manifestURL.path)
        try manifest.write(to: manifestURL)
        XCTAssertEqual(try SigningTests.pythonTUF(port: server.port, tenant: "urbannest", root: root, state: fresh, targets: ["download-manifest.json"]).status, 0)

        // An endless body: python-tuf stops at its length limit for root metadata.
        let endless = try SigningTests.EndlessServer()
        defer { withExtendedLifetime(endless) {} }
        let flooded = try SigningTests.pythonTUF(port: endless.port, tenant: "urbannest", root: root, state: try SigningTests.clientState(in: workspace.root))
        XCTAssertNotEqual(flooded.status, 0)
        XCTAssertTrue(flooded.stderr.contains("DownloadLengthMismatchError"), flooded.stderr)
    }

    func testECDSAP256KeysFromOtherRepositoriesVerify() throws {
        let key = P256.Signing.PrivateKey()
        let json = JSONValue.object(["keytype": .string("ecdsa"), "scheme": .string("ecdsa-sha2-nistp256"),
                                     "keyval": .object(["public": .string(key.publicKey.pemRepresentation)])])
        let tufKey = try TUFKey(json: json)
        var metadata = SignedMetadata(signed: TUFDocument.targets(version: 1, expires: Date().addingTimeInterval(60), targets: [:]))
        let message = try CanonicalJSON.encode(metadata.signed)
        metadata.signatures = [(tufKey.keyID, Data(try key.signature(for: message).derRepresentation).hexString)]
        let ring = KeyRing(keys: [tufKey.keyID: tufKey], role: RoleKeys(keyIDs: [tufKey.keyID], threshold: 1))
        XCTAssertEqual(ring.validSignatures(try Metadata<Targets>(data: metadata.bytes())), 1)
        metadata.signed = TUFDocument.targets(version: 2, expires: Date().addingTimeInterval(60), targets: [:])
        XCTAssertEqual(ring.validSignatures(try Metadata<Targets>(data: metadata.bytes())), 0, "a signature over other bytes")
        // Unknown schemes and malformed keys are kept as listed, and never verify.
        XCTAssertFalse(try TUFKey(json: .object(["keytype": .string("rsa"), "scheme": .string("rsassa-pss-sha256"), "keyval": .object(["public": .string("x")])])).isSupported)
        XCTAssertFalse(try TUFKey(json: .object(["keytype": .string("ecdsa"), "scheme": .string("ecdsa-sha2-nistp256"), "keyval": .object(["public": .string("not pem")])])).isSupported)
        XCTAssertFalse(try TUFKey(json: .object(["keytype": .string("dsa"), "scheme": .string("dsa"), "keyval": .object(["public": .string("x")])])).isSupported)
    }
}
