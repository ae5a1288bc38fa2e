import Foundation
import XCTest

/// `livery serve` as a real server on 127.0.0.1, checked with curl.
final class ServeTests: XCTestCase {
    private func curl(_ arguments: [String]) throws -> LiveryProcess.Output {
        try LiveryProcess.tool(["curl", "-s", "--max-time", "10"] + arguments)
    }

    func testAnIPv6AddressIsPrintedInBracketsAndServes() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let process = try LiveryProcess.start(["serve", "--output", workspace.output.path, "--host", "::1", "--port", "0"], in: workspace.root)
        defer { kill(process.pid, SIGTERM); _ = process.wait(timeout: 30) }
        var port = 0
        for _ in 0..<500 where port == 0 {
            let log = (try? String(contentsOf: process.out, encoding: .utf8)) ?? ""
            if let range = log.range(of: #"http://\[::1\]:(\d+)/"#, options: .regularExpression) {
                port = Int(log[range].dropFirst("http://[::1]:".count).dropLast()) ?? 0
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        XCTAssertGreaterThan(port, 0, "no bracketed address in: \((try? String(contentsOf: process.out, encoding: .utf8)) ?? "")")
        XCTAssertEqual(try curl(["-o", "/dev/null", "-w", "%{http_code}", "http://[::1]:\(port)/urbannest/release.json"]).stdout, "200")
    }

    func testServesReleasesWithRangesETagsAndContentTypesAndRefusesEverythingElse() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let server = try SigningTests.FileServer(root: workspace.output)
        let base = "http://127.0.0.1:\(server.port)"
        let root = try Data(contentsOf: workspace.output.appendingPathComponent("urbannest/metadata/1.root.json"))

        // A whole file, with its type and an ETag.
        let headers = try curl(["-D", "-", "-o", "/dev/null", "\(base)/urbannest/metadata/1.root.json"]).stdout
        XCTAssertTrue(headers.hasPrefix("HTTP/1.1 200"), headers)
        XCTAssertTrue(headers.lowercased().contains("content-type: application/json"), headers)
        XCTAssertTrue(headers.lowercased().contains("content-length: \(root.count)"), headers)
        let etag = try XCTUnwrap(headers.split(separator: "\r\n").first { $0.lowercased().hasPrefix("etag:") }?.dropFirst(5).trimmingCharacters(in: .whitespaces))

        // A range, for resuming downloads.
        let part = try curl(["-H", "Range: bytes=10-19", "-w", "%{http_code}", "\(base)/urbannest/metadata/1.root.json"]).stdout
        XCTAssertEqual(part, String(decoding: root[10..<20], as: UTF8.self) + "206")

        // Ranges at the edges (RFC 9110): a suffix, an end past the file, a start at the end, several ranges.
        let size = root.count
        XCTAssertEqual(try curl(["-H", "Range: bytes=-10", "-w", "%{http_code}", "\(base)/urbannest/metadata/1.root.json"]).stdout,
                       String(decoding: root[(size - 10)...], as: UTF8.self) + "206")
        XCTAssertEqual(try curl(["-H", "Range: bytes=\(size - 5)-\(size + 1000)", "-w", "%{http_code}", "\(base)/urbannest/metadata/1.root.json"]).stdout,
                       String(decoding: root[(size - 5)...], as: UTF8.self) + "206")
        XCTAssertEqual(try curl(["-o", "/dev/null", "-H", "Range: bytes=\(size)-", "-w", "%{http_code}", "\(base)/urbannest/metadata/1.root.json"]).stdout, "416")
        XCTAssertEqual(try curl(["-o", "/dev/null", "-H", "Range: bytes=0-1,5-6", "-w", "%{http_code} %{size_download}", "\(base)/urbannest/metadata/1.root.json"]).stdout, "200 \(size)")
        XCTAssertEqual(try curl(["-o", "/dev/null", "-w", "%{http_code}", "-H", "Transfer-Encoding: chunked", "--data", "x", "-X", "GET", "\(base)/urbannest/release.json"]).stdout, "413")

        // Not modified.
        XCTAssertEqual(try curl(["-o", "/dev/null", "-w", "%{http_code}", "-H", "If-None-Match: \(etag)", "\(base)/urbannest/metadata/1.root.json"]).stdout, "304")

        // A bundle is a zip.
        let bundle = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: workspace.output.appendingPathComponent("urbannest/targets").path).first { $0.hasSuffix(".core.zip") })
        let zipHeaders = try curl(["-I", "\(base)/urbannest/targets/\(bundle)"]).stdout.lowercased()
        XCTAssertTrue(zipHeaders.contains("content-type: application/zip"), zipHeaders)

        // Refused: the private store, parent folders, other methods, request bodies, missing files.
        let refused: [([String], String)] = [
            (["\(base)/.livery/store/cache.sqlite"], "404"),
            (["\(base)/urbannest/.hidden"], "404"),
            (["--path-as-is", "\(base)/urbannest/../../../etc/passwd"], "404"),
            (["--path-as-is", "\(base)/urbannest/%2e%2e/%2e%2e/etc/passwd"], "404"),
            (["-X", "PUT", "--data", "x", "\(base)/urbannest/release.json"], "405"),
            (["-X", "DELETE", "\(base)/urbannest/release.json"], "405"),
            (["--data-binary", "@/dev/null", "-X", "GET", "-H", "Content-Length: 5", "\(base)/urbannest/release.json"], "413"),
            (["\(base)/urbannest/targets/nothing.zip"], "404"),
        ]
        for (arguments, status) in refused {
            XCTAssertEqual(try curl(["-o", "/dev/null", "-w", "%{http_code}"] + arguments).stdout, status, "\(arguments)")
        }
        // One log line per request.
        XCTAssertTrue(server.log.contains("GET /urbannest/metadata/1.root.json 206 10 "), server.log)
        XCTAssertTrue(server.log.contains("PUT /urbannest/release.json 405"), server.log)
        // HEAD and 304 answers send no body, and the log says so (not the file's size).
        XCTAssertTrue(server.log.contains("HEAD /urbannest/targets/\(bundle) 200 0 "), server.log)
        XCTAssertTrue(server.log.contains("GET /urbannest/metadata/1.root.json 304 0 "), server.log)
    }
}
