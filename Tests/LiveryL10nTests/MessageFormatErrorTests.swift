import XCTest
@testable import LiveryL10n

// Every syntax error with the exact position of the offending character. Offsets and columns count
// Unicode scalars; ICU reports the same errors (it stops at the first), except where a comment says.
final class MessageFormatErrorTests: XCTestCase {
    func testUnbalancedBraces() {
        assertError("Hello {name", .unclosedBrace, line: 1, column: 7, offset: 6)  // an unclosed argument points at its `{`
        assertError("abc {", .unclosedBrace, line: 1, column: 5, offset: 4)
        assertError("{n, plural, other {abc}", .unclosedBrace, line: 1, column: 1, offset: 0)  // the outer `{` is the one left open
        assertError("{n, plural, other {abc", .unclosedBrace, line: 1, column: 19, offset: 18)  // the innermost open `{` is reported
        assertError("{n, number, integer", .unclosedBrace, line: 1, column: 1, offset: 0)
        assertError("{n, plural, one {a} other {b} ", .unclosedBrace, line: 1, column: 1, offset: 0)
        assertError("{n,", .unclosedBrace, line: 1, column: 1, offset: 0)
        assertError("abc } def", .unmatchedClosingBrace, line: 1, column: 5, offset: 4)  // ICU would print it; Livery flags it
        assertError("{n} }", .unmatchedClosingBrace, line: 1, column: 5, offset: 4)
        assertError("{n, plural, other {'{x}}}", .unclosedBrace, line: 1, column: 19, offset: 18)  // the quote runs to the end, so the sub-message is never closed
    }

    func testArgumentNameErrors() {
        assertError("{}", .emptyArgument, line: 1, column: 2, offset: 1)
        assertError("{  }", .emptyArgument, line: 1, column: 4, offset: 3)
        assertError("{, number}", .emptyArgument, line: 1, column: 2, offset: 1)
        assertError("{01}", .invalidArgumentName, line: 1, column: 2, offset: 1)  // ICU rejects leading zeros
        assertError("{99999999999}", .invalidArgumentName, line: 1, column: 2, offset: 1)  // beyond 32 bits
        assertError("{a b}", .invalidArgumentName, line: 1, column: 4, offset: 3)
        assertError("{a-b}", .invalidArgumentName, line: 1, column: 3, offset: 2)  // `-` is Pattern_Syntax
        assertError("{-a}", .invalidArgumentName, line: 1, column: 2, offset: 1)
        assertError("{#}", .invalidArgumentName, line: 1, column: 2, offset: 1)
    }

    func testArgumentTypeErrors() {
        assertError("{n, }", .missingArgumentType, line: 1, column: 5, offset: 4)
        assertError("{n,}", .missingArgumentType, line: 1, column: 4, offset: 3)
        assertError("{n, , short}", .missingArgumentType, line: 1, column: 5, offset: 4)
        assertError("{n, foo}", .unknownArgumentType, line: 1, column: 5, offset: 4)
        assertError("{n, number2}", .unknownArgumentType, line: 1, column: 5, offset: 4)
        assertError("{n, choice, 0#none|1#one}", .unknownArgumentType, line: 1, column: 5, offset: 4)  // deprecated in ICU, not supported
        assertError("{n, 5}", .unknownArgumentType, line: 1, column: 5, offset: 4)
        assertError("{n, number integer}", .unexpectedCharacter, line: 1, column: 12, offset: 11)
        assertError("{n, plural one {a}}", .unexpectedCharacter, line: 1, column: 12, offset: 11)
        assertError("{n, number, 'abc}", .unterminatedQuote, line: 1, column: 13, offset: 12)
    }

    func testSelectorErrors() {
        assertError("{n, plural}", .missingOptions, line: 1, column: 11, offset: 10)
        assertError("{n, plural,}", .missingOptions, line: 1, column: 12, offset: 11)
        assertError("{n, select, }", .missingOptions, line: 1, column: 13, offset: 12)
        assertError("{n, select, =1 {a} other {b}}", .invalidSelector, line: 1, column: 13, offset: 12)  // `=N` is for plural only
        assertError("{n, plural, , other {b}}", .invalidSelector, line: 1, column: 13, offset: 12)
        assertError("{n, plural, = 1 {a} other {b}}", .invalidExplicitSelector, line: 1, column: 13, offset: 12)
        assertError("{n, plural, =x {a} other {b}}", .invalidExplicitSelector, line: 1, column: 14, offset: 13)
        assertError("{n, plural, =1x {a} other {b}}", .invalidExplicitSelector, line: 1, column: 14, offset: 13)
        assertError("{n, plural, =1.5.2 {a} other {b}}", .invalidExplicitSelector, line: 1, column: 14, offset: 13)
        assertError("{n, plural, one {a} one {b} other {c}}", .duplicateSelector, line: 1, column: 21, offset: 20)  // reported at the second one
        assertError("{n, plural, =1 {a} =1.0 {b} other {c}}", .duplicateSelector, line: 1, column: 20, offset: 19)  // same value, different spelling
        assertError("{g, select, male {a} other {b} other {c}}", .duplicateSelector, line: 1, column: 32, offset: 31)
        assertError("{n, plural, one other {b}}", .missingSelectorMessage, line: 1, column: 13, offset: 12)
        assertError("{n, plural, one {a} other b}", .missingSelectorMessage, line: 1, column: 21, offset: 20)
        assertError("{n, plural, one {a} other {b} junk}", .trailingText, line: 1, column: 31, offset: 30)
        assertError("{g, select, other {b} .}", .trailingText, line: 1, column: 23, offset: 22)
    }

    func testOffsetErrors() {
        assertError("{n, plural, one {a} offset:1 other {b}}", .offsetNotFirst, line: 1, column: 21, offset: 20)
        assertError("{n, plural, offset:1 offset:2 other {b}}", .offsetNotFirst, line: 1, column: 22, offset: 21)
        assertError("{n, plural, offset:x other {b}}", .invalidOffset, line: 1, column: 20, offset: 19)
        assertError("{n, plural, offset: 1.5 other {b}}", .invalidOffset, line: 1, column: 21, offset: 20)  // ICU accepts decimals; Livery wants an integer
        assertError("{n, plural, offset:-1 other {b}}", .invalidOffset, line: 1, column: 20, offset: 19)
        assertError("{n, plural, offset:{a}}", .invalidOffset, line: 1, column: 20, offset: 19)
        assertError("{g, select, offset:1 other {b}}", .offsetInSelect, line: 1, column: 13, offset: 12)
    }
    func testErrorPositionInAMultiLineMessage() {
        let text = "Line one\nLine two {n, plural,\n  one {a}\n  one {b}\n  other {c}}"
        assertError(text, .duplicateSelector, line: 4, column: 3, offset: 42)
        assertError("first\n\nthird {x, plural,\n    other {y}\n", .unclosedBrace, line: 3, column: 7, offset: 13)
    }

    func testErrorColumnsCountScalarsAfterNonASCIIText() {
        // Cyrillic letters are one scalar each (two UTF-8 bytes, one UTF-16 unit).
        let russian = "Привет, {имя}! У вас {n, plural, one {# сообщение} few {# сообщения} other {# сообщений} лишнее}"
        assertError(russian, .trailingText, line: 1, column: 90, offset: 89)
        // Each emoji here is one scalar but two UTF-16 units; the family is five scalars joined into one grapheme.
        assertError("🎉🎉 {n, foo}", .unknownArgumentType, line: 1, column: 8, offset: 7)
        assertError("👨‍👩‍👧 {n, plural, other {x}", .unclosedBrace, line: 1, column: 7, offset: 6)
        assertError("Ошибка\nв строке {n, plural, =x {}}", .invalidExplicitSelector, line: 2, column: 23, offset: 29)
    }

    func testTheFirstErrorIsReported() {
        // Both the unknown type and the stray brace are wrong; the earlier one wins, as in ICU.
        assertError("{a, foo} }", .unknownArgumentType, line: 1, column: 5)
        assertError("{a} } {b, foo}", .unmatchedClosingBrace, line: 1, column: 5)
    }

    func testErrorDescriptionCarriesPositionMessageAndCode() {
        guard case .failure(let error) = MessageFormat.parse("x {n, foo}") else { return XCTFail("expected an error") }
        XCTAssertEqual(error.description, "1:7: unknown argument type 'foo'; expected one of number, date, time, spellout, ordinal, duration, plural, selectordinal, select [unknown-argument-type]")
        XCTAssertTrue(error.message.contains("'foo'"))
        XCTAssertThrowsError(try MessageFormat(parsing: "{"))
    }
}
