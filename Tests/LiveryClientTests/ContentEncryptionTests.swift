import Crypto
import Foundation
import LiveryClient
import LiveryTestSupport
import LiveryReleaseFormat
import XCTest

/// The encryption format of protected bundles (`SegmentedAEAD`), its key derivation
/// (`ContentSecret`) and the per-device key wrapping (`WrappedContentKey`), as documented in
/// docs/vouchers.md.
final class ContentEncryptionTests: XCTestCase {
    let key = SymmetricKey(data: Data(repeating: 7, count: 32))

    func bytes(_ count: Int) -> Data { Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 5) }) }

    func testEverySizeRoundTripsInMemoryAndThroughFilesWithTheSameBytes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("enc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for size in [0, 1, 1023, 1024, 1025, 2048, 5000] {
            let plain = bytes(size)
            let sealed = try SegmentedAEAD.encrypt(plain, key: key, segmentSize: 1024)
            XCTAssertEqual(sealed.count, SegmentedAEAD.ciphertextLength(plaintext: size, segmentSize: 1024), "size \(size)")
            XCTAssertEqual(sealed.prefix(8), Data("LVRYENC".utf8) + Data([1]))
            XCTAssertEqual(try SegmentedAEAD.decrypt(sealed, key: key), plain, "size \(size)")
            // Deterministic: the same bytes and key give the same ciphertext (reproducible builds).
            XCTAssertEqual(try SegmentedAEAD.encrypt(plain, key: key, segmentSize: 1024), sealed)

            let source = folder.appendingPathComponent("plain-\(size)"), encrypted = folder.appendingPathComponent("sealed-\(size)")
            let opened = folder.appendingPathComponent("opened-\(size)")
            try plain.write(to: source)
            try SegmentedAEAD.encrypt(source, to: encrypted, key: key, segmentSize: 1024)
            XCTAssertEqual(try Data(contentsOf: encrypted), sealed, "files and memory agree, size \(size)")
            try SegmentedAEAD.decrypt(encrypted, to: opened, key: key)
            XCTAssertEqual(try Data(contentsOf: opened), plain)
        }
    }

    func testAnyChangeToTheCiphertextOrAWrongKeyIsRefused() throws {
        let sealed = try SegmentedAEAD.encrypt(bytes(3000), key: key, segmentSize: 1024)  // segments of 1040, 1040, 968 bytes after the header
        let header = 12, chunk = 1024 + 16
        func refused(_ data: Data, _ why: String, file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertThrowsError(try SegmentedAEAD.decrypt(data, key: key), why, file: file, line: line)
        }
        for offset in [0, 5, 8, 11, header, header + 100, header + chunk + 3, sealed.count - 1] {
            var flipped = sealed
            flipped[offset] ^= 0x01
            refused(flipped, "byte \(offset) flipped")
        }
        let first = sealed[header..<(header + chunk)], second = sealed[(header + chunk)..<(header + 2 * chunk)], last = sealed[(header + 2 * chunk)...]
        refused(sealed.prefix(header) + second + first + last, "segments swapped")
        refused(sealed.prefix(header) + first + second, "final segment dropped")
        refused(sealed.prefix(header) + first + first + second + last, "a segment repeated")
        refused(sealed.dropLast(), "cut by one byte")
        refused(sealed + Data([0]), "a byte appended")
        refused(sealed.prefix(header), "no segment at all")
        refused(Data(), "empty")
        XCTAssertThrowsError(try SegmentedAEAD.decrypt(sealed, key: SymmetricKey(data: Data(repeating: 8, count: 32))), "another key")
        // A hostile header cannot choose a huge (or tiny) buffer.
        for size: UInt32 in [16, 1 << 30] {
            var big = size.bigEndian
            let hostile = Data("LVRYENC".utf8) + Data([1]) + Data(bytes: &big, count: 4) + sealed.dropFirst(header)
            XCTAssertThrowsError(try SegmentedAEAD.decrypt(hostile, key: key)) { error in
                XCTAssertTrue("\(error)".contains("segment size"), "\(error)")
            }
        }
    }

    func testKeysDeriveFromTheSecretAndTheArchiveAndOpenOnlyOnTheirDevice() throws {
        let secret = ContentSecret(SymmetricKey(data: Data(repeating: 1, count: 32)))
        let other = ContentSecret(SymmetricKey(data: Data(repeating: 2, count: 32)))
        let sha = String(repeating: "ab", count: 32)
        let id = secret.keyID(plaintextSHA256: sha)
        XCTAssertEqual(id.count, 32)
        XCTAssertEqual(secret.keyID(plaintextSHA256: sha), id, "stable")
        XCTAssertNotEqual(other.keyID(plaintextSHA256: sha), id, "another tenant's secret names another key")
        XCTAssertNotEqual(secret.keyID(plaintextSHA256: String(repeating: "cd", count: 32)), id, "another archive, another key")
        let contentKey = secret.contentKey(keyID: id)
        XCTAssertEqual(contentKey, secret.contentKey(keyID: id))
        XCTAssertNotEqual(contentKey, other.contentKey(keyID: id))

        let phone = Curve25519.KeyAgreement.PrivateKey(), thief = Curve25519.KeyAgreement.PrivateKey()
        let wrapped = try WrappedContentKey.wrap(contentKey, bundle: "tour.rome", keyID: id, for: phone.publicKey)
        XCTAssertEqual(try wrapped.unwrap(with: phone), contentKey)
        XCTAssertThrowsError(try wrapped.unwrap(with: thief), "sealed for another device")
        var relabelled = wrapped
        relabelled.keyID = other.keyID(plaintextSHA256: sha)
        XCTAssertThrowsError(try relabelled.unwrap(with: phone), "the key id is authenticated")
        var tampered = wrapped
        tampered.sealed[20] ^= 1
        XCTAssertThrowsError(try tampered.unwrap(with: phone))
        // Two wraps of one key differ (fresh ephemeral keys), and both open.
        let again = try WrappedContentKey.wrap(contentKey, bundle: "tour.rome", keyID: id, for: phone.publicKey)
        XCTAssertNotEqual(again.sealed, wrapped.sealed)
        XCTAssertEqual(try again.unwrap(with: phone), contentKey)

        // The redemption answer carries URLs and keys and reads back the same.
        let answer = RedemptionAnswer(token: "t", subject: VoucherSubject(.program, "p"), bundles: ["program.p"], expires: Date(timeIntervalSince1970: 1_800_000_000),
                                      urls: ["program.p": "/x/targets/abc.program.p.zip?lv-exp=1&lv-sig=AA"], urlsExpire: Date(timeIntervalSince1970: 1_799_000_000.6),
                                      keys: [wrapped])
        let read = try RedemptionAnswer(data: answer.json.bytes)
        XCTAssertEqual(read, answer)
        XCTAssertEqual(read.urlsExpire, Date(timeIntervalSince1970: 1_799_000_000))
        XCTAssertEqual(try read.keys[0].unwrap(with: phone), contentKey)
        // Malformed keys and URLs are refused, naming the field.
        for (field, value) in [("keys", "{}"), ("urls", "[]"), ("urlsExpire", "\"tomorrow\""), ("keys", "[{\"bundle\":\"b\",\"keyId\":\"k\",\"ephemeral\":\"AA\",\"sealed\":\"AA\"}]")] {
            var changed = try XCTUnwrap(try JSONSerialization.jsonObject(with: answer.json.bytes) as? [String: Any])
            changed[field] = try JSONSerialization.jsonObject(with: Data(value.utf8), options: .fragmentsAllowed)
            XCTAssertThrowsError(try RedemptionAnswer(data: JSONSerialization.data(withJSONObject: changed))) { error in
                XCTAssertTrue("\(error)".contains(field.prefix(4)), "\(field): \(error)")
            }
        }
    }

    func testAGrantsSignedURLServesOnlyItsOwnFileUntilAMinuteBeforeItExpires() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let file = String(repeating: "a", count: 64) + ".tour.t.zip"
        var grant = AccessGrant(subject: VoucherSubject(.tour, "t"), token: "x", expires: now.addingTimeInterval(86_400), bundles: ["tour.t", "tour.t.en"], code: nil)
        grant.urls = ["tour.t": "/x/targets/\(file)?lv-exp=1&lv-sig=AA",
                      "tour.t.en": "https://bucket.example/apps/x/protected/\(String(repeating: "b", count: 64)).tour.t.en.zip?X-Amz-Signature=00"]
        XCTAssertNil(grant.url(of: "tour.t", file: file, now: now), "no expiry known: no URL")
        grant.urlsExpire = now.addingTimeInterval(600)
        XCTAssertEqual(grant.url(of: "tour.t", file: file, now: now), grant.urls["tour.t"])
        XCTAssertNil(grant.url(of: "tour.t", file: String(repeating: "c", count: 64) + ".tour.t.zip", now: now), "a URL of an older release's file")
        XCTAssertNil(grant.url(of: "tour.t", file: file, now: now.addingTimeInterval(541)), "less than a minute left")
        XCTAssertNotNil(grant.url(of: "tour.t.en", file: String(repeating: "b", count: 64) + ".tour.t.en.zip", now: now), "an absolute presigned URL")
        XCTAssertNil(grant.url(of: "tour.t.fr", file: file, now: now), "no URL for that bundle")
    }

    func testBundleEncryptionIsReadStrictly() throws {
        let good = try BundleEncryption(json: .object(["scheme": .string(BundleEncryption.scheme), "keyId": .string(String(repeating: "0f", count: 16))]), what: "x")
        XCTAssertEqual(good.keyID, String(repeating: "0f", count: 16))
        for bad: JSONValue in [.string("x"), .object(["scheme": .string("s")]), .object(["scheme": .string("s"), "keyId": .string("XYZ")]),
                               .object(["scheme": .string("s"), "keyId": .string(String(repeating: "0F", count: 16))])] {
            XCTAssertThrowsError(try BundleEncryption(json: bad, what: "x"), "\(bad)")
        }
    }
}

/// The fuzz harness's delivery targets (`make fuzz`) run here on their seeds and on a few hostile
/// inputs, through `livery-json-fuzz replay --target`, so that `make test` keeps the harness working.
final class DeliveryFuzzHarnessTests: XCTestCase {
    func testEveryDeliveryTargetChecksItsSeedsAndHostileInputs() throws {
        let harness = LiveryProcess.executable.deletingLastPathComponent().appendingPathComponent("livery-json-fuzz")
        guard FileManager.default.isExecutableFile(atPath: harness.path) else { throw XCTSkip("\(harness.path) is not built") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-seeds-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        XCTAssertEqual(try LiveryProcess.tool([harness.path, "seeds", folder.path]).status, 0)
        let hostile: [String: [String]] = [
            "s3-xml": ["<!DOCTYPE x [<!ENTITY a \"b\">]><x>&a;</x>", "<a><b><c>deep</c></b></a>", "<Error><Code>", ""],
            "aws-ini": ["[\n=\n  = x\n[]\n[profile]\nS3 =\n\tAddressing_Style = Path\n",
                        "[ ]\nendpoint_url = x\n"],  // found by the fuzzer: `[ ]` made a section without a name
            "redemption-answer": [#"{"token":"t","subject":"tour:","bundles":[],"expires":"2026-01-01T00:00:00Z"}"#,
                                  #"{"token":"t","tour":"x","bundles":[],"expires":"2026-01-01T00:00:00Z","keys":[{"bundle":"b","keyId":"k","ephemeral":"AAAA","sealed":"AAAA"}]}"#],
            "download-manifest": [#"{"schemaVersion":1,"tenant":"x","release":1,"format":"zip","minimumClientVersion":"1.0.0","bundles":[{"id":"a"}]}"#],
            // A page whose start and offset would overflow when added, and a table with pages out of order.
            "file-index": [#"{"archive":{"sha256":"\#(String(repeating: "a", count: 64))","size":10},"bundle":"b","pages":[{"count":1,"length":80,"sha256":"\#(String(repeating: "b", count: 64))","start":9223372036854775807}],"schemaVersion":1}"# + "\n"
                           + #"{"entries":[["x","\#(String(repeating: "0", count: 64))",1,9223372036854775807,1,"stored"]]}"# + "\n",
                           #"{"archive":{"sha256":"\#(String(repeating: "a", count: 64))","size":10},"bundle":"b","pages":[],"schemaVersion":1}"# + "\n" + "trailing"],
            "encrypted-bundle": ["LVRYENC\u{1}\u{0}\u{0}\u{4}\u{0}", "LVRYENC\u{1}\u{ff}\u{ff}\u{ff}\u{ff}0123456789abcdef"],
            // An end record alone (no entries), and one claiming entries past the end of the file.
            "zip-bundle": ["PK\u{5}\u{6}" + String(repeating: "\u{0}", count: 18),
                           "PK\u{5}\u{6}\u{0}\u{0}\u{0}\u{0}\u{ff}\u{ff}\u{ff}\u{ff}\u{ff}\u{ff}\u{ff}\u{7f}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}"],
            // A huge Content-Length, a body that is not JSON, a good message followed by a bad header, a bare CR.
            "lsp-framing": ["Content-Length: 99999999999\r\n\r\n", "Content-Length: 5\r\n\r\nhello", "Content-Length: 3\r\n\r\n[1]Content-Length: x\r\n\r\n",
                            "Content-Length: 2\rX: y\r\n\r\n{}"],
        ]
        for target in ["s3-xml", "aws-ini", "redemption-answer", "download-manifest", "encrypted-bundle", "zip-bundle", "lsp-framing"] {
            let directory = folder.appendingPathComponent(target)
            for (index, text) in (hostile[target] ?? []).enumerated() {
                try Data(text.utf8).write(to: directory.appendingPathComponent("hostile-\(index)"))
            }
            let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted().map { directory.appendingPathComponent($0).path }
            XCTAssertGreaterThanOrEqual(files.count, 2, target)
            let replay = try LiveryProcess.tool([harness.path, "replay", "--target", target] + files)
            XCTAssertEqual(replay.status, 0, "\(target): \(replay.stdout)")
            XCTAssertEqual(replay.stdout.split(separator: "\n").filter { $0.hasSuffix(": ok") }.count, files.count, replay.stdout)
        }
        XCTAssertEqual(try LiveryProcess.tool([harness.path, "replay", "--target", "nope", "x"]).status, 2)
    }
}
