import Foundation
import LiveryAssets
import LiveryLoad
import LiveryPack
import LiveryStorage
import LiveryReleaseFormat
import XCTest

/// The bundle index (`bundles.sqlite`) across builds: an archive it names is reused on its size alone only
/// when the build that made it flushed it to disk (docs/output.md#durability).
final class BundleBuilderTests: XCTestCase {
    private var root: URL!
    private var storeRoot: URL { root.appendingPathComponent("store") }

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("livery-bundles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    private let spec = BundleSpec(id: "core", kind: .core, policy: .essential,
                                  entries: [BundleEntry(path: "tokens.json", data: Data("{\"brand\":\"#0a7\"}".utf8)),
                                            BundleEntry(path: "strings/en.json", data: Data(String(repeating: "{\"hello\":\"Hello\"}", count: 40).utf8))])

    /// What a power cut before the build's flush can leave of an object: its size, and zeros for bytes.
    private func loseBytes(_ object: URL) throws {
        let size = try XCTUnwrap(FileStamp(path: object.path)?.size)
        let handle = try FileHandle(forWritingTo: object)
        try handle.write(contentsOf: Data(repeating: 0, count: Int(size)))
        try handle.close()
        XCTAssertEqual(FileStamp(path: object.path)?.size, size)
    }

    func testAnArchiveIndexedByABuildThatNeverFlushedIsCheckedBeforeItIsReused() throws {
        let cutOff = try BundleBuilder(store: ContentStore(root: storeRoot))
        let built = try cutOff.build(spec, format: .zip)
        XCTAssertTrue(built.rebuilt)
        // No `markDurable`: the power failed before the build's syncfs. The index row survived; the archive's bytes did not.
        try loseBytes(built.object)

        let next = try BundleBuilder(store: ContentStore(root: storeRoot))
        let again = try next.build(spec, format: .zip)
        XCTAssertTrue(again.rebuilt, "the damaged archive is written again, not reused")
        XCTAssertEqual(again.sha256, built.sha256, "archives are deterministic")
        XCTAssertEqual(try FileDigest.sha256(of: again.object).digest, built.sha256)
    }

    func testAnIntactArchiveOfABuildThatNeverFlushedIsReusedOnceCheckedAndThenTrusted() throws {
        let killed = try BundleBuilder(store: ContentStore(root: storeRoot))
        let built = try killed.build(spec, format: .zip)
        // The next build checks the archive (intact: a build killed, not a power cut), reuses it, and flushes.
        let next = try BundleBuilder(store: ContentStore(root: storeRoot))
        XCTAssertFalse(try next.build(spec, format: .zip).rebuilt)
        try next.markDurable()
        // From then on the row is trusted by the archive's size alone: the build after does not read it. (The
        // bytes are damaged here only to show that; damage after a completed flush is a disk fault, for
        // `livery store verify`.)
        try loseBytes(built.object)
        let third = try BundleBuilder(store: ContentStore(root: storeRoot))
        let reused = try third.build(spec, format: .zip)
        XCTAssertFalse(reused.rebuilt)
        XCTAssertEqual(reused.sha256, built.sha256)
    }

    /// Two tenants of one build with the same bundle: the second finds the archive the first made, and both say it
    /// was rebuilt, whichever thread came first; the next build made neither, and says so.
    func testABundleMadeEarlierInTheSameBuildIsReportedRebuiltByEveryTenantThatHasIt() throws {
        let secret = ContentSecret.random()
        let build = try BundleBuilder(store: ContentStore(root: storeRoot))
        let first = try build.build(spec, format: .zip), second = try build.build(spec, format: .zip)
        XCTAssertEqual([first.rebuilt, second.rebuilt], [true, true])
        XCTAssertEqual(first.sha256, second.sha256)
        let sealed = try build.encrypt(first, secret: secret), sealedAgain = try build.encrypt(second, secret: secret)
        XCTAssertEqual([sealed.rebuilt, sealedAgain.rebuilt], [true, true])
        try build.markDurable()
        let next = try BundleBuilder(store: ContentStore(root: storeRoot))
        let reused = try next.build(spec, format: .zip)
        XCTAssertFalse(reused.rebuilt)
        XCTAssertFalse(try next.encrypt(reused, secret: secret).rebuilt)
    }

    func testAnEncryptedArchiveIndexedByABuildThatNeverFlushedIsCheckedBeforeItIsReused() throws {
        let secret = ContentSecret.random()
        let cutOff = try BundleBuilder(store: ContentStore(root: storeRoot))
        let encrypted = try cutOff.encrypt(cutOff.build(spec, format: .zip), secret: secret)
        XCTAssertTrue(encrypted.rebuilt)
        // The ciphertext lost its bytes; the plain archive kept them.
        try loseBytes(encrypted.object)

        let next = try BundleBuilder(store: ContentStore(root: storeRoot))
        let plain = try next.build(spec, format: .zip)
        XCTAssertFalse(plain.rebuilt, "the intact archive is reused once checked")
        let again = try next.encrypt(plain, secret: secret)
        XCTAssertTrue(again.rebuilt, "the damaged ciphertext is written again")
        XCTAssertEqual(again.sha256, encrypted.sha256, "encryption is deterministic")
        XCTAssertEqual(try FileDigest.sha256(of: again.object).digest, encrypted.sha256)
    }
}
