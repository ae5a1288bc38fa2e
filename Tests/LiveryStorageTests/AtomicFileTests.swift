import Foundation
import LiveryStorage
import XCTest

/// `AtomicFile`, the one write-then-rename: the new bytes replace the old in one step, with the mode asked
/// for, and a failure leaves what was there and no partial file.
final class AtomicFileTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("atomic-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".part") }
    }

    private func mode(_ url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    func testCreatesAndReplacesAFile() throws {
        let file = folder.appendingPathComponent("keys.yaml")
        for (content, durable) in [("first", false), ("second", true), ("", false)] {
            try AtomicFile.write(Data(content.utf8), to: file, mode: 0o600, durable: durable)
            XCTAssertEqual(try String(contentsOf: file, encoding: .utf8), content)
        }
        XCTAssertEqual(try leftovers(), [])
    }

    func testCreatesTheFileWithTheModeAskedFor() throws {
        let secret = folder.appendingPathComponent("secret")
        try AtomicFile.write(Data("x".utf8), to: secret, mode: 0o600, durable: false)
        XCTAssertEqual(try mode(secret), 0o600)
        // 0o666 less the umask: what `Data.write` gives.
        let plain = folder.appendingPathComponent("plain"), reference = folder.appendingPathComponent("reference")
        try AtomicFile.write(Data("x".utf8), to: plain, mode: 0o666, durable: false)
        try Data("x".utf8).write(to: reference)
        XCTAssertEqual(try mode(plain), try mode(reference))
    }

    func testAFailedRenameLeavesTheOldContentAndNoPartialFile() throws {
        // A folder with a file in it stands where the file should go: the rename fails (EISDIR or ENOTEMPTY).
        let target = folder.appendingPathComponent("target")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
        try Data("old".utf8).write(to: target.appendingPathComponent("inside"))
        XCTAssertThrowsError(try AtomicFile.write(Data("new".utf8), to: target, mode: 0o644, durable: true)) { error in
            let failure = error as? WriteFailure
            XCTAssertEqual(failure?.path, target.path)
            XCTAssertEqual(failure?.operation, .replace)
            XCTAssertTrue(failure?.description.hasPrefix("cannot replace ") == true, "\(error)")
        }
        XCTAssertEqual(try String(contentsOf: target.appendingPathComponent("inside"), encoding: .utf8), "old")
        XCTAssertEqual(try leftovers(), [])
    }

    func testAMissingFolderFailsNamingTheFile() throws {
        let file = folder.appendingPathComponent("absent/file")
        XCTAssertThrowsError(try AtomicFile.write(Data(), to: file, mode: 0o644, durable: false)) { error in
            XCTAssertEqual((error as? WriteFailure)?.path, file.path)
        }
    }

    func testAFailureSaysWhatWasBeingDoneToWhichFile() {
        XCTAssertEqual(WriteFailure(errno: EIO, path: "/nowhere/root.json", operation: .flush).description,
                       "cannot flush /nowhere/root.json: an I/O error on the device (EIO)")
        XCTAssertEqual(WriteFailure(errno: EEXIST, path: "/nowhere/tours", operation: .createFolder).description,
                       "cannot create folder /nowhere/tours: \(String(cString: strerror(EEXIST)))")
        XCTAssertEqual(WriteFailure(errno: ENOSPC, path: "/nowhere/a").description, "cannot write /nowhere/a: no space left on the device (ENOSPC)")
    }
}
