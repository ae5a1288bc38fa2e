import Foundation
@testable import LiveryClientCore
import LiveryReleaseFormat
import LiveryStorage
import XCTest

/// A file the client cannot read or write is the file's failure (`ReadFailure`, `WriteFailure`: the file, the
/// operation and the system's reason), never a TUF error: those are for what the repository signed.
final class LocalFileFailureTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("local-file-failure-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func testAMissingDownloadIsAReadFailureNamingIt() {
        let download = folder.appendingPathComponent(String(repeating: "a", count: 64))
        XCTAssertThrowsError(try ReleaseInstaller.verify(download, length: 3, sha256: "", name: "core.zip")) { error in
            XCTAssertEqual(error as? ReadFailure, ReadFailure(errno: ENOENT, path: download.path, operation: .open))
        }
        XCTAssertThrowsError(try ArchiveExtractor.extract(download, into: folder.appendingPathComponent("out"))) { error in
            XCTAssertEqual(error as? ReadFailure, ReadFailure(errno: ENOENT, path: download.path, operation: .open))
        }
    }

    func testADownloadOfTheWrongLengthIsStillATUFError() throws {
        let download = folder.appendingPathComponent("download")
        try Data("abcd".utf8).write(to: download)
        XCTAssertThrowsError(try ReleaseInstaller.verify(download, length: 3, sha256: "", name: "core.zip")) { error in
            XCTAssertEqual((error as? TUFError)?.description, "core.zip is longer than its signed length 3")
        }
    }

    func testAMetadataFolderThatCannotBeWrittenIsAWriteFailure() {
        let store = MetadataFolder(folder.appendingPathComponent("absent"))
        XCTAssertThrowsError(try store.save("timestamp", Data("{}".utf8))) { error in
            XCTAssertNotNil(error as? WriteFailure, "\(type(of: error)): \(error)")
        }
    }
}
