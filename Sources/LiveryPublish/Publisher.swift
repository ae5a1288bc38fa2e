import CLiverySystem
import Foundation
import LiveryReleaseFormat
import LiveryAssets
import LiveryPack
import LiverySign
import LiveryStorage

/// Publishes a tenant's release into `Output/<tenant>/` atomically.
///
/// The new tree is assembled in `Output/.livery/staging/` from hard links to content-store objects
/// (the previous release's targets and any `metadata/` are linked in too), then swapped with the
/// live folder by one `renameat2(RENAME_EXCHANGE)`. Readers see the old tree or the new one, never a
/// mix; a build killed at any point leaves the live folder untouched, and its staging folder is
/// removed by the next build.
public enum Publisher {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String

        package init(description: String) { self.description = description }
    }

    static func stagingRoot(_ output: URL) -> URL { output.appendingPathComponent(".livery/staging", isDirectory: true) }

    /// Removes staging folders left by builds that were killed (call while holding the lock).
    public static func removeLeftovers(in output: URL) {
        let root = stagingRoot(output)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? [] {
            try? FileManager.default.removeItem(at: root.appendingPathComponent(name))
        }
    }

    /// Whether the channel's newest signed targets metadata vouches for the manifest its `release.json` points at.
    public static func signaturesCover(tenant: String, channel: ReleaseChannel = .stable, output: URL) -> Bool {
        let folder = repository(tenant: tenant, channel: channel, output: output)
        guard let pointer = ReleasePointer.read(from: folder), let sha = PublishedMetadata.read(release: folder)?.manifestSHA256 else { return false }
        return sha == pointer.sha256
    }

    /// A channel's repository folder: `Output/<tenant>` for stable, `Output/<tenant>/channels/<name>` otherwise.
    public static func repository(tenant: String, channel: ReleaseChannel, output: URL) -> URL {
        channel.repository(in: output.appendingPathComponent(tenant, isDirectory: true))
    }

    /// The current manifest of a tenant's channel, if it has a release.
    public static func currentManifest(tenant: String, channel: ReleaseChannel = .stable, output: URL) -> (pointer: ReleasePointer, manifest: DownloadManifest)? {
        let folder = repository(tenant: tenant, channel: channel, output: output)
        guard let pointer = ReleasePointer.read(from: folder),
              let data = FileManager.default.contents(atPath: folder.appendingPathComponent(pointer.manifest, isDirectory: false).path),
              let manifest = DownloadManifest.parse(data) else { return nil }
        return (pointer, manifest)
    }

    /// The release being rolled out on a channel, if any: its manifest (as signed under
    /// `staged/download-manifest.json`), the manifest's SHA-256 and the share of devices.
    public static func stagedManifest(tenant: String, channel: ReleaseChannel = .stable, output: URL) -> (manifest: DownloadManifest, sha256: String, stage: RolloutStage)? {
        let folder = repository(tenant: tenant, channel: channel, output: output)
        guard let published = PublishedMetadata.read(release: folder), let entry = published.targets.signed.targets[RolloutStage.stagedManifestName],
              let sha = entry.sha256, let stage = (try? TargetCustom(of: entry))??.rollout,
              let data = FileManager.default.contents(atPath: folder.appendingPathComponent("targets/staged/\(sha).\(DownloadManifest.targetName)").path),
              let manifest = DownloadManifest.parse(data) else { return nil }
        return (manifest, sha, stage)
    }

    /// The channels a tenant has published, stable first.
    public static func channels(tenant: String, output: URL) -> [ReleaseChannel] {
        let folder = output.appendingPathComponent(tenant, isDirectory: true)
        var found: [ReleaseChannel] = FileManager.default.fileExists(atPath: folder.appendingPathComponent(ReleasePointer.fileName, isDirectory: false).path) ? [.stable] : []
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(ReleaseChannel.folderName, isDirectory: true).path)) ?? []
        found += names.compactMap(ReleaseChannel.init).filter {
            FileManager.default.fileExists(atPath: $0.repository(in: folder).appendingPathComponent(ReleasePointer.fileName, isDirectory: false).path)
        }.sorted()
        return found
    }

    /// One file a release puts in its repository: `relative` is `targets/<sha256>.<name>` (or under `targets/staged/`).
    public struct File: Sendable {
        public var source: URL
        public var relative: String

        public init(source: URL, relative: String) {
            self.source = source
            self.relative = relative
        }
    }

    /// Makes one staged release durable and switches it in (`steps` hears `signed`, then `switched`);
    /// discards it when that fails.
    public static func commit(_ staged: Staged, steps: ((String) -> Void)? = nil) throws {
        var switched = false
        defer { if !switched { staged.discard() } }
        try makeDurable(staged.staging)
        steps?("signed")
        try staged.switchIn()
        switched = true
        try makeSwitchDurable(staged.live)
        steps?("switched")
    }

    /// A release assembled and signed in staging, not live yet. Many are made durable together
    /// (`makeDurable`, one flush of the file system for a whole build), then each is switched in
    /// (`switchIn`), then the folders holding the live trees are flushed once each (`makeSwitchDurable`).
    /// One that is not switched in must be `discard`ed (a killed build's are removed by the next one).
    public struct Staged: Sendable {
        public var tenant: String
        public var channel: ReleaseChannel
        /// The new tree, in `Output/.livery/staging/`.
        public var staging: URL
        /// The channel's repository folder it replaces.
        public var live: URL

        /// Removes the staging tree (the release was not switched in).
        public func discard() { try? FileManager.default.removeItem(at: staging) }

        /// The one step that switches releases: the staging tree becomes the live tree. The previous
        /// tree, swapped into staging, is removed. Call only once the tree is durable (`makeDurable`).
        public func switchIn() throws {
            let fm = FileManager.default
            if fm.fileExists(atPath: live.path) {
                guard livery_rename_exchange(staging.path, live.path) == 0 else {
                    let code = errno
                    throw WriteFailure.storage(errno: code, path: live.path)
                        ?? Failure(description: "cannot switch \(live.path) to the new release: \(String(cString: strerror(code)))")
                }
                // `staging` now holds the previous tree.
                try? fm.removeItem(at: staging)
            } else {
                // A channel's first release in a tenant folder that may not exist yet.
                try WriteFailure.writing(live.deletingLastPathComponent().path) {
                    try fm.createDirectory(at: live.deletingLastPathComponent(), withIntermediateDirectories: true)
                }
                guard rename(staging.path, live.path) == 0 else {
                    let code = errno
                    throw WriteFailure.storage(errno: code, path: live.path) ?? WriteFailure(errno: code, path: live.path, operation: .create)
                }
            }
        }
    }

    /// Assembles a release in a channel's staging folder and signs it, without switching it in: `files`
    /// (the bundles, and a staged release's files under `targets/staged/`), the manifest, and
    /// `release.json` naming it; the files of the channel's current release (and of a release being
    /// rolled out) stay for clients mid-download. `sign` writes the metadata into the staging folder,
    /// so the new targets and the metadata that vouches for them go live together. `steps` hears
    /// `assembled` (`--verbose`; kill tests stop there). `commit` makes it live, or a build's batch does.
    public static func stage(tenant: String, channel: ReleaseChannel, files: [File], manifest: StoredFile, release: Int, output: URL,
                             steps: ((String) -> Void)? = nil, sign: ((URL) throws -> Void)? = nil) throws -> Staged {
        let fm = FileManager.default
        let live = repository(tenant: tenant, channel: channel, output: output)
        let staging = stagingRoot(output).appendingPathComponent("\(tenant).\(channel.name).\(UUID().uuidString)", isDirectory: true)
        try makeStagingFolder(staging)
        var cleanup = true
        defer { if cleanup { try? fm.removeItem(at: staging) } }
        try createFolder(staging.appendingPathComponent("targets", isDirectory: true))
        // A channel's first release (every tenant's, in a first build): nothing to keep from a live
        // tree, and no pointer, manifest or metadata to look for in it.
        let liveExists = fm.fileExists(atPath: live.path)

        // The staging folders made so far (relative to `staging`): each is made once, not checked per file.
        var folders: Set<Substring> = ["targets"]
        func link(_ source: URL, as relative: String) throws {
            let destination = staging.appendingPathComponent(relative, isDirectory: false)
            if let slash = relative.lastIndex(of: "/"), case let folder = relative[..<slash], !folders.contains(folder) {
                try createFolder(staging.appendingPathComponent(String(folder), isDirectory: true))
                folders.insert(folder)
            }
            try linkOrCopy(source, to: destination)
        }
        // Keep the previous release's targets (clients may be downloading them), a staged release's, and any metadata.
        if liveExists, let previous = currentManifest(tenant: tenant, channel: channel, output: output) {
            for name in [previous.pointer.manifest] + previous.manifest.bundles.map(\.path) + previous.manifest.bundles.compactMap(\.filesPath) {
                let file = live.appendingPathComponent(name, isDirectory: false)
                if fm.fileExists(atPath: file.path) { try link(file, as: name) }
            }
        }
        if liveExists, let staged = stagedManifest(tenant: tenant, channel: channel, output: output) {
            let names = ["\(staged.sha256).\(DownloadManifest.targetName)"] + staged.manifest.bundles.map { "\($0.sha256).\($0.targetName(format: staged.manifest.format))" }
                + staged.manifest.bundles.compactMap { bundle in bundle.files.map { "\($0.sha256).\(bundle.id).files" } }
            for name in names {
                let file = live.appendingPathComponent("targets/staged/\(name)", isDirectory: false)
                if fm.fileExists(atPath: file.path) { try link(file, as: "targets/staged/\(name)") }
            }
        }
        // Earlier metadata is always kept: versions and the root history must continue. (After an
        // unsigned build it vouches for the previous manifest only; the next signed build signs again.)
        // Stable's folder also holds the other channels, which stay as they are.
        for kept in ["metadata"] + (channel.isStable ? [ReleaseChannel.folderName] : []) where liveExists {
            let folder = live.appendingPathComponent(kept, isDirectory: true)
            guard fm.fileExists(atPath: folder.path) else { continue }
            try linkTree(folder, into: staging.appendingPathComponent(kept, isDirectory: true))
            folders.insert(Substring(kept))
        }
        // A repository's first release takes the root chain of the tenant's other channels, so one
        // root file (the one apps ship) is trusted on every channel.
        let tenantFolder = output.appendingPathComponent(tenant, isDirectory: true)
        // (Stable's repository is the tenant folder: without it there are no other channels.)
        if !folders.contains("metadata"), liveExists || !channel.isStable {
            if let sibling = channels(tenant: tenant, output: output).map({ $0.repository(in: tenantFolder).appendingPathComponent("metadata") })
                .first(where: { fm.fileExists(atPath: $0.appendingPathComponent("1.root.json").path) }) {
                for name in try fm.contentsOfDirectory(atPath: sibling.path) where name.hasSuffix(".root.json") {
                    try link(sibling.appendingPathComponent(name), as: "metadata/\(name)")
                }
            }
        }
        for file in files { try link(file.source, as: file.relative) }
        let manifestName = "targets/\(manifest.sha256).\(DownloadManifest.targetName)"
        try link(manifest.url, as: manifestName)
        let pointer = ReleasePointer(tenant: tenant, release: release, manifest: manifestName, sha256: manifest.sha256)
        try StagedFile.write(pointer.json.bytes, to: staging.appendingPathComponent(ReleasePointer.fileName, isDirectory: false))
        steps?("assembled")
        try sign?(staging)
        cleanup = false
        return Staged(tenant: tenant, channel: channel, staging: staging, live: live)
    }

    /// Makes a new staging folder: one mkdir, and `.livery/staging` itself only the first time it is missing.
    static func makeStagingFolder(_ staging: URL) throws {
        if mkdir(staging.path, 0o777) == 0 { return }  // (as FileManager makes folders: 0777 less the umask)
        let code = errno
        guard code == ENOENT else {
            throw WriteFailure.storage(errno: code, path: staging.path) ?? WriteFailure(errno: code, path: staging.path, operation: .createFolder)
        }
        try createFolder(staging)
    }

    /// Makes `folder` (and its parents), a full device or a failing one said as a `WriteFailure` naming it.
    static func createFolder(_ folder: URL) throws {
        try WriteFailure.writing(folder.path) { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
    }

    /// Puts `source` at `destination` by a hard link (no bytes copied), or a copy across file systems. A name already
    /// there is left alone: targets are named by their digest, so the same name is the same content.
    static func linkOrCopy(_ source: URL, to destination: URL) throws {
        guard Foundation.link(source.path, destination.path) != 0 else { return }
        let code = errno
        if code == EEXIST { return }
        // A link needs no data blocks, but a folder's new entry may: a full device is said as such.
        if let failure = WriteFailure.storage(errno: code, path: destination.path) { throw failure }
        try WriteFailure.writing(destination.path) { try FileManager.default.copyItem(at: source, to: destination) }
    }

    /// Before a switch: everything the new trees hold (their files, their folders, the store objects
    /// they link, the development keys that signed them: all written by this build before this call)
    /// reaches the disk, with one `syncfs` of the file system `path` is on, so a power cut after a
    /// switch cannot leave a live tree with missing or partial files. A build calls it once for all
    /// its tenants: `syncfs` waits for every dirty page of the file system, other programs' too, so
    /// one per tenant cost a build of many tenants most of its time on a busy machine.
    public static func makeDurable(_ path: URL) throws {
        guard livery_sync_file_system(path.path) == 0 else {
            // Data written earlier that the device failed to store shows here, as EIO (or ENOSPC, on some file systems).
            let code = errno
            throw WriteFailure.storage(errno: code, path: path.path) ?? WriteFailure(errno: code, path: path.path, operation: .flush)
        }
    }

    /// After a switch: the folder holding the live tree records the rename on disk.
    public static func makeSwitchDurable(_ live: URL) throws {
        try syncFolder(live.deletingLastPathComponent())
    }

    /// Flushes a folder's entries (a rename into it) to the disk.
    public static func syncFolder(_ folder: URL) throws {
        guard livery_sync_directory(folder.path) == 0 else {
            let code = errno
            throw WriteFailure.storage(errno: code, path: folder.path) ?? WriteFailure(errno: code, path: folder.path, operation: .flush)
        }
    }

    /// Recreates the tree under `source` at `destination` from hard links (copies across file systems).
    static func linkTree(_ source: URL, into destination: URL) throws {
        let fm = FileManager.default
        try createFolder(destination)
        let base = source.standardizedFileURL.path
        guard let walker = fm.enumerator(at: source, includingPropertiesForKeys: [.isDirectoryKey]) else { throw ReadFailure(path: source.path, operation: .list) }
        for case let url as URL in walker {
            let relative = String(url.standardizedFileURL.path.dropFirst(base.count + 1))
            let target = destination.appendingPathComponent(relative)
            if (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true {
                try createFolder(target)
            } else if link(url.path, target.path) != 0 {
                let code = errno
                if let failure = WriteFailure.storage(errno: code, path: target.path) { throw failure }
                try WriteFailure.writing(target.path) { try fm.copyItem(at: url, to: target) }
            }
        }
    }
}

extension Publisher {
    /// Changes a published release in place of the live folder, atomically: the whole tree is hard-linked
    /// into staging, `update` changes the staging copy (it must replace files, never write through a
    /// link), and the copy is swapped in. Used to re-sign metadata (timestamp refresh, key rotation).
    public static func amend(tenant: String, channel: ReleaseChannel = .stable, output: URL, steps: ((String) -> Void)? = nil, update: (URL) throws -> Void) throws {
        let fm = FileManager.default
        let live = repository(tenant: tenant, channel: channel, output: output)
        guard fm.fileExists(atPath: live.appendingPathComponent(ReleasePointer.fileName).path) else {
            throw Failure(description: "'\(tenant)' has no \(channel.isStable ? "" : "\(channel.name) ")release in \(output.path)")
        }
        let staging = stagingRoot(output).appendingPathComponent("\(tenant).\(channel.name).\(UUID().uuidString)")
        defer { try? fm.removeItem(at: staging) }
        try linkTree(live, into: staging)
        steps?("assembled")
        try update(staging)
        try makeDurable(staging)
        steps?("signed")
        guard livery_rename_exchange(staging.path, live.path) == 0 else {
            let code = errno
            throw WriteFailure.storage(errno: code, path: live.path) ?? Failure(description: "cannot switch \(live.path): \(String(cString: strerror(code)))")
        }
        try makeSwitchDurable(live)
        steps?("switched")
    }
}
