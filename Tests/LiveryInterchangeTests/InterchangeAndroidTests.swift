import XCTest

@testable import LiveryInterchange
@testable import LiveryLoad
import LiveryTestSupport

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
    /// `strings.xml` is written byte by byte (`AndroidResourceBytes`); libxml2 building and serialising the
    /// same document is the oracle: every locale of every sample tenant, byte for byte.
    func testStringsXMLBytesMatchLibxml2OnTheSamples() throws {
        let root = try InterchangeFixture.copyTenants(self)
        var compared = 0
        for id in InterchangeFixture.tenantIDs {
            let catalog = try InterchangeFixture.catalog(root, id)
            for locale in catalog.locales {
                let direct = try XCTUnwrap(AndroidFormat.export(catalog, locale: locale).value, "\(id) \(locale)")
                let oracle = try XCTUnwrap(AndroidFormat.exportThroughLibxml2(catalog, locale: locale).value, "\(id) \(locale)")
                XCTAssertEqual(String(decoding: direct, as: UTF8.self), String(decoding: oracle, as: UTF8.self), "\(id) \(locale)")
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, 10)
    }

    /// The same on hostile text: XML and Android specials, whitespace, control characters, non-ASCII,
    /// emoji, '%' with and without format arguments, verbatim keys (a comment), plurals, empty text,
    /// and a catalog with no keys (an empty root). The result is also well-formed for xmllint.
    func testStringsXMLBytesMatchLibxml2OnHostileText() throws {
        let hostile = ["It's \"quoted\" & <b>bold</b> > x", "@start", "?start", "a @ b ? c", "two\nlines\r\nand\ttab", "  lead and trail  ",
                       "a  b   c", "ünïcödé 日本語 Привет", "emoji 👩‍👩‍👧 🇫🇷", "50% off", "100%", "%d %s %%", "back\\slash", "x\u{1}y\u{1F}z\u{7F}",
                       "]]> -- <!-- -->", "&amp; &lt; &#13;", "'", "", " ", "\u{FEFF}bom", "tab\t"]
        var en: [(String, String)] = [], fr: [(String, String)] = []
        for (i, text) in hostile.enumerated() {
            en.append(("plain\(i)", text))
            fr.append(("plain\(i)", text.isEmpty ? "x" : text + " fr"))
            // Literal text around an argument and inside plural options (ICU quoting for apostrophes and braces).
            let icu = text.replacingOccurrences(of: "'", with: "''").replacingOccurrences(of: "{", with: "'{'")
            en.append(("arg\(i)", "\(icu) {name} \(icu)"))
            en.append(("count\(i)", "\(icu){n, plural, one {# \(icu)} other {# items \(icu)}}\(icu)"))
            fr.append(("count\(i)", "{n, plural, one {# \(icu)} many {# m} other {# autres \(icu)}}"))
            en.append(("pick\(i)", "{g, select, f {\(icu)} other {they \(icu)}}"))
        }
        en.append(("two", "{a, plural, one {# a} other {# as}} and {b, plural, one {# b} other {# bs}}"))
        func bundle(_ locale: String, _ messages: [(String, String)]) -> LocaleBundle {
            var bundle = LocaleBundle(locale: locale, file: "t/locales/\(locale).yaml", location: .start(of: "t/locales/\(locale).yaml"), messages: [])
            bundle.messages = messages.map { LocaleBundle.Message(key: $0.0, keyLocation: .start(of: bundle.file), text: $0.1, location: .start(of: bundle.file)) }
            return bundle
        }
        let catalog = LocaleCatalog(tenantID: "t", defaultLocale: "en", locales: ["en", "fr", "ja"],
                                    bundles: ["en": bundle("en", en), "fr": bundle("fr", fr), "ja": bundle("ja", [])])
        let empty = LocaleCatalog(tenantID: "e", defaultLocale: "en", locales: ["en"], bundles: ["en": bundle("en", [])])
        for (catalog, locale) in [(catalog, "en"), (catalog, "fr"), (catalog, "ja"), (empty, "en")] {
            let direct = try XCTUnwrap(AndroidFormat.export(catalog, locale: locale).value, locale)
            let oracle = try XCTUnwrap(AndroidFormat.exportThroughLibxml2(catalog, locale: locale).value, locale)
            XCTAssertEqual(String(decoding: direct, as: UTF8.self), String(decoding: oracle, as: UTF8.self), locale)
            XCTAssertEqual(direct, oracle, locale)
            let lint = try InterchangeFixture.tool(["xmllint", "--noout", "-"], input: direct)
            XCTAssertEqual(lint.status, 0, lint.output)
        }
        // The hostile texts reached the file: a verbatim comment, escapes of both kinds, an unformatted '%'.
        let text = String(decoding: try XCTUnwrap(AndroidFormat.export(catalog, locale: "en").value), as: UTF8.self)
        for expected in ["<!--" + AndroidFormat.verbatimComment + "-->", "&amp; &lt;b&gt;", "\\@start", "formatted=\"false\">50% off", "<plurals name=\"count0\">",
                         "\\u0020", "👩‍👩‍👧", "\\u0001"] {
            XCTAssertTrue(text.contains(expected), expected)
        }
    }
}
