import Foundation
import LiveryClient
import LiveryTestSupport
@testable import LiveryClientCore
import XCTest

/// Large targets come from a real `livery serve` in one response, resume where a partial download
/// stopped, and stop at the end of a file shorter than the length allowed.
final class HTTPRepositoryTests: XCTestCase {
    func testALargeTargetComesWholeResumesAndEndsWhereTheFileEnds() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("livery-ranges-\(UUID().uuidString)")
        let output = root.appendingPathComponent("Output")
        try FileManager.default.createDirectory(at: output.appendingPathComponent("demo/targets"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let size = 2 * HTTPRepository.rangeLength + 12_345
        var random = SystemRandomNumberGenerator()
        let content = Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &random) })
        try content.write(to: output.appendingPathComponent("demo/targets/big.bin"))
        let server = try LiveryFileServer(root: output)
        let repository = HTTPRepository(base: URL(string: "http://127.0.0.1:\(server.port)/demo")!)
        func ranges() -> [Int] {  // the sizes of the 206 answers logged so far
            server.log.split(separator: "\n").filter { $0.contains("GET /demo/targets/big.bin 206") }.compactMap { Int($0.split(separator: " ")[3]) }
        }

        let whole = root.appendingPathComponent("whole.bin")
        XCTAssertTrue(try repository.download("targets/big.bin", to: whole, maxLength: size))
        XCTAssertEqual(try Data(contentsOf: whole), content)
        XCTAssertEqual(ranges(), [], "a fresh download is one request for the whole file")

        // A partial file from an interrupted attempt: only the rest is asked for, in one range.
        let partial = root.appendingPathComponent("partial.bin")
        try content.prefix(5_000_000).write(to: partial)
        XCTAssertTrue(try repository.download("targets/big.bin", to: partial, maxLength: size))
        XCTAssertEqual(try Data(contentsOf: partial), content)
        XCTAssertEqual(ranges(), [size - 5_000_000])

        // The length allowed is an upper bound: the last range comes back short and the download ends there.
        let bounded = root.appendingPathComponent("bounded.bin")
        XCTAssertTrue(try repository.download("targets/big.bin", to: bounded, maxLength: size + 1_000))
        XCTAssertEqual(try Data(contentsOf: bounded), content)

        // A file longer than the length allowed is refused as it arrives (endless data).
        XCTAssertThrowsError(try repository.download("targets/big.bin", to: root.appendingPathComponent("small.bin"), maxLength: 1_000))
    }

    /// A server that cannot be reached is named by its URL, without a signed URL's query (a credential).
    /// LiveryClientCore has no transport of its own: a voucher server named for a repository that is not HTTP must come
    /// with one, and the fetch says so before anything is read or written; with one it goes on to the server.
    func testAVoucherServerBesideALocalRepositoryNeedsATransport() throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("livery-transport-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        var request = FetchRequest(tenant: "demo", repository: LocalRepository(root: cache.appendingPathComponent("nothing")), cache: cache)
        request.voucherServer = URL(string: "http://127.0.0.1:1/demo")
        request.vouchers = ["CODE-1"]
        XCTAssertThrowsError(try ReleaseInstaller.fetch(request)) { error in
            XCTAssertEqual("\(error)", "a voucher server is reached over HTTP: set FetchRequest.transport when the repository is not an HTTPRepository")
        }
        request.transport = AsyncHTTPTransport.shared
        XCTAssertThrowsError(try ReleaseInstaller.fetch(request)) { error in
            XCTAssertTrue("\(error)".contains("127.0.0.1:1"), "\(error)")
        }
    }

    func testAnUnreachableServerIsNamedWithoutItsQuery() throws {
        let repository = HTTPRepository(base: URL(string: "http://127.0.0.1:1/demo")!)
        // A refused connection is not retried until the connect timeout (10 s; AsyncHTTPClient's default retried with
        // backoff, so a device without a server waited 20 s before it used its installed release): the bound is far
        // above the milliseconds it takes.
        let start = Date()
        XCTAssertThrowsError(try repository.fetch("metadata/timestamp.json", maxLength: 16 << 10)) {
            XCTAssertTrue("\($0)".contains("http://127.0.0.1:1/demo/metadata/timestamp.json: connection refused"), "\($0)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 5, "a refused connection was retried")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("livery-unreachable-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let signed = URL(string: "http://127.0.0.1:1/protected/a.zip?X-Amz-Signature=secret-signature")!
        XCTAssertThrowsError(try repository.download(from: signed, named: "targets/a.zip", to: file, maxLength: 10)) {
            XCTAssertTrue("\($0)".contains("http://127.0.0.1:1/protected/a.zip: connection refused"), "\($0)")
            XCTAssertFalse("\($0)".contains("secret-signature"), "\($0)")
        }
    }
}
