import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The commands that open connections or run a server: they are in a second executable, livery-network, which
/// links SwiftNIO, AsyncHTTPClient, Hummingbird and PostgresNIO. `livery` itself (validate, build, verify and the
/// rest) links none of them, so the first `make run` builds a third of the dependency tree it would otherwise
/// (docs/benchmarks.md#the-first-make-run). `livery` lists these commands as it lists its own and, when one
/// is asked for (or `build --publish`), runs livery-network from its own folder in its place (exec: same
/// process id, same arguments, same exit status), so the two executables are one command line.
package enum NetworkCommand: String, CaseIterable, Sendable {
    case publish, gc, serve, vouchers, fetch, tufClient = "tuf-client"

    /// The name on the command line.
    package var name: String { rawValue }

    /// The one-line description both executables list.
    package var abstract: String {
        switch self {
        case .publish: "Upload built releases from Output/ to S3-compatible object storage."
        case .gc: "Delete stored objects and published targets that no kept release references."
        case .serve: "Serve Output/ over HTTP (range requests, ETags), as a CDN would, for apps and `livery fetch`; redeem vouchers for protected tours."
        case .vouchers: "Issue, list and revoke voucher codes for protected tours, programs, library items and packs (redeemed through `livery serve`)."
        case .fetch: "The reference client: refresh, download, verify and install a tenant's release into a local cache."
        case .tufClient: "The TUF conformance-suite client contract: init, refresh and download."
        }
    }

    /// The command `arguments` (the process's, without its name) run, when it is one of livery-network's:
    /// a network command, `help` about one, `build --publish`, or `cli-reference`.
    package static func asked(in arguments: [String]) -> String? {
        guard let first = arguments.first else { return nil }
        if first == "help", let topic = arguments.dropFirst().first, NetworkCommand(rawValue: topic) != nil { return topic }
        if NetworkCommand(rawValue: first) != nil { return first }
        // The command reference documents these commands as livery-network has them (livery has forwarders only).
        if first == CLIReference.name { return first }
        // `--publish` is a flag (it takes no value), so it is never the value of another option.
        if first == "build" && arguments.contains("--publish") { return "build --publish" }
        return nil
    }

    /// livery-network, beside the running executable (symbolic links resolved, so a `livery` linked onto the
    /// PATH finds the one it was built with).
    package static var executable: URL? {
        runningExecutable.map { $0.resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("livery-network") }
    }

    /// This process's executable. On Linux `/proc/self/exe`, read directly: `Bundle.main` gets there too, but
    /// scans the folder for a bundle first (1.5 ms of every network command's start).
    private static var runningExecutable: URL? {
        #if os(Linux)
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return URL(fileURLWithPath: path) }
        #endif
        return Bundle.main.executableURL
    }

    /// Replaces this process with livery-network run on `arguments`; when it is not there, says how to build it
    /// and exits with status 2 (a usage error: nothing was done).
    package static func run(_ arguments: [String], for command: String) -> Never {
        guard let executable, access(executable.path, X_OK) == 0 else {
            let path = executable?.path ?? "livery-network"
            FileHandle.standardError.write(Data("""
                Error: `livery \(command)` is run by livery-network, which is not built (looked for \(path)): \
                build it with `make build`, or `swift build --product livery-network`\n
                """.utf8))
            exit(2)
        }
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        execv(executable.path, argv)
        FileHandle.standardError.write(Data("Error: cannot run \(executable.path): \(String(cString: strerror(errno)))\n".utf8))
        exit(2)
    }
}

/// How `livery` lists a command of livery-network: its name and abstract. It never runs, since `livery` hands
/// such a command line to livery-network before parsing it (NetworkCommand.asked); if it were reached, it
/// would hand it over the same way.
package protocol NetworkCommandEntry: ParsableCommand {
    static var command: NetworkCommand { get }
    var arguments: [String] { get }
}

extension NetworkCommandEntry {
    package static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: command.name, abstract: command.abstract)
    }

    package func run() throws {
        NetworkCommand.run([Self.command.name] + arguments, for: Self.command.name)
    }
}
