import Foundation
@testable import LiveryInterchange
import LiveryLoad
import XCTest

/// Values written into locale YAML files read back as the same text: double quotes escape what JSON
/// escapes and what YAML does not print (DEL, NEL, the line and paragraph separators, a BOM).
final class YAMLScalarWritingTests: XCTestCase {
    func testDoubleQuotedValuesEscapeWhatYAMLDoesNotPrintAndReadBackTheSame() throws {
        let value = "a\"b\\c\nd\te\r\u{1}\u{7F}\u{85}\u{2028}\u{2029}\u{FEFF} é 🎉"
        let written = LocaleFileEditor.render(value, like: .doubleQuoted)
        XCTAssertEqual(written, #""a\"b\\c\nd\te\r\u0001\u007F\u0085\u2028\u2029\uFEFF é 🎉""#)
        let (node, diagnostics) = ManifestParser.parse("k: " + written + "\n", format: .yaml, file: "t.yaml")
        XCTAssertEqual(diagnostics.map(\.message), [])
        XCTAssertEqual(node?["k"]?.string, value)
        // Plain and single-quoted values that cannot hold control characters fall back to double quotes.
        XCTAssertEqual(LocaleFileEditor.render("x\u{85}", like: .singleQuoted), #""x\u0085""#)
    }
}
