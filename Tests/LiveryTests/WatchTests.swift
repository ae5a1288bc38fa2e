import Foundation
import LiveryCheck
import LiveryDiagnostics
import LiveryWorkflow
import XCTest

/// `livery watch` (issue 16, item 2), through the real executable on a copy of the samples: edits made
/// the way editors make them (a new file renamed over the old one), output read line by line.
final class WatchTests: XCTestCase {
    /// Reads lines until one satisfies `last`, killing the watcher if that takes longer than `timeout` (a hang guard).
    private func lines(_ watch: LiveryProcess.Running, until last: (String) -> Bool, timeout: TimeInterval = 60) -> [String] {
        let done = DispatchSemaphore(value: 0)
        let pid = watch.pid
        DispatchQueue.global().async { if done.wait(timeout: .now() + timeout) == .timedOut { kill(pid, SIGKILL) } }
        defer { done.signal() }
        var out: [String] = []
        while let line = watch.nextLine() {
            out.append(line)
            if last(line) { return out }
        }
        XCTFail("livery watch ended or hung; output so far:\n\(out.joined(separator: "\n"))\n\(watch.stderr)")
        return out
    }

    private func isStatus(_ line: String) -> Bool { line.contains(" ms: ") }

    private func edit(_ workspace: BuildTests.Workspace, _ path: String, _ old: String, _ new: String) throws {
        let url = workspace.tenants.appendingPathComponent(path)
        let text = try String(contentsOf: url, encoding: .utf8)
        XCTAssertTrue(text.contains(old), "\(old) not in \(path)")
        // Written to a temporary file and renamed over the original, as most editors save.
        try Data(text.replacingOccurrences(of: old, with: new).utf8).write(to: url, options: .atomic)
    }

    func testWatchPrintsOnlyTheFindingsThatAppearAndDisappear() throws {
        let workspace = try BuildTests.Workspace()
        let watch = try LiveryProcess.start(["watch", "Tenants"], in: workspace.root, lineByLine: true)
        defer { watch.kill() }
        let first = lines(watch, until: isStatus)
        XCTAssertEqual(first.count, 1, "\(first)")
        XCTAssertTrue(first[0].hasPrefix("watching Tenants: checked 6 tenants in "), first[0])
        XCTAssertTrue(first[0].hasSuffix(": 0 errors, 0 warnings"), first[0])

        // A syntax error in the platform base: its error and its creator's note appear, nothing else.
        try edit(workspace, "companero/voice.yaml", "emoji: sparing", "emoji: [sparing")
        let broken = lines(watch, until: isStatus)
        XCTAssertEqual(broken.count, 3, broken.joined(separator: "\n"))
        XCTAssertTrue(broken.contains { $0.hasPrefix("+ Tenants/companero/voice.yaml:") && $0.hasSuffix("[structure.syntax]") }, broken.joined(separator: "\n"))
        XCTAssertTrue(broken.contains { $0.hasPrefix("+ Tenants/companero-lucia/tenant.yaml:6:10: note:") }, broken.joined(separator: "\n"))
        XCTAssertTrue(broken[2].hasPrefix("companero/voice.yaml: checked 2 tenants in "), "only the base and its creator are checked, and the temporary file is not named: \(broken[2])")
        XCTAssertTrue(broken[2].hasSuffix(": 1 error, 0 warnings"), broken[2])

        // An unrelated tenant's change leaves the base's findings alone.
        try edit(workspace, "urbannest/locales/en.yaml", "\nnav:\n", "\nzz: 1\nnav:\n")
        let other = lines(watch, until: isStatus)
        XCTAssertEqual(other.filter { $0.hasPrefix("+ ") }.count, 1, other.joined(separator: "\n"))
        XCTAssertEqual(other.filter { $0.hasPrefix("- ") }.count, 0, other.joined(separator: "\n"))
        XCTAssertTrue(other.last!.hasPrefix("urbannest/locales/en.yaml: checked 1 tenant in "), other.last!)
        XCTAssertTrue(other.last!.hasSuffix(": 2 errors, 0 warnings"), other.last!)

        // The fix: both findings of the base go, and the count is back.
        try edit(workspace, "companero/voice.yaml", "emoji: [sparing", "emoji: sparing")
        let fixed = lines(watch, until: isStatus)
        XCTAssertEqual(fixed.filter { $0.hasPrefix("- ") }.count, 2, fixed.joined(separator: "\n"))
        XCTAssertEqual(fixed.filter { $0.hasPrefix("+ ") }.count, 0, fixed.joined(separator: "\n"))
        XCTAssertTrue(fixed.last!.hasSuffix(": 1 error, 0 warnings"), fixed.last!)

        // A touch that changes no finding says so.
        try edit(workspace, "companero/voice.yaml", "emoji: sparing", "emoji: sparing ")
        let same = lines(watch, until: isStatus)
        XCTAssertEqual(same.count, 1, same.joined(separator: "\n"))
        XCTAssertTrue(same[0].contains(": no change, 1 error, 0 warnings"), same[0])

        // A removed tenant folder takes its findings with it.
        try FileManager.default.removeItem(at: workspace.tenants.appendingPathComponent("urbannest"))
        let removed = lines(watch, until: isStatus)
        XCTAssertEqual(removed.filter { $0.hasPrefix("- Tenants/urbannest/") }.count, 1, removed.joined(separator: "\n"))
        XCTAssertTrue(removed.last!.hasSuffix(": 0 errors, 0 warnings"), removed.last!)
    }

    func testWatchBuildRepublishesOnlyTheChangedTenant() throws {
        let workspace = try BuildTests.Workspace()
        let watch = try LiveryProcess.start(["watch", "Tenants", "--build", "--unsigned", "--output", "Output"], in: workspace.root, lineByLine: true)
        defer { watch.kill() }
        var initial: [String] = []
        initial += lines(watch, until: isStatus)
        initial += lines(watch, until: { $0.hasPrefix("urbannest: ") })
        XCTAssertEqual(initial.filter { $0.hasSuffix("bundles, 0 rebuilt") || $0.contains(": published release 1:") }.count, 6, initial.joined(separator: "\n"))

        try edit(workspace, "physio-clinic/locales/en.yaml", "  home: Home\n", "  home: Start\n")
        let rebuilt = lines(watch, until: { $0.hasPrefix("physio-clinic: ") })
        XCTAssertTrue(rebuilt.last!.hasPrefix("physio-clinic: published release 2: "), rebuilt.joined(separator: "\n"))
        XCTAssertFalse(rebuilt.contains { $0.hasPrefix("urbannest: ") || $0.hasPrefix("companero: ") }, rebuilt.joined(separator: "\n"))

        // An error stops the build of that tenant: the published release stays.
        try edit(workspace, "physio-clinic/locales/en.yaml", "  home: Start\n", "  home: \"{count, plural, one {#}}\"\n")
        let failed = lines(watch, until: isStatus)
        XCTAssertTrue(failed.contains { $0.hasPrefix("+ Tenants/physio-clinic/locales/en.yaml:") }, failed.joined(separator: "\n"))
        // The check's findings come before the build's refusal: wait for that line (a deadline, not a pause).
        let deadline = Date().addingTimeInterval(30)
        while !watch.stderr.contains("not built: ") && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        XCTAssertTrue(watch.stderr.contains("not built: "), watch.stderr)
        let pointer = try String(contentsOf: workspace.output.appendingPathComponent("physio-clinic/release.json"), encoding: .utf8)
        XCTAssertTrue(pointer.contains("\"release\":2"), pointer)
    }

    func testWatchJSONIsOneObjectPerCheck() throws {
        let workspace = try BuildTests.Workspace()
        let watch = try LiveryProcess.start(["watch", "Tenants", "--format", "json"], in: workspace.root, lineByLine: true)
        defer { watch.kill() }
        _ = lines(watch, until: { $0.hasPrefix("{") })
        try edit(workspace, "urbannest/locales/en.yaml", "\nnav:\n", "\nzz: 1\nnav:\n")
        let line = try XCTUnwrap(lines(watch, until: { $0.hasPrefix("{") }).last)
        let event = try JSONDecoder().decode(WatchEvent.self, from: Data(line.utf8))
        XCTAssertEqual(event.changed, ["urbannest/locales/en.yaml"])
        XCTAssertEqual(event.checked, 1)
        XCTAssertEqual(event.errors, 1)
        XCTAssertEqual(event.disappeared, [])
        let appeared = try XCTUnwrap(event.appeared.first)
        XCTAssertEqual(appeared.rule, "structure.type")
        XCTAssertEqual(appeared.severity, .error)
        XCTAssertEqual(appeared.file, "Tenants/urbannest/locales/en.yaml")
        XCTAssertEqual(appeared.line, 2)
        // One object per line, its keys in a stable (sorted) order.
        let keys = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]).keys.sorted()
        XCTAssertEqual(keys, ["appeared", "changed", "checked", "disappeared", "errors", "milliseconds", "warnings"])
        let order = keys.compactMap { line.range(of: "\"\($0)\":")?.lowerBound }
        XCTAssertEqual(order.count, keys.count, line)
        XCTAssertEqual(order, order.sorted(), line)
        XCTAssertFalse(line.contains("\n"))
    }

    /// The ledger on its own: a re-check of one tenant replaces only that tenant's findings.
    func testLedgerReplacesOnlyTheTenantsChecked() {
        func finding(_ file: String, _ message: String) -> Diagnostic {
            Diagnostic(.error, message, at: SourceLocation(file: file, line: 1, column: 1), rule: "structure.type")
        }
        var ledger = FindingsLedger(displayRoot: "Tenants")
        let a = finding("Tenants/a/tenant.yaml", "a"), b = finding("Tenants/b/tenant.yaml", "b"), b2 = finding("Tenants/b/voice.yaml", "b2")
        XCTAssertEqual(ledger.replace(["a", "b"], with: [a, b]).appeared, [a, b])
        // Checking b also reported its ancestor a's finding: a is not replaced, and nothing about it changes.
        let change = ledger.replace(["b"], with: [a, b2])
        XCTAssertEqual(change.appeared, [b2])
        XCTAssertEqual(change.disappeared, [b])
        XCTAssertEqual(ledger.all, [a, b2])
        XCTAssertTrue(ledger.replace(["b"], with: [b2]).isEmpty)
        XCTAssertEqual(ledger.replace(["a"], with: []).disappeared, [a])
    }
}
