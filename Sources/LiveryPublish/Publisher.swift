import CLiverySystem
import Foundation
import LiveryTUF
import LiveryAssets
import LiveryPack
import LiverySign

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
    }

    static func stagingRoot(_ output: URL) -> URL { output.appendingPathComponent(".livery/staging") }

    /// Removes staging folders left by builds that were killed (call while holding the lock).
    public static func removeLeftovers(in output: URL) {
        let root = stagingRoot(output)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? [] {
            try? FileManager.default.removeItem(at: root.appendingPathComponent(name))
        }
    }

    /// Whether the tenant's newest signed targets metadata vouches for the manifest `release.json` points at.
    public static func signaturesCover(tenant: String, output: URL) -> Bool {
        let folder = output.appendingPathComponent(tenant)
        guard let pointer = ReleasePointer.read(from: folder), let sha = PublishedMetadata.read(release: folder)?.manifestSHA256 else { return false }
        return sha == pointer.sha256
    }

    /// The current manifest of a tenant, if it has a release.
    public static func currentManifest(tenant: String, output: URL) -> (pointer: ReleasePointer, manifest: DownloadManifest)? {
        let folder = output.appendingPathComponent(tenant)
        guard let pointer = ReleasePointer.read(from: folder),
              let data = FileManager.default.contents(atPath: folder.appendingPathComponent(pointer.manifest).path),
              let manifest = DownloadManifest.parse(data) else { return nil }
        return (pointer, manifest)
    }

    /// `sign` writes the release's metadata into the staging folder before the switch, so the new
    /// targets and the metadata that vouches for them appear together.
    public static func publish(tenant: String, bundles: [BuiltBundle], manifest: StoredFile, release: Int, output: URL,
                               sign: ((URL) throws -> Void)? = nil) throws {
        let fm = FileManager.default
        let live = output.appendingPathComponent(tenant)
        let staging = stagingRoot(output).appendingPathComponent("\(tenant).\(UUID().uuidString)")
        let targets = staging.appendingPathComponent("targets")
        try fm.createDirectory(at: targets, withIntermediateDirectories: true)
        var cleanup = true
        defer { if cleanup { try? fm.removeItem(at: staging) } }

        func link(_ source: URL, as name: String, in folder: URL) throws {
            let destination = folder.appendingPathComponent(name)
            guard !fm.fileExists(atPath: destination.path) else { return }
            if Foundation.link(source.path, destination.path) != 0 {
                try fm.copyItem(at: source, to: destination)
            }
        }
        // Keep the previous release's targets (clients may be downloading them) and any metadata.
        if let previous = currentManifest(tenant: tenant, output: output) {
            for name in [previous.pointer.manifest] + previous.manifest.bundles.map(\.path) {
                let file = live.appendingPathComponent(name)
                if fm.fileExists(atPath: file.path) { try link(file, as: (name as NSString).lastPathComponent, in: targets) }
            }
        }
        let metadata = live.appendingPathComponent("metadata")
        // Earlier metadata is always kept: versions and the root history must continue. (After an
        // unsigned build it vouches for the previous manifest only; the next signed build signs again.)
        if fm.fileExists(atPath: metadata.path) {
            let copy = staging.appendingPathComponent("metadata")
            try fm.createDirectory(at: copy, withIntermediateDirectories: true)
            for name in try fm.contentsOfDirectory(atPath: metadata.path) { try link(metadata.appendingPathComponent(name), as: name, in: copy) }
        }
        for bundle in bundles { try link(bundle.object, as: bundle.targetFileName, in: targets) }
        let manifestName = "\(manifest.sha256).\(DownloadManifest.targetName)"
        try link(manifest.url, as: manifestName, in: targets)
        let pointer = ReleasePointer(tenant: tenant, release: release, manifest: "targets/\(manifestName)", sha256: manifest.sha256)
        try pointer.json.bytes.write(to: staging.appendingPathComponent(ReleasePointer.fileName))
        try sign?(staging)

        // The one step that switches releases.
        if fm.fileExists(atPath: live.path) {
            guard livery_rename_exchange(staging.path, live.path) == 0 else {
                throw Failure(description: "cannot switch \(live.path) to the new release: \(String(cString: strerror(errno)))")
            }
            // `staging` now holds the previous tree; the deferred cleanup removes it.
        } else {
            guard rename(staging.path, live.path) == 0 else {
                throw Failure(description: "cannot publish \(live.path): \(String(cString: strerror(errno)))")
            }
            cleanup = false
        }
    }
}

extension Publisher {
    /// Changes a published release in place of the live folder, atomically: the whole tree is hard-linked
    /// into staging, `update` changes the staging copy (it must replace files, never write through a
    /// link), and the copy is swapped in. Used to re-sign metadata (timestamp refresh, key rotation).
    public static func amend(tenant: String, output: URL, update: (URL) throws -> Void) throws {
        let fm = FileManager.default
        let live = output.appendingPathComponent(tenant)
        guard fm.fileExists(atPath: live.path) else { throw Failure(description: "'\(tenant)' has no release in \(output.path)") }
        let staging = stagingRoot(output).appendingPathComponent("\(tenant).\(UUID().uuidString)")
        defer { try? fm.removeItem(at: staging) }
        try fm.createDirectory(at: staging, withIntermediateDirectories: true)
        let base = live.standardizedFileURL.path
        guard let walker = fm.enumerator(at: live, includingPropertiesForKeys: [.isDirectoryKey]) else { throw Failure(description: "cannot read \(live.path)") }
        for case let url as URL in walker {
            let relative = String(url.standardizedFileURL.path.dropFirst(base.count + 1))
            let destination = staging.appendingPathComponent(relative)
            if (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true {
                try fm.createDirectory(at: destination, withIntermediateDirectories: true)
            } else if link(url.path, destination.path) != 0 {
                try fm.copyItem(at: url, to: destination)
            }
        }
        try update(staging)
        guard livery_rename_exchange(staging.path, live.path) == 0 else {
            throw Failure(description: "cannot switch \(live.path): \(String(cString: strerror(errno)))")
        }
    }
}
