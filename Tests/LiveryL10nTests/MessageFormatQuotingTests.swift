import XCTest
@testable import LiveryL10n

// Apostrophe quoting in ICU's default mode (ApostropheMode.DOUBLE_OPTIONAL), pinned from ICU's MessageFormat
// documentation: `''` is always one apostrophe; a single `'` starts quoted literal text only when it comes
// right before `{` or `}` (or `#` in a plural sub-message, or `|` in the unsupported choice format); any
// other single `'` is an ordinary character; quoted text ends at the next single `'`.
final class MessageFormatQuotingTests: XCTestCase {
    func testQuotedBraces() {
        XCTAssertEqual(sketch("'{'"), "'{'")
        XCTAssertEqual(sketch("'}'"), "'}'")
        XCTAssertEqual(sketch("'{name}'"), "'{name}'")
        XCTAssertEqual(parsed("'{name}'")?.argumentUses.count, 0)
        XCTAssertEqual(sketch("don''t '{'quote'}'"), "\"don't \"'{'\"quote\"'}'")
    }

    func testDoubledApostrophes() {
        XCTAssertEqual(sketch("''"), "\"'\"")
        XCTAssertEqual(sketch("I''m here"), "\"I'm here\"")
        XCTAssertEqual(sketch("'{a''b}'"), "'{a'b}'")  // `''` inside quotes is one apostrophe too
        XCTAssertEqual(sketch("'''{'"), "\"'\"'{'")  // `''` first, then a quoted brace
    }

    func testLoneApostrophesAreLiteral() {
        XCTAssertEqual(sketch("it's {n}"), "\"it's \"{n}")
        XCTAssertEqual(sketch("'a'"), "\"'a'\"")
        XCTAssertEqual(sketch("abc'"), "\"abc'\"")
        XCTAssertEqual(sketch("l'{n}"), "\"l\"'{n}'")  // but before a brace it quotes: a classic translation bug
    }

    func testApostropheBeforePoundQuotesOnlyWherePoundIsSpecial() {
        XCTAssertEqual(sketch("'#'"), "\"'#'\"")
        XCTAssertEqual(sketch("{g, select, other {'#' x}}"), "[g select other(\"'#' x\")]")
        // The trap: outside a plural, `'#'` is literal, but its closing `'` then quotes the `}` after it (ICU too).
        assertError("{g, select, other {'#'}}", .unclosedBrace, line: 1, column: 19)
        XCTAssertEqual(sketch("{n, plural, other {'#' is #}}"), "[n plural other('#'\" is \"#)]")
        XCTAssertEqual(sketch("{n, selectordinal, other {'#'#}}"), "[n selectordinal other('#'#)]")
        // Livery treats `#` in a select inside a plural as the number, so the quote works there as well.
        XCTAssertEqual(sketch("{n, plural, other {{g, select, other {'#'}}}}"), "[n plural other([g select other('#')])]")
    }

    func testUnterminatedQuoteIsLiteralToTheEnd() {
        // ICU auto-closes the quote at the end of the pattern rather than failing.
        XCTAssertEqual(sketch("'{abc"), "'{abc'")
        XCTAssertEqual(sketch("x '{a} {b}"), "\"x \"'{a} {b}'")
        // ...which can swallow the `}` that would close a sub-message.
        assertError("{n, plural, other {'{x}}}", .unclosedBrace, line: 1, column: 19)
    }

    func testQuotedSegmentPositionsSkipTheQuotes() throws {
        let segments = try XCTUnwrap(parsed("ab'{c''d}'e")).textSegments
        XCTAssertEqual(segments.map(\.text), ["ab", "{c'd}", "e"])
        XCTAssertEqual(segments.map(\.isQuoted), [false, true, false])
        XCTAssertEqual(segments.map(\.start.column), [1, 4, 11])
        XCTAssertEqual(segments[1].raw, "{c''d}")
        XCTAssertEqual(segments[1].position(ofScalarAt: 3)?.column, 8)  // the `d` after `''`
    }

    func testPrinterQuotesWhatNeedsQuoting() {
        let cases: [(String, String)] = [
            ("it's {n}", "it''s {n}"),
            ("'{'literal'}'", "'{'literal'}'"),
            ("'{a''b}'", "'{'a''b'}'"),
            ("'{{'x'}}'", "'{{'x'}}'"),  // one quoted run per run of braces
            ("'{''{'", "'{''{'"),  // brace, apostrophe, brace: one run, so the middle `''` stays an apostrophe
            ("# {n, plural, other {'#' #}}", "# {n, plural, other {'#' #}}"),
            ("{ n ,plural,offset:2 =0{x}other{y}}", "{n, plural, offset:2 =0 {x} other {y}}"),
            ("{n,number,::percent}", "{n, number, ::percent}"),
            ("{d,DATE,SHORT}", "{d, date, short}"),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(parsed(text)?.formatted, expected, text)
        }
    }
}
