import Foundation
import XCTest
@testable import LiveryL10n

// Hostile and random input: bounded nesting, no crashes, errors inside the text, stable printing.
final class MessageFormatRobustnessTests: XCTestCase {
    private func nestedSelects(_ depth: Int, closed: Bool = true) -> String {
        String(repeating: "{a, select, other {", count: depth) + "x" + (closed ? String(repeating: "}}", count: depth) : "")
    }

    func testNestingUpToTheLimitParses() throws {
        let message = try XCTUnwrap(parsed(nestedSelects(MessageFormatParser.maximumDepth)))
        XCTAssertEqual(message.selections.count, 32)
        XCTAssertEqual(message.textSegments.map(\.text), ["x"])
    }

    func testNestingOneBeyondTheLimitPointsAtTheTooDeepBrace() {
        // Each level is 19 scalars, so the 33rd `{` is at offset 32 × 19.
        assertError(nestedSelects(33), .nestingTooDeep, line: 1, column: 32 * 19 + 1, offset: 32 * 19)
    }

    func testDepthBombFailsFastWithoutCrashing() {
        let bomb = nestedSelects(10_000, closed: false)
        let started = Date()
        assertError(bomb, .nestingTooDeep, line: 1, column: 32 * 19 + 1)
        XCTAssertLessThan(Date().timeIntervalSince(started), 2, "the depth limit must stop parsing early")
        // Unbalanced openers alone (no selections) must not recurse either.
        assertError(String(repeating: "{", count: 100_000), .invalidArgumentName, line: 1, column: 2)
        assertError(String(repeating: "'{", count: 50_000), .invalidArgumentName, line: 1, column: 5)
    }

    func testRoundTripIsStable() throws {
        let corpus = [
            "Hello, {name}! You have {count, plural, =0 {no messages} one {# message} other {# messages}}.",
            "{gender, select, female {{n, plural, offset:1 =0 {She is alone} one {She and # other} other {She and # others}}} other {They}}",
            "it's '{'literal'}' and I''m {n, number, ::currency/EUR} on {d, date, long} at {t, time, HH:mm}",
            "{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}} '#' {x, plural, other {'#'}}",
            "<b>{n, number, #,##0.00}</b> {n, spellout, %spellout-ordinal}",
            "'{abc",
            "{a, plural, one {{g, select, other {{b, plural, other {# b}} # a}}} other {# a}}",
        ]
        for text in corpus {
            let first = try XCTUnwrap(parsed(text))
            let printed = first.formatted
            let second = try XCTUnwrap(parsed(printed), printed)
            XCTAssertEqual(contentSketch(second.root), contentSketch(first.root), "tree changed through \(printed)")
            XCTAssertEqual(second.formatted, printed)
        }
    }

    func testRandomInputNeverCrashes() throws {
        let alphabet: [String] = [
            "{", "}", "{", "}", "'", "''", "#", ",", " ", "\n", "=", ":", "a", "n", "0", "1", "1.5", ".", "-", "<", ">", "/",
            "é", "🎉", "\u{00A0}", "plural", "select", "selectordinal", "number", "date", "::", "other", "one", "offset:",
            "=0", "{n, plural, ", "{g, select, ", "other {", "one {", "<b>", "</b>", "<br/>",
        ]
        var random = SplitMix64(state: 0x4C69_7665_7279)
        var parsedCount = 0
        var codesSeen = Set<MessageFormatError.Code>()
        for _ in 0..<4000 {
            let length = Int.random(in: 0...30, using: &random)
            let text = (0..<length).map { _ in alphabet.randomElement(using: &random)! }.joined()
            let scalars = Array(text.unicodeScalars)
            switch MessageFormat.parse(text) {
            case .failure(let error):
                codesSeen.insert(error.code)
                // The position must be a real place in the text and agree with its own line and column.
                XCTAssertTrue((0...scalars.count).contains(error.position.offset), "\(text.debugDescription): \(error)")
                let before = scalars.prefix(error.position.offset)
                XCTAssertEqual(error.position.line, before.filter { $0 == "\n" }.count + 1, text.debugDescription)
                let lineStart = before.lastIndex(of: "\n").map { $0 + 1 } ?? 0
                XCTAssertEqual(error.position.column, error.position.offset - lineStart + 1, text.debugDescription)
            case .success(let message):
                parsedCount += 1
                let reparsed = try XCTUnwrap(parsed(message.formatted), "\(text.debugDescription) printed as \(message.formatted.debugDescription)")
                XCTAssertEqual(contentSketch(reparsed.root), contentSketch(message.root), text.debugDescription)
                XCTAssertEqual(reparsed.formatted, message.formatted, text.debugDescription)
                // The text segments, concatenated, are exactly the literal output, in source order.
                for segment in message.textSegments {
                    XCTAssertEqual(segment.scalarPositions.count, segment.text.unicodeScalars.count, text.debugDescription)
                    if let last = segment.scalarPositions.last {
                        XCTAssertLessThan(last.position.offset, scalars.count)
                    }
                }
                _ = MarkupTags.firstProblem(in: message, includeQuoted: true)
                _ = message.arguments
            }
        }
        // The alphabet is biased towards valid fragments; make sure the loop exercised both outcomes.
        XCTAssertGreaterThan(parsedCount, 200)
        XCTAssertLessThan(parsedCount, 3800)
        XCTAssertGreaterThanOrEqual(codesSeen.count, 10, "errors seen: \(codesSeen.map(\.rawValue).sorted())")
    }
}
