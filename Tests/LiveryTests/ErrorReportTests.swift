import ArgumentParser
import Foundation
import LiveryCommands
import LiveryReleaseFormat
import LiverySign
import LiveryStorage
import XCTest

/// One mapping from an error to its message and exit status (Sources/LiveryCommands/ErrorReport.swift), over each
/// family of error a command ends with; the statuses are docs/diagnostics.md#exit-codes-and---strict's.
final class ErrorReportTests: XCTestCase {
    func testFindingsAndANewerAppEndWithTheirStatusAlone() {
        XCTAssertEqual(ErrorReport(ExitCode.findings), ErrorReport(message: nil, status: 1))
        XCTAssertEqual(ErrorReport(ExitCode.appUpdateRequired), ErrorReport(message: nil, status: 3))
    }

    func testHelpAndVersionAreCleanExits() {
        XCTAssertEqual(ErrorReport(CleanExit.message("1.0.0")), ErrorReport(message: nil, status: 0, isCleanExit: true))
        XCTAssertEqual(ErrorReport(ExitCode.success), ErrorReport(message: nil, status: 0, isCleanExit: true))
    }

    func testAUsageMistakeSaysItWithTheUsage() throws {
        let report = ErrorReport(ValidationError("--root needs a file"))
        XCTAssertEqual(report.status, 2)
        let message = try XCTUnwrap(report.message)
        XCTAssertTrue(message.hasPrefix("Error: --root needs a file\n"), message)
        XCTAssertTrue(message.contains("Usage: livery"), message)
    }

    func testEveryOtherErrorIsItsOwnTextWithStatus2() {
        let cases: [(any Error, String)] = [
            (Livery.Failure("nothing was written"), "Error: nothing was written"),
            (TUFError(.expired, "timestamp metadata expired"), "Error: timestamp metadata expired"),
            (ReadFailure(errno: ENOENT, path: "/keys/a.root.json"), "Error: cannot read /keys/a.root.json: No such file or directory"),
            (WriteFailure(errno: ENOSPC, path: "/out/release.json"), "Error: cannot write /out/release.json: no space left on the device (ENOSPC)"),
            // The key store's own errors, and a key file's or keys.yaml's, travel as themselves (never as TUF errors).
            (KeyStoreError(.noKeys, "acme", "tenant 'acme' has no keys in /keys/acme; create keys with `livery keys init acme`"),
             "Error: tenant 'acme' has no keys in /keys/acme; create keys with `livery keys init acme`"),
            (KeyFileError("/keys/acme/root.key", .permissions, "can be read by others", fix: "chmod 600 it"),
             "Error: /keys/acme/root.key can be read by others: chmod 600 it"),
            (KeyConfigurationError("/keys/acme/keys.yaml: 'signer' is not a role"), "Error: /keys/acme/keys.yaml: 'signer' is not a role"),
            // An exit status no command uses is an internal error: status 2, and no text of its own.
            (ExitCode(7), ""),
        ]
        for (error, message) in cases {
            XCTAssertEqual(ErrorReport(error), ErrorReport(message: message, status: 2), "\(type(of: error))")
        }
    }
}
