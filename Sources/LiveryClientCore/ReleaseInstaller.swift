import Crypto
import Foundation
import LiveryStorage
import LiveryReleaseFormat

/// What an app asks for: the essential bundles always, its user's locale, and the programs and tours opened.
public struct FetchRequest: Sendable {
    public var tenant: String
    /// The tenant's repository: `<server>/<tenant>/` with `metadata/` and `targets/` under it.
    public var repository: any RepositorySource
    /// The local cache of this tenant (trusted metadata, downloads, installed releases).
    public var cache: URL
    /// Root metadata to trust on first use; later fetches trust the cached root.
    public var bootstrapRoot: Data?
    public var locale: String?
    public var programs: [String] = []
    public var tours: [String] = []
    /// Voucher codes to redeem before fetching; the tokens are kept in the cache.
    public var vouchers: [String] = []
    /// The voucher server of this tenant (`<server>/<tenant>`: redemption, fresh signed URLs and keys)
    /// when it is not the repository's server, as when the repository is a bucket or a CDN.
    public var voucherServer: URL?
    /// How `voucherServer` is reached. nil: as the repository is, when it is an `HTTPRepository`; a request
    /// with a voucher server and a repository of another kind must name one (`AsyncHTTPTransport.shared`).
    public var transport: (any HTTPTransport)?
    /// The app's version, checked against the release's and each wanted bundle's
    /// `minimumClientVersion` before anything is downloaded (`AppUpdateRequired`). nil skips the check:
    /// set it in an app; `livery fetch` sets it with `--app-version`.
    public var appVersion: ClientVersion?
    /// Told, before any download, what the fetch needs on disk and what is free (nil: unknown), so an
    /// app can show it; a fetch that does not fit throws `InsufficientSpace` right after.
    public var onPlan: (@Sendable (SpaceNeeded, Int64?) -> Void)?
    /// The channel `repository` is (`<server>/<tenant>/` for stable, `<server>/<tenant>/channels/<name>/`
    /// otherwise; docs/output.md#channels). It takes part in rollout bucketing; use one cache per channel.
    public var channel = ReleaseChannel.stable
    /// This install's stable id for staged rollouts (docs/client.md#staged-rollout). nil: the cache's
    /// `device-id`, made on first use. An app that has its own install id may pass it.
    public var installID: String?
    /// Tours and programs to add to this cache's remembered selection (kept by every later fetch), or
    /// to take out of it. With any of these, a fetch changes the installed release instead of updating
    /// it: added bundles come from the installed manifest, the rest stay as installed.
    public var addTours: [String] = []
    public var addPrograms: [String] = []
    public var removeTours: [String] = []
    public var removePrograms: [String] = []
    /// Bundles downloaded at once, at most (each streams to its own file; memory stays bounded).
    public var maxConcurrentDownloads = 4
    /// Never download by delta (docs/deltas.md): every changed bundle comes whole. For measurements and
    /// for servers that break range requests.
    public var fullDownloadsOnly = false
    /// A release shipped inside the app (`livery embed`): installed into an empty cache before the first
    /// fetch, with no network, and the base of later deltas (docs/deltas.md#a-release-inside-the-app).
    public var embeddedRelease: URL?
    /// False only while installing an embedded release, which holds the channel's release, never a staged one.
    var takesStagedRelease = true
    /// Told what the fetch does as it goes: the plan, each download's start, progress and end, and the
    /// result (`ReleaseInstaller.events(_:)` gives the same as an `AsyncSequence`). Called from the
    /// downloading threads: keep it quick.
    public var onEvent: (@Sendable (FetchEvent) -> Void)?
    public var now = Date()

    /// Whether the fetch adds to or removes from the installed release rather than updating it.
    public var changesInstalledRelease: Bool { !(addTours.isEmpty && addPrograms.isEmpty && removeTours.isEmpty && removePrograms.isEmpty) }

    public init(tenant: String, repository: any RepositorySource, cache: URL, bootstrapRoot: Data? = nil, locale: String? = nil) {
        self.tenant = tenant
        self.repository = repository
        self.cache = cache
        self.bootstrapRoot = bootstrapRoot
        self.locale = locale
    }
}

/// What a fetch did.
public struct FetchResult: Sendable {
    public var release: Int
    public var installed: URL
    public var downloaded: [String]
    public var reused: [String]
    /// True when the refresh failed and the previously installed release is kept for offline use.
    public var offline: Bool
    /// False when the fetch left the installed release as it was: it is the channel's current one (and has every
    /// bundle asked for), or the channel offers an older one after a halted rollout. An app says "up to date", not "installed".
    public var changed = true
    public var problem: String?
    /// What the fetch needed on disk before it started (zero when nothing had to change).
    public var needed = SpaceNeeded(download: 0, install: 0)
    /// True when the release came from a staged rollout this install's bucket falls in.
    public var staged = false
    /// The downloaded bundles that came by delta (only their changed files; docs/deltas.md).
    public var deltas: [String] = []
    /// Bundles whose delta failed a check and were downloaded whole instead, with the reason.
    public var deltaFallbacks: [String: String] = [:]
    /// What the fetch chose instead of what was asked, for the app to tell its user or log: a locale the release
    /// does not have (and the one used), a tour without audio in the locale (and the language installed), a
    /// remembered tour or program the release no longer has.
    public var notes: [String] = []
}

/// A fetch asked for a tour or program the release does not have (a typo, or content withdrawn): nothing changed.
public struct UnknownSelection: Error, CustomStringConvertible, Sendable {
    public var release: Int
    /// "tour" or "program".
    public var noun: String
    public var unknown: [String]
    public var known: [String]

    public var description: String {
        "release \(release) has no \(noun) \(unknown.map { "'\($0)'" }.joined(separator: ", "))"
            + (known.isEmpty ? " (it has none)" : " (its \(noun)s: \(known.joined(separator: ", ")))")
    }
}

/// What the parallel downloads learnt about deltas: which bundles came by delta, which fell back to a full
/// download and why, and the file index object of each indexed bundle, to keep in the new release.
final class DeltaOutcomes: @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`.
    private var succeeded = Set<String>()
    private var reasons: [String: String] = [:]
    private var objects: [String: Data] = [:]
    func installed(_ id: String) { lock.withLock { _ = succeeded.insert(id) } }
    func fellBack(_ id: String, because reason: String) { lock.withLock { reasons[id] = reason } }
    func keepIndex(_ id: String, _ object: Data) { lock.withLock { objects[id] = object } }
    func hasIndex(_ id: String) -> Bool { lock.withLock { objects[id] != nil } }
    var done: Set<String> { lock.withLock { succeeded } }
    var fallbacks: [String: String] { lock.withLock { reasons } }
    var indexes: [String: Data] { lock.withLock { objects } }
}

/// The reference client's install step: refresh TUF metadata, read the download manifest, download
/// the bundles the app needs (resuming partial downloads, verifying each by length and SHA-256
/// before use), extract them safely, and switch the cache's `current` link in one step. The previous
/// release stays for offline use; older ones are removed.
///
/// Cache layout: `metadata/{root,timestamp,snapshot,targets}.json` (trusted, unversioned),
/// `downloads/<sha256>` (verified archives), `releases/<release>.<manifest sha>/` (installed trees:
/// `download-manifest.json` and `bundles/<id>/…`), and `current` → the installed release.
public enum ReleaseInstaller {
    public static func fetch(_ request: FetchRequest) throws -> FetchResult {
        // An app's first start: its embedded release, if it ships one, before anything else.
        let seeding = request.embeddedRelease.flatMap { request.changesInstalledRelease ? nil : EmbeddedRelease.seed(request, from: $0) }
        let result: FetchResult
        do {
            result = try fetchOrKeep(request)
        } catch let error where CacheFull.isOutOfSpace(error) {
            let cache = request.cache
            let kept = (try? FileManager.default.destinationOfSymbolicLink(atPath: current(cache).path))
                .flatMap { try? DownloadManifest(data: Data(contentsOf: cache.appendingPathComponent($0).appendingPathComponent(DownloadManifest.targetName))) }?.release
            throw CacheFull(tenant: request.tenant, cache: cache.path, available: availableSpace(at: cache), writing: CacheFull.writing(error, cache: cache), kept: kept)
        } catch let error where seeding != nil {
            throw NotSeeded(fetch: error, seeding: seeding!)
        }
        request.onEvent?(.installed(result))
        return result
    }

    static func fetchOrKeep(_ request: FetchRequest) throws -> FetchResult {
        let cache = request.cache
        let lockDescriptor = try lockCache(cache)
        defer { flock(lockDescriptor, LOCK_UN); close(lockDescriptor) }

        let installed = (try? FileManager.default.destinationOfSymbolicLink(atPath: current(cache).path)).map { cache.appendingPathComponent($0) }
        // Vouchers first: a code that does not redeem fails the fetch before anything changes.
        let access = AccessTokenStore(cache: cache)
        let voucherServer = try redeemVouchers(request, access: access)
        /// The installed release's manifest, if a release is installed and readable.
        func installedManifest() -> DownloadManifest? {
            installed.flatMap { try? DownloadManifest(data: Data(contentsOf: $0.appendingPathComponent(DownloadManifest.targetName))) }
        }
        func offline(_ problem: String) throws -> FetchResult {
            // A full disk is not a network problem to sit out offline: the fetch fails, and says so (`CacheFull`).
            guard let installed, let manifest = installedManifest(), !CacheFull.isOutOfSpace(TUFError(problem)) else { throw TUFError(problem) }
            return FetchResult(release: manifest.release, installed: installed, downloaded: [], reused: [], offline: true, problem: problem)
        }

        // Adding to or removing from the installed release: no update.
        if request.changesInstalledRelease, let installed, let manifest = installedManifest(),
           let manifestData = try? Data(contentsOf: installed.appendingPathComponent(DownloadManifest.targetName)) {
            return try change(request, installed: installed, manifest: manifest, manifestData: manifestData, access: access, voucherServer: voucherServer)
        }

        // 1. Metadata.
        let store = MetadataFolder(cache.appendingPathComponent("metadata"))
        guard store.load("root") != nil || request.bootstrapRoot != nil else { throw TUFError("no trusted root: pass the tenant's 1.root.json on first use") }
        let refreshed: RefreshedRelease
        do {
            refreshed = try refresh(request, store: store, access: access)
        } catch {
            return try offline("refresh failed: \(error)")
        }
        let manifestData = refreshed.manifestData, prefix = refreshed.prefix

        // 2. The bundles this app needs: what it asks for now and what was added to this cache before.
        let manifest = try DownloadManifest(data: manifestData)
        // Never back to an older release: after a halted rollout, an install that took the staged
        // release keeps it until the channel has a newer one.
        if let kept = installedManifest(), kept.release > manifest.release, let installed {
            var result = FetchResult(release: kept.release, installed: installed, downloaded: [], reused: [], offline: false,
                                     problem: "the channel offers release \(manifest.release), older than the installed release \(kept.release) (a halted rollout); keeping \(kept.release)")
            result.changed = false
            return result
        }
        let remembered = try Selection.load(cache: cache).applying(request)
        let choice = try choose(manifest.bundles, release: manifest.release, request: request, remembered: remembered)
        let wanted = choice.wanted
        // A release this app cannot read is not installed, and is not an offline case either: the app must be updated.
        if let app = request.appVersion {
            try checkAppVersion(app, manifest: manifest, wanted: wanted, kept: installedManifest()?.release)
        }
        let trusted: TrustedMetadata
        do {
            trusted = try loadTargets(of: wanted, manifest: manifest, prefix: prefix, updater: refreshed.updater)
        } catch {
            return try offline("refresh failed: \(error)")
        }
        let signed = try signedBundles(wanted, manifest: manifest, prefix: prefix, trusted: trusted)
        if var result = unchanged(cache: cache, installed: installed, manifest: manifest, manifestData: manifestData, wanted: wanted) {
            result.staged = !prefix.isEmpty
            result.notes = choice.notes
            return result
        }
        var result = try install(manifest: manifest, manifestData: manifestData, prefix: prefix, wanted: wanted, signed: signed, request: request, access: access,
                                 voucherServer: voucherServer, installed: installed, installedManifest: installedManifest(), selection: remembered, offline: offline)
        result.staged = !prefix.isEmpty
        result.notes = choice.notes
        return result
    }

    /// Makes the cache's folders and takes its lock (one fetch at a time per cache); returns the lock's descriptor.
    static func lockCache(_ cache: URL) throws -> Int32 {
        for folder in ["metadata", "downloads", "releases"] {
            try FileManager.default.createDirectory(at: cache.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        let lockDescriptor = open(cache.appendingPathComponent("lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lockDescriptor >= 0, flock(lockDescriptor, LOCK_EX) == 0 else { throw WriteFailure(errno: errno, path: cache.path, operation: .lock) }
        return lockDescriptor
    }

    /// The voucher server of this fetch, once the request's voucher codes are redeemed with it (their tokens kept in the cache).
    static func redeemVouchers(_ request: FetchRequest, access: AccessTokenStore) throws -> HTTPRepository? {
        var voucherServer = request.repository as? HTTPRepository
        if let url = request.voucherServer {
            guard let transport = request.transport ?? voucherServer?.transport else {
                throw TUFError("a voucher server is reached over HTTP: set FetchRequest.transport when the repository is not an HTTPRepository")
            }
            voucherServer = HTTPRepository(base: url, transport: transport)
        }
        if !request.vouchers.isEmpty {
            guard let voucherServer else { throw TUFError("vouchers are redeemed with a server: use an HTTP repository, or name the voucher server") }
            let device = try access.deviceID()
            let deviceKey = try access.deviceKey().publicKey
            for code in request.vouchers { try access.save(try voucherServer.redeem(code: code, device: device, deviceKey: deviceKey)) }
        }
        return voucherServer
    }

    /// What step 1 of a fetch trusts: the refreshed metadata and the download manifest to install.
    struct RefreshedRelease {
        var updater: TUFUpdater
        var manifestData: Data
        /// "" for the channel's release; `staged/` when this install takes a release being rolled out.
        var prefix: String
    }

    /// Step 1: refreshes the metadata kept in `store` and downloads the signed download manifest, the staged one when this
    /// install is in a rollout's stage.
    static func refresh(_ request: FetchRequest, store: MetadataFolder, access: AccessTokenStore) throws -> RefreshedRelease {
        // Each file is kept in the cache as soon as it is trusted (TUF 1.0.x §5.3–5.6).
        let updater = try TUFUpdater(source: request.repository, store: store, bootstrapRoot: request.bootstrapRoot, now: request.now)
        try updater.refresh()
        guard var manifestTarget = try updater.targetInfo(DownloadManifest.targetName) else { throw TUFError("the release has no signed download manifest") }
        var prefix = ""
        if request.takesStagedRelease, let staged = try updater.targetInfo(RolloutStage.stagedManifestName), let custom = try TargetCustom(of: staged.target),
           let stage = custom.rollout, let number = custom.release,
           stage.includes(tenant: request.tenant, channel: request.channel.name, release: number, installID: try request.installID ?? access.deviceID()) {
            manifestTarget = staged
            prefix = RolloutStage.targetPrefix
        }
        return RefreshedRelease(updater: updater, manifestData: try updater.download(manifestTarget.target), prefix: prefix)
    }

    /// The trusted targets of the `wanted` bundles. Delegated roles are loaded only as far as the search for these bundles
    /// needs (§5.6.7): a broken role that signs nothing this app asks for does not stop it.
    static func loadTargets(of wanted: [String], manifest: DownloadManifest, prefix: String, updater: TUFUpdater) throws -> TrustedMetadata {
        for id in wanted { _ = try updater.targetInfo("\(prefix)\(id).\(manifest.format.fileExtension)") }
        return try TrustedMetadata(updater.trusted)
    }

    /// Each wanted bundle as signed: its target name, length and SHA-256.
    static func signedBundles(_ wanted: [String], manifest: DownloadManifest, prefix: String, trusted: TrustedMetadata) throws -> [String: Signed] {
        var signed: [String: Signed] = [:]
        for id in wanted {
            let name = "\(prefix)\(id).\(manifest.format.fileExtension)"
            guard let info = trusted.target(name) else { throw TUFError("bundle '\(id)' is not a signed target") }
            signed[id] = Signed(name: name, length: info.length, sha256: info.sha256, path: "targets/\(prefix)\(info.sha256).\(id).\(manifest.format.fileExtension)")
        }
        return signed
    }

    /// The result of a fetch that changes nothing, when the installed release is this one, complete, with exactly the wanted bundles.
    static func unchanged(cache: URL, installed: URL?, manifest: DownloadManifest, manifestData: Data, wanted: [String]) -> FetchResult? {
        let fm = FileManager.default
        let manifestSHA = SHA256.hash(data: manifestData).hexString
        let target = cache.appendingPathComponent("releases").appendingPathComponent("\(manifest.release).\(manifestSHA.prefix(12))")
        let everythingThere = wanted.allSatisfy { fm.fileExists(atPath: target.appendingPathComponent("bundles/\($0)").path) }
            && (try? fm.contentsOfDirectory(atPath: target.appendingPathComponent("bundles").path))?.count == wanted.count
        guard installed?.standardizedFileURL.path == target.standardizedFileURL.path, everythingThere,
              fm.fileExists(atPath: target.appendingPathComponent(".complete").path) else { return nil }
        var result = FetchResult(release: manifest.release, installed: target, downloaded: [], reused: wanted, offline: false, problem: nil)
        result.changed = false
        return result
    }

    /// Adds bundles to the installed release, or removes optional ones, without updating it: the
    /// bundles are the installed manifest's (verified when it was installed), the others are linked
    /// from the installed tree, not downloaded or extracted again.
    static func change(_ request: FetchRequest, installed: URL, manifest: DownloadManifest, manifestData: Data, access: AccessTokenStore,
                       voucherServer: HTTPRepository?) throws -> FetchResult {
        let remembered = try Selection.load(cache: request.cache).applying(request)
        let choice = try choose(manifest.bundles, release: manifest.release, request: request, remembered: remembered)
        let wanted = choice.wanted
        if let app = request.appVersion { try checkAppVersion(app, manifest: manifest, wanted: wanted, kept: manifest.release) }
        let prefix = (try? String(contentsOf: installed.appendingPathComponent(".prefix"), encoding: .utf8)) ?? ""
        var signed: [String: Signed] = [:]
        for id in wanted {
            guard let bundle = manifest.bundle(id) else { continue }
            signed[id] = Signed(name: prefix + bundle.targetName(format: manifest.format), length: bundle.size, sha256: bundle.sha256,
                                path: "targets/\(prefix)\(bundle.sha256).\(bundle.targetName(format: manifest.format))")
        }
        var result = try install(manifest: manifest, manifestData: manifestData, prefix: prefix, wanted: wanted, signed: signed, request: request, access: access,
                                 voucherServer: voucherServer, installed: installed, installedManifest: manifest, selection: remembered) { problem in
            throw TUFError("\(problem) (the installed release \(manifest.release) may no longer be on the server: fetch the current release first)")
        }
        result.notes = choice.notes
        return result
    }

    /// A wanted bundle as the signed metadata (or, adding to an installed release, its verified manifest) describes it.
    struct Signed: Sendable {
        var name: String
        var length: Int
        var sha256: String
        /// Where it is on the server, under the repository.
        var path: String
    }

    static func current(_ cache: URL) -> URL { cache.appendingPathComponent("current") }

    /// The install's one visible change, as a transaction: everything that takes room on disk (the release tree, the
    /// new `current` link, the remembered selection) is written first; then only renames follow, and if one of them
    /// fails, those already done are undone in reverse order, so the app sees the old release or the new one, whole.
    static func commit(staging: URL, as releaseName: String, release: Int, in cache: URL, selection: Selection) throws {
        let fm = FileManager.default
        let releases = cache.appendingPathComponent("releases")
        let target = releases.appendingPathComponent(releaseName)
        let link = cache.appendingPathComponent(".current.\(UUID().uuidString)")
        let selectionFile = Selection.file(cache)
        let stagedSelection = cache.appendingPathComponent(".selection.\(UUID().uuidString)")
        let aside = releases.appendingPathComponent(".replaced-\(UUID().uuidString)")
        defer {
            for leftover in [link, stagedSelection, aside] { try? fm.removeItem(at: leftover) }
        }
        try fm.createSymbolicLink(atPath: link.path, withDestinationPath: "releases/\(releaseName)")
        let selectionChanges = (try? Selection.load(cache: cache)) != selection
        if selectionChanges { try selection.write(to: stagedSelection) }

        var undo: [() -> Void] = []
        // What each rename puts in place is `subject` of its failure; the undo below leaves the cache as it was.
        func step(_ subject: String, _ from: URL, _ to: URL, undoneBy reverse: (() -> Void)? = nil) throws {
            guard rename(from.path, to.path) == 0 else {
                throw WriteFailure(errno: errno, path: to.path, subject: subject, operation: .replace)
            }
            if let reverse { undo.append(reverse) }
        }
        do {
            // The same release again (bundles added or removed): the old tree moves aside, the new one takes its name.
            if fm.fileExists(atPath: target.path) {
                try step("release \(release)", target, aside) { _ = rename(aside.path, target.path) }
            }
            try step("release \(release)", staging, target) { _ = rename(target.path, staging.path) }
            try DurableFiles.sync(releases)
            // `current` before the switch, to restore: the installed link's own text, or none.
            let previousLink = try? fm.destinationOfSymbolicLink(atPath: current(cache).path)
            try step("the current link to release \(release)", link, current(cache)) {
                if let previousLink, (try? fm.createSymbolicLink(atPath: link.path, withDestinationPath: previousLink)) != nil {
                    _ = rename(link.path, current(cache).path)
                } else if previousLink == nil {
                    unlink(current(cache).path)
                }
            }
            if selectionChanges { try step("the selection", stagedSelection, selectionFile) }
            try DurableFiles.sync(cache)
        } catch {
            // A failed rename, or a failed sync after them: what was renamed goes back, latest first.
            for action in undo.reversed() { action() }
            throw error
        }
    }

    /// Downloads one bundle into `downloads/<sha256>`, resuming a partial file, verified before it is
    /// renamed into place. A protected bundle comes through its signed URL (renewed once with the token
    /// if it expires mid-way) or with the token as a bearer.
    static func downloadBundle(_ id: String, info: Signed, grant: AccessGrant?, request: FetchRequest, access: AccessTokenStore,
                               voucherServer: HTTPRepository?, meter: ProgressMeter) throws {
        let file = request.cache.appendingPathComponent("downloads").appendingPathComponent(info.sha256)
        let partial = file.appendingPathExtension("part")
        meter.started(id, bytes: info.length)
        let progress: @Sendable (Int) -> Void = { meter.advanced(id, to: $0) }
        do {
            let fileName = String(info.path.split(separator: "/").last ?? "")
            if let grant, let server = voucherServer, grant.url(of: id, file: fileName, now: Date()) != nil {
                var current = grant
                for attempt in 1...2 {
                    guard let text = current.url(of: id, file: fileName, now: Date()), let address = URL(string: text, relativeTo: server.base)?.absoluteURL else {
                        throw VoucherAccessError(path: info.path, status: 403, hadToken: true)
                    }
                    do {
                        guard try server.download(from: address, named: info.path, to: partial, maxLength: info.length, progress: progress) else {
                            throw TUFError("\(info.name) is missing on the server")
                        }
                        break
                    } catch is VoucherAccessError where attempt == 1 {
                        current = try renewLock.withLock { () throws -> AccessGrant in
                            let renewed = try server.renew(current, deviceKey: try access.deviceKey().publicKey)
                            try access.save(renewed)
                            return renewed
                        }
                    }
                }
            } else if let http = request.repository as? HTTPRepository {
                // Streams to disk and resumes a partial file with a range request.
                guard try http.download(info.path, to: partial, maxLength: info.length, bearer: grant?.token, progress: progress) else {
                    throw TUFError("\(info.name) is missing on the server")
                }
            } else {
                guard let data = try request.repository.fetch(info.path, maxLength: info.length) else { throw TUFError("\(info.name) is missing on the server") }
                try AtomicFile.write(data, to: partial, mode: 0o666, durable: false)
                progress(data.count)
            }
            try verify(partial, length: info.length, sha256: info.sha256, name: info.name)
            try DurableFiles.sync(partial)
            guard rename(partial.path, file.path) == 0 else { throw WriteFailure(errno: errno, path: file.path, subject: info.name, operation: .replace) }
            meter.finished(id)
        } catch let refused as VoucherAccessError {
            try? FileManager.default.removeItem(at: partial)
            throw refused
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
    }

    /// Grant renewals write the cache's token file: one at a time across parallel downloads.
    static let renewLock = NSLock()

    /// Recreates the tree under `source` at `destination` from hard links (copies where links fail):
    /// an unchanged bundle of the installed release goes into the new one without extracting it again.
    static func linkTree(_ source: URL, into destination: URL) throws {
        let fm = FileManager.default
        try fm.createDirectory(at: destination, withIntermediateDirectories: true)
        let base = source.standardizedFileURL.path
        guard let walker = fm.enumerator(at: source, includingPropertiesForKeys: [.isDirectoryKey, .isSymbolicLinkKey]) else { throw ReadFailure(path: source.path, operation: .list) }
        for case let url as URL in walker {
            let relative = String(url.standardizedFileURL.path.dropFirst(base.count + 1))
            let target = destination.appendingPathComponent(relative)
            let values = try url.resourceValues(forKeys: [.isDirectoryKey, .isSymbolicLinkKey])
            if values.isSymbolicLink == true { continue }  // extraction never makes links; never follow one
            if values.isDirectory == true {
                try fm.createDirectory(at: target, withIntermediateDirectories: true)
            } else if link(url.path, target.path) != 0 {
                try fm.copyItem(at: url, to: target)
            }
        }
    }

    /// The grant for each wanted voucher bundle that must be downloaded (not in `downloads/` yet) or
    /// decrypted: a stored grant for its subject (tour, program, library item or pack), renewed with
    /// its code when it has expired, and asked for fresh signed URLs or keys with its token when it
    /// lacks them. A protected subject without one stops the fetch here, before any download, naming it.
    static func tokens(for wanted: [String], manifest: DownloadManifest, signed: [String: Signed], request: FetchRequest,
                       access: AccessTokenStore, server: HTTPRepository?) throws -> [String: AccessGrant] {
        var grants = access.grants()
        var tokens: [String: AccessGrant] = [:]
        for id in wanted {
            guard let bundle = manifest.bundle(id), bundle.access == .voucher, let info = signed[id] else { continue }
            let needsDownload = !FileManager.default.fileExists(atPath: request.cache.appendingPathComponent("downloads/\(info.sha256)").path)
            guard needsDownload || bundle.encryption != nil else { continue }
            // A local folder has no access control, but an encrypted bundle still needs its key from a voucher server.
            guard let server else {
                if bundle.encryption == nil { continue }
                throw TUFError("bundle '\(id)' of \(request.tenant) is encrypted: its key comes from a voucher server (FetchRequest.voucherServer, livery fetch --voucher-server)")
            }
            let subject = VoucherSubject(bundle: id, kind: bundle.kind, subject: bundle.subject) ?? VoucherSubject(.tour, bundle.subject ?? id)
            if let grant = grants[subject], grant.expires <= request.now, let code = grant.code {
                // Same device, same code: the server hands out a fresh token without spending a use.
                if let renewed = try? server.redeem(code: code, device: access.deviceID(), deviceKey: access.deviceKey().publicKey) {
                    try access.save(renewed)
                    grants[subject] = renewed
                }
            }
            guard var grant = grants[subject], grant.expires > request.now else {
                throw TUFError("\(subject.kind.noun) '\(subject.id)' of \(request.tenant) is protected by a voucher and this device has no valid access token: redeem a voucher code for it (livery fetch --voucher CODE, or FetchRequest.vouchers)")
            }
            let missingKey = bundle.encryption.map { encryption in !grant.keys.contains { $0.bundle == id && $0.keyID == encryption.keyID } } ?? false
            // URLs expire within minutes and name one release's file: a server that gives them (urlsExpire
            // set) is asked again with the token when the grant has none for this target that still works.
            let staleURL = needsDownload && grant.urlsExpire != nil && grant.url(of: id, file: String(info.path.split(separator: "/").last ?? ""), now: Date()) == nil
            if missingKey || staleURL {
                do {
                    grant = try server.renew(grant, deviceKey: try access.deviceKey().publicKey)
                } catch let refused as VoucherAccessError {
                    guard let code = grant.code else {
                        try? access.remove(subject)
                        throw TUFError("\(subject.kind.noun) '\(subject.id)': \(refused)")
                    }
                    grant = try server.redeem(code: code, device: access.deviceID(), deviceKey: access.deviceKey().publicKey)
                }
                try access.save(grant)
                grants[subject] = grant
            }
            tokens[id] = grant
        }
        return tokens
    }

    /// The content key of an encrypted bundle: its sealed key in the grant, opened with this device's key.
    static func contentKey(_ id: String, encryption: BundleEncryption, grant: AccessGrant?, access: AccessTokenStore, tenant: String) throws -> SymmetricKey {
        guard encryption.scheme == BundleEncryption.scheme else {
            throw TUFError("bundle '\(id)' is encrypted with \(encryption.scheme), which this client does not know: update the app")
        }
        guard let wrapped = grant?.keys.first(where: { $0.bundle == id && $0.keyID == encryption.keyID }) else {
            throw TUFError("bundle '\(id)' of \(tenant) is encrypted and the voucher server gave no key for it (a server without the tenant's content key, or an old server): it cannot be installed")
        }
        return try wrapped.unwrap(with: try access.deviceKey())
    }

    /// Essential bundles, the user's locale (or the default one), the requested programs and tours in
    /// that language, and every dependency of those.
    /// The bundles of a release a fetch installs, and the notes of what it chose instead of what was asked.
    struct BundleChoice: Sendable {
        var wanted: [String]
        var notes: [String]
    }

    /// What the app needs of release `release`: the essential bundles, the user's locale, the tours (with their audio in
    /// that locale) and programs asked for now or remembered, and what those depend on. A tour or program asked for
    /// that the release does not have is an error (`UnknownSelection`); a locale it does not have falls back (a
    /// regional variant to its language, else the release's default locale), and a tour without audio in the locale
    /// comes with its audio in the default locale (else the first it has), each with a note.
    static func choose(_ bundles: [DownloadManifest.Bundle], release: Int, request: FetchRequest, remembered: Selection = Selection()) throws -> BundleChoice {
        var notes: [String] = []
        func subjects(_ kind: BundleKind) -> Set<String> { Set(bundles.filter { $0.kind == kind }.compactMap { $0.subject }) }
        let knownTours = subjects(.tour), knownPrograms = subjects(.program)
        for (asked, known, noun) in [(request.tours + request.addTours, knownTours, "tour"), (request.programs + request.addPrograms, knownPrograms, "program")] {
            let unknown = Set(asked).subtracting(known)
            if !unknown.isEmpty { throw UnknownSelection(release: release, noun: noun, unknown: unknown.sorted(), known: known.sorted()) }
        }
        for (kept, known, noun) in [(remembered.tours, knownTours, "tour"), (remembered.programs, knownPrograms, "program")] {
            for gone in kept.subtracting(known).sorted() { notes.append("\(noun) '\(gone)' is not in release \(release) any more") }
        }
        let tours = Set(request.tours).union(remembered.tours).intersection(knownTours)
        let programs = Set(request.programs).union(remembered.programs).intersection(knownPrograms)
        let byID = Dictionary(bundles.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let locales = bundles.filter { $0.kind == .locale }.compactMap { $0.locale }
        let defaultLocale = bundles.first { $0.kind == .locale && $0.policy == .essential }?.locale
        var locale = defaultLocale
        if let asked = request.locale {
            if let found = Self.closestLocale(asked, in: locales) {
                locale = found
                if found != asked { notes.append("locale '\(asked)' is not in release \(release): using '\(found)'") }
            } else {
                notes.append("locale '\(asked)' is not in release \(release) (it has \(locales.sorted().joined(separator: ", "))): using '\(defaultLocale ?? "none")'")
            }
        }
        var wanted = Set<String>()
        for bundle in bundles {
            let id = bundle.id
            let subject = bundle.subject ?? ""
            if bundle.policy == .essential { wanted.insert(id) }
            switch bundle.kind {
            case .locale where bundle.locale == locale: wanted.insert(id)
            case .program where programs.contains(subject): wanted.insert(id)
            case .tour where tours.contains(subject): wanted.insert(id)
            default: break
            }
        }
        // Each tour's audio: in the locale, else in the default locale, else in the first language the tour has.
        for tour in tours.sorted() {
            let audio = bundles.filter { $0.kind == .tourLanguage && $0.subject == tour }
            guard !audio.isEmpty else { continue }
            let languages = audio.compactMap { $0.locale }
            let chosen = locale.flatMap { Self.closestLocale($0, in: languages) } ?? defaultLocale.flatMap { Self.closestLocale($0, in: languages) } ?? languages.sorted().first
            guard let chosen, let bundle = audio.first(where: { $0.locale == chosen }) else { continue }
            wanted.insert(bundle.id)
            if let locale, chosen != locale, Self.closestLocale(locale, in: languages) == nil {
                notes.append("tour '\(tour)' has no audio in '\(locale)': installing its '\(chosen)' audio")
            }
        }
        var queue = Array(wanted)
        while let id = queue.popLast() {
            for dependency in byID[id]?.dependencies ?? [] where wanted.insert(dependency).inserted {
                queue.append(dependency)
            }
        }
        return BundleChoice(wanted: wanted.sorted(), notes: notes)
    }

    /// `asked` if `available` has it, else its nearest parent by BCP 47 truncation (`fr-CA` to `fr`, `zh-Hant-TW` to
    /// `zh-Hant` to `zh`), compared without regard to case or `_`/`-`; nil when none matches.
    static func closestLocale(_ asked: String, in available: [String]) -> String? {
        func key(_ tag: String) -> String { tag.replacingOccurrences(of: "_", with: "-").lowercased() }
        var parts = key(asked).split(separator: "-")
        while !parts.isEmpty {
            let candidate = parts.joined(separator: "-")
            if let found = available.first(where: { key($0) == candidate }) { return found }
            parts.removeLast()
        }
        return nil
    }

    static func verify(_ file: URL, length: Int, sha256: String, name: String) throws {
        let digest: SHA256Hex, size: Int
        do {
            // Stops reading once the file is past its signed length.
            (digest, size) = try FileDigest.sha256(of: file, stoppingAfter: length)
        } catch {
            throw ReadFailure(error, path: file.path)
        }
        guard size <= length else { throw TUFError("\(name) is longer than its signed length \(length)") }
        guard size == length else { throw TUFError("\(name) is \(size) bytes, its signed length is \(length)") }
        guard digest == sha256 else { throw TUFError("\(name) does not match its signed SHA-256") }
    }

    static func collectGarbage(cache: URL, keep: [String]) {
        let fm = FileManager.default
        let releases = cache.appendingPathComponent("releases")
        var referenced = Set<String>()
        for name in (try? fm.contentsOfDirectory(atPath: releases.path)) ?? [] {
            let folder = releases.appendingPathComponent(name)
            if !keep.contains(name) {
                try? fm.removeItem(at: folder)
                continue
            }
            // Only what a kept release has installed: a removed tour's download goes too.
            if let manifest = try? DownloadManifest(data: Data(contentsOf: folder.appendingPathComponent(DownloadManifest.targetName))) {
                for bundle in manifest.bundles where FileManager.default.fileExists(atPath: folder.appendingPathComponent("bundles/\(bundle.id)").path) {
                    referenced.insert(bundle.sha256)
                }
            }
        }
        let downloads = cache.appendingPathComponent("downloads")
        for name in (try? fm.contentsOfDirectory(atPath: downloads.path)) ?? [] where !referenced.contains(name) && !name.hasSuffix(".part") {
            try? fm.removeItem(at: downloads.appendingPathComponent(name))
        }
    }
}
