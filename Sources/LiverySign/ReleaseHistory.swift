import Foundation
import LiveryReleaseFormat

/// The releases a channel has published, read from its metadata: every `N.targets.json` is kept
/// (docs/output.md), and each names the download manifest it signed, with its release number,
/// provenance and rollout share in `custom`. One reader for `livery releases`, release numbering,
/// promotion, rollback and gc.
public struct ReleaseHistory: Sendable {
    public struct Entry: Sendable, Equatable {
        public var channel: ReleaseChannel
        public var release: Int
        public var manifestSHA256: String
        public var manifestLength: Int
        public var provenance: ReleaseProvenance?
        /// The first targets version that signed it (as the channel's release or staged).
        public var firstVersion: Int
        /// When that version was signed: its expiry less the targets lifetime (docs/signing.md).
        public var signed: Date
        /// Whether it was ever the channel's release for every device (not only staged).
        public var wasMain: Bool
        /// Its latest rollout share while staged (nil: never staged).
        public var lastStage: RolloutStage?
        /// Where it stands in the newest targets metadata.
        public var state: State

        public enum State: String, Sendable, Codable {
            /// The channel's release (every device, or every device outside a rollout).
            case current
            /// Being rolled out to part of the devices.
            case staged
            /// Replaced by a later release.
            case replaced
            /// Staged, then its rollout was halted before it reached every device.
            case halted
        }
    }

    public var channel: ReleaseChannel
    /// Oldest first.
    public var entries: [Entry]

    /// The history of the channel whose repository is `folder`; empty when nothing is signed.
    public static func read(channel: ReleaseChannel, repository folder: URL) throws -> ReleaseHistory {
        let metadata = folder.appendingPathComponent("metadata", isDirectory: true)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: metadata.path)) ?? []
        let versions = names.compactMap { name -> Int? in
            guard name.hasSuffix(".targets.json") else { return nil }
            return Int(name.dropLast(".targets.json".count))
        }.sorted()
        var entries: [Entry] = []
        var index: [String: Int] = [:]
        func note(_ file: TargetFile, custom: TargetCustom, version: Int, signed: Date, staged: Bool) {
            guard let release = custom.release, let sha = file.sha256 else { return }
            let key = "\(release).\(sha)"
            if let at = index[key] {
                if staged { entries[at].lastStage = custom.rollout } else { entries[at].wasMain = true }
                return
            }
            index[key] = entries.count
            entries.append(Entry(channel: channel, release: release, manifestSHA256: sha, manifestLength: file.length, provenance: custom.provenance,
                                 firstVersion: version, signed: signed, wasMain: !staged, lastStage: staged ? custom.rollout : nil, state: .replaced))
        }
        var latest: (main: String?, staged: String?) = (nil, nil)
        for version in versions {
            let document = try Metadata<Targets>(data: Data(contentsOf: metadata.appendingPathComponent("\(version).targets.json", isDirectory: false)))
            latest = (nil, nil)
            for (name, staged) in [(DownloadManifest.targetName, false), (RolloutStage.stagedManifestName, true)] {
                guard let file = document.signed.targets[name], let custom = try TargetCustom(of: file), let release = custom.release, let sha = file.sha256 else { continue }
                note(file, custom: custom, version: version, signed: document.signed.expires.addingTimeInterval(-Expiry().targets), staged: staged)
                if staged { latest.staged = "\(release).\(sha)" } else { latest.main = "\(release).\(sha)" }
            }
        }
        for at in entries.indices {
            let key = "\(entries[at].release).\(entries[at].manifestSHA256)"
            if key == latest.main {
                entries[at].state = .current
            } else if key == latest.staged {
                entries[at].state = .staged
            } else if !entries[at].wasMain {
                entries[at].state = .halted
            }
        }
        return ReleaseHistory(channel: channel, entries: entries)
    }

    /// The newest entry with this release number.
    public func entry(release: Int) -> Entry? { entries.last { $0.release == release } }

    public var current: Entry? { entries.last { $0.state == .current } }
    public var staged: Entry? { entries.last { $0.state == .staged } }
}
