import Foundation
import LiveryAssets
import LiverySign
import LiveryReleaseFormat

/// `livery gc`: removes from `Output/.livery/store` every object that nothing kept needs, under the
/// output lock. Kept, per channel of every tenant in the output folder: the current release, the
/// release before it (a client may be mid-update), a release being rolled out, and releases back to
/// `keep` in all; per tenant, what its last build published (builds compare against it); and every
/// tenant file the stat cache knows that still exists (the next build finds it in the store).
/// Everything else (older releases' manifests and bundles, archives of edited files, files since
/// deleted) goes. Files in the channels' `targets/` are never touched: publishing already keeps
/// only the current, previous and staged releases there.
public enum StoreCollector {
    public struct Collection: Sendable {
        /// The removed (or, dry, removable) objects with their sizes.
        public var removed: [(sha256: String, size: Int64)] = []
        public var keptObjects = 0
        /// Per tenant and channel ("tenant" or "tenant (beta)"), the release numbers kept.
        public var keptReleases: [String: [Int]] = [:]
        /// Releases whose files were already gone (named, not fatal).
        public var notes: [String] = []

        public var freed: Int64 { removed.reduce(0) { $0 + $1.size } }
    }

    public static func collect(output: URL, keep: Int, dryRun: Bool, progress: (String) -> Void = { _ in }) throws -> Collection {
        let lock = try OutputLock(output: output, waiting: progress)
        defer { withExtendedLifetime(lock) {} }
        Publisher.removeLeftovers(in: output)
        let store = try ContentStore(root: output.appendingPathComponent(".livery/store"))
        store.removeLeftovers()
        var collection = Collection()
        var needed = try store.digestsOfSourceFiles()

        func keepRelease(tenant: String, sha: String, what: String) {
            do {
                let release = try ReleaseChannels.locate(tenant: tenant, manifestSHA256: sha, output: output, store: store)
                needed.insert(sha)
                for bundle in release.manifest.bundles { needed.insert(bundle.sha256) }
                // File indexes in the store are named by the whole object's digest (the manifest names their table's).
                for url in release.indexFiles.values where url.path.hasPrefix(store.root.path) { needed.insert(url.lastPathComponent) }
            } catch {
                // A kept release whose files are gone keeps nothing; the manifest itself may still be there.
                needed.insert(sha)
                collection.notes.append("\(what): \(error)")
            }
        }
        let tenants = ((try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
        for tenant in tenants {
            for history in try ReleaseChannels.history(tenant: tenant, output: output) {
                let name = history.channel.isStable ? tenant : "\(tenant) (\(history.channel.name))"
                let main = history.entries.filter(\.wasMain)
                var kept: [ReleaseHistory.Entry] = []
                if let current = history.current, let at = main.lastIndex(where: { $0.manifestSHA256 == current.manifestSHA256 && $0.release == current.release }) {
                    // The current release and the `keep - 1` before it, never fewer than the one before it.
                    kept += main[max(0, at - max(keep, 2) + 1)...at]
                }
                if let staged = history.staged { kept.append(staged) }
                for entry in kept { keepRelease(tenant: tenant, sha: entry.manifestSHA256, what: "\(name) release \(entry.release)") }
                // What release.json names, and what the channel's targets hold, whatever the metadata says (unsigned releases).
                let repository = Publisher.repository(tenant: tenant, channel: history.channel, output: output)
                for folder in ["targets", "targets/staged"] {
                    for file in (try? FileManager.default.contentsOfDirectory(atPath: repository.appendingPathComponent(folder).path)) ?? [] where file.count > 65 {
                        needed.insert(String(file.prefix(64)))
                    }
                }
                collection.keptReleases[name] = kept.map(\.release).sorted()
            }
            // Unsigned releases have no history: keep what their pointer names.
            for channel in Publisher.channels(tenant: tenant, output: output) {
                if let current = Publisher.currentManifest(tenant: tenant, channel: channel, output: output) {
                    keepRelease(tenant: tenant, sha: current.pointer.sha256, what: "\(tenant) \(channel.name)")
                }
            }
        }
        // What each tenant's last build published: the next build compares against it.
        let records = try BuildRecords(store: store)
        for tenant in try records.tenants() {
            guard let recorded = records.recorded(tenant) else { continue }
            if FileManager.default.fileExists(atPath: store.objectURL(recorded.manifest).path) {
                keepRelease(tenant: tenant, sha: recorded.manifest, what: "\(tenant)'s last build")
            }
        }
        for object in store.allObjects() {
            if needed.contains(object.sha256) {
                collection.keptObjects += 1
                continue
            }
            if !dryRun { try store.remove(object.sha256) }
            collection.removed.append(object)
            progress("\(dryRun ? "would remove" : "removed") \(object.sha256) (\(object.size) bytes)")
        }
        return collection
    }
}
