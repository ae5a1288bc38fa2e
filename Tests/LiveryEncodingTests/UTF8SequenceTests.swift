import LiveryEncoding
import XCTest

/// `UTF8Sequence`, the one well-formedness check of both JSON parsers' strings and the loader's text: RFC 3629's table,
/// with the narrowed second byte that refuses overlong forms, surrogates and code points past U+10FFFF.
final class UTF8SequenceTests: XCTestCase {
    func check(_ bytes: [UInt8], at index: Int = 0) -> UTF8Sequence { UTF8Sequence(in: bytes, at: index) }

    func testWellFormedCharactersHaveTheirLength() {
        for character in ["a", "é", "€", "😀", "\u{10FFFF}", "\u{D7FF}", "\u{E000}"] {
            let bytes = Array(character.utf8)
            XCTAssertEqual(check(bytes), .valid(length: bytes.count), character)
        }
        XCTAssertEqual(check(Array("x€".utf8), at: 1), .valid(length: 3))
    }

    func testOverlongFormsSurrogatesAndCodePointsPastTheLastAreRefused() {
        XCTAssertEqual(check([0xC0, 0xAF]), .cannotStart)          // overlong "/"
        XCTAssertEqual(check([0xE0, 0x80, 0xAF]), .cannotContinue(offset: 1))  // overlong, three bytes
        XCTAssertEqual(check([0xED, 0xA0, 0x80]), .cannotContinue(offset: 1))  // U+D800
        XCTAssertEqual(check([0xF4, 0x90, 0x80, 0x80]), .cannotContinue(offset: 1))  // U+110000
        XCTAssertEqual(check([0xF5, 0x80, 0x80, 0x80]), .cannotStart)
        XCTAssertEqual(check([0x80]), .cannotStart)                  // a continuation byte first
    }

    func testACharacterCutOffOrBrokenIsSaidWhere() {
        XCTAssertEqual(check([0xE2, 0x82]), .cutOff)
        XCTAssertEqual(check([0x61, 0xF0, 0x9F, 0x98], at: 1), .cutOff)
        XCTAssertEqual(check([0xE2, 0x82, 0x41]), .cannotContinue(offset: 2))
    }
}
