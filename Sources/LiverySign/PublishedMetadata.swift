import Foundation
import LiveryTUF

/// The current timestamp → snapshot → targets chain of a release folder, as its signer wrote it.
/// One reader for every place that continues or checks published metadata.
public struct PublishedMetadata: Sendable {
    public var timestamp: SignedMetadata
    public var snapshot: SignedMetadata
    public var targets: SignedMetadata
    /// The delegated targets roles the snapshot lists (including retired ones), by name.
    public var delegated: [String: SignedMetadata] = [:]

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
        var delegated: [String: SignedMetadata] = [:]
        for (file, entry) in snapshot.signed["meta"]?.objectValue ?? [:] where file != "targets.json" && file.hasSuffix(".json") {
            let role = String(file.dropLast(".json".count))
            guard let version = entry["version"]?.intValue, let document = load("\(version).\(role).json") else { return nil }
            delegated[role] = document
        }
        return PublishedMetadata(timestamp: timestamp, snapshot: snapshot, targets: targets, delegated: delegated)
    }

    /// The roles the targets role delegates to now (retired roles stay in the snapshot only).
    public var activeDelegations: Set<String> {
        Set(((try? Delegations(targets: targets.signed))?.roles ?? []).map(\.name))
    }

    /// The signed targets, as signer input (to sign the same content again under new versions or keys).
    public var signedTargets: [RepositorySigner.Target] {
        get throws {
            var list: [RepositorySigner.Target] = []
            let documents = [targets] + activeDelegations.sorted().compactMap { delegated[$0] }
            for document in documents {
                for (name, entry) in document.signed["targets"]?.objectValue ?? [:] {
                    guard let length = entry["length"]?.intValue, let sha = entry["hashes"]?["sha256"]?.stringValue else { continue }
                    let custom = try entry["custom"].map { try TargetCustom(json: $0, what: "target \(name)") }
                    list.append(RepositorySigner.Target(name: name, length: length, sha256: sha, custom: custom))
                }
            }
            return list.sorted { $0.name < $1.name }
        }
    }

    /// The SHA-256 the signed targets give the download manifest.
    public var manifestSHA256: String? { targets.signed["targets"]?["download-manifest.json"]?["hashes"]?["sha256"]?.stringValue }

    /// The version the snapshot gives a delegated role, nil when it lists none.
    public func version(ofDelegated role: String) -> Int? { snapshot.signed["meta"]?["\(role).json"]?["version"]?.intValue }
}
