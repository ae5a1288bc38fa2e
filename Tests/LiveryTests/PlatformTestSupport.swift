import Foundation
import LiveryCheck
import LiveryLoad
import LiveryRender
import LiveryResolve
import LiveryWorkflow
import XCTest

/// Shared by the platform-file tests: the sample tenants, snapshot files and external checkers.
enum PlatformFixtures {
    static let root = LiveryProcess.packageRoot
    static let snapshots = root.appendingPathComponent("Tests/LiveryTests/Fixtures/platform")
    static let templates = root.appendingPathComponent("Templates")
    /// The tenant whose context and output are committed as snapshots: two modes, springs, shadows.
    static let snapshotTenant = "physio-clinic"

    /// Every sample tenant, validated and resolved once per test process.
    static let samples: [ResolvedTenant] = {
        let result = Validator.validate(workspace: root.appendingPathComponent("Tenants"), displayRoot: "Tenants", rules: .all)
        return result.tenants.sorted { $0.id < $1.id }
    }()

    static func sample(_ id: String) throws -> ResolvedTenant {
        try XCTUnwrap(samples.first { $0.id == id }, "sample tenant \(id) did not load")
    }

    static func platformTemplates() throws -> PlatformTemplates {
        try PlatformTemplates.load(from: templates.appendingPathComponent("platform"), displayPath: "Templates/platform")
    }

    /// Compares `actual` with the committed snapshot; `LIVERY_UPDATE_SNAPSHOTS=1` rewrites it instead.
    static func assertSnapshot(_ actual: String, _ relative: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let url = snapshots.appendingPathComponent(relative)
        if ProcessInfo.processInfo.environment["LIVERY_UPDATE_SNAPSHOTS"] == "1" {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: url)
            return
        }
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            XCTFail("no snapshot at \(relative); run with LIVERY_UPDATE_SNAPSHOTS=1 to record it", file: file, line: line)
            return
        }
        if expected != actual {
            let a = expected.split(separator: "\n", omittingEmptySubsequences: false), b = actual.split(separator: "\n", omittingEmptySubsequences: false)
            let first = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
            let was = first < a.count ? String(a[first]) : "(end)", now = first < b.count ? String(b[first]) : "(end)"
            XCTFail("\(relative) differs from its snapshot at line \(first + 1):\n  snapshot: \(was)\n  actual:   \(now)\n"
                    + "(if the change is intended, run with LIVERY_UPDATE_SNAPSHOTS=1 and review the diff)", file: file, line: line)
        }
    }

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("livery-platform-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Loads `page` in headless Chromium inside a harness page of the test's and returns what `probe` found
    /// there, parsed from JSON. `probe` is the body of a JavaScript function given the page's `document` (and
    /// `window`, for `getComputedStyle`) once the page and its images have loaded; it returns a value JSON can
    /// hold. The previews run no script of their own: only the harness does, so the checks can read the DOM as
    /// Chromium built it and the styles it computed.
    static func inspect(_ page: URL, in folder: URL, probe: String, width: Int = 1200, height: Int = 1600) throws -> Any {
        let harness = folder.appendingPathComponent("harness-\(UUID().uuidString).html")
        let html = """
            <!DOCTYPE html><html><body><pre id="out">no result</pre>
            <script>
            function probe(document, window) { \(probe) }
            function run(frame) {
              let text;
              try { text = JSON.stringify(probe(frame.contentDocument, frame.contentWindow)); } catch (error) { text = JSON.stringify({error: String(error)}); }
              // Base64 of the UTF-8 bytes: --dump-dom writes text with entities (&nbsp;, &amp;) that JSON would not read.
              document.getElementById("out").textContent = btoa(String.fromCharCode(...new TextEncoder().encode(text)));
            }
            </script>
            <iframe src="\(page.absoluteString)" width="\(width)" height="\(height)" onload="run(this)"></iframe>
            </body></html>
            """
        try Data(html.utf8).write(to: harness)
        let chromium = try tool(["chromium", "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run", "--allow-file-access-from-files",
                                 "--user-data-dir=" + folder.appendingPathComponent("profile").path, "--dump-dom", harness.absoluteString], timeout: 240)
        let encoded = chromium.stdout.components(separatedBy: "<pre id=\"out\">").dropFirst().first?.components(separatedBy: "</pre>").first ?? ""
        let data = try XCTUnwrap(Data(base64Encoded: encoded), "chromium gave no result (status \(chromium.status)): \(chromium.stdout.prefix(300)) \(chromium.stderr.suffix(1000))")
        let result = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        if let failure = (result as? [String: Any])?["error"] as? String { XCTFail("the probe failed in Chromium: \(failure)") }
        return result
    }

    /// Every sample tenant's platform files, generated into a temporary folder (one subfolder per tenant), with no
    /// error-level finding.
    static func generateSamples() throws -> URL {
        let root = try temporaryFolder()
        let templates = try platformTemplates()
        for tenant in samples {
            let (files, diagnostics) = PlatformFiles.generate(tenant, templates: templates)
            XCTAssertEqual(diagnostics.filter { $0.severity == .error }, [], tenant.id)
            try BuildSettingsTests.write(files, to: root.appendingPathComponent(tenant.id))
        }
        return root
    }

    /// Skips the test when `name` (chromium, tsc…) is not on the PATH, naming the Debian package that has it; under
    /// `make test`, which installs them all and sets LIVERY_REQUIRE_TOOLS, a missing tool fails the test instead.
    static func requireTool(_ name: String) throws {
        switch missingTool(name, environment: ProcessInfo.processInfo.environment) {
        case nil: return
        case .skip(let message)?: throw XCTSkip(message)
        case .fail(let message)?: XCTFail(message); throw CocoaError(.executableNotLoadable)
        }
    }

    enum MissingTool: Equatable {
        case skip(String), fail(String)
    }

    /// What a test does about `name` under `environment`: nil when it is on the PATH (or is a path), else skip, or
    /// fail when LIVERY_REQUIRE_TOOLS is set.
    static func missingTool(_ name: String, environment: [String: String]) -> MissingTool? {
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        if name.contains("/") || path.split(separator: ":").contains(where: { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }) { return nil }
        let message = "\(name) is not installed (make test-deps installs it)"
        return environment["LIVERY_REQUIRE_TOOLS"] != nil ? .fail(message) : .skip(message)
    }

    /// Runs an external tool with its output in files (chromium writes a lot to stderr, which a pipe
    /// read after stdout could block on).
    static func tool(_ arguments: [String], in directory: URL? = nil, timeout: TimeInterval = 300) throws -> LiveryProcess.Output {
        // The program `env` runs: the first argument that is not a variable assignment (`NAME=value`).
        if let name = arguments.first(where: { !$0.contains("=") }) { try requireTool(name) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("tool-\(UUID().uuidString)")
        let err = out.appendingPathExtension("err")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        FileManager.default.createFile(atPath: err.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: out); try? FileManager.default.removeItem(at: err) }
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline { process.terminate(); XCTFail("\(arguments.first ?? "") did not finish within \(timeout) s"); break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        process.waitUntilExit()
        return LiveryProcess.Output(status: process.terminationStatus, stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
                                    stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }
}
