import Foundation
import LiveryClient
import LiveryTestSupport
import XCTest

/// The zip path of `ArchiveExtractor` (ZIPFoundation, on every platform) and the tar.zst path (libarchive, on
/// Linux) against hostile archives made by Python's `zipfile` and `tarfile` (and bsdtar for zstd), byte-patched
/// where a writer refuses to make the hostile thing. FetchTests holds the first hostile cases (zip-slip,
/// absolute paths, links, duplicates, bombs, 100,001 entries); these pin the rest of the rules.
final class ZipExtractionTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("livery-zip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs Python with `path` (the archive to write) as `sys.argv[1]`, and `zipfile`, `tarfile` and a `patch(path, old, new)` helper imported.
    private func python(_ body: String, name: String = "bundle.zip") throws -> URL {
        let archive = folder.appendingPathComponent(name)
        let script = """
            import sys, zipfile, tarfile, io, struct
            path = sys.argv[1]
            def patch(old, new, count=-1):
                data = open(path, 'rb').read()
                assert old in data, old
                open(path, 'wb').write(data.replace(old, new, count))
            \(body)
            """
        let result = try LiveryProcess.tool(["python3", "-c", script, archive.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        return archive
    }

    /// Extracts on another thread, so that a hang fails the test instead of stopping the suite.
    private func extract(_ archive: URL, limits: ArchiveExtractor.Limits = ArchiveExtractor.Limits(), timeout: TimeInterval = 30) throws -> [String] {
        let destination = folder.appendingPathComponent("out-\(UUID().uuidString)")
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var outcome: Result<[String], Error>?
        Thread.detachNewThread {
            outcome = Result { try ArchiveExtractor.extract(archive, into: destination, limits: limits) }
            done.signal()
        }
        guard done.wait(timeout: .now() + timeout) == .success, let outcome else {
            XCTFail("extraction of \(archive.lastPathComponent) did not finish within \(timeout) s")
            return []
        }
        return try outcome.get()
    }

    private func assertRefused(_ archive: URL, _ phrase: String, limits: ArchiveExtractor.Limits = ArchiveExtractor.Limits(),
                               file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try extract(archive, limits: limits), file: file, line: line) { error in
            XCTAssertTrue("\(error)".contains(phrase), "\(error)", file: file, line: line)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.deletingLastPathComponent().appendingPathComponent("evil").path), file: file, line: line)
    }

    func testBackslashNamesAreRefused() throws {
        assertRefused(try python("with zipfile.ZipFile(path, 'w') as z: z.writestr('dir\\\\..\\\\..\\\\evil', 'x')"), "absolute or unsafe path")
    }

    func testFIFOAndDeviceEntriesAreRefusedAlthoughZIPFoundationCallsThemFiles() throws {
        for (kind, mode) in [("fifo", "0o010644"), ("character device", "0o020644"), ("block device", "0o060644"), ("socket", "0o140644")] {
            let archive = try python("""
                with zipfile.ZipFile(path, 'w') as z:
                    info = zipfile.ZipInfo('special'); info.create_system = 3; info.external_attr = \(mode) << 16
                    z.writestr(info, '')
                """)
            XCTAssertThrowsError(try extract(archive), kind) { XCTAssertTrue("\($0)".contains("not a regular file"), "\(kind): \($0)") }
        }
        // The same mode bits from an MS-DOS host mean nothing: an ordinary file.
        let dos = try python("""
            with zipfile.ZipFile(path, 'w') as z:
                info = zipfile.ZipInfo('plain.txt'); info.create_system = 0; info.external_attr = 0o010644 << 16
                z.writestr(info, 'text')
            """)
        XCTAssertEqual(try extract(dos), ["plain.txt"])
    }

    func testASymlinkEntryIsRefusedWithoutFollowingIt() throws {
        let archive = try python("""
            with zipfile.ZipFile(path, 'w') as z:
                info = zipfile.ZipInfo('inside'); info.create_system = 3; info.external_attr = 0o120777 << 16
                z.writestr(info, 'notes')
                z.writestr('notes', 'written through the link?')
            """)
        assertRefused(archive, "not a regular file")
    }

    func testTheEntryCapIsReadFromTheEndRecordBeforeAnythingIsWritten() throws {
        let archive = try python("with zipfile.ZipFile(path, 'w') as z: [z.writestr(f'f{i}', 'x') for i in range(5)]")
        var limits = ArchiveExtractor.Limits()
        limits.maxEntries = 4
        assertRefused(archive, "more than 4 entries", limits: limits)
        limits.maxEntries = 5
        XCTAssertEqual(try extract(archive, limits: limits).count, 5)
    }

    func testTheByteCapCountsBytesActuallyRead() throws {
        // Stored, so the ratio cap does not apply; the sizes in the headers are left honest.
        let archive = try python("with zipfile.ZipFile(path, 'w') as z: z.writestr('a.bin', bytes(3000)); z.writestr('b.bin', bytes(3000))")
        var limits = ArchiveExtractor.Limits()
        limits.maxBytes = 5000
        assertRefused(archive, "expands to more than 5000 bytes", limits: limits)
        limits.maxBytes = 6000
        XCTAssertEqual(try extract(archive, limits: limits).sorted(), ["a.bin", "b.bin"])
    }

    func testTheRatioCapHoldsWhenTheHeadersUnderstateTheSize() throws {
        // 20 MiB of zeros deflate to about 20 KB; the headers claim 100 bytes, so only the bytes inflated count.
        let archive = try python("""
            with zipfile.ZipFile(path, 'w', zipfile.ZIP_DEFLATED) as z: z.writestr('zeros.bin', bytes(20 << 20))
            patch(struct.pack('<I', 20 << 20), struct.pack('<I', 100))
            """)
        assertRefused(archive, "is longer than the 100 bytes it declares")
        let honest = try python("with zipfile.ZipFile(path, 'w', zipfile.ZIP_DEFLATED) as z: z.writestr('zeros.bin', bytes(20 << 20))", name: "honest.zip")
        assertRefused(honest, "compression bomb")
    }

    func testADeflateStreamThatDoesNotEndWithinItsEntryIsRefusedNotLoopedOn() throws {
        // A stored deflate block that claims 65,535 bytes and holds 3: ZIPFoundation's own Linux reader
        // would read the central directory as data and then ask for input past the end of the file for ever.
        for declared in [100, 1_000_000] {
            let archive = try python("""
                with zipfile.ZipFile(path, 'w') as z: z.writestr('cut.bin', b'\\x00\\xff\\xff\\x00\\x00abc')
                data = bytearray(open(path, 'rb').read())
                for signature, method_at, size_at in ((b'PK\\x03\\x04', 8, 22), (b'PK\\x01\\x02', 10, 24)):
                    at = data.index(signature)
                    data[at + method_at:at + method_at + 2] = struct.pack('<H', 8)
                    data[at + size_at:at + size_at + 4] = struct.pack('<I', \(declared))
                open(path, 'wb').write(data)
                """)
            XCTAssertThrowsError(try extract(archive, timeout: 30), "declared \(declared)") { error in
                XCTAssertTrue("\(error)".contains("does not end within its 8 bytes") || "\(error)".contains("is longer than the"), "\(error)")
            }
        }
    }

    func testACorruptedEntryIsRefusedByItsCRC() throws {
        let archive = try python("""
            with zipfile.ZipFile(path, 'w') as z: z.writestr('a.txt', 'hello, world')
            patch(b'hello, world', b'HELLO, world')
            """)
        assertRefused(archive, "does not match its CRC-32")
    }

    func testAnEncryptedEntryIsRefusedRatherThanSkipped() throws {
        // ZIPFoundation's iterator stops at an encrypted entry without a word; the end record's count catches it.
        let archive = try python("""
            with zipfile.ZipFile(path, 'w') as z: z.writestr('a.txt', 'one'); z.writestr('b.txt', 'two'); z.writestr('c.txt', 'three')
            data = bytearray(open(path, 'rb').read())
            at = data.index(b'PK\\x01\\x02', data.index(b'PK\\x01\\x02') + 4)
            data[at + 8] |= 1
            open(path, 'wb').write(data)
            """)
        assertRefused(archive, "an encrypted entry")
    }

    func testAnEndRecordClaimingAHugeCentralDirectoryIsRefusedUnread() throws {
        // 65 MiB of data, and an end record that says the central directory is all of it.
        let archive = try python("""
            with zipfile.ZipFile(path, 'w') as z: z.writestr('big.bin', bytes(65 << 20))
            data = bytearray(open(path, 'rb').read())
            end = data.rindex(b'PK\\x05\\x06')
            data[end + 12:end + 20] = struct.pack('<II', end, 0)
            open(path, 'wb').write(data)
            """)
        assertRefused(archive, "bytes (at most \(64 << 20))")
    }

    func testATruncatedZipIsRefused() throws {
        let archive = try python("""
            with zipfile.ZipFile(path, 'w', zipfile.ZIP_DEFLATED) as z: z.writestr('a.txt', 'some text ' * 1000)
            data = open(path, 'rb').read()
            open(path, 'wb').write(data[:len(data) // 2])
            """)
        XCTAssertThrowsError(try extract(archive))
    }

    func testDataDescriptorsAndZip64LocalHeadersExtract() throws {
        // Python writes zip64 local headers and descriptors for force_zip64, and data descriptors when the output cannot seek.
        let archive = try python("""
            buffer = io.BytesIO()
            class Unseekable(io.RawIOBase):
                def writable(self): return True
                def write(self, b): return buffer.write(b)
            with zipfile.ZipFile(Unseekable(), 'w', zipfile.ZIP_DEFLATED) as z:
                with z.open('big/one.txt', 'w', force_zip64=True) as f: f.write(b'zip64 ' * 1000)
                z.writestr('two.txt', 'plain')
            open(path, 'wb').write(buffer.getvalue())
            """)
        let files = try extract(archive)
        XCTAssertEqual(files.sorted(), ["big/one.txt", "two.txt"])
        let unzip = try LiveryProcess.tool(["unzip", "-t", archive.path])
        XCTAssertEqual(unzip.status, 0, "unzip agrees the archive is sound: \(unzip.stdout)")
    }

    func testNeitherZipNorTarZstdIsRefused() throws {
        let archive = folder.appendingPathComponent("bundle.tar")
        try Data("not an archive".utf8).write(to: archive)
        assertRefused(archive, "neither a zip nor a tar.zst archive")
    }

    // MARK: tar.zst, with libarchive (Linux)

    /// A tar.zst made by Python's tarfile (which writes hostile names as asked) and bsdtar's zstd filter.
    private func tarZstd(_ body: String) throws -> URL {
        let tar = try python("with tarfile.open(path, 'w', format=tarfile.PAX_FORMAT) as t:\n    " + body, name: "bundle.tar")
        let archive = folder.appendingPathComponent("bundle.tar.zst")
        let result = try LiveryProcess.tool(["bsdtar", "-P", "--zstd", "-cf", archive.path, "@" + tar.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        return archive
    }

    func testTarZstdFollowsTheSameRules() throws {
        let file = "info = tarfile.TarInfo(NAME); data = b'content'; info.size = len(data); t.addfile(info, io.BytesIO(data))"
        XCTAssertEqual(try extract(try tarZstd(file.replacingOccurrences(of: "NAME", with: "'dir/a.txt'"))), ["dir/a.txt"])
        assertRefused(try tarZstd(file.replacingOccurrences(of: "NAME", with: "'../evil'")), "climbs out")
        assertRefused(try tarZstd(file.replacingOccurrences(of: "NAME", with: "'/tmp/evil'")), "absolute or unsafe path")
        assertRefused(try tarZstd("info = tarfile.TarInfo('link'); info.type = tarfile.SYMTYPE; info.linkname = '/etc'; t.addfile(info)"), "not a regular file")
        assertRefused(try tarZstd("info = tarfile.TarInfo('fifo'); info.type = tarfile.FIFOTYPE; t.addfile(info)"), "not a regular file")
        var limits = ArchiveExtractor.Limits()
        limits.maxEntries = 2
        assertRefused(try tarZstd("[t.addfile(tarfile.TarInfo(f'f{i}'), io.BytesIO(b'')) for i in range(3)]"), "more than 2 entries", limits: limits)
    }
}
