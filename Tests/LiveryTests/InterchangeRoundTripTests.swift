import Foundation
import LiveryInterchange
import LiveryTestSupport
import XCTest

/// A sample tenant's locale catalogue in a copy made by `InterchangeFixture.copyTenants`.
extension InterchangeFixture {
    static func catalog(_ root: URL, _ id: String) throws -> LocaleCatalog {
        let loaded = LocaleCatalog.load(root.appendingPathComponent("Tenants/\(id)"), displayRoot: "Tenants/\(id)")
        return try XCTUnwrap(loaded.value, loaded.diagnostics.map(\.line).joined(separator: "\n"))
    }
}

/// Export then import, with no edits, must leave every locale file byte-identical, in every format.
final class InterchangeRoundTripTests: XCTestCase {
    func testExportThenImportChangesNoByteForEveryTenantLocaleAndFormat() throws {
        let root = try InterchangeFixture.copyTenants(self)
        let before = InterchangeFixture.snapshot(root.appendingPathComponent("Tenants"))
        let exports = root.appendingPathComponent("exports")
        for id in InterchangeFixture.tenantIDs {
            let catalog = try InterchangeFixture.catalog(root, id)
            for format in InterchangeFormat.allCases {
                let locales: [String?] = format == .xcstrings ? [nil] : catalog.locales.map { $0 }
                for locale in locales {
                    let exported = Interchange.export(catalog, format: format, locale: locale)
                    let data = try XCTUnwrap(exported.value, "\(id) \(format) \(locale ?? "all"): \(exported.diagnostics.map(\.line))")
                    let name: String
                    switch format {
                    case .xliff: name = "\(id)/\(locale ?? "").xlf"
                    case .xcstrings: name = "\(id)/Localizable.xcstrings"
                    case .android: name = "\(id)/res/\(AndroidResources.folder(of: locale ?? "", defaultLocale: catalog.defaultLocale))/strings.xml"
                    }
                    let file = try InterchangeFixture.write(data, exports, name)
                    let imported = Interchange.importFile(file, displayPath: name, format: format, locale: nil, into: catalog)
                    let summary = try XCTUnwrap(imported.value, "\(id) \(format) \(locale ?? "all"): \(imported.diagnostics.map(\.line))")
                    XCTAssertEqual(summary.changed.count, 0, "\(id) \(format) \(locale ?? "all") changed \(summary.changed.map(\.key))")
                    XCTAssertFalse(imported.failed)
                }
            }
        }
        XCTAssertEqual(InterchangeFixture.snapshot(root.appendingPathComponent("Tenants")), before, "an unedited round trip changed a tenant file")
    }

    func testCommandLineRoundTripLeavesTreeIdentical() throws {
        let root = try InterchangeFixture.copyTenants(self)
        let before = InterchangeFixture.snapshot(root.appendingPathComponent("Tenants"))
        for (format, locale, file) in [("xliff", "ru", "out/ru.xlf"), ("xcstrings", nil, "out/Localizable.xcstrings"), ("android", "ru", "out/res/values-ru/strings.xml")] {
            var arguments = ["l10n", "export", "Tenants/physio-clinic", "--format", format, "--out", file]
            if let locale { arguments += ["--locale", locale] }
            let export = try LiveryProcess.run(arguments, in: root)
            XCTAssertEqual(export.status, 0, export.stderr)
            let back = try LiveryProcess.run(["l10n", "import", "Tenants/physio-clinic", file], in: root)
            XCTAssertEqual(back.status, 0, back.stderr)
            XCTAssertTrue(back.stdout.contains("changed 0 messages"), back.stdout)
        }
        XCTAssertEqual(InterchangeFixture.snapshot(root.appendingPathComponent("Tenants")), before)
    }

    func testXLIFFExportsValidateAgainstTheOASISSchema() throws {
        try XCTSkipUnless(FileManager.default.fileExists(atPath: InterchangeFixture.xliffSchema), "php-symfony-translation is not installed (make test-deps)")
        let root = try InterchangeFixture.copyTenants(self)
        // The XSD imports xml.xsd from informativeCopiesOf3rdPartySchemas/w3c/, which Debian ships beside it instead.
        let schemas = URL(fileURLWithPath: InterchangeFixture.xliffSchema).deletingLastPathComponent()
        let schema = root.appendingPathComponent("xsd/xliff-core-2.0.xsd")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("xsd/informativeCopiesOf3rdPartySchemas/w3c"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: schemas.appendingPathComponent("xliff-core-2.0.xsd"), to: schema)
        try FileManager.default.copyItem(at: schemas.appendingPathComponent("xml.xsd"), to: root.appendingPathComponent("xsd/informativeCopiesOf3rdPartySchemas/w3c/xml.xsd"))
        for id in InterchangeFixture.tenantIDs {
            let catalog = try InterchangeFixture.catalog(root, id)
            for locale in catalog.locales {
                let data = try XCTUnwrap(Interchange.export(catalog, format: .xliff, locale: locale).value)
                let file = try InterchangeFixture.write(data, root, "xliff/\(id)-\(locale).xlf")
                let result = try InterchangeFixture.tool(["xmllint", "--noout", "--nonet", "--schema", schema.path, file.path])
                XCTAssertTrue(result.output.contains("validates"), result.output)
                XCTAssertEqual(result.status, 0, "\(id) \(locale): \(result.output)")
            }
        }
    }

    func testAndroidExportsAreWellFormedWithCLDRQuantities() throws {
        let root = try InterchangeFixture.copyTenants(self)
        for id in InterchangeFixture.tenantIDs {
            let catalog = try InterchangeFixture.catalog(root, id)
            for locale in catalog.locales {
                let data = try XCTUnwrap(Interchange.export(catalog, format: .android, locale: locale).value)
                let file = try InterchangeFixture.write(data, root, "android/\(id)/\(AndroidResources.folder(of: locale, defaultLocale: catalog.defaultLocale))/strings.xml")
                let result = try InterchangeFixture.tool(["xmllint", "--noout", "--nonet", file.path])
                XCTAssertEqual(result.status, 0, "\(id) \(locale): \(result.output)")
            }
        }
        let physio = try InterchangeFixture.catalog(root, "physio-clinic")
        let russian = String(decoding: try XCTUnwrap(Interchange.export(physio, format: .android, locale: "ru").value), as: UTF8.self)
        XCTAssertTrue(russian.contains(Self.physioRussianPlurals), russian)
        XCTAssertTrue(russian.contains("<string name=\"appointments_next\">Следующий приём: %1$s в %2$s</string>"), russian)
    }

    /// physio-clinic's Russian `home_todayPlan` as strings.xml writes it: CLDR's four categories, in order.
    static let physioRussianPlurals = """
          <plurals name="home_todayPlan">
            <item quantity="one">%1$d упражнение на сегодня</item>
            <item quantity="few">%1$d упражнения на сегодня</item>
            <item quantity="many">%1$d упражнений на сегодня</item>
            <item quantity="other">%1$d упражнения на сегодня</item>
          </plurals>
        """

    /// A bundle whose locale the tenant does not list is read from the bundle itself (not the parsed catalog):
    /// its plural forms come out in the same order, with the same quantities, as a listed locale's.
    func testAndroidExportOfAnUnlistedLocaleBundleWritesItsPluralsInCLDROrder() throws {
        let root = try InterchangeFixture.copyTenants(self)
        let manifest = root.appendingPathComponent("Tenants/physio-clinic/tenant.yaml")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        XCTAssertTrue(text.contains("supported: [en, ru]"))
        try text.replacingOccurrences(of: "supported: [en, ru]", with: "supported: [en]").write(to: manifest, atomically: true, encoding: .utf8)
        let physio = try InterchangeFixture.catalog(root, "physio-clinic")
        XCTAssertFalse(physio.locales.contains("ru"))
        let russian = String(decoding: try XCTUnwrap(AndroidFormat.export(physio, locale: "ru").value), as: UTF8.self)
        XCTAssertTrue(russian.contains(Self.physioRussianPlurals), russian)
    }

    func testStringCatalogParsesAsJSONWithXcodeStructure() throws {
        let root = try InterchangeFixture.copyTenants(self)
        let catalog = try InterchangeFixture.catalog(root, "physio-clinic")
        let data = try XCTUnwrap(Interchange.export(catalog, format: .xcstrings, locale: nil).value)
        let file = try InterchangeFixture.write(data, root, "Localizable.xcstrings")
        // Python's json reads it, and re-serialising with Xcode's settings gives the same bytes.
        let script = """
            import json, sys
            text = open(sys.argv[1], encoding="utf-8").read()
            doc = json.loads(text)
            assert doc["sourceLanguage"] == "en" and doc["version"] == "1.0", doc.keys()
            ru = doc["strings"]["home.todayPlan"]["localizations"]["ru"]["variations"]["plural"]
            assert sorted(ru) == ["few", "many", "one", "other"], ru
            assert ru["few"]["stringUnit"] == {"state": "translated", "value": "%lld упражнения на сегодня"}, ru
            dosage = doc["strings"]["exercises.dosage"]["localizations"]["en"]
            assert dosage["stringUnit"]["value"] == "%#@sets@ × %#@reps@", dosage
            assert dosage["substitutions"]["reps"]["argNum"] == 2 and dosage["substitutions"]["reps"]["formatSpecifier"] == "lld", dosage
            assert dosage["substitutions"]["sets"]["variations"]["plural"]["one"]["stringUnit"]["value"] == "%arg set", dosage
            again = json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False, separators=(",", " : "))
            assert again == text, "not Xcode's formatting"
            """
        let result = try InterchangeFixture.tool(["python3", "-c", script, file.path])
        XCTAssertEqual(result.status, 0, result.output)
    }

    /// A release's locale bundles carry the messages as JSON only; `livery generate` writes the String Catalog and the
    /// strings.xml files an app project compiles, byte for byte what export writes, without the store listing text.
    func testReleasesCarryJSONAndGenerateWritesTheExportsStringFiles() throws {
        let root = try InterchangeFixture.copyTenants(self)
        let build = try LiveryProcess.run(["build", "Tenants/physio-clinic", "--output", "Output"], in: root, timeout: 300)
        XCTAssertEqual(build.status, 0, build.stdout + build.stderr)
        let targets = root.appendingPathComponent("Output/physio-clinic/targets")
        let names = try FileManager.default.contentsOfDirectory(atPath: targets.path)
        for locale in ["en", "ru"] {
            let bundle = try XCTUnwrap(names.first { $0.hasSuffix(".locale.\(locale).zip") })
            let listing = try InterchangeFixture.tool(["unzip", "-Z1", targets.appendingPathComponent(bundle).path]).output
            XCTAssertEqual(listing, "locales/\(locale).json\n")
        }
        let generate = try LiveryProcess.run(["generate", "Tenants/physio-clinic", "--output", "Generated"], in: root, timeout: 300)
        XCTAssertEqual(generate.status, 0, generate.stdout + generate.stderr)
        let generated = root.appendingPathComponent("Generated/physio-clinic")
        var catalog = try InterchangeFixture.catalog(root, "physio-clinic")
        XCTAssertTrue(catalog.keys.contains { $0.hasPrefix("store.") }, "the fixture has store listing text to leave out")
        catalog.bundles = catalog.bundles.mapValues { bundle in
            var appText = bundle
            appText.messages.removeAll { $0.key.hasPrefix("store.") }
            return appText
        }
        XCTAssertEqual(try Data(contentsOf: generated.appendingPathComponent("ios/Localizable.xcstrings")),
                       try XCTUnwrap(StringCatalogFormat.export(catalog).value), "every locale, in Xcode's layout")
        for (locale, folder) in [("en", "values"), ("ru", "values-ru")] {
            let file = generated.appendingPathComponent("android/\(folder)/strings.xml")
            XCTAssertEqual(try Data(contentsOf: file), try XCTUnwrap(AndroidFormat.export(catalog, locale: locale).value), locale)
            XCTAssertEqual(try InterchangeFixture.tool(["xmllint", "--noout", file.path]).status, 0, locale)
        }
    }
}
