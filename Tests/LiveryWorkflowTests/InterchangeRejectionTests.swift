import Foundation
import LiveryCheck
import LiveryDiagnostics
import LiveryInterchange
import LiveryTestSupport
import LiveryWorkflow
import XCTest

/// A file with problems gets located diagnostics and changes nothing in the tenant folder.
final class InterchangeRejectionTests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        root = try InterchangeFixture.copyTenants(self)
    }

    private func exported(_ tenant: String, _ format: InterchangeFormat, _ locale: String?) throws -> String {
        let result = Interchange.export(try InterchangeFixture.catalog(root, tenant), format: format, locale: locale)
        return String(decoding: try XCTUnwrap(result.value), as: UTF8.self)
    }

    /// Imports `text` and asserts: failure, a diagnostic of `rule` located in the file at `line` (when given), no file changed.
    @discardableResult
    private func assertRefused(_ text: String, as name: String, format: InterchangeFormat, tenant: String = "physio-clinic", rule: RuleID,
                               line: Int? = nil, file: StaticString = #filePath, sourceLine: UInt = #line) throws -> [Diagnostic] {
        let before = InterchangeFixture.snapshot(root.appendingPathComponent("Tenants"))
        let url = try InterchangeFixture.write(Data(text.utf8), root, name)
        let result = Interchange.importFile(url, displayPath: name, format: format, locale: nil, into: try InterchangeFixture.catalog(root, tenant))
        XCTAssertNil(result.value, "import was accepted", file: file, line: sourceLine)
        let matching = result.diagnostics.filter { $0.ruleID == rule && $0.severity == .error }
        for diagnostic in result.diagnostics { XCTAssertTrue(RuleSet.all.isKnown(diagnostic.ruleID), "\(diagnostic.ruleID) is not registered", file: file, line: sourceLine) }
        XCTAssertFalse(matching.isEmpty, "no \(rule) error in \(result.diagnostics.map(\.line))", file: file, line: sourceLine)
        for diagnostic in matching {
            XCTAssertEqual(diagnostic.location.file, name, file: file, line: sourceLine)
            XCTAssertGreaterThanOrEqual(diagnostic.location.column, 1, file: file, line: sourceLine)
            if let line { XCTAssertEqual(diagnostic.location.line, line, diagnostic.line, file: file, line: sourceLine) }
        }
        XCTAssertEqual(InterchangeFixture.snapshot(root.appendingPathComponent("Tenants")), before, "a refused import changed files", file: file, line: sourceLine)
        return result.diagnostics
    }

    private func lineNumber(of needle: String, in text: String) -> Int {
        (text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(needle) } ?? -1) + 1
    }

    // MARK: XLIFF

    func testXLIFFUnknownKeyIsLocatedAtItsUnit() throws {
        let xliff = try exported("physio-clinic", .xliff, "ru").replacingOccurrences(of: "<unit id=\"nav.home\">", with: "<unit id=\"nav.hom\">")
        let diagnostics = try assertRefused(xliff, as: "ru.xlf", format: .xliff, rule: InterchangeRule.unknownKey, line: lineNumber(of: "nav.hom\"", in: xliff))
        XCTAssertTrue(diagnostics.contains { $0.hint?.contains("nav.home") == true })
    }

    func testXLIFFTargetWithICUSyntaxErrorIsLocated() throws {
        let good = "<target>{count, plural, one {# упражнение на сегодня}"
        let xliff = try exported("physio-clinic", .xliff, "ru").replacingOccurrences(of: good, with: "<target>{count, plural, one {# упражнение на сегодня")
        try assertRefused(xliff, as: "ru.xlf", format: .xliff, rule: InterchangeRule.icuSyntax, line: lineNumber(of: "<target>{count, plural, one {# упражнение на сегодня few", in: xliff))
    }

    func testXLIFFWrongLanguagesAreRefused() throws {
        let xliff = try exported("physio-clinic", .xliff, "ru")
        try assertRefused(xliff.replacingOccurrences(of: "srcLang=\"en\"", with: "srcLang=\"de\""), as: "a.xlf", format: .xliff, rule: InterchangeRule.language, line: 2)
        try assertRefused(xliff.replacingOccurrences(of: "trgLang=\"ru\"", with: "trgLang=\"pl\""), as: "b.xlf", format: .xliff, rule: InterchangeRule.language, line: 2)
        try assertRefused(xliff.replacingOccurrences(of: " trgLang=\"ru\"", with: ""), as: "c.xlf", format: .xliff, rule: InterchangeRule.language, line: 2)
    }

    func testXLIFFDuplicateUnitIDIsRefused() throws {
        let original = try exported("physio-clinic", .xliff, "ru")
        let xliff = original.replacingOccurrences(of: "<unit id=\"nav.profile\">", with: "<unit id=\"nav.home\">")
        try assertRefused(xliff, as: "ru.xlf", format: .xliff, rule: InterchangeRule.duplicateKey, line: lineNumber(of: "<unit id=\"nav.profile\">", in: original))
    }

    func testDroppedPlaceholderMissingOtherAndForeignCategoryAreRefused() throws {
        let xliff = try exported("physio-clinic", .xliff, "ru")
        try assertRefused(xliff.replacingOccurrences(of: "<target>Рады вас видеть, {name}</target>", with: "<target>Рады вас видеть</target>"),
                          as: "a.xlf", format: .xliff, rule: InterchangeRule.placeholder, line: lineNumber(of: "Рады вас видеть, {name}</target>", in: xliff))
        try assertRefused(xliff.replacingOccurrences(of: " other {# упражнения на сегодня}}</target>", with: "}</target>"),
                          as: "b.xlf", format: .xliff, rule: InterchangeRule.plural)
        try assertRefused(xliff.replacingOccurrences(of: "<target>{count, plural, one {# упражнение на сегодня}", with: "<target>{count, plural, two {# два} one {# упражнение на сегодня}"),
                          as: "c.xlf", format: .xliff, rule: InterchangeRule.plural)
    }

    // MARK: Hostile XML

    func testDoctypeExternalEntityAndBillionLaughsAreRefused() throws {
        let xxe = """
            <?xml version="1.0"?>
            <!DOCTYPE xliff [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
            <xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="ru"><file id="f"><unit id="nav.home"><segment><source>Home</source><target>&xxe;</target></segment></unit></file></xliff>
            """
        try assertRefused(xxe, as: "xxe.xlf", format: .xliff, rule: InterchangeRule.unsafe, line: 2)
        var laughs = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n<!ENTITY lol \"lol\">\n"
        for level in 1...9 { laughs += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1 == 0 ? "" : String(level - 1));", count: 10) + "\">\n" }
        laughs += "]>\n<resources><string name=\"nav_home\">&lol9;</string></resources>\n"
        try assertRefused(laughs, as: "values-ru/strings.xml", format: .android, rule: InterchangeRule.unsafe, line: 2)
    }

    func testHugeFileIsRefusedWithoutParsing() throws {
        let huge = "<resources>" + String(repeating: "<!-- padding padding padding -->", count: (Interchange.maxFileBytes / 32) + 10) + "</resources>"
        try assertRefused(huge, as: "values-ru/strings.xml", format: .android, rule: InterchangeRule.unsafe, line: 1)
    }

    func testMalformedXMLIsLocated() throws {
        try assertRefused("<resources>\n  <string name=\"nav_home\">Домой</strin>\n</resources>\n", as: "values-ru/strings.xml", format: .android,
                          rule: InterchangeRule.syntax, line: 2)
    }

    // MARK: Android

    func testAndroidNameWithPathTraversalIsAnUnknownKey() throws {
        let text = "<resources>\n  <string name=\"../../../etc/passwd\">x</string>\n</resources>\n"
        try assertRefused(text, as: "values-ru/strings.xml", format: .android, rule: InterchangeRule.unknownKey, line: 2)
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent("etc/passwd").path))
    }

    func testAndroidBareApostropheAndUnknownQuantityAreRefused() throws {
        let android = try exported("physio-clinic", .android, "ru")
        try assertRefused(android.replacingOccurrences(of: ">Главная<", with: ">Глав'ная<"), as: "values-ru/strings.xml", format: .android,
                          rule: InterchangeRule.format, line: lineNumber(of: ">Главная<", in: android))
        try assertRefused(android.replacingOccurrences(of: "quantity=\"few\"", with: "quantity=\"several\""), as: "values-ru/strings.xml", format: .android,
                          rule: InterchangeRule.syntax)
        try assertRefused(android.replacingOccurrences(of: "<item quantity=\"other\">%1$d упражнения на сегодня</item>", with: ""),
                          as: "values-ru/strings.xml", format: .android, rule: InterchangeRule.plural)
    }

    func testAndroidDroppedFormatArgumentIsRefused() throws {
        let android = try exported("physio-clinic", .android, "ru")
        try assertRefused(android.replacingOccurrences(of: "Рады вас видеть, %1$s", with: "Рады вас видеть"), as: "values-ru/strings.xml", format: .android,
                          rule: InterchangeRule.placeholder, line: lineNumber(of: "Рады вас видеть, %1$s", in: android))
        try assertRefused(android.replacingOccurrences(of: "Рады вас видеть, %1$s", with: "Рады вас видеть, %3$s"), as: "values-ru/strings.xml", format: .android,
                          rule: InterchangeRule.format)
    }

    // MARK: String Catalog

    func testStringCatalogProblemsAreLocatedAndNothingIsWritten() throws {
        let json = try exported("physio-clinic", .xcstrings, nil)
        try assertRefused(json.replacingOccurrences(of: "\"sourceLanguage\" : \"en\"", with: "\"sourceLanguage\" : \"ru\""), as: "a.xcstrings", format: .xcstrings,
                          rule: InterchangeRule.language, line: 2)
        try assertRefused(json.replacingOccurrences(of: "\"nav.home\" : {", with: "\"nav.hone\" : {"), as: "b.xcstrings", format: .xcstrings,
                          rule: InterchangeRule.unknownKey, line: lineNumber(of: "\"nav.home\" : {", in: json))
        // One good edit (en) and one bad (ru): all or nothing, so neither file changes.
        let mixed = json.replacingOccurrences(of: "\"value\" : \"Home\"", with: "\"value\" : \"Start\"")
            .replacingOccurrences(of: "\"value\" : \"Рады вас видеть, %@\"", with: "\"value\" : \"Рады вас видеть\"")
        try assertRefused(mixed, as: "c.xcstrings", format: .xcstrings, rule: InterchangeRule.placeholder)
        try assertRefused("{\"sourceLanguage\" : \"en\", \"strings\" : {\"nav.home\" : {\"localizations\" : {\"ru\" : {\"variations\" : {\"device\" : {}}}}}}, \"version\" : \"1.0\"}",
                          as: "d.xcstrings", format: .xcstrings, rule: InterchangeRule.format, line: 1)
    }
}
