import Foundation
import LiveryClient
import LiveryPublish
import LiveryReleaseFormat
import LiveryTestSupport
import XCTest

/// The client an app embeds: progress events, parallel downloads, adding and removing tours on the
/// installed release, and the same events as an `AsyncSequence`.
final class ClientFeatureTests: XCTestCase {
    private static let tenant = "sonic-walkscape"

    private func fetch(_ workspace: BuildTests.Workspace, _ server: SigningTests.FileServer, _ extra: [String]) throws -> LiveryProcess.Output {
        try LiveryProcess.run(["fetch", Self.tenant, "--server", "http://127.0.0.1:\(server.port)", "--cache", "cache",
                               "--root", "Output/\(Self.tenant)/metadata/1.root.json"] + extra, in: workspace.root)
    }

    private func events(_ output: LiveryProcess.Output) throws -> [[String: Any]] {
        try output.stdout.split(separator: "\n").map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], String($0)) }
    }

    func testJSONProgressDescribesEveryDownloadAndAddsUpToThePlan() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let server = try SigningTests.FileServer(root: workspace.output)
        for parallel in ["1", "4"] {
            try? FileManager.default.removeItem(at: workspace.root.appendingPathComponent("cache"))
            let result = try fetch(workspace, server, ["--tour", "florence-renaissance", "--locale", "fr", "--progress", "json", "--parallel", parallel])
            XCTAssertEqual(result.status, 0, result.stderr)
            let all = try events(result)
            XCTAssertEqual(all.first?["event"] as? String, "plan")
            XCTAssertEqual(all.last?["event"] as? String, "installed")
            let planned = try XCTUnwrap(all.first?["bundles"] as? [[String: Any]]).compactMap { $0["bundle"] as? String }
            XCTAssertEqual(Set(planned), ["core", "locale.fr", "locale.it", "tour.florence-renaissance", "tour.florence-renaissance.fr"])
            XCTAssertEqual(Set(all.filter { $0["event"] as? String == "started" }.compactMap { $0["bundle"] as? String }), Set(planned))
            XCTAssertEqual(Set(all.filter { $0["event"] as? String == "finished" }.compactMap { $0["bundle"] as? String }), Set(planned))
            // Per bundle, bytes only grow and end at its size; in all, they end at the plan's download.
            var last: [String: Int] = [:]
            for event in all where event["event"] as? String == "progress" {
                let bundle = try XCTUnwrap(event["bundle"] as? String), received = try XCTUnwrap(event["received"] as? Int)
                XCTAssertGreaterThanOrEqual(received, last[bundle] ?? 0)
                last[bundle] = received
            }
            let sizes = try XCTUnwrap(Publisher.currentManifest(tenant: Self.tenant, output: workspace.output)?.manifest.bundles)
            for bundle in planned { XCTAssertEqual(last[bundle], sizes.first { $0.id == bundle }?.size, bundle) }
            let lastProgress = try XCTUnwrap(all.last { $0["event"] as? String == "progress" })
            XCTAssertEqual(lastProgress["allReceived"] as? Int, all.first?["download"] as? Int)
            XCTAssertEqual(try XCTUnwrap(all.last?["downloaded"] as? [String]).count, planned.count)
            if parallel == "1" {
                // One at a time: every download ends before the next one starts.
                let order = all.compactMap { event -> String? in
                    guard let kind = event["event"] as? String, kind == "started" || kind == "finished" else { return nil }
                    return kind
                }
                XCTAssertEqual(order, Array(repeating: ["started", "finished"], count: planned.count).flatMap { $0 })
            }
        }
    }

    func testAddingATourDownloadsOnlyItsBundlesKeepsItAcrossUpdatesAndRemovingItFreesItsSpace() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let server = try SigningTests.FileServer(root: workspace.output)
        XCTAssertEqual(try fetch(workspace, server, ["--locale", "fr"]).status, 0)
        let cache = workspace.root.appendingPathComponent("cache/\(Self.tenant)")
        let coreFile = cache.appendingPathComponent("current/bundles/core/tenant.json")
        let inodeBefore = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: coreFile.path)[.systemFileNumber] as? UInt64)

        let requestsBefore = server.log.split(separator: "\n").count
        let added = try fetch(workspace, server, ["--locale", "fr", "--add-tour", "florence-renaissance"])
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertTrue(added.stdout.contains("release 1 installed"), added.stdout)
        XCTAssertTrue(added.stdout.contains("downloaded 2 bundles (tour.florence-renaissance, tour.florence-renaissance.fr)"), added.stdout)
        // Only the tour's files came from the server (no metadata refresh, no other bundle): its two archives, and the
        // file index of the one large enough to have one (table, then pages), kept for later deltas (docs/deltas.md).
        let requests = server.log.split(separator: "\n").dropFirst(requestsBefore)
        XCTAssertEqual(requests.filter { $0.contains(".zip ") }.count, 2, requests.joined(separator: "\n"))
        XCTAssertEqual(requests.filter { $0.contains(".tour.florence-renaissance.fr.files ") }.count, 2, requests.joined(separator: "\n"))
        XCTAssertEqual(requests.count, 4, requests.joined(separator: "\n"))
        XCTAssertTrue(requests.allSatisfy { $0.contains(".tour.florence-renaissance") }, requests.joined(separator: "\n"))
        // The core bundle was linked from the installed release, not extracted again.
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: coreFile.path)[.systemFileNumber] as? UInt64, inodeBefore)
        XCTAssertTrue(FileManager.default.fileExists(atPath: cache.appendingPathComponent("current/bundles/tour.florence-renaissance.fr/tours/florence-renaissance/audio/fr/01-duomo.mp3").path))

        // A new release: a plain fetch updates and keeps the added tour.
        try workspace.replace("\(Self.tenant)/locales/fr.yaml", "Carte", "Plan")
        XCTAssertEqual(try workspace.build().status, 0)
        let updated = try fetch(workspace, server, ["--locale", "fr"])
        XCTAssertTrue(updated.stdout.contains("release 2 installed") && updated.stdout.contains("downloaded 1 bundle (locale.fr)"), updated.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: cache.appendingPathComponent("current/bundles/tour.florence-renaissance").path))

        // Removing it: its folder and its downloads go (the previous release, kept for offline use, never had it under release 2's name).
        let tour = try XCTUnwrap(Publisher.currentManifest(tenant: Self.tenant, output: workspace.output)?.manifest.bundle("tour.florence-renaissance"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: cache.appendingPathComponent("downloads/\(tour.sha256)").path))
        let removed = try fetch(workspace, server, ["--locale", "fr", "--remove-tour", "florence-renaissance"])
        XCTAssertEqual(removed.status, 0, removed.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache.appendingPathComponent("current/bundles/tour.florence-renaissance").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: cache.appendingPathComponent("downloads/\(tour.sha256)").path))
        XCTAssertTrue(try String(contentsOf: cache.appendingPathComponent("selection.json"), encoding: .utf8).contains("\"tours\":[]"))
    }

    /// `livery fetch --add-tour` killed (SIGKILL) after its first progress event, then after its first finished download:
    /// the installed release stays whole and usable, and the same command then completes.
    func testAnAddKilledMidwayLeavesTheInstalledReleaseWhole() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let server = try SigningTests.FileServer(root: workspace.output)
        XCTAssertEqual(try fetch(workspace, server, []).status, 0)
        let current = workspace.root.appendingPathComponent("cache/\(Self.tenant)/current")
        let before = BuildTests.tree(current.resolvingSymlinksInPath())
        for killAt in ["progress", "finished"] {
            let arguments = ["fetch", Self.tenant, "--server", "http://127.0.0.1:\(server.port)", "--cache", "cache",
                             "--root", "Output/\(Self.tenant)/metadata/1.root.json", "--add-tour", "florence-renaissance", "--progress", "json"]
            let running = try LiveryProcess.start(arguments, in: workspace.root, lineByLine: true)
            while let line = running.nextLine(), !line.contains("\"event\":\"\(killAt)\"") {}
            running.kill()
            let now = current.resolvingSymlinksInPath()
            let tree = BuildTests.tree(now)
            if tree.keys.contains(where: { $0.hasPrefix("bundles/tour.") }) {
                // The add finished before the kill landed: then the new tree is whole.
                XCTAssertTrue(FileManager.default.fileExists(atPath: now.appendingPathComponent(".complete").path))
            } else {
                XCTAssertEqual(tree, before, "killed at the first \(killAt) event")
            }
        }
        let done = try fetch(workspace, server, ["--add-tour", "florence-renaissance"])
        XCTAssertEqual(done.status, 0, done.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: current.appendingPathComponent("bundles/tour.florence-renaissance").path))
    }

    /// The library's `AsyncSequence` of events, from a folder repository.
    func testTheEventsArriveAsAnAsyncSequenceEndingWithTheInstalledRelease() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        var request = FetchRequest(tenant: Self.tenant, repository: LocalRepository(root: workspace.output.appendingPathComponent(Self.tenant)),
                                   cache: workspace.root.appendingPathComponent("library-cache"),
                                   bootstrapRoot: try Data(contentsOf: workspace.output.appendingPathComponent("\(Self.tenant)/metadata/1.root.json")))
        request.tours = ["florence-renaissance"]
        let asked = request
        let kinds = try blocking { () -> [String] in
            var kinds: [String] = []
            for try await event in ReleaseInstaller.events(asked) {
                switch event {
                case .plan: kinds.append("plan")
                case .started: kinds.append("started")
                case .progress: kinds.append("progress")
                case .finished: kinds.append("finished")
                case .installed(let result):
                    kinds.append("installed \(result.release) \(result.downloaded.count)")
                }
            }
            return kinds
        }
        XCTAssertEqual(kinds.first, "plan")
        XCTAssertEqual(kinds.last, "installed 1 4", "core, locale.it (the default), the tour and its Italian audio")
        XCTAssertEqual(kinds.filter { $0 == "finished" }.count, 4)
    }
}
