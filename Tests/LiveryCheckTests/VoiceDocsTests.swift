@testable import LiveryCheck
import Foundation
import LiveryTestSupport
import XCTest

/// docs/voice.md shows the forms-of-address table to readers; it must say what the code does.
final class VoiceDocsTests: XCTestCase {
    func testAddressTableInDocsMatchesTheCode() throws {
        let docs = try String(contentsOf: LiveryProcess.packageRoot.appendingPathComponent("docs/voice.md"), encoding: .utf8)
        var checked = 0
        for line in docs.split(separator: "\n") where line.hasPrefix("| ") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 6, let language = VoiceLanguage.table[cells[1]], !language.formalName.isEmpty else { continue }
            XCTAssertEqual(Self.words(cells[3]), Set(language.informal.map { $0.word + ($0.elided ? "'" : "") }), "informal forms of \(cells[1])")
            XCTAssertEqual(Self.words(cells[5]), Set(language.formal.map(\.word)), "formal forms of \(cells[1])")
            XCTAssertTrue(language.informalName.contains(cells[2].lowercased()), "informal name of \(cells[1])")
            XCTAssertTrue(language.formalName.contains(cells[4].lowercased()), "formal name of \(cells[1])")
            checked += 1
        }
        XCTAssertEqual(checked, 5, "the table lists ru, fr, it, de and es")
    }

    /// The words of a cell, without the notes in parentheses: "Lei (capitalised); La, Le" → Lei, La, Le.
    private static func words(_ cell: String) -> Set<String> {
        var text = cell
        while let open = text.firstIndex(of: "("), let close = text[open...].firstIndex(of: ")") { text.removeSubrange(open...close) }
        return Set(text.split(whereSeparator: { $0 == "," || $0 == ";" }).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
    }
}
