import Foundation
import LiveryObjectStore
import LiveryTestSupport
import XCTest

/// Issue 36, "the first hour": a new user's journey, each step a command exactly as the docs show it (docs/README.md's
/// quick start, docs/cli.md, docs/diagnostics.md, docs/keys.md, docs/client.md, docs/operations.md), in order, in a
/// copy of the checkout's workspace under a temporary home folder with its own key store, with `livery serve` on
/// 127.0.0.1 port 0 and the RADOS Gateway of scripts/s3-server.sh on a free port with no bucket yet. Each failure the
/// first hour met is pinned by its exact message; the temporary folder reads as the docs' `/home/me/app`, the ports as
/// theirs (34525 for serve, 7480 for the store), and sizes, counts and digests are placeholders.
final class FirstHourJourneyTests: XCTestCase {
    /// The folders of one journey: `home` (HOME, and "another folder") holds `app`, the user's checkout.
    private struct Journey {
        let temporary: URL
        var home: URL { temporary.appendingPathComponent("home/me") }
        var app: URL { home.appendingPathComponent("app") }
        var environment: [String: String]
        var servePort = 0
        var storePort = 0

        init() throws {
            temporary = FileManager.default.temporaryDirectory.appendingPathComponent("livery-first-hour-\(UUID().uuidString.prefix(8))")
            // A home of its own: no key store, AWS profile or cache of the machine's user is found.
            environment = ["HOME": temporary.appendingPathComponent("home/me").path]
            try FileManager.default.createDirectory(at: temporary.appendingPathComponent("home/me/app"), withIntermediateDirectories: true)
            // The checkout's sample tenants, as `make run` leaves them.
            try FileManager.default.copyItem(at: LiveryProcess.packageRoot.appendingPathComponent("Tenants"), to: app.appendingPathComponent("Tenants"))
        }

        /// Output as the docs print it: the home folder is /home/me, the ports the docs' own.
        func normalized(_ text: String) -> String {
            var text = text.replacingOccurrences(of: temporary.path, with: "")
            if servePort > 0 { text = text.replacingOccurrences(of: "127.0.0.1:\(servePort)", with: "127.0.0.1:34525") }
            if storePort > 0 { text = text.replacingOccurrences(of: "127.0.0.1:\(storePort)", with: "127.0.0.1:7480") }
            return text
        }

        func edit(_ path: String, _ old: String, _ new: String, file: StaticString = #filePath, line: UInt = #line) throws {
            let url = app.appendingPathComponent(path)
            let text = try String(contentsOf: url, encoding: .utf8)
            XCTAssertTrue(text.contains(old), "'\(old)' is not in \(path)", file: file, line: line)
            try text.replacingOccurrences(of: old, with: new).write(to: url, atomically: true, encoding: .utf8)
        }
    }

    /// Placeholders in an expected output: a count, a size as `ByteCount` writes it (never "0.0 MB"), hex digits, a
    /// date, the rest of a line, a run of spaces.
    private static let placeholders = [
        "<n>": "[0-9]+",
        "<size>": "(?:1 byte|[0-9]{1,3} bytes|[1-9][0-9]{0,2}\\.[0-9] (?:KB|MB|GB))",
        "<hex>": "[0-9a-f]+",
        "<date>": "[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z",
        "<any>": "[^\\n]*",
        "<sp>": " +",  // a table's padding, which follows the width of a size before it
    ]

    private static func matches(_ text: String, _ expected: String) -> Bool {
        var pattern = NSRegularExpression.escapedPattern(for: expected)
        for (token, regex) in placeholders { pattern = pattern.replacingOccurrences(of: token, with: regex) }
        guard let regex = try? NSRegularExpression(pattern: "^" + pattern + "$", options: []) else { return false }
        return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)).map { $0.range.length == (text as NSString).length } ?? false
    }

    /// Runs `livery` as the docs show it (in the app folder unless told), and checks its exit status and both outputs
    /// whole, normalized, against `stdout` and `stderr` (nil: not checked).
    @discardableResult
    private func livery(_ journey: Journey, _ arguments: [String], in folder: URL? = nil, environment: [String: String] = [:],
                        status: Int32 = 0, stdout: String? = "", stderr: String? = "",
                        file: StaticString = #filePath, line: UInt = #line) throws -> LiveryProcess.Output {
        let result = try LiveryProcess.run(arguments, in: folder ?? journey.app, timeout: 300, environment: journey.environment.merging(environment) { _, new in new })
        let out = journey.normalized(result.stdout), err = journey.normalized(result.stderr)
        let command = "livery " + arguments.joined(separator: " ")
        XCTAssertEqual(result.status, status, "\(command)\n\(out)\n\(err)", file: file, line: line)
        if let stdout { XCTAssertTrue(Self.matches(out, stdout), "\(command): standard output\n\(out)\nis not\n\(stdout)", file: file, line: line) }
        if let stderr { XCTAssertTrue(Self.matches(err, stderr), "\(command): standard error\n\(err)\nis not\n\(stderr)", file: file, line: line) }
        return LiveryProcess.Output(status: result.status, stdout: out, stderr: err)
    }

    /// The Debian tools scripts/s3-server.sh needs. Outside `make test` (no MAKELEVEL, no CI) a missing one skips the
    /// journey with the reason; under `make test`, which installs them, it fails it.
    private func requireTools() throws {
        let needed = ["ceph-mon", "ceph-osd", "radosgw", "radosgw-admin", "monmaptool", "ceph", "python3", "curl"]
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        let missing = needed.filter { tool in !path.contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") } }
        guard !missing.isEmpty else { return }
        let reason = "the journey publishes to Ceph's RADOS Gateway (scripts/s3-server.sh), and \(missing.joined(separator: ", ")) "
            + "\(missing.count == 1 ? "is" : "are") not installed: run `make test-deps` (Debian: ceph-mon ceph-osd radosgw ceph-common python3 curl)"
        let environment = ProcessInfo.processInfo.environment
        if environment["MAKELEVEL"] != nil || environment["CI"] != nil { throw S3ServerFixture.Failure(reason) }
        throw XCTSkip(reason)
    }

    func testTheFirstHourAsTheDocsShowIt() throws {
        try requireTools()
        var journey = try Journey()
        defer { try? FileManager.default.removeItem(at: journey.temporary) }

        // `livery help` with a topic that names no command is a usage error naming the commands (docs/cli.md).
        let help = try livery(journey, ["help", "nosuch"], status: 2, stderr: """
            Error: no help topic 'nosuch': the commands of 'livery' are validate, <any>
            Usage: livery <subcommand>
              See 'livery --help' for more information.

            """)
        XCTAssertTrue(help.stderr.contains(", init, "), help.stderr)

        // docs/README.md, quick start: `make run` (validate, build, verify the samples), then a brand and a creator.
        try livery(journey, ["validate", "Tenants"], stdout: "checked 6 tenants: 0 errors, 0 warnings\n")
        try livery(journey, ["build", "Tenants", "--output", "Output"], stdout: """
            companero: published release 1: 3 bundles, 3 rebuilt
            companero-lucia: published release 1: 6 bundles, 6 rebuilt
            physio-clinic: published release 1: 3 bundles, 3 rebuilt
            sonic-walkscape: published release 1: 12 bundles, 12 rebuilt
            travel-experiences: published release 1: 3 bundles, 3 rebuilt
            urbannest: published release 1: 3 bundles, 3 rebuilt

            """, stderr: """
            WARNING: created DEVELOPMENT signing keys for 6 tenants in /home/me/app/.livery-keys (a folder each): 'companero', 'companero-lucia', 'physio-clinic', 'sonic-walkscape', 'travel-experiences' and 1 more.
            WARNING: they are unprotected files on this machine, with the root key online. Do not publish
            WARNING: a real release with them; create real keys with `livery keys init <tenant>` for each.

            """)
        try livery(journey, ["verify", "--output", "Output"], stdout: nil)
        try livery(journey, ["init", "tenant", "acme-fitness"], stdout: """
            created Tenants/acme-fitness (/home/me/app/Tenants/acme-fitness)
            Tenants/acme-fitness validates clean; next: edit its manifests and run `livery validate Tenants/acme-fitness`

            """)
        try livery(journey, ["init", "creator", "coach-ana", "--extends", "acme-fitness"], stdout: """
            created Tenants/coach-ana (/home/me/app/Tenants/coach-ana)
            Tenants/coach-ana validates clean; next: edit its manifests and run `livery validate Tenants/coach-ana`

            """)
        try livery(journey, ["validate", "Tenants/coach-ana"], stdout: "checked 2 tenants: 0 errors, 0 warnings\n")

        // Break and fix. A quote left open in the brand's tenant.yaml is reported at the quote, not lines below where the
        // next quote closes it; what follows from the manifest not loading is folded under it, the store listing included
        // (no false "store.yaml describes store listings, but the tenant has no app" error), and the creator is checked
        // without its base (docs/diagnostics.md).
        try journey.edit("Tenants/acme-fitness/tenant.yaml", "displayName: Acme Fitness", "displayName: \"Acme Fitness")
        let broken = try livery(journey, ["validate", "Tenants/coach-ana"], status: 1, stdout: """
            Tenants/acme-fitness/tenant.yaml:7:16: error: this quoted string is not closed on its line: it runs on to the quote at line 20, column 55, and the parser gave up after it (did not find expected key while parsing a block mapping) [structure.syntax]
                  displayName: "Acme Fitness
                               ^
                hint: end the string with the quote it starts with (a ' inside '…' is written ''), or write a long text as a '|' block
                note: Tenants/acme-fitness/tenant.yaml:20:56: the parser gave up here
                note: Tenants/acme-fitness/locales/en.yaml:6:22: follows from this: 'Acme' is capitalised in 'welcome.title'; labels and headings are in sentence case [voice.sentence-case]
                note: Tenants/acme-fitness/locales/en.yaml:6:27: follows from this: 'Fitness' is capitalised in 'welcome.title'; labels and headings are in sentence case [voice.sentence-case]
                note: Tenants/acme-fitness/store.yaml:5:1: follows from this: store.yaml describes store listings, but the tenant has no app: (display name and store identifiers) to list [store.required-text]
            Tenants/coach-ana/tenant.yaml:6:10: note: checked without its base's Tenants/acme-fitness/tenant.yaml, which does not load: findings that follow from it are left out until it does [structure.base-unloaded]
                extends: acme-fitness
                         ^
                hint: fix the base's error first
                note: Tenants/acme-fitness/tenant.yaml:7:16: this quoted string is not closed on its line: it runs on to the quote at line 20, column 55, and the parser gave up after it (did not find expected key while parsing a block mapping) [structure.syntax]
            checked 2 tenants: 1 error, 0 warnings, 1 note

            """)
        XCTAssertFalse(broken.stdout.contains("error: store.yaml"), broken.stdout)
        try journey.edit("Tenants/acme-fitness/tenant.yaml", "displayName: \"Acme Fitness", "displayName: Acme Fitness")
        try livery(journey, ["validate", "Tenants/coach-ana"], stdout: "checked 2 tenants: 0 errors, 0 warnings\n")

        // A quote left open to the end of the creator's own manifest: reported where it opens.
        try journey.edit("Tenants/coach-ana/tenant.yaml", "name: Coach Ana", "name: \"Coach Ana")
        try livery(journey, ["validate", "Tenants/coach-ana"], status: 1, stdout: """
            Tenants/coach-ana/tenant.yaml:7:7: error: this quoted string is not closed: found unexpected end of stream at line 11, column 1 [structure.syntax]
                name: "Coach Ana
                      ^
                hint: end the string with the quote it starts with (a ' inside '…' is written '')
                note: Tenants/coach-ana/tenant.yaml:11:1: the parser gave up here
            checked 1 tenant: 1 error, 0 warnings

            """)
        try journey.edit("Tenants/coach-ana/tenant.yaml", "name: \"Coach Ana", "name: Coach Ana")

        // docs/diagnostics.md: a stop whose latitude lost its decimal point is one structure.range error, first, with the
        // route and tile findings that follow from it as notes: the page's example, line for line.
        try journey.edit("Tenants/sonic-walkscape/tours/florence-renaissance/tour.yaml", "latitude: 43.77310", "latitude: 437.7310")
        let latitude = try livery(journey, ["validate", "Tenants/sonic-walkscape"], status: 1, stdout: """
            Tenants/sonic-walkscape/tours/florence-renaissance/tour.yaml:31:15: error: 'stops[0].latitude' is 437.731, above the maximum 90 [structure.range]
                    latitude: 437.7310
                              ^
                note: Tenants/sonic-walkscape/tours/florence-renaissance/tour.yaml:25:8: follows from this: the tile pack has no tile 14/8704/0 (z/x/y in the XYZ scheme of web maps) for stop 'duomo' [content.tile-coverage]
                note: Tenants/sonic-walkscape/tours/florence-renaissance/tour.yaml:25:8: follows from this: the tile pack has no tile 15/17408/0 (z/x/y in the XYZ scheme of web maps) for stop 'duomo' [content.tile-coverage]
                note: Tenants/sonic-walkscape/tours/florence-renaissance/tour.yaml:31:15: follows from this: stop 'duomo' is 43806180 m from the route, beyond its 120 m trigger radius [content.route]
            checked 1 tenant: 1 error, 0 warnings

            """)
        let diagnosticsPage = try String(contentsOf: LiveryProcess.packageRoot.appendingPathComponent("docs/diagnostics.md"), encoding: .utf8)
        for line in latitude.stdout.split(separator: "\n") where line.contains("tour.yaml:") {
            XCTAssertTrue(diagnosticsPage.contains(line.trimmingCharacters(in: .whitespaces)), "docs/diagnostics.md does not show: \(line)")
        }
        try journey.edit("Tenants/sonic-walkscape/tours/florence-renaissance/tour.yaml", "latitude: 437.7310", "latitude: 43.77310")
        try livery(journey, ["validate", "Tenants/sonic-walkscape"], stdout: "checked 1 tenant: 0 errors, 0 warnings\n")

        // Build, verify, inspect (docs/README.md). A new tenant publishes to internal until promoted (docs/cli.md, init).
        try livery(journey, ["build"], stdout: """
            acme-fitness: published release 1 on internal: 2 bundles, 2 rebuilt
            coach-ana: published release 1 on internal: 2 bundles, 2 rebuilt
            companero: unchanged (release 1, inputs untouched)
            companero-lucia: unchanged (release 1, inputs untouched)
            physio-clinic: unchanged (release 1, inputs untouched)
            sonic-walkscape: unchanged (release 1)
            travel-experiences: unchanged (release 1, inputs untouched)
            urbannest: unchanged (release 1, inputs untouched)

            """, stderr: """
            WARNING: created DEVELOPMENT signing keys for 2 tenants in /home/me/app/.livery-keys (a folder each): 'acme-fitness', 'coach-ana'.
            WARNING: they are unprotected files on this machine, with the root key online. Do not publish
            WARNING: a real release with them; create real keys with `livery keys init <tenant>` for each.

            """)
        let verified = try livery(journey, ["verify"], stdout: nil)
        XCTAssertTrue(verified.stdout.hasPrefix("""
            acme-fitness (internal): release 1 verified: 3 targets; root v1, targets v1, snapshot v1, timestamp v1, timestamp expires
            """), verified.stdout)
        XCTAssertEqual(verified.stdout.split(separator: "\n").count, 8, verified.stdout)
        try livery(journey, ["inspect", "coach-ana"], stdout: """
            coach-ana release 1 on internal (zip, minimum client 1.0.0)
            manifest targets/<hex>.download-manifest.json

            bundle     kind    locale  policy     access  size     plays  sha256        depends on
            core       core    -       essential  public  <n>.<n> KiB<sp>-      <hex>  -
            locale.en  locale  en      essential  public  <n> B<sp>-      <hex>  -

            2 bundles, <n>.<n> KiB in all

            """)

        // docs/keys.md: a build run from another folder signs with the key store beside its workspace and leaves no
        // .livery-keys where it ran; a key store without the tenant's keys is refused by name, before anything is written.
        try journey.edit("Tenants/acme-fitness/locales/en.yaml", "home: Home", "home: Start")
        try livery(journey, ["build", journey.app.appendingPathComponent("Tenants/coach-ana").path, "-o", journey.app.appendingPathComponent("Output").path],
                   in: journey.home, stdout: "coach-ana: published release 2 on internal: 2 bundles, 1 rebuilt; an update from the previous release downloads <size>\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: journey.home.path), ["app"], "no .livery-keys in the folder the build ran in")
        let physio = try String(contentsOf: journey.app.appendingPathComponent("Tenants/physio-clinic/locales/en.yaml"), encoding: .utf8)
        try journey.edit("Tenants/physio-clinic/locales/en.yaml", "Home", "Start")
        let before = BuildTests.tree(journey.app.appendingPathComponent("Output"))
        try livery(journey, ["build", "Tenants/physio-clinic", "--keys", "../other-keys"], status: 2, stderr: """
            Error: 'physio-clinic' has a published root (/home/me/app/Output/physio-clinic/metadata/1.root.json) and no keys in /home/me/other-keys/: give --keys the key store that signed it (docs/keys.md); nothing was written

            """)
        let keysPage = try String(contentsOf: LiveryProcess.packageRoot.appendingPathComponent("docs/keys.md"), encoding: .utf8)
        XCTAssertTrue(keysPage.contains("Error: 'physio-clinic' has a published root (/home/me/app/Output/physio-clinic/metadata/1.root.json) and no keys in /home/me/other-keys/"),
                      "docs/keys.md shows the refusal as it is")
        XCTAssertFalse(FileManager.default.fileExists(atPath: journey.home.appendingPathComponent("other-keys").path), "no development keys were made")
        XCTAssertEqual(BuildTests.tree(journey.app.appendingPathComponent("Output")), before, "nothing was written")
        try physio.write(to: journey.app.appendingPathComponent("Tenants/physio-clinic/locales/en.yaml"), atomically: true, encoding: .utf8)

        // docs/client.md: `livery serve --port 0`, then the first fetch, and a refetch that downloads nothing and says so.
        let serve = try LiveryProcess.start(["serve", "--port", "0"], in: journey.app, environment: journey.environment)
        defer {
            kill(serve.pid, SIGTERM)
            XCTAssertEqual(serve.wait(timeout: 30).status, 0, "livery serve stops cleanly")
        }
        for _ in 0..<500 where journey.servePort == 0 {
            let log = (try? String(contentsOf: serve.out, encoding: .utf8)) ?? ""
            if let match = log.firstMatch(of: /listening on http:\/\/127\.0\.0\.1:([0-9]+)\//) { journey.servePort = Int(match.1)! } else { Thread.sleep(forTimeInterval: 0.02) }
        }
        XCTAssertGreaterThan(journey.servePort, 0, "livery serve did not start: \(serve.stderr)")
        let served = journey.normalized((try? String(contentsOf: serve.out, encoding: .utf8)) ?? "")
        XCTAssertTrue(served.hasPrefix("livery serve: listening on http://127.0.0.1:34525/ (serving /home/me/app/Output)\n"), served)
        let server = "http://127.0.0.1:\(journey.servePort)"
        try livery(journey, ["fetch", "sonic-walkscape", "--server", server, "--cache", "cache", "--root", "Output/sonic-walkscape/metadata/1.root.json",
                             "--locale", "fr", "--tour", "florence-renaissance"],
                   stdout: "sonic-walkscape: release 1 installed at /home/me/app/cache/sonic-walkscape/releases/1.<hex>; downloaded 5 bundles (core, locale.fr, locale.it, tour.florence-renaissance, tour.florence-renaissance.fr), reused 0; <n> bytes received\n",
                   stderr: "sonic-walkscape: <size> to download, <size> to install, <size> free\n")
        try livery(journey, ["fetch", "sonic-walkscape", "--server", server, "--cache", "cache", "--locale", "fr", "--tour", "florence-renaissance"],
                   stdout: "sonic-walkscape: release 1 kept at /home/me/app/cache/sonic-walkscape/releases/1.<hex> (already installed; nothing downloaded); <n> bytes received\n")
        // The creator as client.md fetches a tenant: its releases are on internal, and the refusal says which root to give.
        try livery(journey, ["fetch", "coach-ana", "--server", server, "--cache", "cache", "--root", "Output/coach-ana/metadata/1.root.json"], status: 2, stderr: """
            Error: --root Output/coach-ana/metadata/1.root.json: no such file; this tenant publishes on internal there, not stable: --channel internal --root Output/coach-ana/channels/internal/metadata/1.root.json

            """)
        try livery(journey, ["fetch", "coach-ana", "--server", server, "--cache", "cache", "--channel", "internal", "--root", "Output/coach-ana/channels/internal/metadata/1.root.json"],
                   stdout: "coach-ana (internal): release 2 installed at /home/me/app/cache/coach-ana.internal/releases/2.<hex>; downloaded 2 bundles (core, locale.en), reused 0; <n> bytes received\n",
                   stderr: "coach-ana: <size> to download, <size> to install, <size> free\n")

        // docs/operations.md, the test store: a RADOS Gateway with no bucket yet; the first publish names the missing
        // bucket once, for every tenant, writes nothing, and says how to create it; --create-bucket --public-read does.
        let store = try S3ServerFixture()
        defer { store.stop() }
        journey.storePort = try XCTUnwrap(URLComponents(string: store.endpoint)?.port)
        let s3 = store.environment
        XCTAssertFalse(try blocking { try await store.client().bucketExists("samples") })
        try livery(journey, ["publish", "--to", "s3://samples/apps"], environment: s3, status: 2, stderr: """
            Error: bucket 'samples' does not exist on http://127.0.0.1:7480: add --create-bucket to create it (and --public-read to let apps read releases anonymously, docs/operations.md#making-the-bucket-readable)

            """)
        XCTAssertFalse(try blocking { try await store.client().bucketExists("samples") }, "nothing was written")
        try livery(journey, ["publish", "--to", "s3://samples/apps", "--create-bucket", "--public-read"], environment: s3,
                   stdout: "published 8 tenants to s3://samples/apps: <n> objects uploaded (<size>), 0 unchanged\n",
                   stderr: "created bucket 'samples' with the anonymous-read policy of docs/operations.md\n")
        // Apps read the bucket anonymously: `livery fetch --server` takes it as is.
        let bucket = "\(store.endpoint)/samples/apps"
        try livery(journey, ["fetch", "urbannest", "--server", bucket, "--cache", "cache", "--root", "Output/urbannest/metadata/1.root.json"],
                   stdout: "urbannest: release 1 installed at /home/me/app/cache/urbannest/releases/1.<hex>; downloaded 2 bundles (core, locale.en), reused 0; <n> bytes received\n",
                   stderr: "urbannest: <size> to download, <size> to install, <size> free\n")
        // Without --public-read the bucket is private: a fetch says access is refused, with the address (and no query).
        try livery(journey, ["publish", "--to", "s3://private/apps", "--create-bucket"], environment: s3,
                   stdout: "published 8 tenants to s3://private/apps: <n> objects uploaded (<size>), 0 unchanged\n", stderr: "created bucket 'private'\n")
        try livery(journey, ["fetch", "urbannest", "--server", "\(store.endpoint)/private/apps", "--cache", "cache-private", "--root", "Output/urbannest/metadata/1.root.json"],
                   status: 1, stderr: """
            fetch failed: refresh failed: access refused: the server answered HTTP 403 Forbidden for http://127.0.0.1:7480/private/apps/urbannest/metadata/timestamp.json (its access rules, such as a bucket policy, do not let this client read it; docs/operations.md#making-the-bucket-readable)

            """)

        // A fresh checkout's first build (new development keys) published over the same bucket: every tenant is refused
        // for one cause, said once.
        let fresh = journey.home.appendingPathComponent("fresh")
        try FileManager.default.createDirectory(at: fresh, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: journey.app.appendingPathComponent("Tenants"), to: fresh.appendingPathComponent("Tenants"))
        try livery(journey, ["build"], in: fresh, stdout: nil, stderr: nil)
        try livery(journey, ["publish", "--to", "s3://samples/apps"], in: fresh, environment: s3, status: 1, stderr: """
            publishing failed; the store keeps each failed tenant's previous release:
            another build published newer or different releases than this output folder holds, for 8 tenants (acme-fitness/channels/internal, coach-ana/channels/internal, companero, companero-lucia, physio-clinic, sonic-walkscape, travel-experiences, urbannest): publish from the folder that made them, or build again after fetching their metadata; the first: s3://samples/apps/acme-fitness/channels/internal/metadata/timestamp.json is at version 1, as this release's timestamp is, with other bytes

            """)

        // Promote, roll out, roll back (docs/operations.md, channels): each command names the release it moved.
        try livery(journey, ["promote", "coach-ana", "--from", "internal", "--to", "stable"],
                   stdout: "coach-ana: promoted internal release 2 to stable as release 2 (the same manifest)\n")
        let promoted = try livery(journey, ["inspect", "coach-ana"], stdout: nil)
        XCTAssertTrue(promoted.stdout.hasPrefix("coach-ana release 2 (zip, minimum client 1.0.0)\n"), "stable, once it has a release: \(promoted.stdout)")
        try livery(journey, ["fetch", "coach-ana", "--server", server, "--cache", "cache", "--root", "Output/coach-ana/metadata/1.root.json"],
                   stdout: "coach-ana: release 2 installed at /home/me/app/cache/coach-ana/releases/2.<hex>; downloaded 2 bundles (core, locale.en), reused 0; <n> bytes received\n",
                   stderr: "coach-ana: <size> to download, <size> to install, <size> free\n")
        try journey.edit("Tenants/acme-fitness/locales/en.yaml", "home: Start", "home: Today")
        try livery(journey, ["build"], stdout: """
            acme-fitness: published release 2 on internal: 2 bundles, 1 rebuilt; an update from the previous release downloads <size>
            coach-ana: published release 3 on internal: 2 bundles, 1 rebuilt; an update from the previous release downloads <size>
            companero: unchanged (release 1, inputs untouched)
            companero-lucia: unchanged (release 1, inputs untouched)
            physio-clinic: unchanged (release 1)
            sonic-walkscape: unchanged (release 1<any>)
            travel-experiences: unchanged (release 1, inputs untouched)
            urbannest: unchanged (release 1, inputs untouched)

            """)
        try livery(journey, ["promote", "coach-ana", "--from", "internal", "--to", "stable", "--rollout", "10%"],
                   stdout: "coach-ana: promoted internal release 3 to 10% of stable's devices as release 3 (the same manifest)\n")
        try livery(journey, ["rollout", "coach-ana", "50%"], stdout: "coach-ana: release 3 goes to 50% of stable's devices\n")
        try livery(journey, ["rollout", "coach-ana", "100%"], stdout: "coach-ana: release 3 is stable's release for every device\n")
        try livery(journey, ["rollback", "coach-ana", "--to", "2", "--reason", "the new home label confused testers"],
                   stdout: "coach-ana: rolled stable back to the content of release 2, published as release 4\n")
        // Sizes in the unit that fits: a release of some ten kilobytes is not "0.0 MB".
        try livery(journey, ["releases", "coach-ana"], stdout: """
            stable:
            * 4  <date>  <size>  everyone  rollback to 2  update <size> by delta (<size> whole)  "the new home label confused testers"
              3  <date>  <size>  everyone (after 50%)  promoted from internal 3  update <size> by delta (<size> whole)
              2  <date>  <size>  everyone  promoted from internal 2
            internal:
            * 3  <date>  <size>  everyone  build  update <size> by delta (<size> whole)
              2  <date>  <size>  everyone  build  update <size> by delta (<size> whole)
              1  <date>  <size>  everyone  build

            """)
        // The promoted channel goes up with the rest; a device on stable gets the rollback.
        try livery(journey, ["publish", "--to", "s3://samples/apps"], environment: s3,
                   stdout: "published 8 tenants to s3://samples/apps: <n> objects uploaded (<size>), <n> unchanged\n")
        try livery(journey, ["fetch", "coach-ana", "--server", bucket, "--cache", "cache-bucket", "--root", "Output/coach-ana/metadata/1.root.json"],
                   stdout: "coach-ana: release 4 installed at /home/me/app/cache-bucket/coach-ana/releases/4.<hex>; downloaded 2 bundles (core, locale.en), reused 0; <n> bytes received\n",
                   stderr: "coach-ana: <size> to download, <size> to install, <size> free\n")
    }
}
