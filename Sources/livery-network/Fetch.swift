import ArgumentParser
import Foundation
import LiveryCommands
import LiveryClient
import LiveryStorage
import LiveryReleaseFormat

struct Fetch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: NetworkCommand.fetch.abstract,
        discussion: """
            Downloads what an app needs (the essential bundles, the user's locale, and the programs and tours \
            asked for), each verified against the signed TUF metadata before use, extracts them safely and \
            switches the cache to the new release in one step. If the server cannot be reached or fails \
            verification, the installed release is kept for offline use (exit 0, with a warning); exit 1 when \
            there is nothing usable, 2 on a usage error. A protected tour, program, library item or pack needs a voucher: `--voucher CODE` redeems \
            one (once per device; the access token is kept in the cache, mode 0600); without a token such a tour \
            fails the fetch (exit 1) and the installed release stays.
            """
    )

    @Argument(help: "The tenant id.")
    var tenant: String

    @Option(help: "The server's base URL (e.g. http://127.0.0.1:8080), serving <tenant>/metadata and <tenant>/targets.")
    var server: String

    @Option(help: "The local cache folder (one per tenant is made inside).")
    var cache = ".livery-cache"

    @Option(help: "Root metadata to trust on first use (the tenant's 1.root.json, shipped with the app).")
    var root: String?

    @Option(help: "The user's locale (default: the release's default locale).")
    var locale: String?

    @Option(help: "A program to install (repeatable).")
    var program: [String] = []

    @Option(help: "A tour to install, with its audio in the user's locale (repeatable).")
    var tour: [String] = []

    @Option(help: "A voucher code to redeem for a protected tour, program, library item or pack (repeatable); the token is kept in the cache.")
    var voucher: [String] = []

    @Option(help: ArgumentHelp("The app version this fetch stands for: a release or bundle whose minimumClientVersion is newer is not installed (exit status 3).",
                               valueName: "X.Y.Z"))
    var appVersion: String?

    @Option(help: ArgumentHelp("The channel to follow (default stable): <server>/<tenant>/channels/<name>/, cached apart from the tenant's other channels.", valueName: "NAME"),
            transform: ChannelArgument.parse)
    var channel: ReleaseChannel = .stable

    @Option(help: "This install's id for staged rollouts (default: the cache's device id, made on first use).")
    var installId: String?

    @Option(help: ArgumentHelp("Add a tour to the installed release (repeatable): its bundles are downloaded, nothing else is; later fetches keep it.", valueName: "ID"))
    var addTour: [String] = []

    @Option(help: ArgumentHelp("Add a program to the installed release (repeatable); later fetches keep it.", valueName: "ID"))
    var addProgram: [String] = []

    @Option(help: ArgumentHelp("Remove an added tour from the installed release (repeatable), freeing its space.", valueName: "ID"))
    var removeTour: [String] = []

    @Option(help: ArgumentHelp("Remove an added program from the installed release (repeatable).", valueName: "ID"))
    var removeProgram: [String] = []

    @Option(help: "Bundles downloaded at once, at most (1 to 32).")
    var parallel = 4

    @Option(help: ArgumentHelp("A release embedded in the app (livery embed), installed first when the cache is empty, with no network.", valueName: "DIR"))
    var embedded: String?

    @Flag(help: "Download every changed bundle whole, never by delta (only the changed files; docs/deltas.md).")
    var noDelta = false

    @Option(help: "Progress: auto (a bar on a terminal, nothing otherwise), bar, json (one JSON event per line on standard output), or none.")
    var progress: ProgressStyle = .auto

    enum ProgressStyle: String, ExpressibleByArgument { case auto, bar, json, none }

    @Option(help: "The voucher server's base URL (livery serve), when --server is a bucket or a CDN: vouchers are redeemed there, and signed URLs and keys come from it.")
    var voucherServer: String?

    func validate() throws {
        guard parallel >= 1 && parallel <= 32 else { throw ValidationError("--parallel must be between 1 and 32") }
    }

    func run() throws {
        guard let base = URL(string: server), base.scheme == "http" || base.scheme == "https" else { throw ValidationError("--server must be an http(s) URL") }
        let app = try appVersion.map { text -> ClientVersion in
            guard let version = ClientVersion(text) else { throw ValidationError("--app-version must be X.Y.Z (three whole numbers), not '\(text)'") }
            return version
        }
        if let voucherServer {
            guard let url = URL(string: voucherServer), url.scheme == "http" || url.scheme == "https" else { throw ValidationError("--voucher-server must be an http(s) URL") }
        }
        let location = ChannelLocation(tenant: tenant, channel: channel)
        let repository = HTTPRepository(base: location.repositoryURL(server: base))
        var request = FetchRequest(tenant: tenant, repository: repository, cache: location.cache(in: URL(fileURLWithPath: cache)),
                                   bootstrapRoot: try root.map { try Self.trustedRoot($0, channel: channel) }, locale: locale)
        request.programs = program
        request.tours = tour
        request.vouchers = voucher
        request.voucherServer = location.voucherServer(server: base, separate: voucherServer.flatMap { URL(string: $0) })
        request.channel = channel
        request.installID = installId
        request.addTours = addTour
        request.addPrograms = addProgram
        request.removeTours = removeTour
        request.removePrograms = removeProgram
        request.maxConcurrentDownloads = parallel
        request.fullDownloadsOnly = noDelta
        request.embeddedRelease = embedded.map { URL(fileURLWithPath: $0) }
        let style = progress == .auto ? (isatty(STDERR_FILENO) == 1 ? ProgressStyle.bar : .none) : progress
        switch style {
        case .json:
            request.onEvent = { event in FileHandle.standardOutput.write(event.json.bytes) }
        case .bar:
            let bar = ProgressBar()
            request.onEvent = { bar.show($0) }
        case .auto, .none:
            break
        }
        request.appVersion = app
        let name = tenant
        request.onPlan = { needed, available in
            // On standard error: standard output keeps its one line per fetch.
            let free = available.map { ", \(ByteCount.text($0)) free" } ?? ""
            FileHandle.standardError.write(Data("\(name): \(ByteCount.text(needed.download)) to download, \(ByteCount.text(needed.install)) to install\(free)\n".utf8))
        }
        let result: FetchResult
        do {
            result = try ReleaseInstaller.fetch(request)
        } catch let space as InsufficientSpace {
            FileHandle.standardError.write(Data("fetch refused: \(space)\n".utf8))
            throw ExitCode(1)
        } catch let update as AppUpdateRequired {
            FileHandle.standardError.write(Data("fetch refused: \(update)\n".utf8))
            throw ExitCode.appUpdateRequired
        } catch {
            FileHandle.standardError.write(Data("fetch failed: \(error)\n".utf8))
            throw ExitCode(1)
        }
        if let problem = result.problem, !result.offline {
            FileHandle.standardError.write(Data("note: \(problem)\n".utf8))
        }
        if style == .bar { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        for (bundle, reason) in result.deltaFallbacks.sorted(by: { $0.key < $1.key }) {
            FileHandle.standardError.write(Data("note: \(bundle): its delta was refused (\(reason)); downloaded whole instead\n".utf8))
        }
        for note in result.notes { FileHandle.standardError.write(Data("warning: \(note)\n".utf8)) }
        if style == .json { return }
        let on = channel.isStable ? "" : " (\(channel.name))"
        if result.offline {
            FileHandle.standardError.write(Data("warning: \(result.problem ?? "refresh failed"); keeping release \(result.release) for offline use\n".utf8))
            print("\(tenant)\(on): release \(result.release) kept at \(result.installed.path) (not updated); \(repository.bytesReceived) bytes received")
            return
        }
        print(Self.summary(result, tenant: tenant + on, received: repository.bytesReceived))
    }

    /// The bytes of `--root`. A file that is not there is said as such, and when the output folder it points into
    /// holds the tenant's releases on other channels only (a new tenant of `livery init` builds to `internal`),
    /// with the channel and root to give instead.
    static func trustedRoot(_ path: String, channel: ReleaseChannel) throws -> Data {
        let file = URL(fileURLWithPath: path)
        if let data = FileManager.default.contents(atPath: file.path) { return data }
        guard !FileManager.default.fileExists(atPath: file.path) else { throw Livery.Failure("--root \(path) cannot be read") }
        var message = "--root \(path): no such file"
        let metadata = file.deletingLastPathComponent()
        if channel.isStable, metadata.lastPathComponent == "metadata" {
            let tenantFolder = metadata.deletingLastPathComponent()
            let channels = ((try? FileManager.default.contentsOfDirectory(atPath: tenantFolder.appendingPathComponent(ReleaseChannel.folderName).path)) ?? [])
                .compactMap(ReleaseChannel.init).sorted()
                .filter { FileManager.default.fileExists(atPath: $0.repository(in: tenantFolder).appendingPathComponent("metadata/\(file.lastPathComponent)").path) }
            if let first = channels.first {
                let relative = (path as NSString).deletingLastPathComponent
                let folder = ((relative as NSString).deletingLastPathComponent as NSString).appendingPathComponent(first.relativeFolder)
                message += "; this tenant publishes on \(channels.map(\.name).joined(separator: ", ")) there, not stable: "
                    + "--channel \(first.name) --root \(folder)/metadata/\(file.lastPathComponent)"
            }
        }
        throw Livery.Failure(message)
    }

    /// The one line a fetch prints: what happened to the installed release, then what came over the wire. A release
    /// that was already installed is "up to date", not "installed"; a list of bundles is shown only when there is one.
    static func summary(_ result: FetchResult, tenant: String, received: Int) -> String {
        let staged = result.staged ? " (staged rollout)" : ""
        // Exact: scripts (bench-delta.sh) compare it across runs.
        let received = "\(received) bytes received"
        guard result.changed else {
            return "\(tenant): release \(result.release)\(staged) kept at \(result.installed.path) (already installed; nothing downloaded); \(received)"
        }
        let downloaded = result.downloaded.isEmpty
            ? "no bundle downloaded"
            : "downloaded \(result.downloaded.count) bundle\(result.downloaded.count == 1 ? "" : "s") (\(result.downloaded.joined(separator: ", ")))"
        return "\(tenant): release \(result.release)\(staged) installed at \(result.installed.path); \(downloaded), reused \(result.reused.count)"
            + (result.deltas.isEmpty ? "" : "; by delta: \(result.deltas.joined(separator: ", "))") + "; \(received)"
    }
}

/// The terminal progress bar of `livery fetch` (standard error; no colours, so NO_COLOR holds).
final class ProgressBar: @unchecked Sendable {
    private let lock = NSLock()

    func show(_ event: FetchEvent) {
        guard case .progress(let bundle, _, _, let all, let total) = event, total > 0 else { return }
        let fraction = min(1, Double(all) / Double(total))
        let width = 30
        let filled = Int(fraction * Double(width))
        let line = "\r\u{1B}[K[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
            + String(format: "%3.0f%% ", fraction * 100) + "\(ByteCount.text(all))/\(ByteCount.text(total)) " + bundle
        lock.withLock { FileHandle.standardError.write(Data(line.utf8)) }
    }
}
