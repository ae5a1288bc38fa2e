import Foundation
import LiveryObjectStore
import LiveryPublish

/// The multi-tenant publish fan-out of `livery publish` and `build --publish`: an output folder's tenants (every channel a
/// repository of its own) uploaded to an object store, several tenants at once. The bucket is checked (and created, when
/// `bucket` says so) once, first: a missing bucket is one refusal, not one per tenant. One tenant's failure stops only that
/// tenant; the others publish, and the report groups the failures by cause. Reports through events; prints nothing.
public struct StorePublication: Sendable {
    public var client: S3Client
    public var location: S3Location
    public var options: RemotePublisher.Options
    public var bucket: BucketSetup

    public init(client: S3Client, location: S3Location, options: RemotePublisher.Options = RemotePublisher.Options(), bucket: BucketSetup = BucketSetup()) {
        self.client = client
        self.location = location
        self.options = options
        self.bucket = bucket
    }

    /// What happens as the publication goes, for the caller to show.
    public enum Event: Sendable, Equatable {
        /// The bucket did not exist and was made (with the anonymous-read policy when `publicRead`).
        case bucketCreated(bucket: String, publicRead: Bool)
        /// Another build holds the output folder's lock; the publication waits for it (the message says so).
        case waitingForLock(String)
        /// A tenant's uploads (`RemotePublisher`'s own events).
        case upload(PublishEvent)
    }

    /// What a publication did: every repository's outcome, and the repositories that failed with their errors.
    public struct Report: Sendable {
        /// The repositories published, sorted by name.
        public var outcomes: [RemotePublisher.Outcome]
        /// The repositories that failed, sorted by name; the store keeps each one's previous release.
        public var failures: [Failure]

        public struct Failure: Sendable {
            public var tenant: String
            public var error: any Error
        }

        /// The failures one line per cause (`PublishFailures`): six tenants refused for one reason are one line.
        public var failureLines: [String] { PublishFailures.lines(failures.map { (tenant: $0.tenant, error: $0.error) }) }

        /// Tenants published (a tenant's channel repositories, `<tenant>/channels/<name>`, count with the tenant).
        public var tenantCount: Int { Set(outcomes.map { $0.tenant.split(separator: "/").first.map(String.init) ?? $0.tenant }).count }
        public var uploaded: Int { outcomes.reduce(0) { $0 + $1.uploaded } }
        public var uploadedBytes: Int64 { outcomes.reduce(0) { $0 + $1.uploadedBytes } }
        public var unchanged: Int { outcomes.filter(\.unchanged).count }
    }

    /// Publishes the repositories of `tenants` (default: every tenant folder of `output`), `options.concurrency` tenants at
    /// once, under the output folder's build lock (so that no build swaps a release folder while it is read). Throws before
    /// any upload when a tenant named holds no release or the bucket is missing or refused; a tenant's own failure is in
    /// the report.
    public func publish(tenants: [String], output: URL, onEvent: @escaping @Sendable (Event) -> Void = { _ in }) async throws -> Report {
        let names = try Self.repositories(tenants: tenants, output: output)
        do {
            if case .created(let publicRead) = try await bucket.prepare(client: client, location: location, dryRun: options.dryRun) {
                onEvent(.bucketCreated(bucket: location.bucket, publicRead: publicRead))
            }
        } catch let refusal as MissingBucket {
            throw refusal
        } catch let refusal as BucketRefused {
            throw refusal
        } catch {
            throw Refusal.bucketUnreachable(bucket: location.bucket, cause: "\(error)")
        }
        let lock = try OutputLock(output: output, waiting: { onEvent(.waitingForLock($0)) })
        defer { withExtendedLifetime(lock) {} }
        var options = options
        let uploads = options.onEvent
        options.onEvent = { event in
            uploads?(event)
            onEvent(.upload(event))
        }
        let publisher = RemotePublisher(client: client, location: location, options: options)
        // Each tenant's own uploads share the publisher's request limit.
        let results = await withTaskGroup(of: (String, Result<RemotePublisher.Outcome, any Error>).self) { group in
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
                guard let result = await group.next() else { break }
                running -= 1
                results.append(result)
            }
            return results
        }
        var report = Report(outcomes: [], failures: [])
        for (name, result) in results.sorted(by: { $0.0 < $1.0 }) {
            switch result {
            case .success(let outcome): report.outcomes.append(outcome)
            case .failure(let error): report.failures.append(Report.Failure(tenant: name, error: error))
            }
        }
        return report
    }

    /// What stops a publication before any tenant's upload (besides `MissingBucket` and `BucketRefused`).
    public enum Refusal: Error, CustomStringConvertible, Equatable, Sendable {
        /// A tenant named has no release in the output folder (`folder`: `<output>/<tenant>`).
        case noRelease(folder: String)
        /// Asking the store about the bucket failed for another reason than its absence or a refusal.
        case bucketUnreachable(bucket: String, cause: String)

        public var description: String {
            switch self {
            case .noRelease(let folder): "\(folder) holds no release: build it first"
            case .bucketUnreachable(let bucket, let cause): "s3://\(bucket): \(cause)"
            }
        }
    }

    /// The repositories of the tenants named (default: every tenant folder of `output`), as keys under the store's prefix:
    /// each channel is a repository of its own, stable at `<tenant>`, the others at `<tenant>/channels/<name>`.
    public static func repositories(tenants: [String], output: URL) throws -> [String] {
        var names: [String] = []
        for name in try tenants.isEmpty ? tenantFolders(output) : tenants {
            let channels = Publisher.channels(tenant: name, output: output)
            if channels.isEmpty { throw Refusal.noRelease(folder: "\(output.path)/\(name)") }
            names += channels.map { $0.isStable ? name : "\(name)/\($0.relativeFolder)" }
        }
        return names
    }

    /// The repositories `gc --remote` collects: every channel of the tenants as the output folder has them, and for a
    /// tenant named but not in the output folder (collecting from another machine) its stable repository.
    public static func repositories(collecting tenants: [String], output: URL) throws -> [String] {
        try (tenants.isEmpty ? tenantFolders(output) : tenants).flatMap { name in
            Publisher.channels(tenant: name, output: output).isEmpty ? [name] : try repositories(tenants: [name], output: output)
        }
    }

    /// Tenant folders: the folders of `output` that hold a release (never `.livery`), sorted.
    public static func tenantFolders(_ output: URL) throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: output.path)
        return names.filter { !$0.hasPrefix(".") && !Publisher.channels(tenant: $0, output: output).isEmpty }.sorted()
    }
}
