// Test support only: empty in a build without XCTest (`swift build -c release` builds every target, this one too).
#if canImport(XCTest)
import Foundation
import XCTest

/// A throw-away PostgreSQL 15 server (Debian's `postgresql` package) for one test: a fresh cluster
/// in a temporary folder, listening on 127.0.0.1 and a free port and on a unix socket in that
/// folder, with `trust` authentication; stopped (`pg_ctl -m fast stop`) and deleted by `stop()`.
///
/// `initdb` refuses to run as root, so as root the cluster belongs to the `postgres` user (which
/// the package creates) and every server command runs through `runuser -u postgres`.
public final class PostgresServer {
    public static let binaries = URL(fileURLWithPath: "/usr/lib/postgresql/15/bin")

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public let folder: URL
    public var data: URL { folder.appendingPathComponent("data") }
    public var logFile: URL { folder.appendingPathComponent("server.log") }
    public let port: Int
    private var running = false

    /// Starts the server; throws (a test failure, not a skip) when PostgreSQL is not installed.
    public init() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.binaries.appendingPathComponent("initdb").path) else {
            throw Failure(description: "PostgreSQL 15 is not installed (no \(Self.binaries.path)/initdb): run `make test-deps`")
        }
        // Short: the socket path (folder + /.s.PGSQL.<port>) must fit in 107 bytes.
        folder = URL(fileURLWithPath: "/tmp/livery-pg-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        port = (0..<200).lazy.map { _ in Int.random(in: 20_000..<60_000) }.first { LocalPort.isFree($0) } ?? 54_329
        if getuid() == 0 {
            try Self.check(Self.spawn(["/bin/chown", "postgres:postgres", folder.path]), "chown")
        }
        try Self.check(asOwner(["initdb", "-D", data.path, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8", "--locale", "C"]), "initdb")
        // fsync off: a test cluster that dies with the test needs no durability, and the machine is shared.
        try Self.check(asOwner(["pg_ctl", "-D", data.path, "-l", logFile.path, "-w", "-t", "60", "-o",
                                "-k \(folder.path) -c listen_addresses=127.0.0.1 -p \(port) -c fsync=off -c max_connections=200", "start"]), "pg_ctl start")
        running = true
    }

    deinit { stop() }

    /// A URL for `--vouchers` over TCP (`postgres` superuser, no password, no TLS).
    public func url(database: String = "postgres") -> String {
        "postgres://postgres@127.0.0.1:\(port)/\(database)?sslmode=disable"
    }

    /// The same database through the unix socket, the folder percent-encoded as the host.
    public func socketURL(database: String = "postgres") -> String {
        "postgresql://postgres@\(folder.path.replacingOccurrences(of: "/", with: "%2F")):\(port)/\(database)"
    }

    /// Creates an empty database and returns its name.
    @discardableResult
    public func createDatabase(_ name: String = "livery_\(UUID().uuidString.prefix(8).lowercased())") throws -> String {
        try Self.check(asOwner(["createdb", "-h", "127.0.0.1", "-p", String(port), "-U", "postgres", name]), "createdb")
        return name
    }

    /// Runs SQL with psql against `database` and returns its unaligned output.
    public func psql(_ sql: String, database: String = "postgres") throws -> String {
        let result = try asOwner(["psql", "-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", database, "-At", "-v", "ON_ERROR_STOP=1", "-c", sql])
        try Self.check(result, "psql")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    public func stop() {
        guard running else { return }
        running = false
        _ = try? asOwner(["pg_ctl", "-D", data.path, "-m", "fast", "-w", "stop"])
        try? FileManager.default.removeItem(at: folder)
    }

    private func asOwner(_ arguments: [String]) throws -> LiveryProcess.Output {
        let program = Self.binaries.appendingPathComponent(arguments[0]).path
        let command = [program] + arguments.dropFirst()
        return try Self.spawn(getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] + command : command)
    }

    /// Runs a command to its end, output (both streams) through a file. Not Foundation's `Process`:
    /// its `waitUntilExit` never returns when called from an async test on Linux (the child stays
    /// a zombie), and the store tests are async.
    public static func spawn(_ arguments: [String]) throws -> LiveryProcess.Output {
        let capture = FileManager.default.temporaryDirectory.appendingPathComponent("livery-pg-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: capture) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, capture.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
        guard spawned == 0 else { throw Failure(description: "cannot run \(arguments[0]): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        let output = (try? String(contentsOf: capture, encoding: .utf8)) ?? ""
        // WEXITSTATUS, which Swift does not import.
        return LiveryProcess.Output(status: (status >> 8) & 0xFF, stdout: output, stderr: output)
    }

    private static func check(_ result: LiveryProcess.Output, _ step: String) throws {
        guard result.status == 0 else { throw Failure(description: "\(step) failed (\(result.status)): \(result.stdout)") }
    }
}
#endif
