import XCTest
@testable import LiveryL10n

/// `MessageFormat.literal`, the one ICU escaper (the printer, imported translations, scaffolds): what it writes,
/// and that the parser reads back exactly the text it was given, in both apostrophe styles.
final class MessageFormatLiteralTests: XCTestCase {
    func testDoubledStyleDoublesEveryApostropheAndQuotesRunsOfBraces() {
        let cases: [(String, String)] = [
            ("", ""),
            ("plain", "plain"),
            ("don't", "don''t"),
            ("{x}", "'{'x'}'"),
            ("{}", "'{}'"),  // one quoted run: '{''}' would read as "{'}"
            ("{'}", "'{''}'"),
            ("a'", "a''"),
            ("#1", "#1"),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(MessageFormat.literal(text, poundIsSyntax: false), expected, text)
        }
    }

    func testAsNeededStyleKeepsApostrophesThatCannotStartQuoting() {
        let cases: [(String, String)] = [
            ("", ""),
            ("don't", "don't"),
            ("a'", "a''"),  // at the end: what follows is unknown
            ("''", "''''"),
            ("'{", "'''{'"),
            ("{'", "'{'''"),
            ("}'x", "'}'''x"),
            ("l'{n}", "l'''{'n'}'"),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(MessageFormat.literal(text, poundIsSyntax: false, apostrophes: .asNeeded), expected, text)
        }
    }

    func testPoundIsQuotedOnlyWhereItIsSyntax() {
        XCTAssertEqual(MessageFormat.literal("#1", poundIsSyntax: true), "'#'1")
        XCTAssertEqual(MessageFormat.literal("#{", poundIsSyntax: true), "'#{'")
    }

    func testParserReadsBackTheTextInBothStyles() throws {
        let texts = ["", "plain", "don't", "it's {n}", "{}", "{'}", "'{", "{'", "}'x", "a''b", "'", "''", "{{x}}", "l'{n}", "x'", "'#'", "#{#}#"]
        for style in [MessageFormat.LiteralApostrophes.doubled, .asNeeded] {
            for text in texts {
                let literal = MessageFormat.literal(text, poundIsSyntax: false, apostrophes: style)
                let message = try XCTUnwrap(parsed(literal), "\(style) \(text.debugDescription) → \(literal.debugDescription)")
                XCTAssertEqual(message.textSegments.map(\.text).joined(), text, "\(style) \(text.debugDescription) → \(literal.debugDescription)")
                XCTAssertTrue(message.argumentUses.isEmpty, literal)
            }
        }
    }

    func testInsideAPluralBranchPoundStaysLiteral() throws {
        for style in [MessageFormat.LiteralApostrophes.doubled, .asNeeded] {
            let branch = MessageFormat.literal("# of {items}'s", poundIsSyntax: true, apostrophes: style)
            let message = try XCTUnwrap(parsed("{n, plural, other {\(branch)}}"))
            XCTAssertEqual(message.textSegments.map(\.text).joined(), "# of {items}'s", branch)
            XCTAssertTrue(message.poundPositions.isEmpty, branch)
        }
    }
}
