import ArgumentParser
import Foundation
import LiveryCommands
import LiveryDiagnostics
import LiveryObjectStore
import LiveryPublish
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
    var bucketSetup: BucketSetup { BucketSetup(create: createBucket, publicRead: publicRead) }

    func resolved() throws -> (S3Client, S3Location) { try connection.resolved() }

    var publisherOptions: RemotePublisher.Options { connection.publisherOptions(verbose: verbose) }
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
        let (client, location) = try store.resolved()
        var options = store.publisherOptions
        options.dryRun = dryRun
        let outputURL = URL(fileURLWithPath: output).standardizedFileURL
        let outcomes = try await Self.publish(tenants: tenants, output: outputURL, client: client, location: location, options: options, bucket: store.bucketSetup)
        let uploaded = outcomes.reduce(0) { $0 + $1.uploaded }
        let bytes = outcomes.reduce(Int64(0)) { $0 + $1.uploadedBytes }
        let tenantCount = Set(outcomes.map { $0.tenant.split(separator: "/").first.map(String.init) ?? $0.tenant }).count
        print("\(dryRun ? "would publish" : "published") \(tenantCount) tenant\(tenantCount == 1 ? "" : "s") to \(location): "
              + "\(uploaded) object\(uploaded == 1 ? "" : "s") uploaded (\(ByteCount.text(bytes))), "
              + "\(outcomes.filter(\.unchanged).count) unchanged")
    }

    /// Publishes each tenant folder of `output` (or the named ones), several tenants at once.
    /// The bucket is checked (and created, when `bucket` says so) first, once: a missing bucket is one refusal, not one per tenant.
    static func publish(tenants: [String], output: URL, client: S3Client, location: S3Location, options: RemotePublisher.Options,
                        bucket: BucketSetup) async throws -> [RemotePublisher.Outcome] {
        let names = try repositories(tenants: tenants, output: output)
        do {
            if case .created(let publicRead) = try await bucket.prepare(client: client, location: location, dryRun: options.dryRun) {
                FileHandle.standardError.write(Data("created bucket '\(location.bucket)'\(publicRead ? " with the anonymous-read policy of docs/operations.md" : "")\n".utf8))
            }
        } catch let missing as MissingBucket {
            throw Livery.Failure("\(missing)")
        } catch let refused as BucketRefused {
            throw Livery.Failure("\(refused)")
        } catch {
            throw Livery.Failure("s3://\(location.bucket): \(error)")
        }
        // The build lock on the output folder, so that no build swaps a release folder while it is read.
        let lock = try OutputLock(output: output, waiting: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) })
        defer { withExtendedLifetime(lock) {} }
        var options = options
        if isatty(STDERR_FILENO) == 1 {
            let line = PublishProgressLine()
            options.onEvent = { line.show($0) }
        }
        let publisher = RemotePublisher(client: client, location: location, options: options)
        // Tenants side by side (each tenant's own uploads share the publisher's request limit). One tenant's
        // failure stops only that tenant: the others publish, then the failures are reported (exit 1).
        let results = try await withThrowingTaskGroup(of: (String, Result<RemotePublisher.Outcome, any Error>).self) { group in
            var pending = names.makeIterator()
            var running = 0
            var results: [(String, Result<RemotePublisher.Outcome, any Error>)] = []
            while true {
                while running < max(1, options.concurrency), let name = pending.next() {
                    group.addTask {
                        do {
                            return (name, .success(try await publisher.publish(tenant: name, folder: output.appendingPathComponent(name))))
                        } catch {
                            return (name, .failure(error))
                        }
                    }
                    running += 1
                }
                guard let result = try await group.next() else { break }
                running -= 1
                results.append(result)
            }
            return results
        }
        let failures = results.compactMap { name, result -> (tenant: String, error: any Error)? in
            if case .failure(let error) = result { return (name, error) } else { return nil }
        }
        if !failures.isEmpty {
            FileHandle.standardError.write(Data(("publishing failed; the store keeps each failed tenant's previous release:\n"
                                                 + PublishFailures.lines(failures).joined(separator: "\n") + "\n").utf8))
            throw ExitCode(1)
        }
        return results.compactMap { try? $0.1.get() }.sorted { $0.tenant < $1.tenant }
    }

    /// Tenant folders: the folders of `output` that hold a release.json (never `.livery`).
    /// The repositories of the tenants named (default: every tenant folder of `output`), as keys under
    /// the store's prefix: each channel is a repository of its own, stable at `<tenant>`, the others
    /// at `<tenant>/channels/<name>`.
    static func repositories(tenants: [String], output: URL) throws -> [String] {
        var names: [String] = []
        for name in try tenants.isEmpty ? tenantFolders(output) : tenants {
            let channels = Publisher.channels(tenant: name, output: output)
            if channels.isEmpty { throw Livery.Failure("\(output.path)/\(name) holds no release: build it first") }
            names += channels.map { $0.isStable ? name : "\(name)/\($0.relativeFolder)" }
        }
        return names
    }

    static func tenantFolders(_ output: URL) throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: output.path)
        return names.filter { !$0.hasPrefix(".") && !Publisher.channels(tenant: $0, output: output).isEmpty }.sorted()
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
        // Every channel of the tenants, as the output folder has them (each a repository of its own in the
        // store); a tenant named but not in the output folder (collecting from another machine): its stable repository.
        let outputURL = URL(fileURLWithPath: output)
        let names = try (tenants.isEmpty ? Publish.tenantFolders(outputURL) : tenants).flatMap { name in
            Publisher.channels(tenant: name, output: outputURL).isEmpty ? [name] : try Publish.repositories(tenants: [name], output: outputURL)
        }
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
        let (client, location) = try store.resolved()
        let outcomes = try await publish(tenants: tenants, output: output, client: client, location: location, options: store.publisherOptions, bucket: store.bucketSetup)
        for outcome in outcomes {
            let line = "\(outcome.tenant): " + (outcome.unchanged ? "already in \(location)" : "\(outcome.uploaded) objects uploaded to \(location)") + "\n"
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
