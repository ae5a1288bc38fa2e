import Crypto
import Foundation
import LiveryEncoding
import LiveryObjectStore
import LiveryPublish
import LiveryTestSupport
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `livery publish` against a real S3 server (Ceph RGW), checked by boto3 and python-tuf.
final class ObjectStoreTests: XCTestCase {
    // One server for the class, started before its first test on the main thread (Foundation's
    // Process is not used from the async tests' cooperative threads, where waiting blocks).
    nonisolated(unsafe) static var shared: Result<S3ServerFixture, Error>?

    override class func setUp() {
        super.setUp()
        shared = Result { try S3ServerFixture() }
    }

    override class func tearDown() {
        if case .success(let server) = shared { server.stop() }
        shared = nil
        super.tearDown()
    }

    func server() throws -> S3ServerFixture {
        guard let shared = Self.shared else { throw S3ServerFixture.Failure("the S3 server was not started") }
        return try shared.get()
    }

    func publish(_ workspace: BuildTests.Workspace, _ server: S3ServerFixture, to destination: String, _ extra: [String] = []) throws -> LiveryProcess.Output {
        try LiveryProcess.run(["publish", "--output", "Output", "--to", destination] + extra, in: workspace.root, environment: server.environment)
    }

    /// A plain GET, as an app or a CDN would make it: the body and the status.
    static func get(_ url: URL) throws -> (body: Data, status: Int) {
        try blocking {
            let (body, response) = try await URLSession(configuration: .ephemeral).data(from: url)
            return (body, (response as? HTTPURLResponse)?.statusCode ?? 0)
        }
    }

    static let tenants = ["companero", "companero-lucia", "physio-clinic", "sonic-walkscape", "travel-experiences", "urbannest"]

    /// The first publish to an empty server: a missing bucket is one refusal (not one line per tenant) that says how
    /// to create it, and nothing is written; `--create-bucket --public-read` creates it with the policy
    /// docs/operations.md gives, after which apps read it anonymously. A bucket created without the policy refuses
    /// anonymous reads, and `livery fetch` says so ("access refused", with the address), not "timestamp.json is missing".
    func testAMissingBucketIsOneRefusalAndCreateBucketWithPublicReadMakesItReadable() throws {
        let server = try server()
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)

        let missing = try publish(workspace, server, to: "s3://first-hour/apps")
        XCTAssertEqual(missing.status, 2, missing.stdout + missing.stderr)
        XCTAssertEqual(missing.stderr.split(separator: "\n").map(String.init),
                       ["Error: bucket 'first-hour' does not exist on \(server.endpoint): add --create-bucket to create it "
                        + "(and --public-read to let apps read releases anonymously, docs/operations.md#making-the-bucket-readable)"])
        XCTAssertFalse(try blocking { try await server.client().bucketExists("first-hour") })
        // --dry-run never creates it either.
        let dry = try publish(workspace, server, to: "s3://first-hour/apps", ["--create-bucket", "--dry-run"])
        XCTAssertEqual(dry.status, 2, dry.stderr)
        XCTAssertFalse(try blocking { try await server.client().bucketExists("first-hour") })
        // --public-read alone would change an existing bucket's policy: refused as a usage error.
        let policyOnly = try publish(workspace, server, to: "s3://first-hour/apps", ["--public-read"])
        XCTAssertEqual(policyOnly.status, 2, policyOnly.stderr)
        XCTAssertTrue(policyOnly.stderr.contains("--public-read sets the policy of a bucket --create-bucket creates"), policyOnly.stderr)

        let created = try publish(workspace, server, to: "s3://first-hour/apps", ["--create-bucket", "--public-read"])
        XCTAssertEqual(created.status, 0, created.stderr)
        XCTAssertEqual(created.stderr, "created bucket 'first-hour' with the anonymous-read policy of docs/operations.md\n")
        XCTAssertTrue(created.stdout.hasPrefix("published 6 tenants to s3://first-hour/apps: "), created.stdout)
        let fetched = try LiveryProcess.run(["fetch", "urbannest", "--server", "\(server.endpoint)/first-hour/apps", "--cache", "cache",
                                             "--root", "Output/urbannest/metadata/1.root.json"], in: workspace.root)
        XCTAssertEqual(fetched.status, 0, fetched.stderr)
        XCTAssertTrue(fetched.stdout.contains("release 1 installed"), fetched.stdout)
        // The policy lets anyone read releases, never list the bucket.
        XCTAssertEqual(try Self.get(URL(string: "\(server.endpoint)/first-hour?list-type=2")!).status, 403)
        // Once created, a second publish needs no flag and changes nothing about the bucket.
        let again = try publish(workspace, server, to: "s3://first-hour/apps", ["--create-bucket"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stderr, "")

        // Created without the policy: anonymous reads are refused, and the fetch names the refusal and the address.
        let privateBucket = try publish(workspace, server, to: "s3://first-hour-private/apps", ["--create-bucket"])
        XCTAssertEqual(privateBucket.status, 0, privateBucket.stderr)
        XCTAssertEqual(privateBucket.stderr, "created bucket 'first-hour-private'\n")
        let refused = try LiveryProcess.run(["fetch", "urbannest", "--server", "\(server.endpoint)/first-hour-private/apps", "--cache", "cache-private",
                                             "--root", "Output/urbannest/metadata/1.root.json"], in: workspace.root)
        XCTAssertEqual(refused.status, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("access refused: the server answered HTTP 403 Forbidden for \(server.endpoint)/first-hour-private/apps/urbannest/metadata/timestamp.json ("),
                      refused.stderr)
        XCTAssertFalse(refused.stderr.contains("missing"), refused.stderr)
    }

    /// Credentials the store does not accept (an earlier run's keys of the test store) make its HEAD of the bucket a 403
    /// with no body: one line that says what it may mean, not "HEAD s3://bucket: HTTP 403".
    func testABucketTheStoreWillNotDescribeIsOneLineNamingTheCredentials() throws {
        let server = try server()
        try blocking { try await server.makePublicBucket("guarded", prefix: "apps") }
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        var environment = server.environment
        environment["AWS_SECRET_ACCESS_KEY"] = "not-the-secret"
        let refused = try LiveryProcess.run(["publish", "--output", "Output", "--to", "s3://guarded/apps"], in: workspace.root, environment: environment)
        XCTAssertEqual(refused.status, 2, refused.stdout + refused.stderr)
        XCTAssertEqual(refused.stderr, "Error: \(server.endpoint) refused to say whether bucket 'guarded' exists (HTTP 403, which gives no reason): either it does not accept "
                       + "these credentials (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or the profile's; docs/operations.md#publishing-to-object-storage-livery-publish), "
                       + "or the bucket belongs to another account\n")
        XCTAssertEqual(try blocking { try await server.client().list(bucket: "guarded", prefix: "apps/") }.count, 0, "nothing was uploaded")
    }

    func testPublishedSamplesAreWhatBoto3ReadsAndPythonTUFVerifiesFromTheBucket() throws {
        let server = try server()
        try blocking { try await server.makePublicBucket("samples", prefix: "apps") }
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let first = try publish(workspace, server, to: "s3://samples/apps")
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stdout.contains("published 6 tenants to s3://samples/apps"), first.stdout)
        XCTAssertTrue(first.stdout.contains("0 unchanged"), first.stdout)

        let check = try server.oracle(["check", server.endpoint, "samples", "apps", workspace.output.path] + Self.tenants)
        XCTAssertEqual(check.status, 0, check.stderr)
        XCTAssertEqual(check.stdout.trimmingCharacters(in: .whitespacesAndNewlines), #"{"problems": []}"#)

        // Unchanged: nothing is uploaded.
        let again = try publish(workspace, server, to: "s3://samples/apps")
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.contains("0 objects uploaded (0 bytes), 6 unchanged"), again.stdout)

        // A one-string change: only that tenant's new files travel, and clients see release 2.
        try workspace.replace("urbannest/locales/en.yaml", "Home", "Start")
        XCTAssertEqual(try workspace.build().status, 0)
        let listedBefore = try blocking { try await server.client().list(bucket: "samples", prefix: "apps/urbannest/").count }
        let second = try publish(workspace, server, to: "s3://samples/apps")
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(second.stdout.contains("5 unchanged"), second.stdout)
        let listedAfter = try blocking { try await server.client().list(bucket: "samples", prefix: "apps/urbannest/") }
        // New: manifest, locale.en bundle, targets, snapshot; replaced: timestamp, release.json.
        XCTAssertEqual(listedAfter.count, listedBefore + 4, listedAfter.map(\.key).joined(separator: "\n"))
        let client = try server.oracle(["client", server.endpoint, "samples", "apps", workspace.output.appendingPathComponent("urbannest/metadata/1.root.json").path, "urbannest"])
        XCTAssertEqual(client.status, 0, client.stderr)
        XCTAssertTrue(client.stdout.contains(#""pointer": 2"#) && client.stdout.contains(#""pointer_manifest_ok": true"#), client.stdout)

        // Livery's own client installs from the bucket's plain HTTP endpoint.
        let fetched = try LiveryProcess.run(["fetch", "urbannest", "--server", "\(server.endpoint)/samples/apps", "--cache", "cache",
                                             "--root", "Output/urbannest/metadata/1.root.json"], in: workspace.root)
        XCTAssertEqual(fetched.status, 0, fetched.stderr)
        XCTAssertTrue(fetched.stdout.contains("release 2 installed"), fetched.stdout)

        // Collection keeping only the current release deletes release 1's manifest and locale.en bundle, nothing else.
        let gc = try LiveryProcess.run(["gc", "--remote", "--keep", "1", "--to", "s3://samples/apps", "urbannest"], in: workspace.root, environment: server.environment)
        XCTAssertEqual(gc.status, 0, gc.stderr)
        XCTAssertTrue(gc.stdout.contains("urbannest: kept"), gc.stdout)
        XCTAssertTrue(gc.stdout.contains("of 1 release (snapshot 2), deleted 2"), gc.stdout)
        XCTAssertEqual(gc.stdout.split(separator: "\n").filter { $0.hasPrefix("deleted apps/urbannest/targets/") }.count, 2, gc.stdout)
        let collected = try server.oracle(["check", server.endpoint, "samples", "apps", workspace.output.path, "companero", "urbannest"])
        // The local output keeps one previous release; the bucket now does not: exactly those two differ.
        let problems = (try JSONSerialization.jsonObject(with: Data(collected.stdout.utf8)) as? [String: [String]])?["problems"] ?? ["unreadable: \(collected.stderr)"]
        XCTAssertEqual(problems.count, 2, "\(problems)")
        XCTAssertTrue(problems.allSatisfy { $0.hasPrefix("urbannest/targets/") && $0.hasSuffix(": missing from the bucket") }, "\(problems)")
        let after = try server.oracle(["client", server.endpoint, "samples", "apps", workspace.output.appendingPathComponent("urbannest/metadata/1.root.json").path, "urbannest"])
        XCTAssertEqual(after.status, 0, "a client still installs the current release after collection: \(after.stderr)")
    }

    /// Delta downloads (docs/deltas.md) from a bucket: the file indexes go up with the archives, a device
    /// updates with range requests on RGW, and `gc --remote` keeps the indexes the kept release names.
    func testADeviceUpdatesByDeltaFromTheBucketAndCollectionKeepsTheCurrentIndexes() throws {
        let server = try server()
        try blocking { try await server.makePublicBucket("deltas", prefix: "apps") }
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        XCTAssertEqual(try publish(workspace, server, to: "s3://deltas/apps").status, 0)
        func fetch() throws -> LiveryProcess.Output {
            try LiveryProcess.run(["fetch", "sonic-walkscape", "--server", "\(server.endpoint)/deltas/apps", "--cache", "cache", "--locale", "fr",
                                   "--tour", "florence-renaissance", "--root", "Output/sonic-walkscape/metadata/1.root.json"], in: workspace.root)
        }
        let first = try fetch()
        XCTAssertEqual(first.status, 0, first.stderr)

        // One stop gets new bytes; release 2 goes up with its new archive and index.
        let bytes = try workspace.retag("sonic-walkscape/tours/florence-renaissance/audio/fr/03-signoria.mp3", "Signoria, new take")
        XCTAssertEqual(try workspace.build().status, 0)
        let published = try publish(workspace, server, to: "s3://deltas/apps")
        XCTAssertEqual(published.status, 0, published.stderr)
        let manifest = try XCTUnwrap(Publisher.currentManifest(tenant: "sonic-walkscape", output: workspace.output)?.manifest)
        let indexes = Set(manifest.bundles.compactMap(\.filesPath))
        XCTAssertFalse(indexes.isEmpty)
        let keys = Set(try blocking { try await server.client().list(bucket: "deltas", prefix: "apps/sonic-walkscape/targets/") }.map(\.key))
        XCTAssertTrue(indexes.allSatisfy { keys.contains("apps/sonic-walkscape/\($0)") }, "\(indexes.subtracting(keys))")

        let second = try fetch()
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(second.stdout.contains("release 2 installed"), second.stdout)
        XCTAssertTrue(second.stdout.contains("by delta: tour.florence-renaissance.fr"), second.stdout)
        let received = Int(second.stdout.components(separatedBy: "; ").last?.split(separator: " ").first ?? "") ?? .max
        XCTAssertLessThan(received, (manifest.bundle("tour.florence-renaissance.fr")?.size ?? 0) / 2, second.stdout)
        let installed = workspace.root.appendingPathComponent("cache/sonic-walkscape/current/bundles/tour.florence-renaissance.fr/tours/florence-renaissance/audio/fr/03-signoria.mp3")
        XCTAssertEqual(try Data(contentsOf: installed), bytes)

        // Keeping one release: release 1's own archive and index go, release 2's indexes stay, and a device still updates from the bucket.
        let old = ".tour.florence-renaissance.fr.files"
        let gc = try LiveryProcess.run(["gc", "--remote", "--keep", "1", "--to", "s3://deltas/apps", "sonic-walkscape"], in: workspace.root, environment: server.environment)
        XCTAssertEqual(gc.status, 0, gc.stderr)
        let deleted = gc.stdout.split(separator: "\n").filter { $0.hasPrefix("deleted apps/sonic-walkscape/targets/") }
        XCTAssertTrue(deleted.contains { $0.hasSuffix(old) }, gc.stdout)
        XCTAssertTrue(deleted.contains { $0.hasSuffix(".tour.florence-renaissance.fr.zip") }, gc.stdout)
        let remaining = Set(try blocking { try await server.client().list(bucket: "deltas", prefix: "apps/sonic-walkscape/targets/") }.map(\.key))
        XCTAssertTrue(indexes.allSatisfy { remaining.contains("apps/sonic-walkscape/\($0)") }, "gc removed a kept index: \(indexes.subtracting(remaining))")
        let fresh = try LiveryProcess.run(["fetch", "sonic-walkscape", "--server", "\(server.endpoint)/deltas/apps", "--cache", "cache-new", "--locale", "fr",
                                           "--tour", "florence-renaissance", "--root", "Output/sonic-walkscape/metadata/1.root.json"], in: workspace.root)
        XCTAssertEqual(fresh.status, 0, fresh.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: workspace.root.appendingPathComponent("cache-new/sonic-walkscape/current/index/tour.florence-renaissance.fr.files").path))
    }

    func testBuildPublishPublishesWhatItBuiltAndToNeedsPublish() throws {
        let server = try server()
        try blocking { try await server.makePublicBucket("built", prefix: "b") }
        let workspace = try BuildTests.Workspace()
        let built = try LiveryProcess.run(["build", "Tenants/physio-clinic", "--output", "Output", "--publish", "--to", "s3://built/b"], in: workspace.root, environment: server.environment)
        XCTAssertEqual(built.status, 0, built.stderr)
        XCTAssertTrue(built.stdout.contains("physio-clinic: published release 1"), built.stdout)
        XCTAssertTrue(built.stdout.contains("objects uploaded to s3://built/b"), built.stdout)
        let check = try server.oracle(["check", server.endpoint, "built", "b", workspace.output.path, "physio-clinic"])
        XCTAssertEqual(check.stdout.trimmingCharacters(in: .whitespacesAndNewlines), #"{"problems": []}"#, check.stderr)
        let usage = try LiveryProcess.run(["build", "Tenants", "--to", "s3://built/b"], in: workspace.root, environment: server.environment)
        XCTAssertEqual(usage.status, 2)
        XCTAssertTrue(usage.stderr.contains("--to is for --publish"), usage.stderr)
    }

    func testAPublishKilledAtRandomMomentsNeverLeavesABucketAClientRefusesOrThatMixesReleases() throws {
        let server = try server()
        try blocking { try await server.makePublicBucket("killed", prefix: "p") }
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        XCTAssertEqual(try publish(workspace, server, to: "s3://killed/p", ["sonic-walkscape"]).status, 0)
        let root = workspace.output.appendingPathComponent("sonic-walkscape/metadata/1.root.json").path
        var lastSeen = 1
        var killedMidway = 0
        for trial in 1...20 {
            // A new release each trial (a changed string and, every third trial, a changed tour text).
            try workspace.replace("sonic-walkscape/locales/fr.yaml", trial == 1 ? "Carte" : "Carte \(trial - 1)", "Carte \(trial)")
            XCTAssertEqual(try workspace.build().status, 0)
            // Kill points from what the publisher says it finished (`--verbose`, stopped there by the
            // LIVERY_STOP_AFTER_STEP fail point): each phase in turn, before the pointer goes up.
            let phase = ["targets", "metadata", "snapshot", "timestamp"][trial % 4]
            let running = try LiveryProcess.start(["publish", "--output", "Output", "--to", "s3://killed/p", "--concurrency", "2", "--verbose", "sonic-walkscape"],
                                                  in: workspace.root, environment: server.environment.merging(["LIVERY_STOP_AFTER_STEP": "sonic-walkscape \(phase)"]) { $1 },
                                                  lineByLine: true)
            var stopped = false
            while let line = running.nextLine() {
                if line == "step: sonic-walkscape \(phase)" { stopped = true; break }
            }
            if stopped { killedMidway += 1 }
            running.kill()
            let seen = try server.oracle(["client", server.endpoint, "killed", "p", root, "sonic-walkscape"])
            XCTAssertEqual(seen.status, 0, "trial \(trial): a client refused the bucket: \(seen.stderr)")
            let state = try JSONSerialization.jsonObject(with: Data(seen.stdout.utf8)) as? [String: Any] ?? [:]
            let version = state["timestamp"] as? Int ?? 0
            XCTAssertGreaterThanOrEqual(version, lastSeen, "trial \(trial): the bucket went back")
            lastSeen = version
            // The pointer may lag the signed release by one write, never lead it or name another release's manifest.
            if let pointer = state["pointer"] as? Int, let snapshot = state["snapshot"] as? Int {
                XCTAssertLessThanOrEqual(pointer, snapshot, "trial \(trial)")
                if pointer == snapshot { XCTAssertEqual(state["pointer_manifest_ok"] as? Bool, true, "trial \(trial): \(seen.stdout)") }
            }
        }
        XCTAssertEqual(killedMidway, 20, "every trial killed a publish at its phase")
        // A re-run completes the last release (the dead publisher's lock is taken over: same host, process gone).
        let finish = try publish(workspace, server, to: "s3://killed/p", ["sonic-walkscape"])
        XCTAssertEqual(finish.status, 0, finish.stderr)
        let check = try server.oracle(["check", server.endpoint, "killed", "p", workspace.output.path, "sonic-walkscape"])
        XCTAssertEqual(check.stdout.trimmingCharacters(in: .whitespacesAndNewlines), #"{"problems": []}"#, check.stderr)
    }

    func testAConcurrentPublishIsRefusedAndABrokenLockIsTakenOverOnlyWhenAsked() throws {
        let server = try server()
        try blocking { try await server.makePublicBucket("locked", prefix: "r") }
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        // Another machine's publisher holds the lock, started a minute ago.
        let lock = #"{"host":"ci-runner-7","pid":4242,"started":\#(Int(Date().timeIntervalSince1970) - 60)}"#
        _ = try blocking { try await server.client().put(bucket: "locked", key: "r/urbannest/.livery-publish.lock", body: Data(lock.utf8), options: S3PutOptions(contentType: "application/json")) }
        let refused = try publish(workspace, server, to: "s3://locked/r", ["urbannest"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("another publish of urbannest holds s3://locked/r/urbannest/.livery-publish.lock (host ci-runner-7, process 4242"), refused.stderr)
        let listed = try blocking { try await server.client().list(bucket: "locked", prefix: "r/urbannest/") }
        XCTAssertEqual(listed.map(\.key), ["r/urbannest/.livery-publish.lock"], "a refused publish uploads nothing")
        let broken = try publish(workspace, server, to: "s3://locked/r", ["urbannest", "--break-lock"])
        XCTAssertEqual(broken.status, 0, broken.stderr)
        let after = try blocking { try await server.client().head(bucket: "locked", key: "r/urbannest/.livery-publish.lock") }
        XCTAssertNil(after, "the lock is released after publishing")
    }

    func testAnotherBuildsReleaseUnderTheSameVersionIsRefused() throws {
        let server = try server()
        try blocking { try await server.makePublicBucket("forked", prefix: "x") }
        let one = try BuildTests.Workspace(), two = try BuildTests.Workspace()
        XCTAssertEqual(try one.build().status, 0)
        XCTAssertEqual(try two.build().status, 0) // other keys, same version numbers
        XCTAssertEqual(try publish(one, server, to: "s3://forked/x", ["physio-clinic"]).status, 0)
        let refused = try publish(two, server, to: "s3://forked/x", ["physio-clinic"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("physio-clinic: s3://forked/x/physio-clinic/metadata/timestamp.json is at version 1, as this release's timestamp is, with other bytes: "
                                              + "another build published a newer or different release of this tenant"), refused.stderr)
        // Two tenants refused for it: one line.
        XCTAssertEqual(try publish(one, server, to: "s3://forked/x", ["urbannest"]).status, 0)
        let both = try publish(two, server, to: "s3://forked/x", ["physio-clinic", "urbannest"])
        XCTAssertEqual(both.status, 1)
        XCTAssertEqual(both.stderr.split(separator: "\n").count, 2, both.stderr)
        XCTAssertTrue(both.stderr.contains("another build published newer or different releases than this output folder holds, for 2 tenants (physio-clinic, urbannest): "), both.stderr)
        let check = try server.oracle(["check", server.endpoint, "forked", "x", one.output.path, "physio-clinic"])
        XCTAssertEqual(check.stdout.trimmingCharacters(in: .whitespacesAndNewlines), #"{"problems": []}"#, "the first release is intact")
    }

    func testALargeTargetGoesUpInPartsWithItsDigestAndAWrongNameIsRefused() throws {
        let server = try server()
        try blocking { try await server.makePublicBucket("large", prefix: "m") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livery-large-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("t/targets"), withIntermediateDirectories: true)
        var bytes = Data(count: 13 << 20 + 12345)
        for index in stride(from: 0, to: bytes.count, by: 4096) { bytes[index] = UInt8(truncatingIfNeeded: index / 4096) }
        let digest = Hex.encode(SHA256.hash(data: bytes))
        try bytes.write(to: folder.appendingPathComponent("t/targets/\(digest).tour.big.zip"))
        try Data(#"{"release":1}"#.utf8).write(to: folder.appendingPathComponent("t/release.json"))
        var options = RemotePublisher.Options()
        options.multipartThreshold = 5 << 20
        options.partSize = 5 << 20
        let events = EventLog()
        options.onEvent = { events.append($0) }
        let publisher = RemotePublisher(client: server.client(), location: S3Location(bucket: "large", prefix: "m"), options: options)
        let outcome = try blocking { try await publisher.publish(tenant: "t", folder: folder.appendingPathComponent("t")) }
        XCTAssertEqual(outcome.uploaded, 2)
        // The progress a terminal line is drawn from: the totals first, then every byte and object sent, each part on its own.
        let seen = events.all
        XCTAssertEqual(seen.first, .started(tenant: "t", objects: 2, bytes: Int64(bytes.count) + 13))
        XCTAssertEqual(seen.last, .finished(tenant: "t"))
        let sent = seen.compactMap { event -> (Int64, Int)? in if case .sent(_, let bytes, let objects) = event { (bytes, objects) } else { nil } }
        XCTAssertEqual(sent.reduce(0) { $0 + $1.0 }, Int64(bytes.count) + 13)
        XCTAssertEqual(sent.reduce(0) { $0 + $1.1 }, 2)
        XCTAssertEqual(sent.filter { $0.1 == 0 && $0.0 > 0 }.count, 3, "three parts, each reported as it goes up")
        let head = try blocking { try await server.client().head(bucket: "large", key: "m/t/targets/\(digest).tour.big.zip") }
        XCTAssertEqual(head?.metadata["sha256"], digest)
        XCTAssertTrue(head?.etag.hasSuffix("-3") == true, "three parts: \(head?.etag ?? "none")")
        let body = try blocking { try await server.client().get(bucket: "large", key: "m/t/targets/\(digest).tour.big.zip", limit: 64 << 20) }
        XCTAssertEqual(body.map { Hex.encode(SHA256.hash(data: $0.data)) }, digest)

        // A target whose bytes do not match its name is never uploaded.
        let wrong = String(repeating: "0", count: 64)
        try Data("not the bytes".utf8).write(to: folder.appendingPathComponent("t/targets/\(wrong).core.zip"))
        try Data(#"{"release":2}"#.utf8).write(to: folder.appendingPathComponent("t/release.json"))
        do {
            _ = try blocking { try await publisher.publish(tenant: "t", folder: folder.appendingPathComponent("t")) }
            XCTFail("a damaged target was published")
        } catch {
            XCTAssertTrue("\(error)".contains("does not have the SHA-256 its name says"), "\(error)")
        }
        let missing = try blocking { try await server.client().head(bucket: "large", key: "m/t/targets/\(wrong).core.zip") }
        XCTAssertNil(missing)
        // Nor a large one: its parts go up while it is hashed, and the upload is aborted, never completed.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("t/targets/\(wrong).core.zip"))
        let liar = String(repeating: "1", count: 64)
        var large = bytes
        large[7] ^= 0xFF
        try large.write(to: folder.appendingPathComponent("t/targets/\(liar).tour.other.zip"))
        do {
            _ = try blocking { try await publisher.publish(tenant: "t", folder: folder.appendingPathComponent("t")) }
            XCTFail("a damaged large target was published")
        } catch {
            XCTAssertTrue("\(error)".contains("does not have the SHA-256 its name says"), "\(error)")
        }
        let absent = try blocking { try await server.client().head(bucket: "large", key: "m/t/targets/\(liar).tour.other.zip") }
        XCTAssertNil(absent)
    }

    func testAProtectedTourIsPrivateInTheBucketAndInstallsThroughPresignedURLsFromTheVoucherServer() throws {
        let server = try server()
        try blocking { try await server.makePublicBucket("guarded", prefix: "apps") }
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let published = try publish(workspace, server, to: "s3://guarded/apps", ["sonic-walkscape"])
        XCTAssertEqual(published.status, 0, published.stderr)
        // boto3: every file in place, protected ones only under protected/ and readable only presigned; python-tuf verifies all.
        let check = try server.oracle(["check", server.endpoint, "guarded", "apps", workspace.output.path, "sonic-walkscape"])
        XCTAssertEqual(check.stdout.trimmingCharacters(in: .whitespacesAndNewlines), #"{"problems": []}"#, check.stderr)

        // A voucher server that holds no release files: it reads the bucket's metadata and presigns.
        let empty = workspace.root.appendingPathComponent("api/Output")
        try FileManager.default.createDirectory(at: empty.appendingPathComponent(".livery"), withIntermediateDirectories: true)
        let api = try SigningTests.FileServer(root: empty, arguments: ["--releases", "s3://guarded/apps", "--endpoint", server.endpoint,
                                                                       "--content-keys", workspace.root.appendingPathComponent(".livery-keys").path],
                                              environment: server.environment)
        // Issued where the release was built (it checks the tour is protected there), into the API's database.
        let issue = try LiveryProcess.run(["vouchers", "issue", "sonic-walkscape", "--tour", "rome-trastevere",
                                           "--vouchers", empty.appendingPathComponent(".livery/vouchers.sqlite").path], in: workspace.root)
        XCTAssertEqual(issue.status, 0, issue.stderr)
        let code = issue.stdout.trimmingCharacters(in: .whitespacesAndNewlines)

        // livery fetch: metadata and public bundles from the bucket, the tour through presigned URLs, decrypted on install.
        let fetched = try LiveryProcess.run(["fetch", "sonic-walkscape", "--server", "\(server.endpoint)/guarded/apps", "--voucher-server", "http://127.0.0.1:\(api.port)",
                                             "--voucher", code, "--tour", "rome-trastevere", "--locale", "it", "--cache", "cache",
                                             "--root", "Output/sonic-walkscape/metadata/1.root.json"], in: workspace.root)
        XCTAssertEqual(fetched.status, 0, fetched.stderr)
        XCTAssertTrue(fetched.stdout.contains("tour.rome-trastevere, tour.rome-trastevere.it"), fetched.stdout)
        let installed = workspace.root.appendingPathComponent("cache/sonic-walkscape/current/bundles/tour.rome-trastevere.it")
        XCTAssertFalse(try FileManager.default.contentsOfDirectory(atPath: installed.path).isEmpty)
        XCTAssertTrue(api.log.contains("POST /sonic-walkscape/vouchers/redeem 200"), api.log)
        XCTAssertFalse(api.log.contains("/targets/"), "no bundle came from the voucher server: \(api.log)")

        // The presigned URLs: good until they expire, refused when changed or pointed at another tenant.
        let answer = try VoucherTests.Fixture.redeem(base: "http://127.0.0.1:\(api.port)", code, device: "other-phone")
        XCTAssertEqual(answer.status, 409, "a one-device voucher is spent: \(answer.json)")
        let redeemed = try VoucherTests.Fixture.redeem(base: "http://127.0.0.1:\(api.port)", code, device: try String(contentsOf: workspace.root.appendingPathComponent("cache/sonic-walkscape/device-id"), encoding: .utf8))
        XCTAssertEqual(redeemed.status, 200, "the same device is let in again: \(redeemed.json)")
        let urls = try XCTUnwrap(redeemed.json["urls"] as? [String: String])
        let url = try XCTUnwrap(urls["tour.rome-trastevere"].flatMap(URL.init(string:)))
        XCTAssertTrue(url.absoluteString.hasPrefix("\(server.endpoint)/guarded/apps/sonic-walkscape/protected/"), url.absoluteString)
        XCTAssertTrue(url.absoluteString.contains("X-Amz-Signature="), url.absoluteString)
        XCTAssertEqual(try Self.get(url).status, 200)
        let text = url.absoluteString
        let tampered = String(text.dropLast()) + (text.hasSuffix("0") ? "1" : "0")
        XCTAssertEqual(try Self.get(URL(string: tampered)!).status, 403, "signature changed")
        XCTAssertEqual(try Self.get(URL(string: text.replacingOccurrences(of: "/sonic-walkscape/", with: "/companero/"))!).status, 403, "another tenant's path")
        XCTAssertEqual(try Self.get(URL(string: text.components(separatedBy: "?")[0])!).status, 403, "no signature")
        let key = "apps/sonic-walkscape/protected/" + url.lastPathComponent
        let expired = server.client().presignedGET(bucket: "guarded", key: key, expires: 60, date: Date(timeIntervalSinceNow: -3600))
        XCTAssertEqual(try Self.get(expired).status, 403, "expired")

        // gc --remote keeps the protected copies the current release references.
        let gc = try LiveryProcess.run(["gc", "--remote", "--keep", "1", "--to", "s3://guarded/apps", "sonic-walkscape"], in: workspace.root, environment: server.environment)
        XCTAssertEqual(gc.status, 0, gc.stderr)
        XCTAssertTrue(gc.stdout.contains("deleted 0"), gc.stdout)
        XCTAssertEqual(try Self.get(url).status, 200)
    }

    func testTheStoreRefusesAWrongSecretAndAPresignedURLWorksUntilItExpires() throws {
        let server = try server()
        try blocking { try await server.client().createBucket("private") }
        _ = try blocking { try await server.client().put(bucket: "private", key: "k/secret.zip", body: Data("protected".utf8), options: S3PutOptions(contentType: "application/zip")) }
        var wrongConfiguration = server.configuration
        wrongConfiguration.credentials.secretAccessKey += "x"
        let wrong = wrongConfiguration
        do {
            _ = try blocking { try await S3Client(configuration: wrong, attempts: 1).head(bucket: "private", key: "k/secret.zip") }
            XCTFail("a wrong secret was accepted")
        } catch let error as S3Error {
            XCTAssertEqual(error.status, 403)
        }
        let url = server.client().presignedGET(bucket: "private", key: "k/secret.zip", expires: 60)
        let (body, status) = try Self.get(url)
        XCTAssertEqual(status, 200)
        XCTAssertEqual(String(decoding: body, as: UTF8.self), "protected")
        let expired = server.client().presignedGET(bucket: "private", key: "k/secret.zip", expires: 1, date: Date(timeIntervalSinceNow: -120))
        XCTAssertEqual(try Self.get(expired).status, 403)
        XCTAssertEqual(try Self.get(URL(string: "\(server.endpoint)/private/k/secret.zip")!).status, 403)
    }
}


extension ObjectStoreTests {
    /// Every channel goes up as a repository of its own, a staged release with its protected bundles
    /// under protected/staged/, and boto3, python-tuf and `livery fetch --channel` read them from the bucket.
    func testChannelsAndAStagedReleaseArePublishedAsRepositoriesOfTheirOwn() throws {
        let server = try server()
        try blocking { try await server.makePublicBucket("channels", prefix: "apps") }
        let workspace = try BuildTests.Workspace()
        let tenant = "sonic-walkscape"
        try workspace.replace("\(tenant)/tenant.yaml", "  channel: stable\n", "  channel: stable\n  channels: [beta]\n")
        for extra in [["--channel", "beta"], []] {
            XCTAssertEqual(try LiveryProcess.run(["build", "Tenants/\(tenant)", "--output", "Output"] + extra, in: workspace.root).status, 0)
        }
        try workspace.replace("\(tenant)/locales/fr.yaml", "Carte", "Plan")
        XCTAssertEqual(try LiveryProcess.run(["build", "Tenants/\(tenant)", "--output", "Output", "--rollout", "50%"], in: workspace.root).status, 0)
        let published = try publish(workspace, server, to: "s3://channels/apps")
        XCTAssertEqual(published.status, 0, published.stderr)
        XCTAssertTrue(published.stdout.contains("published 1 tenant to s3://channels/apps"), published.stdout)

        let check = try server.oracle(["check", server.endpoint, "channels", "apps", workspace.output.path, tenant, "\(tenant)/channels/beta"])
        XCTAssertEqual(check.stdout.trimmingCharacters(in: .whitespacesAndNewlines), #"{"problems": []}"#, check.stderr)
        let staged = try XCTUnwrap(Publisher.stagedManifest(tenant: tenant, output: workspace.output))
        let tour = try XCTUnwrap(staged.manifest.bundle("tour.rome-trastevere"))
        let base = "\(server.endpoint)/channels/apps/\(tenant)"
        XCTAssertEqual(try Self.get(URL(string: "\(base)/channels/beta/release.json")!).status, 200)
        XCTAssertEqual(try Self.get(URL(string: "\(base)/targets/staged/\(staged.sha256).download-manifest.json")!).status, 200)
        XCTAssertEqual(try Self.get(URL(string: "\(base)/protected/staged/\(tour.sha256).tour.rome-trastevere.zip")!).status, 403)

        let fetched = try LiveryProcess.run(["fetch", tenant, "--server", "\(server.endpoint)/channels/apps", "--cache", "cache", "--channel", "beta",
                                             "--root", "Output/\(tenant)/metadata/1.root.json"], in: workspace.root)
        XCTAssertEqual(fetched.status, 0, fetched.stderr)
        XCTAssertTrue(fetched.stdout.contains("\(tenant) (beta): release 1 installed"), fetched.stdout)

        // A second beta release goes up; `gc --remote --keep 1` collects beta's repository on its own.
        XCTAssertEqual(try LiveryProcess.run(["build", "Tenants/\(tenant)", "--output", "Output", "--channel", "beta"], in: workspace.root).status, 0)
        XCTAssertEqual(try publish(workspace, server, to: "s3://channels/apps").status, 0)
        let gc = try LiveryProcess.run(["gc", "--remote", "--keep", "1", "--to", "s3://channels/apps"], in: workspace.root, environment: server.environment)
        XCTAssertEqual(gc.status, 0, gc.stderr)
        XCTAssertTrue(gc.stdout.contains("\(tenant)/channels/beta: kept"), gc.stdout)
        XCTAssertTrue(gc.stdout.contains("deleted apps/\(tenant)/channels/beta/targets/"), gc.stdout)
        let beta = try server.oracle(["client", server.endpoint, "channels", "apps", workspace.output.appendingPathComponent("\(tenant)/metadata/1.root.json").path,
                                      "\(tenant)/channels/beta"])
        XCTAssertEqual(beta.status, 0, "a client still installs beta's current release after collection: \(beta.stderr)")
    }
}

/// The events a publish reported, in order (from the uploading tasks).
private final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [PublishEvent] = []
    func append(_ event: PublishEvent) { lock.withLock { events.append(event) } }
    var all: [PublishEvent] { lock.withLock { events } }
}
