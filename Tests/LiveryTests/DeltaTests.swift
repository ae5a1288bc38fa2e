import Crypto
import Foundation
import LiveryClient
import LiveryPublish
import LiveryReleaseFormat
import XCTest

/// Delta downloads (docs/deltas.md): the file index format, and the client through `livery serve`
/// and in-process against lying sources, each refused case recovered by the full download.
final class DeltaTests: XCTestCase {
    // MARK: The format

    private func entries(_ sizes: [Int], names: (Int) -> String = { "media/file\($0).bin" }) -> [(entry: FileIndexEntry, header: Int)] {
        var offset = 0
        return sizes.enumerated().map { index, size in
            let header = offset
            let data = offset + 30 + names(index).utf8.count
            offset = data + size
            return (FileIndexEntry(path: names(index), sha256: String(repeating: String(index % 10), count: 64), size: size, offset: data, length: size, method: .stored), header)
        }
    }

    func testAnIndexReadsBackAsWrittenAndItsTableNamesIt() throws {
        let index = FileIndex.paginate(bundle: "core", archiveSHA256: String(repeating: "a", count: 64), archiveSize: 10_000_000, entries: entries(Array(repeating: 1000, count: 700)))
        XCTAssertGreaterThan(index.pages.count, 2, "700 files make several pages")
        XCTAssertEqual(index.table.entryCount, 700)
        let object = index.objectBytes
        let read = try FileIndex(object: object, reference: index.reference, what: "test")
        XCTAssertEqual(read, index)
        XCTAssertEqual(FileIndex.nameDigest(ofObject: object), index.reference.sha256)
        // Absolute offsets come back from the page starts.
        XCTAssertEqual(read.absoluteEntries.map(\.offset), entries(Array(repeating: 1000, count: 700)).map(\.entry.offset))
        // JSON Lines: the table, then one line per page.
        XCTAssertEqual(object.split(separator: 0x0A).count, 1 + index.pages.count)
    }

    func testAFileThatChangesSizeChangesOnlyItsOwnPage() throws {
        var sizes = Array(repeating: 2000, count: 1000)
        let before = FileIndex.paginate(bundle: "core", archiveSHA256: String(repeating: "a", count: 64), archiveSize: 1 << 30, entries: entries(sizes))
        sizes[500] = 2500
        var changed = entries(sizes)
        changed[500].entry.sha256 = String(repeating: "f", count: 64)
        let after = FileIndex.paginate(bundle: "core", archiveSHA256: String(repeating: "b", count: 64), archiveSize: 1 << 30, entries: changed)
        let old = Set(before.table.pages.map(\.sha256))
        XCTAssertEqual(after.table.pages.filter { !old.contains($0.sha256) }.count, 1, "one page differs")
        // A device with the old index fetches the table, one page and one file's data.
        let bytes = FileDelta.bytes(from: [before], to: after)
        let page = try XCTUnwrap(after.table.pages.first { !old.contains($0.sha256) })
        XCTAssertEqual(bytes, after.tableBytes.count + page.length + 2500)
    }

    func testAnIndexObjectThatLiesIsRefused() throws {
        let index = FileIndex.paginate(bundle: "core", archiveSHA256: String(repeating: "a", count: 64), archiveSize: 1 << 20, entries: entries([100, 200, 300]))
        let object = index.objectBytes
        var tampered = object
        tampered[tampered.count - 10] ^= 0x01
        XCTAssertThrowsError(try FileIndex(object: tampered, reference: index.reference, what: "test")) { XCTAssertTrue("\($0)".contains("does not match"), "\($0)") }
        XCTAssertNil(FileIndex.nameDigest(ofObject: tampered))
        var wrongTable = object
        wrongTable[5] ^= 0x01
        XCTAssertThrowsError(try FileIndex(object: wrongTable, reference: index.reference, what: "test"))
        XCTAssertThrowsError(try FileIndex(object: object + Data("{}\n".utf8), reference: index.reference, what: "test"))
        // Pages that break the format's rules.
        for (line, phrase) in [(#"{"entries":[["a","\#(String(repeating: "0", count: 64))",5,0,4,"stored"]]}"#, "two sizes"),
                               (#"{"entries":[["a","\#(String(repeating: "0", count: 64))",5,0,4,"bzip2"]]}"#, "unknown method"),
                               (#"{"entries":[["a","ABC",5,0,5,"stored"]]}"#, "malformed sha256"),
                               (#"{"entries":[["a","\#(String(repeating: "0", count: 64))",-1,0,5,"deflate"]]}"#, "negative"),
                               (#"{"entries":[],"extra":1}"#, "unknown field")] {
            XCTAssertThrowsError(try FileIndexPage(data: Data((line + "\n").utf8), what: "page")) { XCTAssertTrue("\($0)".contains(phrase), "\($0)") }
        }
        // Numbers past the 1 TiB bound are refused, so that start + offset + length can never overflow.
        XCTAssertThrowsError(try FileIndexPage(data: Data((#"{"entries":[["a","\#(String(repeating: "0", count: 64))",1,\#(FileIndex.maxBytes + 1),1,"stored"]]}"# + "\n").utf8),
                                               what: "page")) { XCTAssertTrue("\($0)".contains("above"), "\($0)") }
        let table = #"{"archive":{"sha256":"\#(String(repeating: "a", count: 64))","size":9},"bundle":"x","pages":[{"count":1,"length":9,"sha256":"\#(String(repeating: "b", count: 64))","start":50},{"count":1,"length":9,"sha256":"\#(String(repeating: "c", count: 64))","start":10}],"schemaVersion":1}"#
        XCTAssertThrowsError(try FileIndexTable(data: Data(table.utf8), what: "table")) { XCTAssertTrue("\($0)".contains("archive order"), "\($0)") }
        var limits = FileIndex.Limits()
        limits.maxEntries = 1
        let two = table.replacingOccurrences(of: "\"start\":10", with: "\"start\":60")
        XCTAssertThrowsError(try FileIndexTable(data: Data(two.utf8), what: "table", limits: limits)) { XCTAssertTrue("\($0)".contains("more than 1 files"), "\($0)") }
    }

    func testAdjacentRangesAreJoinedAndDistantOnesAreNot() {
        let spans = FileDelta.coalesce([(0..<100, "a"), (150..<200, "b"), (100_000..<100_010, "c")])
        XCTAssertEqual(spans.map(\.range), [0..<200, 100_000..<100_010])
        XCTAssertEqual(spans.map(\.items), [["a", "b"], ["c"]])
    }

    // MARK: The client, through `livery serve`

    private let tour = ["--locale", "fr", "--tour", "florence-renaissance"]
    private let recorded = "sonic-walkscape/tours/florence-renaissance/audio/fr/03-signoria.mp3"

    private func fetch(_ workspace: BuildTests.Workspace, _ server: SigningTests.FileServer, cache: String = "cache", extra: [String] = []) throws -> LiveryProcess.Output {
        try LiveryProcess.run(["fetch", "sonic-walkscape", "--server", "http://127.0.0.1:\(server.port)", "--cache", cache,
                               "--root", "Output/sonic-walkscape/metadata/1.root.json"] + tour + extra, in: workspace.root)
    }

    /// Every installed file of a cache's current release, by path, with its digest.
    private func tree(_ workspace: BuildTests.Workspace, cache: String) throws -> [String: String] {
        let bundles = workspace.root.appendingPathComponent("\(cache)/sonic-walkscape/current/bundles").resolvingSymlinksInPath()
        var files: [String: String] = [:]
        let walker = try XCTUnwrap(FileManager.default.enumerator(at: bundles, includingPropertiesForKeys: [.isRegularFileKey]))
        for case let url as URL in walker where (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true {
            files[String(url.resolvingSymlinksInPath().path.dropFirst(bundles.path.count))] = SHA256.hash(data: try Data(contentsOf: url)).hexString
        }
        return files
    }

    /// A workspace with sonic-walkscape installed from release 1, then release 2 built with one stop re-recorded.
    private func updated() throws -> (BuildTests.Workspace, SigningTests.FileServer) {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let server = try SigningTests.FileServer(root: workspace.output)
        let first = try fetch(workspace, server)
        XCTAssertEqual(first.status, 0, first.stderr)
        let tenants = workspace.tenants
        unlink(tenants.appendingPathComponent(recorded).path)
        try FileManager.default.copyItem(at: tenants.appendingPathComponent("sonic-walkscape/tours/florence-renaissance/audio/it/03-signoria.mp3"),
                                         to: tenants.appendingPathComponent(recorded))
        XCTAssertEqual(try workspace.build().status, 0)
        return (workspace, server)
    }

    func testAReRecordedStopComesByDeltaAndInstallsWhatAFullDownloadWould() throws {
        let (workspace, server) = try updated()
        let logBefore = server.log.split(separator: "\n").count
        let second = try fetch(workspace, server)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(second.stdout.contains("release 2 installed"), second.stdout)
        XCTAssertTrue(second.stdout.contains("by delta: tour.florence-renaissance.fr"), second.stdout)
        let requests = server.log.split(separator: "\n").dropFirst(logBefore).map(String.init)
        // The archive was asked for in ranges only, never whole.
        let archive = requests.filter { $0.contains(".tour.florence-renaissance.fr.zip") }
        XCTAssertFalse(archive.isEmpty, "\(requests)")
        XCTAssertTrue(archive.allSatisfy { $0.contains(" 206 ") }, "\(archive)")
        // About the new recording's size, far less than the bundle.
        let manifest = try XCTUnwrap(Publisher.currentManifest(tenant: "sonic-walkscape", output: workspace.output)?.manifest)
        let bundle = try XCTUnwrap(manifest.bundle("tour.florence-renaissance.fr"))
        let received = Int(second.stdout.components(separatedBy: "; ").last?.split(separator: " ").first ?? "") ?? .max
        let recording = try Data(contentsOf: workspace.tenants.appendingPathComponent(recorded)).count
        XCTAssertLessThan(received, recording + 20_000, second.stdout)
        XCTAssertLessThan(received, bundle.size / 2, second.stdout)
        // The same files as a device that downloads release 2 whole.
        let full = try fetch(workspace, server, cache: "cache-full")
        XCTAssertEqual(full.status, 0, full.stderr)
        XCTAssertEqual(try tree(workspace, cache: "cache"), try tree(workspace, cache: "cache-full"))
        // The kept index is byte for byte the server's, ready for the next delta.
        let kept = try Data(contentsOf: workspace.root.appendingPathComponent("cache/sonic-walkscape/current/index/tour.florence-renaissance.fr.files"))
        let files = try XCTUnwrap(bundle.filesPath)
        XCTAssertEqual(kept, try Data(contentsOf: workspace.output.appendingPathComponent("sonic-walkscape/\(files)")))
        XCTAssertEqual(try LiveryProcess.run(["verify", "--output", "Output"], in: workspace.root).status, 0)
    }

    func testTheProgressPlanSaysWhichBundlesComeByDeltaAndHowManyBytes() throws {
        let (workspace, server) = try updated()
        let json = try fetch(workspace, server, extra: ["--progress", "json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let plan = try XCTUnwrap(json.stdout.split(separator: "\n").first { $0.contains(#""event":"plan""#) })
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(plan.utf8)) as? [String: Any])
        let bundles = try XCTUnwrap(object["bundles"] as? [[String: Any]])
        XCTAssertEqual(bundles.count, 1)
        XCTAssertEqual(bundles.first?["method"] as? String, "delta")
        XCTAssertLessThan(bundles.first?["bytes"] as? Int ?? .max, bundles.first?["size"] as? Int ?? 0)
    }

    func testATamperedIndexPageIsRefusedAndTheBundleComesWhole() throws {
        let (workspace, server) = try updated()
        let manifest = try XCTUnwrap(Publisher.currentManifest(tenant: "sonic-walkscape", output: workspace.output)?.manifest)
        let index = workspace.output.appendingPathComponent("sonic-walkscape/" + (try XCTUnwrap(manifest.bundle("tour.florence-renaissance.fr")?.filesPath)))
        // A page entry that claims other bytes (the targets are hard links into the store: write a new file).
        var object = try Data(contentsOf: index)
        let text = String(decoding: object, as: UTF8.self)
        let mp3 = try XCTUnwrap(text.range(of: "03-signoria.mp3\",\""))
        let at = text.utf8.distance(from: text.utf8.startIndex, to: mp3.upperBound.samePosition(in: text.utf8)!)
        object[at] = object[at] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
        unlink(index.path)
        try object.write(to: index)
        let second = try fetch(workspace, server)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertFalse(second.stdout.contains("by delta"), second.stdout)
        XCTAssertTrue(second.stdout.contains("release 2 installed"), second.stdout)
        let full = try fetch(workspace, server, cache: "cache-full", extra: ["--no-delta"])
        XCTAssertEqual(full.status, 0, full.stderr)
        XCTAssertEqual(try tree(workspace, cache: "cache"), try tree(workspace, cache: "cache-full"))
        // And `livery verify` names the broken index.
        let verify = try LiveryProcess.run(["verify", "--output", "Output"], in: workspace.root)
        XCTAssertNotEqual(verify.status, 0)
        XCTAssertTrue((verify.stdout + verify.stderr).contains("file index of tour.florence-renaissance.fr"), verify.stdout + verify.stderr)
    }

    func testAWrongBaseIsRefusedAndTheBundleComesWhole() throws {
        let (workspace, server) = try updated()
        // A file of the installed release no longer holds what its index says (a damaged or edited device).
        let installed = workspace.root.appendingPathComponent("cache/sonic-walkscape/current/bundles/tour.florence-renaissance.fr/tours/florence-renaissance/audio/fr/01-duomo.mp3")
        let path = installed.resolvingSymlinksInPath()
        unlink(path.path)
        try Data("not the recording".utf8).write(to: path)
        let second = try fetch(workspace, server)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(second.stderr.contains("tour.florence-renaissance.fr: its delta was refused"), second.stderr)
        XCTAssertFalse(second.stdout.contains("by delta"), second.stdout)
        let full = try fetch(workspace, server, cache: "cache-full")
        XCTAssertEqual(try tree(workspace, cache: "cache"), try tree(workspace, cache: "cache-full"))
    }

    /// docs/deltas.md is enough to write a client: an independent one in Python (standard library
    /// only, written from the docs without reading Livery's sources) rebuilds release 2 from a copy of
    /// release 1, every file verified, and its trees and kept indexes match the server's byte for byte.
    func testAnIndependentClientWrittenFromTheDocsReconstructsTheNewRelease() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let old = workspace.root.appendingPathComponent("old-sonic")
        try FileManager.default.copyItem(at: workspace.output.appendingPathComponent("sonic-walkscape"), to: old)
        // The recording gets an ID3v1 tag: bytes no release had before.
        let bytes = try workspace.retag(recorded, "Signoria, re-tagged")
        XCTAssertEqual(try workspace.build().status, 0)
        let server = try SigningTests.FileServer(root: workspace.output)
        let script = LiveryProcess.packageRoot.appendingPathComponent("Tests/interop/delta_reconstruct.py").path
        let result = try LiveryProcess.tool(["python3", script, "--old", old.path, "--server", "http://127.0.0.1:\(server.port)", "--tenant", "sonic-walkscape",
                                             "--out", workspace.root.appendingPathComponent("rebuilt").path, "--cross-check"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let bundles = try XCTUnwrap(report["bundles"] as? [String: [String: Any]])
        let fr = try XCTUnwrap(bundles["tour.florence-renaissance.fr"])
        XCTAssertEqual(fr["method"] as? String, "delta")
        XCTAssertGreaterThanOrEqual(fr["received"] as? Int ?? 0, bytes.count, "the new recording itself travels")
        XCTAssertLessThan(fr["received"] as? Int ?? .max, (fr["archiveSize"] as? Int ?? 0) / 4, "\(fr)")
    }

    /// Ops see what an update costs: `livery build` says it as it publishes, `livery releases` per release,
    /// `livery diff` beside the whole download.
    func testBuildReleasesAndDiffSayWhatAnUpdateDownloadsByDelta() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        try workspace.retag(recorded, "Signoria, for ops")
        let build = try workspace.build()
        XCTAssertEqual(build.status, 0, build.stderr)
        let line = try XCTUnwrap(build.stdout.split(separator: "\n").first { $0.hasPrefix("sonic-walkscape: published release 2") })
        XCTAssertTrue(line.contains("an update from the previous release downloads") && line.contains("by delta"), String(line))

        let releases = try LiveryProcess.run(["releases", "sonic-walkscape", "--format", "json"], in: workspace.root)
        XCTAssertEqual(releases.status, 0, releases.stderr)
        let history = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(releases.stdout.utf8)) as? [String: Any])
        let entries = try XCTUnwrap((history["channels"] as? [[String: Any]])?.first?["releases"] as? [[String: Any]])
        let update = try XCTUnwrap(entries.first { $0["release"] as? Int == 2 }?["update"] as? [String: Int])
        XCTAssertLessThan(update["delta"] ?? .max, (update["whole"] ?? 0) / 2, "\(update)")
        XCTAssertNil(entries.first { $0["release"] as? Int == 1 }?["update"], "release 1 has no release before it")

        let diff = try LiveryProcess.run(["diff", "sonic-walkscape", "1", "2", "--format", "json"], in: workspace.root)
        XCTAssertEqual(diff.status, 0, diff.stderr)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(diff.stdout.utf8)) as? [String: Any])
        let whole = try XCTUnwrap((object["download"] as? [String: Int])?["allBundles"])
        let delta = try XCTUnwrap((object["deltaDownload"] as? [String: Int])?["allBundles"])
        XCTAssertLessThan(delta, whole / 2, diff.stdout)
    }

    /// `livery embed` refuses what an app could not install from it, and writes nothing then.
    func testEmbedRefusesProtectedContentUnknownToursAndAnExistingFolder() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        for (arguments, phrase) in [(["--tour", "rome-trastevere"], "is protected by a voucher"), (["--tour", "atlantis"], "has no tour 'atlantis'")] {
            let refused = try LiveryProcess.run(["embed", "sonic-walkscape", "-o", "embedded"] + arguments, in: workspace.root)
            XCTAssertNotEqual(refused.status, 0)
            XCTAssertTrue(refused.stderr.contains(phrase), refused.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: workspace.root.appendingPathComponent("embedded").path))
        }
        XCTAssertEqual(try LiveryProcess.run(["embed", "sonic-walkscape", "-o", "embedded"], in: workspace.root).status, 0)
        let again = try LiveryProcess.run(["embed", "sonic-walkscape", "-o", "embedded"], in: workspace.root)
        XCTAssertNotEqual(again.status, 0)
        XCTAssertTrue(again.stderr.contains("already exists"), again.stderr)
        let selection = try EmbeddedSelection(data: Data(contentsOf: workspace.root.appendingPathComponent("embedded/embedded.json")))
        XCTAssertEqual(selection.tenant, "sonic-walkscape")
        XCTAssertEqual(selection.release, 1)
    }

    // MARK: The client in-process, against sources that lie

    /// The tenant's repository in a folder, whose ranges are changed or refused.
    private struct LyingSource: RepositorySource {
        enum Lie { case flipByte, noRanges }
        let folder: LocalRepository
        let lie: Lie
        func fetch(_ path: String, maxLength: Int) throws -> Data? { try folder.fetch(path, maxLength: maxLength) }
        func copyRange(_ path: String, _ range: Range<Int>, to handle: FileHandle) throws {
            switch lie {
            case .noRanges: throw TUFError(.download, "no ranges here")
            case .flipByte:
                guard path.hasSuffix(".zip") else { return try folder.copyRange(path, range, to: handle) }
                let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("lying-\(UUID().uuidString)")
                _ = FileManager.default.createFile(atPath: scratch.path, contents: nil)
                defer { try? FileManager.default.removeItem(at: scratch) }
                let write = try FileHandle(forWritingTo: scratch)
                try folder.copyRange(path, range, to: write)
                try write.close()
                var bytes = try Data(contentsOf: scratch)
                bytes[bytes.count / 2] ^= 0x55
                try handle.write(contentsOf: bytes)
            }
        }
    }

    private func inProcess(_ lie: LyingSource.Lie) throws -> (FetchResult, BuildTests.Workspace) {
        let (workspace, _) = try updated()
        var request = FetchRequest(tenant: "sonic-walkscape", repository: LyingSource(folder: LocalRepository(root: workspace.output.appendingPathComponent("sonic-walkscape")), lie: lie),
                                   cache: workspace.root.appendingPathComponent("cache/sonic-walkscape"), locale: "fr")
        request.tours = ["florence-renaissance"]
        let result = try ReleaseInstaller.fetch(request)
        XCTAssertEqual(result.release, 2)
        let installed = result.installed.appendingPathComponent("bundles/tour.florence-renaissance.fr/tours/florence-renaissance/audio/fr/03-signoria.mp3")
        XCTAssertEqual(try Data(contentsOf: installed), try Data(contentsOf: workspace.tenants.appendingPathComponent(recorded)))
        return (result, workspace)
    }

    func testALyingRangeIsRefusedAndTheBundleComesWhole() throws {
        let (result, _) = try inProcess(.flipByte)
        XCTAssertEqual(result.deltas, [])
        XCTAssertTrue(result.deltaFallbacks["tour.florence-renaissance.fr"]?.contains("does not match its SHA-256") == true, "\(result.deltaFallbacks)")
        XCTAssertEqual(result.downloaded, ["tour.florence-renaissance.fr"])
    }

    func testASourceWithoutRangesGetsWholeBundles() throws {
        let (result, _) = try inProcess(.noRanges)
        XCTAssertEqual(result.deltas, [])
        XCTAssertEqual(result.deltaFallbacks, [:], "no delta was planned: the table could not be read")
        XCTAssertEqual(result.downloaded, ["tour.florence-renaissance.fr"])
    }
}
