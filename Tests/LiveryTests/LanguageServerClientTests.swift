import Foundation
import XCTest

/// `livery lsp` as a process: driven by a real LSP client (pytest-lsp, with pygls and lsprotocol, from .venv-test),
/// and fed hostile bytes on standard input.
final class LanguageServerClientTests: XCTestCase {
    /// A temporary workspace with copies of sample tenants.
    private func sampleWorkspace(_ tenants: [String]) throws -> URL {
        let workspace = FileManager.default.temporaryDirectory.appendingPathComponent("livery-lsp-client-\(UUID().uuidString)/Tenants")
        try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
        for tenant in tenants {
            try FileManager.default.copyItem(at: LiveryProcess.packageRoot.appendingPathComponent("Tenants/\(tenant)"), to: workspace.appendingPathComponent(tenant))
        }
        addTeardownBlock { try? FileManager.default.removeItem(at: workspace.deletingLastPathComponent()) }
        return workspace
    }

    /// Opens a sample, introduces an error, receives it at the right range, hovers, goes to definition, completes a
    /// token reference, applies the quick fix and sees the finding clear: Tests/LiveryTests/Fixtures/lsp/test_livery_lsp.py.
    func testRealLSPClientDrivesTheServerOverStdio() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else {
            throw XCTSkip("python3 is missing: this test drives `livery lsp` with pytest-lsp (run `make test-deps`)")
        }
        let python = LiveryProcess.packageRoot.appendingPathComponent(".venv-test/bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            return XCTFail("\(python.path) is missing: run `make test-deps` (it installs pytest-lsp into .venv-test)")
        }
        let workspace = try sampleWorkspace(["urbannest"])
        let script = LiveryProcess.packageRoot.appendingPathComponent("Tests/LiveryTests/Fixtures/lsp/test_livery_lsp.py")
        let result = try PlatformFixtures.tool(["LIVERY_BIN=\(LiveryProcess.executable.path)", "LIVERY_WORKSPACE=\(workspace.path)", python.path,
                                                "-m", "pytest", "-q", "-p", "no:cacheprovider", "-W", "error::pytest_lsp.LspSpecificationWarning",
                                                "--rootdir", script.deletingLastPathComponent().path, script.path], timeout: 300)
        if result.stdout.contains("No module named pytest") || result.stderr.contains("No module named pytest") {
            return XCTFail("pytest-lsp is missing from .venv-test: run `make test-deps`")
        }
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(result.stdout.contains("3 passed"), result.stdout)
    }

    /// The bytes on standard input come from another program: bad framing ends the session with a JSON-RPC
    /// parse error and exit status 1, never a crash or a hang.
    func testHostileBytesOnStdinGetACleanErrorOrClose() throws {
        let cases: [(name: String, input: [UInt8], answered: Bool)] = [
            ("garbage header", Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8), true),
            ("no Content-Length", Array("Content-Type: application/json\r\n\r\n{}".utf8), true),
            ("negative length", Array("Content-Length: -5\r\n\r\n{}".utf8), true),
            ("huge Content-Length", Array("Content-Length: 99999999999\r\n\r\n{".utf8), true),
            ("endless header", [UInt8](repeating: UInt8(ascii: "a"), count: 20_000), true),
            ("binary noise", (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }, true),
            ("truncated body", Array("Content-Length: 100\r\n\r\n{\"jsonrpc\":".utf8), false),
        ]
        for (name, input, answered) in cases {
            let (status, output) = try runServer(input)
            XCTAssertEqual(status, 1, name)
            if answered {
                XCTAssertTrue(output.hasPrefix("Content-Length: "), "\(name): \(output)")
                XCTAssertTrue(output.contains(#""code":-32700"#) && output.contains(#""id":null"#), "\(name): \(output)")
            } else {
                XCTAssertEqual(output, "", name)
            }
        }
        // A well-framed body that is not JSON is answered, and the server goes on to the next message.
        let notJSON = Array("Content-Length: 5\r\n\r\nhello".utf8)
        let exit = Array(#"{"jsonrpc":"2.0","method":"exit"}"#.utf8)
        let (status, output) = try runServer(notJSON + Array("Content-Length: \(exit.count)\r\n\r\n".utf8) + exit)
        XCTAssertEqual(status, 1, "exit without shutdown ends with 1, as LSP asks")
        XCTAssertTrue(output.contains(#""code":-32700"#), output)
    }

    /// Runs `livery lsp` with `input` on standard input (then closed); its exit status and standard output.
    private func runServer(_ input: [UInt8]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = LiveryProcess.executable
        process.arguments = ["lsp"]
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The server may stop reading early (it closes on bad framing): a write to a closed pipe is not an error here.
        signal(SIGPIPE, SIG_IGN)
        try? stdin.fileHandleForWriting.write(contentsOf: Data(input))
        try? stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if process.isRunning { process.terminate(); XCTFail("livery lsp did not exit") }
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .exit, "no crash")
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
