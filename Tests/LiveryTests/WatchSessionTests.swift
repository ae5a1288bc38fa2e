import Foundation
import LiveryCheck
import LiveryDiagnostics
import LiveryWorkflow
import XCTest

/// `WatchSession` driven in process: changes are handed to it as the file watcher would report them, so the test
/// needs no process, no watcher timing and no deadline.
final class WatchSessionTests: XCTestCase {
    /// The events of one call, gathered (the session reports on the calling thread outside a build).
    private final class Events: @unchecked Sendable {
        private var events: [WatchSession.Event] = []
        private let lock = NSLock()
        func add(_ event: WatchSession.Event) { lock.withLock { events.append(event) } }
        func take() -> [WatchSession.Event] { lock.withLock { defer { events = [] }; return events } }
        var checks: [WatchSession.Check] { take().compactMap { if case .checked(let check) = $0 { return check } else { return nil } } }
    }

    func testChecksOnlyTheTenantsAChangeAffects() throws {
        let workspace = try BuildTests.Workspace()
        let session = try WatchSession(workspace: workspace.tenants, displayRoot: "Tenants")
        let events = Events()
        session.start(events.add)
        let first = try XCTUnwrap(events.checks.first)
        XCTAssertTrue(first.initial)
        XCTAssertEqual(first.checked, 6)
        XCTAssertEqual(first.errors, 0)

        // A syntax error in the platform base: it and its creator are checked, and the error appears.
        let voice = workspace.tenants.appendingPathComponent("companero/voice.yaml")
        let text = try String(contentsOf: voice, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "emoji: sparing", with: "emoji: [sparing").utf8).write(to: voice)
        session.update(["companero/voice.yaml"], events.add)
        let broken = try XCTUnwrap(events.checks.first)
        XCTAssertFalse(broken.initial)
        XCTAssertEqual(broken.changed, ["companero/voice.yaml"])
        XCTAssertEqual(broken.checked, 2)
        XCTAssertEqual(broken.errors, 1)
        XCTAssertTrue(broken.change.appeared.contains { $0.ruleID == "structure.syntax" && $0.location.file == "Tenants/companero/voice.yaml" })

        // A change outside every tenant's folder checks nothing and says nothing.
        session.update([".git/index"], events.add)
        XCTAssertTrue(events.take().isEmpty)

        // The fix: the findings go.
        try Data(text.utf8).write(to: voice)
        session.update(["companero/voice.yaml"], events.add)
        let fixed = try XCTUnwrap(events.checks.first)
        XCTAssertEqual(fixed.errors, 0)
        XCTAssertEqual(fixed.change.disappeared.count, broken.change.appeared.count)
    }

    func testDoesNotBuildTenantsWithErrors() throws {
        let workspace = try BuildTests.Workspace()
        let voice = workspace.tenants.appendingPathComponent("companero/voice.yaml")
        let text = try String(contentsOf: voice, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "emoji: sparing", with: "emoji: [sparing").utf8).write(to: voice)
        let output = workspace.root.appendingPathComponent("Output")
        let session = try WatchSession(workspace: workspace.tenants, displayRoot: "Tenants", tenant: "companero",
                                       publishing: WatchSession.Publishing(output: output, keys: nil))
        let events = Events()
        session.start(events.add)
        let seen = events.take()
        XCTAssertEqual(seen.count, 2, "\(seen)")
        guard case .notBuilt(let errors, let tenants)? = seen.last else { return XCTFail("\(seen)") }
        XCTAssertEqual(errors, 1)
        XCTAssertEqual(tenants, ["companero"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.appendingPathComponent("companero").path))
    }
}
