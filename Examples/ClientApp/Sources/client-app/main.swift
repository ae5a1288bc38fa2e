import Foundation
import LiveryClient

// What an app does at start-up to bring its tenant's content up to date, as a command:
//
//     client-app <server-url> <tenant> <root.json> <cache> [--locale <locale>] [--tour <id>]... [--program <id>]...
//                [--voucher <code>]... [--app-version X.Y.Z] [--embedded <folder>]
//     client-app --refresh <server-url> <tenant> <root.json> <metadata-folder>
//
// --voucher redeems a code for a protected tour or program (the grant is kept in the cache). --refresh only
// brings the signed metadata up to date (an app asking "is there new content?") and prints the release's targets
// version, downloading nothing else.
//
// --embedded is the release the app ships inside its binary (`livery embed`): installed at the first
// start with no network, and the base of the first update's delta downloads.
// <root.json> is the tenant's root metadata as the app ships it, trusted on first use only; <cache>
// is the folder for this tenant's cache. Exit status: 0 installed (or already current), 2 offline
// with the previous release kept, 1 nothing usable installed.

let usage = """
    usage: client-app <server-url> <tenant> <root.json> <cache> [--locale <locale>] [--tour <id>]... [--program <id>]... [--voucher <code>]... [--app-version X.Y.Z] [--embedded <folder>]
           client-app --refresh <server-url> <tenant> <root.json> <metadata-folder>
    """

// This app's own version: a release (or bundle) that needs a newer app is not installed.
var appVersion = ClientVersion("3.0.0")!

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}

var positional: [String] = []
var locale: String?
var tours: [String] = [], programs: [String] = [], vouchers: [String] = []
var embedded: URL?
var refreshOnly = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--refresh":
        refreshOnly = true
    case "--locale", "--tour", "--program", "--voucher", "--app-version", "--embedded":
        guard let value = arguments.popFirst() else { fail(usage) }
        switch argument {
        case "--locale": locale = value
        case "--tour": tours.append(value)
        case "--program": programs.append(value)
        case "--voucher": vouchers.append(value)
        case "--embedded": embedded = URL(fileURLWithPath: value)
        default:
            guard let version = ClientVersion(value) else { fail("--app-version: '\(value)' is not X.Y.Z") }
            appVersion = version
        }
    case "-h", "--help":
        print(usage)
        exit(0)
    default:
        positional.append(argument)
    }
}
guard positional.count == 4, let server = URL(string: positional[0]), server.scheme == "http" || server.scheme == "https" else { fail(usage) }
let tenant = positional[1]

if refreshOnly {
    do {
        let repository = HTTPRepository(base: server.appendingPathComponent(tenant))
        let folder = URL(fileURLWithPath: positional[3])
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let updater = try TUFUpdater(source: repository, store: MetadataFolder(folder),
                                     bootstrapRoot: try Data(contentsOf: URL(fileURLWithPath: positional[2])))
        try updater.refresh()
        print("targets version \(updater.trusted.targets["targets"]?.signed.version ?? 0)")
        exit(0)
    } catch {
        fail("refresh failed: \(error)")
    }
}

do {
    // The tenant's repository is <server>/<tenant>/, with metadata/ and targets/ under it.
    let repository = HTTPRepository(base: server.appendingPathComponent(tenant))
    var request = FetchRequest(tenant: tenant, repository: repository, cache: URL(fileURLWithPath: positional[3]),
                               bootstrapRoot: try Data(contentsOf: URL(fileURLWithPath: positional[2])), locale: locale)
    request.tours = tours
    request.programs = programs
    request.vouchers = vouchers
    request.appVersion = appVersion
    request.embeddedRelease = embedded

    let result = try ReleaseInstaller.fetch(request)
    if result.offline {
        print("offline (\(result.problem ?? "no reason given")): keeping release \(result.release)")
    } else {
        print("release \(result.release) installed at \(result.installed.path)")
    }
    print("downloaded: \(result.downloaded.joined(separator: ", ")); reused: \(result.reused.joined(separator: ", ")); by delta: \(result.deltas.joined(separator: ", "))")
    let bundles = result.installed.appendingPathComponent("bundles")
    for bundle in try FileManager.default.contentsOfDirectory(atPath: bundles.path).sorted() {
        let files = FileManager.default.enumerator(atPath: bundles.appendingPathComponent(bundle).path)?.allObjects.count ?? 0
        print("  \(bundle): \(files) files and folders")
    }
    exit(result.offline ? 2 : 0)
} catch {
    fail("nothing usable installed: \(error)")
}
