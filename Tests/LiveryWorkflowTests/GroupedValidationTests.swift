import Foundation
@testable import LiveryCheck
import LiveryDiagnostics
import LiveryTestSupport
import LiveryWorkflow
import XCTest

/// `livery validate` of a whole workspace checks a group of lineages at a time (issue 18, item 1): the
/// findings must be exactly those of checking everything at once, in the same order.
final class GroupedValidationTests: XCTestCase {
    /// The sample tenants plus 150 small ones: lineages longer than one group's worth of folder order
    /// (a base early in the alphabet extended by creators late in it), a cycle, an unknown parent whose
    /// hint names a folder in another group, and a broken message in every tenth creator.
    private func workspace() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("livery-grouped-\(UUID().uuidString)")
        let fm = FileManager.default
        try fm.copyItem(at: LiveryProcess.packageRoot.appendingPathComponent("Tenants"), to: root)
        addTeardownBlock { try? fm.removeItem(at: root) }
        func tenant(_ id: String, extends parent: String? = nil, message: String = "Hello") throws {
            let folder = root.appendingPathComponent(id)
            try fm.createDirectory(at: folder.appendingPathComponent("locales"), withIntermediateDirectories: true)
            let extends = parent.map { "extends: \($0)\n" } ?? ""
            try "id: \(id)\nkind: \(parent == nil ? "brand" : "creator")\nname: \(id)\n\(extends)locales:\n  default: en\n  supported: [en]\n"
                .write(to: folder.appendingPathComponent("tenant.yaml"), atomically: true, encoding: .utf8)
            try "title: \"\(message)\"\ncount: \"{n, plural, one {# item} other {# items}}\"\n"
                .write(to: folder.appendingPathComponent("locales/en.yaml"), atomically: true, encoding: .utf8)
        }
        try tenant("aa-base")
        for i in 0..<150 {
            let id = String(format: "c%03d", i)
            // Every seventh creator extends the base at the top of the folder order; the rest stand alone.
            try tenant(id, extends: i % 7 == 0 ? "aa-base" : nil, message: i % 10 == 3 ? "Broken {n, plural, one {#}" : "Hello \(i)")
        }
        try tenant("zz-loop-a", extends: "zz-loop-b")
        try tenant("zz-loop-b", extends: "zz-loop-a")
        try tenant("zz-orphan", extends: "aa-bsae")
        return root
    }

    func testGroupsOfLineagesFindExactlyWhatTheWholeWorkspaceFinds() throws {
        let root = try workspace()
        let whole = Validator.validate(workspace: root, displayRoot: "Tenants", rules: .all)
        let grouped = Validator.validate(workspace: root, displayRoot: "Tenants", rules: .all, keepingTenants: false)
        XCTAssertGreaterThan(whole.diagnostics.errorCount, 15, "the workspace should have findings to compare")
        XCTAssertTrue(whole.diagnostics.contains { $0.message.contains("'extends' forms a cycle") })
        XCTAssertTrue(whole.diagnostics.contains { $0.hint?.contains("aa-base") == true }, "the unknown parent's hint names a folder of another group")
        XCTAssertEqual(grouped.diagnostics.count, whole.diagnostics.count)
        for (a, b) in zip(grouped.diagnostics, whole.diagnostics) {
            XCTAssertEqual(a, b)
        }
        XCTAssertEqual(grouped.checked.sorted(), whole.checked.sorted())
        XCTAssertTrue(grouped.tenants.isEmpty, "grouped validation keeps no tenant")
        // And for a shard-like selection (some tenants and their ancestors).
        let only: Set<String> = ["c007", "c014", "c100", "zz-orphan", "companero-lucia"]
        let wholeOnly = Validator.validate(workspace: root, displayRoot: "Tenants", rules: .all, only: only)
        let groupedOnly = Validator.validate(workspace: root, displayRoot: "Tenants", rules: .all, only: only, keepingTenants: false)
        XCTAssertEqual(groupedOnly.diagnostics, wholeOnly.diagnostics)
        XCTAssertEqual(groupedOnly.checked.sorted(), wholeOnly.checked.sorted())
    }

    func testLineagesStayWholeAndGroupsStayBounded() throws {
        let root = try workspace()
        let discovered = try FileManager.default.contentsOfDirectory(at: root, includingPropertiesForKeys: nil)
            .filter { FileManager.default.fileExists(atPath: $0.appendingPathComponent("tenant.yaml").path) }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let groups = Validator.lineageGroups(discovered, limits: .default)
        XCTAssertEqual(groups.flatMap { $0 }.map(\.lastPathComponent).sorted(), discovered.map(\.lastPathComponent).sorted(), "every folder once")
        let base = try XCTUnwrap(groups.first { $0.contains { $0.lastPathComponent == "aa-base" } })
        for i in stride(from: 0, to: 150, by: 7) {
            XCTAssertTrue(base.contains { $0.lastPathComponent == String(format: "c%03d", i) }, "c\(i) is in its base's group")
        }
        XCTAssertTrue(groups.contains { group in ["zz-loop-a", "zz-loop-b"].allSatisfy { id in group.contains { $0.lastPathComponent == id } } })
        // No lineage here is larger than a group, so no group is.
        for group in groups { XCTAssertLessThanOrEqual(group.count, Validator.groupSize) }
        XCTAssertGreaterThan(groups.count, 1)
    }
}
