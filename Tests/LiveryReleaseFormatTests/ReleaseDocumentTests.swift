import Foundation
import XCTest
import LiveryReleaseFormat

/// The release's own documents (download manifest, release pointer, redemption answer) are read
/// strictly and written deterministically by one type each, which signer, server and client share.
final class ReleaseDocumentTests: XCTestCase {
    let manifest = DownloadManifest(tenant: "urbannest", release: 3, format: .zip, minimumClientVersion: "1.0.0", bundles: [
        .init(id: "core", kind: .core, subject: nil, locale: nil, size: 10, sha256: String(repeating: "a", count: 64), path: "targets/x.core.zip",
              policy: .essential, access: .public, dependencies: [], minimumClientVersion: "1.0.0"),
        .init(id: "tour.old-town", kind: .tour, subject: "old-town", locale: nil, size: 20, sha256: String(repeating: "b", count: 64),
              path: "targets/y.tour.old-town.zip", policy: .onDemand, access: .voucher, dependencies: ["core"], minimumClientVersion: "1.0.0"),
    ])

    func testTheManifestRoundTripsThroughItsWriterAndReader() throws {
        XCTAssertEqual(try DownloadManifest(data: manifest.bytes), manifest)
        XCTAssertEqual(manifest.bundles[1].targetName(format: .zip), "tour.old-town.zip")
    }

    func testAManifestWithAnyFieldWrongIsRefusedNamingIt() throws {
        func edited(_ change: (inout [String: JSONValue], inout [String: JSONValue]) -> Void) -> Data {
            var top = manifest.json.objectValue!
            var bundles = top["bundles"]!.arrayValue!
            var first = bundles[0].objectValue!
            change(&top, &first)
            bundles[0] = .object(first)
            top["bundles"] = .array(bundles)
            return JSONValue.object(top).bytes
        }
        let cases: [(String, Data)] = [
            ("schemaVersion", edited { top, _ in top["schemaVersion"] = .int(2) }),
            ("release", edited { top, _ in top["release"] = .int(0) }),
            ("format", edited { top, _ in top["format"] = .string("rar") }),
            ("kind", edited { _, bundle in bundle["kind"] = .string("movie") }),
            ("size", edited { _, bundle in bundle["size"] = .string("10") }),
            ("sha256", edited { _, bundle in bundle.removeValue(forKey: "sha256") }),
            ("dependencies", edited { _, bundle in bundle["dependencies"] = .array([.int(1)]) }),
            ("twice", edited { _, bundle in bundle["id"] = .string("tour.old-town") }),
        ]
        for (field, data) in cases {
            XCTAssertThrowsError(try DownloadManifest(data: data), field) { error in
                XCTAssertEqual((error as? TUFError)?.kind, .malformed, field)
                XCTAssertTrue("\(error)".contains(field), "\(field): \(error)")
            }
        }
        XCTAssertThrowsError(try DownloadManifest(data: Data("[]".utf8)))
    }

    func testThePointerAndTheRedemptionAnswerRoundTrip() throws {
        let pointer = ReleasePointer(tenant: "urbannest", release: 3, manifest: "targets/abc.download-manifest.json", sha256: "abc")
        XCTAssertEqual(try ReleasePointer(data: pointer.json.bytes), pointer)
        XCTAssertThrowsError(try ReleasePointer(data: Data(#"{"tenant":"u","release":"3","manifest":"m","sha256":"s"}"#.utf8)))
        let answer = RedemptionAnswer(token: "t", subject: VoucherSubject(.tour, "old-town"), bundles: ["tour.old-town"], expires: Date(timeIntervalSince1970: 1_800_000_000.7))
        XCTAssertEqual(try RedemptionAnswer(data: answer.json.bytes), answer)
        XCTAssertEqual(answer.json["tour"], .string("old-town"), "a tour's answer still names it for older clients")
        XCTAssertEqual(answer.json["subject"], .string("tour:old-town"))
        let program = RedemptionAnswer(token: "t", subject: VoucherSubject(.program, "strength"), bundles: ["program.strength"], expires: Date(timeIntervalSince1970: 1_800_000_000))
        XCTAssertEqual(try RedemptionAnswer(data: program.json.bytes), program)
        XCTAssertNil(program.json["tour"])
        // An answer from a server that predates subjects: read as a tour.
        XCTAssertEqual(try RedemptionAnswer(data: Data(#"{"token":"t","tour":"x","bundles":[],"expires":"2027-01-15T08:00:00Z"}"#.utf8)).subject, VoucherSubject(.tour, "x"))
        XCTAssertThrowsError(try RedemptionAnswer(data: Data(#"{"token":"t","subject":"movie:x","bundles":[],"expires":"2027-01-15T08:00:00Z"}"#.utf8)))
        XCTAssertEqual(answer.json["expires"], .string("2027-01-15T08:00:00Z"))
        XCTAssertThrowsError(try RedemptionAnswer(data: Data(#"{"token":"t","tour":"x","bundles":[],"expires":"tomorrow"}"#.utf8)))
    }
}
