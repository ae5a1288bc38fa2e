import Foundation
import LiveryLoad
import LiveryAssets
import LiveryPack
import LiverySign
import LiveryStorage
import LiveryReleaseFormat

/// A release as published: its download manifest (bytes and digest) and where each bundle's bytes
/// are. Everything promotion, rollback and rollout move between channels is one of these; nothing is
/// rebuilt, so the bytes a channel ships are exactly the bytes another one shipped.
public struct PublishedRelease: Sendable {
    public var manifest: DownloadManifest
    public var manifestFile: StoredFile
    /// Each bundle's bytes, by bundle id.
    public var bundleFiles: [String: URL]
    /// Each indexed bundle's file index object (docs/deltas.md), by bundle id.
    public var indexFiles: [String: URL] = [:]

    public init(manifest: DownloadManifest, manifestFile: StoredFile, bundleFiles: [String: URL], indexFiles: [String: URL] = [:]) {
        self.manifest = manifest
        self.manifestFile = manifestFile
        self.bundleFiles = bundleFiles
        self.indexFiles = indexFiles
    }

    /// The repository files of the release besides its manifest: each bundle's archive and file index, at `prefix`
    /// (`targets/`, or `targets/staged/` for a rollout).
    public func files(under prefix: String) -> [Publisher.File] {
        manifest.bundles.flatMap { bundle -> [Publisher.File] in
            var files: [Publisher.File] = []
            if let url = bundleFiles[bundle.id] { files.append(Publisher.File(source: url, relative: "\(prefix)\(bundle.sha256).\(bundle.targetName(format: manifest.format))")) }
            if let url = indexFiles[bundle.id], let reference = bundle.files { files.append(Publisher.File(source: url, relative: "\(prefix)\(reference.sha256).\(bundle.id).files")) }
            return files
        }
    }
}

/// How a release is published on a channel: for every device, or to a share of them.
public enum ReleaseExposure: Sendable, Equatable {
    case everyone
    case rollout(RolloutStage)
}

/// Channels, promotion, rollback and staged rollout over published releases (docs/operations.md).
/// Every operation here takes the output lock, finds bytes already published or in the content
/// store, signs new metadata for the channel in staging and switches it in one step (`Publisher`).
public enum ReleaseChannels {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    /// The next release number of a tenant: one more than any release any of its channels ever
    /// signed (including rollouts that were halted) or points at. Release numbers are per tenant, so
    /// "release 12" means the same content on every channel.
    public static func nextRelease(tenant: String, output: URL) throws -> Int {
        var highest = 0
        let folder = output.appendingPathComponent(tenant, isDirectory: true)
        var channels = Publisher.channels(tenant: tenant, output: output)
        if !channels.contains(.stable) { channels.append(.stable) }
        for channel in channels {
            let repository = channel.repository(in: folder)
            highest = max(highest, ReleasePointer.read(from: repository)?.release ?? 0)
            highest = max(highest, try ReleaseHistory.read(channel: channel, repository: repository).entries.map(\.release).max() ?? 0)
        }
        return highest + 1
    }

    /// Every channel's history of a tenant, stable first.
    public static func history(tenant: String, output: URL) throws -> [ReleaseHistory] {
        try Publisher.channels(tenant: tenant, output: output).map {
            try ReleaseHistory.read(channel: $0, repository: Publisher.repository(tenant: tenant, channel: $0, output: output))
        }
    }

    /// Finds the bytes of a release a channel signed: its manifest and bundles, from any channel's
    /// `targets/` of the tenant or from the content store. Throws, naming what is missing, when a
    /// file is gone (removed by `livery gc`).
    public static func locate(tenant: String, manifestSHA256 sha: String, output: URL, store: ContentStore) throws -> PublishedRelease {
        let fm = FileManager.default
        let folder = output.appendingPathComponent(tenant)
        let repositories = Publisher.channels(tenant: tenant, output: output).map { $0.repository(in: folder) }
        func find(_ sha: String, name: String) -> URL? {
            for repository in repositories {
                for relative in ["targets/\(sha).\(name)", "targets/staged/\(sha).\(name)"] {
                    let url = repository.appendingPathComponent(relative)
                    if fm.fileExists(atPath: url.path) { return url }
                }
            }
            let object = store.objectURL(sha)
            return fm.fileExists(atPath: object.path) ? object : nil
        }
        guard let manifestURL = find(sha, name: DownloadManifest.targetName), let data = fm.contents(atPath: manifestURL.path),
              FileDigest.sha256(of: data) == sha else {
            throw Failure("the download manifest \(sha.prefix(12))… is no longer kept (removed by `livery gc`?)")
        }
        let manifest = try DownloadManifest(data: data)
        var files: [String: URL] = [:]
        var indexes: [String: URL] = [:]
        for bundle in manifest.bundles {
            guard let url = find(bundle.sha256, name: bundle.targetName(format: manifest.format)),
                  FileStamp(path: url.path)?.size == Int64(bundle.size) else {
                throw Failure("release \(manifest.release): bundle '\(bundle.id)' (\(bundle.sha256.prefix(12))…) is no longer kept (removed by `livery gc`?)")
            }
            files[bundle.id] = url
            // A file index the repositories no longer hold is found in the store by its table's digest.
            if let reference = bundle.files {
                guard let index = find(reference.sha256, name: "\(bundle.id).files") ?? BundleBuilder.fileIndexObject(table: reference.sha256, store: store) else {
                    throw Failure("release \(manifest.release): the file index of bundle '\(bundle.id)' is no longer kept (removed by `livery gc`?)")
                }
                indexes[bundle.id] = index
            }
        }
        return PublishedRelease(manifest: manifest, manifestFile: StoredFile(sha256: sha, size: data.count, url: manifestURL), bundleFiles: files, indexFiles: indexes)
    }

    /// The TUF targets of a release: its manifest (with release number, provenance and rollout share
    /// in `custom`) and every bundle, named `<id>.<format>`, or `staged/<id>.<format>` for a staged release.
    public static func targets(of release: PublishedRelease, provenance: ReleaseProvenance?, rollout: RolloutStage? = nil) -> [RepositorySigner.Target] {
        let prefix = rollout == nil ? "" : RolloutStage.targetPrefix
        var targets = [RepositorySigner.Target(name: prefix + DownloadManifest.targetName, length: release.manifestFile.size, sha256: release.manifestFile.sha256,
                                               custom: .downloadManifest(release: release.manifest.release, provenance: provenance, rollout: rollout))]
        for bundle in release.manifest.bundles {
            let custom = TargetCustom.bundle(.init(id: bundle.id, kind: bundle.kind, policy: bundle.policy, access: bundle.access, locale: bundle.locale,
                                                   subject: bundle.subject, encryption: bundle.encryption))
            targets.append(RepositorySigner.Target(name: prefix + bundle.targetName(format: release.manifest.format), length: bundle.size, sha256: bundle.sha256, custom: custom))
        }
        return targets
    }

    /// Publishes `release` on `channel`: for every device (the channel's `release.json` and
    /// `download-manifest.json` name it; a rollout in progress ends), or staged for a share of the
    /// devices beside the channel's current release, which stays as it is for everyone else.
    /// `keys` nil publishes unsigned (no rollout then: a share needs signed metadata to say it).
    public static func publish(_ release: PublishedRelease, tenant: String, channel: ReleaseChannel, exposure: ReleaseExposure,
                               provenance: ReleaseProvenance, keys: TenantKeys?, output: URL, steps: ((String) -> Void)? = nil,
                               warn: @escaping (String) -> Void = { _ in }) throws {
        try Publisher.commit(try stage(release, tenant: tenant, channel: channel, exposure: exposure, provenance: provenance, keys: keys, output: output,
                                       steps: steps, warn: warn), steps: steps)
    }

    /// `publish` up to the switch: the release assembled and signed in staging (`steps` hears
    /// `assembled`). A build stages every tenant's release, flushes them all at once, then switches each.
    public static func stage(_ release: PublishedRelease, tenant: String, channel: ReleaseChannel, exposure: ReleaseExposure,
                             provenance: ReleaseProvenance, keys: TenantKeys?, output: URL, steps: ((String) -> Void)? = nil,
                             warn: @escaping (String) -> Void = { _ in }) throws -> Publisher.Staged {
        let format = release.manifest.format
        switch exposure {
        case .everyone:
            let files = release.files(under: "targets/")
            let sign = keys.map { keys in
                { (folder: URL) throws in
                    try RepositorySigner.sign(release: folder, targets: targets(of: release, provenance: provenance), keys: keys, warn: warn)
                }
            }
            return try Publisher.stage(tenant: tenant, channel: channel, files: files, manifest: release.manifestFile, release: release.manifest.release,
                                       output: output, steps: steps, sign: sign)
        case .rollout(let stage):
            guard let keys else { throw Failure("a staged rollout needs signed releases (the share of devices is signed metadata)") }
            let repository = Publisher.repository(tenant: tenant, channel: channel, output: output)
            guard let current = Publisher.currentManifest(tenant: tenant, channel: channel, output: output),
                  let published = PublishedMetadata.read(release: repository), published.manifestSHA256 == current.pointer.sha256 else {
                throw Failure("\(tenant) has no signed \(channel.name) release to keep for the devices outside the rollout: publish the first release to everyone")
            }
            guard release.manifest.release > current.manifest.release else {
                throw Failure("release \(release.manifest.release) is not newer than \(channel.name)'s release \(current.manifest.release): only a newer release can be rolled out")
            }
            // The current release's entries as signed, without the staged release they replace.
            let kept = try published.signedTargets.filter { !$0.name.hasPrefix(RolloutStage.targetPrefix) }
            var files = release.files(under: "targets/staged/")
            files.append(Publisher.File(source: release.manifestFile.url, relative: "targets/staged/\(release.manifestFile.sha256).\(DownloadManifest.targetName)"))
            let staged = targets(of: release, provenance: provenance, rollout: stage)
            let pointerFile = StoredFile(sha256: current.pointer.sha256, size: 0, url: repository.appendingPathComponent(current.pointer.manifest))
            return try Publisher.stage(tenant: tenant, channel: channel, files: files, manifest: pointerFile, release: current.manifest.release, output: output,
                                       steps: steps) { folder in
                try RepositorySigner.sign(release: folder, targets: kept + staged, keys: keys, warn: warn)
            }
        }
    }

    /// What `livery rollout` can do to a release being rolled out.
    public enum RolloutChange: Sendable, Equatable {
        /// A new share of devices (grows or shrinks; a device that took the release keeps it).
        case share(RolloutStage)
        /// Every device: the staged release becomes the channel's release.
        case complete
        /// No more devices: the staged release is withdrawn; devices that took it keep it until a newer release.
        case halt
    }

    /// Changes the rollout in progress on a channel. Returns the staged release's number.
    @discardableResult
    public static func changeRollout(tenant: String, channel: ReleaseChannel, to change: RolloutChange, keys: TenantKeys, output: URL, store: ContentStore,
                                     steps: ((String) -> Void)? = nil, warn: @escaping (String) -> Void = { _ in }) throws -> Int {
        let repository = Publisher.repository(tenant: tenant, channel: channel, output: output)
        guard let staged = Publisher.stagedManifest(tenant: tenant, channel: channel, output: output),
              let published = try PublishedMetadata.load(release: repository),
              let entry = published.targets.signed.targets[RolloutStage.stagedManifestName], let custom = try TargetCustom(of: entry) else {
            throw Failure("no release of \(tenant) is being rolled out on \(channel.name): start one with `livery build --rollout` or `livery promote --rollout`")
        }
        let release = try locate(tenant: tenant, manifestSHA256: staged.sha256, output: output, store: store)
        let provenance = custom.provenance ?? ReleaseProvenance(channel: channel.name, origin: .build)
        switch change {
        case .complete:
            try publish(release, tenant: tenant, channel: channel, exposure: .everyone, provenance: provenance, keys: keys, output: output, steps: steps, warn: warn)
        case .share(let stage):
            try publish(release, tenant: tenant, channel: channel, exposure: .rollout(stage), provenance: provenance, keys: keys, output: output, steps: steps, warn: warn)
        case .halt:
            let kept = try published.signedTargets.filter { !$0.name.hasPrefix(RolloutStage.targetPrefix) }
            try Publisher.amend(tenant: tenant, channel: channel, output: output, steps: steps) { folder in
                try RepositorySigner.sign(release: folder, targets: kept, keys: keys, warn: warn)
            }
        }
        return staged.manifest.release
    }

    /// What a promotion or rollback published.
    public struct Outcome: Sendable {
        public var release: Int
        /// True when the manifest is byte for byte the source release's (false: renumbered, same bundles).
        public var sameManifest: Bool
        /// The release it came from (a promotion's source release, whether named or the channel's current one).
        public var source: Int?
    }

    /// `livery promote`: publishes a release of `from` (its current one, or `release`) on `to`, the
    /// same manifest and bundles, signed for `to`. When `to` already has a release with that number or
    /// a higher one (after a rollback there), the same bundles get a new manifest with the next number.
    public static func promote(tenant: String, from: ReleaseChannel, to: ReleaseChannel, release number: Int?, exposure: ReleaseExposure, reason: String?,
                               keys: TenantKeys, output: URL, store: ContentStore, steps: ((String) -> Void)? = nil,
                               warn: @escaping (String) -> Void = { _ in }) throws -> Outcome {
        guard from != to else { throw Failure("--from and --to name the same channel") }
        let history = try ReleaseHistory.read(channel: from, repository: Publisher.repository(tenant: tenant, channel: from, output: output))
        let entry: ReleaseHistory.Entry
        if let number {
            guard let found = history.entry(release: number) else {
                throw Failure("\(from.name) of \(tenant) never published release \(number) (its releases: \(listing(history)))")
            }
            entry = found
        } else {
            guard let current = history.current else { throw Failure("\(tenant) has no signed \(from.name) release to promote") }
            entry = current
        }
        var release = try locate(tenant: tenant, manifestSHA256: entry.manifestSHA256, output: output, store: store)
        let target = Publisher.currentManifest(tenant: tenant, channel: to, output: output)?.manifest.release ?? 0
        var same = true
        if entry.release <= target {
            release = try renumbered(release, as: try nextRelease(tenant: tenant, output: output), store: store)
            same = false
        }
        try publish(release, tenant: tenant, channel: to, exposure: exposure,
                    provenance: ReleaseProvenance(channel: to.name, origin: .promotion, fromChannel: from.name, fromRelease: entry.release, reason: reason),
                    keys: keys, output: output, steps: steps, warn: warn)
        return Outcome(release: release.manifest.release, sameManifest: same, source: entry.release)
    }

    /// `livery rollback`: publishes the content of an earlier release of the channel (or of any of the
    /// tenant's channels) as a new release with the next number, for every device, recording the reason.
    public static func rollback(tenant: String, channel: ReleaseChannel, to number: Int, reason: String, keys: TenantKeys, output: URL, store: ContentStore,
                                steps: ((String) -> Void)? = nil, warn: @escaping (String) -> Void = { _ in }) throws -> Outcome {
        let trimmed = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw Failure("a rollback needs a reason (--reason TEXT): it is recorded in the signed metadata") }
        let histories = try history(tenant: tenant, output: output)
        let own = histories.first { $0.channel == channel }
        guard let entry = entry(release: number, preferring: channel, in: histories) else {
            throw Failure("\(tenant) never published release \(number) (\(channel.name): \(own.map(listing) ?? "no releases"))")
        }
        guard let current = own?.current else { throw Failure("\(tenant) has no signed \(channel.name) release to roll back") }
        guard entry.manifestSHA256 != current.manifestSHA256 else { throw Failure("release \(number) is \(channel.name)'s current release") }
        let source = try locate(tenant: tenant, manifestSHA256: entry.manifestSHA256, output: output, store: store)
        let release = try renumbered(source, as: try nextRelease(tenant: tenant, output: output), store: store)
        try publish(release, tenant: tenant, channel: channel, exposure: .everyone,
                    provenance: ReleaseProvenance(channel: channel.name, origin: .rollback, fromChannel: entry.channel.name, fromRelease: number, reason: trimmed),
                    keys: keys, output: output, steps: steps, warn: warn)
        return Outcome(release: release.manifest.release, sameManifest: false)
    }

    /// Release `number` as `channel` signed it, or else as any channel of the tenant did (release
    /// numbers belong to the tenant, so they name the same content everywhere).
    public static func entry(release number: Int, preferring channel: ReleaseChannel, in histories: [ReleaseHistory]) -> ReleaseHistory.Entry? {
        histories.first { $0.channel == channel }?.entry(release: number) ?? histories.lazy.compactMap { $0.entry(release: number) }.first
    }

    /// The same bundles under a new release number: a new manifest in the store, nothing else new.
    static func renumbered(_ release: PublishedRelease, as number: Int, store: ContentStore) throws -> PublishedRelease {
        var manifest = release.manifest
        manifest.release = number
        let stored = try store.put(manifest.bytes, subject: "the download manifest")
        return PublishedRelease(manifest: manifest, manifestFile: stored, bundleFiles: release.bundleFiles, indexFiles: release.indexFiles)
    }

    static func listing(_ history: ReleaseHistory) -> String {
        history.entries.isEmpty ? "none" : history.entries.map { String($0.release) }.joined(separator: ", ")
    }
}
