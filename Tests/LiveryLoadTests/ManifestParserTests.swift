import LiveryDiagnostics
@testable import LiveryLoad
import XCTest

final class ManifestParserTests: XCTestCase {
    private func yaml(_ text: String, limits: LoadLimits = .default) -> (Node?, [Diagnostic]) {
        ManifestParser.parse(text, format: .yaml, file: "t.yaml", limits: limits)
    }

    private func json(_ text: String) -> (Node?, [Diagnostic]) {
        ManifestParser.parse(text, format: .json, file: "t.json")
    }

    func testYAMLKeepsLineAndColumnOfEveryValue() throws {
        let (node, diagnostics) = yaml("name: Physio\nlocales:\n  supported: [en, ru]\n")
        XCTAssertEqual(diagnostics, [])
        let root = try XCTUnwrap(node)
        XCTAssertEqual(root["name"]?.location, SourceLocation(file: "t.yaml", line: 1, column: 7))
        XCTAssertEqual(root.entry("locales")?.keyLocation, SourceLocation(file: "t.yaml", line: 2, column: 1))
        let ru = try XCTUnwrap(root["locales"]?["supported"]?.items?.last)
        XCTAssertEqual(ru.string, "ru")
        XCTAssertEqual(ru.location, SourceLocation(file: "t.yaml", line: 3, column: 19))
    }

    func testColumnsCountCharactersNotBytes() throws {
        let (node, _) = yaml("заголовок: Привет\nkey: value\n")
        XCTAssertEqual(node?["заголовок"]?.location.column, 12)
        let (jsonNode, _) = json("{\"ключ\": \"значение\", \"b\": 1}")
        XCTAssertEqual(jsonNode?["b"]?.location, SourceLocation(file: "t.json", line: 1, column: 27))
    }

    func testYAMLDuplicateKeyIsReportedAtTheDuplicate() {
        let (_, diagnostics) = yaml("a: 1\nb:\n  c: 2\n  c: 3\n")
        XCTAssertEqual(diagnostics.map(\.location), [SourceLocation(file: "t.yaml", line: 4, column: 3)])
        XCTAssertEqual(diagnostics.first?.ruleID, LoadRule.duplicateKey)
        XCTAssertTrue(diagnostics.first?.message.contains("line 3, column 3") == true)
    }

    func testJSONDuplicateKeyIsReportedAtTheDuplicate() {
        let (_, diagnostics) = json("{\n  \"a\": 1,\n  \"a\": 2\n}")
        XCTAssertEqual(diagnostics.map(\.location), [SourceLocation(file: "t.json", line: 3, column: 3)])
    }

    func testYAMLUsesCoreSchemaSoNorwayStaysText() throws {
        let (node, _) = yaml("country: NO\nflag: yes\non: true\ncount: 0x1F\nratio: 1.5e3\nnothing: ~\nversion: 1.10\n")
        let root = try XCTUnwrap(node)
        XCTAssertEqual(root["country"]?.string, "NO")
        XCTAssertEqual(root["flag"]?.string, "yes")
        XCTAssertEqual(root["on"]?.bool, true)
        XCTAssertEqual(root["count"]?.int, 31)
        XCTAssertEqual(root["ratio"]?.number, 1500)
        XCTAssertTrue(root["nothing"]?.isNull == true)
        XCTAssertEqual(root["version"]?.number, 1.1)
    }

    /// Plain text is resolved only when it starts like a core-schema value (a digit, a sign, '.', '~', or
    /// n/t/f in either case); each of those forms, and text that merely starts the same way, is pinned.
    func testEveryCoreSchemaFormIsResolvedAndLookAlikesStayText() throws {
        let (node, diagnostics) = yaml("a: +12\nb: -3\nc: .5\nd: .inf\ne: -.INF\nf: .NaN\ng: Null\nh: NULL\ni: TRUE\nj: False\nk: 0o17\nl: +.Inf\n"
                                        + "m: nope\nn: tea\no: -dash\np: .hidden\nq: ~x\nr: Trueish\ns: 12px\n")
        XCTAssertEqual(diagnostics.map(\.message), [])
        let root = try XCTUnwrap(node)
        XCTAssertEqual(root["a"]?.int, 12)
        XCTAssertEqual(root["b"]?.int, -3)
        XCTAssertEqual(root["c"]?.number, 0.5)
        XCTAssertEqual(root["d"]?.number, .infinity)
        XCTAssertEqual(root["e"]?.number, -.infinity)
        XCTAssertTrue(root["f"]?.number?.isNaN == true)
        XCTAssertTrue(root["g"]?.isNull == true)
        XCTAssertTrue(root["h"]?.isNull == true)
        XCTAssertEqual(root["i"]?.bool, true)
        XCTAssertEqual(root["j"]?.bool, false)
        XCTAssertEqual(root["k"]?.int, 15)
        XCTAssertEqual(root["l"]?.number, .infinity)
        for key in ["m", "n", "o", "p", "q", "r", "s"] { XCTAssertNotNil(root[key]?.string, key) }
    }

    func testQuotedScalarsAreAlwaysText() {
        let (node, _) = yaml("a: \"1\"\nb: 'true'\n")
        XCTAssertEqual(node?["a"]?.string, "1")
        XCTAssertEqual(node?["b"]?.string, "true")
    }

    func testMergeKeyCopiesEntriesTheMappingDoesNotSet() {
        let (node, diagnostics) = yaml("base: &b {x: 1, y: 2}\nchild:\n  <<: *b\n  y: 3\n")
        XCTAssertEqual(diagnostics, [])
        XCTAssertEqual(node?["child"]?["x"]?.int, 1)
        XCTAssertEqual(node?["child"]?["y"]?.int, 3)
    }

    func testAliasBombIsRefusedBeforeExpanding() {
        var lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
        for i in 1..<30 { lines.append("a\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 10).joined(separator: ", ") + "]") }
        let (node, diagnostics) = yaml(lines.joined(separator: "\n"))
        XCTAssertNil(node)
        XCTAssertEqual(diagnostics.map(\.ruleID), [LoadRule.limits])
        XCTAssertGreaterThan(diagnostics.first?.location.line ?? 0, 1)
    }

    func testDeepNestingIsRefusedWithoutRecursion() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let (node, diagnostics) = yaml("a: " + deep)
        XCTAssertNil(node)
        XCTAssertEqual(diagnostics.first?.ruleID, LoadRule.limits)
        let (jsonNode, jsonDiagnostics) = json(deep)
        XCTAssertNil(jsonNode)
        XCTAssertEqual(jsonDiagnostics.first?.ruleID, LoadRule.limits)
    }

    func testYAMLSyntaxErrorPointsAtTheProblem() {
        // An unclosed '[' is reported at the '[' (issue 16, item 3), naming where the parser gave up.
        let (node, diagnostics) = yaml("a: 1\nb: [1, 2\nc: 3\n")
        XCTAssertNil(node)
        XCTAssertEqual(diagnostics.first?.ruleID, LoadRule.syntax)
        XCTAssertEqual(diagnostics.first?.location.line, 2)
        XCTAssertEqual(diagnostics.first?.location.column, 4)
        XCTAssertEqual(diagnostics.first?.related.first?.location.line, 3)
    }

    func testJSONErrorsAreLocated() {
        let cases: [(String, Int, Int, String)] = [
            ("{\"a\": 1,}", 1, 9, "trailing comma"),
            ("{\"a\": 01}", 1, 7, "leading zeros"),
            ("{\"a\": 'x'}", 1, 7, "double quotes"),
            ("{\"a\": \"x\n\"}", 1, 9, "unterminated"),
            ("{\"a\": 1}\n{}", 2, 1, "after the end"),
            ("{\"a\" 1}", 1, 6, "expected ':'"),
            ("{\"a\": \"\\q\"}", 1, 9, "invalid escape"),
        ]
        for (text, line, column, phrase) in cases {
            let (node, diagnostics) = json(text)
            XCTAssertNil(node, text)
            XCTAssertEqual(diagnostics.first?.location, SourceLocation(file: "t.json", line: line, column: column), text)
            XCTAssertTrue(diagnostics.first?.message.contains(phrase) == true, "\(text): \(diagnostics.first?.message ?? "")")
        }
    }

    func testJSONDecodesEscapesAndNumbers() throws {
        let (node, diagnostics) = json(#"{"s": "a\"b\u00e9\ud83d\ude00", "i": -12, "f": 2.5e-1, "t": true, "n": null, "l": [1, {"x": []}]}"#)
        XCTAssertEqual(diagnostics, [])
        let root = try XCTUnwrap(node)
        XCTAssertEqual(root["s"]?.string, "a\"bé😀")
        XCTAssertEqual(root["i"]?.int, -12)
        XCTAssertEqual(root["f"]?.number, 0.25)
        XCTAssertEqual(root["t"]?.bool, true)
        XCTAssertTrue(root["n"]?.isNull == true)
        XCTAssertEqual(root["l"]?.items?.count, 2)
    }

    func testEncodingProblemsAreLocated() {
        guard case .failure(.diagnostic(let nul)) = SourceText.decode(Array("a: 1\nb: x\0".utf8), displayPath: "t.yaml") else { return XCTFail("NUL accepted") }
        XCTAssertEqual(nul.location, SourceLocation(file: "t.yaml", line: 2, column: 5))
        guard case .failure(.diagnostic(let latin1)) = SourceText.decode([0x61, 0x3A, 0x20, 0xE9, 0x0A], displayPath: "t.yaml") else { return XCTFail("Latin-1 accepted") }
        XCTAssertEqual(latin1.location.column, 4)
        XCTAssertEqual(latin1.ruleID, LoadRule.encoding)
        guard case .failure = SourceText.decode([0xED, 0xA0, 0x80], displayPath: "t.yaml") else { return XCTFail("surrogate accepted") }
        guard case .success(let text) = SourceText.decode([0xEF, 0xBB, 0xBF, 0x61], displayPath: "t.yaml") else { return XCTFail("BOM refused") }
        XCTAssertEqual(text, "a")
    }

    func testEmptyAndCommentOnlyFilesAreSyntaxErrors() {
        for text in ["", "   \n", "# only a comment\n"] {
            let (node, diagnostics) = yaml(text)
            XCTAssertNil(node)
            XCTAssertEqual(diagnostics.map(\.ruleID), [LoadRule.syntax], text)
        }
    }
}
