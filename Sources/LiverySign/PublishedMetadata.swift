import Foundation
import LiveryReleaseFormat

/// The current timestamp → snapshot → targets chain of a release folder, as its signer wrote it,
/// read through the typed roles. One reader for every place that continues or checks published
/// metadata. Signatures are not checked: these are the signer's own files.
public struct PublishedMetadata: Sendable {
    public var timestamp: Metadata<Timestamp>
    public var snapshot: Metadata<Snapshot>
    public var targets: Metadata<Targets>
    /// The delegated targets roles the snapshot lists (including retired ones), by name.
    public var delegated: [String: Metadata<Targets>] = [:]

    /// The file a role's version is published as: `<version>.<quoted name>.json`.
    public static func fileName(role: String, version: Int) -> String { "\(version).\(TUFName.quoted(role)).json" }

    /// Reads the chain under `<release>/metadata`, or nil when any link is missing or unreadable.
    public static func read(release folder: URL) -> PublishedMetadata? {
        try? load(release: folder)
    }

    /// Reads the chain under `<release>/metadata`; nil when nothing is signed yet (no
    /// `timestamp.json`), and throws, saying which file, when a link is missing or malformed.
    public static func load(release folder: URL) throws -> PublishedMetadata? {
        let metadata = folder.appendingPathComponent("metadata", isDirectory: true)
        guard FileManager.default.fileExists(atPath: metadata.appendingPathComponent("timestamp.json", isDirectory: false).path) else { return nil }
        return try load { name in try Data(contentsOf: metadata.appendingPathComponent(name, isDirectory: false)) }
    }

    /// Reads the chain from `read`, which gives a file of `metadata/` by name (nil or a throw: it cannot be read).
    public static func load(reading read: (String) throws -> Data?) throws -> PublishedMetadata {
        func load<Role: SignedRole>(_ name: String, as _: Role.Type) throws -> Metadata<Role> {
            guard let data = try? read(name) else { throw TUFError(.repository, "metadata/\(name) cannot be read") }
            do { return try Metadata<Role>(data: data) } catch let error as TUFError {
                throw TUFError(error.kind, "metadata/\(name): \(error.description)")
            }
        }
        let timestamp = try load("timestamp.json", as: Timestamp.self)
        let snapshot = try load("\(timestamp.signed.snapshot.version).snapshot.json", as: Snapshot.self)
        guard let targetsFile = snapshot.signed.meta["targets.json"] else {
            throw TUFError(.repository, "metadata/\(snapshot.signed.version).snapshot.json lists no targets.json")
        }
        let targets = try load("\(targetsFile.version).targets.json", as: Targets.self)
        var delegated: [String: Metadata<Targets>] = [:]
        for (file, entry) in snapshot.signed.meta where file != "targets.json" {
            guard file.hasSuffix(".json") else { throw TUFError(.malformed, "the snapshot lists '\(file)', which is not a role's .json file") }
            let role = String(file.dropLast(".json".count))
            delegated[role] = try load(fileName(role: role, version: entry.version), as: Targets.self)
        }
        return PublishedMetadata(timestamp: timestamp, snapshot: snapshot, targets: targets, delegated: delegated)
    }

    /// The roles the targets role delegates to now (retired roles stay in the snapshot only).
    public var activeDelegations: Set<String> { Set((targets.signed.delegations?.roles ?? []).map(\.name)) }

    /// The signed targets, as signer input (to sign the same content again under new versions or keys).
    public var signedTargets: [RepositorySigner.Target] {
        get throws {
            var list: [RepositorySigner.Target] = []
            let documents = [targets] + activeDelegations.sorted().compactMap { delegated[$0] }
            for document in documents {
                for (name, entry) in document.signed.targets {
                    guard let sha = entry.sha256 else { continue }
                    list.append(RepositorySigner.Target(name: name, length: entry.length, sha256: sha, custom: try TargetCustom(of: entry)))
                }
            }
            return list.sorted { $0.name < $1.name }
        }
    }

    /// The SHA-256 the signed targets give the download manifest.
    public var manifestSHA256: String? { targets.signed.targets["download-manifest.json"]?.sha256 }

    /// The version the snapshot gives a delegated role, nil when it lists none.
    public func version(ofDelegated role: String) -> Int? { snapshot.signed.meta["\(role).json"]?.version }
}
