import Crypto
import Foundation
@testable import LiverySQLite
import LiveryServe
import LiverySign
import LiveryStorage
import LiveryReleaseFormat
import XCTest

/// A full disk while building (issue 35, item 3): a write of the build side that fails for want of space says so in the
/// documented `build failed:` form, naming the tenant and what was being written, never in SQLite's or errno's words
/// alone; the release in Output/ stays byte for byte as it was, and nothing is written outside Output/. The disks are
/// real: size-limited tmpfs mounts (which need root; the tests are skipped without).
final class DiskFullBuildTests: XCTestCase {
    /// A tmpfs of `size` mounted at `folder` (made if missing) until `unmount`, which a test's teardown calls.
    final class SmallDisk {
        let folder: URL

        init(at folder: URL, size: String, test: XCTestCase) throws {
            self.folder = folder
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let mounted = try LiveryProcess.tool(["mount", "-t", "tmpfs", "-o", "size=\(size)", "tmpfs", folder.path])
            guard mounted.status == 0 else { throw XCTSkip("cannot mount a small tmpfs here (needs root): \(mounted.stderr)") }
            test.addTeardownBlock { _ = try? LiveryProcess.tool(["umount", "-l", folder.path]) }
        }

        /// Bytes free on the disk, as `statvfs` says.
        var free: Int {
            var info = statvfs()
            guard statvfs(folder.path, &info) == 0 else { return 0 }
            return Int(info.f_bavail) * Int(info.f_frsize)
        }

        private var filler: URL { folder.appendingPathComponent(".filler") }

        /// Fills the disk until `bytes` are left free (a file of zeros, `.filler`, removed by `unfill`).
        func fill(leaving bytes: Int) throws {
            unfill()
            let count = max(0, free - bytes)
            guard FileManager.default.createFile(atPath: filler.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
            let handle = try FileHandle(forWritingTo: filler)
            defer { try? handle.close() }
            let chunk = Data(count: 1 << 20)
            var written = 0
            while written < count {
                let piece = min(chunk.count, count - written)
                try handle.write(contentsOf: chunk.prefix(piece))
                written += piece
            }
        }

        func unfill() { unlink(filler.path) }
    }

    /// A project with one sample tenant (sonic-walkscape: tours of MP3s), its Output/ on a small disk.
    final class Project {
        let root: URL
        let disk: SmallDisk
        let tenant = "sonic-walkscape"
        var output: URL { root.appendingPathComponent("Output") }
        /// The recording each change re-tags: its bytes as the sample has them.
        let recording = "tours/florence-renaissance/audio/en/01-duomo.mp3"
        private let original: Data
        private var changes = 0

        init(test: XCTestCase, size: String = "8m") throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("livery-diskfull-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: root.appendingPathComponent("Tenants"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: LiveryProcess.packageRoot.appendingPathComponent("Tenants/\(tenant)"),
                                             to: root.appendingPathComponent("Tenants/\(tenant)"))
            original = try Data(contentsOf: root.appendingPathComponent("Tenants/\(tenant)/\(recording)"))
            disk = try SmallDisk(at: root.appendingPathComponent("Output"), size: size, test: test)
            let root = self.root
            test.addTeardownBlock { try? FileManager.default.removeItem(at: root) }
        }

        func build(_ path: String = "Tenants") throws -> LiveryProcess.Output {
            try LiveryProcess.run(["build", path, "--output", "Output"], in: root)
        }

        /// Gives the recording an ID3v1 tag no release had (a new file: the output's objects may be hard links to it),
        /// so the next build makes a new release with one tour bundle rebuilt.
        func change() throws {
            changes += 1
            let audio = root.appendingPathComponent("Tenants/\(tenant)/\(recording)")
            unlink(audio.path)
            try (original + Data(("TAG" + "take \(changes)".padding(toLength: 125, withPad: " ", startingAt: 0)).utf8)).write(to: audio)
        }

        /// Every file of the tenant's published repository with its SHA-256 (Livery's private `.livery/` aside).
        func release() -> [String: String] { BuildTests.tree(output.appendingPathComponent(tenant)) }

        /// Every file of the project outside Output/ with its SHA-256.
        func outside() -> [String: String] {
            var files: [String: String] = [:]
            let base = root.standardizedFileURL.path
            let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])!
            for case let url as URL in walker {
                let relative = String(url.standardizedFileURL.path.dropFirst(base.count + 1))
                if relative == "Output" { walker.skipDescendants(); continue }
                guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true, let data = FileManager.default.contents(atPath: url.path) else { continue }
                files[relative] = SHA256.hash(data: data).hexString
            }
            return files
        }
    }

    // MARK: livery build on a full disk

    func testAFullDiskWhenTheBuildStoreOpensIsSaidNamingTheDatabaseAndTheReleaseStaysWhole() throws {
        let project = try Project(test: self)
        let first = try project.build()
        XCTAssertEqual(first.status, 0, first.stdout + first.stderr)
        try project.change()
        let release = project.release(), outside = project.outside()
        XCTAssertFalse(release.isEmpty)

        try project.disk.fill(leaving: 0)
        let failed = try project.build()
        XCTAssertEqual(failed.status, 2, failed.stdout + failed.stderr)
        // Today's words were "Error: disk I/O error in: PRAGMA journal_mode=WAL": SQLite's, with no file and no "no space".
        XCTAssertNotNil(failed.stderr.range(of: #"^Error: build failed: cannot write Output/\.livery/store/[a-z]+\.sqlite: no space left on the device \(SQLite: [^)]+\); nothing was published\n$"#,
                                            options: .regularExpression), failed.stderr)
        XCTAssertFalse(failed.stderr.contains(" in: "), "no SQL statement in the message: \(failed.stderr)")
        // A build of that one tenant names it.
        let one = try project.build("Tenants/\(project.tenant)")
        XCTAssertEqual(one.status, 2)
        XCTAssertTrue(one.stderr.hasPrefix("Error: build failed: sonic-walkscape: cannot write Output/.livery/store/"), one.stderr)
        // The channel commands publish through the same store: a rollback names the tenant and the file too.
        let rollback = try LiveryProcess.run(["rollback", project.tenant, "--to", "1", "--reason", "r", "--output", "Output"], in: project.root)
        XCTAssertEqual(rollback.status, 2, rollback.stdout + rollback.stderr)
        XCTAssertNotNil(rollback.stderr.range(of: #"^Error: sonic-walkscape: cannot write Output/\.livery/store/[a-z]+\.sqlite: no space left on the device \(SQLite: [^)]+\)\n$"#,
                                              options: .regularExpression), rollback.stderr)
        XCTAssertEqual(project.release(), release, "the previous release is byte for byte as it was")
        XCTAssertEqual(project.outside(), outside, "nothing was written outside Output/")

        // With room again, the same store builds and publishes the new release.
        project.disk.unfill()
        let again = try project.build()
        XCTAssertEqual(again.status, 0, again.stdout + again.stderr)
        XCTAssertTrue(again.stdout.contains("sonic-walkscape: published release 2"), again.stdout)
    }

    /// Builds with less and less room left, one new change each time, from none up to enough: every failure says "no
    /// space left on the device" in the documented form and leaves the release whole, and among them are a full SQLite
    /// store (when it opens, and at a COMMIT) and a bundle archive that does not fit.
    func testEveryWriteOfABuildThatRunsOutOfSpaceSaysSoAndLeavesTheReleaseWhole() throws {
        let project = try Project(test: self)
        XCTAssertEqual(try project.build().status, 0)
        var seen: [String] = []
        var step = 0
        var free = 0
        while true {
            step += 1
            XCTAssertLessThan(free, 2_000_000, "a rebuild of one changed tour never succeeded:\n" + seen.joined(separator: "\n"))
            guard free < 2_000_000 else { break }
            try project.change()
            let release = project.release(), outside = project.outside()
            try project.disk.fill(leaving: free)
            let output = try project.build()
            project.disk.unfill()
            let said = output.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
            seen.append("\(free / 1024) KiB free: " + (output.status == 0 ? "built" : said.replacingOccurrences(of: "\n", with: " ")))
            if output.status == 0 { break }
            XCTAssertEqual(output.status, 2, said)
            XCTAssertTrue(said.contains(": no space left on the device ("), said)
            XCTAssertFalse(said.contains(" in: "), said)
            if said.hasPrefix("Error: build failed: cannot write ") {
                XCTAssertTrue(said.hasSuffix("; nothing was published"), said)
            } else {
                XCTAssertTrue(said.hasPrefix("Error: build failed:\nsonic-walkscape: "), said)
            }
            if said.contains("is published, but its build record is not") {
                // The switch happened: the new release is live and whole, as the message says.
                XCTAssertNotEqual(project.release(), release)
                XCTAssertEqual(Set(project.outside().keys), Set(outside.keys))
            } else {
                XCTAssertEqual(project.release(), release, "step \(step), \(free) bytes free: the previous release changed\n\(said)")
                XCTAssertEqual(project.outside(), outside, "step \(step), \(free) bytes free: a file outside Output/ changed\n\(said)")
            }
            free += 16 * 1024
        }
        let log = seen.joined(separator: "\n")
        print("DiskFullBuildTests sweep:\n" + log)
        XCTAssertTrue(seen.contains { $0.contains("sqlite: no space left on the device (SQLite: disk I/O error); nothing was published") }, log)
        XCTAssertTrue(seen.contains { $0.contains("sonic-walkscape: cannot write the archive of bundle 'tour.florence-renaissance.en' (Output/.livery/store/tmp/") }, log)
        XCTAssertTrue(seen.contains { $0.contains("(SQLite: database or disk is full)") }, log)
        XCTAssertTrue(seen.last?.hasSuffix("built") == true, log)
    }

    // MARK: The SQLite wrapper

    func testSQLiteSaysNoSpaceNamingTheDatabaseWhenItCannotGrow() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livery-sqlite-full-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let disk = try SmallDisk(at: folder, size: "256k", test: self)
        let path = folder.appendingPathComponent("grows.sqlite").path
        let database = try SQLiteDatabase(path: path)
        try database.execute("CREATE TABLE rows (value BLOB)")
        var failure: WriteFailure?
        for _ in 0..<64 where failure == nil {
            do {
                try database.insert("INSERT INTO rows (value) VALUES (?)", rows: (0..<4).map { _ in [.blob([UInt8](repeating: 7, count: 16 * 1024))] })
            } catch let error as WriteFailure {
                failure = error
            }
        }
        let full = try XCTUnwrap(failure, "256 KiB never filled")
        XCTAssertEqual(full.kind, .noSpace)
        XCTAssertEqual(full.path, path)
        XCTAssertTrue(full.underlying.hasPrefix("SQLite: "), full.underlying)
        XCTAssertTrue(full.description.contains("\(path): no space left on the device (SQLite: "), full.description)
        // The rows written before stay readable, and a new database on the full disk cannot even open its WAL.
        XCTAssertGreaterThan(try database.query("SELECT count(*) FROM rows").first?.first?.int ?? 0, 0)
        try disk.fill(leaving: 0)
        XCTAssertThrowsError(try SQLiteDatabase(path: folder.appendingPathComponent("new.sqlite").path)) { error in
            XCTAssertEqual((error as? WriteFailure)?.kind, .noSpace, "\(error)")
            XCTAssertEqual((error as? WriteFailure)?.path, folder.appendingPathComponent("new.sqlite").path)
        }
    }

    func testSQLiteResultCodesMapToWriteFailures() {
        func kind(_ status: Int32, _ system: Int32) -> WriteFailure.Kind? {
            SQLiteDatabase.writeFailure(status, systemErrno: system, message: "m", path: "/p")?.kind
        }
        // SQLITE_FULL (13); SQLITE_IOERR (10) and its extended codes (SQLITE_IOERR_WRITE 778, _FSYNC 1034, _SHMSIZE 4874).
        XCTAssertEqual(kind(13, 0), .noSpace)
        XCTAssertEqual(kind(778, ENOSPC), .noSpace)
        XCTAssertEqual(kind(4874, ENOSPC), .noSpace)
        XCTAssertEqual(kind(778, EDQUOT), .quota)
        XCTAssertEqual(kind(1034, EIO), .io)
        XCTAssertEqual(kind(10, 0), .io)
        // SQLITE_CANTOPEN (14) only for want of space or quota; SQLITE_CONSTRAINT (19), SQLITE_BUSY (5) are not write failures.
        XCTAssertEqual(kind(14, ENOSPC), .noSpace)
        XCTAssertNil(kind(14, ENOENT))
        XCTAssertNil(kind(19, 0))
        XCTAssertNil(kind(5, 0))
    }

    // MARK: Other writers on a full disk

    func testFileWritersAndTheKeyStoreAndTheVoucherDatabaseSayNoSpace() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livery-full-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        let disk = try SmallDisk(at: folder, size: "1m", test: self)
        let source = FileManager.default.temporaryDirectory.appendingPathComponent("livery-full-source-\(UUID().uuidString)")
        try Data(count: 64 * 1024).write(to: source)
        defer { unlink(source.path) }
        // A voucher database made while there was room, then the disk fills.
        let vouchers = try VoucherStore(path: folder.appendingPathComponent("vouchers.sqlite").path)
        try disk.fill(leaving: 0)

        // Foundation's copy, as the content store and the publisher make it across file systems.
        let copy = folder.appendingPathComponent("copy")
        XCTAssertThrowsError(try WriteFailure.writing(copy.path) { try FileManager.default.copyItem(at: source, to: copy) }) { error in
            XCTAssertEqual((error as? WriteFailure)?.kind, .noSpace, "\(error)")
        }
        XCTAssertThrowsError(try FileWriting.createNew(Data(count: 8192), at: folder.appendingPathComponent("new").path, mode: 0o644)) { error in
            XCTAssertEqual((error as? WriteFailure)?.description, "cannot write \(folder.path)/new: no space left on the device (ENOSPC)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("new").path), "no half-written file is left")

        // A tenant's development keys: none is left half made.
        let keys = KeyStore(root: folder.appendingPathComponent("keys"))
        XCTAssertThrowsError(try keys.keys(for: "t", create: true, warn: { _ in })) { error in
            let failure = error as? WriteFailure
            XCTAssertEqual(failure?.kind, .noSpace, "\(error)")
            XCTAssertTrue(failure?.path.hasPrefix(folder.appendingPathComponent("keys/t/").path) == true, "\(error)")
        }
        let left = (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("keys/t").path)) ?? []
        XCTAssertEqual(left.filter { $0.hasSuffix(".key") }, [], "no key file of a half-made set")

        // The voucher database (livery serve, livery vouchers).
        XCTAssertThrowsError(try vouchers.issue(tenant: "t", subject: VoucherSubject(.tour, "walk"), count: 50, devices: 1, expires: nil)) { error in
            let failure = error as? WriteFailure
            XCTAssertEqual(failure?.kind, .noSpace, "\(error)")
            XCTAssertEqual(failure?.path, folder.appendingPathComponent("vouchers.sqlite").path)
        }

        // With room again, the next attempt makes the whole set of development keys.
        disk.unfill()
        let made = try keys.keys(for: "t", create: true, warn: { _ in })
        XCTAssertEqual(Set(made.signers.keys), Set(TUFRole.allCases))
    }

    func testAWriteFailureSaysWhatWasWrittenRelativeToTheProject() {
        let here = FileManager.default.currentDirectoryPath
        let failure = WriteFailure(errno: ENOSPC, path: here + "/Output/.livery/store/objects.sqlite")
        XCTAssertEqual(failure.description, "cannot write Output/.livery/store/objects.sqlite: no space left on the device (ENOSPC)")
        XCTAssertEqual(WriteFailure(errno: EDQUOT, path: "/elsewhere/f").about("the archive of bundle 'core'").description,
                       "cannot write the archive of bundle 'core' (/elsewhere/f): the disk quota is exceeded (EDQUOT)")
        XCTAssertEqual(WriteFailure(errno: EIO, path: "/elsewhere/f").description, "cannot write /elsewhere/f: an I/O error on the device (EIO)")
        XCTAssertNil(WriteFailure.storage(errno: EACCES, path: "/f"))
        XCTAssertEqual(WriteFailure(CocoaError(.fileWriteOutOfSpace), path: "/f")?.kind, .noSpace)
        XCTAssertEqual(WriteFailure(NSError(domain: NSCocoaErrorDomain, code: CocoaError.fileWriteUnknown.rawValue,
                                            userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(EIO))]), path: "/f")?.kind, .io)
        XCTAssertNil(WriteFailure(CocoaError(.fileNoSuchFile), path: "/f"))
    }
}
