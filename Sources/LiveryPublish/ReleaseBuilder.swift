import CLiverySystem
import Foundation
import LiveryAssets
import LiveryCheck
import LiveryLoad
import LiveryDiagnostics
import LiveryPack
import LiveryRender
import LiveryResolve
import LiverySign
import LiveryStorage
import LiveryTUF

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
    public static func build(workspace: URL, displayRoot: String, output: URL, options: BuildOptions = BuildOptions(),
                             progress: @escaping @Sendable (String) -> Void = { _ in }) throws -> BuildResult {
        let lock = try OutputLock(output: output, waiting: progress)
        defer { withExtendedLifetime(lock) {} }
        Publisher.removeLeftovers(in: output)
        let store = try ContentStore(root: output.appendingPathComponent(".livery/store"))
        store.removeLeftovers()
        let records = try BuildRecords(store: store)
        // The platform templates' digest is a setting: an edited template rebuilds every tenant.
        let baseSettings = "livery \(LiveryVersion.current) rules \(RuleRegistry.all.count) format \(options.format.rawValue) strict \(options.strict) mtime \(ArchiveWriter.entryTimestamp) signed \(options.keys != nil)"
            + " templates \(BuildRecords.templatesDigest(workspace: workspace.standardizedFileURL))"

        // Tenants whose inputs are all as they were at their last build are not even loaded.
        let discovered = WorkspaceFolders(discovering: workspace)
        let folders = discovered.folders.map(\.lastPathComponent)
        let wanted = folders.filter { options.only?.contains($0) ?? true }
        var unchanged: [TenantBuildReport] = []
        var toBuild = Set<String>()
        // The record's settings end with the channel the tenant built to (its own, or --channel's).
        let channelSettings = baseSettings + " channel "
        // A build without --channel publishes to the tenant's own channel, so it takes only a record made
        // without --channel: one of `--channel beta` says nothing about the tenant's stable release.
        func accepts(_ recorded: String) -> Bool {
            guard let channel = recordedChannel(recorded, after: channelSettings) else { return false }
            guard let wanted = options.channel else { return !recorded.hasSuffix(overrideMark) }
            return channel == wanted
        }
        // Every record in one query, read one at a time; a tenant whose inputs and output files are as its
        // record saw them is reported from the record alone, without opening its folder or its release.
        let wantedSet = Set(wanted)
        var current: [String: TenantBuildReport] = [:]
        records.forEach { id, record in
            guard wantedSet.contains(id), accepts(record.settings), let summary = record.summary,
                  let channel = recordedChannel(record.settings, after: channelSettings), records.isCurrent(record) else { return }
            var report = TenantBuildReport(tenant: id, release: summary.release, published: false, bundles: summary.bundles,
                                           rebuilt: [], bytes: summary.bytes, untouched: true)
            report.channel = channel
            current[id] = report
        }
        for id in wanted {
            if let report = current[id] {
                unchanged.append(report)
                continue
            }
            // Untouched when its inputs are as built last time and that build's release was published; a
            // release the channel has since rolled back from is not published again while nothing changes.
            let channels = Publisher.channels(tenant: id, output: output)
            let signedAsAsked = options.keys == nil || channels.allSatisfy { Publisher.signaturesCover(tenant: id, channel: $0, output: output) }
            if !channels.isEmpty, signedAsAsked, records.isUnchanged(id, settings: accepts, published: { _ in true }),
               let recorded = records.recorded(id), let channel = recordedChannel(recorded.settings, after: channelSettings),
               channels.contains(channel),
               let data = FileManager.default.contents(atPath: store.objectURL(recorded.manifest).path), let manifest = DownloadManifest.parse(data) {
                var report = TenantBuildReport(tenant: id, release: manifest.release, published: false, bundles: manifest.bundles.count,
                                               rebuilt: [], bytes: manifest.bundles.reduce(0) { $0 + $1.size }, untouched: true)
                report.channel = channel
                unchanged.append(report)
            } else {
                toBuild.insert(id)
            }
        }
        // Before anything is packed, stored or signed: a tenant whose output holds a signed release needs the keys
        // that release's root trusts, and a key store with none for it is the wrong store (or the wrong folder). New
        // development keys would only be refused by that root later, after being written.
        if let keyStore = options.keys {
            let orphaned = toBuild.sorted().compactMap { id in
                PublishedRootWithoutKeys.publishedRoot(tenant: id, output: output).flatMap { keyStore.hasKeys(for: id) ? nil : (id, $0) }
            }
            if !orphaned.isEmpty {
                throw PublishedRootWithoutKeys(tenants: orphaned.map(\.0), roots: orphaned.map(\.1), keyStore: keyStore.root)
            }
        }
        // Tenants are validated and packed in groups so memory stays bounded by a group, not the
        // workspace; nothing is published until every group has validated clean.
        let builder = try BundleBuilder(store: store)
        // Audio and video are measured once: by validation, into the probe cache the next build (and
        // `livery validate`) reads, and again by the planner for the download manifest's durations.
        let media = MediaMeasurements(output: output)
        let ordered = wanted.filter { toBuild.contains($0) }
        var diagnostics: [Diagnostic] = []
        var checked: [String] = []
        var pending: [PreparedRelease] = []
        let inputLists = InputLists()
        var failures: [String] = []
        // Tenants whose new release failed, with the index of their message in `failures`.
        var failed: [(tenant: String, failure: Int)] = []
        // A tenant folder the loader refuses (a symbolic link out of the workspace) is never loaded or
        // built, but its error stops the build, as it fails `livery validate`.
        let refused = Set(discovered.refused.map(\.name).filter { options.only?.contains($0) ?? true })
        if !refused.isEmpty {
            let validation = Validator.validate(workspace: workspace, displayRoot: displayRoot, only: refused, strict: options.strict, discovered: discovered)
            diagnostics += validation.diagnostics
            checked += validation.checked
        }
        // The platform templates are read and parsed once for every tenant of the build (when they cannot
        // be, each tenant's planning reports why).
        let templates = ordered.isEmpty ? nil : try? BundlePlanner.templates(workspace: workspace.standardizedFileURL)
        // Tenants with the same strings share their locale bundles' generated files (GeneratedFileMemo).
        let generated = GeneratedFileMemo()
        // Tenants are validated and packed in small units, each unit on one thread from its validation to
        // its packing, several units at once: a barrier after each phase of a group (load, check, pack)
        // left a core idle while the other finished the phase's last tenant. Memory stays bounded by the
        // units in flight (one per worker). A unit packs nothing once any unit has failed validation, and
        // nothing is published until every unit has validated clean. Results are gathered in unit order,
        // so the outcome is the same for any number of workers.
        let unitSize = max(1, min(groupSize, ordered.count / (4 * ParallelMap.workers)))
        let units = stride(from: 0, to: ordered.count, by: unitSize).map { Set(ordered[$0..<min($0 + unitSize, ordered.count)]) }
        let invalid = InvalidFlag()
        let packedCount = Counter(), unitsDone = Counter()
        // Freed memory goes back to the system every few units: after each one, the pages it handed back were
        // faulted in again by the next (a few percent of a 200-tenant build's time), for about the same peak.
        let trimEvery = max(1, trimTenants / unitSize)
        typealias UnitOutcome = (diagnostics: [Diagnostic], checked: [String], packed: [(tenant: String, outcome: Result<PreparedRelease, any Error>)])
        @Sendable func validateAndPack(_ unit: Set<String>) -> UnitOutcome {
            let validation = Validator.validate(workspace: workspace, displayRoot: displayRoot, only: unit, strict: options.strict, media: media,
                                                discovered: discovered)
            guard validation.diagnostics.errorCount == 0 else {
                invalid.set()
                return (validation.diagnostics, validation.checked, [])
            }
            guard !invalid.isSet else { return (validation.diagnostics, validation.checked, []) }
            let packed = validation.tenants.filter { unit.contains($0.id) }.map { tenant in
                (tenant.id, Result { try prepare(tenant, store: store, builder: builder, output: output, options: options, records: records,
                                                 channelSettings: channelSettings, media: validation.media, templates: templates, generated: generated,
                                                 inputLists: inputLists) })
            }
            // Said under the count's lock, so the counts a terminal shows only go up.
            packedCount.add(unit.count) { done in progress("packed \(done) of \(ordered.count) changed tenant\(ordered.count == 1 ? "" : "s")") }
            return (validation.diagnostics, validation.checked, packed)
        }
        let unitOutcomes = ParallelMap.map(units) { unit in
            let outcome = validateAndPack(unit)
            // Give freed memory back to the system (this unit's tenants are released by now).
            if unitsDone.add(1) % trimEvery == 0 { livery_release_free_memory() }
            return outcome
        }
        for (unitDiagnostics, unitChecked, packed) in unitOutcomes {
            diagnostics += unitDiagnostics
            checked += unitChecked
            // Packed units before the first invalid one are dropped with it: nothing is published.
            guard diagnostics.errorCount == 0 else { continue }
            for (tenant, outcome) in packed {
                switch outcome {
                case .success(let prepared): pending.append(prepared)
                case .failure(let error):
                    failed.append((tenant, failures.count))
                    failures.append("\(tenant): \(error)")
                }
            }
        }
        // The store's rows (digests, object stamps) are written once for every tenant packed. Should that fail (a full
        // disk), each tenant waiting to be published fails with it, named, and none is published; with none waiting, the
        // failure is the build's.
        do {
            try store.flush()
        } catch {
            if pending.isEmpty && failures.isEmpty && diagnostics.errorCount == 0 { throw error }
            for prepared in pending {
                failed.append((prepared.report.tenant, failures.count))
                failures.append("\(prepared.report.tenant): \(error)")
            }
            pending = []
        }
        let validation = ValidationResult(diagnostics: diagnostics.normalized(), tenants: [], checked: Array(Set(checked)).sorted())
        guard diagnostics.errorCount == 0 else {
            return BuildResult(validation: validation, tenants: [], failures: [])
        }
        var reports = unchanged
        // Each tenant publishes into its own folder and signs with its own keys, so tenants stage their
        // releases in parallel. Then one flush of the file system makes every staged tree durable (a
        // flush per tenant waited for the whole file system's dirty pages each time), each is switched
        // in, the folders holding the live trees are flushed once each, and each tenant is recorded in
        // the build records. Reports and failures are gathered in the order the tenants were packed.
        let steps = options.steps
        // Tenants given development keys by this build: warned about once, after staging (see below).
        let developmentKeys = TenantList()
        @Sendable func tenantSteps(_ tenant: String) -> ((String) -> Void)? { steps.map { report in { report("\(tenant) \($0)") } } }
        let staged = ParallelMap.map(pending) { pending -> Result<(prepared: PreparedRelease, staged: Publisher.Staged?), any Error> in
            Result {
                var prepared = pending
                let tenant = prepared.report.tenant, channel = prepared.report.channel
                guard let stored = prepared.manifest else { return (prepared, nil) }
                let manifestFile = StoredFile(sha256: stored.sha256, size: stored.size, url: store.objectURL(stored.sha256))
                // New development keys on the output's file system are flushed by the `makeDurable` below, before any switch.
                let keys = try options.keys?.keys(for: tenant, create: true, flushedBy: output, warn: progress, created: developmentKeys.append)
                // The manifest and its bundles are read back from the store: a release waiting to be
                // published keeps a summary only, so waiting releases cost little memory each.
                let manifest = try DownloadManifest(data: Data(contentsOf: manifestFile.url))
                let release = PublishedRelease(manifest: manifest, manifestFile: manifestFile,
                                               bundleFiles: Dictionary(manifest.bundles.map { ($0.id, store.objectURL($0.sha256)) }, uniquingKeysWith: { a, _ in a }),
                                               indexFiles: prepared.indexFiles)
                var exposure = ReleaseExposure.everyone
                // The first release of a channel goes to every device: there is no other one to keep.
                if let stage = options.rollout, Publisher.currentManifest(tenant: tenant, channel: channel, output: output) != nil {
                    exposure = .rollout(stage)
                } else if options.rollout != nil {
                    progress("\(tenant): the first \(channel.name) release goes to every device (there is no earlier release to keep for the rest)")
                }
                let staged = try ReleaseChannels.stage(release, tenant: tenant, channel: channel, exposure: exposure,
                                                       provenance: ReleaseProvenance(channel: channel.name, origin: .build),
                                                       keys: keys, output: output, steps: tenantSteps(tenant), warn: progress)
                if case .rollout(let stage) = exposure { prepared.report.rollout = stage }
                return (prepared, staged)
            }
        }
        // One warning for every tenant given development keys (the documented three lines for one tenant), after
        // staging, so before anything signed with them is switched in.
        if let keyStore = options.keys, case let tenants = developmentKeys.all, !tenants.isEmpty {
            progress(keyStore.developmentKeysWarning(tenants: tenants))
        }
        var switched: [Result<PreparedRelease, any Error>] = []
        switched.reserveCapacity(staged.count)
        var flushed: Result<Void, any Error> = .success(())
        let anyStaged = staged.contains(where: { (try? $0.get().staged) != nil })
        if anyStaged {
            flushed = Result { try Publisher.makeDurable(output) }
        }
        if anyStaged, case .success = flushed {
            // Every object this build stored (archives, manifests, copied assets) is on disk now, so the rows
            // naming them may be trusted by the next build without reading the objects (`ContentStore.generation`).
            // Should this fail, the rows keep this build's generation and the next build checks their objects: no harm.
            try? store.markDurable()
            try? builder.markDurable()
        }
        var liveParents = Set<URL>()
        for outcome in staged {
            switched.append(Result {
                let (prepared, staged) = try outcome.get()
                guard let staged else { return prepared }
                var done = false
                defer { if !done { staged.discard() } }
                try flushed.get()
                tenantSteps(staged.tenant)?("signed")
                try staged.switchIn()
                done = true
                liveParents.insert(staged.live.deletingLastPathComponent())
                return prepared
            })
        }
        // The switches on disk before any tenant is recorded as published, or reported switched.
        var parentsFlushed: Result<Void, any Error> = .success(())
        for folder in liveParents.sorted(by: { $0.path < $1.path }) where (try? parentsFlushed.get()) != nil {
            parentsFlushed = Result { try Publisher.syncFolder(folder) }
        }
        let switchesFlushed = parentsFlushed
        let published = ParallelMap.map(switched) { outcome -> Result<TenantBuildReport, any Error> in
            Result {
                let prepared = try outcome.get()
                let tenant = prepared.report.tenant, channel = prepared.report.channel
                var recorded = prepared.manifest?.sha256 ?? prepared.unchangedSHA256
                if prepared.manifest != nil {
                    try switchesFlushed.get()
                    tenantSteps(tenant)?("switched")
                    recorded = prepared.manifest?.sha256
                }
                if let recorded {
                    // The key store as it is after publishing (keys made on first use included).
                    let keyInputs = options.keys.map { BuildRecords.keyInputs($0.folder(for: tenant)) } ?? []
                    do {
                        try records.record(tenant, inputs: inputLists.paths(prepared.inputs), byContent: keyInputs, outputs: BuildRecords.outputs(tenant: tenant, channel: channel, output: output),
                                           settings: channelSettings + channel.name + (options.channel != nil ? overrideMark : ""), manifest: recorded,
                                           summary: (prepared.summary.release, prepared.summary.bundles, prepared.summary.bytes))
                    } catch where prepared.manifest != nil {
                        // The release is live by now: say so, so the failure is not read as "nothing was published".
                        throw RecordFailure(release: prepared.summary.release, reason: error)
                    }
                }
                return prepared.report
            }
        }
        for (prepared, outcome) in zip(pending, published) {
            switch outcome {
            case .success(let report): reports.append(report)
            case .failure(let error):
                failed.append((prepared.report.tenant, failures.count))
                failures.append("\(prepared.report.tenant): \(error)")
            }
        }
        if options.refreshTimestamp, let keyStore = options.keys {
            func refresh(_ tenant: String) throws {
                let keys = try keyStore.keys(for: tenant, create: false, warn: progress)
                // Every channel's timestamp expires on its own clock.
                for channel in Publisher.channels(tenant: tenant, output: output) where Publisher.signaturesCover(tenant: tenant, channel: channel, output: output) {
                    try Publisher.amend(tenant: tenant, channel: channel, output: output) { try RepositorySigner.refreshTimestamp(release: $0, keys: keys, warn: progress) }
                }
            }
            for index in reports.indices where !reports[index].published {
                let tenant = reports[index].tenant
                do {
                    try refresh(tenant)
                    reports[index].timestampRefreshed = true
                    // The record notes the new timestamp, so the next build still finds the tenant current from its record.
                    try records.restamp(tenant, outputs: BuildRecords.outputs(tenant: tenant, channel: reports[index].channel, output: output))
                } catch {
                    failures.append("\(tenant): cannot refresh the timestamp: \(error)")
                }
            }
            // A tenant whose new release failed (a creator's key away while their content changed,
            // say) keeps its published release live, so that one must not expire either.
            for (tenant, index) in failed where !reports.contains(where: { $0.tenant == tenant && $0.published })
                && Publisher.channels(tenant: tenant, output: output).contains(where: { Publisher.signaturesCover(tenant: tenant, channel: $0, output: output) }) {
                guard let release = Publisher.channels(tenant: tenant, output: output).compactMap({ Publisher.currentManifest(tenant: tenant, channel: $0, output: output)?.manifest.release }).max() else { continue }
                do {
                    try refresh(tenant)
                    failures[index] += " (release \(release) stays live, timestamp re-signed)"
                } catch {
                    failures.append("\(tenant): cannot refresh the timestamp of release \(release): \(error)")
                }
            }
        }
        return BuildResult(validation: validation, tenants: reports.sorted { $0.tenant < $1.tenant }, failures: failures)
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
    private final class InvalidFlag: @unchecked Sendable {
        // Guarded by `lock`.
        private var value = false
        private let lock = NSLock()
        func set() { lock.withLock { value = true } }
        var isSet: Bool { lock.withLock { value } }
    }

    /// About how many tenants a build validates and packs between two returns of freed memory to the system.
    static let trimTenants = 36

    /// A count shared by a build's units (tenants packed, for the progress lines; units done).
    private final class Counter: @unchecked Sendable {
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
