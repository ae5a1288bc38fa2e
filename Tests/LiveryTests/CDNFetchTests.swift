import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LiveryClient
@testable import LiveryClientCore
import XCTest

/// `livery fetch` and `HTTPRepository` against a server that is not `livery serve`: nginx set up like
/// object storage behind a CDN (`CDNServer`: redirects, 403 for missing keys, no ranges, ETags).
final class CDNFetchTests: XCTestCase {
    /// Copies `Output/<tenant>/` into the bucket, as a sync to object storage would (ordinary files, no `.livery/`).
    private func sync(_ tenant: String, from output: URL, to bucket: URL) throws {
        try FileManager.default.createDirectory(at: bucket, withIntermediateDirectories: true)
        let destination = bucket.appendingPathComponent(tenant)
        try? FileManager.default.removeItem(at: destination)
        try FileManager.default.copyItem(at: output.appendingPathComponent(tenant), to: destination)
    }

    func testFetchInstallsAndUpdatesThroughRedirectsAndForbiddenMissingKeysOnOneConnection() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let bucket = workspace.root.appendingPathComponent("bucket")
        try sync("sonic-walkscape", from: workspace.output, to: bucket)
        let server = try CDNServer(bucket: bucket)
        func fetch(cache: String = "cache") throws -> LiveryProcess.Output {
            try LiveryProcess.run(["fetch", "sonic-walkscape", "--server", server.base + "/repo", "--cache", cache,
                                   "--root", "Output/sonic-walkscape/metadata/1.root.json", "--locale", "fr", "--tour", "florence-renaissance"], in: workspace.root)
        }

        let first = try fetch()
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stdout.contains("release 1 installed"), first.stdout)
        XCTAssertTrue(first.stdout.contains("downloaded 5 bundles (core, locale.fr, locale.it, tour.florence-renaissance, tour.florence-renaissance.fr)"), first.stdout)
        let audio = "tours/florence-renaissance/audio/fr/01-duomo.mp3"
        XCTAssertEqual(try Data(contentsOf: workspace.root.appendingPathComponent("cache/sonic-walkscape/current/bundles/tour.florence-renaissance.fr/" + audio)),
                       try Data(contentsOf: workspace.tenants.appendingPathComponent("sonic-walkscape/" + audio)))
        let log = server.log
        // The probe for the next root went through both redirects and met a 403, which means "no newer root".
        XCTAssertTrue(log.contains { $0.hasPrefix("GET /repo/sonic-walkscape/metadata/2.root.json 301 ") }, "\(log)")
        XCTAssertTrue(log.contains { $0.hasPrefix("GET /edge/sonic-walkscape/metadata/2.root.json 308 ") }, "\(log)")
        XCTAssertTrue(log.contains { $0.hasPrefix("GET /bucket/sonic-walkscape/metadata/2.root.json 403 ") }, "\(log)")
        XCTAssertTrue(log.contains { $0.hasPrefix("GET /bucket/sonic-walkscape/targets/") && $0.contains(".locale.fr.zip 200 ") }, "\(log)")
        // One session per repository: the fetch's requests share kept-alive connections, at most one per parallel
        // download (4 by default; a session per request opened one connection per request).
        let connections = Set(log.map { $0.split(separator: " ")[4] })
        XCTAssertGreaterThan(log.count, 20)
        XCTAssertLessThanOrEqual(connections.count, 4, "\(log.count) requests on \(connections.count) connections")

        // A new release, synced to the bucket: the next fetch updates to it.
        let targets = bucket.appendingPathComponent("sonic-walkscape/targets")
        let frenchArchives = { Set(try FileManager.default.contentsOfDirectory(atPath: targets.path).filter { $0.hasSuffix(".locale.fr.zip") }) }
        let firstRelease = try frenchArchives()
        try workspace.replace("sonic-walkscape/locales/fr.yaml", "Carte", "Plan")
        XCTAssertEqual(try workspace.build().status, 0)
        try sync("sonic-walkscape", from: workspace.output, to: bucket)
        let second = try fetch()
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(second.stdout.contains("release 2 installed"), second.stdout)
        XCTAssertTrue(second.stdout.contains("downloaded 1 bundle (locale.fr), reused 4"), second.stdout)
        XCTAssertTrue(try String(contentsOf: workspace.root.appendingPathComponent("cache/sonic-walkscape/current/bundles/locale.fr/locales/fr.json"), encoding: .utf8).contains("Plan"))

        // A target the signed metadata lists but the bucket refuses (403) is access refused, with its address, not "missing".
        // The second release's French archive (the first release's stays in the bucket beside it).
        let locale = try XCTUnwrap(try frenchArchives().subtracting(firstRelease).first)
        try FileManager.default.removeItem(at: targets.appendingPathComponent(locale))
        let refused = try fetch(cache: "fresh-cache")
        XCTAssertEqual(refused.status, 1, refused.stdout)
        XCTAssertTrue(refused.stderr.contains("fetch failed: download of locale.fr.zip failed: access refused: the server answered HTTP 403 Forbidden for "
                                              + "\(server.base)/repo/sonic-walkscape/targets/\(locale) ("), refused.stderr)
    }

    func testLargeTargetsComeWholeFromAServerWithoutRangesAndRedirectLoopsEnd() throws {
        let bucket = FileManager.default.temporaryDirectory.appendingPathComponent("livery-bucket-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: bucket.appendingPathComponent("demo/targets"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: bucket) }
        let size = 2 * HTTPRepository.rangeLength + 12_345
        var random = SystemRandomNumberGenerator()
        let content = Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &random) })
        try content.write(to: bucket.appendingPathComponent("demo/targets/big.bin"))
        let server = try CDNServer(bucket: bucket)
        let repository = HTTPRepository(base: URL(string: server.base + "/repo/demo")!)

        // A fresh download asks for the whole file, in one response.
        let whole = bucket.appendingPathComponent("whole.bin")
        XCTAssertTrue(try repository.download("targets/big.bin", to: whole, maxLength: size))
        XCTAssertEqual(try Data(contentsOf: whole), content)
        XCTAssertTrue(server.log.contains { $0.hasPrefix("GET /bucket/demo/targets/big.bin 200 \(size) ") && $0.hasSuffix("\"-\"") }, "\(server.log)")
        // A partial file from an interrupted attempt asks for the rest; the server sends the whole file, which
        // replaces the partial one instead of being appended to it.
        let partial = bucket.appendingPathComponent("partial.bin")
        try content.prefix(5_000_000).write(to: partial)
        XCTAssertTrue(try repository.download("targets/big.bin", to: partial, maxLength: size))
        XCTAssertEqual(try Data(contentsOf: partial), content)
        XCTAssertTrue(server.log.contains { $0.hasPrefix("GET /bucket/demo/targets/big.bin 200 \(size) ") && $0.hasSuffix("\"bytes=5000000-\"") }, "\(server.log)")
        // More than the length allowed is refused as soon as the header announces it.
        XCTAssertThrowsError(try repository.download("targets/big.bin", to: bucket.appendingPathComponent("small.bin"), maxLength: 1_000)) {
            XCTAssertTrue("\($0)".contains("the server announces \(size) bytes, more than the 1000 expected"), "\($0)")
        }
        XCTAssertThrowsError(try repository.fetch("targets/big.bin", maxLength: 1_000))

        // 403 for the next root version (which may not exist) is "not there"; for any file the client must have
        // (the timestamp, a versioned file, a target) it is access refused, naming the address.
        XCTAssertNil(try repository.fetch("metadata/9.root.json", maxLength: 512 * 1024))
        for path in ["metadata/timestamp.json", "metadata/3.snapshot.json", "metadata/root.json", "targets/nothing.bin"] {
            XCTAssertThrowsError(try repository.fetch(path, maxLength: 16 * 1024), path) {
                XCTAssertEqual($0 as? AccessRefused, AccessRefused(status: 403, address: "\(server.base)/repo/demo/\(path)"), "\($0)")
            }
        }
        XCTAssertThrowsError(try repository.download("targets/nothing.bin", to: bucket.appendingPathComponent("nothing.bin"), maxLength: 1_000)) {
            XCTAssertEqual($0 as? AccessRefused, AccessRefused(status: 403, address: "\(server.base)/repo/demo/targets/nothing.bin"), "\($0)")
        }
        // A redirect loop ends after the bound.
        let loop = HTTPRepository(base: URL(string: server.base + "/loop/demo")!)
        XCTAssertThrowsError(try loop.fetch("metadata/timestamp.json", maxLength: 16 * 1024)) {
            XCTAssertTrue("\($0)".contains("more than \(TransferPolicy.standard.maxRedirects) redirects"), "\($0)")
        }
        XCTAssertEqual(server.log.filter { $0.hasPrefix("GET /loop/") }.count, TransferPolicy.standard.maxRedirects + 1)
        XCTAssertEqual(Set(server.log.filter { $0.hasPrefix("GET /loop/") }.map { $0.split(separator: " ")[4] }).count, 1, "the hops share a connection")
    }

    func testRedirectsNeverDowngradeToHTTPAndTheTokenStaysWithItsOrigin() throws {
        var request = HTTPExchangeRequest(url: URL(string: "https://cdn.example/t/targets/a.zip")!)
        request.set("Authorization", "Bearer secret")
        request.set("Range", "bytes=10-")
        XCTAssertThrowsError(try HTTPRepository.redirect(from: request, to: "http://cdn.example/t/targets/a.zip", status: 301, hops: 1)) {
            XCTAssertTrue("\($0)".contains("refused a redirect from https to http"), "\($0)")
        }
        XCTAssertThrowsError(try HTTPRepository.redirect(from: request, to: "ftp://cdn.example/a.zip", status: 302, hops: 1))
        XCTAssertThrowsError(try HTTPRepository.redirect(from: request, to: "/b.zip", status: 307, hops: TransferPolicy.standard.maxRedirects + 1))

        let sameOrigin = try HTTPRepository.redirect(from: request, to: "../objects/a.zip", status: 307, hops: 1)
        XCTAssertEqual(sameOrigin.url.absoluteString, "https://cdn.example/t/objects/a.zip")
        XCTAssertEqual(sameOrigin.value(of: "Authorization"), "Bearer secret")
        XCTAssertEqual(sameOrigin.value(of: "Range"), "bytes=10-")
        let elsewhere = try HTTPRepository.redirect(from: request, to: "https://bucket.example/a.zip", status: 308, hops: 2)
        XCTAssertNil(elsewhere.value(of: "Authorization"), "a token is not sent to another origin")
        XCTAssertEqual(elsewhere.value(of: "Range"), "bytes=10-")
        // http to https is an upgrade, and fine.
        let upgraded = try HTTPRepository.redirect(from: HTTPExchangeRequest(url: URL(string: "http://cdn.example/a")!), to: "https://cdn.example/a", status: 301, hops: 1)
        XCTAssertEqual(upgraded.url.scheme, "https")
    }
}
