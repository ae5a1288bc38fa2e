import ArgumentParser
import Foundation
import LiveryServe

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve Output/ over HTTP (range requests, ETags), as a CDN would, for apps and `livery fetch`; redeem vouchers for protected tours.",
        discussion: """
            Prints the address it listens on, then one line per request. Stop it with Ctrl-C or SIGTERM (graceful). \
            Bundles with access `voucher` need a token from POST /<tenant>/vouchers/redeem (see `livery vouchers`).
            """
    )

    @Option(name: .shortAndLong, help: "The output folder to serve.")
    var output = "Output"

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on (0: any free port).")
    var port = 8080

    @Option(help: ArgumentHelp("The voucher database: a SQLite file (default: <output>/.livery/vouchers.sqlite) or postgres://user@host:port/database, shared by several servers; see `livery vouchers`.",
                               discussion: "PostgreSQL URLs take ?sslmode=disable|prefer|require|verify-ca|verify-full and a unix-socket folder as the host (%2Ftmp%2Fpg) or ?host=/tmp/pg; the password comes from the URL or PGPASSWORD."))
    var vouchers: String?

    func run() async throws {
        let root = URL(fileURLWithPath: output).standardizedFileURL
        guard FileManager.default.fileExists(atPath: root.path) else { throw Livery.Failure("'\(output)' does not exist (run `livery build` first)") }
        let host = host
        let database = try Vouchers.database(vouchers, output: root)
        let server = ReleaseServer(root: root, host: host, port: port, vouchers: database) { line in
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
        do {
            try await server.run { port in
                FileHandle.standardOutput.write(Data("livery serve: listening on http://\(host.contains(":") ? "[\(host)]" : host):\(port)/ (serving \(root.path))\n".utf8))
            }
        } catch let failure as VoucherFailure {
            // An unreachable or refusing PostgreSQL server: one line, before anything listens.
            throw Livery.Failure(failure.description)
        }
    }
}
