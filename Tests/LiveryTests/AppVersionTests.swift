import Foundation
import LiveryClient
import LiveryReleaseFormat
import XCTest

/// `minimumClientVersion` enforced by the client: a release or a wanted bundle that needs a newer
/// app is not installed, the installed release stays, and `livery fetch` exits 3 saying so.
final class AppVersionTests: XCTestCase {
    func testVersionsCompareNumberByNumberAndHaveOneSpelling() {
        XCTAssertLessThan(ClientVersion("1.9.3")!, ClientVersion("1.10.0")!)
        XCTAssertLessThan(ClientVersion("0.9.99")!, ClientVersion("1.0.0")!)
        XCTAssertEqual(ClientVersion("2.1.0"), ClientVersion("2.1.0"))
        XCTAssertEqual(ClientVersion("10.0.7")?.description, "10.0.7")
        for bad in ["1.2", "1.2.3.4", "1.02.0", "-1.0.0", "1.0.0-beta", "1..0", "", "a.b.c", "1.0.0 ", "１.0.0", "1234567890.0.0"] {
            XCTAssertNil(ClientVersion(bad), bad)
        }
    }

    func testAReleaseOrAWantedBundleNeedingANewerAppIsRefusedNamingWhatAndWhich() throws {
        func bundle(_ id: String, _ minimum: String) -> DownloadManifest.Bundle {
            .init(id: id, kind: id == "core" ? .core : .tour, subject: id == "core" ? nil : "t", locale: nil, size: 1, sha256: String(repeating: "0", count: 64),
                  path: "targets/0.\(id).zip", policy: .essential, access: .public, dependencies: [], minimumClientVersion: minimum)
        }
        let manifest = DownloadManifest(tenant: "x", release: 4, format: .zip, minimumClientVersion: "1.2.0",
                                        bundles: [bundle("core", "1.2.0"), bundle("tour.t", "2.0.0")])
        let app = ClientVersion("1.5.0")!
        XCTAssertNoThrow(try ReleaseInstaller.checkAppVersion(app, manifest: manifest, wanted: ["core"], kept: nil), "the newer bundle is not wanted")
        XCTAssertThrowsError(try ReleaseInstaller.checkAppVersion(app, manifest: manifest, wanted: ["core", "tour.t"], kept: 3)) { error in
            XCTAssertEqual("\(error)", "tour.t of x release 4 needs app version 2.0.0 or newer (this app is 1.5.0): update the app; release 3 stays installed")
        }
        XCTAssertThrowsError(try ReleaseInstaller.checkAppVersion(ClientVersion("1.1.9")!, manifest: manifest, wanted: ["core"], kept: nil)) { error in
            XCTAssertEqual("\(error)", "x release 4 needs app version 1.2.0 or newer (this app is 1.1.9): update the app")
        }
        var odd = manifest
        odd.minimumClientVersion = "1.2"
        XCTAssertThrowsError(try ReleaseInstaller.checkAppVersion(app, manifest: odd, wanted: [], kept: nil)) { error in
            XCTAssertTrue("\(error)".contains("minimumClientVersion '1.2' is not X.Y.Z"), "\(error)")
        }
    }

    func testFetchRefusesAReleaseForANewerAppAndKeepsTheInstalledOne() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let server = try SigningTests.FileServer(root: workspace.output)
        func fetch(_ app: String) throws -> LiveryProcess.Output {
            try LiveryProcess.run(["fetch", "sonic-walkscape", "--server", "http://127.0.0.1:\(server.port)", "--cache", "cache",
                                   "--root", "Output/sonic-walkscape/metadata/1.root.json", "--app-version", app], in: workspace.root)
        }
        let cache = workspace.root.appendingPathComponent("cache/sonic-walkscape")
        // sonic-walkscape's tenant.yaml asks for 1.2.0.
        let old = try fetch("1.1.9")
        XCTAssertEqual(old.status, 3, old.stderr)
        XCTAssertEqual(old.stderr, "fetch refused: sonic-walkscape release 1 needs app version 1.2.0 or newer (this app is 1.1.9): update the app\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache.appendingPathComponent("current").path), "nothing installed")
        XCTAssertFalse(server.log.contains("core.zip"), "no bundle was downloaded")
        XCTAssertEqual(try fetch("1.2.0").status, 0)
        let installed = try FileManager.default.destinationOfSymbolicLink(atPath: cache.appendingPathComponent("current").path)

        // Release 2 needs 1.10.0: a 1.9.3 app keeps release 1; a 1.10.0 app takes release 2.
        try workspace.replace("sonic-walkscape/tenant.yaml", "minimumClientVersion: 1.2.0", "minimumClientVersion: 1.10.0")
        XCTAssertEqual(try workspace.build().status, 0)
        let refused = try fetch("1.9.3")
        XCTAssertEqual(refused.status, 3, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("release 2 needs app version 1.10.0 or newer (this app is 1.9.3): update the app; release 1 stays installed"), refused.stderr)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: cache.appendingPathComponent("current").path), installed)
        let updated = try fetch("1.10.0")
        XCTAssertEqual(updated.status, 0, updated.stderr)
        XCTAssertTrue(updated.stdout.contains("release 2 installed"), updated.stdout)

        let usage = try fetch("1.02.0")
        XCTAssertEqual(usage.status, 2, usage.stderr)
        XCTAssertTrue(usage.stderr.contains("--app-version must be X.Y.Z"), usage.stderr)
    }
}
