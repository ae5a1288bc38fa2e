import Foundation
import LiveryInterchange
import LiveryTestSupport
import XCTest

/// Edited files change exactly the edited values, in place, and a re-export shows the edit.
final class InterchangeEditTests: XCTestCase {
    private func text(_ url: URL) throws -> String { String(decoding: try Data(contentsOf: url), as: UTF8.self) }

    private func exported(_ catalog: LocaleCatalog, _ format: InterchangeFormat, _ locale: String?) throws -> String {
        let result = Interchange.export(catalog, format: format, locale: locale)
        return String(decoding: try XCTUnwrap(result.value, "\(result.diagnostics.map(\.line))"), as: UTF8.self)
    }

    private func importText(_ text: String, as name: String, format: InterchangeFormat, root: URL, tenant: String) throws -> ImportSummary {
        let catalog = try InterchangeFixture.catalog(root, tenant)
        let file = try InterchangeFixture.write(Data(text.utf8), root, name)
        let result = Interchange.importFile(file, displayPath: name, format: format, locale: nil, into: catalog)
        return try XCTUnwrap(result.value, "\(result.diagnostics.map(\.line))")
    }

    func testXLIFFEditChangesOnlyThatValueInPlace() throws {
        let root = try InterchangeFixture.copyTenants(self)
        let ru = root.appendingPathComponent("Tenants/physio-clinic/locales/ru.yaml")
        let original = try text(ru)
        let xliff = try exported(try InterchangeFixture.catalog(root, "physio-clinic"), .xliff, "ru")
            .replacingOccurrences(of: "<target>Главная</target>", with: "<target>Домой &amp; «главная»</target>")
        let summary = try importText(xliff, as: "ru.xlf", format: .xliff, root: root, tenant: "physio-clinic")
        XCTAssertEqual(summary.changed.map(\.key), ["nav.home"])
        XCTAssertEqual(try text(ru), original.replacingOccurrences(of: "  home: Главная\n", with: "  home: Домой & «главная»\n"))
    }

    func testRussianAndroidPluralEditIsWrittenAsICUAndExportsBack() throws {
        let root = try InterchangeFixture.copyTenants(self)
        let ru = root.appendingPathComponent("Tenants/physio-clinic/locales/ru.yaml")
        let original = try text(ru)
        let android = try exported(try InterchangeFixture.catalog(root, "physio-clinic"), .android, "ru")
            .replacingOccurrences(of: "<item quantity=\"few\">%1$d упражнения на сегодня</item>", with: "<item quantity=\"few\">%1$d упражнения — сегодня\\'s</item>")
        let summary = try importText(android, as: "res/values-ru/strings.xml", format: .android, root: root, tenant: "physio-clinic")
        XCTAssertEqual(summary.changed.map(\.key), ["home.todayPlan"])
        let expected = #"  todayPlan: "{count, plural, one {# упражнение на сегодня} few {# упражнения — сегодня's} many {# упражнений на сегодня} other {# упражнения на сегодня}}""#
        let lines = try text(ru).split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.filter { $0.hasPrefix("  todayPlan:") }.map(String.init), [expected])
        XCTAssertEqual(lines.count, original.split(separator: "\n", omittingEmptySubsequences: false).count)
        let again = try exported(try InterchangeFixture.catalog(root, "physio-clinic"), .android, "ru")
        XCTAssertTrue(again.contains("<item quantity=\"few\">%1$d упражнения — сегодня\\'s</item>"), again)
    }

    func testFrenchStringCatalogSubstitutionAndPluralEdits() throws {
        let root = try InterchangeFixture.copyTenants(self)
        let catalog = try InterchangeFixture.catalog(root, "travel-experiences")
        var json = try exported(catalog, .xcstrings, nil)
        // `eta` is one plural among text: a plain plural variation with %lld.
        XCTAssertTrue(json.contains("\"value\" : \"Arrivée dans %lld minutes\""), json)
        json = json.replacingOccurrences(of: "\"value\" : \"Arrivée dans %lld minutes\"", with: "\"value\" : \"Arrivée d’ici %lld minutes\"")
        let summary = try importText(json, as: "Localizable.xcstrings", format: .xcstrings, root: root, tenant: "travel-experiences")
        XCTAssertEqual(summary.changed.map(\.key), ["rides.eta"])
        let fr = try text(root.appendingPathComponent("Tenants/travel-experiences/locales/fr.yaml"))
        XCTAssertTrue(fr.contains("{minutes, plural, one {Arrivée dans # minute} many {Arrivée dans # de minutes} other {Arrivée d’ici # minutes}}"), fr)
    }

    func testNewTranslationGoesToTheEndOfItsGroup() throws {
        let root = try InterchangeFixture.copyTenants(self)
        let ru = root.appendingPathComponent("Tenants/physio-clinic/locales/ru.yaml")
        let withoutBook = try text(ru).replacingOccurrences(of: "  book: Записаться на приём\n", with: "")
        try Data(withoutBook.utf8).write(to: ru)
        let xliff = try exported(try InterchangeFixture.catalog(root, "physio-clinic"), .xliff, "ru")
        XCTAssertTrue(xliff.contains("<source>Book a visit</source>\n      </segment>") || xliff.contains("state=\"initial\""), xliff)
        let edited = xliff.replacingOccurrences(of: "<source>Book a visit</source>\n", with: "<source>Book a visit</source>\n        <target>Записаться: сейчас</target>\n")
        let summary = try importText(edited, as: "ru.xlf", format: .xliff, root: root, tenant: "physio-clinic")
        XCTAssertEqual(summary.changed.map(\.key), ["appointments.book"])
        XCTAssertEqual(try text(ru), withoutBook.replacingOccurrences(of: "  joinCall: Подключиться к видеозвонку\n",
                                                                       with: "  joinCall: Подключиться к видеозвонку\n  book: \"Записаться: сейчас\"\n"))
    }

    func testSourceLanguageEditFromStringCatalogWritesTheDefaultLocale() throws {
        let root = try InterchangeFixture.copyTenants(self)
        let json = try exported(try InterchangeFixture.catalog(root, "physio-clinic"), .xcstrings, nil)
            .replacingOccurrences(of: "\"value\" : \"%arg set\"", with: "\"value\" : \"%arg set of exercises\"")
        let summary = try importText(json, as: "Localizable.xcstrings", format: .xcstrings, root: root, tenant: "physio-clinic")
        XCTAssertEqual(summary.changed.map(\.locale), ["en"])
        let en = try text(root.appendingPathComponent("Tenants/physio-clinic/locales/en.yaml"))
        XCTAssertTrue(en.contains(#"dosage: "{sets, plural, one {# set of exercises} other {# sets}} × {reps, plural, one {# rep} other {# reps}}""#), en)
    }
}
