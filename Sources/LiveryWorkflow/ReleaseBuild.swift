import CLiverySystem
import Foundation
import LiveryAssets
import LiveryCheck
import LiveryDiagnostics
import LiveryLoad
import LiveryMedia
import LiveryPack
import LiveryParallel
import LiveryPublish
import LiveryResolve
import LiverySign
import LiveryReleaseFormat

/// One `livery build` under the output's lock: what every step shares (the workspace, the output's content store and
/// build records, the settings a record must match), and the steps `ReleaseBuilder.build` runs one after another.
struct ReleaseBuild: Sendable {
    let workspace: URL
    let displayRoot: String
    let output: URL
    let options: BuildOptions
    let progress: @Sendable (String) -> Void
    let store: ContentStore
    let records: BuildRecords
    /// The settings a build record must have been made with, up to the channel the tenant built to (its own, or --channel's).
    let channelSettings: String
    let discovered: WorkspaceFolders

    /// Opens the output's content store and build records, after removing what killed builds left (call holding the lock).
    init(workspace: URL, displayRoot: String, output: URL, options: BuildOptions, progress: @escaping @Sendable (String) -> Void) throws {
        (self.workspace, self.displayRoot, self.output, self.options, self.progress) = (workspace, displayRoot, output, options, progress)
        Publisher.removeLeftovers(in: output)
        store = try ContentStore(root: output.appendingPathComponent(".livery/store"))
        store.removeLeftovers()
        records = try BuildRecords(store: store)
        // The platform templates' digest is a setting: an edited template rebuilds every tenant.
        let baseSettings = "livery \(LiveryVersion.current) rules \(RuleSet.all.rules.count) format \(options.format.rawValue) strict \(options.strict) mtime \(ArchiveWriter.entryTimestamp) signed \(options.keys != nil)"
            + " templates \(BuildRecords.templatesDigest(workspace: workspace.standardizedFileURL))"
        channelSettings = baseSettings + " channel "
        discovered = WorkspaceFolders(discovering: workspace)
    }

    // MARK: load

    /// The wanted tenants whose inputs are all as they were at their last build, reported from their record and not
    /// even loaded, and the rest, in folder order, which the build loads.
    func findChanges() -> (unchanged: [TenantBuildReport], changed: [String]) {
        let wanted = discovered.folders.map(\.lastPathComponent).filter { options.only?.contains($0) ?? true }
        let current = currentRecords(of: Set(wanted))
        var unchanged: [TenantBuildReport] = []
        var changed: [String] = []
        for id in wanted {
            if let report = current[id] ?? untouchedRelease(of: id) {
                unchanged.append(report)
            } else {
                changed.append(id)
            }
        }
        return (unchanged, changed)
    }

    /// A build without --channel publishes to the tenant's own channel, so it takes only a record made
    /// without --channel: one of `--channel beta` says nothing about the tenant's stable release.
    func accepts(_ recorded: String) -> Bool {
        guard let channel = ReleaseBuilder.recordedChannel(recorded, after: channelSettings) else { return false }
        guard let wanted = options.channel else { return !recorded.hasSuffix(ReleaseBuilder.overrideMark) }
        return channel == wanted
    }

    /// Every record in one query, read one at a time; a tenant whose inputs and output files are as its
    /// record saw them is reported from the record alone, without opening its folder or its release.
    private func currentRecords(of wanted: Set<String>) -> [String: TenantBuildReport] {
        var current: [String: TenantBuildReport] = [:]
        records.forEach { id, record in
            guard wanted.contains(id), accepts(record.settings), let summary = record.summary,
                  let channel = ReleaseBuilder.recordedChannel(record.settings, after: channelSettings), records.isCurrent(record) else { return }
            var report = TenantBuildReport(tenant: id, release: summary.release, published: false, bundles: summary.bundles,
                                           rebuilt: [], bytes: summary.bytes, untouched: true)
            report.channel = channel
            current[id] = report
        }
        return current
    }

    /// The report of a tenant untouched since its last build: its inputs are as built last time and that build's
    /// release was published; a release the channel has since rolled back from is not published again while nothing
    /// changes. Nil when the tenant must be built.
    private func untouchedRelease(of id: String) -> TenantBuildReport? {
        let channels = Publisher.channels(tenant: id, output: output)
        let signedAsAsked = options.keys == nil || channels.allSatisfy { Publisher.signaturesCover(tenant: id, channel: $0, output: output) }
        guard !channels.isEmpty, signedAsAsked, records.isUnchanged(id, settings: accepts, published: { _ in true }),
              let recorded = records.recorded(id), let channel = ReleaseBuilder.recordedChannel(recorded.settings, after: channelSettings),
              channels.contains(channel),
              let data = FileManager.default.contents(atPath: store.objectURL(recorded.manifest).path), let manifest = DownloadManifest.parse(data) else { return nil }
        var report = TenantBuildReport(tenant: id, release: manifest.release, published: false, bundles: manifest.bundles.count,
                                       rebuilt: [], bytes: manifest.bundles.reduce(0) { $0 + $1.size }, untouched: true)
        report.channel = channel
        return report
    }

    /// Before anything is packed, stored or signed: a tenant whose output holds a signed release needs the keys
    /// that release's root trusts, and a key store with none for it is the wrong store (or the wrong folder). New
    /// development keys would only be refused by that root later, after being written.
    func refuseReleasesWithoutKeys(_ changed: [String]) throws {
        guard let keyStore = options.keys else { return }
        let orphaned = changed.sorted().compactMap { id in
            PublishedRootWithoutKeys.publishedRoot(tenant: id, output: output).flatMap { keyStore.hasKeys(for: id) ? nil : (id, $0) }
        }
        if !orphaned.isEmpty {
            throw PublishedRootWithoutKeys(tenants: orphaned.map(\.0), roots: orphaned.map(\.1), keyStore: keyStore.root)
        }
    }

    // MARK: resolve, check, render and pack

    /// The build's failure messages, and the tenants whose new release failed with the index of their message
    /// (their live release's timestamp is refreshed all the same).
    struct Failures {
        var messages: [String] = []
        var tenants: [(tenant: String, failure: Int)] = []

        mutating func add(_ tenant: String, _ error: any Error) {
            tenants.append((tenant, messages.count))
            messages.append("\(tenant): \(error)")
        }
    }

    /// What checking and packing hand to signing and publishing.
    struct Packed {
        var validation: ValidationResult
        /// Every packed tenant's release, in the order the tenants were packed.
        var pending: [ReleaseBuilder.PreparedRelease]
        var failures: Failures
        let builder: BundleBuilder
        let inputLists: ReleaseBuilder.InputLists
    }

    /// Validates the changed tenants and packs them, a unit at a time, and stores what was packed. Nothing is
    /// published unless every unit validated clean.
    func checkAndPack(_ changed: [String]) throws -> Packed {
        let builder = try BundleBuilder(store: store)
        let inputLists = ReleaseBuilder.InputLists()
        var diagnostics: [Diagnostic] = []
        var checked: [String] = []
        // A tenant folder the loader refuses (a symbolic link out of the workspace) is never loaded or
        // built, but its error stops the build, as it fails `livery validate`.
        let refused = Set(discovered.refused.map(\.name).filter { options.only?.contains($0) ?? true })
        if !refused.isEmpty {
            let validation = Validator.validate(workspace: workspace, displayRoot: displayRoot, rules: .all, only: refused, strict: options.strict, discovered: discovered)
            diagnostics += validation.diagnostics
            checked += validation.checked
        }
        var pending: [ReleaseBuilder.PreparedRelease] = []
        var failures = Failures()
        for (unitDiagnostics, unitChecked, packed) in validateAndPack(changed, builder: builder, inputLists: inputLists) {
            diagnostics += unitDiagnostics
            checked += unitChecked
            // Packed units before the first invalid one are dropped with it: nothing is published.
            guard diagnostics.errorCount == 0 else { continue }
            for (tenant, outcome) in packed {
                switch outcome {
                case .success(let prepared): pending.append(prepared)
                case .failure(let error): failures.add(tenant, error)
                }
            }
        }
        // The store's rows (digests, object stamps) are written once for every tenant packed. Should that fail (a full
        // disk), each tenant waiting to be published fails with it, named, and none is published; with none waiting, the
        // failure is the build's.
        do {
            try store.flush()
        } catch {
            if pending.isEmpty && failures.messages.isEmpty && diagnostics.errorCount == 0 { throw error }
            for prepared in pending { failures.add(prepared.report.tenant, error) }
            pending = []
        }
        let validation = ValidationResult(diagnostics: diagnostics.normalized(), tenants: [], checked: Array(Set(checked)).sorted())
        return Packed(validation: validation, pending: pending, failures: failures, builder: builder, inputLists: inputLists)
    }

    typealias UnitOutcome = (diagnostics: [Diagnostic], checked: [String], packed: [(tenant: String, outcome: Result<ReleaseBuilder.PreparedRelease, any Error>)])

    /// Tenants are validated and packed in small units, each unit on one thread from its validation to
    /// its packing, several units at once: a barrier after each phase of a group (load, check, pack)
    /// left a core idle while the other finished the phase's last tenant. Memory stays bounded by the
    /// units in flight (one per worker). A unit packs nothing once any unit has failed validation.
    /// Results are gathered in unit order, so the outcome is the same for any number of workers.
    private func validateAndPack(_ ordered: [String], builder: BundleBuilder, inputLists: ReleaseBuilder.InputLists) -> [UnitOutcome] {
        // Audio and video are measured once: by validation, into the probe cache the next build (and
        // `livery validate`) reads, and again by the planner for the download manifest's durations.
        let media = MediaMeasurements(output: output)
        // The platform templates are read and parsed once for every tenant of the build (when they cannot
        // be, each tenant's planning reports why).
        let templates = ordered.isEmpty ? nil : try? BundlePlanner.templates(workspace: workspace.standardizedFileURL)
        // Tenants with the same strings share their locale bundles' generated files (GeneratedFileMemo).
        let generated = GeneratedFileMemo()
        let unitSize = max(1, min(ReleaseBuilder.groupSize, ordered.count / (4 * ParallelMap.workers)))
        let units = stride(from: 0, to: ordered.count, by: unitSize).map { Set(ordered[$0..<min($0 + unitSize, ordered.count)]) }
        let invalid = ReleaseBuilder.InvalidFlag()
        let packedCount = ReleaseBuilder.Counter(), unitsDone = ReleaseBuilder.Counter()
        // Freed memory goes back to the system every few units: after each one, the pages it handed back were
        // faulted in again by the next (a few percent of a 200-tenant build's time), for about the same peak.
        let trimEvery = max(1, ReleaseBuilder.trimTenants / unitSize)
        @Sendable func validateAndPack(_ unit: Set<String>) -> UnitOutcome {
            let validation = Validator.validate(workspace: workspace, displayRoot: displayRoot, rules: .all, only: unit, strict: options.strict, media: media,
                                                discovered: discovered)
            guard validation.diagnostics.errorCount == 0 else {
                invalid.set()
                return (validation.diagnostics, validation.checked, [])
            }
            guard !invalid.isSet else { return (validation.diagnostics, validation.checked, []) }
            let packed = validation.tenants.filter { unit.contains($0.id) }.map { tenant in
                (tenant.id, Result { try ReleaseBuilder.prepare(tenant, store: store, builder: builder, output: output, options: options, records: records,
                                                                channelSettings: channelSettings, media: validation.media, templates: templates,
                                                                generated: generated, inputLists: inputLists) })
            }
            // Said under the count's lock, so the counts a terminal shows only go up.
            packedCount.add(unit.count) { done in progress("packed \(done) of \(ordered.count) changed tenant\(ordered.count == 1 ? "" : "s")") }
            return (validation.diagnostics, validation.checked, packed)
        }
        return ParallelMap.map(units) { unit in
            let outcome = validateAndPack(unit)
            // Give freed memory back to the system (this unit's tenants are released by now).
            if unitsDone.add(1) % trimEvery == 0 { livery_release_free_memory() }
            return outcome
        }
    }
}
