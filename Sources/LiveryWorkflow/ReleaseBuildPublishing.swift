import Foundation
import LiveryAssets
import LiveryLoad
import LiveryPack
import LiveryParallel
import LiveryPublish
import LiverySign
import LiveryReleaseFormat

// Sign and publish: each tenant publishes into its own folder and signs with its own keys, so tenants stage their
// releases in parallel. Then one flush of the file system makes every staged tree durable (a flush per tenant waited
// for the whole file system's dirty pages each time), each is switched in, the folders holding the live trees are
// flushed once each, and each tenant is recorded in the build records. Reports and failures are gathered in the order
// the tenants were packed.
extension ReleaseBuild {
    typealias Staged = Result<(prepared: ReleaseBuilder.PreparedRelease, staged: Publisher.Staged?), any Error>

    /// `--verbose`'s steps of one tenant (`<tenant> assembled|signed|switched`).
    func steps(of tenant: String) -> ((String) -> Void)? {
        options.steps.map { report in { report("\(tenant) \($0)") } }
    }

    /// Signs and stages every changed release beside its live one; nothing is switched in yet.
    func sign(_ pending: [ReleaseBuilder.PreparedRelease]) -> [Staged] {
        // Tenants given development keys by this build: warned about once, after staging (see below).
        let developmentKeys = ReleaseBuilder.TenantList()
        let staged = ParallelMap.map(pending) { pending -> Staged in
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
                                                       keys: keys, output: output, steps: steps(of: tenant), warn: progress)
                if case .rollout(let stage) = exposure { prepared.report.rollout = stage }
                return (prepared, staged)
            }
        }
        // One warning for every tenant given development keys (the documented three lines for one tenant), after
        // staging, so before anything signed with them is switched in.
        if let keyStore = options.keys, case let tenants = developmentKeys.all, !tenants.isEmpty {
            progress(keyStore.developmentKeysWarning(tenants: tenants))
        }
        return staged
    }

    /// Makes every staged tree durable with one flush, switches each in, and flushes the folders holding the live
    /// trees; a staged tree not switched in is discarded. Returns each release, and whether the switches are on disk.
    func switchIn(_ staged: [Staged], builder: BundleBuilder) -> (switched: [Result<ReleaseBuilder.PreparedRelease, any Error>], flushed: Result<Void, any Error>) {
        var switched: [Result<ReleaseBuilder.PreparedRelease, any Error>] = []
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
                steps(of: staged.tenant)?("signed")
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
        return (switched, parentsFlushed)
    }

    /// Records every release switched in (and every unchanged one) in the build records, once the switches are on disk.
    func record(_ switched: [Result<ReleaseBuilder.PreparedRelease, any Error>], switchesFlushed: Result<Void, any Error>,
                inputLists: ReleaseBuilder.InputLists) -> [Result<TenantBuildReport, any Error>] {
        ParallelMap.map(switched) { outcome -> Result<TenantBuildReport, any Error> in
            Result {
                let prepared = try outcome.get()
                let tenant = prepared.report.tenant, channel = prepared.report.channel
                var recorded = prepared.manifest?.sha256 ?? prepared.unchangedSHA256
                if prepared.manifest != nil {
                    try switchesFlushed.get()
                    steps(of: tenant)?("switched")
                    recorded = prepared.manifest?.sha256
                }
                if let recorded {
                    // The key store as it is after publishing (keys made on first use included).
                    let keyInputs = options.keys.map { BuildRecords.keyInputs($0.folder(for: tenant)) } ?? []
                    do {
                        try records.record(tenant, inputs: inputLists.paths(prepared.inputs), byContent: keyInputs, outputs: BuildRecords.outputs(tenant: tenant, channel: channel, output: output),
                                           settings: channelSettings + channel.name + (options.channel != nil ? ReleaseBuilder.overrideMark : ""), manifest: recorded,
                                           summary: (prepared.summary.release, prepared.summary.bundles, prepared.summary.bytes))
                    } catch where prepared.manifest != nil {
                        // The release is live by now: say so, so the failure is not read as "nothing was published".
                        throw RecordFailure(release: prepared.summary.release, reason: error)
                    }
                }
                return prepared.report
            }
        }
    }
}

extension ReleaseBuild {
    /// `--refresh-timestamp`: re-signs the timestamp of every release that did not change, and of the live release of
    /// every tenant whose new release failed, so that none expires.
    func refreshTimestamps(_ reports: inout [TenantBuildReport], failures: inout Failures, keyStore: KeyStore) {
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
                failures.messages.append("\(tenant): cannot refresh the timestamp: \(error)")
            }
        }
        // A tenant whose new release failed (a creator's key away while their content changed,
        // say) keeps its published release live, so that one must not expire either.
        for (tenant, index) in failures.tenants where !reports.contains(where: { $0.tenant == tenant && $0.published })
            && Publisher.channels(tenant: tenant, output: output).contains(where: { Publisher.signaturesCover(tenant: tenant, channel: $0, output: output) }) {
            guard let release = Publisher.channels(tenant: tenant, output: output).compactMap({ Publisher.currentManifest(tenant: tenant, channel: $0, output: output)?.manifest.release }).max() else { continue }
            do {
                try refresh(tenant)
                failures.messages[index] += " (release \(release) stays live, timestamp re-signed)"
            } catch {
                failures.messages.append("\(tenant): cannot refresh the timestamp of release \(release): \(error)")
            }
        }
    }
}
