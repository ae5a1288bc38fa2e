import Foundation
import LiveryServe
import XCTest

/// What `livery vouchers` takes from its options, in process: the `--expires` day and the `--vouchers` database.
final class VoucherOptionsTests: XCTestCase {
    /// `--expires` is the last day a code works (UTC): it expires at the next midnight, and is shown back as that day.
    func testTheExpiryDayIsTheLastDayACodeWorks() throws {
        let expires = try XCTUnwrap(VoucherExpiry.parse("2026-12-31"))
        XCTAssertEqual(expires, Date(timeIntervalSince1970: 1_798_761_600))  // 2027-01-01T00:00:00Z
        XCTAssertEqual(VoucherExpiry.lastDay(expires), "2026-12-31")
        XCTAssertEqual(VoucherExpiry.day(expires), "2027-01-01")
        XCTAssertEqual(VoucherExpiry.parse("2028-02-29").map(VoucherExpiry.lastDay), "2028-02-29")
        for text in ["2027-02-29", "2026-13-01", "2026-1-01", "26-12-31", "2026-12-31T00:00", "2026/12/31", ""] {
            XCTAssertNil(VoucherExpiry.parse(text), text)
        }
    }

    /// The database defaults to the output's hidden `.livery/`; a file of the served folder outside a hidden folder is
    /// refused (serve would hand it out); a PostgreSQL URL is a PostgreSQL database.
    func testADatabaseFileTheServerWouldHandOutIsRefused() throws {
        let output = URL(fileURLWithPath: "/srv/livery/Output")
        guard case .sqlite(let file) = try VoucherDatabase(option: nil, output: output) else { return XCTFail("not the default file") }
        XCTAssertEqual(file.path, "/srv/livery/Output/.livery/vouchers.sqlite")
        guard case .sqlite(let hidden) = try VoucherDatabase(option: "/srv/livery/Output/.private/v.sqlite", output: output) else { return XCTFail() }
        XCTAssertEqual(hidden.path, "/srv/livery/Output/.private/v.sqlite")
        XCTAssertThrowsError(try VoucherDatabase(option: "/srv/livery/Output/urbannest/v.sqlite", output: output)) { error in
            XCTAssertEqual("\(error)", "--vouchers /srv/livery/Output/urbannest/v.sqlite is inside the served folder /srv/livery/Output and would be downloadable: "
                           + "put it under a hidden folder such as /srv/livery/Output/.livery/, or outside")
        }
        guard case .postgres = try VoucherDatabase(option: "postgres://livery@127.0.0.1:5432/vouchers", output: output) else { return XCTFail("not PostgreSQL") }
    }
}
