import Crypto
import Foundation
import LiveryTUF

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
    public var now = Date()

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
    public var problem: String?
    /// What the fetch needed on disk before it started (zero when nothing had to change).
    public var needed = SpaceNeeded(download: 0, install: 0)
    /// True when the release came from a staged rollout this install's bucket falls in.
    public var staged = false
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
        let fm = FileManager.default
        let cache = request.cache
        for folder in ["metadata", "downloads", "releases"] { try fm.createDirectory(at: cache.appendingPathComponent(folder), withIntermediateDirectories: true) }
        // One fetch at a time per cache.
        let lockDescriptor = open(cache.appendingPathComponent("lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lockDescriptor >= 0, flock(lockDescriptor, LOCK_EX) == 0 else { throw TUFError("cannot lock \(cache.path)") }
        defer { flock(lockDescriptor, LOCK_UN); close(lockDescriptor) }

        let current = cache.appendingPathComponent("current")
        let installed = (try? fm.destinationOfSymbolicLink(atPath: current.path)).map { cache.appendingPathComponent($0) }
        // Vouchers first: a code that does not redeem fails the fetch before anything changes.
        let access = AccessTokenStore(cache: cache)
        let voucherServer = request.voucherServer.map { HTTPRepository(base: $0) } ?? (request.repository as? HTTPRepository)
        if !request.vouchers.isEmpty {
            guard let voucherServer else { throw TUFError("vouchers are redeemed with a server: use an HTTP repository, or name the voucher server") }
            let device = try access.deviceID()
            let deviceKey = try access.deviceKey().publicKey
            for code in request.vouchers { try access.save(try voucherServer.redeem(code: code, device: device, deviceKey: deviceKey)) }
        }
        /// The installed release's manifest, if a release is installed and readable.
        func installedManifest() -> DownloadManifest? {
            installed.flatMap { try? DownloadManifest(data: Data(contentsOf: $0.appendingPathComponent(DownloadManifest.targetName))) }
        }
        func offline(_ problem: String) throws -> FetchResult {
            guard let installed, let manifest = installedManifest() else { throw TUFError(problem) }
            return FetchResult(release: manifest.release, installed: installed, downloaded: [], reused: [], offline: true, problem: problem)
        }

        // 1. Metadata.
        let metadata = cache.appendingPathComponent("metadata")
        let store = MetadataFolder(metadata)
        guard store.load("root") != nil || request.bootstrapRoot != nil else { throw TUFError("no trusted root: pass the tenant's 1.root.json on first use") }
        let updater: TUFUpdater
        let manifestData: Data
        // "" for the channel's release; `staged/` when this install takes a release being rolled out.
        var prefix = ""
        do {
            // Each file is kept in the cache as soon as it is trusted (TUF 1.0.x §5.3–5.6).
            updater = try TUFUpdater(source: request.repository, store: store, bootstrapRoot: request.bootstrapRoot, now: request.now)
            try updater.refresh()
            guard var manifestTarget = try updater.targetInfo(DownloadManifest.targetName) else { throw TUFError("the release has no signed download manifest") }
            if let staged = try updater.targetInfo(RolloutStage.stagedManifestName), let custom = try TargetCustom(of: staged.target),
               let stage = custom.rollout, let number = custom.release,
               stage.includes(tenant: request.tenant, channel: request.channel.name, release: number, installID: try request.installID ?? access.deviceID()) {
                manifestTarget = staged
                prefix = RolloutStage.targetPrefix
            }
            manifestData = try updater.download(manifestTarget.target)
        } catch {
            return try offline("refresh failed: \(error)")
        }

        // 2. The bundles this app needs.
        let manifest = try DownloadManifest(data: manifestData)
        let release = manifest.release, format = manifest.format.fileExtension
        // Never back to an older release: after a halted rollout, an install that took the staged
        // release keeps it until the channel has a newer one.
        if let kept = installedManifest(), kept.release > release, let installed {
            return FetchResult(release: kept.release, installed: installed, downloaded: [], reused: [], offline: false,
                               problem: "the channel offers release \(release), older than the installed release \(kept.release) (a halted rollout); keeping \(kept.release)")
        }
        let wanted = selection(manifest.bundles, request: request)
        // A release this app cannot read is not installed, and is not an offline case either: the app must be updated.
        if let app = request.appVersion {
            try checkAppVersion(app, manifest: manifest, wanted: wanted, kept: installedManifest()?.release)
        }
        // Delegated roles are loaded only as far as the search for these bundles needs (§5.6.7): a
        // broken role that signs nothing this app asks for does not stop it.
        let trusted: TrustedMetadata
        do {
            for id in wanted { _ = try updater.targetInfo("\(prefix)\(id).\(format)") }
            trusted = try TrustedMetadata(updater.trusted)
        } catch {
            return try offline("refresh failed: \(error)")
        }
        let manifestSHA = SHA256.hash(data: manifestData).hexString
        let releaseName = "\(release).\(manifestSHA.prefix(12))"
        let target = cache.appendingPathComponent("releases").appendingPathComponent(releaseName)
        let everythingThere = wanted.allSatisfy { fm.fileExists(atPath: target.appendingPathComponent("bundles/\($0)").path) }
        if installed?.standardizedFileURL.path == target.standardizedFileURL.path, everythingThere, fm.fileExists(atPath: target.appendingPathComponent(".complete").path) {
            var result = FetchResult(release: release, installed: target, downloaded: [], reused: wanted, offline: false, problem: nil)
            result.staged = !prefix.isEmpty
            return result
        }

        // 3. Room on disk for what must be downloaded and installed, before any download.
        var needed = SpaceNeeded(download: 0, install: 0)
        for id in wanted {
            guard let info = trusted.target("\(prefix)\(id).\(format)") else { continue }
            let length = Int64(info.length)
            if !fm.fileExists(atPath: cache.appendingPathComponent("downloads").appendingPathComponent(info.sha256).path) { needed.download += length }
            needed.install += manifest.bundle(id)?.encryption == nil ? length : 2 * length
        }
        let available = availableSpace(at: cache)
        request.onPlan?(needed, available)
        if let available, available < needed.total {
            throw InsufficientSpace(tenant: request.tenant, release: release, needed: needed, available: available, cache: cache.path,
                                    kept: installedManifest()?.release)
        }

        // 4. Download what is not cached yet, verified before use; protected bundles with a token.
        let tokens = try tokens(for: wanted, manifest: manifest, prefix: prefix, trusted: trusted, request: request, access: access, server: voucherServer)
        var downloaded: [String] = [], reused: [String] = []
        var archives: [String: URL] = [:]
        for id in wanted {
            let name = "\(prefix)\(id).\(format)"
            guard let info = trusted.target(name) else { throw TUFError("bundle '\(id)' is not a signed target") }
            let file = cache.appendingPathComponent("downloads").appendingPathComponent(info.sha256)
            if fm.fileExists(atPath: file.path) {
                reused.append(id)
            } else {
                let partial = file.appendingPathExtension("part")
                do {
                    let file = "\(info.sha256).\(id).\(format)"
                    let path = "targets/\(prefix)\(file)"
                    if let grant = tokens[id], let server = voucherServer, grant.url(of: id, file: file, now: Date()) != nil {
                        // A signed URL (the bucket's or the voucher server's); renewed once with the token if it expires mid-way.
                        var current = grant
                        for attempt in 1...2 {
                            guard let text = current.url(of: id, file: file, now: Date()), let address = URL(string: text, relativeTo: server.base)?.absoluteURL else {
                                throw VoucherAccessError(path: path, status: 403, hadToken: true)
                            }
                            do {
                                guard try server.download(from: address, named: path, to: partial, maxLength: info.length) else { throw TUFError("\(name) is missing on the server") }
                                break
                            } catch is VoucherAccessError where attempt == 1 {
                                current = try server.renew(current, deviceKey: try access.deviceKey().publicKey)
                                try access.save(current)
                            }
                        }
                    } else if let http = request.repository as? HTTPRepository {
                        // Streams to disk and resumes a partial file with a range request.
                        guard try http.download(path, to: partial, maxLength: info.length, bearer: tokens[id]?.token) else { throw TUFError("\(name) is missing on the server") }
                    } else {
                        try atomicWrite(try TUFUpdater.target(name, in: trusted, from: request.repository), to: partial)
                    }
                    try verify(partial, length: info.length, sha256: info.sha256, name: name)
                } catch let refused as VoucherAccessError {
                    // Not a network problem to sit out offline: this subject cannot be had with this token.
                    try? fm.removeItem(at: partial)
                    if let grant = tokens[id] { try? access.remove(grant.subject) }
                    throw TUFError("\(tokens[id].map { "\($0.subject.kind.noun) '\($0.subject.id)'" } ?? "bundle '\(id)'"): \(refused)")
                } catch {
                    try? fm.removeItem(at: partial)
                    return try offline("download of \(name) failed: \(error)")
                }
                try DurableFiles.sync(partial)
                guard rename(partial.path, file.path) == 0 else { throw TUFError("cannot store \(name)") }
                downloaded.append(id)
            }
            archives[id] = file
        }

        // 5. Install into a staging folder, then switch `current` in one rename.
        let staging = cache.appendingPathComponent("releases").appendingPathComponent(".staging-\(UUID().uuidString)")
        defer { try? fm.removeItem(at: staging) }
        for id in wanted {
            let folder = staging.appendingPathComponent("bundles").appendingPathComponent(id)
            guard let encryption = manifest.bundle(id)?.encryption else {
                try ArchiveExtractor.extract(archives[id]!, into: folder)
                continue
            }
            // Verified ciphertext in, archive out: decrypted into a temporary file next to the downloads, extracted, removed.
            let key = try contentKey(id, encryption: encryption, grant: tokens[id], access: access, tenant: request.tenant)
            let plain = cache.appendingPathComponent("downloads").appendingPathComponent(".plain-\(UUID().uuidString)")
            defer { try? fm.removeItem(at: plain) }
            do {
                try SegmentedAEAD.decrypt(archives[id]!, to: plain, key: key)
            } catch {
                throw TUFError("bundle '\(id)' does not decrypt: \(error)")
            }
            try ArchiveExtractor.extract(plain, into: folder)
        }
        try manifestData.write(to: staging.appendingPathComponent("download-manifest.json"))
        try Data().write(to: staging.appendingPathComponent(".complete"))
        // Every installed file and folder on disk before anything points at them.
        try DurableFiles.syncTree(staging)
        try? fm.removeItem(at: target)
        guard rename(staging.path, target.path) == 0 else { throw TUFError("cannot install release \(release)") }
        try DurableFiles.sync(cache.appendingPathComponent("releases"))
        let link = cache.appendingPathComponent("current.\(UUID().uuidString)")
        try fm.createSymbolicLink(atPath: link.path, withDestinationPath: "releases/\(releaseName)")
        guard rename(link.path, current.path) == 0 else { throw TUFError("cannot switch to release \(release)") }
        try DurableFiles.sync(cache)

        // 6. Keep the new and the previous release; remove older ones and unreferenced downloads.
        collectGarbage(cache: cache, keep: [releaseName, installed?.lastPathComponent].compactMap { $0 })
        var result = FetchResult(release: release, installed: target, downloaded: downloaded, reused: reused, offline: false, problem: nil)
        result.needed = needed
        result.staged = !prefix.isEmpty
        return result
    }

    /// The grant for each wanted voucher bundle that must be downloaded (not in `downloads/` yet) or
    /// decrypted: a stored grant for its subject (tour, program, library item or pack), renewed with
    /// its code when it has expired, and asked for fresh signed URLs or keys with its token when it
    /// lacks them. A protected subject without one stops the fetch here, before any download, naming it.
    static func tokens(for wanted: [String], manifest: DownloadManifest, prefix: String = "", trusted: TrustedMetadata, request: FetchRequest,
                       access: AccessTokenStore, server: HTTPRepository?) throws -> [String: AccessGrant] {
        var grants = access.grants()
        var tokens: [String: AccessGrant] = [:]
        for id in wanted {
            guard let bundle = manifest.bundle(id), bundle.access == .voucher, let info = trusted.target(prefix + bundle.targetName(format: manifest.format)) else { continue }
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
            let staleURL = needsDownload && grant.urlsExpire != nil && grant.url(of: id, file: "\(info.sha256).\(bundle.targetName(format: manifest.format))", now: Date()) == nil
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
    static func selection(_ bundles: [DownloadManifest.Bundle], request: FetchRequest) -> [String] {
        let byID = Dictionary(bundles.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let locales = bundles.filter { $0.kind == .locale }
        let defaultLocale = locales.first { $0.policy == .essential }?.locale
        let locale = request.locale.flatMap { wantedLocale in locales.contains { $0.locale == wantedLocale } ? wantedLocale : nil } ?? defaultLocale
        var wanted = Set<String>()
        for bundle in bundles {
            let id = bundle.id
            let subject = bundle.subject ?? ""
            if bundle.policy == .essential { wanted.insert(id) }
            switch bundle.kind {
            case .locale where bundle.locale == locale: wanted.insert(id)
            case .program where request.programs.contains(subject): wanted.insert(id)
            case .tour where request.tours.contains(subject): wanted.insert(id)
            case .tourLanguage where request.tours.contains(subject) && bundle.locale == locale: wanted.insert(id)
            default: break
            }
        }
        var queue = Array(wanted)
        while let id = queue.popLast() {
            for dependency in byID[id]?.dependencies ?? [] where wanted.insert(dependency).inserted {
                queue.append(dependency)
            }
        }
        return wanted.sorted()
    }

    static func verify(_ file: URL, length: Int, sha256: String, name: String) throws {
        // One reusable buffer (1 MiB `Data` chunks would each come from the heap and stay there).
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw TUFError("cannot read \(file.path)") }
        defer { close(descriptor) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 18, alignment: 16)
        defer { buffer.deallocate() }
        var hasher = SHA256()
        var size = 0
        while true {
            let n = read(descriptor, buffer.baseAddress, buffer.count)
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw TUFError("cannot read \(file.path)") }
            if n == 0 { break }
            size += n
            guard size <= length else { throw TUFError("\(name) is longer than its signed length \(length)") }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        }
        guard size == length else { throw TUFError("\(name) is \(size) bytes, its signed length is \(length)") }
        guard hasher.finalize().hexString == sha256 else { throw TUFError("\(name) does not match its signed SHA-256") }
    }

    static func atomicWrite(_ data: Data, to file: URL) throws {
        let temporary = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).\(UUID().uuidString)")
        try data.write(to: temporary)
        guard rename(temporary.path, file.path) == 0 else { throw TUFError("cannot write \(file.path)") }
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
            if let manifest = try? DownloadManifest(data: Data(contentsOf: folder.appendingPathComponent(DownloadManifest.targetName))) {
                for bundle in manifest.bundles { referenced.insert(bundle.sha256) }
            }
        }
        let downloads = cache.appendingPathComponent("downloads")
        for name in (try? fm.contentsOfDirectory(atPath: downloads.path)) ?? [] where !referenced.contains(name) && !name.hasSuffix(".part") {
            try? fm.removeItem(at: downloads.appendingPathComponent(name))
        }
    }
}
