import Foundation
import LiveryClient
import LiveryObjectStore
import LiveryTestSupport
import XCTest

/// `livery fetch` against a server that misbehaves on one file at a time (Tests/interop/hostile_http_server.py):
/// endless, encoded, oversized, lying, redirecting and slow answers, on every kind of file a fetch reads, into a
/// fresh cache and one with a release installed. Each refusal says why, the process's peak memory stays under
/// 100 MB, it ends within the policy's deadlines (docs/client.md#what-a-server-can-cost-a-device), and the
/// installed release is byte-identical afterwards.
final class HostileServerTests: XCTestCase {
    /// The hostile server on 127.0.0.1, serving `root`; stopped on deinit.
    final class HostileServer {
        let process: Process
        let port: Int

        init(root: URL) throws {
            (process, port) = try PortLine.start(["python3", LiveryProcess.packageRoot.appendingPathComponent("Tests/interop/hostile_http_server.py").path,
                                                  root.path], what: "hostile test server")
        }

        deinit {
            // SIGKILL: a process started from a thread that blocks SIGTERM (Swift concurrency's, NIO's) inherits the
            // mask and would outlive `terminate()`.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// A tenant with release 1 installed in `template` and release 2 published, and the hostile server.
    final class Setup: @unchecked Sendable {  // immutable after init; its fetches touch only their own caches
        let workspace: BuildTests.Workspace
        let server: HostileServer
        let template: URL

        init() throws {
            workspace = try BuildTests.Workspace()
            XCTAssertEqual(try workspace.build().status, 0)
            server = try HostileServer(root: workspace.output)
            template = workspace.root.appendingPathComponent("template")
            let first = try Self.fetch(workspace, server, "normal/any", cache: template)
            XCTAssertEqual(first.output.status, 0, first.output.stderr)
            try workspace.replace("sonic-walkscape/locales/fr.yaml", "Carte", "Plan")
            XCTAssertEqual(try workspace.build().status, 0)
        }

        /// A cache to fetch into: empty, or a copy of the template with release 1 installed.
        func cache(installed: Bool) throws -> URL {
            let cache = workspace.root.appendingPathComponent("cache-\(UUID().uuidString)")
            if installed { try FileManager.default.copyItem(at: template, to: cache) }
            return cache
        }

        static func fetch(_ workspace: BuildTests.Workspace, _ server: HostileServer, _ route: String, cache: URL)
            throws -> (output: LiveryProcess.Output, peakKiB: Int, seconds: Double) {
            let start = Date()
            let (output, peak) = try LiveryProcess.measured(["fetch", "sonic-walkscape", "--server", "http://127.0.0.1:\(server.port)/\(route)",
                                                             "--cache", cache.path, "--root", "Output/sonic-walkscape/metadata/1.root.json",
                                                             "--locale", "fr", "--progress", "none"], in: workspace.root)
            return (output, peak, Date().timeIntervalSince(start))
        }

        /// Fetches through `route` and checks what every refusal must hold: the reason in the output, memory under
        /// 100 MB, the end within `seconds`, and the cache as it was (nothing installed, or release 1 byte-identical).
        func refuses(_ route: String, installed: Bool, saying reason: String, within seconds: Double,
                     file: StaticString = #filePath, line: UInt = #line) throws {
            let cache = try cache(installed: installed)
            defer { try? FileManager.default.removeItem(at: cache) }
            let current = cache.appendingPathComponent("sonic-walkscape/current")
            let before = installed ? BuildTests.tree(current.resolvingSymlinksInPath()) : [:]
            let linkBefore = try? FileManager.default.destinationOfSymbolicLink(atPath: current.path)
            let (output, peak, elapsed) = try Self.fetch(workspace, server, route, cache: cache)
            let said = output.stdout + output.stderr
            let what = "\(route) into a \(installed ? "cache with release 1" : "fresh cache")"
            XCTAssertTrue(said.contains(reason), "\(what): \(said)", file: file, line: line)
            XCTAssertLessThan(peak, 100_000, "\(what): peak memory \(peak) KiB", file: file, line: line)
            XCTAssertLessThan(elapsed, seconds, "\(what): took \(elapsed) s", file: file, line: line)
            XCTAssertEqual(try? FileManager.default.destinationOfSymbolicLink(atPath: current.path), linkBefore, what, file: file, line: line)
            if installed {
                // The update is refused and release 1 stays, for offline use, with a warning that says why.
                XCTAssertEqual(output.status, 0, "\(what): \(said)", file: file, line: line)
                XCTAssertTrue(output.stderr.contains("keeping release 1 for offline use"), "\(what): \(said)", file: file, line: line)
                XCTAssertEqual(BuildTests.tree(current.resolvingSymlinksInPath()), before, what, file: file, line: line)
            } else {
                XCTAssertEqual(output.status, 1, "\(what): \(said)", file: file, line: line)
                XCTAssertTrue(output.stderr.contains("fetch failed: "), "\(what): \(said)", file: file, line: line)
                XCTAssertFalse(FileManager.default.fileExists(atPath: current.path), what, file: file, line: line)
            }
        }
    }

    func testEndlessEncodedOversizedLyingAndRedirectingAnswersAreRefusedWithBoundedMemoryAndTheInstalledReleaseIntact() throws {
        let setup = try Setup()
        let base = "http://127.0.0.1:\(setup.server.port)"
        // (route, the reason the refusal gives); every file a fetch reads, in turn.
        let cases: [(String, String)] = [
            ("endless/root", "2.root.json sent more than the 524288 bytes expected (endless data)"),
            ("endless/timestamp", "timestamp.json sent more than the 16384 bytes expected (endless data)"),
            ("endless/snapshot", "snapshot.json sent more than the "),
            ("endless/targets", "targets.json sent more than the "),
            ("endless/manifest", "download-manifest.json sent more than the "),
            ("endless/bundle", ".zip sent more than the "),
            ("huge-length/timestamp", "timestamp.json: the server announces 1000000000000 bytes, more than the 16384 expected"),
            ("huge-length/bundle", ".zip: the server announces 1000000000000 bytes"),
            ("gzip/timestamp", "timestamp.json: the server sent the file with Content-Encoding 'gzip', which the client did not ask for"),
            ("gzip/snapshot", "snapshot.json: the server sent the file with Content-Encoding 'gzip'"),
            ("gzip/manifest", "download-manifest.json: the server sent the file with Content-Encoding 'gzip'"),
            ("gzip/bundle", ".zip: the server sent the file with Content-Encoding 'gzip'"),
            ("error-endless/timestamp", "timestamp.json is missing on the server"),
            ("error-endless/bundle", ".zip is missing on the server"),
            ("redirect-loop/timestamp", "timestamp.json: more than \(TransferPolicy.standard.maxRedirects) redirects"),
            ("redirect-endless/snapshot", "snapshot.json sent more than the "),
            ("redirect-endless/bundle", ".zip sent more than the "),
            ("tampered/snapshot", "snapshot"),
            ("tampered/manifest", "does not match its signed sha256 hash"),
            ("tampered/bundle", "does not match its signed SHA-256"),
            // A refusal (a bucket policy not set yet, a server that wants credentials) is named as one, with the address.
            ("forbidden/timestamp", "access refused: the server answered HTTP 403 Forbidden for \(base)/forbidden/timestamp/sonic-walkscape/metadata/timestamp.json ("),
            ("forbidden/snapshot", "access refused: the server answered HTTP 403 Forbidden for \(base)/forbidden/snapshot/sonic-walkscape/metadata/"),
            ("unauthorized/timestamp", "access refused: the server answered HTTP 401 Unauthorized for \(base)/unauthorized/timestamp/sonic-walkscape/metadata/timestamp.json ("),
            ("forbidden/bundle", "access refused: the server answered HTTP 403 Forbidden for \(base)/forbidden/bundle/sonic-walkscape/targets/"),
        ]
        for installed in [false, true] {
            for (route, reason) in cases {
                try setup.refuses(route, installed: installed, saying: reason, within: 15)
            }
        }
    }

    /// A 403 for the next root version is the one refusal that means "not there" (object storage hides missing keys
    /// behind 403, and the client probes for a root that usually does not exist): the fetch goes on.
    func testAForbiddenNextRootIsNoRootRotationAndTheFetchSucceeds() throws {
        let setup = try Setup()
        let cache = try setup.cache(installed: false)
        let (output, _, _) = try Setup.fetch(setup.workspace, setup.server, "forbidden/root", cache: cache)
        XCTAssertEqual(output.status, 0, output.stderr)
        XCTAssertTrue(output.stdout.contains("release 2 installed"), output.stdout)
    }

    /// The TUF specification's slow-retrieval attack: a server that trickles its header or its body is cut off
    /// within the policy's deadlines (20 s for the header; 10 s windows of at least 16 KiB), not when it gives up.
    func testSlowRetrievalIsCutOffWithinTheDocumentedDeadlines() throws {
        let setup = try Setup()
        let policy = TransferPolicy.standard
        let cases: [(route: String, installed: Bool, reason: String, within: Double)] = [
            ("slow-head/timestamp", false, "timestamp.json: no answer within 20 s (slow retrieval)", policy.responseTimeout + 5),
            ("slow-body/timestamp", true, "bytes in 10 s, fewer than the 16384 the client requires (slow retrieval)",
             policy.responseTimeout + 2 * policy.progressWindow),
            ("slow-body/bundle", false, ".zip: ", policy.responseTimeout + 2 * policy.progressWindow),
        ]
        // The three wait side by side (each is one process and one server thread).
        final class Errors: @unchecked Sendable {
            let lock = NSLock()
            var list: [String] = []  // guarded by `lock`
        }
        let errors = Errors()
        DispatchQueue.concurrentPerform(iterations: cases.count) { index in
            let item = cases[index]
            do {
                try setup.refuses(item.route, installed: item.installed, saying: item.reason, within: item.within)
            } catch {
                errors.lock.withLock { errors.list.append("\(item.route): \(error)") }
            }
        }
        XCTAssertEqual(errors.list, [])
    }

    /// `livery serve --releases s3://…` and `publish` read metadata from a bucket through S3Client: each GET's body
    /// is counted as it streams in and refused past its caller's limit, without another attempt; an encoded body is
    /// not inflated (decompression is off), so it stays the size it was sent at.
    func testObjectStoreReadsStopAtTheirCallersLimit() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livery-hostile-s3-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try HostileServer(root: folder)
        let client = S3Client(configuration: S3Configuration(endpoint: URL(string: "http://127.0.0.1:\(server.port)")!, region: "us-east-1",
                                                             credentials: AWSCredentials(accessKeyID: "a", secretAccessKey: "b"), addressing: .path))
        // Path addressing: bucket "endless", key "any/…" is the server's /endless/any/… (every file misbehaves).
        let start = Date()
        XCTAssertThrowsError(try blocking { try await client.get(bucket: "endless", key: "any/t/metadata/timestamp.json", limit: 1 << 20) }) {
            XCTAssertTrue("\($0)".contains("sent more than the 1048576 bytes allowed"), "\($0)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 10, "refused at once, not retried")
        let encoded = try blocking { try await client.get(bucket: "gzip", key: "any/t/metadata/timestamp.json", limit: 1 << 20) }
        XCTAssertLessThan(encoded?.data.count ?? 0, 1 << 20, "the gzip body is not inflated (512 MiB)")
        XCTAssertEqual(encoded?.data.prefix(2), Data([0x1f, 0x8b]), "the bytes as sent")
    }
}
