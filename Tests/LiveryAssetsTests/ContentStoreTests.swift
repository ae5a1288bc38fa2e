import Foundation
import LiveryTestSupport
@testable import LiveryAssets
import LiveryLoad
import LiveryStorage
import XCTest

final class ContentStoreTests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("livery-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("a"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("b"), withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    private func file(_ path: String, _ text: String, age: TimeInterval = 86_400) throws -> URL {
        let url = root.appendingPathComponent(path)
        try Data(text.utf8).write(to: url)
        try FileManager.default.setAttributes([.modificationDate: Date.wholeSecondsAgo(age)], ofItemAtPath: url.path)
        return url
    }

    private func objectCount(_ store: ContentStore) -> Int {
        let objects = store.root.appendingPathComponent("objects")
        return ((try? FileManager.default.subpathsOfDirectory(atPath: objects.path)) ?? []).filter { $0.count > 3 }.count
    }

    func testIdenticalFilesOfTwoTenantsAreStoredOnce() throws {
        let store = try ContentStore(root: root.appendingPathComponent("store"))
        let first = try store.ingest(try file("a/logo.png", "same bytes"))
        let second = try store.ingest(try file("b/icon.png", "same bytes"))
        XCTAssertEqual(first.sha256, second.sha256)
        XCTAssertEqual(first.url, second.url)
        XCTAssertEqual(objectCount(store), 1)
        XCTAssertEqual(try String(contentsOf: first.url, encoding: .utf8), "same bytes")
    }

    func testAFileModifiedJustBeforeItWasCachedIsHashedAgain() throws {
        // Within the racy window a later edit could keep the same mtime: the cache must not trust it.
        let url = try file("a/fresh.txt", "fresh", age: 0)
        let first = try ContentStore(root: root.appendingPathComponent("store"))
        _ = try first.ingest(url)
        try first.flush()
        let second = try ContentStore(root: root.appendingPathComponent("store"))
        _ = try second.ingest(url)
        XCTAssertEqual(second.filesHashed, 1)
    }

    func testUnchangedFileIsNotReadAgainByTheNextBuild() throws {
        let url = try file("a/audio.mp3", "audio bytes")
        let firstBuild = try ContentStore(root: root.appendingPathComponent("store"))
        let stored = try firstBuild.ingest(url)
        try firstBuild.flush()
        // (What a build does once its flush of the file system has returned: `ReleaseBuilder`.)
        try firstBuild.markDurable()
        XCTAssertEqual(firstBuild.filesHashed, 1)
        let nextBuild = try ContentStore(root: root.appendingPathComponent("store"))
        XCTAssertEqual(try nextBuild.ingest(url), stored)
        XCTAssertEqual(nextBuild.filesHashed, 0, "answered from the stat cache")
    }

    func testAFileEditedInPlaceIsHashedAgainAndItsOldObjectIsNotTrusted() throws {
        let url = try file("a/route.gpx", "first version")
        let store = try ContentStore(root: root.appendingPathComponent("store"))
        let before = try store.ingest(url)
        try store.flush()
        // Same inode, new bytes: the object is a hard link to this inode, so it changed too.
        let handle = try FileHandle(forWritingTo: url)
        try handle.write(contentsOf: Data("second version".utf8))
        try handle.close()
        let next = try ContentStore(root: root.appendingPathComponent("store"))
        XCTAssertFalse(next.isIntact(before.sha256), "the edited object must not be used as the old content")
        let after = try next.ingest(url)
        XCTAssertNotEqual(after.sha256, before.sha256)
        XCTAssertEqual(next.filesHashed, 1)
        XCTAssertEqual(try String(contentsOf: after.url, encoding: .utf8), "second version")
    }

    func testAFileReplacedByAnEditorLeavesTheOldObjectIntact() throws {
        let url = try file("a/cover.jpg", "old picture")
        let store = try ContentStore(root: root.appendingPathComponent("store"))
        let before = try store.ingest(url)
        try store.flush()
        // Editors usually write a new file and rename it over the old one: a new inode.
        _ = try file("a/cover.jpg.tmp", "new picture")
        XCTAssertEqual(rename(root.appendingPathComponent("a/cover.jpg.tmp").path, url.path), 0)
        let next = try ContentStore(root: root.appendingPathComponent("store"))
        XCTAssertTrue(next.isIntact(before.sha256))
        XCTAssertEqual(try String(contentsOf: before.url, encoding: .utf8), "old picture")
        XCTAssertNotEqual(try next.ingest(url).sha256, before.sha256)
    }

    func testAStampRecordedByABuildThatNeverFlushedIsNotTrusted() throws {
        // A build records the object's stamp, then the power fails before its flush: SQLite may have put the row
        // on disk while the file's bytes (a tenant file written just before the build, or the store's copy of it)
        // had not, and come back with the same size, mtime and inode and other bytes. The next build must hash
        // the file again, not take the recorded digest for it.
        let url = try file("a/track.mp3", "track bytes")
        let cutOff = try ContentStore(root: root.appendingPathComponent("store"))
        let before = try cutOff.ingest(url)
        try cutOff.flush()
        let stamp = try XCTUnwrap(FileStamp(path: url.path))
        let lost = Data(repeating: 0, count: Int(stamp.size))
        let handle = try FileHandle(forWritingTo: url)
        try handle.write(contentsOf: lost)
        try handle.close()
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: TimeInterval(stamp.mtimeNanoseconds) / 1e9)], ofItemAtPath: url.path)
        let after = try XCTUnwrap(FileStamp(path: url.path))
        XCTAssertEqual([after.size, after.mtimeNanoseconds, after.inode], [stamp.size, stamp.mtimeNanoseconds, stamp.inode], "the stamp survived")

        let next = try ContentStore(root: root.appendingPathComponent("store"))
        let stored = try next.ingest(url)
        XCTAssertEqual(next.filesHashed, 1)
        XCTAssertNotEqual(stored.sha256, before.sha256)
        XCTAssertEqual(stored.sha256, FileDigest.sha256(of: lost))
        XCTAssertEqual(try FileDigest.sha256(of: stored.url).digest, stored.sha256, "the object holds the bytes its name says")
        // Recorded again by that build, whose flush completes: the build after it trusts the stamp.
        try next.flush()
        try next.markDurable()
        let third = try ContentStore(root: root.appendingPathComponent("store"))
        XCTAssertEqual(try third.ingest(url), stored)
        XCTAssertEqual(third.filesHashed, 0)
    }

    /// A file as `BundleBuilder` hands it to `adopt`: written into the store's `tmp/`.
    private func temporary(_ store: ContentStore, _ data: Data) throws -> URL {
        let url = store.temporaryFile()
        try data.write(to: url)
        return url
    }

    func testAdoptReplacesAnObjectOfTheRightSizeWhoseBytesAreWrong() throws {
        // A bundle archive written by a build that lost power before its flush: the object came back with
        // its full size and zeros for bytes. The next build, writing the same archive, must not keep it.
        let data = Data("PK archive bytes of a bundle".utf8)
        let digest = FileDigest.sha256(of: data)
        let cutOff = try ContentStore(root: root.appendingPathComponent("store"))
        let object = try cutOff.adopt(try temporary(cutOff, data), sha256: digest)
        XCTAssertEqual(try Data(contentsOf: object), data)
        try FileManager.default.removeItem(at: object)
        try Data(repeating: 0, count: data.count).write(to: object)

        let next = try ContentStore(root: root.appendingPathComponent("store"))
        let written = try temporary(next, data)
        XCTAssertEqual(try next.adopt(written, sha256: digest), object)
        XCTAssertEqual(try Data(contentsOf: object), data)
        XCTAssertEqual(try FileDigest.sha256(of: object).digest, digest)
        XCTAssertEqual((try FileManager.default.attributesOfItem(atPath: object.path)[.posixPermissions] as? NSNumber)?.intValue, 0o444)
    }

    func testAdoptKeepsAnIntactObjectAndItsInode() throws {
        // An object with exactly the bytes is kept as it is (releases hard-link it: replacing it would store the bytes twice).
        let data = Data("PK another archive".utf8)
        let digest = FileDigest.sha256(of: data)
        let first = try ContentStore(root: root.appendingPathComponent("store"))
        let object = try first.adopt(try temporary(first, data), sha256: digest)
        let inode = try XCTUnwrap(FileStamp(path: object.path)?.inode)
        let next = try ContentStore(root: root.appendingPathComponent("store"))
        let written = try temporary(next, data)
        XCTAssertEqual(try next.adopt(written, sha256: digest), object)
        XCTAssertEqual(FileStamp(path: object.path)?.inode, inode)
        // Same size, different bytes from the first block on, or only in the last byte: not the same file.
        var other = data
        other[other.count - 1] ^= 0x01
        let otherFile = try temporary(next, other)
        XCTAssertFalse(ContentStore.sameBytes(object.path, otherFile.path, size: data.count))
        XCTAssertTrue(ContentStore.sameBytes(object.path, written.path, size: data.count))
        // Blocks smaller than the files (a size that stat said before a file grew): compared block by block all the same.
        XCTAssertFalse(ContentStore.sameBytes(object.path, otherFile.path, size: 2))
        XCTAssertTrue(ContentStore.sameBytes(object.path, written.path, size: 2))
        let longer = try temporary(next, data + Data("more".utf8))
        XCTAssertFalse(ContentStore.sameBytes(object.path, longer.path, size: data.count), "a longer file with the same start")
    }

    private func fanOutFolders(_ store: ContentStore) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: store.root.appendingPathComponent("objects").path)) ?? []).sorted()
    }

    func testAFreshStoreMakesAFanOutFolderOnlyWhenAnObjectNeedsIt() throws {
        let store = try ContentStore(root: root.appendingPathComponent("store"))
        XCTAssertEqual(fanOutFolders(store), [], "no folders up front")
        let ingested = try store.ingest(try file("a/logo.png", "logo bytes"))
        XCTAssertEqual(fanOutFolders(store), [String(ingested.sha256.prefix(2))])
        let put = try store.put(Data("a manifest".utf8))
        XCTAssertEqual(fanOutFolders(store), Set([ingested.sha256, put.sha256].map { String($0.prefix(2)) }).sorted())
        XCTAssertEqual(try String(contentsOf: ingested.url, encoding: .utf8), "logo bytes")
        XCTAssertEqual(try String(contentsOf: put.url, encoding: .utf8), "a manifest")
        // An object whose folder exists already goes in beside the others; the store still opens.
        let again = try ContentStore(root: root.appendingPathComponent("store"))
        XCTAssertEqual(try again.put(Data("a manifest".utf8)), put)
        XCTAssertEqual(again.allObjects().map(\.sha256), [ingested.sha256, put.sha256].sorted())
    }

    func testPutReplacesAnObjectWhoseBytesAreNotTheOnesItsNameSays() throws {
        // A power cut before the publisher's flush can leave an object's name with bytes that never
        // reached the disk: put trusts an object already there only if it holds exactly its bytes.
        let store = try ContentStore(root: root.appendingPathComponent("store"))
        let data = Data("{\"release\":1}".utf8)
        let stored = try store.put(data)
        XCTAssertEqual((try FileManager.default.attributesOfItem(atPath: stored.url.path)[.posixPermissions] as? NSNumber)?.intValue, 0o444)
        try FileManager.default.removeItem(at: stored.url)
        try Data(repeating: 0, count: data.count).write(to: stored.url)
        XCTAssertEqual(try store.put(data), stored)
        XCTAssertEqual(try Data(contentsOf: stored.url), data)
        XCTAssertEqual(((try? FileManager.default.contentsOfDirectory(atPath: store.root.appendingPathComponent("tmp").path)) ?? []), [], "no temporary file left")
    }
}
