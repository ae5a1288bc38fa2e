// Test support only: empty in a build without XCTest (`swift build -c release` builds every target, this one too).
#if canImport(XCTest)
import Foundation

/// A test server started as a child process that prints its port on a line of its own once it listens
/// (the endless and hostile HTTP servers): no port guessing, no sleeps, whatever the machine's load.
public enum PortLine {
    /// Runs `arguments` (through /usr/bin/env) and returns the process and the port it printed.
    public static func start(_ arguments: [String], what: String) throws -> (process: Process, port: Int) {
        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = output
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }  // the server exited before it listened
            line += chunk
        }
        guard let text = String(data: line, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines), let port = Int(text) else {
            process.terminate()
            throw S3ServerFixture.Failure("the \(what) did not start")
        }
        return (process, port)
    }
}
#endif
