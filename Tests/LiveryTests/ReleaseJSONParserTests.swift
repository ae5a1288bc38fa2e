import Foundation
import LiveryDiagnostics
import LiveryLoad
import LiveryPack
import LiveryReleaseFormat
import XCTest

/// The release format's strict JSON parser (`ReleaseJSONParser`, behind `JSONValue.parse`): every refusal
/// with its location, escapes, numbers, nesting, and a differential test against LiveryLoad's `JSONParser`.
final class ReleaseJSONParserTests: XCTestCase {
    /// The parser's refusal of `bytes`, or nil if it accepts them.
    private func refusal(_ bytes: [UInt8], limits: ReleaseJSONParser.Limits = .default, file: StaticString = #filePath, line: UInt = #line) -> ReleaseJSONParser.SyntaxError? {
        do {
            let value = try ReleaseJSONParser.parse(Data(bytes), limits: limits)
            XCTFail("accepted \(String(decoding: bytes, as: UTF8.self).debugDescription) as \(value)", file: file, line: line)
            return nil
        } catch let error as ReleaseJSONParser.SyntaxError {
            return error
        } catch {
            XCTFail("unexpected error \(error)", file: file, line: line)
            return nil
        }
    }

    private func refusal(_ text: String, limits: ReleaseJSONParser.Limits = .default, file: StaticString = #filePath, line: UInt = #line) -> ReleaseJSONParser.SyntaxError? {
        refusal(Array(text.utf8), limits: limits, file: file, line: line)
    }

    private func parse(_ text: String) throws -> JSONValue { try ReleaseJSONParser.parse(Data(text.utf8)) }

    // MARK: Duplicate keys

    func testRefusesADuplicateKeyAtTheSecondOccurrence() throws {
        let error = try XCTUnwrap(refusal(#"{"a": 1, "a": 2}"#))
        XCTAssertEqual(error.reason, .duplicateKey)
        XCTAssertEqual(error.offset, 9)
        XCTAssertEqual(error.line, 1)
        XCTAssertEqual(error.column, 10)
        XCTAssertEqual(error.description, #"invalid JSON at byte 9 (line 1, column 10): duplicate key "a""#)
        // Nested, and with the same value (still two readings of one signed document).
        XCTAssertEqual(refusal(#"{"signed": {"version": 1, "x": [], "version": 1}}"#)?.reason, .duplicateKey)
    }

    func testRefusesKeysThatAreEqualAsUnicodeText() {
        // "é" precomposed and as e + combining acute: one dictionary key, so refused like a duplicate.
        XCTAssertEqual(refusal("{\"\u{E9}\": 1, \"e\u{301}\": 2}")?.reason, .duplicateKey)
        XCTAssertEqual(refusal(#"{"\u00e9": 1, "e\u0301": 2}"#)?.reason, .duplicateKey)
    }

    func testJSONValueParseReportsARefusalAsMalformed() throws {
        XCTAssertThrowsError(try JSONValue.parse(Data(#"{"a": 1, "a": 2}"#.utf8))) { error in
            let tuf = error as? TUFError
            XCTAssertEqual(tuf?.kind, .malformed)
            XCTAssertEqual(tuf?.description, #"invalid JSON at byte 9 (line 1, column 10): duplicate key "a""#)
        }
    }

    /// The attack the strict parser closes: a signed document that two parsers would read two ways.
    func testMetadataWithADuplicateKeyInSignedIsMalformed() throws {
        let signed = #"{"_type": "timestamp", "spec_version": "1.0.31", "version": 2, "expires": "2030-01-01T00:00:00Z", "#
            + #""meta": {"snapshot.json": {"version": 1}}, "version": 1}"#
        let data = Data((#"{"signatures": [], "signed": "# + signed + "}").utf8)
        XCTAssertThrowsError(try Metadata<Timestamp>(data: data)) { error in
            XCTAssertEqual((error as? TUFError)?.kind, .malformed)
            XCTAssertTrue("\(error)".contains(#"duplicate key "version""#), "\(error)")
        }
        XCTAssertThrowsError(try SignedMetadata(data: data)) { XCTAssertEqual(($0 as? TUFError)?.kind, .malformed) }
    }

    // MARK: Every other refusal

    func testRefusesEachSyntaxFaultWhereItIs() throws {
        let cases: [(String, ReleaseJSONParser.Reason, Int)] = [
            ("", .syntax, 0), ("  \n ", .syntax, 4),
            ("[1,]", .syntax, 3), (#"{"a": 1,}"#, .syntax, 8), ("[1 2]", .syntax, 3), (#"{"a" 1}"#, .syntax, 5),
            ("{a: 1}", .syntax, 1), ("['a']", .syntax, 1), ("[tru]", .syntax, 1), ("[nul", .syntax, 1), ("[True]", .syntax, 1),
            ("[01]", .syntax, 1), ("[-01]", .syntax, 1), ("[1.]", .syntax, 3), ("[.5]", .syntax, 1), ("[1e]", .syntax, 3), ("[1e+]", .syntax, 4),
            ("[+1]", .syntax, 1), ("[-]", .syntax, 2), ("[NaN]", .syntax, 1), ("[Infinity]", .syntax, 1), ("[0x10]", .syntax, 2),
            ("[\"a\u{1}\"]", .syntax, 3), ("[\"a\nb\"]", .syntax, 3),
            (#"["\x"]"#, .syntax, 2), (#"["\u12"]"#, .syntax, 6), (#"["\u12G4"]"#, .syntax, 6), (#"["abc"#, .syntax, 1), (#"["ab\"#, .syntax, 5),
            ("[1", .syntax, 2), (#"{"a": 1"#, .syntax, 7), ("{", .syntax, 1), ("]", .syntax, 0),
            // Only space, tab, LF and CR are whitespace.
            ("[1,\u{C}2]", .syntax, 3), ("[1,\u{A0}2]", .syntax, 3),
            // A second value, or anything else, after the document.
            (#"{"a": 1} {}"#, .trailingValue, 9), ("[]x", .trailingValue, 2), ("1 2", .trailingValue, 2), ("null\u{0}", .trailingValue, 4),
        ]
        for (text, reason, offset) in cases {
            guard let error = refusal(text) else { continue }
            XCTAssertEqual(error.reason, reason, "\(text.debugDescription): \(error)")
            XCTAssertEqual(error.offset, offset, "\(text.debugDescription): \(error)")
        }
    }

    func testRefusesALeadingByteOrderMark() throws {
        let error = try XCTUnwrap(refusal([0xEF, 0xBB, 0xBF] + Array("{}".utf8)))
        XCTAssertEqual(error.reason, .byteOrderMark)
        XCTAssertEqual(error.offset, 0)
        // UTF-16 is not JSON for the release format either.
        XCTAssertEqual(refusal([0xFF, 0xFE, 0x7B, 0x00, 0x7D, 0x00])?.reason, .syntax)
    }

    func testRefusesInvalidUTF8AtTheOffendingByte() throws {
        let cases: [([UInt8], Int)] = [
            ([0xFF], 2),                    // never in UTF-8
            ([0xC0, 0xAF], 2),              // overlong "/"
            ([0xE0, 0x80, 0xAF], 3),        // overlong, three bytes
            ([0xED, 0xA0, 0x80], 3),        // a UTF-16 surrogate encoded as UTF-8
            ([0xF4, 0x90, 0x80, 0x80], 3),  // above U+10FFFF
            ([0xE2, 0x82], 4),              // cut off by the closing quote
            ([0x80], 2),                    // a lone continuation byte
            ([0x61, 0xC3, 0x28], 4),        // a lead byte followed by ASCII
        ]
        for (bad, offset) in cases {
            let error = try XCTUnwrap(refusal(Array(#"[""#.utf8) + bad + Array(#""]"#.utf8)), "\(bad)")
            XCTAssertEqual(error.reason, .invalidUTF8, "\(bad): \(error)")
            XCTAssertEqual(error.offset, offset, "\(bad): \(error)")
        }
        // In a key, after an escape, and a string cut off inside a character.
        XCTAssertEqual(refusal(Array(#"{""#.utf8) + [0xFE] + Array(#"": 1}"#.utf8))?.reason, .invalidUTF8)
        XCTAssertEqual(refusal(Array(#"["\n"#.utf8) + [0xC3] + Array(#""]"#.utf8))?.reason, .invalidUTF8)
        XCTAssertEqual(refusal(Array(#"[""#.utf8) + [0xF0, 0x9F])?.reason, .invalidUTF8)
        // Outside a string, any non-ASCII byte is simply unexpected.
        XCTAssertEqual(refusal([0x5B, 0xC3, 0xA9, 0x5D])?.reason, .syntax)
    }

    func testRefusesLoneSurrogateEscapes() throws {
        for text in [#"["\uD800"]"#, #"["\udbff x"]"#, #"["\uDC00"]"#, #"["\uD800\u0041"]"#, #"["\uD800\uD800"]"#, #"["\uD800\n"]"#, #"["a\uDFFF\uD800"]"#] {
            XCTAssertEqual(refusal(text)?.reason, .loneSurrogate, text)
        }
        XCTAssertEqual(refusal(#"["ab\uD800"]"#)?.offset, 4, "at the escape")
    }

    func testRefusesIntegersOutsideIntAndNumbersOutsideDouble() throws {
        for text in ["9223372036854775808", "-9223372036854775809", "[18446744073709551616]", "[123456789012345678901234567890]"] {
            XCTAssertEqual(refusal(text)?.reason, .integerOutOfRange, text)
        }
        XCTAssertEqual(refusal("[1, 99999999999999999999]")?.offset, 4)
        for text in ["1e400", "[-1e400]", "[1.0e309]"] {
            XCTAssertEqual(refusal(text)?.reason, .numberOutOfRange, text)
        }
    }

    func testRefusesNestingDeeperThanTheLimit() throws {
        // The document is at depth 0; a value inside 64 containers is refused (LiveryLoad's rule).
        XCTAssertNoThrow(try parse(String(repeating: "[", count: 64) + String(repeating: "]", count: 64)))
        XCTAssertNoThrow(try parse(String(repeating: "[", count: 63) + "1" + String(repeating: "]", count: 63)))
        let error = try XCTUnwrap(refusal(String(repeating: "[", count: 64) + "1" + String(repeating: "]", count: 64)))
        XCTAssertEqual(error.reason, .tooDeep)
        XCTAssertEqual(error.offset, 64)
        XCTAssertEqual(refusal(String(repeating: #"{"a":"#, count: 65) + "1" + String(repeating: "}", count: 65))?.reason, .tooDeep)
        // A hostile depth is refused quickly, not by exhausting the stack.
        XCTAssertEqual(refusal(String(repeating: "[", count: 1_000_000))?.reason, .tooDeep)
        XCTAssertEqual(refusal("[[[1]]]", limits: .init(maxDepth: 3))?.reason, .tooDeep)
    }

    func testRefusesInputLargerThanTheLimitBeforeReadingIt() throws {
        let error = try XCTUnwrap(refusal("[1, 2, 3]", limits: .init(maxBytes: 8)))
        XCTAssertEqual(error.reason, .tooLarge)
        XCTAssertNoThrow(try ReleaseJSONParser.parse(Data("[1, 2, 3]".utf8), limits: .init(maxBytes: 9)))
    }

    func testErrorsCarryLineAndColumnInScalars() throws {
        let error = try XCTUnwrap(refusal("{\r\n  \"név\": \"Zürich\",\n  \"x\": tru\n}"))
        XCTAssertEqual(error.offset, 31)
        XCTAssertEqual(error.line, 3)
        XCTAssertEqual(error.column, 8)
        XCTAssertEqual(error.message, "invalid literal; expected 'true'")
    }

    // MARK: What it reads

    func testReadsEveryEscape() throws {
        XCTAssertEqual(try parse(#"["\"\\\/\b\f\n\r\t"]"#), .array([.string("\"\\/\u{8}\u{C}\n\r\t")]))
        XCTAssertEqual(try parse(#"["\u0041\u00e9\u00E9\u4e2D\u0000"]"#), .array([.string("A\u{E9}\u{E9}\u{4E2D}\u{0}")]))
        XCTAssertEqual(try parse(#"["\uD83D\uDE00 \ud83c\udf0d"]"#), .array([.string("\u{1F600} \u{1F30D}")]))
        XCTAssertEqual(try parse(#"{"k\u00e9y\n": "a\tb"}"#), .object(["k\u{E9}y\n": .string("a\tb")]))
        // Raw UTF-8 is kept byte for byte (no normalisation), with and without escapes around it.
        let decomposed = try parse("[\"e\u{301}\", \"\\te\u{301}\"]")
        XCTAssertEqual(decomposed.arrayValue?.map { Array($0.stringValue!.utf8) }, [[0x65, 0xCC, 0x81], [0x09, 0x65, 0xCC, 0x81]])
        XCTAssertEqual(try parse("\"\u{7F}\u{10FFFF}\u{FFFF}\""), .string("\u{7F}\u{10FFFF}\u{FFFF}"))
    }

    func testReadsIntegersAsIntAndTheRestAsDouble() throws {
        let text = "[0, -0, 7, -42, 9223372036854775807, -9223372036854775808, 1.5, -0.25, 1e2, 1E-2, 2.5e+3, 0.0, -0.0, 1e-400, 10.0]"
        XCTAssertEqual(try parse(text), .array([
            .int(0), .int(0), .int(7), .int(-42), .int(.max), .int(.min),
            .double(1.5), .double(-0.25), .double(100), .double(0.01), .double(2500), .double(0), .double(-0.0), .double(0), .double(10),
        ]))
        // A whole double still reads as an integer where one is expected, as before.
        XCTAssertEqual(try parse("10.0").intValue, 10)
    }

    func testReadsScalarsAtTheTopAndAllowsJSONWhitespaceAround() throws {
        XCTAssertEqual(try parse(" \t\r\n true \n"), .bool(true))
        XCTAssertEqual(try parse("null"), .null)
        XCTAssertEqual(try parse("\"x\""), .string("x"))
        XCTAssertEqual(try parse("-3"), .int(-3))
        XCTAssertEqual(try parse("{ }"), .object([:]))
        XCTAssertEqual(try parse("[ ]"), .array([]))
        XCTAssertEqual(try parse(#"{"a":[1,{"b":null}],"c":false}"#), .object(["a": .array([.int(1), .object(["b": .null])]), "c": .bool(false)]))
    }

    func testReadsFromADataSlice() throws {
        let whole = Data("xx[1, 2]yy".utf8)
        XCTAssertEqual(try ReleaseJSONParser.parse(whole[2..<8]), .array([.int(1), .int(2)]))
        XCTAssertEqual(refusal(Array(whole[2..<9]))?.offset, 6)
    }
}
