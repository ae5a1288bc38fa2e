import Foundation
import LiveryStorage
import XCTest

/// `ReadFailure`, the reading side's file error: the file, what was being done to it and why, in one sentence.
final class ReadFailureTests: XCTestCase {
    func testSaysTheOperationTheFileAndTheSystemsReason() {
        XCTAssertEqual(ReadFailure(errno: ENOENT, path: "/keys/t.root-v2.json").description, "cannot read /keys/t.root-v2.json: No such file or directory")
        XCTAssertEqual(ReadFailure(errno: EACCES, path: "/cache/downloads/3f", operation: .open).description, "cannot open /cache/downloads/3f: Permission denied")
        XCTAssertEqual(ReadFailure(path: "/Templates/platform", operation: .list).description, "cannot list /Templates/platform")
    }

    func testAPathInsideTheCurrentFolderIsShownRelativeToIt() {
        let inside = FileManager.default.currentDirectoryPath + "/Output/t/release.json"
        XCTAssertEqual(ReadFailure(path: inside).description, "cannot read Output/t/release.json")
    }

    func testAFoundationErrorGivesItsErrnosWords() {
        XCTAssertThrowsError(try Data(contentsOf: URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)"))) { error in
            let failure = ReadFailure(error, path: "/f")
            XCTAssertEqual(failure.path, "/f")
            XCTAssertEqual(failure.underlying, String(cString: strerror(ENOENT)))
        }
        let failure = ReadFailure(errno: EIO, path: "/g")
        XCTAssertEqual(ReadFailure(failure, path: "/other"), failure, "a ReadFailure is kept as it is")
    }
}
