import LiveryDiagnostics
@testable import LiveryLoad
import XCTest

/// A position inside a message maps to the exact file line and column, for every way YAML (and
/// JSON) can write the text. Each case marks the expected character in the file with `↓` and names
/// the character of the value to map; the files use non-ASCII text, since columns count Unicode scalars.
final class LocalizationPositionTests: XCTestCase {
    private func assertMaps(_ marked: String, _ needle: Unicode.Scalar, format: ManifestFormat = .yaml, expectRaw: Bool = true,
                            file: StaticString = #filePath, line: UInt = #line) throws {
        let range = try XCTUnwrap(marked.range(of: "↓"), "no marker", file: file, line: line)
        // Split by scalars: as Characters, "\r\n" is one grapheme and would not split at "\n".
        let before = marked[..<range.lowerBound].unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
        let expected = SourceLocation(file: "t", line: before.count, column: (before.last?.count ?? 0) + 1)
        let text = marked.replacingOccurrences(of: "↓", with: "")
        let (root, diagnostics) = ManifestParser.parse(text, format: format, file: "t", limits: .default)
        XCTAssertEqual(diagnostics, [], file: file, line: line)
        let node = try XCTUnwrap(root?["k"], file: file, line: line)
        let value = try XCTUnwrap(node.string, file: file, line: line)
        let scalar = try XCTUnwrap(node.scalar, "no scalar source recorded", file: file, line: line)
        XCTAssertEqual(scalar.raw != nil, expectRaw, "raw source kept: \(scalar.raw ?? "nil")", file: file, line: line)
        let offset = try XCTUnwrap(Array(value.unicodeScalars).firstIndex(of: needle), "'\(needle)' not in \(value.debugDescription)", file: file, line: line)
        XCTAssertEqual(scalar.location(ofValueOffset: offset, value: value, start: node.location), expected, "value \(value.debugDescription)", file: file, line: line)
    }

    func testPlainScalarMapsByColumn() throws {
        try assertMaps("k: Дом ↓{x\n", "{", expectRaw: false)
    }

    func testQuotedScalarsWithoutEscapesMapAfterTheQuote() throws {
        try assertMaps("k: \"Дом ↓{x\"\n", "{", expectRaw: false)
        try assertMaps("k: 'Дом ↓{x'\n", "{", expectRaw: false)
    }

    func testSingleQuotedDoubledApostrophe() throws {
        try assertMaps("k: 'it''s é ↓{x'\n", "{")
    }

    func testDoubleQuotedEscapes() throws {
        try assertMaps("k: \"\\u00e9\\\"\\n ↓{x\"\n", "{")
        try assertMaps("k: \"\\x41\\U0001F600\\t\\\\ ↓}\"\n", "}")
        // The escape itself is where its character comes from.
        try assertMaps("k: \"ab ↓\\u00e9\"\n", "é")
    }

    func testDoubleQuotedFoldingAndEscapedLineBreak() throws {
        try assertMaps("k: \"Привет,\n  мир ↓{x\"\n", "{")
        try assertMaps("k: \"один\n\n  два ↓}\"\n", "}")
        try assertMaps("k: \"раз \\\n   два ↓}\"\n", "}")
    }

    func testPlainMultiLine() throws {
        try assertMaps("k: а\n  б ↓{x\n", "{")
    }

    func testSingleQuotedMultiLine() throws {
        try assertMaps("k: 'l''un\n   ↓{x'\n", "{")
    }

    func testLiteralBlockScalar() throws {
        try assertMaps("k: |\n  first line\n   ёж ↓{x\nother: 1\n", "{")
        try assertMaps("k: |- # a comment { with braces\n  ёж ↓{x\n", "{")
    }

    func testFoldedBlockScalar() throws {
        try assertMaps("k: >-\n  one\n  two\n\n  три ↓{x\n", "{")
        try assertMaps("k: >\n  один\n  ↓}\n", "}")
    }

    func testBlockScalarWithIndentationIndicatorAndNestedKey() throws {
        try assertMaps("k: |2\n     ↓ёж\n  next\n", "ё")
        try assertMaps("k: |1\n  ё ↓{\n", "{")
    }

    func testWindowsLineEndings() throws {
        try assertMaps("k: |\r\n  один\r\n  два ↓{x\r\n", "{")
        try assertMaps("k: \"один\r\n  два ↓{x\"\r\n", "{")
    }

    func testJSONEscapes() throws {
        try assertMaps("{\"k\": \"\\u00e9\\n\\ud83d\\ude00 ↓{x\"}", "{", format: .json)
        try assertMaps("{\"k\": \"é ↓{x\"}", "{", format: .json, expectRaw: false)
    }

    func testEndOfScalarIsRecorded() throws {
        let (root, _) = ManifestParser.parse("k: \"ab\"\nb: |\n  x\n  y\nc: d\n", format: .yaml, file: "t", limits: .default)
        let quoted = try XCTUnwrap(root?["k"]?.scalar)
        XCTAssertEqual(quoted.style, .doubleQuoted)
        XCTAssertEqual([quoted.endLine, quoted.endColumn], [1, 8])
        let block = try XCTUnwrap(root?["b"]?.scalar)
        XCTAssertEqual(block.style, .literal)
        XCTAssertEqual([block.endLine, block.endColumn], [5, 1])
        XCTAssertEqual(root?["c"]?.scalar?.style, .plain)
    }

    func testPastTheEndMapsAfterTheLastCharacter() throws {
        let (root, _) = ManifestParser.parse("k: \"\\u00e9{\"\n", format: .yaml, file: "t", limits: .default)
        let node = try XCTUnwrap(root?["k"])
        // "é{" has two scalars; offset 2 is just past the `{`, which is column 11.
        XCTAssertEqual(node.scalar?.location(ofValueOffset: 2, value: "é{", start: node.location), SourceLocation(file: "t", line: 1, column: 12))
    }

    func testSourceThatDoesNotReplayFallsBackToAColumnShift() {
        // A raw text that does not decode to the value (as if the parser had changed) must not invent positions.
        let source = ScalarSource(style: .doubleQuoted, endLine: 1, endColumn: 10, raw: "\"\\qbad\"")
        let start = SourceLocation(file: "t", line: 3, column: 5)
        XCTAssertEqual(source.location(ofValueOffset: 2, value: "xyz", start: start), SourceLocation(file: "t", line: 3, column: 8))
    }
}
