import Foundation
import LiveryLoad
import LiveryPublish
import LiverySign
import LiveryReleaseFormat
import XCTest

/// Durable publishing (docs/output.md#durability): what reaches the disk before a switch, the store's
/// verify and repair, and build records that notice templates and keys.
final class DurabilityTests: XCTestCase {
    private static let tenant = "urbannest"

    /// The system calls of `livery` with `arguments`, as strace (Debian) records them.
    private func trace(_ arguments: [String], in workspace: BuildTests.Workspace) throws -> [String] {
        let log = workspace.root.appendingPathComponent("strace-\(UUID().uuidString).txt")
        let result = try LiveryProcess.tool(["strace", "-f", "-qq", "-e", "trace=syncfs,fsync,rename,renameat,renameat2", "-o", log.path,
                                             LiveryProcess.executable.path] + arguments + ["--output", workspace.output.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        // Calls interrupted by another thread are logged in two halves; the completed call is what counts.
        return try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map(String.init).filter { !$0.contains("<unfinished") }
    }

    func testEveryReleaseSwitchComesAfterASyncOfItsFilesAndIsItselfSynced() throws {
        let workspace = try BuildTests.Workspace()
        let calls = try trace(["build", workspace.tenants.appendingPathComponent(Self.tenant).path, "--keys", workspace.root.appendingPathComponent(".livery-keys").path],
                              in: workspace)
        // The switch: a rename (first release) or renameat2 exchange from staging into the live folder.
        let switches = calls.indices.filter { calls[$0].contains("/.livery/staging/") && calls[$0].contains("rename") && calls[$0].contains(", \"\(workspace.output.path)/\(Self.tenant)\"") }
        XCTAssertEqual(switches.count, 1, calls.joined(separator: "\n"))
        for at in switches {
            XCTAssertTrue(calls[..<at].contains { $0.contains("syncfs(") && $0.hasSuffix("= 0") }, "no syncfs before the switch")
            XCTAssertTrue(calls[(at + 1)...].contains { $0.contains("fsync(") && $0.hasSuffix("= 0") }, "the folder holding the switch is not flushed")
        }
    }

    /// The completed calls of `livery arguments`, run in `folder`, traced with file descriptors shown as paths (`strace -y`).
    private func traceWithPaths(_ arguments: [String], calls: String, in folder: URL) throws -> [String] {
        let log = folder.appendingPathComponent("strace-\(UUID().uuidString).txt")
        // (`tool` runs /usr/bin/env, whose -C sets the working folder.)
        let result = try LiveryProcess.tool(["-C", folder.path, "strace", "-f", "-qq", "-y", "-e", "trace=\(calls)", "-o", log.path, LiveryProcess.executable.path] + arguments)
        XCTAssertEqual(result.status, 0, result.stderr)
        return try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map(String.init).filter { !$0.contains("<unfinished") }
    }

    func testDevelopmentKeysMadeByABuildAreFlushedOnceBeforeAnythingSignedWithThemGoesLive() throws {
        let workspace = try BuildTests.Workspace()
        let keys = workspace.root.appendingPathComponent(".livery-keys/\(Self.tenant)")
        let calls = try traceWithPaths(["build", "Tenants/\(Self.tenant)", "--output", "Output"], calls: "openat,fsync,syncfs,rename,renameat2", in: workspace.root)
        let created = calls.indices.filter { calls[$0].contains("openat(") && calls[$0].contains("\(keys.path)/") && calls[$0].contains(".key\"") && calls[$0].contains("O_CREAT") }
        XCTAssertEqual(created.count, 4, "one new file per role:\n" + calls.joined(separator: "\n"))
        // No flush per key file or per folder entry: the keys are on the output's file system, whose one
        // flush by the build comes after the last of them...
        XCTAssertFalse(calls.contains { $0.contains("fsync(") && $0.contains("\(keys.path)/") && $0.contains(".key>") }, calls.joined(separator: "\n"))
        // Nor of the audit log (its lines are written before the same flush).
        XCTAssertFalse(calls.contains { $0.contains("fsync(") && $0.contains("\(keys.path)") }, calls.joined(separator: "\n"))
        let lastKey = try XCTUnwrap(created.last)
        let flush = try XCTUnwrap(calls[lastKey...].firstIndex { $0.contains("syncfs(") && $0.hasSuffix("= 0") }, "the new keys are never flushed")
        // ... and before the release signed with them is switched live.
        let switched = try XCTUnwrap(calls.firstIndex { $0.contains("rename") && $0.contains("/.livery/staging/") && $0.contains("\"\(workspace.output.path)/\(Self.tenant)\"") })
        XCTAssertLessThan(flush, switched)
        // The keys are keys (mode 0600), and the release they signed verifies.
        for role in TUFRole.allCases {
            let file = keys.appendingPathComponent("\(role.rawValue).key")
            XCTAssertNoThrow(try KeyFile.read(file, passphrase: { "" }), file.path)
            XCTAssertEqual((try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        }
        let verified = try LiveryProcess.run(["verify", Self.tenant, "--output", "Output"], in: workspace.root)
        XCTAssertEqual(verified.status, 0, verified.stdout + verified.stderr)
    }

    func testDevelopmentKeysOnAnotherFileSystemThanTheOutputAreFlushedThere() throws {
        // The build's one syncfs covers only the output's file system: keys kept elsewhere (here tmpfs)
        // get a syncfs of their own, on their folder, before the release is switched in.
        let keys = URL(fileURLWithPath: "/dev/shm/livery-keys-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: keys) }
        let workspace = try BuildTests.Workspace()
        let calls = try traceWithPaths(["build", "Tenants/\(Self.tenant)", "--output", "Output", "--keys", keys.path], calls: "openat,fsync,syncfs,rename,renameat2",
                                       in: workspace.root)
        let folder = keys.appendingPathComponent(Self.tenant).path
        let flush = try XCTUnwrap(calls.firstIndex { $0.contains("syncfs(") && $0.contains("<\(folder)>") && $0.hasSuffix("= 0") }, calls.joined(separator: "\n"))
        let lastKey = try XCTUnwrap(calls.lastIndex { $0.contains("openat(") && $0.contains("\(folder)/") && $0.contains(".key\"") && $0.contains("O_CREAT") })
        let switched = try XCTUnwrap(calls.firstIndex { $0.contains("rename") && $0.contains("/.livery/staging/") && $0.contains("\"\(workspace.output.path)/\(Self.tenant)\"") })
        XCTAssertLessThan(lastKey, flush)
        XCTAssertLessThan(flush, switched)
        // The audit log there is flushed by its own fsync before the switch too.
        let audit = try XCTUnwrap(calls.firstIndex { $0.contains("fsync(") && $0.contains("<\(folder)/audit.log>") && $0.hasSuffix("= 0") }, calls.joined(separator: "\n"))
        XCTAssertLessThan(audit, switched)
    }

    func testKeysMadeByKeysInitAreEachFlushedWithTheirFolder() throws {
        let workspace = try BuildTests.Workspace()
        let calls = try traceWithPaths(["keys", "init", Self.tenant], calls: "openat,fsync,syncfs", in: workspace.root)
        let folder = workspace.root.appendingPathComponent(".livery-keys/\(Self.tenant)").path
        // Every key file made: `openat(AT_FDCWD, "<folder>/<name>.key", O_WRONLY|O_CREAT|O_EXCL…) = 3</…>`.
        let created = calls.indices.compactMap { index -> (Int, String)? in
            let call = calls[index]
            guard call.contains("openat("), call.contains("O_CREAT"), let start = call.range(of: "\"\(folder)/"),
                  let end = call[start.upperBound...].firstIndex(of: "\""), call[start.upperBound..<end].hasSuffix(".key") else { return nil }
            return (index, String(call[start.upperBound..<end]))
        }
        XCTAssertGreaterThanOrEqual(created.count, 4, calls.joined(separator: "\n"))
        for (at, name) in created {
            let fileFlush = try XCTUnwrap(calls[at...].firstIndex { $0.contains("fsync(") && $0.contains("</\(folder.dropFirst())/\(name)>") && $0.hasSuffix("= 0") },
                                          "\(name) is not flushed:\n" + calls.joined(separator: "\n"))
            XCTAssertNotNil(calls[fileFlush...].firstIndex { $0.contains("fsync(") && $0.contains("</\(folder.dropFirst())>") && $0.hasSuffix("= 0") },
                            "the folder entry of \(name) is not flushed")
        }
    }

    func testABuildFlushesOutputOnceAfterItsSwitchesAndBeforeItsBuildRecords() throws {
        let workspace = try BuildTests.Workspace()
        let calls = try traceWithPaths(["build", "Tenants", "--output", "Output"], calls: "openat,fsync,syncfs,rename,renameat2,pwrite64,write", in: workspace.root)
        let output = workspace.output.path
        let switches = calls.indices.filter { calls[$0].contains("rename") && calls[$0].contains("/.livery/staging/") && calls[$0].contains(", \"\(output)/") }
        XCTAssertGreaterThan(switches.count, 1, calls.joined(separator: "\n"))
        // Every tenant's staged release is made durable by one flush of the file system, before the first switch.
        let syncs = calls.indices.filter { calls[$0].contains("syncfs(") && calls[$0].hasSuffix("= 0") }
        XCTAssertEqual(syncs.count, 1, "one syncfs for \(switches.count) switches")
        XCTAssertLessThan(try XCTUnwrap(syncs.first), try XCTUnwrap(switches.first))
        let flushes = calls.indices.filter { calls[$0].contains("fsync(") && calls[$0].hasSuffix("<\(output)>) = 0") }
        XCTAssertEqual(flushes.count, 1, "one flush of Output/ for \(switches.count) switches")
        let flush = try XCTUnwrap(flushes.first)
        XCTAssertGreaterThan(flush, try XCTUnwrap(switches.last))
        // The build records (SQLite in WAL mode) are written after it.
        let recordWrites = calls.indices.filter { $0 > switches.last! && calls[$0].contains("builds.sqlite") && (calls[$0].contains("pwrite64(") || calls[$0].contains("write(")) }
        XCTAssertFalse(recordWrites.isEmpty, calls.joined(separator: "\n"))
        XCTAssertTrue(recordWrites.allSatisfy { $0 > flush })
    }

    func testAFetchFlushesTheInstalledReleaseBeforeSwitchingToIt() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let server = try SigningTests.FileServer(root: workspace.output)
        let log = workspace.root.appendingPathComponent("fetch-trace.txt")
        let result = try LiveryProcess.tool(["strace", "-f", "-qq", "-e", "trace=sync,fsync,rename,renameat,renameat2", "-o", log.path, LiveryProcess.executable.path,
                                             "fetch", Self.tenant, "--server", "http://127.0.0.1:\(server.port)", "--cache", workspace.root.appendingPathComponent("cache").path,
                                             "--root", workspace.output.appendingPathComponent("\(Self.tenant)/metadata/1.root.json").path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let calls = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map(String.init).filter { !$0.contains("<unfinished") }
        let install = try XCTUnwrap(calls.firstIndex { $0.contains("rename") && $0.contains("/releases/.staging-") }, calls.joined(separator: "\n"))
        let current = try XCTUnwrap(calls.lastIndex { $0.contains("rename") && $0.contains("/current\"") })
        // The installed tree flushed (one sync() on Linux) before the release is renamed into place, after the
        // downloads were (an fsync each); the switch of `current` after it, then flushed.
        XCTAssertTrue(calls[..<install].contains { $0.contains("sync()") && $0.hasSuffix("= 0") }, calls.joined(separator: "\n"))
        let downloads = try XCTUnwrap(Publisher.currentManifest(tenant: Self.tenant, output: workspace.output)?.manifest.bundles.filter { $0.policy == .essential }.count)
        XCTAssertGreaterThanOrEqual(calls[..<install].filter { $0.contains("fsync(") }.count, downloads)
        XCTAssertLessThan(install, current)
        XCTAssertTrue(calls[(current + 1)...].contains { $0.contains("fsync(") })
    }

    func testStoreRepairPutsBackDamagedObjectsAndTargetsFromTheSources() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let clean = BuildTests.tree(workspace.output)
        let current = try XCTUnwrap(Publisher.currentManifest(tenant: Self.tenant, output: workspace.output))
        let core = try XCTUnwrap(current.manifest.bundle("core"))
        let tour = try XCTUnwrap(Publisher.currentManifest(tenant: "sonic-walkscape", output: workspace.output)?.manifest.bundle("tour.florence-renaissance.fr"))
        // One flipped byte in a bundle (the store object and the published target are one file), and a truncated tour bundle.
        let object = workspace.output.appendingPathComponent(".livery/store/objects/\(core.sha256.prefix(2))/\(core.sha256)")
        var bytes = try Data(contentsOf: object)
        bytes[bytes.count / 2] ^= 0x01
        let handle = try FileHandle(forWritingTo: object)
        try handle.write(contentsOf: bytes)
        try handle.close()
        XCTAssertEqual(truncate(workspace.output.appendingPathComponent("sonic-walkscape/\(tour.path)").path, off_t(tour.size / 2)), 0)

        let verify = try LiveryProcess.run(["store", "verify", "--output", "Output"], in: workspace.root)
        XCTAssertEqual(verify.status, 1, verify.stdout)
        XCTAssertTrue(verify.stdout.contains("damaged object: .livery/store/objects/\(core.sha256.prefix(2))/\(core.sha256)"), verify.stdout)
        XCTAssertTrue(verify.stdout.contains("damaged target: \(Self.tenant)/\(core.path)"), verify.stdout)
        XCTAssertTrue(verify.stdout.contains("damaged target: sonic-walkscape/\(tour.path)"), verify.stdout)
        XCTAssertEqual(try LiveryProcess.run(["verify", "--output", "Output"], in: workspace.root).status, 1)

        let repair = try LiveryProcess.run(["store", "repair", "Tenants", "--output", "Output"], in: workspace.root)
        XCTAssertEqual(repair.status, 0, repair.stdout + repair.stderr)
        XCTAssertTrue(repair.stdout.contains("replaced \(Self.tenant)/\(core.path)"), repair.stdout)
        XCTAssertTrue(repair.stdout.contains("replaced sonic-walkscape/\(tour.path)"), repair.stdout)
        XCTAssertTrue(repair.stdout.contains("0 damaged"), repair.stdout)
        XCTAssertEqual(try LiveryProcess.run(["store", "verify", "--output", "Output"], in: workspace.root).status, 0)
        XCTAssertEqual(try LiveryProcess.run(["verify", "--output", "Output"], in: workspace.root).status, 0)
        // The same bytes as before the damage, the same releases (nothing new was published).
        let repaired = BuildTests.tree(workspace.output)
        for (path, digest) in clean where !path.contains("timestamp") { XCTAssertEqual(repaired[path], digest, path) }
        XCTAssertEqual(Publisher.currentManifest(tenant: Self.tenant, output: workspace.output)?.pointer.sha256, current.pointer.sha256)
    }

    /// Every object in the store: path → size.
    private func storeObjects(_ output: URL) -> [String: Int64] {
        let objects = output.appendingPathComponent(".livery/store/objects")
        var found: [String: Int64] = [:]
        for path in (try? FileManager.default.subpathsOfDirectory(atPath: objects.path)) ?? [] where path.count > 3 {
            found[path] = FileStamp(path: objects.appendingPathComponent(path).path)?.size
        }
        return found
    }

    func testObjectsABuildWroteBeforeAPowerCutAreNotReusedByTheNextBuildWithoutTheirBytes() throws {
        let workspace = try BuildTests.Workspace()
        XCTAssertEqual(try workspace.build().status, 0)
        let before = storeObjects(workspace.output)
        // A build packs sonic-walkscape's edited locale (new archives, their index rows, a new manifest) and is
        // stopped once the release is assembled: before its syncfs. Then the power fails.
        try workspace.replace("sonic-walkscape/locales/en.yaml", ":", ": ")
        let process = try LiveryProcess.start(["build", "Tenants", "--output", "Output", "--verbose"], in: workspace.root,
                                              environment: ["LIVERY_STOP_AFTER_STEP": "sonic-walkscape assembled"], lineByLine: true)
        while let line = process.nextLine(), line != "step: sonic-walkscape assembled" {}
        process.kill()
        // What the power cut left: every object that build wrote keeps its size and has zeros for bytes (ext4
        // delayed allocation), while SQLite's rows (bundles.sqlite, objects.sqlite) had reached the disk.
        let written = storeObjects(workspace.output).filter { before[$0.key] == nil }
        XCTAssertGreaterThan(written.count, 1, "an archive and a manifest at least")
        for (path, size) in written {
            let handle = try FileHandle(forWritingTo: workspace.output.appendingPathComponent(".livery/store/objects/\(path)"))
            try handle.write(contentsOf: Data(repeating: 0, count: Int(size)))
            try handle.close()
        }

        let next = try workspace.build()
        XCTAssertEqual(next.status, 0, next.stdout + next.stderr)
        XCTAssertEqual(Publisher.currentManifest(tenant: "sonic-walkscape", output: workspace.output)?.manifest.release, 2)
        let verified = try LiveryProcess.run(["verify", "--output", "Output"], in: workspace.root)
        XCTAssertEqual(verified.status, 0, verified.stdout + verified.stderr)
        // Every object the new release names holds the bytes its name says.
        let store = try LiveryProcess.run(["store", "verify", "--output", "Output"], in: workspace.root)
        XCTAssertEqual(store.status, 0, store.stdout + store.stderr)
    }

    func testAnEditedTemplateOrARotatedKeyMakesTheNextBuildLookAgain() throws {
        let workspace = try BuildTests.Workspace()
        // Templates beside the workspace win over the checkout's (PlatformTemplates.locate).
        try FileManager.default.copyItem(at: LiveryProcess.packageRoot.appendingPathComponent("Templates"), to: workspace.root.appendingPathComponent("Templates"))
        let build = { try LiveryProcess.run(["build", "Tenants/\(Self.tenant)", "--output", "Output"], in: workspace.root) }
        // Files younger than the racy window are never trusted by their stamp: age the templates too (keys are recorded by content).
        func backdate() throws {
            try workspace.backdate()
            for folder in ["Templates"] {
                for case let url as URL in FileManager.default.enumerator(at: workspace.root.appendingPathComponent(folder), includingPropertiesForKeys: nil)! {
                    try FileManager.default.setAttributes([.modificationDate: Date.wholeSecondsAgo(86_400)], ofItemAtPath: url.path)
                }
            }
        }
        XCTAssertEqual(try build().status, 0)
        try backdate()
        XCTAssertEqual(try build().status, 0)
        XCTAssertTrue(try build().stdout.contains("unchanged (release 1, inputs untouched)"))

        // An edited template: the core bundle changes, so a new release.
        let template = workspace.root.appendingPathComponent("Templates/platform/css/tokens.css.mustache")
        try (String(contentsOf: template, encoding: .utf8) + "/* edited */\n").write(to: template, atomically: true, encoding: .utf8)
        let edited = try build()
        XCTAssertTrue(edited.stdout.contains("published release 2"), edited.stdout)

        // A rotated key: the tenant is looked at again (not "inputs untouched"); its content is unchanged.
        try backdate()
        XCTAssertEqual(try build().status, 0)
        XCTAssertTrue(try build().stdout.contains("inputs untouched"))
        XCTAssertEqual(try LiveryProcess.run(["keys", "rotate", Self.tenant, "targets", "--output", "Output"], in: workspace.root).status, 0)
        let rotated = try build()
        XCTAssertTrue(rotated.stdout.contains("unchanged (release 2)"), rotated.stdout)
        XCTAssertFalse(rotated.stdout.contains("inputs untouched"), rotated.stdout)
    }
}
