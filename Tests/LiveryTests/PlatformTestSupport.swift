import Foundation
import LiveryCheck
import LiveryLoad
import LiveryRender
import LiveryResolve
import LiveryWorkflow
import XCTest

/// Shared by the platform-file tests: the sample tenants and snapshot files (the external checkers are in
/// LiveryTestSupport's `PlatformFixtures`).
extension PlatformFixtures {
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
}
