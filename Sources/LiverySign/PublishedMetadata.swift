import Foundation
import LiveryTUF

/// The current timestamp → snapshot → targets chain of a release folder, as its signer wrote it.
/// One reader for every place that continues or checks published metadata.
public struct PublishedMetadata: Sendable {
    public var timestamp: SignedMetadata
    public var snapshot: SignedMetadata
    public var targets: SignedMetadata

    /// Reads the chain under `<release>/metadata`, or nil when any link is missing or unreadable.
    public static func read(release folder: URL) -> PublishedMetadata? {
        let metadata = folder.appendingPathComponent("metadata")
        func load(_ name: String) -> SignedMetadata? {
            (try? Data(contentsOf: metadata.appendingPathComponent(name))).flatMap { try? SignedMetadata(data: $0) }
        }
        guard let timestamp = load("timestamp.json"),
              let snapshotVersion = timestamp.signed["meta"]?["snapshot.json"]?["version"]?.intValue,
              let snapshot = load("\(snapshotVersion).snapshot.json"),
              let targetsVersion = snapshot.signed["meta"]?["targets.json"]?["version"]?.intValue,
              let targets = load("\(targetsVersion).targets.json") else { return nil }
        return PublishedMetadata(timestamp: timestamp, snapshot: snapshot, targets: targets)
    }

    /// The signed targets, as signer input (to sign the same content again under new versions or keys).
    public var signedTargets: [RepositorySigner.Target] {
        var list: [RepositorySigner.Target] = []
        for (name, entry) in targets.signed["targets"]?.objectValue ?? [:] {
            guard let length = entry["length"]?.intValue, let sha = entry["hashes"]?["sha256"]?.stringValue else { continue }
            list.append(RepositorySigner.Target(name: name, length: length, sha256: sha, custom: entry["custom"]))
        }
        return list.sorted { $0.name < $1.name }
    }

    /// The SHA-256 the signed targets give the download manifest.
    public var manifestSHA256: String? { targets.signed["targets"]?["download-manifest.json"]?["hashes"]?["sha256"]?.stringValue }
}
