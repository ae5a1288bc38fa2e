@testable import LiveryLanguageServer
import LiveryLoad
import XCTest

/// Where completion's cursor is, read from the loader's parse of the text with the line being typed repaired.
final class CursorInTreeTests: XCTestCase {
    /// The place of the cursor at the end of `text`'s line `line` (or at `column` UTF-16 units).
    private func place(_ text: String, line: Int, column: Int? = nil, _ format: ManifestFormat = .yaml) -> CursorInTree? {
        let document = SourceDocument(text)
        let character = column ?? document.lineText(line).utf16.count
        return CursorInTree.locate(document, Position(line: line, character: character), format: format)
    }

    func testValuesInBlockAndUnclosedFlowYAML() {
        XCTAssertEqual(place("a:\n  b: x\n  c: l\nd: 1\n", line: 2), .value(["a", "c"]))
        // The flow mapping is still open where the cursor is.
        XCTAssertEqual(place("weeks:\n  - days:\n      - items:\n          - {type: ", line: 3), .value(["weeks", "days", "items", "type"]))
        XCTAssertEqual(place("weeks:\n  - days:\n      - items:\n          - {id: d1, type: l, lesson: x}\n", line: 3, column: "          - {id: d1, type: l".utf16.count),
                       .value(["weeks", "days", "items", "type"]))
        // A flow mapping over several lines: indentation says nothing about the keys here.
        XCTAssertEqual(place("items:\n  - {id: a,\n     type: l,\n     lesson: b}\n", line: 2, column: "     type: l".utf16.count), .value(["items", "type"]))
        XCTAssertEqual(place("items: [{id: a, tags: [x,\n  y]}, {type: l", line: 1), .value(["items", "type"]))
    }

    func testKeysWithoutTheirColonYet() {
        XCTAssertEqual(place("title: x\nrules:\n  localization.unt\nweeks: []\n", line: 2), .key(parent: ["rules"]))
        XCTAssertEqual(place("title: x\nrules:\n  localization.unt: off\n", line: 2, column: 8), .key(parent: ["rules"]))
        XCTAssertEqual(place("id: p\ntit", line: 1), .key(parent: []))
    }

    func testJSONValuesAndKeys() {
        let json = "{\n  \"items\": [\n    {\n      \"type\": \"l\"\n    }\n  ]\n}\n"
        XCTAssertEqual(place(json, line: 3, column: "      \"type\": \"l".utf16.count, .json), .value(["items", "type"]))
        XCTAssertEqual(place("{\n  \"rules\": {\n    \"loc\n  }\n}\n", line: 2, .json), .key(parent: ["rules"]))
        XCTAssertEqual(place("{\"items\": [{\"type\": l", line: 0, .json), .value(["items", "type"]))
    }

    func testTextThatNoRepairMakesParseHasNoPlace() {
        XCTAssertNil(place("a: [unclosed\nb: x\n", line: 1))
    }
}
