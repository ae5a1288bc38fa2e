import Foundation
import LiveryCommands
import XCTest

/// `livery` and livery-network are one command line (Sources/LiveryCommands/NetworkCommand.swift): `livery` hands
/// the commands that open connections to livery-network, and links no SwiftNIO itself, so `make run` does not
/// build it.
final class NetworkCommandTests: XCTestCase {
    func testTheCommandLinesLiveryHandsOver() {
        XCTAssertEqual(NetworkCommand.asked(in: ["serve", "--output", "Output"]), "serve")
        XCTAssertEqual(NetworkCommand.asked(in: ["tuf-client", "init"]), "tuf-client")
        XCTAssertEqual(NetworkCommand.asked(in: ["help", "fetch"]), "fetch")
        XCTAssertEqual(NetworkCommand.asked(in: ["build", "Tenants", "--publish", "--to", "s3://b/p"]), "build --publish")
        XCTAssertEqual(NetworkCommand.asked(in: ["cli-reference"]), "cli-reference", "the reference documents the network commands as livery-network has them")
        XCTAssertNil(NetworkCommand.asked(in: []))
        XCTAssertNil(NetworkCommand.asked(in: ["build", "Tenants"]))
        XCTAssertNil(NetworkCommand.asked(in: ["validate", "serve"]), "only the command's own name counts")
        XCTAssertNil(NetworkCommand.asked(in: ["help", "validate"]))
        XCTAssertNil(NetworkCommand.asked(in: ["verify", "--output", "Output"]))
        XCTAssertEqual(Set(NetworkCommand.allCases.map(\.name)), ["publish", "gc", "serve", "vouchers", "fetch", "tuf-client"])
    }

    private var network: URL { LiveryProcess.executable.deletingLastPathComponent().appendingPathComponent("livery-network") }

    /// Both executables list the same commands with the same abstracts, and a network command's help through
    /// `livery` is livery-network's own.
    func testOneCommandLine() throws {
        let livery = try LiveryProcess.run(["--help"])
        let whole = try LiveryProcess.tool([network.path, "--help"])
        XCTAssertEqual(livery.status, 0, livery.stderr)
        XCTAssertEqual(livery.stdout, whole.stdout)
        for command in ["serve", "fetch", "publish"] {
            let handed = try LiveryProcess.run([command, "--help"])
            let own = try LiveryProcess.tool([network.path, command, "--help"])
            XCTAssertEqual(handed.status, 0, handed.stderr)
            XCTAssertEqual(handed.stdout, own.stdout)
            XCTAssertTrue(handed.stdout.contains("USAGE: livery \(command)"), handed.stdout)
        }
        // gc takes the store's connection, none of publish's options; serve's help keeps its columns.
        let gc = try LiveryProcess.run(["gc", "--help"])
        XCTAssertTrue(gc.stdout.contains("--to <to>               The object store"), gc.stdout)
        for publishOnly in ["--create-bucket", "--public-read", "--verbose", "Where to publish"] { XCTAssertFalse(gc.stdout.contains(publishOnly), gc.stdout) }
        let serve = try LiveryProcess.run(["serve", "--help"])
        XCTAssertFalse(serve.stdout.contains("\n        PostgreSQL"), "an option's second paragraph out of the columns: \(serve.stdout)")
        // Usage errors keep livery-network's message and exit status.
        let wrong = try LiveryProcess.run(["build", "Tenants", "--publish"])
        XCTAssertEqual(wrong.status, 2)
        XCTAssertTrue(wrong.stderr.contains("--publish needs --to s3://bucket/prefix"), wrong.stderr)
    }

    /// Without livery-network beside it, `livery` still runs its own commands, and says how to get the others.
    func testMissingNetworkExecutable() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livery-alone-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let alone = folder.appendingPathComponent("livery")
        try FileManager.default.copyItem(at: LiveryProcess.executable, to: alone)
        let version = try LiveryProcess.tool([alone.path, "--version"])
        XCTAssertEqual(version.status, 0, version.stderr)
        let fetch = try LiveryProcess.tool([alone.path, "fetch", "http://127.0.0.1:1", "t"])
        XCTAssertEqual(fetch.status, 2)
        XCTAssertEqual(fetch.stderr, """
            Error: `livery fetch` is run by livery-network, which is not built (looked for \(folder.appendingPathComponent("livery-network").path)): \
            build it with `make build`, or `swift build --product livery-network`\n
            """)
        // A symbolic link to the built livery (as on a PATH) finds livery-network in the link's target's folder.
        let link = folder.appendingPathComponent("linked")
        try FileManager.default.createDirectory(at: link, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: link.appendingPathComponent("livery"), withDestinationURL: LiveryProcess.executable)
        let linked = try LiveryProcess.tool([link.appendingPathComponent("livery").path, "serve", "--help"])
        XCTAssertEqual(linked.status, 0, linked.stderr)
        XCTAssertTrue(linked.stdout.contains("USAGE: livery serve"))
    }

    /// What `make run` builds (`swift build --product livery`): the closure of the livery target in Package.swift,
    /// read by SwiftPM itself, holds no SwiftNIO, AsyncHTTPClient, Hummingbird or PostgresNIO; livery-network does.
    func testLiveryLinksNoNetworkStack() throws {
        let graph = try PackageGraph.load()
        let network: Set<String> = ["swift-nio", "async-http-client", "hummingbird", "postgres-nio"]
        let livery = graph.closure(of: "livery")
        XCTAssertTrue(livery.targets.contains("LiveryClientCore") && livery.targets.contains("LiveryPublish"))
        XCTAssertEqual(livery.packages.intersection(network), [], "make run would build \(livery.packages.intersection(network).sorted())")
        XCTAssertFalse(livery.targets.contains("LiveryClient") || livery.targets.contains("LiveryServe") || livery.targets.contains("LiveryObjectStore"))
        XCTAssertEqual(graph.closure(of: "livery-network").packages.intersection(network), network)
    }
}
