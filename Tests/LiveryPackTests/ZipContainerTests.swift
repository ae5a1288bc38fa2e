import Foundation
@testable import LiveryPack
import LiveryReleaseFormat
import LiveryStorage
import LiveryTestSupport
import XCTest

/// The zip writer (`ZipContainer`, through `ArchiveWriter`) read back by independent readers: bsdtar (libarchive),
/// Info-ZIP's `unzip -t` and Python's `zipfile`, and by the release format's own central-directory reader.
final class ZipContainerTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("livery-zipwriter-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Bytes that deflate (repeated text) or do not (a seeded pseudo-random sequence), `count` long.
    private func bytes(_ count: Int, text: Bool, seed: UInt64 = 7) -> Data {
        if text {
            let line = Array("key.\(seed): \"a message with {count, plural, one {# item} other {# items}}\"\n".utf8)
            return Data((0..<count).map { line[$0 % line.count] })
        }
        var generator = SeededGenerator(seed: seed)
        return Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    private struct Case {
        var path: String
        var data: Data
        var compress: Bool
        var fromFile: Bool
    }

    /// One of each kind of entry: in memory and from a file, deflated and stored, empty, a non-ASCII name, and files past
    /// the whole-file limit (streamed, with a data descriptor).
    private func cases() -> [Case] {
        let limit = ZipContainer.wholeFileLimit
        return [
            Case(path: "a/empty.txt", data: Data(), compress: true, fromFile: false),
            Case(path: "a/messages.json", data: bytes(200_000, text: true), compress: true, fromFile: false),
            Case(path: "a/noise.bin", data: bytes(70_000, text: false), compress: false, fromFile: false),
            Case(path: "b/café/Ελληνικά.txt", data: bytes(1_000, text: true, seed: 3), compress: true, fromFile: false),
            Case(path: "c/small-file.txt", data: bytes(30_000, text: true, seed: 4), compress: true, fromFile: true),
            Case(path: "c/small-file.mp3", data: bytes(30_000, text: false, seed: 5), compress: false, fromFile: true),
            Case(path: "c/empty-file.txt", data: Data(), compress: true, fromFile: true),
            Case(path: "d/long.wav", data: bytes(limit + 300_001, text: true, seed: 6), compress: true, fromFile: true),
            Case(path: "d/long.mp4", data: bytes(limit + 1, text: false, seed: 8), compress: false, fromFile: true),
        ]
    }

    /// Writes `cases` into `name` with `ArchiveWriter` (or a `ZipContainer` with the given Zip64 threshold); returns the archive.
    private func write(_ cases: [Case], name: String, zip64Threshold: UInt64? = nil) throws -> URL {
        let sources = folder.appendingPathComponent("sources-\(name)")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        let archive = folder.appendingPathComponent(name)
        func file(_ index: Int, _ item: Case) throws -> URL {
            let url = sources.appendingPathComponent("\(index)")
            try item.data.write(to: url)
            return url
        }
        if let zip64Threshold {
            var out = Data()
            let zip = try ZipContainer(mtime: ArchiveWriter.entryTimestamp, zip64Threshold: zip64Threshold) { out.append(contentsOf: $0) }
            for (index, item) in cases.enumerated() {
                if item.fromFile {
                    try zip.add(item.path, file: try file(index, item), size: item.data.count, compress: item.compress)
                } else {
                    try item.data.withUnsafeBytes { try zip.add(item.path, bytes: $0, compress: item.compress) }
                }
            }
            try zip.finish()
            try out.write(to: archive)
            return archive
        }
        let writer = try ArchiveWriter(writingTo: archive, format: .zip)
        for (index, item) in cases.enumerated() {
            if item.fromFile {
                try writer.add(item.path, file: try file(index, item), size: item.data.count, compress: item.compress)
            } else {
                try writer.add(item.path, data: item.data, compress: item.compress)
            }
        }
        let (sha256, size) = try writer.finish()
        let written = try Data(contentsOf: archive)
        XCTAssertEqual(size, written.count)
        XCTAssertEqual(sha256, FileDigest.sha256(of: written), "the digest is of the bytes written")
        return archive
    }

    /// Every reader finds exactly `cases`, byte for byte, with the method asked for and a regular file's mode and the build's time.
    private func assertReadable(_ archive: URL, _ cases: [Case], zip64: Bool, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(try LiveryProcess.tool(["unzip", "-tq", archive.path]).status, 0, "unzip -t", file: file, line: line)
        let extracted = folder.appendingPathComponent("bsdtar-\(archive.lastPathComponent)")
        try FileManager.default.createDirectory(at: extracted, withIntermediateDirectories: true)
        let bsdtar = try LiveryProcess.tool(["bsdtar", "-xf", archive.path, "-C", extracted.path])
        XCTAssertEqual(bsdtar.status, 0, bsdtar.stderr, file: file, line: line)
        for item in cases {
            XCTAssertEqual(try Data(contentsOf: extracted.appendingPathComponent(item.path)), item.data, "bsdtar: \(item.path)", file: file, line: line)
        }
        // Python's zipfile: names, bytes (CRC-checked as read), methods, modes and times.
        let expected = folder.appendingPathComponent("expected-\(archive.lastPathComponent).json")
        let listing = cases.map { ["path": $0.path, "sha256": FileDigest.sha256(of: $0.data), "method": $0.compress ? 8 : 0] as [String: Any] }
        try JSONSerialization.data(withJSONObject: listing).write(to: expected)
        let python = try LiveryProcess.tool(["python3", "-c", """
            import sys, json, zipfile, hashlib
            expected = json.load(open(sys.argv[2]))
            with zipfile.ZipFile(sys.argv[1]) as z:
                assert z.testzip() is None
                infos = z.infolist()
                assert [i.filename for i in infos] == [e["path"] for e in expected], [i.filename for i in infos]
                for info, e in zip(infos, expected):
                    assert hashlib.sha256(z.read(info)).hexdigest() == e["sha256"], info.filename
                    assert info.compress_type == e["method"], (info.filename, info.compress_type)
                    assert info.external_attr >> 16 == 0o100644, oct(info.external_attr >> 16)
                    assert info.create_system == 3, info.create_system
                    assert info.date_time == (2020, 1, 1, 0, 0, 0), info.date_time
                    assert (info.extra != b"") == (sys.argv[3] == "zip64"), (info.filename, info.extra)
            """, archive.path, expected.path, zip64 ? "zip64" : "plain"])
        XCTAssertEqual(python.status, 0, python.stderr, file: file, line: line)
        // The release format's reader (the builder's file indexes and the clients' extraction use it).
        let data = try Data(contentsOf: archive)
        let directory = try ZipCentralDirectory(archive: data, name: archive.lastPathComponent, maxEntries: 100)
        XCTAssertEqual(directory.records.map { String(decoding: $0.name, as: UTF8.self) }, cases.map(\.path), file: file, line: line)
        for (record, item) in zip(directory.records, cases) {
            XCTAssertEqual(record.uncompressedSize, UInt64(item.data.count), item.path, file: file, line: line)
            XCTAssertEqual(record.method, item.compress ? 8 : 0, item.path, file: file, line: line)
            XCTAssertEqual(record.unixType, 0o100000, item.path, file: file, line: line)
            XCTAssertFalse(record.isEncrypted, file: file, line: line)
        }
    }

    func testEveryReaderReadsEveryKindOfEntry() throws {
        let cases = cases()
        let archive = try write(cases, name: "kinds.zip")
        try assertReadable(archive, cases, zip64: false)
        // Deflated entries are smaller; stored ones are their bytes; a file past the whole-file limit has a data descriptor.
        let directory = try ZipCentralDirectory(archive: try Data(contentsOf: archive), name: "kinds.zip", maxEntries: 100)
        let byName = Dictionary(uniqueKeysWithValues: directory.records.map { (String(decoding: $0.name, as: UTF8.self), $0) })
        XCTAssertLessThan(byName["a/messages.json"]!.compressedSize, 20_000)
        XCTAssertEqual(byName["a/noise.bin"]!.compressedSize, 70_000)
        XCTAssertEqual(byName["d/long.wav"]!.flags & 0x0008, 0x0008, "a streamed file's sizes follow its data")
        XCTAssertEqual(byName["c/small-file.txt"]!.flags & 0x0008, 0, "a file read whole has its sizes in its local header")
        XCTAssertLessThan(byName["d/long.wav"]!.compressedSize, UInt64(ZipContainer.wholeFileLimit / 10))
    }

    /// Zip64 records, forced on a small archive by a threshold of 0: every entry's sizes and offset in its extra field, and the
    /// Zip64 end record and locator, read by every reader.
    func testZip64RecordsAreReadByEveryReader() throws {
        let cases = cases()
        let archive = try write(cases, name: "zip64.zip", zip64Threshold: 0)
        try assertReadable(archive, cases, zip64: true)
        let data = try Data(contentsOf: archive)
        XCTAssertNotNil(data.range(of: Data([0x50, 0x4B, 0x06, 0x06])), "the Zip64 end record")
        XCTAssertNotNil(data.range(of: Data([0x50, 0x4B, 0x06, 0x07])), "its locator")
    }

    func testTheSameEntriesGiveTheSameBytesInAnyTimeZone() throws {
        let cases = cases()
        let first = try Data(contentsOf: try write(cases, name: "first.zip"))
        let zone = getenv("TZ").map { String(cString: $0) }
        setenv("TZ", "Pacific/Kiritimati", 1)
        tzset()
        defer {
            if let zone { setenv("TZ", zone, 1) } else { unsetenv("TZ") }
            tzset()
        }
        let second = try Data(contentsOf: try write(cases, name: "second.zip"))
        XCTAssertEqual(first, second)
    }

    func testADOSTimestampIsInUTC() {
        let (time, date) = ZipContainer.dosTimestamp(1_577_836_800 + 13 * 3600 + 37 * 60 + 31)  // 2020-01-01T13:37:31Z
        XCTAssertEqual(date, UInt16(40 << 9 | 1 << 5 | 1))
        XCTAssertEqual(time, UInt16(13 << 11 | 37 << 5 | 15))
    }

    /// A file whose length is not the one the plan measured (changed while the build ran) fails the archive, read whole or streamed.
    func testAFileThatChangedSizeIsRefused() throws {
        for (size, name) in [(1_000, "small"), (ZipContainer.wholeFileLimit + 10, "long")] {
            let source = folder.appendingPathComponent(name)
            try bytes(size, text: true).write(to: source)
            for claimed in [size - 1, size + 1] {
                let writer = try ArchiveWriter(writingTo: folder.appendingPathComponent("\(name)-\(claimed).zip"), format: .zip)
                XCTAssertThrowsError(try writer.add("x", file: source, size: claimed, compress: true)) { error in
                    XCTAssertTrue("\(error)".contains("changed size while being archived"), "\(error)")
                }
            }
        }
    }
}
