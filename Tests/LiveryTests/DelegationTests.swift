import Crypto
import Foundation
import LiveryClient
import LiveryPublish
import LiverySign
import LiveryReleaseFormat
import XCTest

/// `livery keys delegate`: a creator's own key for their own content, as a delegated targets role
/// that both python-tuf and Livery's client follow, and that can sign nothing outside its paths.
final class DelegationTests: XCTestCase {
    static let tenant = "companero-lucia"
    static let program = "program.30-day-fitness-foundation.zip"

    /// A built workspace whose creator tenant has a delegated role for its programs.
    func delegatedWorkspace() throws -> BuildTests.Workspace {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let delegate = try LiveryProcess.run(["keys", "delegate", Self.tenant, "--path", "program.*"], in: workspace.root)
        XCTAssertEqual(delegate.status, 0, delegate.stderr)
        XCTAssertTrue(delegate.stdout.contains("delegated role 'companero-lucia'"), delegate.stdout)
        XCTAssertTrue(delegate.stdout.contains("signed again (targets version 2)"), delegate.stdout)
        return workspace
    }

    func release(_ workspace: BuildTests.Workspace) -> URL { workspace.output.appendingPathComponent(Self.tenant) }

    func trusted(_ workspace: BuildTests.Workspace) throws -> TrustedMetadata {
        let release = release(workspace)
        return try TUFUpdater.refresh(source: LocalRepository(root: release), trustedRoot: Data(contentsOf: release.appendingPathComponent("metadata/1.root.json")))
    }

    func testADelegatedRoleSignsTheCreatorsProgramsAndBothClientsFollowIt() throws {
        let workspace = try delegatedWorkspace()
        let release = release(workspace)
        // The program moved out of the tenant's targets into the role, signed by the creator's key.
        let published = try XCTUnwrap(PublishedMetadata.read(release: release))
        XCTAssertNil(published.targets.signed.targets[Self.program])
        let role = try XCTUnwrap(published.delegated[Self.tenant])
        XCTAssertNotNil(role.signed.targets[Self.program])
        let delegations = try XCTUnwrap(published.targets.signed.delegations)
        XCTAssertEqual(delegations.roles.map(\.name), [Self.tenant])
        XCTAssertEqual(delegations.roles.first?.paths, ["program.*", "staged/program.*"], "a staged program is the creator's to sign too")
        XCTAssertTrue(delegations.roles.first?.terminating ?? false)
        let keyID = try XCTUnwrap(delegations.roles.first?.keyIDs.first)
        XCTAssertEqual(Array(role.signatures.keys), [keyID])
        let rootKeys = try SignedMetadata(data: Data(contentsOf: release.appendingPathComponent("metadata/1.root.json"))).signed["keys"]?.objectValue ?? [:]
        XCTAssertNil(rootKeys[keyID], "the creator's key is not one of the tenant's top-level keys")
        // The private key stays in the key store, owner-only.
        let keyFile = workspace.root.appendingPathComponent(".livery-keys/\(Self.tenant)/delegations/\(Self.tenant).key")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: keyFile.path)[.posixPermissions] as? Int, 0o600)

        // Livery's client and `livery verify` resolve the program through the role.
        let trusted = try trusted(workspace)
        XCTAssertEqual(trusted.signer(of: Self.program), Self.tenant)
        XCTAssertEqual(trusted.signer(of: "core.zip"), "targets")
        XCTAssertTrue(trusted.targetNames.contains(Self.program))
        let verify = try LiveryProcess.run(["verify", Self.tenant, "--output", "Output"], in: workspace.root)
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)

        // python-tuf too: every target, the delegated program included.
        let server = try SigningTests.FileServer(root: workspace.output)
        let state = try SigningTests.clientState(in: workspace.root)
        let python = try SigningTests.pythonTUF(port: server.port, tenant: Self.tenant, root: release.appendingPathComponent("metadata/1.root.json"),
                                                state: state, targets: trusted.targetNames)
        XCTAssertEqual(python.status, 0, python.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: state.appendingPathComponent("\(Self.tenant).json").path), "python-tuf keeps the delegated role")

        // `livery fetch` installs the delegated program.
        let cache = workspace.root.appendingPathComponent("cache")
        let fetch = try LiveryProcess.run(["fetch", Self.tenant, "--server", "http://127.0.0.1:\(server.port)", "--cache", cache.path,
                                           "--root", release.appendingPathComponent("metadata/1.root.json").path,
                                           "--program", "30-day-fitness-foundation"], in: workspace.root)
        XCTAssertEqual(fetch.status, 0, fetch.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: cache.appendingPathComponent("\(Self.tenant)/current/bundles/program.30-day-fitness-foundation").path), fetch.stdout)
    }

    func testTheCreatorsKeyCannotSignOutsideItsPathsAndAForeignKeyCannotSignForTheRole() throws {
        let workspace = try delegatedWorkspace()
        let release = release(workspace)
        let keys = try KeyStore(root: workspace.root.appendingPathComponent(".livery-keys")).keys(for: Self.tenant, create: false, warn: { _ in })
        let creator = try XCTUnwrap(keys.delegations.first?.signer)
        let server = try SigningTests.FileServer(root: workspace.output)

        /// Publishes a new version of the delegated role (signed by `key`) under a correctly signed snapshot and timestamp.
        func forge(signedBy key: any MetadataSigner, _ change: (inout [String: JSONValue]) -> Void) throws {
            let published = try XCTUnwrap(PublishedMetadata.read(release: release))
            let role = try XCTUnwrap(published.delegated[Self.tenant])
            var targets = role.signedJSON["targets"]?.objectValue ?? [:]
            change(&targets)
            let version = role.signed.version + 1
            var forged = SignedMetadata(signed: TUFDocument.targets(version: version, expires: Date().addingTimeInterval(86_400), targets: targets))
            try forged.sign(with: key)
            let forgedBytes = try forged.bytes()
            let metadata = release.appendingPathComponent("metadata")
            try forgedBytes.write(to: metadata.appendingPathComponent("\(version).\(Self.tenant).json"))
            var snapshotSigned = published.snapshot.signedJSON.objectValue ?? [:]
            var meta = snapshotSigned["meta"]?.objectValue ?? [:]
            meta["\(Self.tenant).json"] = MetaFile(version: version, length: forgedBytes.count, sha256: SHA256.hash(data: forgedBytes).hexString).json
            snapshotSigned["meta"] = .object(meta)
            let snapshotVersion = published.snapshot.signed.version + 1
            snapshotSigned["version"] = .int(snapshotVersion)
            var snapshot = SignedMetadata(signed: .object(snapshotSigned))
            try snapshot.sign(with: try XCTUnwrap(keys.signer(.snapshot)))
            let snapshotBytes = try snapshot.bytes()
            try snapshotBytes.write(to: metadata.appendingPathComponent("\(snapshotVersion).snapshot.json"))
            var timestamp = SignedMetadata(signed: TUFDocument.timestamp(version: published.timestamp.signed.version + 1, expires: Date().addingTimeInterval(86_400),
                                                                         snapshot: MetaFile(version: snapshotVersion, length: snapshotBytes.count, sha256: SHA256.hash(data: snapshotBytes).hexString)))
            try timestamp.sign(with: try XCTUnwrap(keys.signer(.timestamp)))
            unlink(metadata.appendingPathComponent("timestamp.json").path)
            try timestamp.bytes().write(to: metadata.appendingPathComponent("timestamp.json"))
        }
        let root = release.appendingPathComponent("metadata/1.root.json")
        let pythonLookup = """
            import sys
            from tuf.ngclient import Updater
            u = Updater(metadata_dir=sys.argv[2], metadata_base_url=sys.argv[1] + "/metadata/", target_base_url=sys.argv[1] + "/targets/",
                        target_dir=sys.argv[2], bootstrap=open(sys.argv[3], "rb").read())
            u.refresh()
            print("found" if u.get_targetinfo(sys.argv[4]) else "absent")
            """
        let base = "http://127.0.0.1:\(server.port)/\(Self.tenant)"

        // 1. The creator's key signs a target outside `program.*`: it is valid metadata, but no
        //    client resolves that target through the role.
        let core = try XCTUnwrap(trusted(workspace).target("core.zip"))
        try forge(signedBy: creator) { $0["evil.zip"] = TUFDocument.target(length: core.length, sha256: core.sha256, custom: nil) }
        let trusted = try trusted(workspace)
        XCTAssertNil(trusted.target("evil.zip"))
        XCTAssertFalse(trusted.targetNames.contains("evil.zip"))
        let python = try LiveryProcess.tool([SigningTests.python, "-c", pythonLookup, base, try SigningTests.clientState(in: workspace.root).path, root.path, "evil.zip"])
        XCTAssertEqual(python.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "absent", python.stderr)
        XCTAssertEqual(try LiveryProcess.run(["verify", Self.tenant, "--output", "Output"], in: workspace.root).status, 0)

        // 2. Another key signs the role's program: refused by both clients and by verify.
        try forge(signedBy: Ed25519Signer(Curve25519.Signing.PrivateKey(), uri: "memory:")) { targets in
            targets[Self.program] = TUFDocument.target(length: core.length, sha256: core.sha256, custom: nil)
        }
        XCTAssertThrowsError(try self.trusted(workspace)) { error in
            XCTAssertEqual((error as? TUFError)?.kind, .unsigned, "\(error)")
            XCTAssertTrue("\(error)".contains("'companero-lucia'"), "\(error)")
        }
        let refused = try LiveryProcess.tool([SigningTests.python, "-c", pythonLookup, base, try SigningTests.clientState(in: workspace.root).path, root.path, Self.program])
        XCTAssertNotEqual(refused.status, 0, refused.stdout)
        XCTAssertEqual(try LiveryProcess.run(["verify", Self.tenant, "--output", "Output"], in: workspace.root).status, 1)
    }

    func testTheRolesVersionGrowsOnlyWithItsContentAndItsKeyIsNeededOnlyThen() throws {
        let workspace = try delegatedWorkspace()
        let release = release(workspace)
        XCTAssertEqual(PublishedMetadata.read(release: release)?.version(ofDelegated: Self.tenant), 1)

        // A locale change: new top-level versions, the same delegated role file.
        try workspace.replace("\(Self.tenant)/locales/en.yaml", "Strength coach", "Strength and mobility coach")
        XCTAssertEqual(try workspace.build().status, 0)
        var published = try XCTUnwrap(PublishedMetadata.read(release: release))
        XCTAssertEqual(published.targets.signed.version, 3)
        XCTAssertEqual(published.version(ofDelegated: Self.tenant), 1)

        // The creator keeps their key away: the platform can still publish its own changes…
        let keyFile = workspace.root.appendingPathComponent(".livery-keys/\(Self.tenant)/delegations/\(Self.tenant).key")
        let away = workspace.root.appendingPathComponent("creator.key")
        XCTAssertEqual(rename(keyFile.path, away.path), 0)
        try workspace.replace("\(Self.tenant)/locales/en.yaml", "Strength and mobility coach", "Mobility coach")
        XCTAssertEqual(try workspace.build().status, 0)
        published = try XCTUnwrap(PublishedMetadata.read(release: release))
        XCTAssertEqual(published.version(ofDelegated: Self.tenant), 1)

        // …but a change to the creator's program needs the creator's key, and publishes nothing without it.
        let before = BuildTests.tree(workspace.output)
        try workspace.replace("\(Self.tenant)/programs/30-day-fitness-foundation.yaml", "Find your rhythm", "Find your pace")
        let refused = try workspace.build()
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("its key is not in the key store"), refused.stderr)
        XCTAssertEqual(BuildTests.tree(workspace.output), before, "the previous release is untouched")

        // With the key back, the role moves to version 2 and clients accept it.
        XCTAssertEqual(rename(away.path, keyFile.path), 0)
        XCTAssertEqual(try workspace.build().status, 0)
        published = try XCTUnwrap(PublishedMetadata.read(release: release))
        XCTAssertEqual(published.version(ofDelegated: Self.tenant), 2)
        XCTAssertNotNil(try trusted(workspace).target(Self.program))
    }

    /// Found by SignerPropertyTests (seed 0x6): with the creator's key away and their program
    /// changed, the tenant's build fails, as it should; but `--refresh-timestamp` then skipped the
    /// tenant, whose published release stays live, so its timestamp expired a day later and every
    /// client refused it. The daily refresh now re-signs it too.
    func testTheDailyRefreshKeepsTheLiveReleaseValidWhileACreatorsChangeWaitsForTheirKey() throws {
        let workspace = try delegatedWorkspace()
        let release = release(workspace)
        let keyFile = workspace.root.appendingPathComponent(".livery-keys/\(Self.tenant)/delegations/\(Self.tenant).key")
        XCTAssertEqual(rename(keyFile.path, workspace.root.appendingPathComponent("creator.key").path), 0)
        try workspace.replace("\(Self.tenant)/programs/30-day-fitness-foundation.yaml", "Find your rhythm", "Find your pace")
        let live = try XCTUnwrap(Publisher.currentManifest(tenant: Self.tenant, output: workspace.output)?.pointer)

        // A day and a half later the release's first timestamp has expired; the daily job runs.
        let later = ["faketime", "-f", "+36h", LiveryProcess.executable.path]
        let refresh = try LiveryProcess.tool(["-C", workspace.root.path] + later + ["build", "Tenants", "--output", "Output", "--refresh-timestamp"])
        XCTAssertNotEqual(refresh.status, 0, "the creator's change still cannot be published")
        XCTAssertTrue(refresh.stderr.contains("its key is not in the key store"), refresh.stderr)
        XCTAssertTrue(refresh.stderr.contains("(release 1 stays live, timestamp re-signed)"), refresh.stderr)
        XCTAssertEqual(Publisher.currentManifest(tenant: Self.tenant, output: workspace.output)?.pointer, live)
        let verify = try LiveryProcess.tool(["-C", workspace.root.path] + later + ["verify", Self.tenant, "--output", "Output"])
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
        let python = try LiveryProcess.tool(["faketime", "-f", "+36h", SigningTests.python, "-c", """
            import sys, tempfile
            from tuf.api import exceptions
            from tuf.ngclient import FetcherInterface, Updater
            class Folder(FetcherInterface):
                def _fetch(self, url):
                    try:
                        return iter([open(sys.argv[1] + "/metadata/" + url.rsplit("/", 1)[1], "rb").read()])
                    except FileNotFoundError:
                        raise exceptions.DownloadHTTPError(url, 404)
            u = Updater(metadata_dir=tempfile.mkdtemp(), metadata_base_url="file:///metadata/", fetcher=Folder(),
                        bootstrap=open(sys.argv[1] + "/metadata/1.root.json", "rb").read())
            u.refresh()
            """, release.path])
        XCTAssertEqual(python.status, 0, python.stderr)
    }

    /// Found while giving SignerPropertyTests a clock (by reading the signer, then reproduced): with
    /// the creator's key away (the documented way to keep it off the build machine), the daily
    /// refresh failed as soon as the role's metadata was in the last third of its 90 days ("the
    /// targets of delegated role … changed", though they had not), so the whole release expired a
    /// day later. The published role is now kept, with a warning, while it outlives the new
    /// timestamp; after that the refresh says the role expires.
    func testTheDailyRefreshKeepsACreatorsRoleWhoseKeyIsAwayUntilItExpires() throws {
        let workspace = try delegatedWorkspace()
        let keyFile = workspace.root.appendingPathComponent(".livery-keys/\(Self.tenant)/delegations/\(Self.tenant).key")
        XCTAssertEqual(rename(keyFile.path, workspace.root.appendingPathComponent("creator.key").path), 0)
        let role = try XCTUnwrap(PublishedMetadata.read(release: release(workspace))?.delegated[Self.tenant])
        func at(_ offset: String, _ arguments: [String]) throws -> LiveryProcess.Output {
            try LiveryProcess.tool(["-C", workspace.root.path, "faketime", "-f", offset, LiveryProcess.executable.path] + arguments)
        }

        // 65 days on, 25 of the role's 90 left: the release is signed again around the role's file.
        let refresh = try at("+65d", ["build", "Tenants", "--output", "Output", "--refresh-timestamp"])
        XCTAssertEqual(refresh.status, 0, refresh.stderr)
        XCTAssertTrue(refresh.stderr.contains("WARNING: delegated role '\(Self.tenant)' expires at"), refresh.stderr)
        let published = try XCTUnwrap(PublishedMetadata.read(release: release(workspace)))
        XCTAssertEqual(published.delegated[Self.tenant]?.bytes, role.bytes, "the creator's file is kept as it is")
        XCTAssertGreaterThan(published.targets.signed.expires, Date().addingTimeInterval(120 * 86_400))
        let verify = try at("+65d", ["verify", Self.tenant, "--output", "Output"])
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)

        // Less than a day before the role expires, no new timestamp may vouch for it any more.
        let late = try at("+89.5d", ["build", "Tenants", "--output", "Output", "--refresh-timestamp"])
        XCTAssertNotEqual(late.status, 0)
        XCTAssertTrue(late.stderr.contains("delegated role '\(Self.tenant)' expires at"), late.stderr)
        XCTAssertTrue(late.stderr.contains("bring \(Self.tenant).key back"), late.stderr)
    }

    func testEndingADelegationKeepsExistingClientsUpdating() throws {
        let workspace = try delegatedWorkspace()
        let release = release(workspace)
        let server = try SigningTests.FileServer(root: workspace.output)
        let state = try SigningTests.clientState(in: workspace.root)
        let root = release.appendingPathComponent("metadata/1.root.json")
        XCTAssertEqual(try SigningTests.pythonTUF(port: server.port, tenant: Self.tenant, root: root, state: state, targets: [Self.program]).status, 0)
        let previous = try trusted(workspace)

        let remove = try LiveryProcess.run(["keys", "delegate", Self.tenant, "--remove"], in: workspace.root)
        XCTAssertEqual(remove.status, 0, remove.stderr)
        let published = try XCTUnwrap(PublishedMetadata.read(release: release))
        XCTAssertNotNil(published.targets.signed.targets[Self.program], "the program is back in the tenant's targets")
        XCTAssertNil(published.targets.signed.delegations)
        // The snapshot still lists the retired role: a client's trusted snapshot listed it.
        XCTAssertEqual(published.version(ofDelegated: Self.tenant), 1)
        let python = try SigningTests.pythonTUF(port: server.port, tenant: Self.tenant, root: root, state: state, targets: [Self.program])
        XCTAssertEqual(python.status, 0, python.stderr)
        let next = try TUFUpdater.refresh(source: LocalRepository(root: release), trustedRoot: Data(contentsOf: root), previous: previous)
        XCTAssertEqual(next.signer(of: Self.program), "targets")
        XCTAssertTrue(FileManager.default.fileExists(atPath: workspace.root.appendingPathComponent(".livery-keys/\(Self.tenant)/delegations/\(Self.tenant).key.retired-1").path))
    }

    func testABrokenPublishedChainStopsSigningInsteadOfStartingTheVersionsAgain() throws {
        let workspace = try delegatedWorkspace()
        let release = release(workspace)
        // The role's file that the snapshot lists is gone: signing again from version 1 would be a rollback.
        try FileManager.default.removeItem(at: release.appendingPathComponent("metadata/1.\(Self.tenant).json"))
        let before = BuildTests.tree(workspace.output)
        try workspace.replace("\(Self.tenant)/locales/en.yaml", "Strength coach", "Strength and mobility coach")
        let build = try workspace.build()
        XCTAssertNotEqual(build.status, 0)
        XCTAssertTrue(build.stderr.contains("metadata/1.\(Self.tenant).json cannot be read"), build.stderr)
        XCTAssertEqual(BuildTests.tree(workspace.output), before, "nothing is published")
        let rotate = try LiveryProcess.run(["keys", "rotate", Self.tenant, "targets"], in: workspace.root)
        XCTAssertNotEqual(rotate.status, 0)
        XCTAssertTrue(rotate.stderr.contains("1.\(Self.tenant).json"), rotate.stderr)
    }

    func testDelegationsThatWouldReachPlatformTargetsOrTopLevelNamesAreRefused() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let before = BuildTests.tree(workspace.output)
        for (arguments, phrase) in [(["--path", "*"], "download manifest"), (["--path", "download-manifest.*"], "download manifest"),
                                    (["snapshot"], "cannot name a delegated role"), (["--path", "../x"], "relative target path")] {
            let result = try LiveryProcess.run(["keys", "delegate", Self.tenant] + arguments, in: workspace.root)
            XCTAssertNotEqual(result.status, 0, "\(arguments)")
            XCTAssertTrue(result.stderr.contains(phrase), "\(arguments): \(result.stderr)")
        }
        XCTAssertEqual(BuildTests.tree(workspace.output), before)
        XCTAssertFalse(FileManager.default.fileExists(atPath: workspace.root.appendingPathComponent(".livery-keys/\(Self.tenant)/delegations/snapshot.key").path))
    }

    /// Found by SignerPropertyTests (seed 0x3, 16 steps): `--path '[[:lower:]]*.zip'` was accepted and
    /// the signer (POSIX fnmatch) put core.zip and every other bundle into the role, where Livery's
    /// client found them but python-tuf (Python's fnmatch reads `[[:lower:]` as a set of characters)
    /// found none. Only the pattern syntax every client reads alike is accepted, when a role is made and
    /// again when it is signed.
    func testPatternsThatClientsReadDifferentlyAreNeverPublished() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("livery-patterns-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let store = KeyStore(root: root.appendingPathComponent("keys"))
        _ = try store.initialize(tenant: Self.tenant, given: [:], counts: [:], thresholds: [:])
        for pattern in ["[[:lower:]]*.zip", "[^d]*.zip", "[!d]*.zip", "program.[0-9]*", "\\*.zip", "program .zip", "programa-ñ.*", "program.*]"] {
            XCTAssertThrowsError(try store.delegate(tenant: Self.tenant, name: "guest", paths: ["program.*", pattern]), pattern) { error in
                XCTAssertTrue("\(error)".contains("every client reads alike"), "\(pattern): \(error)")
            }
        }
        for pattern in ["program.*", "locale.e?.zip", "media/*.mp3", "library-item.*", "Tour_A.*"] {
            XCTAssertNoThrow(try store.delegate(tenant: Self.tenant, name: "guest", paths: [pattern]), pattern)
        }
        // A record written before the check (or edited by hand) is refused when signing, before any file is written.
        let record = root.appendingPathComponent("keys/\(Self.tenant)/delegations/guest.json")
        let text = try String(contentsOf: record, encoding: .utf8).replacingOccurrences(of: "Tour_A.*", with: "[[:lower:]]*.zip")
        try text.write(to: record, atomically: true, encoding: .utf8)
        let keys = try store.keys(for: Self.tenant, create: false, warn: { _ in })
        let release = root.appendingPathComponent("release")
        let target = RepositorySigner.Target(name: "core.zip", length: 1, sha256: String(repeating: "0", count: 64), custom: nil)
        XCTAssertThrowsError(try RepositorySigner.sign(release: release, targets: [target], keys: keys)) { error in
            XCTAssertTrue("\(error)".contains("delegated role 'guest'"), "\(error)")
        }
        XCTAssertEqual((try? FileManager.default.contentsOfDirectory(atPath: release.appendingPathComponent("metadata").path)) ?? [], [])
    }

    func testPathPatternsMatchSegmentBySegment() {
        let role = DelegatedRole(name: "lucia", keyIDs: [], paths: ["program.*", "media/*.mp3"])
        XCTAssertTrue(role.matches("program.x.zip"))
        XCTAssertFalse(role.matches("core.zip"))
        XCTAssertTrue(role.matches("media/a.mp3"))
        XCTAssertFalse(role.matches("media/deep/a.mp3"), "* never crosses a /")
        XCTAssertFalse(role.matches("program.x/y.zip"))
        let hashed = DelegatedRole(name: "bins", keyIDs: [], paths: nil, pathHashPrefixes: [String(SHA256.hash(data: Data("a.zip".utf8)).hexString.prefix(2))])
        XCTAssertTrue(hashed.matches("a.zip"))
    }
}
