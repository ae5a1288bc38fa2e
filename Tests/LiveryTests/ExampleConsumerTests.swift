import Foundation
import XCTest

/// Examples/ClientApp: a package of its own that depends on Livery's `LiveryClient` product by path, as an
/// app team's package would, built with `swift build` (`make test` builds it first; here it is only
/// brought up to date) and run against `livery serve` on a freshly built Output.
final class ExampleConsumerTests: XCTestCase {
    private static let package = LiveryProcess.packageRoot.appendingPathComponent("Examples/ClientApp")

    /// The example's executable, built (or found up to date) by SwiftPM in the example's own package.
    private func clientApp() throws -> URL {
        let build = try LiveryProcess.tool(["swift", "build", "--package-path", Self.package.path])
        XCTAssertEqual(build.status, 0, "Examples/ClientApp does not build:\n\(build.stdout)\n\(build.stderr)")
        let bin = try LiveryProcess.tool(["swift", "build", "--package-path", Self.package.path, "--show-bin-path"])
        return URL(fileURLWithPath: bin.stdout.trimmingCharacters(in: .whitespacesAndNewlines)).appendingPathComponent("client-app")
    }

    private func run(_ app: URL, _ arguments: [String]) throws -> LiveryProcess.Output {
        try LiveryProcess.tool([app.path] + arguments)
    }

    func testTheExampleAppInstallsAReleaseFromLiveryServe() throws {
        let app = try clientApp()
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let server = try SigningTests.FileServer(root: workspace.output)
        let root = workspace.output.appendingPathComponent("sonic-walkscape/metadata/1.root.json").path
        let cache = workspace.root.appendingPathComponent("app-cache/sonic-walkscape").path
        let arguments = ["http://127.0.0.1:\(server.port)", "sonic-walkscape", root, cache, "--locale", "fr", "--tour", "florence-renaissance"]

        let first = try run(app, arguments)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stdout.contains("release 1 installed at \(cache)/releases/1."), first.stdout)
        XCTAssertTrue(first.stdout.contains("downloaded: core, locale.fr, locale.it, tour.florence-renaissance, tour.florence-renaissance.fr; reused: ; by delta: \n"), first.stdout)
        // What the app reads is byte for byte what the tenant wrote, unpacked by the zip path (ZIPFoundation).
        let current = URL(fileURLWithPath: cache).appendingPathComponent("current/bundles")
        let audio = "tours/florence-renaissance/audio/fr/01-duomo.mp3"
        XCTAssertEqual(try Data(contentsOf: current.appendingPathComponent("tour.florence-renaissance.fr/\(audio)")),
                       try Data(contentsOf: workspace.tenants.appendingPathComponent("sonic-walkscape/\(audio)")))
        XCTAssertTrue(FileManager.default.fileExists(atPath: current.appendingPathComponent("locale.fr/locales/fr.json").path))

        // A second start finds the release current and downloads nothing.
        let second = try run(app, arguments)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(second.stdout.contains("downloaded: ; reused: core, locale.fr"), second.stdout)

        // With the server gone, the installed release stays in use (exit 2: offline).
        let offline = try run(app, ["http://127.0.0.1:1"] + arguments.dropFirst())
        XCTAssertEqual(offline.status, 2, offline.stdout + offline.stderr)
        XCTAssertTrue(offline.stdout.contains("keeping release 1"), offline.stdout)
    }

    /// The app ships its release (`livery embed`): the first start installs it with no network at all,
    /// and the first update online downloads only what changed since it, by delta.
    func testTheExampleAppStartsOfflineFromItsEmbeddedReleaseThenUpdatesByDelta() throws {
        let app = try clientApp()
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let embedded = workspace.root.appendingPathComponent("app-bundle/content")
        let embed = try LiveryProcess.run(["embed", "sonic-walkscape", "--locale", "fr", "--tour", "florence-renaissance", "-o", embedded.path], in: workspace.root)
        XCTAssertEqual(embed.status, 0, embed.stderr)
        XCTAssertTrue(embed.stdout.contains("release 1 embedded"), embed.stdout)
        // The app ships its root inside the embedded release; the release folder is not needed at first start.
        let root = embedded.appendingPathComponent("metadata/1.root.json").path
        let cache = workspace.root.appendingPathComponent("app-cache/sonic-walkscape").path
        let arguments = ["sonic-walkscape", root, cache, "--locale", "fr", "--tour", "florence-renaissance", "--embedded", embedded.path]

        // No server at all: the embedded release is installed and used (exit 2: offline).
        let offline = try run(app, ["http://127.0.0.1:1"] + arguments)
        XCTAssertEqual(offline.status, 2, offline.stdout + offline.stderr)
        XCTAssertTrue(offline.stdout.contains("keeping release 1"), offline.stdout)
        let audio = "tours/florence-renaissance/audio/fr/03-signoria.mp3"
        let installed = URL(fileURLWithPath: cache).appendingPathComponent("current/bundles/tour.florence-renaissance.fr/\(audio)")
        XCTAssertEqual(try Data(contentsOf: installed), try Data(contentsOf: workspace.tenants.appendingPathComponent("sonic-walkscape/\(audio)")))

        // A stop is re-recorded and published as release 2: the update brings that recording, not the tour language.
        let bytes = try workspace.retag("sonic-walkscape/\(audio)", "Signoria, new take")
        XCTAssertEqual(try workspace.build().status, 0)
        let server = try SigningTests.FileServer(root: workspace.output)
        let update = try run(app, ["http://127.0.0.1:\(server.port)"] + arguments)
        XCTAssertEqual(update.status, 0, update.stdout + update.stderr)
        XCTAssertTrue(update.stdout.contains("release 2 installed"), update.stdout)
        XCTAssertTrue(update.stdout.contains("by delta: tour.florence-renaissance.fr"), update.stdout)
        XCTAssertEqual(try Data(contentsOf: installed), bytes)
        let archives = server.log.split(separator: "\n").filter { $0.contains(".tour.florence-renaissance.fr.zip") }
        XCTAssertTrue(!archives.isEmpty && archives.allSatisfy { $0.contains(" 206 ") }, "\(archives)")

        // A tampered embedded release is refused, and says so when there is no network to fall back on.
        let broken = workspace.root.appendingPathComponent("app-bundle/broken")
        try FileManager.default.copyItem(at: embedded, to: broken)
        let core = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: broken.appendingPathComponent("targets").path).first { $0.hasSuffix(".core.zip") })
        var archive = try Data(contentsOf: broken.appendingPathComponent("targets/\(core)"))
        archive[archive.count / 2] ^= 0xFF
        try archive.write(to: broken.appendingPathComponent("targets/\(core)"))
        let refused = try run(app, ["http://127.0.0.1:1", "sonic-walkscape", root, workspace.root.appendingPathComponent("other-cache").path, "--embedded", broken.path])
        XCTAssertEqual(refused.status, 1, refused.stdout + refused.stderr)
        XCTAssertTrue(refused.stderr.contains("the release embedded in the app was not installed"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("core.zip"), refused.stderr)
    }

    func testATarZstdReleaseInstallsWhereLibarchiveIsAndIsRefusedClearlyElsewhere() throws {
        let app = try clientApp()
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build(["--archive-format", "tar.zst"]).status, 0)
        let server = try SigningTests.FileServer(root: workspace.output)
        let root = workspace.output.appendingPathComponent("physio-clinic/metadata/1.root.json").path
        let cache = workspace.root.appendingPathComponent("app-cache/physio-clinic").path
        let result = try run(app, ["http://127.0.0.1:\(server.port)", "physio-clinic", root, cache])
        #if os(Linux)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("release 1 installed"), result.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: cache + "/current/bundles/core"))
        #else
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("tar.zst bundles need libarchive, which this platform lacks: publish zip"), result.stderr)
        #endif
    }

    /// An app loads libarchive (and libxml2 and ICU with it) only when a tar.zst bundle comes: a zip release, the
    /// usual kind, installs without it (CArchiveReader). glibc's loader names each library it maps with LD_DEBUG=files.
    func testLibarchiveIsLoadedOnlyForATarZstdBundle() throws {
        #if os(Linux)
        let app = try clientApp()
        for format in ["zip", "tar.zst"] {
            let workspace = try BuildTests.Workspace()
            XCTAssertEqual(try workspace.build(["--archive-format", format]).status, 0)
            let server = try SigningTests.FileServer(root: workspace.output)
            let root = workspace.output.appendingPathComponent("physio-clinic/metadata/1.root.json").path
            let cache = workspace.root.appendingPathComponent("app-cache/physio-clinic").path
            let result = try LiveryProcess.tool([app.path, "http://127.0.0.1:\(server.port)", "physio-clinic", root, cache], environment: ["LD_DEBUG": "files"])
            XCTAssertEqual(result.status, 0, result.stderr.suffix(2000) + "")
            let loads = result.stderr.split(separator: "\n").filter { $0.contains("file=libarchive.so") }
            if format == "zip" {
                XCTAssertEqual(loads, [], "a zip release loaded libarchive")
            } else {
                XCTAssertTrue(loads.contains { $0.contains("dynamically loaded by") }, "libarchive was not loaded on demand: \(loads)")
                XCTAssertFalse(loads.contains { $0.contains("needed by") && $0.contains("client-app") }, "client-app links libarchive: \(loads)")
            }
        }
        #else
        throw XCTSkip("glibc's LD_DEBUG names the libraries a process loads")
        #endif
    }

    func testTheExampleAppRefusesAReleaseThatNeedsANewerApp() throws {
        let app = try clientApp()
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let server = try SigningTests.FileServer(root: workspace.output)
        let root = workspace.output.appendingPathComponent("urbannest/metadata/1.root.json").path
        let cache = workspace.root.appendingPathComponent("app-cache/urbannest").path
        // urbannest asks for app 2.1.0 or later.
        let old = try run(app, ["http://127.0.0.1:\(server.port)", "urbannest", root, cache, "--app-version", "2.0.9"])
        XCTAssertEqual(old.status, 1)
        XCTAssertTrue(old.stderr.contains("2.1.0"), old.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache + "/current"))
        let current = try run(app, ["http://127.0.0.1:\(server.port)", "urbannest", root, cache, "--app-version", "2.1.0"])
        XCTAssertEqual(current.status, 0, current.stderr)
        XCTAssertTrue(current.stdout.contains("release 1 installed"), current.stdout)
    }
}
