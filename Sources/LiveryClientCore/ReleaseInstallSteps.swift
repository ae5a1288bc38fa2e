import Crypto
import Foundation
import LiveryStorage
import LiveryReleaseFormat

/// Steps 3 to 6 of a fetch, each its own function: the plan (room on disk, and how each bundle comes), the downloads,
/// the install into a staging folder, and the switch of `current` with garbage collection.
extension ReleaseInstaller {
    /// Steps 3 to 6 of a fetch: room on disk, downloads (several at once), install (reusing what the
    /// installed release already has), the switch of `current`, and garbage collection.
    static func install(manifest: DownloadManifest, manifestData: Data, prefix: String, wanted: [String], signed: [String: Signed], request: FetchRequest,
                        access: AccessTokenStore, voucherServer: HTTPRepository?, installed: URL?, installedManifest: DownloadManifest?,
                        selection: Selection, offline: (String) throws -> FetchResult) throws -> FetchResult {
        let fm = FileManager.default
        let cache = request.cache
        let release = manifest.release
        let manifestSHA = SHA256.hash(data: manifestData).hexString
        let releaseName = "\(release).\(manifestSHA.prefix(12))"
        let target = cache.appendingPathComponent("releases").appendingPathComponent(releaseName)
        let previous = InstalledRelease(folder: installed, manifest: installedManifest)

        // 3. Room on disk for what must be downloaded and installed, before any download.
        let outcome = DeltaOutcomes()
        let plan = plan(manifest: manifest, prefix: prefix, wanted: wanted, signed: signed, request: request, installed: previous, outcome: outcome)
        let available = availableSpace(at: cache)
        request.onPlan?(plan.needed, available)
        request.onEvent?(.plan(needed: plan.needed, available: available, downloads: plan.planned))
        if let available, available < plan.needed.total {
            throw InsufficientSpace(tenant: request.tenant, release: release, needed: plan.needed, available: available, cache: cache.path,
                                    kept: installedManifest?.release)
        }

        // 4. Download what is not cached yet, several at once, each verified before use; protected bundles with a token.
        let tokens = try tokens(for: wanted.filter { previous.copy(of: $0, signed: signed[$0]) == nil }, manifest: manifest, signed: signed, request: request,
                                access: access, server: voucherServer)
        // Delta bundles are installed straight into the staging folder.
        let staging = cache.appendingPathComponent("releases").appendingPathComponent(".staging-\(UUID().uuidString)")
        defer { try? fm.removeItem(at: staging) }
        try fm.createDirectory(at: staging.appendingPathComponent("bundles"), withIntermediateDirectories: true)
        let outcomes = download(plan, manifest: manifest, prefix: prefix, signed: signed, tokens: tokens, request: request, access: access,
                                voucherServer: voucherServer, staging: staging, outcome: outcome)
        if let problem = try downloadProblem(plan.toDownload, outcomes: outcomes, signed: signed, tokens: tokens, access: access, cache: cache) {
            return try offline(problem)
        }
        let downloaded = plan.toDownload
        let reused = wanted.filter { !plan.toDownload.contains($0) }

        // 5. Install into the staging folder, then switch `current` in one rename.
        let installedByDelta = outcome.done
        try installBundles(wanted, manifest: manifest, signed: signed, tokens: tokens, request: request, access: access, installed: previous,
                           byDelta: installedByDelta, indexObjects: outcome.indexes, staging: staging)
        try manifestData.write(to: staging.appendingPathComponent("download-manifest.json"))
        // Where the bundles came from (`staged/` for a rollout), for bundles added to this release later.
        try Data(prefix.utf8).write(to: staging.appendingPathComponent(".prefix"))
        try Data().write(to: staging.appendingPathComponent(".complete"))
        // Every installed file and folder on disk before anything points at them.
        try DurableFiles.syncTree(staging)
        try commit(staging: staging, as: releaseName, release: release, in: cache, selection: selection)
        let kept = installed?.lastPathComponent == releaseName ? nil : installed?.lastPathComponent

        // 6. Keep the new and the previous release; remove older ones and unreferenced downloads.
        collectGarbage(cache: cache, keep: [releaseName, kept].compactMap { $0 })
        var result = FetchResult(release: release, installed: target, downloaded: downloaded, reused: reused, offline: false, problem: nil)
        result.needed = plan.needed
        result.deltas = installedByDelta.sorted()
        result.deltaFallbacks = outcome.fallbacks
        return result
    }

    /// The release installed before this fetch: a bundle it already has, with the same bytes, is linked from there,
    /// not downloaded or extracted again.
    struct InstalledRelease {
        var folder: URL?
        var manifest: DownloadManifest?

        /// The installed folder of bundle `id`, when the installed release has it with the bytes `signed` names.
        func copy(of id: String, signed: Signed?) -> URL? {
            guard let folder, let manifest, let bundle = manifest.bundle(id), bundle.sha256 == signed?.sha256 else { return nil }
            let bundleFolder = folder.appendingPathComponent("bundles/\(id)")
            return FileManager.default.fileExists(atPath: bundleFolder.path) ? bundleFolder : nil
        }
    }

    /// What step 3 decided: the room needed, and how each bundle not on the device yet comes.
    struct DownloadPlan {
        var needed = SpaceNeeded(download: 0, install: 0)
        /// The bundles neither downloaded before nor in the installed release, in the wanted order.
        var toDownload: [String] = []
        var planned: [PlannedDownload] = []
        /// The bundles that come by delta, as prepared.
        var deltas: [String: PreparedDelta] = [:]
        /// The installed release's indexes, read once, when the first bundle that can come by delta needs them.
        var base: DeltaBase?
    }

    /// Step 3: what must be downloaded and installed, and the room it takes. A bundle with a file index that changed since
    /// the installed release comes by delta when that is smaller (docs/deltas.md); each index fetched is kept in `outcome`.
    static func plan(manifest: DownloadManifest, prefix: String, wanted: [String], signed: [String: Signed], request: FetchRequest,
                     installed: InstalledRelease, outcome: DeltaOutcomes) -> DownloadPlan {
        let fm = FileManager.default
        let downloads = request.cache.appendingPathComponent("downloads")
        var plan = DownloadPlan()
        for id in wanted {
            guard let info = signed[id] else { continue }
            let length = Int64(info.length)
            let have = fm.fileExists(atPath: downloads.appendingPathComponent(info.sha256).path)
            let copy = installed.copy(of: id, signed: info)
            if !have && copy == nil {
                plan.toDownload.append(id)
                // Only a bundle of which the installed release has an earlier version: the index of a bundle new to the
                // device would be fetched before the space check, for what is mostly a whole download anyway.
                if !request.fullDownloadsOnly, let bundle = manifest.bundle(id), bundle.files != nil, bundle.encryption == nil,
                   let folder = installed.folder, fm.fileExists(atPath: folder.appendingPathComponent("bundles/\(id)").path) {
                    let deltaBase = plan.base ?? DeltaBase(release: folder, manifest: installed.manifest)
                    plan.base = deltaBase
                    // A delta that would cost the archive's size or more is not taken; its index, already paid for, is kept.
                    if !deltaBase.isEmpty, let delta = try? DeltaInstall.prepare(bundle, signedSHA256: info.sha256, signedLength: info.length, prefix: prefix,
                                                                                  repository: request.repository, base: deltaBase, scratch: downloads) {
                        outcome.keepIndex(id, delta.object)
                        if delta.indexBytes + delta.rangeBytes < info.length { plan.deltas[id] = delta }
                    }
                }
                if let delta = plan.deltas[id] {
                    plan.needed.download += Int64(delta.rangeBytes)
                    plan.planned.append(PlannedDownload(bundle: id, method: .delta, bytes: delta.indexBytes + delta.rangeBytes, archiveBytes: info.length))
                } else {
                    plan.needed.download += length
                    plan.planned.append(PlannedDownload(bundle: id, method: .full, bytes: info.length, archiveBytes: info.length))
                }
            }
            // Extracted files (the manifest's installSize, else at least the archive's size), and an
            // encrypted bundle's decrypted archive beside them.
            if copy == nil, let bundle = manifest.bundle(id) {
                plan.needed.install += Int64(bundle.installSize ?? Int(length)) + (bundle.encryption == nil ? 0 : length)
            }
        }
        return plan
    }

    /// Step 4: downloads the plan's bundles, several at once, and gives each one's outcome in the plan's order. A bundle
    /// planned as a delta is installed straight into `staging`; one that fails any check is downloaded whole instead
    /// (and extracted in step 5, as any other).
    static func download(_ plan: DownloadPlan, manifest: DownloadManifest, prefix: String, signed: [String: Signed], tokens: [String: AccessGrant],
                         request: FetchRequest, access: AccessTokenStore, voucherServer: HTTPRepository?, staging: URL,
                         outcome: DeltaOutcomes) -> [Result<Void, Error>] {
        let fm = FileManager.default
        let downloads = request.cache.appendingPathComponent("downloads")
        let meter = ProgressMeter(total: plan.needed.download, onEvent: request.onEvent)
        let prepared = plan.deltas, deltaBase = plan.base
        return ParallelDownloads.run(plan.toDownload, width: max(1, request.maxConcurrentDownloads)) { id in
            if let delta = prepared[id], let deltaBase {
                let folder = staging.appendingPathComponent("bundles").appendingPathComponent(id)
                do {
                    meter.started(id, bytes: delta.rangeBytes)
                    try DeltaInstall.install(delta, archivePath: signed[id]!.path, repository: request.repository, base: deltaBase, into: folder, scratch: downloads) {
                        meter.advanced(id, to: $0)
                    }
                    meter.finished(id)
                    outcome.installed(id)
                    return
                } catch {
                    try? fm.removeItem(at: folder)
                    outcome.fellBack(id, because: "\(error)")
                }
            }
            try downloadBundle(id, info: signed[id]!, grant: tokens[id], request: request, access: access, voucherServer: voucherServer, meter: meter)
            // A bundle downloaded whole keeps its file index too, so that its next update can be a delta; without it, the
            // install goes on (that update is then a full download).
            if !request.fullDownloadsOnly, !outcome.hasIndex(id), let bundle = manifest.bundle(id), bundle.files != nil, bundle.encryption == nil,
               let object = try? DeltaInstall.fetchIndex(bundle, signedSHA256: signed[id]!.sha256, prefix: prefix, repository: request.repository, scratch: downloads) {
                outcome.keepIndex(id, object)
            }
        }
    }

    /// The first failed download's problem, for the fetch to sit out offline (a network or server failure); nil when every
    /// download succeeded. A refused token and a full disk are thrown instead: they are no offline case.
    static func downloadProblem(_ toDownload: [String], outcomes: [Result<Void, Error>], signed: [String: Signed], tokens: [String: AccessGrant],
                                access: AccessTokenStore, cache: URL) throws -> String? {
        for (id, outcome) in zip(toDownload, outcomes) {
            switch outcome {
            case .success: continue
            case .failure(let refused as VoucherAccessError):
                // Not a network problem to sit out offline: this subject cannot be had with this token.
                if let grant = tokens[id] { try? access.remove(grant.subject) }
                throw TUFError("\(tokens[id].map { "\($0.subject.kind.noun) '\($0.subject.id)'" } ?? "bundle '\(id)'"): \(refused)")
            case .failure(let error) where CacheFull.isOutOfSpace(error):
                // Not a network problem to sit out offline either: the fetch fails, and says the disk is full.
                let download = cache.appendingPathComponent("downloads").appendingPathComponent(signed[id]?.sha256 ?? id).path
                throw WriteFailure(error, path: download)?.about("the download of \(signed[id]?.name ?? id)") ?? error
            case .failure(let error):
                return "download of \(signed[id]?.name ?? id) failed: \(error)"
            }
        }
        return nil
    }

    /// Step 5: puts every wanted bundle into `staging` with its file index: linked from the installed release when it has
    /// it, else extracted from the verified download (decrypted first when encrypted); a bundle installed by delta is there already.
    static func installBundles(_ wanted: [String], manifest: DownloadManifest, signed: [String: Signed], tokens: [String: AccessGrant], request: FetchRequest,
                               access: AccessTokenStore, installed: InstalledRelease, byDelta: Set<String>, indexObjects: [String: Data], staging: URL) throws {
        let fm = FileManager.default
        let downloads = request.cache.appendingPathComponent("downloads")
        for id in wanted {
            let folder = staging.appendingPathComponent("bundles").appendingPathComponent(id)
            let copy = installed.copy(of: id, signed: signed[id])
            // Each indexed bundle's file index goes with it, for the next delta: fetched in step 3 or 4, or the installed release's.
            let indexFile = DeltaBase.indexFile(in: staging, bundle: id)
            if let object = indexObjects[id] {
                try fm.createDirectory(at: indexFile.deletingLastPathComponent(), withIntermediateDirectories: true)
                try object.write(to: indexFile)
            } else if let folder = installed.folder, copy != nil, case let kept = DeltaBase.indexFile(in: folder, bundle: id), fm.fileExists(atPath: kept.path) {
                try fm.createDirectory(at: indexFile.deletingLastPathComponent(), withIntermediateDirectories: true)
                if link(kept.path, indexFile.path) != 0 { try fm.copyItem(at: kept, to: indexFile) }
            }
            if byDelta.contains(id) { continue }
            if let copy {
                try linkTree(copy, into: folder)
                continue
            }
            let archive = downloads.appendingPathComponent(signed[id]!.sha256)
            guard let encryption = manifest.bundle(id)?.encryption else {
                try ArchiveExtractor.extract(archive, into: folder)
                continue
            }
            // Verified ciphertext in, archive out: decrypted into a temporary file next to the downloads, extracted, removed.
            let key = try contentKey(id, encryption: encryption, grant: tokens[id], access: access, tenant: request.tenant)
            let plain = downloads.appendingPathComponent(".plain-\(UUID().uuidString)")
            defer { try? fm.removeItem(at: plain) }
            do {
                try SegmentedAEAD.decrypt(archive, to: plain, key: key)
            } catch {
                throw TUFError("bundle '\(id)' does not decrypt: \(error)")
            }
            try ArchiveExtractor.extract(plain, into: folder)
        }
    }
}
