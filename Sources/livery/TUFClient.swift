import ArgumentParser
import Crypto
import Foundation
import LiveryClient
import LiveryTUF

/// The client command-line contract of the TUF conformance suite (docs/conformance.md).
struct TUFClient: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tuf-client",
        abstract: "The TUF conformance-suite client contract: init, refresh and download.",
        discussion: """
            livery tuf-client --metadata-dir DIR init ROOT
            livery tuf-client --metadata-dir DIR --metadata-url URL refresh
            livery tuf-client --metadata-dir DIR --metadata-url URL --target-name NAME… --target-base-url URL --target-dir DIR download
            Trusted metadata is kept in DIR under unversioned names (root.json, timestamp.json, snapshot.json, \
            targets.json). Exit 0 on full success, 1 otherwise. Delegated targets are not supported yet.
            """
    )

    @Option(help: "Folder of trusted metadata.")
    var metadataDir: String

    @Option(help: "Base URL of the repository's metadata.")
    var metadataUrl: String?

    @Option(help: "A target to download (repeatable, in order).")
    var targetName: [String] = []

    @Option(help: "Base URL of the repository's targets.")
    var targetBaseUrl: String?

    @Option(help: "Folder to download targets into.")
    var targetDir: String?

    @Argument(help: "init, refresh or download.")
    var command: String

    @Argument(help: "For init: the trusted root metadata file.")
    var arguments: [String] = []

    func run() throws {
        do {
            try perform()
        } catch {
            FileHandle.standardError.write(Data("tuf-client: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }

    private func perform() throws {
        let folder = URL(fileURLWithPath: metadataDir)
        switch command {
        case "init":
            guard let rootFile = arguments.first else { throw TUFError("init needs the trusted root file") }
            let data = try Data(contentsOf: URL(fileURLWithPath: rootFile))
            guard try SignedMetadata(data: data).role == .root else { throw TUFError("\(rootFile) is not root metadata") }
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try data.write(to: folder.appendingPathComponent("root.json"))
        case "refresh":
            _ = try refresh(folder)
        case "download":
            let trusted = try refresh(folder)
            guard let base = targetBaseUrl.flatMap(URL.init(string:)), let directory = targetDir else { throw TUFError("download needs --target-base-url and --target-dir") }
            let targets = HTTPRepository(base: base)
            let consistent = trusted.root.signed["consistent_snapshot"]?.boolValue ?? false
            for name in targetName {
                guard let info = trusted.target(name) else { throw TUFError("'\(name)' is not a target") }
                // Named as python-tuf names downloads: the target path percent-encoded, '/' included.
                let destination = URL(fileURLWithPath: directory).appendingPathComponent(TrustedMetadata.percentEncoded(name))
                if let existing = try? Data(contentsOf: destination), existing.count == info.length,
                   SHA256.hash(data: existing).hexString == info.sha256 {
                    continue  // already downloaded with matching hashes
                }
                var path = name
                if consistent {
                    let parts = name.split(separator: "/", omittingEmptySubsequences: false)
                    path = (parts.dropLast() + ["\(info.sha256).\(parts.last ?? "")"]).joined(separator: "/")
                }
                guard let data = try targets.fetch(path, maxLength: info.length) else { throw TUFError("target '\(name)' is missing on the server") }
                guard data.count == info.length, SHA256.hash(data: data).hexString == info.sha256 else {
                    throw TUFError("target '\(name)' does not match its signed length and hash")
                }
                try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
                try data.write(to: destination)
            }
        default:
            throw TUFError("unknown command '\(command)': use init, refresh or download")
        }
    }

    /// Refreshes from the metadata in `folder`, storing what is trusted under unversioned names as
    /// soon as each file is verified (a refresh that fails later keeps what it verified).
    private func refresh(_ folder: URL) throws -> TrustedMetadata {
        guard let url = metadataUrl.flatMap(URL.init(string:)) else { throw TUFError("--metadata-url is required") }
        let root = try Data(contentsOf: folder.appendingPathComponent("root.json"))
        // The kept timestamp, snapshot and targets (and delegated roles) are the rollback reference.
        var previous = TrustedMetadata.load(from: folder)
        previous?.root = try SignedMetadata(data: root)
        let updater = TUFUpdater(source: MetadataFolder(base: HTTPRepository(base: url)), now: Date())
        return try updater.refresh(trustedRoot: root, previous: previous) { name, data in
            let file = folder.appendingPathComponent(name)
            guard let data else { unlink(file.path); return }
            // Written beside and renamed into place: the folder never holds half a file.
            let partial = folder.appendingPathComponent(".\(name).part")
            try data.write(to: partial)
            guard rename(partial.path, file.path) == 0 else { throw TUFError("cannot write \(file.path)") }
        }
    }
}

/// The updater reads `metadata/<file>`; the conformance contract gives the metadata URL itself.
private struct MetadataFolder: RepositorySource {
    let base: HTTPRepository

    func fetch(_ path: String, maxLength: Int) throws -> Data? {
        try base.fetch(path.hasPrefix("metadata/") ? String(path.dropFirst("metadata/".count)) : path, maxLength: maxLength)
    }
}
