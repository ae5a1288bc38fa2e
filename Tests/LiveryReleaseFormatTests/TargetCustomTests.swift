import Foundation
import LiveryReleaseFormat
import XCTest

/// `TargetCustom`, Livery's `custom` of a target: what the signer writes reads back the same, a
/// field of the wrong type or an unknown kind is refused, and fields it does not know survive.
final class TargetCustomTests: XCTestCase {
    func testWhatTheSignerWritesReadsBackTheSame() throws {
        let tour = TargetCustom.bundle(.init(id: "tour.rome", kind: .tour, policy: .onDemand, access: .voucher, subject: "rome"))
        XCTAssertEqual(String(decoding: try CanonicalJSON.encode(tour.json), as: UTF8.self),
                       #"{"access":"voucher","bundle":"tour.rome","kind":"tour","policy":"on-demand","subject":"rome"}"#)
        XCTAssertEqual(try TargetCustom(json: tour.json), tour)
        XCTAssertTrue(tour.isProtected)
        XCTAssertEqual(tour.bundle?.tour, "rome")
        let language = TargetCustom.bundle(.init(id: "locale.fr", kind: .locale, policy: .essential, access: .public, locale: "fr"))
        XCTAssertEqual(try TargetCustom(json: language.json), language)
        XCTAssertNil(language.bundle?.tour)
        let manifest = TargetCustom.downloadManifest(release: 3)
        XCTAssertEqual(manifest.json, .object(["kind": .string("download-manifest"), "release": .int(3)]))
        XCTAssertEqual(try TargetCustom(json: manifest.json), manifest)
        XCTAssertFalse(manifest.isProtected)
    }

    func testFieldsOfTheWrongTypeAndUnknownKindsAreRefused() {
        let good: [String: JSONValue] = ["kind": .string("tour"), "bundle": .string("tour.rome"), "policy": .string("on-demand"), "access": .string("voucher")]
        var cases: [(String, JSONValue)] = [("not an object", .string("tour"))]
        for (key, value) in [("access", JSONValue.string("paid")), ("access", .bool(true)), ("kind", .string("video")), ("policy", .string("later")),
                             ("subject", .int(1)), ("bundle", .null)] {
            var fields = good
            fields[key] = value
            cases.append(("\(key): \(value)", .object(fields)))
        }
        for key in ["kind", "bundle", "policy", "access"] {
            var fields = good
            fields[key] = nil
            cases.append(("no \(key)", .object(fields)))
        }
        cases.append(("manifest without release", .object(["kind": .string("download-manifest")])))
        cases.append(("manifest release as text", .object(["kind": .string("download-manifest"), "release": .string("1")])))
        for (what, json) in cases {
            XCTAssertThrowsError(try TargetCustom(json: json), what) { error in
                XCTAssertEqual((error as? TUFError)?.kind, .malformed, what)
            }
        }
    }

    func testFieldsItDoesNotKnowAreKeptAndWrittenBack() throws {
        let json = JSONValue.object(["kind": .string("program"), "bundle": .string("program.x"), "policy": .string("prefetch"),
                                     "access": .string("public"), "subject": .string("x"), "duration": .int(1800)])
        let custom = try TargetCustom(json: json)
        XCTAssertEqual(custom.unrecognized, ["duration": .int(1800)])
        XCTAssertEqual(custom.json, json)
    }
}
