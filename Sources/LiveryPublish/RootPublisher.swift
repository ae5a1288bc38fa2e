import Foundation
import LiveryStorage
import LiverySign
import LiveryReleaseFormat

/// Publishes a tenant's next root (from `livery keys rotate` or a root ceremony) into every
/// channel's repository, with the same bytes everywhere (apps ship one root file). A channel whose
/// current timestamp, snapshot or targets the new root no longer accepts (an online key changed)
/// is signed again with the key store's keys that the new root trusts. Before the tenant's first
/// build, a first root is kept in the key store, and the first build publishes it.
public enum RootPublisher {
    /// The tenant's newest root: published (the stable channel, else the first channel that has
    /// one), else the key store's first root; nil when the tenant has none yet.
    public static func current(tenant: String, output: URL, store: KeyStore) throws -> Metadata<Root>? {
        for channel in Publisher.channels(tenant: tenant, output: output) {
            let metadata = Publisher.repository(tenant: tenant, channel: channel, output: output).appendingPathComponent("metadata")
            if let version = RepositorySigner.latestVersion(of: .root, in: metadata) {
                return try Metadata<Root>(data: Data(contentsOf: metadata.appendingPathComponent("\(version).root.json")))
            }
        }
        guard let data = try? Data(contentsOf: store.initialRootFile(for: tenant)) else { return nil }
        return try Metadata<Root>(data: data)
    }

    public struct Outcome: Sendable {
        /// The channels that have the new root, and whether their online metadata was signed again.
        public var published: [(channel: ReleaseChannel, resigned: Bool)] = []
        /// Channels that could not take it (the new root is published elsewhere, so the keys it trusts must be kept).
        public var failed: [(channel: ReleaseChannel, error: String)] = []
        /// True when the root was kept in the key store for the first build.
        public var keptForFirstBuild = false
    }

    public static func publish(_ root: Metadata<Root>, tenant: String, output: URL, store: KeyStore, keys: TenantKeys?,
                               steps: ((String) -> Void)? = nil) throws -> Outcome {
        var outcome = Outcome()
        let channels = Publisher.channels(tenant: tenant, output: output)
        let name = "\(root.signed.version).root.json"
        guard !channels.isEmpty else {
            guard root.signed.version == 1 else {
                throw TUFError("'\(tenant)' has no published release, so its root chain starts at version 1, not \(root.signed.version)")
            }
            let file = store.initialRootFile(for: tenant)
            let folder = file.deletingLastPathComponent()
            try WriteFailure.writing(folder.path) { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]) }
            try AtomicFile.write(root.bytes, to: file, mode: 0o644, durable: true)
            outcome.keptForFirstBuild = true
            return outcome
        }
        for channel in channels {
            do {
                var resigned = false
                try Publisher.amend(tenant: tenant, channel: channel, output: output, steps: steps) { folder in
                    let metadata = folder.appendingPathComponent("metadata")
                    let latest = RepositorySigner.latestVersion(of: .root, in: metadata) ?? 0
                    if latest >= root.signed.version {
                        let existing = try? Data(contentsOf: metadata.appendingPathComponent(name))
                        guard existing == root.bytes else { throw TUFError("this channel already has a different root version \(latest)") }
                        return
                    }
                    guard latest == root.signed.version - 1 else {
                        throw TUFError("this channel's root is at version \(latest), so it cannot take version \(root.signed.version)")
                    }
                    let file = metadata.appendingPathComponent(name)
                    unlink(file.path)
                    try StagedFile.write(root.bytes, to: file)
                    guard let published = try PublishedMetadata.load(release: folder), !isSigned(published, under: root.signed) else { return }
                    guard let keys else { throw TUFError("the new root changes online keys, and no key store was given to sign the release again") }
                    try RepositorySigner.sign(release: folder, targets: try published.signedTargets, keys: keys)
                    resigned = true
                }
                outcome.published.append((channel, resigned))
            } catch {
                // Nothing published trusts the new root yet: stop before any channel has it.
                guard !outcome.published.isEmpty else { throw error }
                outcome.failed.append((channel, "\(error)"))
            }
        }
        return outcome
    }

    /// Whether the release's timestamp, snapshot and targets each carry a threshold of valid
    /// signatures by the keys `root` gives their role.
    static func isSigned(_ published: PublishedMetadata, under root: Root) -> Bool {
        root.keys(for: .timestamp).validSignatures(published.timestamp) >= (root.roles[.timestamp]?.threshold ?? 1)
            && root.keys(for: .snapshot).validSignatures(published.snapshot) >= (root.roles[.snapshot]?.threshold ?? 1)
            && root.keys(for: .targets).validSignatures(published.targets) >= (root.roles[.targets]?.threshold ?? 1)
    }
}
