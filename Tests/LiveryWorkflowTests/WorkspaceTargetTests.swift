import Foundation
import LiveryResolve
import LiveryTestSupport
import LiveryWorkflow
import XCTest

/// How a command's PATH argument is read (`WorkspaceTarget`): a workspace or one tenant in it, the workspace as the
/// user would write it, and the tenants a `--shard` leaves.
final class WorkspaceTargetTests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("livery-target-\(UUID().uuidString)").standardizedFileURL
        try FileManager.default.copyItem(at: LiveryProcess.packageRoot.appendingPathComponent("Tenants"), to: root)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    func testAWorkspaceFolderNamesNoTenantAndATenantFolderNamesItselfInItsWorkspace() {
        let workspace = WorkspaceTarget(root.path)
        XCTAssertEqual(workspace.workspace.path, root.path)
        XCTAssertNil(workspace.tenant)
        XCTAssertNil(workspace.tenants(in: nil), "a whole workspace: every tenant")

        let tenant = WorkspaceTarget(root.appendingPathComponent("physio-clinic").path + "/.")
        XCTAssertEqual(tenant.workspace.path, root.path)
        XCTAssertEqual(tenant.tenant, "physio-clinic")
        XCTAssertEqual(tenant.tenants(in: nil), ["physio-clinic"])
    }

    func testTheWorkspaceIsShownAsTheUserWouldWriteItFromTheCurrentFolder() {
        let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL
        XCTAssertEqual(WorkspaceTarget.display(current), ".")
        XCTAssertEqual(WorkspaceTarget.display(current.appendingPathComponent("Tenants")), "Tenants")
        XCTAssertEqual(WorkspaceTarget.display(current.deletingLastPathComponent().appendingPathComponent("other")), "../other")
        // Sharing only the root with the current folder, a path is shown whole.
        XCTAssertEqual(WorkspaceTarget.display(URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/Tenants")).first, "/")
    }

    func testShardsSplitTheWorkspacesTenantsWithEachBaseBesideItsCreators() throws {
        let target = WorkspaceTarget(root.path)
        let all = Set(try FileManager.default.contentsOfDirectory(atPath: root.path)
            .filter { FileManager.default.fileExists(atPath: root.appendingPathComponent($0).appendingPathComponent("tenant.yaml").path) })
        var seen: [String: Int] = [:]
        for index in 1...3 {
            let shard = try TenantShard(parsing: "\(index)/3")
            for tenant in target.tenants(in: shard) ?? [] { seen[tenant, default: 0] += 1 }
        }
        XCTAssertEqual(Set(seen.keys), all, "every tenant is in some shard")
        XCTAssertEqual(Set(seen.values), [1], "and in one only")
        // companero-lucia extends companero: they are always in the same shard.
        for index in 1...3 {
            let tenants = target.tenants(in: try TenantShard(parsing: "\(index)/3")) ?? []
            XCTAssertEqual(tenants.contains("companero"), tenants.contains("companero-lucia"))
        }
        // A tenant path and a shard: the tenant if its lineage is in the shard, else nothing.
        let one = WorkspaceTarget(root.appendingPathComponent("urbannest").path)
        let holding = try (1...3).map { try TenantShard(parsing: "\($0)/3") }.filter { one.tenants(in: $0) == ["urbannest"] }
        XCTAssertEqual(holding.count, 1)
        XCTAssertTrue(target.hasTenantFolders)
        XCTAssertFalse(WorkspaceTarget(root.appendingPathComponent("physio-clinic/locales").path).hasTenantFolders)
    }
}
