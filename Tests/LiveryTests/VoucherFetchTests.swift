import Foundation
import XCTest

/// Clients of protected tours: `livery fetch --voucher` and python-tuf with a bearer token, against
/// `livery serve`.
final class VoucherFetchTests: XCTestCase {
    /// Issues a one-device voucher for sonic-walkscape's protected tour and redeems it with curl.
    static func redeemedToken(workspace: BuildTests.Workspace, port: Int, device: String = "python-tuf") throws -> String {
        let issue = try LiveryProcess.run(["vouchers", "issue", "sonic-walkscape", "--tour", "rome-trastevere"], in: workspace.root)
        XCTAssertEqual(issue.status, 0, issue.stderr)
        let body = "{\"code\": \"\(issue.stdout.trimmingCharacters(in: .whitespacesAndNewlines))\", \"device\": \"\(device)\"}"
        let answer = try LiveryProcess.tool(["curl", "-s", "--max-time", "20", "-H", "Content-Type: application/json", "--data-binary", body,
                                             "http://127.0.0.1:\(port)/sonic-walkscape/vouchers/redeem"])
        let json = try JSONSerialization.jsonObject(with: Data(answer.stdout.utf8)) as? [String: Any]
        return try XCTUnwrap(json?["token"] as? String, answer.stdout)
    }

    private func fetch(_ workspace: BuildTests.Workspace, _ server: SigningTests.FileServer, _ extra: [String]) throws -> LiveryProcess.Output {
        try LiveryProcess.run(["fetch", "sonic-walkscape", "--server", "http://127.0.0.1:\(server.port)", "--cache", "cache",
                               "--root", "Output/sonic-walkscape/metadata/1.root.json", "--locale", "fr"] + extra, in: workspace.root)
    }

    func testFetchOfAProtectedTourNeedsAVoucherAndNeverDisturbsTheInstalledRelease() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let server = try SigningTests.FileServer(root: workspace.output)
        XCTAssertEqual(try fetch(workspace, server, ["--tour", "florence-renaissance"]).status, 0)
        let cache = workspace.root.appendingPathComponent("cache/sonic-walkscape")
        let installed = try FileManager.default.destinationOfSymbolicLink(atPath: cache.appendingPathComponent("current").path)

        // No voucher: a clear failure naming the tour and the way in; nothing changes.
        let refused = try fetch(workspace, server, ["--tour", "florence-renaissance", "--tour", "rome-trastevere"])
        XCTAssertEqual(refused.status, 1, refused.stdout)
        XCTAssertTrue(refused.stderr.contains("tour 'rome-trastevere' of sonic-walkscape is protected by a voucher"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("--voucher"), refused.stderr)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: cache.appendingPathComponent("current").path), installed)
        XCTAssertFalse(server.log.contains("tour.rome-trastevere"), "no protected download was even tried")

        // A wrong code: refused before anything else.
        let wrong = try fetch(workspace, server, ["--tour", "rome-trastevere", "--voucher", "AAAA-BBBB-CCCC-DDDD-EEEE"])
        XCTAssertEqual(wrong.status, 1)
        XCTAssertTrue(wrong.stderr.contains("voucher AAAA-… is not valid"), wrong.stderr)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: cache.appendingPathComponent("current").path), installed)

        // With a voucher: redeemed once, the tour installs, and the token is kept privately.
        let issue = try LiveryProcess.run(["vouchers", "issue", "sonic-walkscape", "--tour", "rome-trastevere"], in: workspace.root)
        let code = issue.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let granted = try fetch(workspace, server, ["--tour", "florence-renaissance", "--tour", "rome-trastevere", "--voucher", code])
        XCTAssertEqual(granted.status, 0, granted.stderr)
        XCTAssertTrue(granted.stdout.contains("downloaded 2 bundles (tour.rome-trastevere, tour.rome-trastevere.fr)"), granted.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: cache.appendingPathComponent("current/bundles/tour.rome-trastevere.fr").path))
        for file in ["access-tokens.json", "device-id"] {
            let mode = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: cache.appendingPathComponent(file).path)[.posixPermissions] as? Int)
            XCTAssertEqual(mode & 0o777, 0o600, file)
        }
        XCTAssertFalse(server.log.contains(code), "the code is never logged")

        // A new release of the tour downloads with the stored token, no --voucher needed.
        try workspace.replace("sonic-walkscape/tours/rome-trastevere/tour.yaml", "Rome: the heart of Trastevere", "Rome: Trastevere")
        XCTAssertEqual(try workspace.build().status, 0)
        let update = try fetch(workspace, server, ["--tour", "rome-trastevere"])
        XCTAssertEqual(update.status, 0, update.stderr)
        XCTAssertTrue(update.stdout.contains("release 2 installed") && update.stdout.contains("tour.rome-trastevere"), update.stdout)
        let second = try FileManager.default.destinationOfSymbolicLink(atPath: cache.appendingPathComponent("current").path)

        // Revoked: the next download of the tour is refused, clearly, and release 2 stays.
        XCTAssertEqual(try LiveryProcess.run(["vouchers", "revoke", code], in: workspace.root).status, 0)
        try workspace.replace("sonic-walkscape/tours/rome-trastevere/tour.yaml", "Rome: Trastevere", "Rome: Trastevere, again")
        XCTAssertEqual(try workspace.build().status, 0)
        let revoked = try fetch(workspace, server, ["--tour", "rome-trastevere"])
        XCTAssertEqual(revoked.status, 1, revoked.stdout)
        // The new release's bundles need new keys: the token is refused, and so is the code it falls back to.
        XCTAssertTrue(revoked.stderr.contains("is not valid: unknown, revoked or expired"), revoked.stderr)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: cache.appendingPathComponent("current").path), second)
    }

    func testPythonTUFGetsAProtectedTargetOnlyWithAToken() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let server = try SigningTests.FileServer(root: workspace.output)
        let root = workspace.output.appendingPathComponent("sonic-walkscape/metadata/1.root.json")
        let targets = ["core.zip", "tour.rome-trastevere.zip"]
        let refused = try SigningTests.pythonTUF(port: server.port, tenant: "sonic-walkscape", root: root,
                                                 state: try SigningTests.clientState(in: workspace.root), targets: targets)
        XCTAssertNotEqual(refused.status, 0, refused.stdout)
        XCTAssertTrue(refused.stderr.contains("401"), refused.stderr)
        let token = try Self.redeemedToken(workspace: workspace, port: server.port)
        let granted = try SigningTests.pythonTUF(port: server.port, tenant: "sonic-walkscape", root: root,
                                                 state: try SigningTests.clientState(in: workspace.root), targets: targets, token: token)
        XCTAssertEqual(granted.status, 0, granted.stderr)
        XCTAssertEqual(granted.stdout, "ok 2\n")
    }
}
