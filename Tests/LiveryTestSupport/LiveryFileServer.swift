// Test support only: empty in a build without XCTest (`swift build -c release` builds every target, this one too).
#if canImport(XCTest)
import Foundation
import XCTest

/// `livery serve` on 127.0.0.1 and a free port, stopped (SIGTERM, graceful) on deinit.
public final class LiveryFileServer {
    public let process: LiveryProcess.Running
    public let port: Int

    public init(root: URL, arguments extra: [String] = [], environment: [String: String] = [:]) throws {
        process = try LiveryProcess.start(["serve", "--output", root.path, "--port", "0"] + extra, in: root.deletingLastPathComponent(), environment: environment)
        var found = 0
        for _ in 0..<500 {
            let log = (try? String(contentsOf: process.out, encoding: .utf8)) ?? ""
            if let range = log.range(of: #"127\.0\.0\.1:(\d+)/"#, options: .regularExpression) {
                found = Int(log[range].dropFirst("127.0.0.1:".count).dropLast()) ?? 0
                break
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        port = found
        XCTAssertGreaterThan(port, 0, "livery serve did not start: \(process.stderr)")
    }

    public var log: String { (try? String(contentsOf: process.out, encoding: .utf8)) ?? "" }

    deinit {
        kill(process.pid, SIGTERM)
        let result = process.wait(timeout: 30)
        XCTAssertEqual(result.status, 0, "livery serve did not shut down cleanly: \(result.stderr)")
    }
}
#endif
