import Foundation
import LiveryAssets
import LiverySign
import LiveryReleaseFormat

/// A side of `livery diff`: a release number of the tenant (from any of its channels), or an output folder,
/// standing for the tenant's current release on a channel there.
public enum ReleaseSelector: Sendable, Equatable {
    case number(Int)
    /// The folder as it was given (error messages repeat it).
    case folder(String)

    /// A whole number is a release number; anything else an output folder.
    public init(_ text: String) {
        self = Int(text).map(ReleaseSelector.number) ?? .folder(text)
    }

    /// The release's bytes. `output` holds the numbered releases; `channel` is the one a folder stands for, and
    /// the one preferred for a number that several channels published.
    public func locate(tenant: String, channel: ReleaseChannel, output: URL) throws -> PublishedRelease {
        let folder: URL, sha: String
        switch self {
        case .number(let number):
            folder = output
            let histories = try ReleaseChannels.history(tenant: tenant, output: folder)
            guard let entry = ReleaseChannels.entry(release: number, preferring: channel, in: histories) else {
                throw ReleaseChannels.Failure("\(tenant) never published release \(number) in \(folder.path)")
            }
            sha = entry.manifestSHA256
        case .folder(let text):
            folder = URL(fileURLWithPath: text).standardizedFileURL
            guard let current = Publisher.currentManifest(tenant: tenant, channel: channel, output: folder) else {
                throw ReleaseChannels.Failure("'\(text)' is neither a release number nor an output folder with a \(channel.name) release of \(tenant)")
            }
            sha = current.pointer.sha256
        }
        let store = try ContentStore(root: folder.appendingPathComponent(".livery/store"))
        do {
            return try ReleaseChannels.locate(tenant: tenant, manifestSHA256: sha, output: folder, store: store)
        } catch let failure as ReleaseChannels.Failure {
            throw ReleaseChannels.Failure("\(tenant): \(failure.description)")
        }
    }
}

extension ReleaseDiff {
    /// `livery diff`: the two releases located, then compared; encrypted bundles are decrypted (into temporary
    /// files) when `keys` holds the tenant's content key, and otherwise compared by size only.
    public static func compare(tenant: String, from: ReleaseSelector, to: ReleaseSelector, channel: ReleaseChannel, output: URL, keys: URL) throws -> ReleaseDiff {
        let a = try from.locate(tenant: tenant, channel: channel, output: output)
        let b = try to.locate(tenant: tenant, channel: channel, output: output)
        let secret = try? KeyStore(root: keys).contentSecret(for: tenant, create: false)
        return try compare(a, b) { bundle, url in
            guard let secret, let encryption = bundle.encryption else { return nil }
            let plain = FileManager.default.temporaryDirectory.appendingPathComponent("livery-diff-\(UUID().uuidString)")
            try SegmentedAEAD.decrypt(url, to: plain, key: secret.contentKey(keyID: encryption.keyID))
            return plain
        }
    }
}
