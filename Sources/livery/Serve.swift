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

    @Option(help: "The voucher database (default: <output>/.livery/vouchers.sqlite); see `livery vouchers`.")
    var vouchers: String?

    func run() async throws {
        let root = URL(fileURLWithPath: output).standardizedFileURL
        guard FileManager.default.fileExists(atPath: root.path) else { throw Livery.Failure("'\(output)' does not exist (run `livery build` first)") }
        let host = host
        let database = try Vouchers.databaseURL(vouchers, output: root)
        let server = ReleaseServer(root: root, host: host, port: port, vouchers: database) { line in
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
        try await server.run { port in
            FileHandle.standardOutput.write(Data("livery serve: listening on http://\(host.contains(":") ? "[\(host)]" : host):\(port)/ (serving \(root.path))\n".utf8))
        }
    }
}
