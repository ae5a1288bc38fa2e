import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LiveryPublish
import LiveryServe
import LiveryReleaseFormat
import LiveryTestSupport
import XCTest

/// `livery serve` as an application value, driven in process by HummingbirdTesting: no socket, no
/// port, no child process, no waiting for it to listen. The end-to-end process tests (ServeTests) stay
/// for what only a real server shows (signals, the listening line).
final class ServeInProcessTests: XCTestCase {
    private static let tenant = "sonic-walkscape"

    /// The samples with sonic-walkscape on stable and beta, and a release being rolled out on stable.
    private func workspace() throws -> SampleWorkspace {
        let workspace = try SampleWorkspace()
        try workspace.replace("\(Self.tenant)/tenant.yaml", "  channel: stable\n", "  channel: stable\n  channels: [beta]\n")
        for extra in [["--channel", "beta"], []] {
            XCTAssertEqual(try LiveryProcess.run(["build", "Tenants/\(Self.tenant)", "--output", "Output"] + extra, in: workspace.root).status, 0)
        }
        try workspace.replace("\(Self.tenant)/locales/fr.yaml", "Carte", "Plan")
        XCTAssertEqual(try LiveryProcess.run(["build", "Tenants/\(Self.tenant)", "--output", "Output", "--rollout", "50%"], in: workspace.root).status, 0)
        return workspace
    }

    func testFilesChannelsStagedTargetsAndEveryRefusalInProcess() throws {
        let workspace = try workspace()
        let output = workspace.output
        let app = try ReleaseServer(root: output, log: { _ in }).application()
        let current = try XCTUnwrap(Publisher.currentManifest(tenant: Self.tenant, output: output))
        let staged = try XCTUnwrap(Publisher.stagedManifest(tenant: Self.tenant, output: output))
        let beta = try XCTUnwrap(Publisher.currentManifest(tenant: Self.tenant, channel: ReleaseChannel("beta")!, output: output))
        let core = try XCTUnwrap(current.manifest.bundle("core"))
        let coreBytes = try Data(contentsOf: output.appendingPathComponent("\(Self.tenant)/\(core.path)"))
        func tour(_ manifest: DownloadManifest) throws -> DownloadManifest.Bundle { try XCTUnwrap(manifest.bundle("tour.rome-trastevere")) }
        let stagedTour = try tour(staged.manifest), betaTour = try tour(beta.manifest)

        try blocking {
            try await app.test(.router) { client in
                // The pointer and the metadata of both channels.
                try await client.execute(uri: "/\(Self.tenant)/release.json", method: .get) { response in
                    XCTAssertEqual(response.status, .ok)
                    XCTAssertEqual(try ReleasePointer(data: Data(buffer: response.body)).sha256, current.pointer.sha256)
                }
                try await client.execute(uri: "/\(Self.tenant)/channels/beta/release.json", method: .get) { response in
                    XCTAssertEqual(try ReleasePointer(data: Data(buffer: response.body)).sha256, beta.pointer.sha256)
                }
                try await client.execute(uri: "/\(Self.tenant)/targets/staged/\(staged.sha256).download-manifest.json", method: .get) { response in
                    XCTAssertEqual(response.status, .ok)
                    XCTAssertEqual(try DownloadManifest(data: Data(buffer: response.body)).release, staged.manifest.release)
                }
                // A public bundle, whole and in a range.
                try await client.execute(uri: "/\(Self.tenant)/\(core.path)", method: .get) { response in
                    XCTAssertEqual(Data(buffer: response.body), coreBytes)
                    XCTAssertEqual(response.headers[.cacheControl], "public, max-age=31536000")
                }
                try await client.execute(uri: "/\(Self.tenant)/\(core.path)", method: .get, headers: [.range: "bytes=-100"]) { response in
                    XCTAssertEqual(response.status, .partialContent)
                    XCTAssertEqual(Data(buffer: response.body), coreBytes.suffix(100))
                }
                try await client.execute(uri: "/\(Self.tenant)/\(core.path)", method: .get, headers: [.range: "bytes=\(coreBytes.count)-"]) { response in
                    XCTAssertEqual(response.status, .rangeNotSatisfiable)
                }
                // Protected: the stable, staged and beta copies of a voucher tour all want a token.
                for path in ["\(Self.tenant)/targets/staged/\(stagedTour.sha256).tour.rome-trastevere.zip",
                             "\(Self.tenant)/channels/beta/targets/\(betaTour.sha256).tour.rome-trastevere.zip"] {
                    try await client.execute(uri: "/" + path, method: .get) { response in
                        XCTAssertEqual(response.status, .unauthorized, path)
                        XCTAssertEqual(response.headers[.wwwAuthenticate], "Bearer realm=\"livery\"", path)
                    }
                    try await client.execute(uri: "/" + path, method: .get, headers: [.authorization: "Bearer forged"]) { response in
                        XCTAssertEqual(response.status, .unauthorized, path)
                    }
                }
                // Nothing hidden, nothing above the root, only GET and HEAD, no bodies.
                for uri in ["/.livery/store/builds.sqlite", "/\(Self.tenant)/../\(Self.tenant)/release.json", "/%2e%2e/etc/passwd", "/\(Self.tenant)/.prefix"] {
                    try await client.execute(uri: uri, method: .get) { response in XCTAssertEqual(response.status, .notFound, uri) }
                }
                try await client.execute(uri: "/\(Self.tenant)/release.json", method: .delete) { response in
                    XCTAssertEqual(response.status, .methodNotAllowed)
                    XCTAssertEqual(response.headers[.allow], "GET, HEAD")
                }
                try await client.execute(uri: "/\(Self.tenant)/release.json", method: .get, headers: [.contentLength: "5"], body: ByteBuffer(string: "hello")) { response in
                    XCTAssertEqual(response.status, .contentTooLarge)
                }
            }
        }
    }
}
