import Foundation
import LiveryAssets
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
