import Foundation
import LiveryReleaseFormat

/// `livery gc --remote`: deletes the target objects of a tenant's prefix that no kept release
/// references. Kept: the current release and the `keep − 1` before it, read from the store's own
/// metadata (timestamp → the last `keep` snapshots → their targets and delegated targets files),
/// so a client that has not updated for one release still finds every file it was promised.
/// Metadata files are never deleted: the root chain must stay walkable, and old snapshot and
/// targets files are small. Runs under the tenant's publish lock, so it never races a publish
/// (whose new targets are not referenced yet).
extension RemotePublisher {
    public struct Collection: Sendable, Equatable {
        public var tenant: String
        public var deleted: [String] = []
        public var kept = 0
        /// The newest snapshot version of each kept release (a release re-signed by `--refresh-timestamp` spans several).
        public var releases: [Int] = []
    }

    public func collect(tenant: String, keep: Int) async throws -> Collection {
        precondition(keep >= 1)
        let base = location.key(tenant)
        let lock = try await acquireLock(tenant: tenant, base: base)
        do {
            let result = try await collectLocked(tenant: tenant, base: base, keep: keep)
            try await releaseLock(lock, base: base)
            return result
        } catch {
            try? await releaseLock(lock, base: base)
            throw error
        }
    }

    private func collectLocked(tenant: String, base: String, keep: Int) async throws -> Collection {
        var collection = Collection(tenant: tenant)
        let bucket = location.bucket
        var referenced: Set<String>
        if let timestamp = try await client.get(bucket: bucket, key: base + "/metadata/timestamp.json", limit: 1 << 20) {
            referenced = try await referencedBySignedReleases(timestamp.data, base: base, keep: keep, into: &collection)
        } else if let pointer = try await client.get(bucket: bucket, key: base + "/release.json", limit: 1 << 20) {
            // An unsigned release: the pointer's manifest and the bundles it lists.
            let release = try ReleasePointer(data: pointer.data)
            referenced = [release.manifest]
            if let manifest = try await client.get(bucket: bucket, key: base + "/" + release.manifest, limit: 64 << 20) {
                for bundle in try DownloadManifest(data: manifest.data).bundles {
                    let file = String(bundle.path.split(separator: "/").last ?? "")
                    referenced.insert(bundle.access == .voucher ? RemoteLayout.protectedFolder + "/" + file : bundle.path)
                    if let index = bundle.filesPath { referenced.insert(index) }
                }
            }
            collection.releases.append(release.release)
        } else {
            throw S3Error.integrity("s3://\(bucket)/\(base)/ holds no release (no metadata/timestamp.json, no release.json): nothing to collect against")
        }
        // Protected copies too; a protected target under targets/ (published before they had their own folder) is never referenced there.
        let objects = try await client.list(bucket: bucket, prefix: base + "/targets/") + client.list(bucket: bucket, prefix: base + "/\(RemoteLayout.protectedFolder)/")
        let doomed = objects.map { String($0.key.dropFirst(base.count + 1)) }.filter { !referenced.contains($0) }
        collection.kept = objects.count - doomed.count
        if options.dryRun {
            collection.deleted = doomed.sorted()
            return collection
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for relative in doomed {
                group.addTask { try await self.limiter.run { try await self.client.delete(bucket: bucket, key: base + "/" + relative) } }
            }
            try await group.waitForAll()
        }
        collection.deleted = doomed.sorted()
        return collection
    }

    /// The target keys the last `keep` releases of a signed repository reference (from its timestamp down the
    /// snapshots), with the file indexes their download manifests name; the kept releases go into `collection`.
    private func referencedBySignedReleases(_ timestamp: Data, base: String, keep: Int, into collection: inout Collection) async throws -> Set<String> {
        var referenced = Set<String>()
        // The download manifests of the kept releases: their bundles' file indexes are not TUF targets,
        // the manifests name them (docs/deltas.md).
        var keptManifests = Set<String>()
        // Releases are told apart by their download manifest: a snapshot re-signed by
        // `--refresh-timestamp` (same targets, new version) is not another release.
        let current = try Metadata<Timestamp>(data: timestamp).signed.snapshot.version
        var manifests = Set<String>()
        var version = current
        while version >= 1 {
            defer { version -= 1 }
            guard let (keys, manifest) = try await targetKeys(ofSnapshot: version, base: base) else { continue }
            let release = manifest ?? "snapshot \(version)"
            if !manifests.contains(release) {
                guard manifests.count < keep else { break }
                manifests.insert(release)
                collection.releases.append(version)
            }
            for key in keys where key.hasPrefix(Self.manifestMarker) { keptManifests.insert(String(key.dropFirst(Self.manifestMarker.count))) }
            referenced.formUnion(keys.filter { !$0.hasPrefix(Self.manifestMarker) })
        }
        for key in keptManifests {
            guard let manifest = try await client.get(bucket: location.bucket, key: base + "/" + key, limit: 64 << 20) else { continue }
            let folder = key.split(separator: "/").dropLast().joined(separator: "/")
            for bundle in try DownloadManifest(data: manifest.data).bundles {
                if let files = bundle.files { referenced.insert("\(folder)/\(files.sha256).\(bundle.id).files") }
            }
        }
        return referenced
    }

    /// The keys of the targets snapshot `version` names (through its targets and delegated targets files), its download
    /// manifests' keys marked with `manifestMarker`, and the hash of the top-level targets' download manifest; nil when
    /// the snapshot is not in the store.
    private func targetKeys(ofSnapshot version: Int, base: String) async throws -> (keys: Set<String>, manifest: String?)? {
        let bucket = location.bucket
        guard let snapshotFile = try await client.get(bucket: bucket, key: base + "/metadata/\(version).snapshot.json", limit: 16 << 20) else { return nil }
        let snapshot = try Metadata<Snapshot>(data: snapshotFile.data).signed
        var keys = Set<String>()
        var manifest: String?
        for (file, entry) in snapshot.meta {
            let role = String(file.dropLast(".json".count))
            let key = base + "/metadata/\(entry.version).\(TUFName.quoted(role)).json"
            guard let targetsFile = try await client.get(bucket: bucket, key: key, limit: 64 << 20) else {
                throw S3Error.integrity("s3://\(bucket)/\(key) is missing, but snapshot \(version) names it: the store is damaged; publish again before collecting")
            }
            for target in try Metadata<Targets>(data: targetsFile.data).signed.targets.values {
                guard let hash = target.namingHash else { continue }
                let isProtected = (try? TargetCustom(of: target))??.isProtected ?? false
                keys.insert(Self.targetKey(path: target.path, hash: hash, isProtected: isProtected))
                if role == TUFRole.targets.rawValue, target.path == DownloadManifest.targetName { manifest = hash }
                if target.path == DownloadManifest.targetName || target.path == RolloutStage.stagedManifestName {
                    keys.insert(Self.manifestMarker + Self.targetKey(path: target.path, hash: hash))
                }
            }
        }
        return (keys, manifest)
    }

    /// Where a consistent-snapshot repository keeps a target: `targets/<dir>/<hash>.<basename>`
    /// (`protected/…` for a voucher target, `RemoteLayout`).
    /// Marks a kept download manifest's key among a snapshot's target keys (never a real key: it has no `targets/` prefix).
    static let manifestMarker = "manifest:"

    static func targetKey(path: String, hash: String, isProtected: Bool = false) -> String {
        var parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        parts[parts.count - 1] = hash + "." + parts[parts.count - 1]
        return (isProtected ? RemoteLayout.protectedFolder : "targets") + "/" + parts.joined(separator: "/")
    }
}
