import Crypto
import Foundation
import LiveryClient
import LiveryPublish
import LiveryReleaseFormat
import XCTest

/// `livery fetch` against `livery serve`, and the extraction step against hostile archives.
final class FetchTests: XCTestCase {
    private func fetch(_ workspace: BuildTests.Workspace, _ server: SigningTests.FileServer, tenant: String, extra: [String] = []) throws -> LiveryProcess.Output {
        try LiveryProcess.run(["fetch", tenant, "--server", "http://127.0.0.1:\(server.port)", "--cache", "cache",
                               "--root", "Output/\(tenant)/metadata/1.root.json"] + extra, in: workspace.root)
    }

    /// A second fetch of the release already installed says so ("kept … already installed"), never "installed" with
    /// "downloaded 0 bundles ()"; the plan line gives sizes in the unit that fits (kilobytes here, not "0.0 MB").
    func testARefetchSaysTheReleaseIsAlreadyInstalledAndSizesReadInTheirUnit() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let server = try SigningTests.FileServer(root: workspace.output)
        let first = try fetch(workspace, server, tenant: "urbannest")
        XCTAssertEqual(first.status, 0, first.stderr)
        let plan = try XCTUnwrap(first.stderr.split(separator: "\n").first { $0.hasPrefix("urbannest: ") && $0.contains(" to download") }, first.stderr)
        let match = try XCTUnwrap(plan.wholeMatch(of: /urbannest: ([0-9]+\.[0-9]) KB to download, ([0-9]+\.[0-9]) KB to install, .* free/), String(plan))
        XCTAssertGreaterThan(Double(match.1)!, 0)
        XCTAssertTrue(first.stdout.hasPrefix("urbannest: release 1 installed at "), first.stdout)
        // The bytes received cover what the plan said to download (shown to 0.1 KB), plus the metadata.
        let received = try XCTUnwrap(first.stdout.firstMatch(of: /; ([0-9]+) bytes received\n$/), first.stdout)
        XCTAssertGreaterThanOrEqual(Double(received.1)!, Double(match.1)! * 1000 - 50, first.stdout)

        let second = try fetch(workspace, server, tenant: "urbannest")
        XCTAssertEqual(second.status, 0, second.stderr)
        let installed = try FileManager.default.destinationOfSymbolicLink(atPath: workspace.root.appendingPathComponent("cache/urbannest/current").path)
        XCTAssertNotNil(second.stdout.wholeMatch(of: try Regex("urbannest: release 1 kept at .*\(NSRegularExpression.escapedPattern(for: installed)) \\(already installed; nothing downloaded\\); [0-9]+ bytes received\n")),
                        second.stdout)
        XCTAssertFalse(second.stdout.contains("()"), second.stdout)
    }

    /// A `--root` that is not there is said so (not as Foundation's error domain), and when the tenant's output folder
    /// holds its releases on another channel only (a new tenant of `livery init` builds to internal), with the channel
    /// and root to give.
    func testAMissingRootIsSaidWithTheChannelAndRootToGive() throws {
        let workspace = try BuildTests.Workspace()
        try workspace.replace("urbannest/tenant.yaml", "  channel: stable\n", "  channel: beta\n  channels: [beta]\n")
        XCTAssertEqual(try workspace.build().status, 0)
        let server = try SigningTests.FileServer(root: workspace.output)
        let stableRoot = try fetch(workspace, server, tenant: "urbannest")
        XCTAssertEqual(stableRoot.status, 2, stableRoot.stdout)
        XCTAssertEqual(stableRoot.stderr, "Error: --root Output/urbannest/metadata/1.root.json: no such file; this tenant publishes on beta there, not stable: "
                       + "--channel beta --root Output/urbannest/channels/beta/metadata/1.root.json\n")
        let nowhere = try LiveryProcess.run(["fetch", "urbannest", "--server", "http://127.0.0.1:\(server.port)", "--root", "nowhere/1.root.json"], in: workspace.root)
        XCTAssertEqual(nowhere.status, 2)
        XCTAssertEqual(nowhere.stderr, "Error: --root nowhere/1.root.json: no such file\n")
        let beta = try LiveryProcess.run(["fetch", "urbannest", "--server", "http://127.0.0.1:\(server.port)", "--cache", "cache", "--channel", "beta",
                                          "--root", "Output/urbannest/channels/beta/metadata/1.root.json"], in: workspace.root)
        XCTAssertEqual(beta.status, 0, beta.stderr)
        XCTAssertTrue(beta.stdout.hasPrefix("urbannest (beta): release 1 installed at "), beta.stdout)
    }

    /// The progress bar (`--progress bar`, or a terminal) counts in the unit that fits, not "0.0/0.0 MB" for kilobytes.
    func testTheProgressBarCountsInTheUnitThatFits() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let server = try SigningTests.FileServer(root: workspace.output)
        let fetched = try fetch(workspace, server, tenant: "urbannest", extra: ["--progress", "bar"])
        XCTAssertEqual(fetched.status, 0, fetched.stderr)
        XCTAssertNotNil(fetched.stderr.firstMatch(of: #/\] 100% [1-9][0-9]{0,2}\.[0-9] KB/[1-9][0-9]{0,2}\.[0-9] KB /#), fetched.stderr)
        XCTAssertFalse(fetched.stderr.contains("0.0/"), fetched.stderr)
    }

    func testFetchInstallsWhatTheAppNeedsAndAfterAOneStringChangeDownloadsOnlyThatLocale() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let server = try SigningTests.FileServer(root: workspace.output)
        let first = try fetch(workspace, server, tenant: "sonic-walkscape", extra: ["--locale", "fr", "--tour", "florence-renaissance"])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stdout.contains("downloaded 5 bundles (core, locale.fr, locale.it, tour.florence-renaissance, tour.florence-renaissance.fr)"), first.stdout)
        let current = workspace.root.appendingPathComponent("cache/sonic-walkscape/current")
        let audio = current.appendingPathComponent("bundles/tour.florence-renaissance.fr/tours/florence-renaissance/audio/fr/01-duomo.mp3")
        XCTAssertEqual(try Data(contentsOf: audio), try Data(contentsOf: workspace.tenants.appendingPathComponent("sonic-walkscape/tours/florence-renaissance/audio/fr/01-duomo.mp3")))

        // One French string changes: only the metadata, the manifest and locale.fr travel.
        try workspace.replace("sonic-walkscape/locales/fr.yaml", "Carte", "Plan")
        XCTAssertEqual(try workspace.build().status, 0)
        let requestsBefore = server.log.split(separator: "\n").count
        let second = try fetch(workspace, server, tenant: "sonic-walkscape", extra: ["--locale", "fr", "--tour", "florence-renaissance"])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(second.stdout.contains("release 2 installed"), second.stdout)
        XCTAssertTrue(second.stdout.contains("downloaded 1 bundle (locale.fr), reused 4"), second.stdout)
        let requests = server.log.split(separator: "\n").dropFirst(requestsBefore).map(String.init)
        let targets = requests.filter { $0.contains("/targets/") }
        XCTAssertEqual(targets.count, 2, "\(requests)")
        XCTAssertTrue(targets.contains { $0.contains(".download-manifest.json") } && targets.contains { $0.contains(".locale.fr.zip") }, "\(targets)")
        // Bytes transferred: the metadata, the manifest and one small bundle.
        let manifest = try XCTUnwrap(Publisher.currentManifest(tenant: "sonic-walkscape", output: workspace.output)?.manifest)
        let locale = try XCTUnwrap(manifest.bundles.first { $0.id == "locale.fr" })
        let received = Int(second.stdout.components(separatedBy: "; ").last?.split(separator: " ").first ?? "") ?? .max
        let metadataBytes = try FileManager.default.contentsOfDirectory(at: workspace.output.appendingPathComponent("sonic-walkscape/metadata"), includingPropertiesForKeys: nil)
            .reduce(0) { $0 + ((try? Data(contentsOf: $1).count) ?? 0) }
        XCTAssertLessThanOrEqual(received, locale.size + 8192 + metadataBytes, second.stdout)
        XCTAssertEqual(try String(contentsOf: current.appendingPathComponent("bundles/locale.fr/locales/fr.json"), encoding: .utf8).contains("Plan"), true)
    }

    /// No silent success: a tour or program the release lacks fails the fetch and installs nothing; a locale it lacks
    /// installs the nearest one (its language, else the default) with a warning that says which.
    func testAnUnknownTourFailsAndAMissingLocaleFallsBackWithAWarning() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let server = try SigningTests.FileServer(root: workspace.output)
        let current = workspace.root.appendingPathComponent("cache/sonic-walkscape/current")
        let unknownTour = try fetch(workspace, server, tenant: "sonic-walkscape", extra: ["--tour", "florence-renaisance"])
        XCTAssertEqual(unknownTour.status, 1, unknownTour.stderr)
        XCTAssertTrue(unknownTour.stderr.contains("fetch failed: release 1 has no tour 'florence-renaisance' (its tours: florence-renaissance, rome-trastevere)"), unknownTour.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: current.path))
        let unknownProgram = try fetch(workspace, server, tenant: "sonic-walkscape", extra: ["--program", "yoga"])
        XCTAssertEqual(unknownProgram.status, 1, unknownProgram.stderr)
        XCTAssertTrue(unknownProgram.stderr.contains("release 1 has no program 'yoga' (it has none)"), unknownProgram.stderr)

        let regional = try fetch(workspace, server, tenant: "sonic-walkscape", extra: ["--locale", "fr-CA"])
        XCTAssertEqual(regional.status, 0, regional.stderr)
        XCTAssertTrue(regional.stderr.contains("warning: locale 'fr-CA' is not in release 1: using 'fr'"), regional.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: current.appendingPathComponent("bundles/locale.fr").path))
        let german = try fetch(workspace, server, tenant: "sonic-walkscape", extra: ["--locale", "de"])
        XCTAssertEqual(german.status, 0, german.stderr)
        XCTAssertTrue(german.stderr.contains("warning: locale 'de' is not in release 1 (it has en, fr, it): using 'it'"), german.stderr)
    }

    func testAnotherTourOnTheSameReleaseIsInstalled() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let server = try SigningTests.FileServer(root: workspace.output)
        XCTAssertEqual(try fetch(workspace, server, tenant: "sonic-walkscape", extra: ["--tour", "florence-renaissance"]).status, 0)
        // rome-trastevere is protected: it takes a voucher.
        let code = try LiveryProcess.run(["vouchers", "issue", "sonic-walkscape", "--tour", "rome-trastevere"], in: workspace.root).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let more = try fetch(workspace, server, tenant: "sonic-walkscape", extra: ["--tour", "florence-renaissance", "--tour", "rome-trastevere", "--voucher", code])
        XCTAssertEqual(more.status, 0, more.stderr)
        XCTAssertTrue(more.stdout.contains("downloaded 2 bundles (tour.rome-trastevere, tour.rome-trastevere.it)"), more.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: workspace.root.appendingPathComponent("cache/sonic-walkscape/current/bundles/tour.rome-trastevere").path))
    }

    func testATamperedBundleIsRefusedAndTheInstalledReleaseIsKept() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let server = try SigningTests.FileServer(root: workspace.output)
        XCTAssertEqual(try fetch(workspace, server, tenant: "urbannest").status, 0)
        let installed = try FileManager.default.destinationOfSymbolicLink(atPath: workspace.root.appendingPathComponent("cache/urbannest/current").path)
        try workspace.replace("urbannest/locales/en.yaml", "Home", "Start")
        XCTAssertEqual(try workspace.build().status, 0)
        let targets = workspace.output.appendingPathComponent("urbannest/targets")
        let bundle = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: targets.path).filter { $0.hasSuffix(".locale.en.zip") }
            .first { name in (Publisher.currentManifest(tenant: "urbannest", output: workspace.output)?.manifest.bundles.contains { $0.path.hasSuffix(name) }) == true })
        var bytes = try Data(contentsOf: targets.appendingPathComponent(bundle))
        bytes[bytes.count / 2] ^= 0xFF
        unlink(targets.appendingPathComponent(bundle).path)
        try bytes.write(to: targets.appendingPathComponent(bundle))
        let result = try fetch(workspace, server, tenant: "urbannest")
        XCTAssertEqual(result.status, 0, "the installed release stays usable offline")
        XCTAssertTrue(result.stderr.contains("does not match its signed SHA-256"), result.stderr)
        XCTAssertTrue(result.stderr.contains("keeping release 1 for offline use"), result.stderr)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: workspace.root.appendingPathComponent("cache/urbannest/current").path), installed)
    }

    func testKillNineDuringInstallAlwaysLeavesACompleteRelease() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let server = try SigningTests.FileServer(root: workspace.output)
        // rome-trastevere is protected: its voucher is redeemed here, and the token kept in the cache.
        let code = try LiveryProcess.run(["vouchers", "issue", "sonic-walkscape", "--tour", "rome-trastevere"], in: workspace.root).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(try fetch(workspace, server, tenant: "sonic-walkscape", extra: ["--tour", "florence-renaissance", "--voucher", code]).status, 0)
        try workspace.replace("sonic-walkscape/locales/it.yaml", ":", ": ")
        XCTAssertEqual(try workspace.build().status, 0)
        var killedBeforeTheEnd = 0
        for round in 0..<20 {
            // Interrupt a fetch that needs the new release right after its `round`-th progress event
            // (plan, started, progress, finished…): kill points from what the fetch says it is doing, not timers.
            try? FileManager.default.removeItem(at: workspace.root.appendingPathComponent("cache/sonic-walkscape/downloads"))
            let process = try LiveryProcess.start(["fetch", "sonic-walkscape", "--server", "http://127.0.0.1:\(server.port)", "--cache", "cache",
                                                   "--tour", "florence-renaissance", "--tour", "rome-trastevere", "--progress", "json", "--parallel", "1"],
                                                  in: workspace.root, lineByLine: true)
            var seen = 0
            var ended = false
            while seen <= round, let line = process.nextLine() {
                seen += 1
                if line.contains(#""event":"installed""#) { ended = true }
            }
            if !ended { killedBeforeTheEnd += 1 }
            process.kill()
            let current = workspace.root.appendingPathComponent("cache/sonic-walkscape/current")
            XCTAssertTrue(FileManager.default.fileExists(atPath: current.appendingPathComponent(".complete").path), "round \(round): no complete release")
            XCTAssertTrue(FileManager.default.fileExists(atPath: current.appendingPathComponent("bundles/core/tenant.json").path), "round \(round)")
        }
        XCTAssertGreaterThan(killedBeforeTheEnd, 5, "the kills landed before the fetch ended")
        let final = try fetch(workspace, server, tenant: "sonic-walkscape", extra: ["--tour", "florence-renaissance"])
        XCTAssertEqual(final.status, 0, final.stderr)
        XCTAssertTrue(final.stdout.contains("release 2 installed"), final.stdout)
    }

    // MARK: Hostile archives, correctly signed or not: the extraction step refuses them.

    private func zip(_ entries: [(name: String, content: String, symlink: Bool)], compress: Bool = false) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livery-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let archive = folder.appendingPathComponent("bundle.zip")
        let script = """
            import sys, zipfile, json
            entries = json.loads(sys.argv[2])
            with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED if sys.argv[3] == "1" else zipfile.ZIP_STORED) as z:
                for name, content, symlink in entries:
                    info = zipfile.ZipInfo(name)
                    if symlink:
                        info.external_attr = (0o120777 << 16)
                    z.writestr(info, content)
            """
        let json = String(decoding: try JSONSerialization.data(withJSONObject: entries.map { [$0.name, $0.content, $0.symlink] as [Any] }), as: UTF8.self)
        let result = try LiveryProcess.tool(["python3", "-c", script, archive.path, json, compress ? "1" : "0"])
        XCTAssertEqual(result.status, 0, result.stderr)
        return archive
    }

    private func assertRefused(_ archive: URL, _ phrase: String, file: StaticString = #filePath, line: UInt = #line) {
        let destination = archive.deletingLastPathComponent().appendingPathComponent("out")
        XCTAssertThrowsError(try ArchiveExtractor.extract(archive, into: destination), file: file, line: line) { error in
            XCTAssertTrue("\(error)".contains(phrase), "\(error)", file: file, line: line)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: archive.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("evil").path), file: file, line: line)
    }

    func testZipSlipAbsolutePathsAndLinksAreRefused() throws {
        assertRefused(try zip([("ok.txt", "fine", false), ("../evil", "escaped", false)]), "climbs out")
        assertRefused(try zip([("a/../../evil", "escaped", false)]), "climbs out")
        assertRefused(try zip([("/tmp/evil", "absolute", false)]), "absolute or unsafe path")
        assertRefused(try zip([("link", "/etc/passwd", true)]), "not a regular file")
        assertRefused(try zip([("same.txt", "one", false), ("same.txt", "two", false)]), "duplicate entry")
    }

    /// A zip made by Python code that writes to the path in `sys.argv[1]` (`z` is the open ZipFile).
    private func zip(python body: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livery-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let archive = folder.appendingPathComponent("bundle.zip")
        let script = "import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:\n    " + body
        let result = try LiveryProcess.tool(["python3", "-c", script, archive.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        return archive
    }

    func testCompressionBombsAndHugeEntryCountsAreRefused() throws {
        // 1,000:1 and more: ten megabytes of zeros deflate to about ten kilobytes.
        assertRefused(try zip(python: "z.writestr('zeros.bin', bytes(10 << 20))"), "compression bomb")
        // 100,000 tiny entries (and one more).
        assertRefused(try zip(python: "[z.writestr(f'f{i}', '') for i in range(100001)]"), "more than 100000 entries")
    }

    func testAnOrdinaryBundleExtractsExactly() throws {
        let archive = try zip([("dir/a.txt", "alpha", false), ("b.txt", "beta", false)])
        let destination = archive.deletingLastPathComponent().appendingPathComponent("out")
        let files = try ArchiveExtractor.extract(archive, into: destination)
        XCTAssertEqual(files.sorted(), ["b.txt", "dir/a.txt"])
        XCTAssertEqual(try String(contentsOf: destination.appendingPathComponent("dir/a.txt"), encoding: .utf8), "alpha")
    }
}

/// The TUF conformance-suite contract of `livery tuf-client`.
final class TUFClientContractTests: XCTestCase {
    func testInitRefreshAndDownloadFollowTheContract() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let server = try SigningTests.FileServer(root: workspace.output)
        let metadataURL = "http://127.0.0.1:\(server.port)/urbannest/metadata"
        let targetsURL = "http://127.0.0.1:\(server.port)/urbannest/targets"
        func client(_ arguments: [String]) throws -> LiveryProcess.Output {
            try LiveryProcess.run(["tuf-client", "--metadata-dir", "client-metadata"] + arguments, in: workspace.root)
        }
        XCTAssertEqual(try client(["init", "Output/urbannest/metadata/1.root.json"]).status, 0)
        XCTAssertEqual(try client(["--metadata-url", metadataURL, "refresh"]).status, 0)
        let stored = try FileManager.default.contentsOfDirectory(atPath: workspace.root.appendingPathComponent("client-metadata").path).sorted()
        XCTAssertEqual(stored, ["root.json", "snapshot.json", "targets.json", "timestamp.json"], "trusted metadata under unversioned names")
        let download = ["--metadata-url", metadataURL, "--target-name", "download-manifest.json", "--target-name", "core.zip",
                        "--target-base-url", targetsURL, "--target-dir", "client-targets", "download"]
        XCTAssertEqual(try client(download).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: workspace.root.appendingPathComponent("client-targets/core.zip").path))
        // Already downloaded with matching hashes: not fetched again.
        let requests = server.log.components(separatedBy: "/targets/").count
        XCTAssertEqual(try client(download).status, 0)
        XCTAssertEqual(server.log.components(separatedBy: "/targets/").count, requests)
        // Any failure exits 1.
        XCTAssertEqual(try client(["--metadata-url", metadataURL, "--target-name", "missing.zip", "--target-base-url", targetsURL, "--target-dir", "client-targets", "download"]).status, 1)
        XCTAssertEqual(try client(["--metadata-url", "http://127.0.0.1:1/none", "refresh"]).status, 1)
    }
}
