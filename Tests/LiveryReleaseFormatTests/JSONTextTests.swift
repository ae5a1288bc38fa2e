import Foundation
import LiveryEncoding
import LiveryReleaseFormat
import XCTest

/// `JSONText`, the one JSON string escaper: the String and byte forms agree, and the release format's
/// deterministic JSON writes strings with it.
final class JSONTextTests: XCTestCase {
    let cases: [(String, String)] = [
        ("", #""""#),
        ("plain", #""plain""#),
        ("a\"b\\c", #""a\"b\\c""#),
        ("\n\r\t", #""\n\r\t""#),
        ("\u{0}\u{1f}\u{7f}", #""\u0000\u001f"# + "\u{7f}\""),  // DEL is not a control character in JSON
        ("é😀", "\"é😀\""),
    ]

    func testQuotesAsRFC8259Asks() {
        for (text, expected) in cases {
            XCTAssertEqual(JSONText.quoted(text), expected, text.debugDescription)
            var bytes: [UInt8] = []
            JSONText.appendQuoted(text, to: &bytes)
            XCTAssertEqual(String(decoding: bytes, as: UTF8.self), expected, text.debugDescription)
        }
    }

    /// The byte form tests eight bytes at a time: a character that needs an escape (or one just outside those
    /// that do) at every position of a word and across words reads as the scalar-by-scalar form writes it.
    func testLongTextsEscapeAtEveryPosition() {
        let characters = ["\"", "\\", "\n", "\u{0}", "\u{1f}", " ", "!", "#", "[", "]", "\u{7f}", "é", "😀"]
        for character in characters {
            for position in 0...24 {
                var text = String(repeating: "abcdefgh", count: 3)
                text.insert(contentsOf: character, at: text.index(text.startIndex, offsetBy: position))
                var bytes: [UInt8] = []
                JSONText.appendQuoted(text, to: &bytes)
                XCTAssertEqual(String(decoding: bytes, as: UTF8.self), JSONText.quoted(text, alsoEscaping: { _ in false }, uppercaseHex: false),
                               "\(character.debugDescription) at \(position)")
            }
        }
        let ascii = String(decoding: (0..<128).map { UInt8($0) }, as: UTF8.self)
        for offset in 0..<8 {
            let text = String(repeating: "x", count: offset) + ascii + ascii
            var bytes: [UInt8] = []
            JSONText.appendQuoted(text, to: &bytes)
            XCTAssertEqual(String(decoding: bytes, as: UTF8.self), JSONText.quoted(text, alsoEscaping: { _ in false }, uppercaseHex: false))
        }
    }

    func testReadsBackWithFoundation() throws {
        for (text, _) in cases {
            let decoded = try JSONDecoder().decode(String.self, from: Data(JSONText.quoted(text).utf8))
            XCTAssertEqual(decoded, text)
        }
    }

    func testReleaseJSONWritesStringsWithIt() {
        for (text, expected) in cases {
            // `bytes` ends a document with a newline.
            XCTAssertEqual(String(decoding: JSONValue.string(text).bytes, as: UTF8.self), expected + "\n", text.debugDescription)
        }
    }

    func testExtraEscapesForYAML() {
        XCTAssertEqual(JSONText.quoted("a\u{85}b", alsoEscaping: { $0.value == 0x85 }, uppercaseHex: true), #""a\u0085b""#)
        XCTAssertEqual(JSONText.quoted("\u{1f}", alsoEscaping: { _ in false }, uppercaseHex: true), #""\u001F""#)
    }
}
