import Foundation
import LiveryReleaseFormat
import XCTest

/// TUF dates are written and read by hand (Foundation's formatter was a third of a no-change rebuild):
/// they must agree with Foundation's ISO 8601 formatter, and with python-tuf's strictness.
final class TUFDateTests: XCTestCase {
    private func foundation() -> ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter
    }

    func testWritingAndReadingAgreeWithFoundationOnManyDates() {
        let formatter = foundation()
        var generator = SystemRandomNumberGenerator()
        // Leap days, ends of months and years, the epoch, and random seconds up to the year 9999.
        var instants: [Int] = [0, 1, 59, 86_399, 86_400, 951_782_400, 951_868_799, 4_107_542_400, 1_709_164_800, 253_402_300_799]
        instants += (0..<20_000).map { _ in Int.random(in: 0...253_402_300_799, using: &generator) }
        for seconds in instants {
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            let written = TUFDate.string(date)
            XCTAssertEqual(written, formatter.string(from: date), "\(seconds)")
            XCTAssertEqual(TUFDate.parseStrict(written), date, written)
        }
        // Fractions of a second are dropped, as TUF writes whole seconds.
        XCTAssertEqual(TUFDate.string(Date(timeIntervalSince1970: 1_700_000_000.75)), "2023-11-14T22:13:20Z")
    }

    func testOnlyRealDatesInExactlyTheTUFFormatAreRead() {
        for valid in ["2024-02-29T23:59:59Z", "2000-02-29T00:00:00Z", "1970-01-01T00:00:00Z", "9999-12-31T23:59:59Z"] {
            XCTAssertNotNil(TUFDate.parseStrict(valid), valid)
        }
        // python-tuf (datetime.strptime with "%Y-%m-%dT%H:%M:%SZ") refuses each of these.
        for invalid in ["2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2024-13-01T00:00:00Z", "2024-00-10T00:00:00Z", "2024-04-31T00:00:00Z",
                        "2024-01-00T00:00:00Z", "2024-01-01T24:00:00Z", "2024-01-01T00:60:00Z", "2024-01-01T00:00:60Z", "2024-01-01T00:00:00",
                        "2024-01-01T00:00:00.5Z", "2024-01-01T00:00:00+00:00", "2024-1-01T00:00:00Z", "2024-01-01 00:00:00Z", "２０２４-01-01T00:00:00Z",
                        "2024-01-01T00:00:0xZ", ""] {
            XCTAssertNil(TUFDate.parseStrict(invalid), invalid)
        }
    }
}
