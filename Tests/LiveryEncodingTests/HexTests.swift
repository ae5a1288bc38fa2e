import Foundation
import LiveryEncoding
import XCTest

/// `Hex`, the one hex encoder and decoder: lowercase out, either case in, two digits a byte and nothing else.
final class HexTests: XCTestCase {
    func testEncodesLowercaseTwoDigitsAByte() {
        XCTAssertEqual(Hex.encode([UInt8]()), "")
        XCTAssertEqual(Hex.encode([0x00, 0x0f, 0xa0, 0xff]), "000fa0ff")
        XCTAssertEqual(Data([0xde, 0xad, 0xbe, 0xef]).hexString, "deadbeef")
    }

    func testDecodesEitherCase() {
        XCTAssertEqual(Hex.decode(""), [])
        XCTAssertEqual(Hex.decode("000fA0Ff"), [0x00, 0x0f, 0xa0, 0xff])
        XCTAssertEqual(Data(hex: "DEADbeef"), Data([0xde, 0xad, 0xbe, 0xef]))
    }

    func testRejectsOddLength() {
        XCTAssertNil(Hex.decode("abc"))
        XCTAssertNil(Hex.decode("0"))
    }

    func testRejectsAnythingButHexDigits() {
        // `UInt8("+f", radix: 16)` is 15: a decoder built on it took a sign for a digit.
        for text in ["+f", "-0", "0x", "zz", "a ", " a", "ab\n", "éé", "０１"] {
            XCTAssertNil(Hex.decode(text), text.debugDescription)
            XCTAssertNil(Data(hex: text), text.debugDescription)
        }
    }

    func testRoundTripsEveryByte() {
        let bytes = (0...255).map(UInt8.init)
        XCTAssertEqual(Hex.decode(Hex.encode(bytes)), bytes)
        XCTAssertEqual(Hex.decode(Hex.encode(bytes).uppercased()), bytes)
    }

    func testDigitValues() {
        XCTAssertEqual(Hex.value(ofDigit: UInt8(ascii: "0")), 0)
        XCTAssertEqual(Hex.value(ofDigit: UInt8(ascii: "9")), 9)
        XCTAssertEqual(Hex.value(ofDigit: UInt8(ascii: "a")), 10)
        XCTAssertEqual(Hex.value(ofDigit: UInt8(ascii: "F")), 15)
        XCTAssertNil(Hex.value(ofDigit: UInt8(ascii: "g")))
        XCTAssertNil(Hex.value(ofDigit: UInt8(ascii: "/")))
    }
}
