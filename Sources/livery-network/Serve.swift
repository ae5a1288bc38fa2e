import ArgumentParser
import Foundation
import LiveryCommands
import LiveryObjectStore
import LiveryServe

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: NetworkCommand.serve.abstract,
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

    // One paragraph: ArgumentParser prints an option's `discussion` unindented, out of the help's columns.
    @Option(help: ArgumentHelp("The voucher database: a SQLite file (default: <output>/.livery/vouchers.sqlite) or postgres://user@host:port/database, "
                               + "shared by several servers; see `livery vouchers`. A PostgreSQL URL takes ?sslmode=disable|prefer|require|verify-ca|verify-full "
                               + "and a unix-socket folder as the host (%2Ftmp%2Fpg) or ?host=/tmp/pg; the password comes from the URL or PGPASSWORD."))
    var vouchers: String?

    @Option(help: ArgumentHelp("The key store holding each tenant's content.key, which unlocks encrypted (voucher) bundles; give voucher servers this file only.",
                               valueName: "folder"))
    var contentKeys = ".livery-keys"

    @Option(help: ArgumentHelp("Grant access to the releases published to this bucket (s3://bucket/prefix): redemptions answer with presigned URLs of the bucket's protected objects; files are still served from --output.",
                               valueName: "s3-url"))
    var releases: String?

    @Option(help: "The object store's endpoint for --releases (default: AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, the profile's endpoint_url, else AWS).")
    var endpoint: String?

    @Flag(help: "Address the --releases bucket in the path or in the host name (default: virtual-host for AWS, path-style otherwise).")
    var addressing: ObjectStoreConnection.AddressingChoice?

    func run() async throws {
        let root = URL(fileURLWithPath: output).standardizedFileURL
        guard FileManager.default.fileExists(atPath: root.path) else { throw Livery.Failure("'\(output)' does not exist (run `livery build` first)") }
        let host = host
        let database = try Vouchers.database(vouchers, output: root)
        var server = ReleaseServer(root: root, host: host, port: port, vouchers: database) { line in
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: contentKeys, isDirectory: &isFolder), isFolder.boolValue {
            server.contentKeys = URL(fileURLWithPath: contentKeys)
        }
        if let releases {
            do {
                let location = try S3Location(parsing: releases)
                let configuration = try S3Configuration.resolve(endpoint: endpoint, addressing: addressing.map { $0 == .pathStyle ? .path : .virtualHost })
                server.releases = .bucket(S3Client(configuration: configuration), location)
            } catch {
                throw ValidationError("\(error)")
            }
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
