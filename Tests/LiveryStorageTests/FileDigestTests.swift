import Crypto
import Foundation
import LiveryStorage
import XCTest

/// `FileDigest`, the one streaming SHA-256 of files: the same digest as hashing the bytes at once, across
/// chunk boundaries, and a limit that stops reading a file longer than it should be.
final class FileDigestTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("file-digest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func testEmptyFile() throws {
        let file = folder.appendingPathComponent("empty")
        try Data().write(to: file)
        let (digest, size) = try FileDigest.sha256(of: file)
        XCTAssertEqual(digest, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(size, 0)
        XCTAssertEqual(FileDigest.sha256(of: Data()), digest)
    }

    func testMatchesTheDigestOfTheWholeBytesAcrossChunks() throws {
        for count in [1, FileDigest.chunkSize - 1, FileDigest.chunkSize, FileDigest.chunkSize + 1, 2 * FileDigest.chunkSize + 7] {
            let data = Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            let file = folder.appendingPathComponent("f\(count)")
            try data.write(to: file)
            let (digest, size) = try FileDigest.sha256(of: file)
            XCTAssertEqual(digest, SHA256.hash(data: data).hexString, "\(count)")
            XCTAssertEqual(size, count)
            XCTAssertEqual(try FileDigest.hash(of: file), SHA256.hash(data: data), "\(count)")
        }
    }

    func testStopsReadingPastTheLimit() throws {
        let data = Data(repeating: 7, count: 3 * FileDigest.chunkSize)
        let file = folder.appendingPathComponent("long")
        try data.write(to: file)
        let limited = try FileDigest.sha256(of: file, stoppingAfter: 10)
        XCTAssertGreaterThan(limited.size, 10)
        XCTAssertLessThan(limited.size, data.count)  // not read to the end
        let exact = try FileDigest.sha256(of: file, stoppingAfter: data.count)
        XCTAssertEqual(exact.size, data.count)
        XCTAssertEqual(exact.digest, SHA256.hash(data: data).hexString)
    }

    func testAMissingFileThrowsAReadFailureNamingIt() {
        let absent = folder.appendingPathComponent("absent")
        XCTAssertThrowsError(try FileDigest.sha256(of: absent)) { error in
            XCTAssertEqual(error as? ReadFailure, ReadFailure(errno: ENOENT, path: absent.path, operation: .open))
        }
    }

    func testAFolderCannotBeReadAsAFileAndSaysWhy() throws {
        // open(2) of a folder read-only succeeds; read(2) fails with EISDIR: the failure is the read's, with the system's reason.
        XCTAssertThrowsError(try FileDigest.sha256(of: folder)) { error in
            XCTAssertEqual(error as? ReadFailure, ReadFailure(errno: EISDIR, path: self.folder.path))
        }
    }
}
