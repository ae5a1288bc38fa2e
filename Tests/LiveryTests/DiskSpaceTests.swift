import Foundation
import LiveryClient
import XCTest

/// Before downloading, `livery fetch` reports what it needs on disk, and refuses a fetch the cache's
/// file system cannot hold, changing nothing. The small disk is a real one: a 400 KiB tmpfs.
final class DiskSpaceTests: XCTestCase {
    func testAFetchThatDoesNotFitIsRefusedBeforeAnyDownloadAndOneThatFitsSaysWhatItNeeds() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let server = try SigningTests.FileServer(root: workspace.output)
        let small = workspace.root.appendingPathComponent("small")
        try FileManager.default.createDirectory(at: small, withIntermediateDirectories: true)
        let mounted = try LiveryProcess.tool(["mount", "-t", "tmpfs", "-o", "size=400k", "tmpfs", small.path])
        guard mounted.status == 0 else { throw XCTSkip("cannot mount a small tmpfs here (needs root): \(mounted.stderr)") }
        defer { _ = try? LiveryProcess.tool(["umount", small.path]) }
        func fetch(_ cache: String, _ extra: [String]) throws -> LiveryProcess.Output {
            try LiveryProcess.run(["fetch", "sonic-walkscape", "--server", "http://127.0.0.1:\(server.port)", "--cache", cache,
                                   "--root", "Output/sonic-walkscape/metadata/1.root.json", "--locale", "en"] + extra, in: workspace.root)
        }
        // The essentials fit (about 95 KB to download, 240 KB to install: the core's platform files extract to
        // many small files); with a tour (about 400 KB more) they do not.
        let first = try fetch(small.path, [])
        XCTAssertEqual(first.status, 0, first.stdout + first.stderr)
        XCTAssertNotNil(first.stderr.range(of: #"^sonic-walkscape: 0\.[0-9] MB to download, 0\.[0-9] MB to install, 0\.[3-4] MB free\n$"#, options: .regularExpression), first.stderr)
        let installed = try FileManager.default.destinationOfSymbolicLink(atPath: small.appendingPathComponent("sonic-walkscape/current").path)
        let logBefore = server.log
        let tooBig = try fetch(small.path, ["--tour", "florence-renaissance"])
        XCTAssertEqual(tooBig.status, 1, tooBig.stderr)
        XCTAssertTrue(tooBig.stderr.contains("fetch refused: sonic-walkscape release 1 needs "), tooBig.stderr)
        XCTAssertTrue(tooBig.stderr.contains("is free: free some space; release 1 stays installed"), tooBig.stderr)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: small.appendingPathComponent("sonic-walkscape/current").path), installed)
        XCTAssertFalse(server.log.dropFirst(logBefore.count).contains("tour.florence-renaissance"), "nothing was downloaded")
        // The same fetch into a cache on the big disk goes through.
        XCTAssertEqual(try fetch("cache", ["--tour", "florence-renaissance"]).status, 0)
    }
}
