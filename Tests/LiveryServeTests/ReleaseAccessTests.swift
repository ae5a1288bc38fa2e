import Foundation
import LiveryServe
import LiverySign
import LiveryReleaseFormat
import XCTest

/// `ReleaseAccess`, what `livery serve` protects, read from hand-made metadata (no build, no
/// server): delegated roles count as clients resolve them, and doubt means protection or refusal.
final class ReleaseAccessTests: XCTestCase {
    let expires = Date().addingTimeInterval(86_400)

    func sha(_ n: Int) -> String { String(repeating: String(n), count: 64) }

    func tour(_ id: String, access: Access = .voucher) -> JSONValue {
        TargetCustom.bundle(.init(id: "tour.\(id)", kind: .tour, policy: .onDemand, access: access, subject: id)).json
    }

    /// Writes unsigned metadata (serve does not check signatures) for targets and delegated roles, by name.
    func release(targets: [String: JSONValue], delegated: [String: [String: JSONValue]], delegatedPaths: [String: [String]],
                 extraFiles: [String: JSONValue] = [:]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("release-access-\(UUID().uuidString)")
        let metadata = folder.appendingPathComponent("metadata")
        try FileManager.default.createDirectory(at: metadata, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        func write(_ signed: JSONValue, _ name: String) throws {
            try CanonicalJSON.encode(SignedMetadata(signed: signed).json).write(to: metadata.appendingPathComponent(name))
        }
        let roles = delegatedPaths.keys.sorted().map { DelegatedRole(name: $0, keyIDs: [sha(9)], paths: delegatedPaths[$0]) }
        try write(TUFDocument.targets(version: 2, expires: expires, targets: targets,
                                      delegations: roles.isEmpty ? nil : Delegations(keys: [:], roles: roles)), "2.targets.json")
        var meta: [String: MetaFile] = [:]
        for (role, entries) in delegated {
            try write(TUFDocument.targets(version: 3, expires: expires, targets: entries), "3.\(TUFName.quoted(role)).json")
            meta[role] = MetaFile(version: 3)
        }
        for (name, signed) in extraFiles { try write(signed, name) }
        try write(TUFDocument.snapshot(version: 4, expires: expires, targets: MetaFile(version: 2), delegated: meta), "4.snapshot.json")
        try write(TUFDocument.timestamp(version: 5, expires: expires, snapshot: MetaFile(version: 4)), "timestamp.json")
        return folder
    }

    func target(_ n: Int, custom: JSONValue?) -> JSONValue { TUFDocument.target(length: 10, sha256: sha(n), custom: custom) }

    /// During a staged rollout the channel signs the tour twice (`tour.a.zip` and `staged/tour.a.zip`):
    /// both files are protected, and the current one stays what redemption answers deliver.
    func testAStagedCopyIsProtectedButNeverReplacesTheCurrentDelivery() throws {
        let folder = try release(
            targets: ["download-manifest.json": target(1, custom: TargetCustom.downloadManifest(release: 1).json), "tour.a.zip": target(2, custom: tour("a")),
                      "staged/download-manifest.json": target(3, custom: TargetCustom.downloadManifest(release: 2, provenance: nil, rollout: RolloutStage(basisPoints: 1000)).json),
                      "staged/tour.a.zip": target(4, custom: tour("a"))],
            delegated: [:], delegatedPaths: [:], extraFiles: [:])
        let access = try XCTUnwrap(try ReleaseAccess.read(tenant: folder))
        XCTAssertEqual(access.deliveries["tour.a"]?.file, "\(sha(2)).tour.a.zip")
        XCTAssertEqual(access.target(file: "\(sha(2)).tour.a.zip")?.subject, VoucherSubject(.tour, "a"))
        XCTAssertEqual(access.target(file: "\(sha(4)).tour.a.zip")?.subject, VoucherSubject(.tour, "a"), "the staged file wants a token too")
        XCTAssertEqual(access.subjects[VoucherSubject(.tour, "a")]?.bundles, ["tour.a"])
    }

    func testADelegatedRolesVoucherTourIsProtectedAndWhatNoClientResolvesIsProtectedByHashOnly() throws {
        let folder = try release(
            targets: ["download-manifest.json": target(1, custom: TargetCustom.downloadManifest(release: 1).json), "tour.b.zip": target(2, custom: tour("b", access: .public))],
            delegated: [
                "guides": ["tour.a.zip": target(3, custom: tour("a")), "core.zip": target(4, custom: tour("c"))],  // core.zip: outside its paths
                "retired": ["tour.d.zip": target(5, custom: tour("d"))],  // listed by the snapshot, no longer delegated
            ],
            delegatedPaths: ["guides": ["tour.*"]],
            extraFiles: ["2.guides.json": TUFDocument.targets(version: 2, expires: expires, targets: ["tour.old.zip": target(6, custom: tour("old"))])])
        let access = try XCTUnwrap(try ReleaseAccess.read(tenant: folder))
        let a = try XCTUnwrap(access.target(file: "\(sha(3)).tour.a.zip"))
        XCTAssertEqual(a.bundle, "tour.a")
        XCTAssertEqual(a.subject, VoucherSubject(.tour, "a"))
        XCTAssertEqual(access.subjects[VoucherSubject(.tour, "a")]?.isProtected, true)
        XCTAssertEqual(access.subjects[VoucherSubject(.tour, "a")]?.bundles, ["tour.a"])
        XCTAssertEqual(access.subjects[VoucherSubject(.tour, "b")]?.isProtected, false)
        XCTAssertNil(access.target(file: "\(sha(2)).tour.b.zip"))
        XCTAssertNil(access.target(file: "\(sha(1)).download-manifest.json"))
        // No client finds core.zip in the role, nor anything in a retired role: not tours of the
        // release, but their voucher bytes stay protected, as do an older role version's.
        XCTAssertNil(access.subjects[VoucherSubject(.tour, "c")])
        XCTAssertNil(access.subjects[VoucherSubject(.tour, "d")])
        XCTAssertEqual(access.target(file: "\(sha(4)).core.zip")?.isProtected, true)
        XCTAssertEqual(access.target(file: "\(sha(5)).tour.d.zip")?.subject, VoucherSubject(.tour, "d"))
        XCTAssertEqual(access.target(file: "\(sha(6)).tour.old.zip")?.subject, VoucherSubject(.tour, "old"))
    }

    func testAMalformedCustomOrAMissingRoleFileMakesTheReleaseUnreadable() throws {
        var bad = tour("a").objectValue!
        bad["access"] = .string("subscribers")
        let malformed = try release(targets: [:], delegated: ["guides": ["tour.a.zip": target(3, custom: .object(bad))]], delegatedPaths: ["guides": ["tour.*"]])
        XCTAssertThrowsError(try ReleaseAccess.read(tenant: malformed)) { error in
            XCTAssertTrue("\(error)".contains("subscribers"), "\(error)")
        }
        let missing = try release(targets: [:], delegated: ["guides": ["tour.a.zip": target(3, custom: tour("a"))]], delegatedPaths: ["guides": ["tour.*"]])
        try FileManager.default.removeItem(at: missing.appendingPathComponent("metadata/3.guides.json"))
        XCTAssertThrowsError(try ReleaseAccess.read(tenant: missing)) { error in
            XCTAssertTrue("\(error)".contains("3.guides.json"), "\(error)")
        }
    }
}
