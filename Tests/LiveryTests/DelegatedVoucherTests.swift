import Foundation
import LiveryClient
import LiveryServe
import LiverySign
import LiveryReleaseFormat
import XCTest

/// A protected tour that a creator signs with their own delegated role: `livery serve` guards it
/// exactly as it guards one the tenant's targets role signs, and every client resolves it through
/// the role.
final class DelegatedVoucherTests: XCTestCase {
    static let tenant = "sonic-walkscape"
    static let role = "walkscape-guides"
    static let tour = "rome-trastevere"
    static let tourTarget = "tour.rome-trastevere.zip"

    func testAVoucherTourSignedByADelegatedCreatorRoleIsGuardedByServeAndResolvedThroughTheRole() throws {
        // The role exists before the first release, so no top-level targets file ever lists the tour:
        // only the delegated role's metadata says that it needs a voucher.
        let fixture = try VoucherTests.Fixture { workspace in
            let keys = try LiveryProcess.run(["keys", "init", Self.tenant], in: workspace.root)
            XCTAssertEqual(keys.status, 0, keys.stderr)
            let delegate = try LiveryProcess.run(["keys", "delegate", Self.tenant, Self.role, "--path", "tour.*"], in: workspace.root)
            XCTAssertEqual(delegate.status, 0, delegate.stderr)
            XCTAssertTrue(delegate.stdout.contains("the next `livery build` publishes the delegation"), delegate.stdout)
        }
        let workspace = fixture.workspace
        let release = workspace.output.appendingPathComponent(Self.tenant)
        let published = try XCTUnwrap(PublishedMetadata.read(release: release))
        XCTAssertNil(published.targets.signed.targets[Self.tourTarget])
        let signed = try XCTUnwrap(published.delegated[Self.role]?.signed.targets[Self.tourTarget], "the tour is in the creator's role")
        let custom = try XCTUnwrap(try TargetCustom(of: signed)?.bundle)
        XCTAssertEqual(custom.access, .voucher)
        XCTAssertEqual(custom.tour, Self.tour)
        let metadata = release.appendingPathComponent("metadata")
        for file in try FileManager.default.contentsOfDirectory(atPath: metadata.path) where file.hasSuffix(".targets.json") {
            let targets = try Metadata<Targets>(data: Data(contentsOf: metadata.appendingPathComponent(file)))
            XCTAssertFalse(targets.signed.targets.keys.contains { $0.hasPrefix("tour.") }, "\(file) lists a tour")
        }

        // What serve reads: the tour, its bundles and its protection, from the delegated role.
        let access = try XCTUnwrap(try ReleaseAccess.read(tenant: release))
        XCTAssertEqual(access.subjects[VoucherSubject(.tour, Self.tour)]?.isProtected, true)
        XCTAssertEqual(access.subjects[VoucherSubject(.tour, Self.tour)]?.bundles, ["tour.rome-trastevere", "tour.rome-trastevere.en", "tour.rome-trastevere.fr", "tour.rome-trastevere.it"])
        XCTAssertEqual(access.subjects[VoucherSubject(.tour, "florence-renaissance")]?.isProtected, false)
        let file = try fixture.file("tour.rome-trastevere")
        XCTAssertEqual(file, "\(try XCTUnwrap(signed.sha256)).\(Self.tourTarget)")
        XCTAssertEqual(access.target(file: file)?.subject, VoucherSubject(.tour, Self.tour))

        // A real `livery serve`: 401 without a token, 200 with a redeemed one; public files stay public.
        let path = "\(Self.tenant)/targets/\(file)"
        XCTAssertEqual(try fixture.status(path), "401")
        XCTAssertEqual(try fixture.status(path, extra: ["-I"]), "401", "HEAD too")
        XCTAssertEqual(try fixture.status("\(Self.tenant)/targets/\(try fixture.file("tour.rome-trastevere.fr"))"), "401", "the tour's language bundles too")
        XCTAssertEqual(try fixture.status("\(Self.tenant)/targets/\(try fixture.file("tour.florence-renaissance"))"), "200", "the public tour of the same role")
        XCTAssertEqual(try fixture.status("\(Self.tenant)/metadata/1.\(Self.role).json"), "200", "the role's metadata is public")
        let code = try XCTUnwrap(try fixture.issue().first)
        let answer = try fixture.redeem(code, device: "python-tuf")
        XCTAssertEqual(answer.status, 200, "\(answer.json)")
        XCTAssertEqual(answer.json["tour"] as? String, Self.tour, "older clients read the tour")
        XCTAssertEqual(answer.json["subject"] as? String, "tour:\(Self.tour)")
        XCTAssertEqual(answer.json["bundles"] as? [String], access.subjects[VoucherSubject(.tour, Self.tour)]?.bundles)
        let token = try XCTUnwrap(answer.json["token"] as? String)
        XCTAssertEqual(try fixture.status(path, token: token), "200")
        XCTAssertEqual(try fixture.status(path, token: "not.a-token"), "401")

        // Livery's client and python-tuf find the tour through the role; python-tuf downloads it with the token only.
        let root = metadata.appendingPathComponent("1.root.json")
        let trusted = try TUFUpdater.refresh(source: LocalRepository(root: release), trustedRoot: Data(contentsOf: root))
        XCTAssertEqual(trusted.signer(of: Self.tourTarget), Self.role)
        let refused = try SigningTests.pythonTUF(port: fixture.server.port, tenant: Self.tenant, root: root,
                                                 state: try SigningTests.clientState(in: workspace.root), targets: [Self.tourTarget])
        XCTAssertNotEqual(refused.status, 0, refused.stdout)
        XCTAssertTrue(refused.stderr.contains("401"), refused.stderr)
        let state = try SigningTests.clientState(in: workspace.root)
        let python = try SigningTests.pythonTUF(port: fixture.server.port, tenant: Self.tenant, root: root, state: state,
                                                targets: [Self.tourTarget], token: token)
        XCTAssertEqual(python.status, 0, python.stderr)
        XCTAssertEqual(python.stdout, "ok 1\n")
        XCTAssertTrue(FileManager.default.fileExists(atPath: state.appendingPathComponent("\(Self.role).json").path), "python-tuf loaded the delegated role")
        XCTAssertEqual(try Data(contentsOf: state.appendingPathComponent("dl/\(Self.tourTarget)")), try Data(contentsOf: workspace.output.appendingPathComponent(path)))

        // `livery fetch --voucher CODE` redeems another code and installs the tour.
        let fetchCode = try XCTUnwrap(try fixture.issue().first)
        let fetch = try LiveryProcess.run(["fetch", Self.tenant, "--server", fixture.base, "--cache", "cache", "--root", root.path, "--locale", "fr",
                                           "--tour", Self.tour, "--voucher", fetchCode], in: workspace.root)
        XCTAssertEqual(fetch.status, 0, fetch.stderr)
        XCTAssertTrue(fetch.stdout.contains("tour.rome-trastevere, tour.rome-trastevere.fr"), fetch.stdout)
        let installed = workspace.root.appendingPathComponent("cache/\(Self.tenant)/current/bundles")
        for bundle in ["tour.rome-trastevere", "tour.rome-trastevere.fr"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: installed.appendingPathComponent(bundle).path), bundle)
        }
        XCTAssertFalse(fixture.server.log.contains(fetchCode), "the code is never logged")
    }
}
