import Crypto
import Foundation
import LiveryStorage
import LiveryReleaseFormat

/// Where a client keeps the metadata it trusts, under unversioned names (`root`, `timestamp`, a
/// delegated role's name): `load` gives the bytes kept for a role, `save` replaces them whole.
public protocol MetadataStore: AnyObject {
    func load(_ role: String) -> Data?
    func save(_ role: String, _ data: Data) throws
}

/// Trusted metadata kept in a folder as `<quoted role>.json` (python-tuf's layout, which the TUF
/// conformance suite reads), each file written beside and renamed into place.
public final class MetadataFolder: MetadataStore {
    public let folder: URL

    public init(_ folder: URL) {
        self.folder = folder
    }

    public func load(_ role: String) -> Data? {
        try? Data(contentsOf: folder.appendingPathComponent(TUFName.fileName(ofRole: role)))
    }

    public func save(_ role: String, _ data: Data) throws {
        let file = folder.appendingPathComponent(TUFName.fileName(ofRole: role))
        // Durable before it replaces the trusted file: a power cut leaves the old file or the new one, whole.
        // A failure is the file's (`WriteFailure`); tuf-client names it the specification's storage error.
        try AtomicFile.write(data, to: file, mode: 0o666, durable: true)
        try DurableFiles.sync(folder)
    }
}

/// Metadata kept in memory (verification of a release on disk, tests), optionally passing each
/// saved file on.
public final class MemoryMetadataStore: MetadataStore, @unchecked Sendable {
    // Touched by one updater at a time.
    public private(set) var files: [String: Data]
    private let onSave: (String, Data) throws -> Void

    public init(_ files: [String: Data] = [:], onSave: @escaping (String, Data) throws -> Void = { _, _ in }) {
        self.files = files
        self.onSave = onSave
    }

    public func load(_ role: String) -> Data? { files[role] }

    public func save(_ role: String, _ data: Data) throws {
        files[role] = data
        try onSave(role, data)
    }
}

/// The TUF client workflow (specification 1.0.x, §5.2–5.7) around `TrustedMetadataSet`: it
/// fetches each file, hands it to the set, and keeps what the set trusts as soon as it is trusted,
/// so a refresh that fails part-way still keeps the newer root it walked to. Delegated targets
/// roles are loaded only when a target search needs them (§5.6.7).
public final class TUFUpdater {
    public struct Limits: Sendable {
        public var root = 512 * 1024
        public var timestamp = 16 * 1024
        public var snapshot = 2 * 1024 * 1024
        public var targets = 16 * 1024 * 1024
        public var maxRootRotations = 256
        /// Roles visited per target search (a bound on hostile delegation graphs, python-tuf's 32).
        public var maxDelegations = 32
        public init() {}
    }

    public let source: any RepositorySource
    public let store: any MetadataStore
    public let limits: Limits
    public private(set) var trusted: TrustedMetadataSet

    /// `store` holds the trusted root (`root`) and whatever earlier refreshes kept. With no kept
    /// root, `bootstrapRoot` is trusted on first use.
    public init(source: any RepositorySource, store: any MetadataStore, bootstrapRoot: Data? = nil, now: Date = Date(), limits: Limits = Limits()) throws {
        guard let root = store.load("root") ?? bootstrapRoot else { throw TUFError(.storage, "no trusted root") }
        trusted = try TrustedMetadataSet(root: root, now: now)
        if store.load("root") == nil { try store.save("root", root) }
        self.source = source
        self.store = store
        self.limits = limits
    }

    /// Brings the top-level metadata up to date: root versions, timestamp, snapshot, targets.
    public func refresh() throws {
        try loadRoot()
        try loadTimestamp()
        try loadSnapshot()
        _ = try loadTargets(TUFRole.targets.rawValue, delegator: nil)
    }

    /// §5.3: every next root version, until the repository has none (404 or 403).
    private func loadRoot() throws {
        for _ in 0..<limits.maxRootRotations {
            let next = trusted.root.signed.version + 1
            guard let data = try source.fetch("metadata/\(next).root.json", maxLength: limits.root) else { return }
            try trusted.updateRoot(data)
            try store.save("root", data)
        }
    }

    /// §5.4: the kept timestamp first (for rollback protection, even if expired), then the new one.
    private func loadTimestamp() throws {
        if let local = store.load("timestamp") { _ = try? trusted.updateTimestamp(local) }
        guard let data = try source.fetch("metadata/timestamp.json", maxLength: limits.timestamp) else {
            throw TUFError(.download, "timestamp.json is missing on the server")
        }
        do {
            try trusted.updateTimestamp(data)
        } catch let error as TUFError where error.kind == .equalVersion {
            return  // the kept timestamp is current
        }
        try store.save("timestamp", data)
    }

    /// §5.5: the kept snapshot when it is still the one the timestamp names, else the new one.
    private func loadSnapshot() throws {
        if let local = store.load("snapshot"), (try? trusted.updateSnapshot(local, verified: true)) != nil { return }
        guard let meta = trusted.timestamp?.signed.snapshot else { preconditionFailure("the timestamp is loaded") }
        let data = try fetchMetadata("snapshot", version: meta.version, maxLength: meta.length ?? limits.snapshot)
        try trusted.updateSnapshot(data)
        try store.save("snapshot", data)
    }

    /// §5.6: a targets role (top-level, or delegated by `delegator`), kept copy first.
    private func loadTargets(_ role: String, delegator: String?) throws -> Metadata<Targets> {
        if let loaded = trusted.targets[role] {
            try trusted.verifyDelegation(of: role, by: delegator)
            return loaded
        }
        if let local = store.load(role), let metadata = try? trusted.updateDelegatedTargets(local, role: role, delegator: delegator) {
            return metadata
        }
        guard let meta = trusted.snapshot?.signed.meta["\(role).json"] else {
            throw TUFError(.repository, "role '\(role)' is delegated but the snapshot does not list it")
        }
        let data = try fetchMetadata(role, version: meta.version, maxLength: meta.length ?? limits.targets)
        let metadata = try trusted.updateDelegatedTargets(data, role: role, delegator: delegator)
        try store.save(role, data)
        return metadata
    }

    /// A role's file: `<version>.<quoted role>.json` in consistent-snapshot repositories.
    private func fetchMetadata(_ role: String, version: Int, maxLength: Int) throws -> Data {
        let quoted = TUFName.quoted(role)
        let file = trusted.root.signed.consistentSnapshot ? "\(version).\(quoted).json" : "\(quoted).json"
        guard let data = try source.fetch("metadata/\(file)", maxLength: maxLength) else {
            throw TUFError(.download, "\(file) is missing on the server")
        }
        return data
    }

    /// §5.6.7: the target `path` as the first role that may sign it lists it, searching top-level
    /// targets, then delegated roles in preorder depth-first order (listed order among siblings),
    /// only through roles whose patterns match, stopping at a matching terminating role. Each role
    /// is loaded (and verified against the role delegating to it) when the search reaches it.
    public func targetInfo(_ path: String) throws -> (target: TargetFile, role: String)? {
        if trusted.targets[TUFRole.targets.rawValue] == nil { try refresh() }
        return try TargetSearch.find(path, maxRoles: limits.maxDelegations) { role, delegator in
            try loadTargets(role, delegator: delegator).signed
        }
    }

    /// Loads every delegated role reachable from targets (each by its first delegator in search
    /// order): what verifying a whole release, or listing every target, needs.
    public func loadAllDelegatedRoles() throws {
        if trusted.targets[TUFRole.targets.rawValue] == nil { try refresh() }
        var queue: [String] = [TUFRole.targets.rawValue]
        var seen: Set<String> = [TUFRole.targets.rawValue]
        while !queue.isEmpty {
            let role = queue.removeFirst()
            guard let delegations = trusted.targets[role]?.signed.delegations else { continue }
            for child in delegations.roles where seen.insert(child.name).inserted {
                guard seen.count <= limits.maxDelegations + 1 else { throw TUFError(.repository, "more than \(limits.maxDelegations) delegated roles") }
                _ = try loadTargets(child.name, delegator: role)
                queue.append(child.name)
            }
        }
    }

    /// Downloads a target and checks it against its signed length and hashes.
    public func download(_ target: TargetFile) throws -> Data {
        try Self.download(target, from: source, consistent: trusted.root.signed.consistentSnapshot)
    }

    /// Downloads a target of a repository and checks its length and hashes. In a consistent-snapshot
    /// repository the file is `<dir>/<hash>.<name>`.
    public static func download(_ target: TargetFile, from source: any RepositorySource, consistent: Bool) throws -> Data {
        guard let data = try source.fetch("targets/\(urlPath(of: target, consistent: consistent))", maxLength: target.length) else {
            throw TUFError(.download, "'\(target.path)' is missing on the server")
        }
        try target.file.verify(data, what: "'\(target.path)'")
        return data
    }

    /// The URL path of a target under the targets folder (python-tuf's: the hash before the last
    /// part of the path, the path itself not quoted beyond what a URL needs).
    public static func urlPath(of target: TargetFile, consistent: Bool) -> String {
        var path = target.path
        if consistent, let hash = target.namingHash {
            let parts = path.split(separator: "/", omittingEmptySubsequences: false)
            path = (parts.dropLast() + ["\(hash).\(parts.last ?? "")"]).joined(separator: "/")
        }
        return TUFName.urlPath(path)
    }
}

// MARK: - The whole-release view used by `verify`, `fetch` and their tests.

extension TUFUpdater {
    /// A convenience for callers that need the whole release at once (verify, install): refreshes
    /// from `trustedRoot` and the previously trusted files, loads every delegated role, and returns
    /// the trusted metadata. `persist` receives each file as soon as it is trusted.
    public static func refresh(source: any RepositorySource, trustedRoot: Data, previous: TrustedMetadata? = nil, now: Date = Date(),
                               limits: Limits = Limits(), persist: @escaping (_ name: String, _ data: Data) throws -> Void = { _, _ in }) throws -> TrustedMetadata {
        var files: [String: Data] = [:]
        if let previous {
            files = previous.roleFiles
        }
        // The newer of the two roots is the trusted one (each is verified by its own keys below).
        if let kept = files["root"], let keptVersion = try? Metadata<Root>(data: kept).signed.version,
           let givenVersion = try? Metadata<Root>(data: trustedRoot).signed.version, keptVersion >= givenVersion {
        } else {
            files["root"] = trustedRoot
        }
        let store = MemoryMetadataStore(files) { role, data in try persist(TUFName.fileName(ofRole: role), data) }
        let updater = try TUFUpdater(source: source, store: store, now: now, limits: limits)
        try updater.refresh()
        try updater.loadAllDelegatedRoles()
        return try TrustedMetadata(updater.trusted)
    }

    /// Reads a target of `trusted` from `source` and checks its length and hashes.
    public static func target(_ name: String, in trusted: TrustedMetadata, from source: any RepositorySource) throws -> Data {
        guard let info = trusted.targetFile(name) else { throw TUFError(.repository, "'\(name)' is not a target of this release") }
        return try download(info, from: source, consistent: trusted.set.root.signed.consistentSnapshot)
    }
}
