import Foundation
import LiveryObjectStore
import LiveryTestSupport
import XCTest

/// What a publish says and sets apart from the store itself, in process: the failures of several tenants one line per
/// cause, and the anonymous-read policy `--public-read` gives a new bucket.
final class PublishFailuresTests: XCTestCase {
    /// The policy `--public-read` sets is the one docs/operations.md shows (for its example bucket and prefix).
    func testThePublicReadPolicyIsTheOneTheOperationsPageShows() throws {
        let page = try String(contentsOf: LiveryProcess.packageRoot.appendingPathComponent("docs/operations.md"), encoding: .utf8)
        let block = try XCTUnwrap(page.components(separatedBy: "```json\n").dropFirst().first?.components(separatedBy: "```").first)
        let documented = try JSONSerialization.jsonObject(with: Data(block.utf8)) as? NSDictionary
        let made = try JSONSerialization.jsonObject(with: BucketSetup.anonymousReadPolicy(for: S3Location(bucket: "example-livery", prefix: "apps"))) as? NSDictionary
        XCTAssertEqual(made, documented)
        let unprefixed = String(decoding: BucketSetup.anonymousReadPolicy(for: S3Location(bucket: "b", prefix: "")), as: UTF8.self)
        XCTAssertTrue(unprefixed.contains(#""arn:aws:s3:::b/*/metadata/*""#), unprefixed)
    }

    /// Tenants that fail for one cause share one line that names them; other causes keep a line each.
    func testPublishFailuresAreOneLinePerCause() {
        let denied = { (tenant: String) in
            S3Error.status(403, code: "AccessDenied", message: "", request: "PUT s3://b/apps/\(tenant)/.livery-publish.lock")
        }
        let lines = PublishFailures.lines([
            (tenant: "urbannest", error: denied("urbannest")),
            (tenant: "companero", error: denied("companero")),
            (tenant: "sonic-walkscape", error: S3Error.integrity("s3://b/apps/sonic-walkscape/metadata/timestamp.json is at version 7")),
            (tenant: "physio-clinic", error: denied("physio-clinic")),
        ])
        XCTAssertEqual(lines, [
            "HTTP 403 AccessDenied, for 3 tenants (companero, physio-clinic, urbannest); the first request refused: PUT s3://b/apps/companero/.livery-publish.lock",
            "sonic-walkscape: s3://b/apps/sonic-walkscape/metadata/timestamp.json is at version 7",
        ])
        // A store holding another build's releases (a fresh folder's first build published over the bucket) is one
        // cause, whatever the versions; a single tenant keeps the whole message.
        let foreign = { (tenant: String, store: Int, local: Int) in
            ForeignRelease(timestamp: "s3://b/apps/\(tenant)/metadata/timestamp.json", storeVersion: store, localVersion: local)
        }
        XCTAssertEqual(PublishFailures.lines([(tenant: "urbannest", error: foreign("urbannest", 3, 1)), (tenant: "companero", error: foreign("companero", 1, 1))]), [
            "another build published newer or different releases than this output folder holds, for 2 tenants (companero, urbannest): "
                + "publish from the folder that made them, or build again after fetching their metadata; "
                + "the first: s3://b/apps/companero/metadata/timestamp.json is at version 1, as this release's timestamp is, with other bytes",
        ])
        XCTAssertEqual(PublishFailures.lines([(tenant: "urbannest", error: foreign("urbannest", 7, 6))]), [
            "urbannest: s3://b/apps/urbannest/metadata/timestamp.json is at version 7, and this release's timestamp is at 6: "
                + "another build published a newer or different release of this tenant; publish from the folder that made it, or build again after fetching its metadata",
        ])
    }
}
