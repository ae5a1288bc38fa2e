import Crypto
import Foundation
import LiveryLoad
import LiverySQLite
import LiveryAssets
import LiveryPublish
import LiveryServe
import LiveryReleaseFormat
import XCTest

/// Vouchers end to end: `livery vouchers` writes the real SQLite database, `livery serve` redeems
/// codes and guards protected targets, curl plays the client.
final class VoucherTests: XCTestCase {
    /// A built copy of the samples, served, with helpers to issue, redeem and download.
    final class Fixture {
        let workspace: BuildTests.Workspace
        let server: SigningTests.FileServer
        var base: String { "http://127.0.0.1:\(server.port)" }
        var database: URL { workspace.output.appendingPathComponent(".livery/vouchers.sqlite") }

        init(prepare: (BuildTests.Workspace) throws -> Void = { _ in }) throws {
            workspace = try BuildTests.Workspace()
            try prepare(workspace)
            let build = try workspace.build()
            XCTAssertEqual(build.status, 0, build.stderr)
            server = try SigningTests.FileServer(root: workspace.output)
        }

        func vouchers(_ arguments: [String]) throws -> LiveryProcess.Output {
            try LiveryProcess.run(["vouchers"] + arguments, in: workspace.root)
        }

        /// Issues codes and returns them (standard output holds nothing else).
        func issue(_ tour: String = "rome-trastevere", tenant: String = "sonic-walkscape", extra: [String] = []) throws -> [String] {
            let result = try vouchers(["issue", tenant, "--tour", tour] + extra)
            XCTAssertEqual(result.status, 0, result.stderr)
            return result.stdout.split(separator: "\n").map(String.init)
        }

        func curl(_ arguments: [String]) throws -> LiveryProcess.Output {
            try LiveryProcess.tool(["curl", "-s", "--max-time", "20"] + arguments)
        }

        /// POSTs a redemption; returns the status and the JSON answer.
        func redeem(_ code: String, device: String, tenant: String = "sonic-walkscape", extra: [String: String] = [:]) throws -> (status: Int, json: [String: Any]) {
            try Self.redeem(base: base, code, device: device, tenant: tenant, extra: extra)
        }

        static func redeem(base: String, _ code: String, device: String, tenant: String = "sonic-walkscape", extra: [String: String] = [:]) throws -> (status: Int, json: [String: Any]) {
            let json = String(decoding: try JSONSerialization.data(withJSONObject: ["code": code, "device": device].merging(extra) { a, _ in a }), as: UTF8.self)
            let output = try LiveryProcess.tool(["curl", "-s", "--max-time", "20", "-w", "\n%{http_code}", "-H", "Content-Type: application/json", "--data-binary", json, "\(base)/\(tenant)/vouchers/redeem"]).stdout
            let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
            let answer = (try? JSONSerialization.jsonObject(with: Data(lines.dropLast().joined(separator: "\n").utf8))) as? [String: Any] ?? [:]
            return (Int(lines.last ?? "") ?? 0, answer)
        }

        func token(_ code: String, device: String = "device-1") throws -> String {
            let answer = try redeem(code, device: device)
            XCTAssertEqual(answer.status, 200, "\(answer.json)")
            return try XCTUnwrap(answer.json["token"] as? String)
        }

        /// The file name in `targets/` of a bundle of the current release.
        func file(_ bundle: String, tenant: String = "sonic-walkscape") throws -> String {
            let manifest = try XCTUnwrap(Publisher.currentManifest(tenant: tenant, output: workspace.output)?.manifest)
            return try XCTUnwrap(manifest.bundles.first { $0.id == bundle }?.path.split(separator: "/").last.map(String.init))
        }

        /// Status code (and, with `-D -`, headers) of a GET with an optional token.
        func status(_ path: String, token: String? = nil, extra: [String] = []) throws -> String {
            try curl(["-o", "/dev/null", "-w", "%{http_code}"] + (token.map { ["-H", "Authorization: Bearer \($0)"] } ?? []) + extra + ["\(base)/\(path)"]).stdout
        }

        /// The token secret, read from the database as serve keeps it (to mint tokens the server never made).
        func secret() throws -> SymmetricKey {
            let hex = try XCTUnwrap(try SQLiteDatabase(path: database.path).query("SELECT value FROM settings WHERE key = 'token-secret'").first?.first?.text)
            var bytes: [UInt8] = []
            var index = hex.startIndex
            while index < hex.endIndex {
                let next = hex.index(index, offsetBy: 2)
                bytes.append(try XCTUnwrap(UInt8(hex[index..<next], radix: 16)))
                index = next
            }
            return SymmetricKey(data: bytes)
        }
    }

    func testIssueRedeemAndDownloadAProtectedTourFullyAndByRange() throws {
        let fixture = try Fixture()
        let codes = try fixture.issue(extra: ["--devices", "2"])
        XCTAssertEqual(codes.count, 1)
        let code = try XCTUnwrap(codes.first)
        XCTAssertNotNil(code.range(of: "^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){4}$", options: .regularExpression), code)
        // Only a hash is stored: the code is nowhere in the database (or its WAL).
        for suffix in ["", "-wal"] {
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: fixture.database.path + suffix))) ?? Data()
            XCTAssertNil(bytes.range(of: Data(code.replacingOccurrences(of: "-", with: "").utf8)), "the code is stored in clear")
        }

        let bundle = try fixture.file("tour.rome-trastevere")
        let path = "sonic-walkscape/targets/\(bundle)"
        let bytes = try Data(contentsOf: fixture.workspace.output.appendingPathComponent(path))
        let refused = try fixture.curl(["-D", "-", "-o", "/dev/null", "\(fixture.base)/\(path)"]).stdout
        XCTAssertTrue(refused.hasPrefix("HTTP/1.1 401"), refused)
        XCTAssertTrue(refused.lowercased().contains("www-authenticate: bearer"), refused)
        XCTAssertEqual(try fixture.status(path, extra: ["-I"]), "401", "HEAD too")

        // Typed loosely: lower case, no dashes.
        let loose = code.lowercased().replacingOccurrences(of: "-", with: "")
        let answer = try fixture.redeem(loose, device: "phone-1")
        XCTAssertEqual(answer.status, 200, "\(answer.json)")
        XCTAssertEqual(answer.json["tour"] as? String, "rome-trastevere")
        XCTAssertEqual((answer.json["bundles"] as? [String])?.sorted(),
                       ["tour.rome-trastevere", "tour.rome-trastevere.en", "tour.rome-trastevere.fr", "tour.rome-trastevere.it"])
        let expires = try XCTUnwrap(ISO8601DateFormatter().date(from: answer.json["expires"] as? String ?? ""))
        XCTAssertEqual(expires.timeIntervalSinceNow, 30 * 86_400, accuracy: 120)
        let token = try XCTUnwrap(answer.json["token"] as? String)
        // The token's payload is readable JSON naming tenant, tour, device and expiry.
        let payload = try XCTUnwrap(Data(base64Encoded: Self.padded(String(token.split(separator: ".")[0]))))
        let fields = try XCTUnwrap(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
        XCTAssertEqual(fields["tenant"] as? String, "sonic-walkscape")
        XCTAssertEqual(fields["device"] as? String, "phone-1")

        // Whole file, range, suffix range, revalidation: with the token.
        let whole = try fixture.curl(["-D", "-", "-o", fixture.workspace.root.appendingPathComponent("got.zip").path, "-H", "Authorization: Bearer \(token)", "\(fixture.base)/\(path)"]).stdout
        XCTAssertTrue(whole.hasPrefix("HTTP/1.1 200"), whole)
        XCTAssertTrue(whole.lowercased().contains("cache-control: private"), whole)
        XCTAssertEqual(try Data(contentsOf: fixture.workspace.root.appendingPathComponent("got.zip")), bytes)
        let partFile = fixture.workspace.root.appendingPathComponent("part.bin")
        let part = try fixture.curl(["-H", "Range: bytes=10-19", "-H", "Authorization: Bearer \(token)", "-o", partFile.path, "-w", "%{http_code}", "\(fixture.base)/\(path)"]).stdout
        XCTAssertEqual(try Data(contentsOf: partFile), bytes[10..<20])
        XCTAssertEqual(part, "206")
        XCTAssertEqual(try fixture.status(path, token: token, extra: ["-H", "Range: bytes=-10"]), "206")
        XCTAssertEqual(try fixture.status(path, token: token, extra: ["-H", "Range: bytes=\(bytes.count)-"]), "416")
        let etag = try XCTUnwrap(whole.split(separator: "\r\n").first { $0.lowercased().hasPrefix("etag:") }?.dropFirst(5).trimmingCharacters(in: .whitespaces))
        XCTAssertEqual(try fixture.status(path, token: token, extra: ["-H", "If-None-Match: \(etag)"]), "304")
        XCTAssertEqual(try fixture.status(path, extra: ["-H", "If-None-Match: \(etag)"]), "401", "revalidation needs the token too")
        // Every language bundle of the tour opens with the same token.
        XCTAssertEqual(try fixture.status("sonic-walkscape/targets/\(try fixture.file("tour.rome-trastevere.fr"))", token: token), "200")

        // Public bundles and all metadata need no token.
        XCTAssertEqual(try fixture.status("sonic-walkscape/targets/\(try fixture.file("core"))"), "200")
        XCTAssertEqual(try fixture.status("sonic-walkscape/targets/\(try fixture.file("tour.florence-renaissance"))"), "200")
        XCTAssertEqual(try fixture.status("sonic-walkscape/metadata/1.targets.json"), "200")
        XCTAssertEqual(try fixture.status("sonic-walkscape/metadata/timestamp.json"), "200")
        let pointer = try XCTUnwrap(Publisher.currentManifest(tenant: "sonic-walkscape", output: fixture.workspace.output)?.pointer)
        XCTAssertEqual(try fixture.status("sonic-walkscape/\(pointer.manifest)"), "200")
        // The same bytes under another name in targets/ are protected too.
        XCTAssertEqual(try fixture.status("sonic-walkscape/targets/\(bundle.prefix(64)).renamed.zip"), "401")

        // Neither the code nor the token reaches the log.
        XCTAssertFalse(fixture.server.log.contains(token) || fixture.server.log.lowercased().contains(loose), fixture.server.log)
        XCTAssertTrue(fixture.server.log.contains("POST /sonic-walkscape/vouchers/redeem 200 "), fixture.server.log)
    }

    /// Base64 leaves unused bits in a token's last characters: only the spelling with them zero is accepted,
    /// so a token has exactly one form (changing 'A' to 'B' at the end of the MAC used to pass).
    func testSignedURLsAndSealedKeysUnlockOneBundleOnOneDeviceUntilTheyExpire() throws {
        let fixture = try Fixture()
        let code = try XCTUnwrap(try fixture.issue().first)
        let phone = Curve25519.KeyAgreement.PrivateKey()
        let deviceKey = Base64URL.encode(phone.publicKey.rawRepresentation)
        let redeemed = try fixture.redeem(code, device: "phone-1", extra: ["deviceKey": deviceKey])
        XCTAssertEqual(redeemed.status, 200, "\(redeemed.json)")
        let answer = try RedemptionAnswer(data: JSONSerialization.data(withJSONObject: redeemed.json))
        XCTAssertEqual(answer.bundles, ["tour.rome-trastevere", "tour.rome-trastevere.en", "tour.rome-trastevere.fr", "tour.rome-trastevere.it"])
        XCTAssertEqual(answer.urls.keys.sorted(), answer.bundles)
        XCTAssertEqual(answer.keys.map(\.bundle), answer.bundles)
        XCTAssertEqual(try XCTUnwrap(answer.urlsExpire).timeIntervalSinceNow, SignedURL.lifetime, accuracy: 60)

        let manifest = try XCTUnwrap(Publisher.currentManifest(tenant: "sonic-walkscape", output: fixture.workspace.output)?.manifest)
        let bundle = try XCTUnwrap(manifest.bundle("tour.rome-trastevere"))
        let path = "sonic-walkscape/\(bundle.path)"
        let ciphertext = try Data(contentsOf: fixture.workspace.output.appendingPathComponent(path))
        let reference = try XCTUnwrap(answer.urls[bundle.id])
        XCTAssertTrue(reference.hasPrefix("/\(path)?lv-exp="), reference)

        // The signed URL alone (no token) gets exactly the target's bytes, privately cached.
        let saved = fixture.workspace.root.appendingPathComponent("signed.bin")
        let headers = try fixture.curl(["-D", "-", "-o", saved.path, fixture.base + reference]).stdout
        XCTAssertTrue(headers.hasPrefix("HTTP/1.1 200"), headers)
        XCTAssertTrue(headers.lowercased().contains("cache-control: private"), headers)
        XCTAssertEqual(try Data(contentsOf: saved), ciphertext)
        XCTAssertFalse(fixture.server.log.contains("lv-sig"), "signatures are not logged")

        // The ciphertext is useless without its key: not an archive, none of the archive's bytes in it.
        let encryption = try XCTUnwrap(bundle.encryption)
        XCTAssertEqual(encryption.scheme, BundleEncryption.scheme)
        XCTAssertEqual(ciphertext.prefix(7), Data("LVRYENC".utf8))
        XCTAssertNotEqual(try LiveryProcess.tool(["bsdtar", "-tf", saved.path]).status, 0, "bsdtar cannot read it")
        // The sealed key opens on this device only, and gives the archive bsdtar lists.
        let wrapped = try XCTUnwrap(answer.keys.first { $0.bundle == bundle.id })
        XCTAssertEqual(wrapped.keyID, encryption.keyID)
        XCTAssertThrowsError(try wrapped.unwrap(with: Curve25519.KeyAgreement.PrivateKey()), "another device")
        let archive = try SegmentedAEAD.decrypt(ciphertext, key: try wrapped.unwrap(with: phone))
        XCTAssertEqual(archive.prefix(2), Data("PK".utf8))
        let plainFile = fixture.workspace.root.appendingPathComponent("plain.zip")
        try archive.write(to: plainFile)
        let listing = try LiveryProcess.tool(["bsdtar", "-tf", plainFile.path])
        XCTAssertEqual(listing.status, 0, listing.stderr)
        XCTAssertFalse(listing.stdout.isEmpty)
        for start in stride(from: 0, to: archive.count - 32, by: max(1, archive.count / 50)) {
            XCTAssertNil(ciphertext.range(of: archive[start..<(start + 32)]), "plaintext at \(start) shows through")
        }
        // The key is the one the tenant's content secret derives (what the signed custom names).
        let secretHex = try String(contentsOf: fixture.workspace.root.appendingPathComponent(".livery-keys/sonic-walkscape/content.key"), encoding: .utf8)
        let secret = try XCTUnwrap(ContentSecret(raw: try XCTUnwrap(Data(hex: secretHex.trimmingCharacters(in: .whitespacesAndNewlines)))))
        XCTAssertEqual(secret.keyID(plaintextSHA256: SHA256.hash(data: archive).hexString), encryption.keyID)

        // Hostile URLs: each one refused with 403.
        let query = try XCTUnwrap(reference.split(separator: "?").last.map(String.init))
        let otherFile = try XCTUnwrap(manifest.bundle("tour.rome-trastevere.it")?.path)
        try FileManager.default.copyItem(at: fixture.workspace.output.appendingPathComponent("sonic-walkscape"), to: fixture.workspace.output.appendingPathComponent("sonic-copy"))
        let exp = try XCTUnwrap(query.split(separator: "&").first { $0.hasPrefix("lv-exp=") }?.dropFirst(7)).description
        let expired = SignedURL(path: "/\(path)", expires: Date(timeIntervalSinceNow: -5)).reference(signedWith: try fixture.secret())
        let hostile: [(String, String)] = [
            (String(reference.dropLast()) + (reference.hasSuffix("A") ? "B" : "A"), "signature changed"),
            (reference.replacingOccurrences(of: "lv-exp=\(exp)", with: "lv-exp=\(Int(exp)! + 3600)"), "expiry moved"),
            ("/sonic-walkscape/\(otherFile)?\(query)", "another file's path"),
            ("/sonic-copy/\(bundle.path)?\(query)", "another tenant's path"),
            (reference + "&lv-exp=\(exp)", "a parameter twice"),
            (expired, "expired"),
        ]
        for (url, why) in hostile {
            let refused = try fixture.curl(["-w", "\n%{http_code}", fixture.base + url]).stdout
            XCTAssertTrue(refused.hasSuffix("\n403"), "\(why): \(refused)")
        }
        XCTAssertTrue(try fixture.curl([fixture.base + expired]).stdout.contains("has expired"))

        // Fresh URLs and keys for the token, without the code; refused for a forged or revoked token.
        func access(_ token: String?, body: String = "{\"deviceKey\": \"\(deviceKey)\"}") throws -> (status: String, body: String) {
            let output = try fixture.curl(["-w", "\n%{http_code}", "-H", "Content-Type: application/json", "--data-binary", body]
                                          + (token.map { ["-H", "Authorization: Bearer \($0)"] } ?? []) + ["\(fixture.base)/sonic-walkscape/vouchers/access"]).stdout
            return (String(output.split(separator: "\n").last ?? ""), String(output.split(separator: "\n").dropLast().joined(separator: "\n")))
        }
        let renewed = try access(answer.token)
        XCTAssertEqual(renewed.status, "200", renewed.body)
        let fresh = try RedemptionAnswer(data: Data(renewed.body.utf8))
        XCTAssertEqual(fresh.token, answer.token)
        XCTAssertEqual(fresh.urls.keys.sorted(), answer.bundles)
        XCTAssertEqual(try fresh.keys[0].unwrap(with: phone), try answer.keys[0].unwrap(with: phone))
        XCTAssertEqual(try access(nil).status, "401")
        XCTAssertEqual(try access(answer.token + "x").status, "401")
        XCTAssertEqual(try access(answer.token, body: "{\"deviceKey\": \"short\"}").status, "400")
        XCTAssertEqual(try access(answer.token, body: "{\"deviceKey\": \"\(Base64URL.encode(Data(count: 32)))\"}").status, "400", "a low-order point")
        XCTAssertEqual(try fixture.vouchers(["revoke", code]).status, 0)
        XCTAssertEqual(try access(answer.token).status, "401", "a revoked voucher's token gets nothing more")
    }

    func testInspectListsAnEncryptedBundleOnlyWithTheTenantsContentKey() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let table = try LiveryProcess.run(["inspect", "sonic-walkscape"], in: workspace.root)
        XCTAssertTrue(table.stdout.contains("on-demand  voucher, encrypted"), table.stdout)
        XCTAssertTrue(table.stdout.contains("tour.florence-renaissance     tour           -       on-demand  public "), table.stdout)
        let listed = try LiveryProcess.run(["inspect", "sonic-walkscape", "tour.rome-trastevere"], in: workspace.root)
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertTrue(listed.stdout.contains("tours/rome-trastevere/tour.json"), listed.stdout)
        let locked = try LiveryProcess.run(["inspect", "sonic-walkscape", "tour.rome-trastevere", "--keys", "elsewhere"], in: workspace.root)
        XCTAssertNotEqual(locked.status, 0)
        XCTAssertTrue(locked.stderr.contains("bundle 'tour.rome-trastevere' is encrypted, and elsewhere/sonic-walkscape/content.key, which unlocks it, is not here"), locked.stderr)
        // Another tenant's secret in its place: refused, not garbage listed.
        let other = workspace.root.appendingPathComponent("other/sonic-walkscape")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try Data((String(repeating: "ab", count: 32) + "\n").utf8).write(to: other.appendingPathComponent("content.key"))
        let wrong = try LiveryProcess.run(["inspect", "sonic-walkscape", "tour.rome-trastevere", "--keys", "other"], in: workspace.root)
        XCTAssertNotEqual(wrong.status, 0)
        XCTAssertTrue(wrong.stderr.contains("does not decrypt"), wrong.stderr)
    }

    func testATokenHasOneAcceptedSpelling() {
        let secret = SymmetricKey(size: .bits256)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        for device in 0..<16 {
            let token = VoucherToken(tenant: "t", subject: VoucherSubject(.tour, "walk"), device: "d\(device)", voucher: 1, expires: Date(timeIntervalSince1970: 2_000_000_000))
            let signed = token.signed(with: secret)
            XCTAssertEqual(VoucherToken.verify(signed, secret: secret), token)
            let value = alphabet.firstIndex(of: signed.last!)!
            XCTAssertEqual(value & 3, 0, "a 32-byte MAC leaves two unused bits in its last character")
            for unused in 1...3 {
                let respelled = String(signed.dropLast()) + String(alphabet[value | unused])
                XCTAssertNil(VoucherToken.verify(respelled, secret: secret), respelled)
            }
        }
    }

    func testTokensAreRefusedForOtherToursOtherTenantsTamperingAndExpiry() throws {
        // florence-renaissance made protected too, so that there are two protected tours.
        let fixture = try Fixture { workspace in
            try workspace.replace("sonic-walkscape/tours/florence-renaissance/tour.yaml", "protected: false", "protected: true")
        }
        let rome = try fixture.token(try XCTUnwrap(try fixture.issue().first))
        let florence = try fixture.token(try XCTUnwrap(try fixture.issue("florence-renaissance").first))
        let romePath = "sonic-walkscape/targets/\(try fixture.file("tour.rome-trastevere"))"
        XCTAssertEqual(try fixture.status(romePath, token: rome), "200")
        XCTAssertEqual(try fixture.status(romePath, token: florence), "403", "a token for another tour")

        // Another tenant serving the same protected bytes: the token names its tenant.
        try FileManager.default.copyItem(at: fixture.workspace.output.appendingPathComponent("sonic-walkscape"), to: fixture.workspace.output.appendingPathComponent("sonic-copy"))
        XCTAssertEqual(try fixture.status(romePath.replacingOccurrences(of: "sonic-walkscape/", with: "sonic-copy/"), token: rome), "403")
        XCTAssertEqual(try fixture.status(romePath.replacingOccurrences(of: "sonic-walkscape/", with: "sonic-copy/")), "401")

        // Tampered: a payload changed by one character, a MAC changed, garbage, another scheme.
        let parts = rome.split(separator: ".").map(String.init)
        var payload = try XCTUnwrap(Data(base64Encoded: Self.padded(parts[0])))
        payload = Data(String(decoding: payload, as: UTF8.self).replacingOccurrences(of: "rome-trastevere", with: "florence-renaissance").utf8)
        let swapped = payload.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "") + "." + parts[1]
        let flipped = parts[0] + "." + String(parts[1].dropLast()) + (parts[1].hasSuffix("A") ? "B" : "A")
        for bad in [swapped, flipped, "nonsense", parts[0], rome + "x"] {
            XCTAssertEqual(try fixture.status(romePath, token: bad), "401", bad)
        }
        XCTAssertEqual(try fixture.status(romePath, extra: ["-H", "Authorization: Basic \(rome)"]), "401")

        // Expired: a token correctly signed with the server's secret whose moment has passed.
        let secret = try fixture.secret()
        let genuine = try XCTUnwrap(VoucherToken.verify(rome, secret: secret), "the token is what the documented format says")
        var expired = genuine
        expired.expires = Date(timeIntervalSinceNow: -60)
        XCTAssertEqual(try fixture.status(romePath, token: expired.signed(with: secret)), "401")
        expired.expires = Date(timeIntervalSinceNow: 3600)
        XCTAssertEqual(try fixture.status(romePath, token: expired.signed(with: secret)), "200", "the same grant, still valid")
        // A code past its --expires day (issued three days ago, valid through yesterday) no longer redeems.
        let yesterday = Self.day(Date(timeIntervalSinceNow: -86_400))
        let old = try LiveryProcess.tool(["faketime", "-f", "-3d", LiveryProcess.executable.path, "vouchers", "issue", "sonic-walkscape",
                                          "--tour", "rome-trastevere", "--expires", yesterday, "-o", fixture.workspace.output.path])
        XCTAssertEqual(old.status, 0, old.stderr)
        XCTAssertEqual(try fixture.redeem(old.stdout.trimmingCharacters(in: .whitespacesAndNewlines), device: "d").status, 403)
    }

    func testDeviceLimitRevocationAndMalformedRequests() throws {
        let fixture = try Fixture()
        let code = try XCTUnwrap(try fixture.issue(extra: ["--devices", "1"]).first)
        let token = try fixture.token(code, device: "tablet")
        XCTAssertEqual(try fixture.redeem(code, device: "phone").status, 409, "the only device place is taken")
        let again = try fixture.redeem(code, device: "tablet")
        XCTAssertEqual(again.status, 200, "the same device gets a fresh token")
        XCTAssertTrue(try fixture.vouchers(["list", "sonic-walkscape"]).stdout.contains("1/1"), "no use spent by the second redemption")

        let path = "sonic-walkscape/targets/\(try fixture.file("tour.rome-trastevere.it"))"
        XCTAssertEqual(try fixture.status(path, token: token), "200")
        let revoke = try fixture.vouchers(["revoke", code.lowercased()])
        XCTAssertEqual(revoke.status, 0, revoke.stderr)
        XCTAssertEqual(try fixture.redeem(code, device: "tablet").status, 403, "a revoked code")
        XCTAssertEqual(try fixture.status(path, token: token), "401", "its tokens stop working at once")
        XCTAssertEqual(try fixture.status(path, token: again.json["token"] as? String), "401")
        let list = try fixture.vouchers(["list", "sonic-walkscape"]).stdout
        XCTAssertTrue(list.contains("\(code.prefix(4))-…") && !list.contains(code), list)
        XCTAssertEqual(try fixture.redeem("ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ", device: "x").status, 403, "unknown")
        XCTAssertEqual(try fixture.redeem(code, device: "x", tenant: "urbannest").status, 403, "another tenant's code")

        // Malformed requests change nothing and say why.
        let redeem = "\(fixture.base)/sonic-walkscape/vouchers/redeem"
        let fresh = try XCTUnwrap(try fixture.issue().first)
        let cases: [([String], String)] = [
            (["-H", "Content-Type: application/json", "--data-binary", String(repeating: " ", count: 5000) + "{}", redeem], "413"),
            (["-H", "Content-Type: application/json", "-H", "Transfer-Encoding: chunked", "--data-binary", String(repeating: "x", count: 5000), redeem], "413"),
            ([redeem], "405"),
            (["-X", "PUT", "-H", "Content-Type: application/json", "--data", "{}", redeem], "405"),
            (["-H", "Content-Type: application/json", "--data", "{\"code\": ", redeem], "400"),
            (["-H", "Content-Type: application/json", "--data", "[\"\(fresh)\"]", redeem], "400"),
            (["-H", "Content-Type: application/json", "--data", "{\"code\": \"\(fresh)\", \"device\": \"\(String(repeating: "d", count: 129))\"}", redeem], "400"),
            (["-H", "Content-Type: application/json", "--data", "{\"code\": \"\(fresh)\", \"device\": \"\"}", redeem], "400"),
            (["-H", "Content-Type: text/plain", "--data", "{\"code\": \"\(fresh)\", \"device\": \"d\"}", redeem], "415"),
            (["-H", "Content-Type: application/json", "--data", "{\"code\": \"\(fresh)\", \"device\": \"d\"}", "\(fixture.base)/nobody/vouchers/redeem"], "404"),
            // Bodies stay refused everywhere else.
            (["-H", "Content-Type: application/json", "--data", "{}", "\(fixture.base)/sonic-walkscape/vouchers/other"], "405"),
            (["-X", "GET", "--data", "x", "\(fixture.base)/sonic-walkscape/release.json"], "413"),
        ]
        for (arguments, status) in cases {
            XCTAssertEqual(try fixture.curl(["-o", "/dev/null", "-w", "%{http_code}"] + arguments).stdout, status, "\(arguments.map { $0.prefix(60) })")
        }
        XCTAssertEqual(try fixture.curl(["-D", "-", "-o", "/dev/null", redeem]).stdout.lowercased().contains("allow: post"), true)
        XCTAssertTrue(try fixture.vouchers(["list", "sonic-walkscape"]).stdout.contains("0/1"), "the fresh code is untouched")
        XCTAssertEqual(try fixture.redeem(fresh, device: "d").status, 200)
    }

    func testFailedAttemptsAreRateLimitedPerAddress() throws {
        let fixture = try Fixture()
        let code = try XCTUnwrap(try fixture.issue().first)
        for attempt in 0..<10 {
            XCTAssertEqual(try fixture.redeem("AAAA-AAAA-AAAA-AAAA-AAA\(attempt)", device: "d").status, 403)
        }
        let limited = try fixture.curl(["-D", "-", "-o", "/dev/null", "-H", "Content-Type: application/json", "--data", "{\"code\": \"\(code)\", \"device\": \"d\"}",
                                        "\(fixture.base)/sonic-walkscape/vouchers/redeem"]).stdout
        XCTAssertTrue(limited.hasPrefix("HTTP/1.1 429"), "even a good code waits: \(limited)")
        XCTAssertTrue(limited.lowercased().contains("retry-after: "), limited)
        XCTAssertTrue(try fixture.vouchers(["list", "sonic-walkscape"]).stdout.contains("0/1"), "nothing redeemed while limited")
    }

    func testTwentyParallelRedemptionsOfAOneDeviceCodeSpendItExactlyOnce() throws {
        let fixture = try Fixture()
        let code = try XCTUnwrap(try fixture.issue(extra: ["--devices", "1"]).first)
        let statuses = Statuses(), base = fixture.base
        DispatchQueue.concurrentPerform(iterations: 20) { index in
            statuses.append((try? Fixture.redeem(base: base, code, device: "device-\(index)").status) ?? -1)
        }
        XCTAssertEqual(statuses.values.filter { $0 == 200 }.count, 1, "\(statuses.values)")
        XCTAssertEqual(statuses.values.filter { $0 == 409 }.count, 19, "\(statuses.values)")
        XCTAssertTrue(try fixture.vouchers(["list", "sonic-walkscape"]).stdout.contains("1/1"))
        let mode = try LiveryProcess.tool(["sqlite3", fixture.database.path, "PRAGMA journal_mode"])
        if mode.status == 0 { XCTAssertEqual(mode.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "wal") }
    }

    func testIssuingRefusesWhatCannotBeRedeemedAndWritesNothing() throws {
        let fixture = try Fixture()
        let refusals: [([String], String)] = [
            (["issue", "sonic-walkscape", "--tour", "florence-renaissance"], "is public"),
            (["issue", "sonic-walkscape", "--tour", "nowhere"], "is not a tour of sonic-walkscape's current release (its tours: florence-renaissance, rome-trastevere)"),
            (["issue", "no-such-tenant", "--tour", "rome-trastevere"], "no published release"),
            (["issue", "sonic-walkscape", "--tour", "rome-trastevere", "--expires", "2020-01-01"], "in the past"),
            (["issue", "sonic-walkscape", "--tour", "rome-trastevere", "--expires", "2030-02-30"], "must be a date"),
            (["issue", "sonic-walkscape", "--tour", "rome-trastevere", "--count", "0"], "--count"),
            (["issue", "sonic-walkscape", "--tour", "rome-trastevere", "--vouchers", "Output/sonic-walkscape/v.sqlite"], "would be downloadable"),
            (["revoke", "ABCD-EFGH-JKMN-PQRS-TVWX"], "no voucher database"),
        ]
        for (arguments, message) in refusals {
            let result = try fixture.vouchers(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stdout, "", "\(arguments)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.database.path), "nothing written")
        XCTAssertEqual(try fixture.vouchers(["list", "sonic-walkscape"]).stdout, "sonic-walkscape: no vouchers\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.database.path), "listing creates nothing")
        // A custom database path works for issuing and serving alike.
        let codes = try fixture.issue(extra: ["--count", "3", "--vouchers", "elsewhere/v.sqlite"])
        XCTAssertEqual(Set(codes).count, 3)
        XCTAssertEqual(try fixture.vouchers(["revoke", "nope"]).status, 2)
    }

    /// `YYYY-MM-DD` in UTC.
    static func day(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: date)
    }

    static func padded(_ base64url: String) -> String {
        let base64 = base64url.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        return base64 + String(repeating: "=", count: (4 - base64.count % 4) % 4)
    }

    /// Thread-safe collection of statuses from parallel requests.
    final class Statuses: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [Int] = []
        func append(_ status: Int) { lock.withLock { list.append(status) } }
        var values: [Int] { lock.withLock { list } }
    }
}

