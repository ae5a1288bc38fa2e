// Test support only: empty in a build without XCTest (`swift build -c release` builds every target, this one too).
#if canImport(XCTest)
import Foundation
import XCTest

/// Runs the real `livery` executable, as users and CI do.
public enum LiveryProcess {
    /// The package's folder (this file is Tests/LiveryTestSupport/LiveryProcess.swift).
    public static var packageRoot: URL { URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent() }

    public static var executable: URL {
        if let path = ProcessInfo.processInfo.environment["LIVERY_BIN"] { return URL(fileURLWithPath: path) }
        return Bundle.main.bundleURL.appendingPathComponent("livery")
    }

    public struct Output {
        public var status: Int32
        public var stdout: String
        public var stderr: String

        public init(status: Int32, stdout: String, stderr: String) {
            self.status = status
            self.stdout = stdout
            self.stderr = stderr
        }
    }

    /// A livery process running in the background, its output going to temporary files.
    public final class Running {
        public let process = Process()
        public let out: URL, err: URL
        /// Set when started `lineByLine`: standard output comes through a pipe, read with `nextLine()`.
        private var lines: FileHandle?
        private var buffered = Data()
        private let exited = DispatchSemaphore(value: 0)

        public init(_ arguments: [String], in directory: URL, environment extra: [String: String], lineByLine: Bool = false) throws {
            process.executableURL = executable
            process.arguments = arguments
            process.currentDirectoryURL = directory
            var environment = ProcessInfo.processInfo.environment
            environment["SWIFT_BACKTRACE"] = "enable=no"
            environment.merge(extra) { _, new in new }
            process.environment = environment
            out = FileManager.default.temporaryDirectory.appendingPathComponent("livery-out-\(UUID().uuidString)")
            err = out.appendingPathExtension("err")
            FileManager.default.createFile(atPath: out.path, contents: nil)
            FileManager.default.createFile(atPath: err.path, contents: nil)
            if lineByLine {
                let pipe = Pipe()
                process.standardOutput = pipe
                lines = pipe.fileHandleForReading
            } else {
                process.standardOutput = try FileHandle(forWritingTo: out)
            }
            // Standard error always goes to a file: a child that writes a lot there can never block on a full pipe.
            process.standardError = try FileHandle(forWritingTo: err)
            let exited = exited
            process.terminationHandler = { _ in exited.signal() }
            try process.run()
        }

        /// The next line of standard output (started `lineByLine`), waiting for it; nil at the end.
        public func nextLine() -> String? {
            guard let lines else { return nil }
            while true {
                if let newline = buffered.firstIndex(of: 0x0A) {
                    let line = String(decoding: buffered[buffered.startIndex..<newline], as: UTF8.self)
                    buffered = Data(buffered[buffered.index(after: newline)...])
                    return line
                }
                let chunk = lines.availableData
                if chunk.isEmpty {
                    guard !buffered.isEmpty else { return nil }
                    defer { buffered = Data() }
                    return String(decoding: buffered, as: UTF8.self)
                }
                buffered.append(chunk)
            }
        }

        /// Kills the process with SIGKILL and waits for it to end.
        public func kill() {
            Foundation.kill(process.processIdentifier, SIGKILL)
            exited.wait()
            process.waitUntilExit()
        }

        deinit {
            if process.isRunning { process.terminate() }
            try? FileManager.default.removeItem(at: out)
            try? FileManager.default.removeItem(at: err)
        }

        public var pid: Int32 { process.processIdentifier }
        public var isRunning: Bool { process.isRunning }
        public var stderr: String { (try? String(contentsOf: err, encoding: .utf8)) ?? "" }

        /// Waits for the process to end (its termination signal, not polling); kills it after `timeout`, a hang guard.
        public func wait(timeout: TimeInterval = 120) -> Output {
            var rest = ""
            if lines != nil { while let line = nextLine() { rest += line + "\n" } }
            if exited.wait(timeout: .now() + timeout) == .timedOut {
                process.terminate()
                XCTFail("livery \(process.arguments ?? []) did not finish within \(timeout) s")
                exited.wait()
            }
            exited.signal()
            process.waitUntilExit()
            let stdout = lines == nil ? ((try? String(contentsOf: out, encoding: .utf8)) ?? "") : rest
            return Output(status: process.terminationStatus, stdout: stdout, stderr: stderr)
        }
    }

    public static func start(_ arguments: [String], in directory: URL = packageRoot, environment: [String: String] = [:], lineByLine: Bool = false) throws -> Running {
        try Running(arguments, in: directory, environment: environment, lineByLine: lineByLine)
    }

    /// Runs livery with `arguments` in `directory`, killing it if it runs longer than `timeout` (a hang guard, not a benchmark).
    public static func run(_ arguments: [String], in directory: URL = packageRoot, timeout: TimeInterval = 120, environment: [String: String] = [:]) throws -> Output {
        try start(arguments, in: directory, environment: environment).wait(timeout: timeout)
    }

    /// Runs livery like `run`, and measures the peak resident memory of that one process (KiB), as GNU time
    /// reports it (`%M`, from the `wait4` rusage of the child it forks). Not this process's own `wait4` of a
    /// posix_spawn child: glibc spawns with `CLONE_VM | CLONE_VFORK`, so the child runs on the test process's
    /// memory until it execs, and Linux keeps that memory's high-water mark as the child's `ru_maxrss` (a
    /// full test run, at 220 MB, made every fetch "peak" at 220 MB). GNU time is small when it forks.
    public static func measured(_ arguments: [String], in directory: URL = packageRoot) throws -> (output: Output, peakKiB: Int) {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("livery-measured-\(UUID().uuidString)")
        let err = out.appendingPathExtension("err")
        defer {
            try? FileManager.default.removeItem(at: out)
            try? FileManager.default.removeItem(at: err)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, out.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, err.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        // GNU time forks; the shell changes folder and execs livery in its own place (same process: the rusage is livery's).
        let rss = out.appendingPathExtension("rss")
        defer { try? FileManager.default.removeItem(at: rss) }
        let argv = (["/usr/bin/time", "-f", "%M", "-o", rss.path, "/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", directory.path, executable.path] + arguments)
            .map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in envp { free(pointer) } }
        var pid: pid_t = 0
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else { throw XCTSkip("GNU time is not installed (make test-deps installs it)") }
        let spawned = posix_spawn(&pid, "/usr/bin/time", &actions, nil, argv, envp)
        guard spawned == 0 else { throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "posix_spawn: \(String(cString: strerror(spawned)))"]) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let exit = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let output = Output(status: exit, stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "", stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
        let peak = (try? String(contentsOf: rss, encoding: .utf8))?.split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard let peak else { throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "GNU time wrote no peak memory for \(arguments)"]) }
        return (output, peak)
    }

    /// Runs a helper tool (python3, xmllint…) and returns its status and output; `input` is a file
    /// for its standard input, `environment` is added to this process's.
    public static func tool(_ arguments: [String], input: URL? = nil, environment: [String: String] = [:]) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new } }
        if let input { process.standardInput = try FileHandle(forReadingFrom: input) }
        // Both streams go to files, read after the tool ends: two pipes read one after the other hang
        // when the tool fills the second while the first is being read.
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("livery-tool-\(UUID().uuidString)")
        let err = out.appendingPathExtension("err")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        FileManager.default.createFile(atPath: err.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: out)
            try? FileManager.default.removeItem(at: err)
        }
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: (try? Data(contentsOf: out)) ?? Data(), as: UTF8.self),
                      stderr: String(decoding: (try? Data(contentsOf: err)) ?? Data(), as: UTF8.self))
    }
}
#endif
