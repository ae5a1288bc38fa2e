import Foundation
@testable import LiveryPublish
import LiverySign
import LiveryReleaseFormat
import XCTest

/// The library entry points the channel commands print (`ReleaseListing`, `ChannelSession`, `ReleaseSelector`,
/// `StoreDoctor.Checkup`), in process: the values, their text and JSON, and the refusals that need no release.
/// ChannelTests drives the same commands end to end through the binary.
final class ChannelEntryPointTests: XCTestCase {
    private static let listing = ReleaseListing(tenant: "urbannest", channels: [
        .init(channel: "stable", releases: [
            .init(release: 3, manifestSha256: "c3", state: .current, origin: "rollback", published: "2026-05-03T10:00:00Z", bytes: 2_400_000,
                  update: .init(whole: 40_000, delta: 3_000), rolloutBasisPoints: nil, fromChannel: "beta", fromRelease: 1, reason: "Start \"confuses\" users"),
            .init(release: 2, manifestSha256: "b2", state: .replaced, origin: "promotion", published: "2026-05-02T10:00:00Z", bytes: nil,
                  update: nil, rolloutBasisPoints: 1_000, fromChannel: "beta", fromRelease: 2, reason: nil),
        ]),
        .init(channel: "beta", releases: [
            .init(release: 4, manifestSha256: "d4", state: .staged, origin: "build", published: "2026-05-04T10:00:00Z", bytes: 512,
                  update: nil, rolloutBasisPoints: 1_250, fromChannel: nil, fromRelease: nil, reason: nil),
            .init(release: 1, manifestSha256: "a1", state: .halted, origin: "build", published: "2026-05-01T10:00:00Z", bytes: 512,
                  update: nil, rolloutBasisPoints: 500, fromChannel: nil, fromRelease: nil, reason: nil),
        ]),
    ])

    func testReleaseListingTextMarksCurrentAndStagedAndSaysRolloutOriginUpdateAndReason() {
        XCTAssertEqual(Self.listing.text, """
            stable:
            * 3  2026-05-03T10:00:00Z  2.4 MB  everyone  rollback to 1  update 3.0 KB by delta (40.0 KB whole)  "Start "confuses" users"
              2  2026-05-02T10:00:00Z  -  everyone (after 10%)  promoted from beta 2
            beta:
            ~ 4  2026-05-04T10:00:00Z  512 bytes  12.5% (in progress)  build
              1  2026-05-01T10:00:00Z  512 bytes  halted at 5%  build

            """)
    }

    func testReleaseListingJSONIsSortedCompactLeavesOutWhatIsUnknownAndDecodesBackIntoTheSameValue() throws {
        let json = Self.listing.json
        let text = String(decoding: json, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix(#"{"channels":[{"channel":"stable","releases":[{"bytes":2400000,"fromChannel":"beta","fromRelease":1,"#), text)
        XCTAssertTrue(text.hasSuffix("}\n"), text)
        XCTAssertFalse(text.contains(#""bytes":null"#), "absent values are left out, not null")
        XCTAssertEqual(try JSONDecoder().decode(ReleaseListing.self, from: json), Self.listing)
    }

    func testReleaseListingOfATenantWithoutReleasesIsRefusedNamingTheFolder() throws {
        let output = try temporaryFolder()
        XCTAssertThrowsError(try ReleaseListing.read(tenant: "nobody", output: output)) { error in
            XCTAssertEqual("\(error)", "'nobody' has no releases in \(output.path)")
        }
    }

    func testChannelSessionRefusesATenantWithoutReleasesBeforeTakingTheLock() throws {
        let output = try temporaryFolder()
        let session = ChannelSession(output: output, keys: output.appendingPathComponent("keys"))
        XCTAssertThrowsError(try session.promote(tenant: "nobody", from: .stable, to: ReleaseChannel("beta")!, release: nil, rollout: nil, reason: nil)) { error in
            XCTAssertEqual("\(error)", "'nobody' has no releases in \(output.path): build it first")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.appendingPathComponent(".livery").path), "nothing written, no lock file")
    }

    func testChannelOutcomesSayWhatWasPublished() throws {
        let beta = try XCTUnwrap(ReleaseChannel("beta")), tenth = try XCTUnwrap(RolloutStage(basisPoints: 1_000))
        XCTAssertEqual(ChannelSession.Promotion(tenant: "t", from: beta, to: .stable, rollout: tenth, source: 4, release: 4, sameManifest: true).summary,
                       "t: promoted beta release 4 to 10% of stable's devices as release 4 (the same manifest)")
        XCTAssertEqual(ChannelSession.Promotion(tenant: "t", from: beta, to: .stable, rollout: nil, source: 2, release: 5, sameManifest: false).summary,
                       "t: promoted beta release 2 to stable as release 5 (the same bundles, renumbered: stable had a release as new)")
        XCTAssertEqual(ChannelSession.Rollback(tenant: "t", channel: .stable, content: 1, release: 6).summary,
                       "t: rolled stable back to the content of release 1, published as release 6")
        XCTAssertEqual(ChannelSession.RolloutOutcome(tenant: "t", channel: .stable, change: .share(tenth), release: 7).summary,
                       "t: release 7 goes to 10% of stable's devices")
        XCTAssertEqual(ChannelSession.RolloutOutcome(tenant: "t", channel: .stable, change: .complete, release: 7).summary,
                       "t: release 7 is stable's release for every device")
        XCTAssertEqual(ChannelSession.RolloutOutcome(tenant: "t", channel: beta, change: .halt, release: 7).summary,
                       "t: rollout of release 7 on beta halted; devices that took it keep it")
    }

    func testReleaseSelectorTakesAWholeNumberAsAReleaseAndAnythingElseAsAFolder() throws {
        XCTAssertEqual(ReleaseSelector("12"), .number(12))
        XCTAssertEqual(ReleaseSelector("Output-old"), .folder("Output-old"))
        XCTAssertEqual(ReleaseSelector("1.5"), .folder("1.5"))
        let output = try temporaryFolder()
        XCTAssertThrowsError(try ReleaseSelector("elsewhere").locate(tenant: "t", channel: .stable, output: output)) { error in
            XCTAssertEqual("\(error)", "'elsewhere' is neither a release number nor an output folder with a stable release of t")
        }
    }

    func testStoreCheckupTextListsWhatWasDoneThenTheCountsAndFailsWhileDamageIsLeft() {
        var report = StoreDoctor.Report()
        report.objectsChecked = 3
        report.targetsChecked = 2
        report.bytesRead = 2_048
        XCTAssertEqual(StoreDoctor.Checkup(repair: nil, report: report).text, "checked 3 stored objects and 2 published targets (2.0 KB): 0 damaged, 0 stale\n")
        XCTAssertFalse(StoreDoctor.Checkup(repair: nil, report: report).failed)
        var repair = StoreDoctor.Repair()
        repair.removedObjects = [".livery/store/ab/cd"]
        repair.droppedTargets = ["t/targets/x.zip"]
        let checkup = StoreDoctor.Checkup(repair: repair, report: report)
        XCTAssertEqual(checkup.text, """
            removed .livery/store/ab/cd
            dropped t/targets/x.zip (a previous release's; the sources now build the current one)
            checked 3 stored objects and 2 published targets (2.0 KB): 0 damaged, 0 stale

            """)
        XCTAssertFalse(checkup.failed)
    }

    private func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("livery-channel-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }
}
