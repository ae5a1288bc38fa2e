// Test support only: empty in a build without XCTest (`swift build -c release` builds every target, this one too).
#if canImport(XCTest)
import Foundation
import XCTest

/// External checkers from Debian (chromium, tsc, xmllint…): finding them, and what a test does when one is missing.
public enum PlatformFixtures {
    /// Skips the test when `name` (chromium, tsc…) is not on the PATH, naming the Debian package that has it; under
    /// `make test`, which installs them all and sets LIVERY_REQUIRE_TOOLS, a missing tool fails the test instead.
    public static func requireTool(_ name: String) throws {
        switch missingTool(name, environment: ProcessInfo.processInfo.environment) {
        case nil: return
        case .skip(let message)?: throw XCTSkip(message)
        case .fail(let message)?: XCTFail(message); throw CocoaError(.executableNotLoadable)
        }
    }

    public enum MissingTool: Equatable {
        case skip(String), fail(String)
    }

    /// What a test does about `name` under `environment`: nil when it is on the PATH (or is a path), else skip, or
    /// fail when LIVERY_REQUIRE_TOOLS is set.
    public static func missingTool(_ name: String, environment: [String: String]) -> MissingTool? {
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        if name.contains("/") || path.split(separator: ":").contains(where: { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }) { return nil }
        let message = "\(name) is not installed (make test-deps installs it)"
        return environment["LIVERY_REQUIRE_TOOLS"] != nil ? .fail(message) : .skip(message)
    }

    /// Runs an external tool with its output in files (chromium writes a lot to stderr, which a pipe
    /// read after stdout could block on).
    public static func tool(_ arguments: [String], in directory: URL? = nil, timeout: TimeInterval = 300) throws -> LiveryProcess.Output {
        // The program `env` runs: the first argument that is not a variable assignment (`NAME=value`).
        if let name = arguments.first(where: { !$0.contains("=") }) { try requireTool(name) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("tool-\(UUID().uuidString)")
        let err = out.appendingPathExtension("err")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        FileManager.default.createFile(atPath: err.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: out); try? FileManager.default.removeItem(at: err) }
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline { process.terminate(); XCTFail("\(arguments.first ?? "") did not finish within \(timeout) s"); break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        process.waitUntilExit()
        return LiveryProcess.Output(status: process.terminationStatus, stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
                                    stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }
}
#endif
