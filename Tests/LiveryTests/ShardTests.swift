import Foundation
import LiveryPublish
import LiveryResolve
import XCTest

/// `livery build --shard K/N` and `livery validate --shard K/N` (docs/operations.md).
final class ShardTests: XCTestCase {
    /// A workspace of bare tenant manifests: only `extends` matters to sharding.
    private func syntheticWorkspace(_ parents: [String: String?]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("livery-shard-\(UUID().uuidString)")
        for (id, parent) in parents {
            let folder = root.appendingPathComponent(id)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try "id: \(id)\nname: \(id)\n\(parent.map { "extends: \($0)\n" } ?? "")".write(to: folder.appendingPathComponent("tenant.yaml"), atomically: true, encoding: .utf8)
        }
        addTeardownBlock { try? FileManager.default.removeItem(at: root) }
        return root
    }

    /// For each N, every tenant's shard; fails unless each tenant is in exactly one shard.
    private func assignment(of workspace: URL, count: Int, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Int] {
        var shardOf: [String: Int] = [:]
        for k in 1...count {
            for tenant in try TenantShard(index: k, count: count).tenants(in: workspace) {
                XCTAssertNil(shardOf[tenant], "\(tenant) is in shards \(shardOf[tenant] ?? 0) and \(k) of \(count)", file: file, line: line)
                shardOf[tenant] = k
            }
        }
        return shardOf
    }

    func testShardArgumentsOutsideOneToNOrNotNumbersAreRefusedWithTheirReason() throws {
        XCTAssertEqual(try TenantShard(parsing: "2/4"), try TenantShard(index: 2, count: 4))
        let refusals = ["0/3": "shards are numbered from 1: use 1/3 to 3/3", "4/3": "there is no shard 4 of 3: K must be between 1 and 3",
                        "x/y": "'x/y' is not a shard: expected K/N with whole numbers", "1/0": "the number of shards N must be at least 1",
                        "2": "'2' is not a shard", "1/2/3": "'1/2/3' is not a shard", "-1/3": "shards are numbered from 1"]
        for (text, message) in refusals {
            XCTAssertThrowsError(try TenantShard(parsing: text), text) { XCTAssertTrue("\($0)".contains(message), "\(text): \($0)") }
        }
        // The command line shows the reason, as a usage error (exit 2), for build and validate alike.
        for command in ["build", "validate"] {
            for (text, message) in [("0/3", "shards are numbered from 1"), ("4/3", "there is no shard 4 of 3"), ("x/y", "expected K/N with whole numbers")] {
                let result = try LiveryProcess.run([command, "Tenants", "--shard", text])
                XCTAssertEqual(result.status, 2, "\(command) --shard \(text): \(result.stdout)\(result.stderr)")
                XCTAssertTrue(result.stderr.contains(message), "\(command) --shard \(text): \(result.stderr)")
            }
        }
    }

    func testTheShardIsTheSHA256OfTheRootIdModuloNAsDocumented() throws {
        let ids = ["companero", "sonic-walkscape", "urbannest", "a", "", "ñandú-é", String(repeating: "z", count: 200)]
        let counts = [1, 2, 3, 4, 5, 7, 16, 1000]
        // Python, as docs/operations.md tells other tools to compute it.
        let script = """
            import hashlib, json, sys
            ids, counts = json.load(sys.stdin)
            print(json.dumps([[int(hashlib.sha256(i.encode()).hexdigest(), 16) % n + 1 for n in counts] for i in ids]))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: [ids, counts]))
        try input.fileHandleForWriting.close()
        let expected = try JSONSerialization.jsonObject(with: output.fileHandleForReading.readDataToEndOfFile()) as? [[Int]]
        process.waitUntilExit()
        XCTAssertEqual(ids.map { id in counts.map { TenantShard.number(ofRoot: id, count: $0) } }, expected)
    }

    func testEverySampleTenantLandsInExactlyOneShardWithItsBase() throws {
        let tenants = LiveryProcess.packageRoot.appendingPathComponent("Tenants")
        let all = Set(try FileManager.default.contentsOfDirectory(atPath: tenants.path).filter { !$0.hasPrefix(".") })
        XCTAssertTrue(all.isSuperset(of: ["companero", "companero-lucia"]))
        for count in 1...5 {
            let shardOf = try assignment(of: tenants, count: count)
            XCTAssertEqual(Set(shardOf.keys), all, "N=\(count)")
            XCTAssertEqual(shardOf["companero-lucia"], shardOf["companero"], "N=\(count): a creator is built with its base")
            XCTAssertEqual(shardOf["companero"], TenantShard.number(ofRoot: "companero", count: count))
        }
    }

    func testLineagesStayTogetherTransitivelyAndDoNotMoveWhenOtherTenantsComeAndGo() throws {
        let lineages: [String: String?] = [
            "base": nil, "creator": "base", "sub-creator": "creator", "other-creator": "base",  // one lineage, two levels deep
            "solo": nil,
            "loop-a": "loop-b", "loop-b": "loop-a", "loop-child": "loop-a",                    // a cycle (a validation error)
            "orphan": "missing",                                                               // an unknown parent (a validation error)
        ]
        var extra = lineages
        for i in 0..<30 { extra.updateValue(i % 3 == 0 ? nil : "filler-\(i - i % 3)", forKey: "filler-\(i)") }  // (assigning nil would remove the key)
        let small = try syntheticWorkspace(lineages), large = try syntheticWorkspace(extra)
        // A folder the loader refuses (a symbolic link out of the workspace) is still in exactly one shard.
        let outside = try syntheticWorkspace(["escaped": nil])
        try FileManager.default.createSymbolicLink(at: small.appendingPathComponent("escaped"), withDestinationURL: outside.appendingPathComponent("escaped"))
        for count in 1...5 {
            let shardOf = try assignment(of: small, count: count)
            XCTAssertEqual(Set(shardOf.keys), Set(lineages.keys).union(["escaped"]), "N=\(count)")
            for member in ["creator", "sub-creator", "other-creator"] { XCTAssertEqual(shardOf[member], shardOf["base"], "N=\(count): \(member)") }
            XCTAssertEqual(shardOf["base"], TenantShard.number(ofRoot: "base", count: count))
            XCTAssertEqual(shardOf["loop-b"], shardOf["loop-a"])
            XCTAssertEqual(shardOf["loop-child"], shardOf["loop-a"])
            XCTAssertEqual(shardOf["loop-a"], TenantShard.number(ofRoot: "loop-a", count: count), "a cycle goes with its smallest id")
            XCTAssertEqual(shardOf["orphan"], TenantShard.number(ofRoot: "orphan", count: count))
            // Thirty more tenants in other lineages move nobody.
            let inLarge = try assignment(of: large, count: count)
            for id in lineages.keys { XCTAssertEqual(inLarge[id], shardOf[id], "N=\(count): \(id) moved") }
            for i in 0..<30 { XCTAssertEqual(inLarge["filler-\(i)"], inLarge["filler-\(i - i % 3)"]) }
        }
    }

    /// Every file of a tenant's published release, by path inside its folder; signed metadata by its targets only
    /// (signatures over fresh expiry times differ from build to build).
    private func release(_ tenant: String, in output: URL) throws -> [String: Data] {
        let folder = output.appendingPathComponent(tenant)
        var files: [String: Data] = [:]
        for case let url as URL in FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)! {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            let relative = String(url.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count + 1))
            let data = try Data(contentsOf: url)
            if relative.hasPrefix("metadata/") {
                let signed = (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["signed"] as? [String: Any]
                files[relative] = try JSONSerialization.data(withJSONObject: signed?["targets"] ?? signed?["_type"] ?? "", options: [.sortedKeys, .fragmentsAllowed])
            } else {
                files[relative] = data
            }
        }
        return files
    }

    func testTheShardBuildsTogetherPublishTheFullBuildsReleasesAndEachOutputHoldsOnlyItsShare() throws {
        let workspace = try BuildTests.Workspace()
        let full = try LiveryProcess.run(["build", "Tenants", "--output", "Full"], in: workspace.root)
        XCTAssertEqual(full.status, 0, full.stderr)
        let tenants = Set(full.stdout.split(separator: "\n").compactMap { $0.split(separator: ":").first.map(String.init) })
        XCTAssertEqual(tenants.count, 6, full.stdout)
        var built: [String: Int] = [:]
        for k in 1...3 {
            let result = try LiveryProcess.run(["build", "Tenants", "--output", "Shard\(k)", "--shard", "\(k)/3"], in: workspace.root)
            XCTAssertEqual(result.status, 0, result.stderr)
            let output = workspace.root.appendingPathComponent("Shard\(k)")
            let folders = ((try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []).filter { $0 != ".livery" }
            let expected = try TenantShard(index: k, count: 3).tenants(in: workspace.tenants)
            XCTAssertEqual(Set(folders), expected, "shard \(k)/3 published exactly its tenants")
            let listed = try LiveryProcess.run(["build", "Tenants", "--shard", "\(k)/3", "--list"], in: workspace.root)
            XCTAssertEqual(listed.stdout.split(separator: "\n").map(String.init), expected.sorted(), "--list names the shard's tenants")
            for tenant in folders {
                XCTAssertNil(built[tenant], "\(tenant) built by shards \(built[tenant] ?? 0) and \(k)")
                built[tenant] = k
                XCTAssertTrue(result.stdout.contains("\(tenant): published release 1"), result.stdout)
                XCTAssertEqual(try release(tenant, in: output), try release(tenant, in: workspace.root.appendingPathComponent("Full")), "\(tenant): shard \(k)/3")
            }
        }
        XCTAssertEqual(Set(built.keys), tenants, "the union of the shards is the whole workspace")
        XCTAssertEqual(built["companero-lucia"], built["companero"])
    }

    func testAShardBuildLeavesTheOtherShardsTenantsInItsOutputAlone() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        // Change the creator; build the shards that do not hold its lineage into the same output.
        let home = TenantShard.number(ofRoot: "companero", count: 4)
        try workspace.replace("companero-lucia/tenant.yaml", "name: Lucía Moreno", "name: Lucía M. Moreno")
        let lucia = workspace.output.appendingPathComponent("companero-lucia")
        let before = try release("companero-lucia", in: workspace.output)
        let inode = try FileManager.default.attributesOfItem(atPath: lucia.path)[.systemFileNumber] as? Int
        for k in (1...4) where k != home {
            let result = try workspace.build(["--shard", "\(k)/4"])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertFalse(result.stdout.contains("companero"), result.stdout)
        }
        XCTAssertEqual(try release("companero-lucia", in: workspace.output), before, "another shard's build touched companero-lucia")
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: lucia.path)[.systemFileNumber] as? Int, inode)
        // Its own shard publishes the change and validates it with its base.
        let own = try workspace.build(["--shard", "\(home)/4"])
        XCTAssertEqual(own.status, 0, own.stderr)
        XCTAssertTrue(own.stdout.contains("companero-lucia: published release 2"), own.stdout)
        XCTAssertTrue(own.stdout.contains("companero: unchanged (release 1"), own.stdout)
        for tenant in ["sonic-walkscape", "urbannest", "physio-clinic", "travel-experiences"] {
            XCTAssertEqual(own.stdout.contains(tenant), TenantShard.number(ofRoot: tenant, count: 4) == home, own.stdout)
        }
    }

    func testARefusedTenantFolderFailsTheBuildOfItsShardOnly() throws {
        let workspace = try BuildTests.Workspace()
        let outside = try syntheticWorkspace(["escaped": nil])
        try FileManager.default.createSymbolicLink(at: workspace.tenants.appendingPathComponent("escaped"), withDestinationURL: outside.appendingPathComponent("escaped"))
        // The whole workspace: `build` stops as `validate` does (it used to publish the other tenants).
        let full = try workspace.build(["--unsigned"])
        XCTAssertEqual(full.status, 1, full.stdout)
        XCTAssertTrue(full.stdout.contains("tenant folder 'escaped' is a symbolic link that leads outside the workspace"), full.stdout)
        XCTAssertTrue(full.stderr.contains("validation failed: nothing was published"), full.stderr)
        // Sharded: only the shard that holds it fails.
        let home = TenantShard.number(ofRoot: "escaped", count: 2)
        let own = try workspace.build(["--unsigned", "--shard", "\(home)/2"])
        XCTAssertEqual(own.status, 1, own.stdout)
        XCTAssertTrue(own.stdout.contains("'escaped' is a symbolic link"), own.stdout)
        let other = try workspace.build(["--unsigned", "--shard", "\(3 - home)/2"])
        XCTAssertEqual(other.status, 0, other.stdout + other.stderr)
        XCTAssertFalse(other.stdout.contains("escaped"), other.stdout)
    }

    func testValidateChecksTheShardsTenantsAndAnEmptyShardBuildsNothing() throws {
        let counts = try (1...3).map { k -> Int in
            let result = try LiveryProcess.run(["validate", "Tenants", "--shard", "\(k)/3"])
            XCTAssertEqual(result.status, 0, result.stdout)
            let expected = try TenantShard(index: k, count: 3).tenants(in: LiveryProcess.packageRoot.appendingPathComponent("Tenants")).count
            XCTAssertTrue(result.stdout.contains("checked \(expected) tenant") || (expected == 0 && result.stderr.contains("no tenants in this shard")), result.stdout + result.stderr)
            return expected
        }
        XCTAssertEqual(counts.reduce(0, +), 6)
        // Six tenants in five lineages cannot fill 40 shards: an empty one says so and succeeds.
        let workspace = try BuildTests.Workspace()
        let empty = try (1...40).first { try TenantShard(index: $0, count: 40).tenants(in: workspace.tenants).isEmpty }!
        let result = try workspace.build(["--shard", "\(empty)/40"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("shard \(empty)/40 of 'Tenants': no tenants in this shard; nothing to build"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: workspace.output.appendingPathComponent("companero").path))
    }
}
