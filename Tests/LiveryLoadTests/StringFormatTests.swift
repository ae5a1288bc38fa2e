import Foundation
@testable import LiveryLoad
import XCTest

final class StringFormatTests: XCTestCase {
    /// The byte-level matchers must agree with the published patterns (which JSON Schema users get).
    func testFastMatchersAgreeWithTheirPatterns() throws {
        var state: UInt64 = 42
        func next() -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: state >> 33)
        }
        let alphabet = Array("ab-_.AZ09é ")
        var samples = ["", "-", "a", "a-b", "a--b", "-a", "a-", "nav.home", ".a", "a.", "a..b", "A_b-c.D9", "é", "a b"]
        for _ in 0..<5000 {
            samples.append(String((0..<(next() % 8)).map { _ in alphabet[next() % alphabet.count] }))
        }
        for format in [StringFormat.slug, .messageKey, .featureName] {
            let regex = try NSRegularExpression(pattern: try XCTUnwrap(format.pattern))
            for sample in samples {
                let expected = regex.firstMatch(in: sample, range: NSRange(sample.startIndex..., in: sample)) != nil
                XCTAssertEqual(format.matches(sample), expected, "\(format) on '\(sample)'")
            }
        }
    }

    func testPatternFormatsMatchTypicalValues() {
        XCTAssertTrue(StringFormat.locale.matches("pt-BR"))
        XCTAssertTrue(StringFormat.locale.matches("zh-Hans"))
        XCTAssertFalse(StringFormat.locale.matches("english"))
        XCTAssertTrue(StringFormat.hexColor.matches("#0066CC"))
        XCTAssertFalse(StringFormat.hexColor.matches("#06C"))
        XCTAssertTrue(StringFormat.version.matches("2.4.0"))
        XCTAssertFalse(StringFormat.version.matches("v2.4"))
    }
}
