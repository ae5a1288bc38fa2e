import Crypto
import Foundation
import LiveryReleaseFormat
import LiveryStorage

/// A release shipped inside an app (`livery embed`, docs/deltas.md#a-release-inside-the-app): a
/// subset of the tenant's repository, laid out as the repository is, with what an app installs at
/// first launch without any network: the root chain, the current timestamp, snapshot and targets
/// metadata (and delegated roles), the download manifest, and the chosen bundles with their file
/// indexes. `embedded.json` says which bundles the app asked for.
///
/// `FetchRequest.embeddedRelease` installs it into an empty cache before the first fetch: every file
/// is verified as a download is (signatures against the embedded root, lengths and hashes), except the
/// metadata's expiry, which protects against a network that replays old metadata and means nothing for
/// files inside the app's own binary. The first fetch online then follows the usual rules, with the
/// embedded release as the base of its deltas; offline, the embedded release stays in use.
public enum EmbeddedRelease {
    public static let selectionFile = EmbeddedSelection.fileName

    /// What the embedded release holds for the app (`embedded.json`).
    public typealias Selection = EmbeddedSelection

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }

    /// Writes the release `repository` (a tenant's published folder, or a channel's) publishes into the
    /// new folder `destination`: the bundles an app with this locale, these tours and programs installs.
    /// The release is verified first, as a client would; voucher bundles cannot be embedded (their keys
    /// come from a voucher server). Returns what was written.
    @discardableResult
    public static func write(repository: URL, tenant: String, channel: String = "stable", locale: String?, tours: [String], programs: [String],
                             to destination: URL) throws -> (selection: Selection, bundles: [String], bytes: Int) {
        let source = LocalRepository(root: repository)
        let report = ReleaseVerifier.verify(source)
        guard report.isValid, report.release != nil else {
            throw Failure("\(tenant)'s release does not verify: \(report.problems.joined(separator: "; "))")
        }
        let trusted = try TUFUpdater.refresh(source: source, trustedRoot: try Data(contentsOf: repository.appendingPathComponent("metadata/1.root.json")), now: Date())
        let manifestData = try TUFUpdater.target(DownloadManifest.targetName, in: trusted, from: source)
        let manifest = try DownloadManifest(data: manifestData)
        var request = FetchRequest(tenant: tenant, repository: source, cache: destination, locale: locale)
        request.tours = tours
        request.programs = programs
        for tour in tours where !manifest.bundles.contains(where: { $0.kind == .tour && $0.subject == tour }) {
            throw Failure("\(tenant) release \(manifest.release) has no tour '\(tour)'")
        }
        for program in programs where !manifest.bundles.contains(where: { $0.kind == .program && $0.subject == program }) {
            throw Failure("\(tenant) release \(manifest.release) has no program '\(program)'")
        }
        let wanted = try ReleaseInstaller.choose(manifest.bundles, release: manifest.release, request: request).wanted
        if let protected = wanted.compactMap(manifest.bundle).first(where: { $0.access == .voucher }) {
            throw Failure("bundle '\(protected.id)' is protected by a voucher: it cannot be embedded (its key comes from a voucher server when a code is redeemed)")
        }
        let fm = FileManager.default
        guard !fm.fileExists(atPath: destination.path) else { throw Failure("\(destination.path) already exists: embed into a new folder") }
        let staging = destination.deletingLastPathComponent().appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString)")
        defer { try? fm.removeItem(at: staging) }
        try fm.createDirectory(at: staging.appendingPathComponent("metadata"), withIntermediateDirectories: true)
        try fm.createDirectory(at: staging.appendingPathComponent("targets"), withIntermediateDirectories: true)
        func copy(_ relative: String) throws {
            try fm.copyItem(at: repository.appendingPathComponent(relative), to: staging.appendingPathComponent(relative))
        }
        // The root chain, then the metadata the timestamp and snapshot name.
        for name in try fm.contentsOfDirectory(atPath: repository.appendingPathComponent("metadata").path) where name.hasSuffix(".root.json") {
            try copy("metadata/\(name)")
        }
        try copy("metadata/timestamp.json")
        let timestamp = try Metadata<Timestamp>(data: Data(contentsOf: repository.appendingPathComponent("metadata/timestamp.json")))
        let snapshotName = "metadata/\(timestamp.signed.snapshot.version).snapshot.json"
        try copy(snapshotName)
        let snapshot = try Metadata<Snapshot>(data: Data(contentsOf: repository.appendingPathComponent(snapshotName)))
        for (file, meta) in snapshot.signed.meta {
            try copy("metadata/\(meta.version).\(TUFName.quoted(String(file.dropLast(".json".count)))).json")
        }
        let manifestSHA = SHA256.hash(data: manifestData).hexString
        try copy("targets/\(manifestSHA).\(DownloadManifest.targetName)")
        var bytes = manifestData.count
        for id in wanted {
            guard let bundle = manifest.bundle(id) else { continue }
            try copy(bundle.path)
            bytes += bundle.size
            if let files = bundle.filesPath {
                try copy(files)
                bytes += (try? fm.attributesOfItem(atPath: repository.appendingPathComponent(files).path)[.size] as? Int) ?? 0
            }
        }
        let selection = Selection(tenant: tenant, channel: channel, release: manifest.release, locale: locale, tours: tours, programs: programs)
        try selection.json.bytes.write(to: staging.appendingPathComponent(selectionFile))
        guard rename(staging.path, destination.path) == 0 else { throw WriteFailure(errno: errno, path: destination.path, operation: .create) }
        return (selection, wanted, bytes)
    }

    /// Installs the embedded release into `request`'s cache when nothing is installed there yet (see
    /// the type's comment). Returns nil when it did, or why it could not.
    static func seed(_ request: FetchRequest, from embedded: URL) -> String? {
        let current = request.cache.appendingPathComponent("current")
        if (try? FileManager.default.destinationOfSymbolicLink(atPath: current.path)) != nil { return nil }
        do {
            let selection = try Selection(data: Data(contentsOf: embedded.appendingPathComponent(selectionFile)))
            guard selection.tenant == request.tenant else { throw Failure("it is \(selection.tenant)'s, not \(request.tenant)'s") }
            var seed = FetchRequest(tenant: request.tenant, repository: LocalRepository(root: embedded), cache: request.cache,
                                    bootstrapRoot: try request.bootstrapRoot ?? Data(contentsOf: embedded.appendingPathComponent("metadata/1.root.json")),
                                    locale: selection.locale)
            seed.tours = selection.tours
            seed.programs = selection.programs
            seed.appVersion = request.appVersion
            seed.channel = request.channel
            seed.installID = request.installID
            seed.takesStagedRelease = false
            // Files of the app's own binary: verified against the embedded root, not against the clock.
            seed.now = .distantPast
            let result = try ReleaseInstaller.fetchOrKeep(seed)
            guard !result.offline else { throw Failure(result.problem ?? "it does not verify") }
            return nil
        } catch {
            return "the release embedded in the app was not installed: \(error)"
        }
    }
}

/// A first fetch that failed while the app's embedded release could not be installed either: the fetch's own
/// error, kept as it was thrown (a TUF error, a file's failure…), and why the embedded release was not installed.
public struct NotSeeded: Error, CustomStringConvertible {
    public var fetch: any Error
    public var seeding: String
    public var description: String { "\(fetch) (and \(seeding))" }
}
