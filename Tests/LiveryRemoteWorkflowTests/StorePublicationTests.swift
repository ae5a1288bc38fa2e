import Foundation
import LiveryObjectStore
import LiveryRemoteWorkflow
import LiverySign
import LiveryTestSupport
import LiveryWorkflow
import XCTest

/// The multi-tenant publish fan-out in process, against a real S3 store (Ceph RGW, scripts/s3-server.sh) and the
/// samples built once, in process too.
final class StorePublicationTests: XCTestCase {
    // The store and the built samples for the class, made before its first test on the main thread (Foundation's
    // Process is not used from the async tests' cooperative threads, where waiting blocks).
    nonisolated(unsafe) static var shared: Result<(server: S3ServerFixture, workspace: SampleWorkspace), Error>?

    override class func setUp() {
        super.setUp()
        shared = Result {
            let server = try S3ServerFixture()
            let workspace = try SampleWorkspace()
            let keys = KeyStore(root: workspace.root.appendingPathComponent(".livery-keys"))
            let built = try ReleaseBuilder.build(workspace: workspace.tenants, displayRoot: "Tenants", output: workspace.output, options: BuildOptions(keys: keys))
            guard !built.validationFailed, built.failures.isEmpty else { throw S3ServerFixture.Failure("the samples did not build: \(built.failures)") }
            return (server, workspace)
        }
    }

    override class func tearDown() {
        if case .success(let fixture) = shared { fixture.server.stop() }
        shared = nil
        super.tearDown()
    }

    static let tenants = ["companero", "companero-lucia", "physio-clinic", "sonic-walkscape", "travel-experiences", "urbannest"]

    func fixture() throws -> (server: S3ServerFixture, workspace: SampleWorkspace) {
        guard let shared = Self.shared else { throw S3ServerFixture.Failure("the S3 server was not started") }
        return try shared.get()
    }

    func client(_ server: S3ServerFixture) -> S3Client {
        S3Client(configuration: S3Configuration(endpoint: URL(string: server.endpoint)!, region: "us-east-1",
                                                credentials: AWSCredentials(accessKeyID: server.accessKey, secretAccessKey: server.secretKey),
                                                addressing: .path))
    }

    /// The events of one publication, in order.
    final class Events: @unchecked Sendable {
        private let lock = NSLock()
        private var all: [StorePublication.Event] = []
        func append(_ event: StorePublication.Event) { lock.withLock { all.append(event) } }
        var recorded: [StorePublication.Event] { lock.withLock { all } }
        var notUploads: [StorePublication.Event] { recorded.filter { if case .upload = $0 { false } else { true } } }
    }

    /// Every tenant and channel of the output folder goes up, the bucket made once; a second run finds every one unchanged.
    func testEveryRepositoryIsPublishedOnceAndARerunFindsThemUnchanged() async throws {
        let (server, workspace) = try fixture()
        let publication = StorePublication(client: client(server), location: S3Location(bucket: "fan-out", prefix: "apps"), bucket: BucketSetup(create: true))
        let events = Events()
        let first = try await publication.publish(tenants: [], output: workspace.output, onEvent: { events.append($0) })
        XCTAssertEqual(first.failures.count, 0, first.failureLines.joined(separator: "\n"))
        XCTAssertEqual(first.tenantCount, Self.tenants.count)
        XCTAssertEqual(first.outcomes.map(\.tenant), try StorePublication.repositories(tenants: [], output: workspace.output))
        XCTAssertEqual(first.outcomes.map(\.tenant).filter { !$0.contains("/") }, Self.tenants)
        XCTAssertGreaterThan(first.uploaded, 0)
        XCTAssertEqual(first.unchanged, 0)
        XCTAssertEqual(events.notUploads, [.bucketCreated(bucket: "fan-out", publicRead: false)])
        let started = events.recorded.filter { if case .upload(.started) = $0 { true } else { false } }
        XCTAssertEqual(started.count, first.outcomes.count, "every repository's uploads reported")

        let again = try await publication.publish(tenants: [], output: workspace.output)
        XCTAssertEqual(again.failures.count, 0)
        XCTAssertEqual(again.unchanged, again.outcomes.count)
        XCTAssertEqual(again.uploaded, 0)
    }

    /// Tenants the store refuses for one cause (each holds another build's timestamp, as when a fresh output folder's
    /// build is published over a bucket) are one line naming them; the other repositories still publish.
    func testTenantsRefusedForOneCauseAreOneLineNamingThem() async throws {
        let (server, workspace) = try fixture()
        let client = client(server)
        let location = S3Location(bucket: "forked", prefix: "x")
        let publication = StorePublication(client: client, location: location, bucket: BucketSetup(create: true))
        let first = try await publication.publish(tenants: [], output: workspace.output)
        XCTAssertEqual(first.failures.count, 0)
        // The same version with other bytes: another build's release.
        for tenant in Self.tenants {
            let key = location.key("\(tenant)/metadata/timestamp.json")
            let ours = try Data(contentsOf: workspace.output.appendingPathComponent("\(tenant)/metadata/timestamp.json"))
            _ = try await client.put(bucket: "forked", key: key, body: ours + Data("\n".utf8), options: S3PutOptions(contentType: "application/json"))
        }
        let report = try await publication.publish(tenants: [], output: workspace.output)
        XCTAssertEqual(report.failures.map(\.tenant), Self.tenants)
        XCTAssertEqual(report.failureLines, [
            "another build published newer or different releases than this output folder holds, for 6 tenants (\(Self.tenants.joined(separator: ", "))): "
                + "publish from the folder that made them, or build again after fetching their metadata; "
                + "the first: s3://forked/x/companero/metadata/timestamp.json is at version 1, as this release's timestamp is, with other bytes",
        ])
        // Only the tenants' stable repositories were forked: any channel's publishes (unchanged).
        XCTAssertTrue(report.outcomes.allSatisfy { $0.tenant.contains("/channels/") && $0.unchanged }, "\(report.outcomes)")
    }

    /// What stops a publication before any upload: a missing bucket (once, not per tenant; a dry run never creates it)
    /// and a tenant named without a release.
    func testAMissingBucketAndATenantWithoutAReleaseStopItBeforeAnyUpload() async throws {
        let (server, workspace) = try fixture()
        let client = client(server)
        var publication = StorePublication(client: client, location: S3Location(bucket: "absent", prefix: "apps"))
        do {
            _ = try await publication.publish(tenants: [], output: workspace.output)
            XCTFail("published to a missing bucket")
        } catch let missing as MissingBucket {
            XCTAssertEqual(missing.bucket, "absent")
        }
        publication.bucket = BucketSetup(create: true)
        publication.options.dryRun = true
        do {
            _ = try await publication.publish(tenants: ["urbannest"], output: workspace.output)
            XCTFail("a dry run made the bucket")
        } catch is MissingBucket {}
        let exists = try await client.bucketExists("absent")
        XCTAssertFalse(exists)

        publication.options.dryRun = false
        do {
            _ = try await publication.publish(tenants: ["urbannest", "nobody"], output: workspace.output)
            XCTFail("published a tenant without a release")
        } catch let refusal as StorePublication.Refusal {
            XCTAssertEqual(refusal.description, "\(workspace.output.path)/nobody holds no release: build it first")
        }
        let created = try await client.bucketExists("absent")
        XCTAssertFalse(created, "refused before the bucket was made")
    }

    /// A dry run says what would go up and uploads nothing.
    func testADryRunCountsWhatWouldGoUpAndUploadsNothing() async throws {
        let (server, workspace) = try fixture()
        let client = client(server)
        try await client.createBucket("dry")
        var publication = StorePublication(client: client, location: S3Location(bucket: "dry", prefix: "apps"))
        publication.options.dryRun = true
        let report = try await publication.publish(tenants: ["physio-clinic"], output: workspace.output)
        XCTAssertEqual(report.outcomes.map(\.tenant), ["physio-clinic"])
        XCTAssertGreaterThan(report.uploaded, 0)
        let listed = try await client.list(bucket: "dry", prefix: "apps/")
        XCTAssertEqual(listed.count, 0)
    }
}
