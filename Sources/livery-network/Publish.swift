import ArgumentParser
import Foundation
import LiveryCommands
import LiveryDiagnostics
import LiveryObjectStore
import LiveryPublish
import LiveryRemoteWorkflow
import LiveryStorage

/// What only livery-network can do with the store's options: reach the store.
extension ObjectStoreConnection {
    func resolved() throws -> (S3Client, S3Location) {
        guard let destination else { throw ValidationError("give the destination: --to s3://bucket/prefix") }
        let location = try S3Location(parsing: destination)
        let configuration = try S3Configuration.resolve(endpoint: endpoint, addressing: addressing.map { $0 == .pathStyle ? .path : .virtualHost })
        return (S3Client(configuration: configuration, connections: max(concurrency, 1) * 2), location)
    }

    func publisherOptions(verbose: Bool = false) -> RemotePublisher.Options {
        var options = RemotePublisher.Options()
        options.concurrency = max(1, concurrency)
        options.breakLock = breakLock
        options.steps = StepReporter.make(verbose: verbose)
        return options
    }
}

extension ObjectStoreOptions {
    /// The publication these options describe (`publish`, `build --publish`).
    func publication() throws -> StorePublication {
        let (client, location) = try connection.resolved()
        return StorePublication(client: client, location: location, options: connection.publisherOptions(verbose: verbose),
                                bucket: BucketSetup(create: createBucket, publicRead: publicRead))
    }
}

struct Publish: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: NetworkCommand.publish.abstract,
        discussion: """
            Each tenant's folder Output/<tenant>/ goes to prefix/<tenant>/ in the bucket, with the same \
            layout, in an order that keeps every client consistent at every moment: targets, then \
            versioned metadata, the snapshot, timestamp.json and release.json last. Objects already in \
            the store are skipped, so a re-run completes an interrupted publish and an unchanged \
            tenant costs two HEAD requests. Credentials and region come from the usual AWS environment \
            variables and profile files. See docs/operations.md. Exit status: 0 when every tenant is \
            in the store, 1 when a tenant could not be published (the others are), 2 on a usage or \
            configuration error.
            """
    )

    @Argument(help: "Tenants to publish (default: every tenant folder in the output folder).")
    var tenants: [String] = []

    @Option(name: .shortAndLong, help: "The output folder holding the built releases.")
    var output = "Output"

    @OptionGroup var store: ObjectStoreOptions

    @Flag(help: "Only say what would be uploaded.")
    var dryRun = false

    func run() async throws {
        var publication = try store.publication()
        publication.options.dryRun = dryRun
        let report = try await Self.publish(publication, tenants: tenants, output: URL(fileURLWithPath: output).standardizedFileURL)
        let (count, uploaded) = (report.tenantCount, report.uploaded)
        print("\(dryRun ? "would publish" : "published") \(count) tenant\(count == 1 ? "" : "s") to \(publication.location): "
              + "\(uploaded) object\(uploaded == 1 ? "" : "s") uploaded (\(ByteCount.text(report.uploadedBytes))), \(report.unchanged) unchanged")
    }

    /// Runs the publication, showing its events on standard error (the progress line only on a terminal), and ends
    /// with exit status 1 after naming the tenants that failed, one line per cause.
    static func publish(_ publication: StorePublication, tenants: [String], output: URL) async throws -> StorePublication.Report {
        let progress = isatty(STDERR_FILENO) == 1 ? PublishProgressLine() : nil
        let report = try await publication.publish(tenants: tenants, output: output) { event in
            switch event {
            case .bucketCreated(let bucket, let publicRead):
                FileHandle.standardError.write(Data("created bucket '\(bucket)'\(publicRead ? " with the anonymous-read policy of docs/operations.md" : "")\n".utf8))
            case .waitingForLock(let message):
                FileHandle.standardError.write(Data((message + "\n").utf8))
            case .upload(let upload):
                progress?.show(upload)
            }
        }
        if !report.failures.isEmpty {
            FileHandle.standardError.write(Data(("publishing failed; the store keeps each failed tenant's previous release:\n"
                                                 + report.failureLines.joined(separator: "\n") + "\n").utf8))
            throw ExitCode(1)
        }
        return report
    }
}

struct GarbageCollect: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gc",
        abstract: NetworkCommand.gc.abstract,
        discussion: """
            Without --remote, collects the output folder's content store (Output/.livery/store) under the \
            build lock: kept are, for every channel of every tenant, the current release, the one before it \
            (always: a client may be mid-update), a release being rolled out, and releases back to --keep in \
            all; each tenant's last build; and every tenant file the stat cache knows that still exists. \
            Everything else is removed (--dry-run lists it). With --remote, collects an object store that \
            `livery publish` fills: for each tenant, the targets of the current release and of the \
            --keep − 1 releases before it stay (read from the store's own signed metadata); every other \
            object under prefix/<tenant>/targets/ is deleted. Metadata is never deleted. Runs under each \
            tenant's publish lock.
            """
    )

    @Argument(help: "Tenants to collect (default: every tenant folder in the output folder).")
    var tenants: [String] = []

    @Flag(help: "Collect the object store named by --to.")
    var remote = false

    @Option(help: "Releases whose targets stay: the current one and the ones before it (at least 1).")
    var keep = 2

    @Option(name: .shortAndLong, help: "The output folder (to find the tenants when none is named).")
    var output = "Output"

    @OptionGroup var store: ObjectStoreConnection

    @Flag(help: "Only list what would be deleted.")
    var dryRun = false

    func validate() throws {
        if !remote && store.destination != nil { throw ValidationError("--to is for --remote collection") }
        if !remote && !tenants.isEmpty { throw ValidationError("the local store is shared by every tenant: collect it whole (no tenant names without --remote)") }
        guard keep >= 1 else { throw ValidationError("--keep must be at least 1 (the current release)") }
    }

    func run() async throws {
        guard remote else {
            // One line per object as it goes (written at once, not buffered), then the summary.
            let collection = try StoreCollector.collect(output: URL(fileURLWithPath: output).standardizedFileURL, keep: keep, dryRun: dryRun) { line in
                if line.hasPrefix("another livery build") {
                    FileHandle.standardError.write(Data((line + "\n").utf8))
                } else {
                    FileHandle.standardOutput.write(Data((line + "\n").utf8))
                }
            }
            for note in collection.notes { FileHandle.standardError.write(Data("note: \(note)\n".utf8)) }
            for (name, releases) in collection.keptReleases.sorted(by: { $0.key < $1.key }) {
                print("\(name): kept release\(releases.count == 1 ? "" : "s") \(releases.map(String.init).joined(separator: ", "))")
            }
            print("\(dryRun ? "would free" : "freed") \(ByteCount.text(collection.freed)): \(collection.removed.count) object\(collection.removed.count == 1 ? "" : "s") "
                  + "\(dryRun ? "removable" : "removed"), \(collection.keptObjects) kept")
            return
        }
        let (client, location) = try store.resolved()
        var options = store.publisherOptions()
        options.dryRun = dryRun
        let names = try StorePublication.repositories(collecting: tenants, output: URL(fileURLWithPath: output))
        let publisher = RemotePublisher(client: client, location: location, options: options)
        for name in names {
            let result: RemotePublisher.Collection
            do {
                result = try await publisher.collect(tenant: name, keep: keep)
            } catch {
                FileHandle.standardError.write(Data("\(name): \(error)\n".utf8))
                throw ExitCode(1)
            }
            for key in result.deleted { print("\(dryRun ? "would delete" : "deleted") \(location.key(name))/\(key)") }
            print("\(name): kept \(result.kept) target\(result.kept == 1 ? "" : "s") of \(result.releases.count) release\(result.releases.count == 1 ? "" : "s") (snapshot "
                  + result.releases.sorted().map(String.init).joined(separator: ", ") + "), \(dryRun ? "would delete" : "deleted") \(result.deleted.count)")
        }
    }
}

extension Publish {
    /// `build --publish`'s last step (Livery.publishStep): the built tenants to the store, one line each.
    @Sendable static func afterBuild(tenants: [String], output: URL, store: ObjectStoreOptions, format: ReportFormat) async throws {
        let publication = try store.publication()
        let report = try await publish(publication, tenants: tenants, output: output)
        for outcome in report.outcomes {
            let line = "\(outcome.tenant): " + (outcome.unchanged ? "already in \(publication.location)" : "\(outcome.uploaded) objects uploaded to \(publication.location)") + "\n"
            (format == .text ? FileHandle.standardOutput : FileHandle.standardError).write(Data(line.utf8))
        }
    }
}

/// `livery publish`'s progress on a terminal (standard error), redrawn at most ten times a second. One line for
/// all tenants: a tenant that starts resets the counts (tenants publish side by side; the line follows the latest).
final class PublishProgressLine: @unchecked Sendable {
    private let lock = NSLock()
    private var tenant = ""
    private var objects = 0, done = 0
    private var bytes: Int64 = 0, sent: Int64 = 0
    private var drawn = Date.distantPast

    func show(_ event: PublishEvent) {
        lock.withLock {
            switch event {
            case .started(let name, let objects, let bytes):
                // A channel's repository (`<tenant>/channels/<name>`) is shown by its last component, as it always was.
                tenant = String(name.split(separator: "/").last ?? "")
                self.objects = objects
                self.bytes = bytes
                done = 0
                sent = 0
                draw(force: true)
            case .sent(_, let bytes, let objects):
                sent += bytes
                done += objects
                draw(force: false)
            case .finished:
                draw(force: true)
                FileHandle.standardError.write(Data("\n".utf8))
            }
        }
    }

    private func draw(force: Bool) {
        let now = Date()
        guard force || now.timeIntervalSince(drawn) >= 0.1 else { return }
        drawn = now
        FileHandle.standardError.write(Data("\r\u{1B}[Kpublishing \(tenant): \(done)/\(objects) objects, \(ByteCount.text(sent))/\(ByteCount.text(bytes))".utf8))
    }
}
