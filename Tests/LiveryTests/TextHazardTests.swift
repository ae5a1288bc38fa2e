import Foundation
import LiveryLoad
import XCTest

/// Invisible characters (docs/rules.md): a zero-width character in an id or a message key is named in
/// the error, and bidirectional controls in a left-to-right locale are refused where they stand.
final class TextHazardTests: XCTestCase {
    func testInvisibleCharactersInIdsAndKeysAreNamedAndBidiControlsLocated() throws {
        let workspace = try BuildTests.Workspace()
        try workspace.replace("companero/tenant.yaml", "id: companero\n", "id: compa\u{200B}nero\n")
        try workspace.replace("companero/locales/en.yaml", "  today: Today", "  to\u{200D}day: Today")
        try workspace.replace("physio-clinic/locales/en.yaml", "nav:\n", "zz: \"Total: \u{202E}01$\"\nnav:\n")
        let result = try LiveryProcess.run(["validate", "Tenants/companero", "Tenants/physio-clinic"], in: workspace.root)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stdout.contains("it contains U+200B ZERO WIDTH SPACE after 'compa', which draws nothing but makes it a different name: delete it"), result.stdout)
        XCTAssertTrue(result.stdout.contains("it contains U+200D ZERO WIDTH JOINER after 'to'"), result.stdout)
        XCTAssertTrue(result.stdout.contains("'zz' contains U+202E RIGHT-TO-LEFT OVERRIDE, which reorders how the text displays [localization.bidi-controls]"), result.stdout)
        XCTAssertTrue(result.stdout.contains("physio-clinic/locales/en.yaml:2:13:"), result.stdout)
        XCTAssertEqual(InvisibleCharacters.bidiControls(in: "plain ascii and ünïcode").count, 0)
        XCTAssertNil(InvisibleCharacters.hint(for: "companero"))
    }
}
