import LiveryInterchange
import XCTest

/// Android's escaping and folder qualifiers, pinned against what aapt2 does.
final class InterchangeAndroidTests: XCTestCase {
    func testEscapingRoundTripsThroughAapt2Rules() throws {
        for text in ["It's \"fine\"", "@home", "?why", "a\\b", "two\nlines", "  spaced  out ", "tab\there", "50% off", "<b>&</b>", "ok @ and ? inside"] {
            let escaped = AndroidResources.escape(text)
            XCTAssertEqual(try AndroidResources.unescape(escaped).get(), text, escaped)
        }
        // Texts on both sides of the byte-level check that lets most texts through unchanged: an escape it
        // missed would not survive aapt2's reading (a double space collapses, a bare quote is an error).
        for text in ["plain text", "日本語のテキスト", "a  b", "é ", " é", "é  é", "x\u{1}y", "end\r", "ok?", "mail@example", "Ünïcödé 'quoted'", ""] {
            let escaped = AndroidResources.escape(text)
            XCTAssertEqual(try AndroidResources.unescape(escaped).get(), text, escaped)
        }
        XCTAssertEqual(AndroidResources.escape("日本語 テキスト"), "日本語 テキスト")
        XCTAssertEqual(AndroidResources.escape("é  é"), "é \\u0020é")
        XCTAssertEqual(AndroidResources.escape("It's"), "It\\'s")
        XCTAssertEqual(AndroidResources.escape("@x"), "\\@x")
        XCTAssertEqual(AndroidResources.escape("?x"), "\\?x")
    }

    func testUnescapeFollowsAapt2WhitespaceAndQuotes() throws {
        XCTAssertEqual(try AndroidResources.unescape("  a \n  b  ").get(), "a b")
        XCTAssertEqual(try AndroidResources.unescape("\"  it's  \"").get(), "  it's  ")
        XCTAssertEqual(try AndroidResources.unescape("caf\\u00e9").get(), "café")
        XCTAssertThrowsError(try AndroidResources.unescape("it's").get())
        XCTAssertThrowsError(try AndroidResources.unescape("end\\").get())
    }

    func testFolderQualifiers() {
        XCTAssertEqual(AndroidResources.folder(of: "en", defaultLocale: "en"), "values")
        XCTAssertEqual(AndroidResources.folder(of: "ru", defaultLocale: "en"), "values-ru")
        XCTAssertEqual(AndroidResources.folder(of: "pt-BR", defaultLocale: "en"), "values-pt-rBR")
        XCTAssertEqual(AndroidResources.folder(of: "sr-Latn", defaultLocale: "en"), "values-b+sr+Latn")
        XCTAssertEqual(AndroidResources.folder(of: "es-419", defaultLocale: "en"), "values-b+es+419")
        XCTAssertEqual(AndroidResources.locale(ofFolder: "values-pt-rBR"), .some("pt-BR"))
        XCTAssertEqual(AndroidResources.locale(ofFolder: "values-b+sr+Latn"), .some("sr-Latn"))
        XCTAssertEqual(AndroidResources.locale(ofFolder: "values"), .some(nil))
        XCTAssertNil(AndroidResources.locale(ofFolder: "drawable"))
    }

    func testNameCollisionsAreReportedAtExport() throws {
        let root = try InterchangeFixture.copyTenants(self)
        let en = root.appendingPathComponent("Tenants/physio-clinic/locales/en.yaml")
        try Data((String(decoding: try Data(contentsOf: en), as: UTF8.self) + "nav_home: Clash\n").utf8).write(to: en)
        let result = Interchange.export(try InterchangeFixture.catalog(root, "physio-clinic"), format: .android, locale: "en")
        XCTAssertNil(result.value)
        let collision = try XCTUnwrap(result.diagnostics.first { $0.ruleID == InterchangeRule.nameCollision })
        XCTAssertEqual(collision.location.file, "Tenants/physio-clinic/locales/en.yaml")
        XCTAssertGreaterThan(collision.location.line, 50)
    }
}
