import ArgumentParser
import Crypto
import Foundation
import LiveryCommands
import LiveryClient
import LiveryStorage
import LiveryReleaseFormat

/// The client command-line contract of the TUF conformance suite (docs/conformance.md).
struct TUFClient: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tuf-client",
        abstract: NetworkCommand.tufClient.abstract,
        discussion: """
            livery tuf-client --metadata-dir DIR init ROOT
            livery tuf-client --metadata-dir DIR --metadata-url URL refresh
            livery tuf-client --metadata-dir DIR --metadata-url URL --target-name NAME… --target-base-url URL --target-dir DIR download
            Trusted metadata is kept in DIR under unversioned names (root.json, timestamp.json, snapshot.json, \
            targets.json); a download searches delegated targets roles in the specification's order. Exit 0 on full success, 1 otherwise.
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
            // The error's class first (python-tuf's exception names), for test harnesses to read.
            // A file the client cannot keep or read is the specification's storage error.
            let kind = (error as? TUFError).map { "\($0.kind.rawValue): " } ?? (error is WriteFailure || error is ReadFailure ? "\(TUFError.Kind.storage.rawValue): " : "")
            FileHandle.standardError.write(Data("tuf-client: \(kind)\(error)\n".utf8))
            throw ExitCode(1)
        }
    }

    private func perform() throws {
        let folder = URL(fileURLWithPath: metadataDir)
        switch command {
        case "init":
            // The contract asks for no checks here: the trusted root is verified by every refresh.
            guard let rootFile = arguments.first else { throw Livery.Failure("init needs the trusted root file") }
            let data: Data
            do { data = try Data(contentsOf: URL(fileURLWithPath: rootFile)) } catch { throw ReadFailure(error, path: rootFile) }
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try MetadataFolder(folder).save("root", data)
        case "refresh":
            try updater(folder).refresh()
        case "download":
            guard let base = targetBaseUrl.flatMap(URL.init(string:)), let directory = targetDir else { throw Livery.Failure("download needs --target-base-url and --target-dir") }
            let updater = try updater(folder)
            try updater.refresh()
            try FileManager.default.createDirectory(at: URL(fileURLWithPath: directory), withIntermediateDirectories: true)
            for name in targetName {
                guard let (info, _) = try updater.targetInfo(name) else { throw TUFError(.targetNotFound, "'\(name)' is not a target") }
                // Named as python-tuf names downloads: the target path quoted, '/' included.
                let destination = URL(fileURLWithPath: directory).appendingPathComponent(TUFName.quoted(name))
                if let existing = try? Data(contentsOf: destination), (try? info.file.verify(existing, what: name)) != nil {
                    continue  // already downloaded with matching hashes
                }
                let data = try TUFUpdater.download(info, from: FolderURL(base: HTTPRepository(base: base), folder: "targets/"), consistent: updater.trusted.root.signed.consistentSnapshot)
                try AtomicFile.write(data, to: destination, mode: 0o666, durable: false)
            }
        default:
            throw Livery.Failure("unknown command '\(command)': use init, refresh or download")
        }
    }

    /// An updater over the metadata kept in `folder`; it keeps each file as soon as it is trusted.
    private func updater(_ folder: URL) throws -> TUFUpdater {
        guard let url = metadataUrl.flatMap(URL.init(string:)) else { throw Livery.Failure("--metadata-url is required") }
        return try TUFUpdater(source: FolderURL(base: HTTPRepository(base: url), folder: "metadata/"), store: MetadataFolder(folder))
    }
}

/// The updater reads `metadata/<file>` and `targets/<file>` of a repository; the conformance
/// contract gives the two folders' URLs themselves.
private struct FolderURL: RepositorySource {
    let base: HTTPRepository
    let folder: String

    func fetch(_ path: String, maxLength: Int) throws -> Data? {
        try base.fetch(path.hasPrefix(folder) ? String(path.dropFirst(folder.count)) : path, maxLength: maxLength, forbiddenIsMissing: path.hasPrefix("metadata/"))
    }
}
