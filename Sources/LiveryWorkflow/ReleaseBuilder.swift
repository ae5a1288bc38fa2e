import Foundation
import LiveryAssets
import LiveryCheck
import LiveryLoad
import LiveryDiagnostics
import LiveryMedia
import LiveryPack
import LiveryParallel
import LiveryPublish
import LiveryRender
import LiveryResolve
import LiverySign
import LiveryStorage
import LiveryReleaseFormat

/// Options of `livery build`.
public struct BuildOptions: Sendable {
    public var format: ArchiveFormat = .zip
    /// Tenants to build (nil: every tenant of the workspace).
    public var only: Set<String>?
    public var strict = false
    /// Where signing keys live; nil builds unsigned releases (tests of packing alone).
    public var keys: KeyStore?
    /// Re-sign the timestamp of every release that did not change, so it does not expire.
    public var refreshTimestamp = false
    /// The channel to publish to, instead of each tenant's `release.channel` (it must be one the tenant declares).
    public var channel: ReleaseChannel?
    /// Publish each new release to this share of the channel's devices only (`--rollout`); the rest keep the current release.
    public var rollout: RolloutStage?
    /// Told `<tenant> assembled|signed|switched` as each tenant's release is published (`--verbose`).
    public var steps: (@Sendable (String) -> Void)?

    public init(format: ArchiveFormat = .zip, only: Set<String>? = nil, strict: Bool = false, keys: KeyStore? = nil, refreshTimestamp: Bool = false) {
        self.format = format
        self.only = only
        self.strict = strict
        self.keys = keys
        self.refreshTimestamp = refreshTimestamp
    }
}

/// What a build did for one tenant.
public struct TenantBuildReport: Sendable {
    public var tenant: String
    public var release: Int
    /// The channel the release is on.
    public var channel = ReleaseChannel.stable
    /// Set when the new release went to this share of the channel's devices only.
    public var rollout: RolloutStage?
    /// False when nothing changed since the published release.
    public var published: Bool
    public var bundles: Int
    /// Bundles whose archive this build wrote (the rest were reused).
    public var rebuilt: [String]
    public var bytes: Int
    /// True when the tenant's inputs were untouched since its last build, so it was not even loaded.
    public var untouched = false
    /// True when an unchanged release got a newly signed timestamp.
    public var timestampRefreshed = false
    /// What a device holding every bundle of the channel's previous release downloads to reach this one:
    /// the changed bundles whole, and by delta (docs/deltas.md); nil for a channel's first release.
    public var updateWhole: Int?
    public var updateDelta: Int?
}

/// The outcome of `livery build`.
public struct BuildResult: Sendable {
    public var validation: ValidationResult
    public var tenants: [TenantBuildReport]
    public var failures: [String]

    public var validationFailed: Bool { validation.diagnostics.errorCount > 0 }
}

/// A tenant whose new release went live but whose build record could not be written (a full disk): the next build
/// loads and checks the tenant again instead of trusting a record, and publishes nothing new if nothing changed.
struct RecordFailure: Error, CustomStringConvertible {
    var release: Int
    var reason: any Error
    var description: String { "release \(release) is published, but its build record is not: \(reason)" }
}

/// `livery build`: validate, plan bundles, build the archives that changed, and publish every tenant
/// whose release changed, atomically, under one lock on `Output/`.
public enum ReleaseBuilder {
    /// One step per stage (`ReleaseBuild`): find what changed since the build records (load), validate and pack it
    /// (resolve, check, render, pack), sign and stage it, switch it in and record it (publish).
    public static func build(workspace: URL, displayRoot: String, output: URL, options: BuildOptions = BuildOptions(),
                             progress: @escaping @Sendable (String) -> Void = { _ in }) throws -> BuildResult {
        let lock = try OutputLock(output: output, waiting: progress)
        defer { withExtendedLifetime(lock) {} }
        let build = try ReleaseBuild(workspace: workspace, displayRoot: displayRoot, output: output, options: options, progress: progress)
        let (unchanged, changed) = build.findChanges()
        try build.refuseReleasesWithoutKeys(changed)
        var packed = try build.checkAndPack(changed)
        guard packed.validation.diagnostics.errorCount == 0 else {
            return BuildResult(validation: packed.validation, tenants: [], failures: [])
        }
        let (switched, switchesFlushed) = build.switchIn(build.sign(packed.pending), builder: packed.builder)
        var reports = unchanged
        for (prepared, outcome) in zip(packed.pending, build.record(switched, switchesFlushed: switchesFlushed, inputLists: packed.inputLists)) {
            switch outcome {
            case .success(let report): reports.append(report)
            case .failure(let error): packed.failures.add(prepared.report.tenant, error)
            }
        }
        if options.refreshTimestamp, let keyStore = options.keys {
            build.refreshTimestamps(&reports, failures: &packed.failures, keyStore: keyStore)
        }
        return BuildResult(validation: packed.validation, tenants: reports.sorted { $0.tenant < $1.tenant }, failures: packed.failures.messages)
    }

    /// The channel a tenant's build publishes to: `--channel` when given (stable, or a channel the
    /// tenant declares in `release.channel` or `release.channels`), else its `release.channel`, else stable.
    public static func channel(of tenant: ResolvedTenant, override: ReleaseChannel?) throws -> ReleaseChannel {
        let release = tenant.tenant?["release"]
        let own = release?["channel"]?.string.flatMap(ReleaseChannel.init) ?? .stable
        guard let override else { return own }
        let declared = Set([.stable, own] + (release?["channels"]?.items ?? []).compactMap { $0.string.flatMap(ReleaseChannel.init) })
        guard declared.contains(override) else {
            throw Publisher.Failure(description: "it does not declare the channel '\(override.name)' (it declares \(declared.sorted().map(\.name).joined(separator: ", "))): "
                                    + "add it to release.channels in its tenant.yaml")
        }
        return override
    }

    /// Ends a record's settings when its channel came from `--channel`, not from the tenant's manifest.
    static let overrideMark = " (--channel)"

    /// The channel a record's settings name (after `channelSettings`), with or without the `--channel` mark;
    /// nil when the record was made with other settings.
    static func recordedChannel(_ settings: String, after channelSettings: String) -> ReleaseChannel? {
        guard settings.hasPrefix(channelSettings) else { return nil }
        var name = settings.dropFirst(channelSettings.count)
        if name.hasSuffix(overrideMark) { name = name.dropLast(overrideMark.count) }
        return ReleaseChannel(String(name))
    }

    /// How many changed tenants a unit of a build validates and packs at once (fewer when there are few).
    static let groupSize = 6

    /// Set by the first unit of a build whose validation failed: later units validate (every error is
    /// reported) but pack nothing.
    final class InvalidFlag: @unchecked Sendable {
        // Guarded by `lock`.
        private var value = false
        private let lock = NSLock()
        func set() { lock.withLock { value = true } }
        var isSet: Bool { lock.withLock { value } }
    }

    /// About how many tenants a build validates and packs between two returns of freed memory to the system.
    static let trimTenants = 36

    /// A count shared by a build's units (tenants packed, for the progress lines; units done).
    final class Counter: @unchecked Sendable {
        // Guarded by `lock`.
        private var value = 0
        private let lock = NSLock()
        /// Adds `count`, hands the new total to `then` (under the lock), and returns it.
        @discardableResult
        func add(_ count: Int, then: (Int) -> Void = { _ in }) -> Int {
            lock.withLock {
                value += count
                then(value)
                return value
            }
        }
    }

    /// A tenant's release, packed and ready to publish (or found unchanged). Every changed tenant's waits
    /// until the whole workspace has validated, so it holds a summary, not the manifest and bundles.
    struct PreparedRelease: Sendable {
        var report: TenantBuildReport
        /// The new download manifest in the store (its digest and size); nil when the release is unchanged.
        var manifest: (sha256: SHA256Hex, size: Int)?
        /// The release the build record notes: its number, bundle count and bytes.
        var summary: ReleaseSummary
        /// When unchanged: the manifest it matched, recorded again for the next build.
        var unchangedSHA256: String?
        /// The tenant's input paths, for its build record.
        var inputs: InputLists.List
        /// Each indexed bundle's file index object in the store (docs/deltas.md), by bundle id.
        var indexFiles: [String: URL] = [:]
    }

    /// The input paths of every release waiting to be published, back to back in one growing buffer (each
    /// tenant's list is a range of it). Kept as a `[String]` per waiting tenant, they were a dozen small
    /// allocations made amid each group's working memory and kept until publishing: freeing a group's
    /// memory could not give back the pages those survivors sat on, so a build's resident memory grew
    /// by a few kilobytes per tenant.
    final class InputLists: @unchecked Sendable {
        struct List: Sendable {
            fileprivate var range: Range<Int>
        }

        // Guarded by `lock`.
        private var bytes: [UInt8] = []
        private let lock = NSLock()

        func store(_ paths: [String]) -> List {
            lock.withLock {
                let start = bytes.count
                for path in paths {
                    bytes.append(contentsOf: path.utf8)
                    bytes.append(0)
                }
                return List(range: start..<bytes.count)
            }
        }

        func paths(_ list: List) -> [String] {
            lock.withLock {
                bytes[list.range].split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
            }
        }
    }

    /// Tenant ids gathered from parallel work.
    final class TenantList: @unchecked Sendable {
        // Guarded by `lock`.
        private var tenants: [String] = []
        private let lock = NSLock()

        func append(_ tenant: String) { lock.withLock { tenants.append(tenant) } }
        var all: [String] { lock.withLock { tenants } }
    }

    struct ReleaseSummary: Sendable {
        var release: Int
        var bundles: Int
        var bytes: Int

        init(_ manifest: DownloadManifest) {
            release = manifest.release
            bundles = manifest.bundles.count
            bytes = manifest.bundles.reduce(0) { $0 + $1.size }
        }
    }

    /// Packs a tenant's bundles. A signed build (`keys` set) encrypts its voucher bundles with keys
    /// derived from the tenant's content secret, made in the key store on first use; an unsigned build
    /// (tests of packing alone) leaves them plain.
    static func prepare(_ tenant: ResolvedTenant, store: ContentStore, builder: BundleBuilder, output: URL, options: BuildOptions,
                        records: BuildRecords, channelSettings: String, media: MediaMeasurements = MediaMeasurements(),
                        templates: PlatformTemplates? = nil, generated: GeneratedFileMemo? = nil, inputLists: InputLists) throws -> PreparedRelease {
        let keys = options.keys, format = options.format
        let signed = keys != nil
        let channel = try channel(of: tenant, override: options.channel)
        // Hash every referenced asset on all cores first; planning then finds them ingested.
        var files = Set<URL>()
        for source in tenant.ancestors + [tenant.source] {
            for reference in source.assets {
                if case .success(let relative) = TenantPath.normalize(reference.path, baseDirectory: reference.baseDirectory),
                   case .success(let url) = source.paths.regularFile(relative) { files.insert(url) }
            }
        }
        let ingested = ParallelMap.map(Array(files)) { url in Result { try store.ingest(url) } }
        for outcome in ingested { _ = try outcome.get() }
        let specs = try BundlePlanner.plan(tenant, store: store, media: media, templates: templates, memo: generated)
        let secret = try specs.contains { $0.access == .voucher } ? keys?.contentSecret(for: tenant.id, create: true) : nil
        let built = try ParallelMap.map(specs) { spec in
            Result {
                let archive = try builder.build(spec, format: format).withoutEntries
                guard spec.access == .voucher, let secret else { return archive }
                return try builder.encrypt(archive, secret: secret)
            }
        }.map { try $0.get() }
        let minimum = tenant.tenant?["release"]?["minimumClientVersion"]?.string ?? "1.0.0"
        let rebuilt = built.filter(\.rebuilt).map(\.spec.id).sorted()
        let bytes = built.reduce(0) { $0 + $1.size }
        let inputs = inputLists.store(BuildRecords.inputs(of: tenant))
        // Unchanged when the content is the channel's release, the release being rolled out, or what the
        // last build of this channel published (a channel rolled back since keeps its rollback).
        // A tenant never published (every tenant of a first build) has no folder in the output: then
        // no channel has a release, a staged release or a history to look for (one stat, not a dozen).
        let published = FileManager.default.fileExists(atPath: output.appendingPathComponent(tenant.id, isDirectory: true).path)
        let current = published ? Publisher.currentManifest(tenant: tenant.id, channel: channel, output: output) : nil
        var candidates: [(manifest: DownloadManifest, sha: String)] = []
        if let current { candidates.append((current.manifest, current.pointer.sha256)) }
        if published, let staged = Publisher.stagedManifest(tenant: tenant.id, channel: channel, output: output) { candidates.append((staged.manifest, staged.sha256)) }
        if let recorded = records.recorded(tenant.id), recordedChannel(recorded.settings, after: channelSettings) == channel,
           let data = FileManager.default.contents(atPath: store.objectURL(recorded.manifest).path), let manifest = DownloadManifest.parse(data) {
            candidates.append((manifest, recorded.manifest))
        }
        // An unsigned release is published again (same content, new metadata) once signing is asked for.
        if let current, !signed || Publisher.signaturesCover(tenant: tenant.id, channel: channel, output: output) {
            for candidate in candidates {
                let same = DownloadManifest(tenant: tenant.id, release: candidate.manifest.release, format: format, minimumClientVersion: minimum, built: built)
                guard same == candidate.manifest else { continue }
                var report = TenantBuildReport(tenant: tenant.id, release: current.manifest.release, published: false, bundles: built.count, rebuilt: rebuilt, bytes: bytes)
                report.channel = channel
                return PreparedRelease(report: report, manifest: nil, summary: ReleaseSummary(candidate.manifest), unchangedSHA256: candidate.sha, inputs: inputs)
            }
        }
        let release = published ? try ReleaseChannels.nextRelease(tenant: tenant.id, output: output) : 1
        let manifest = DownloadManifest(tenant: tenant.id, release: release, format: format, minimumClientVersion: minimum, built: built)
        let stored = try store.put(manifest.bytes, subject: "the download manifest")
        var report = TenantBuildReport(tenant: tenant.id, release: release, published: true, bundles: built.count, rebuilt: rebuilt, bytes: bytes)
        report.channel = channel
        if let current {
            let repository = Publisher.repository(tenant: tenant.id, channel: channel, output: output)
            let fresh = Dictionary(built.compactMap { bundle in bundle.filesObject.map { (bundle.sha256, $0) } }, uniquingKeysWith: { a, _ in a })
            let update = ReleaseDiff.updateBytes(from: current.manifest.bundles, to: manifest.bundles) { bundle in
                fresh[bundle.sha256] ?? bundle.filesPath.map { repository.appendingPathComponent($0) }
            }
            (report.updateWhole, report.updateDelta) = (update.whole, update.delta)
        }
        var prepared = PreparedRelease(report: report, manifest: (stored.sha256, stored.size), summary: ReleaseSummary(manifest), unchangedSHA256: nil, inputs: inputs)
        for bundle in built { if let object = bundle.filesObject { prepared.indexFiles[bundle.spec.id] = object } }
        return prepared
    }
}

/// A build refused before it wrote anything: the output holds releases of these tenants signed under a root, and
/// the key store has no keys for them (a build run from another folder, or with the wrong `--keys`).
public struct PublishedRootWithoutKeys: Error, CustomStringConvertible, Sendable {
    public var tenants: [String]
    /// The newest published root of each tenant, in the order of `tenants`.
    public var roots: [URL]
    public var keyStore: URL

    public var description: String {
        let named = tenants.count == 1 ? "'\(tenants[0])' has" : "\(tenants.count) tenants (\(tenants.joined(separator: ", "))) have"
        return "\(named) a published root (\(roots[0].path)\(tenants.count > 1 ? ", …" : "")) and no keys in \(keyStore.path)/: "
            + "give --keys the key store that signed \(tenants.count == 1 ? "it" : "them") (docs/keys.md); nothing was written"
    }

    /// The newest `N.root.json` of the tenant's stable repository, else of its first channel that has one (the file
    /// `RootPublisher.current` reads); nil for a tenant never published signed.
    static func publishedRoot(tenant: String, output: URL) -> URL? {
        for channel in Publisher.channels(tenant: tenant, output: output) {
            let metadata = Publisher.repository(tenant: tenant, channel: channel, output: output).appendingPathComponent("metadata", isDirectory: true)
            if let newest = RepositorySigner.latestVersion(of: .root, in: metadata) {
                return metadata.appendingPathComponent("\(newest).root.json", isDirectory: false)
            }
        }
        return nil
    }
}
