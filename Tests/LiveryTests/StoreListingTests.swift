import Foundation
import LiveryCheck
import LiveryDiagnostics
import LiveryRender
import LiveryResolve
import LiveryWorkflow
import XCTest

/// A brand's store listings (`StoreListings`, docs/store-listings.md): fastlane's `deliver` and
/// `supply` layout, the store locale codes, and the stores' limits at and one past each boundary.
/// fastlane is a Ruby gem that is not installable here (no Debian package, no gem server), so the
/// layout is checked against its documentation: the paths are written out literally below.
final class StoreListingTests: XCTestCase {
    /// A brand in four locales (one of them Latin American Spanish) with a build number.
    static let walks: [String: String] = [
        "walks/tenant.yaml": """
            id: walks
            kind: brand
            name: Walks
            app:
              displayName: Walks
              bundleIds: {ios: com.example.walks, android: com.example.walks}
              build: 42
            locales:
              default: en
              supported: [en, ru, fr, es-419]

            """,
        "walks/store.yaml": "urls:\n  privacy: https://walks.example/privacy\n  support: https://walks.example/support\n",
        "walks/locales/en.yaml": """
            store:
              name: "Walks: City Audio Tours"
              description: |-
                Audio walks.

                Offline too.
              keywords: walks,audio
              shortDescription: Audio walks through old towns.
              releaseNotes: Faster maps.

            """,
        "walks/locales/ru.yaml": """
            store:
              name: "Walks: аудиопрогулки"
              description: Аудиопрогулки.
              keywords: прогулки,аудио
              shortDescription: Аудиопрогулки по старым городам.
              releaseNotes: Быстрые карты.

            """,
        "walks/locales/fr.yaml": """
            store:
              name: "Walks : balades audio"
              description: Balades audio.
              keywords: balades,audio
              shortDescription: Des balades audio dans les vieilles villes.
              releaseNotes: Cartes plus rapides.

            """,
        "walks/locales/es-419.yaml": """
            store:
              name: "Walks: paseos de audio"
              description: Paseos de audio.
              keywords: paseos,audio
              shortDescription: Paseos de audio por cascos antiguos.
              releaseNotes: Mapas más rápidos.

            """,
    ]

    func testWritesDeliverAndSupplyLayoutInEachStoresLocaleCodes() throws {
        let (tenant, root) = try BuildSettingsTests.resolve(Self.walks)
        defer { try? FileManager.default.removeItem(at: root) }
        let files = StoreListings.files(tenant)
        var expected: [String] = []
        for code in ["en-US", "es-MX", "fr-FR", "ru"] {
            expected += ["description.txt", "keywords.txt", "name.txt", "privacy_url.txt", "release_notes.txt", "support_url.txt"]
                .map { "fastlane/metadata/ios/\(code)/\($0)" }
        }
        for code in ["en-US", "es-419", "fr-FR", "ru-RU"] {
            expected += ["changelogs/42.txt", "full_description.txt", "short_description.txt", "title.txt"].map { "fastlane/metadata/android/\(code)/\($0)" }
        }
        XCTAssertEqual(files.map(\.path), expected.sorted())
        func text(_ path: String) -> String? { files.first { $0.path == path }.map { String(decoding: $0.contents, as: UTF8.self) } }
        // Exactly the text, no line break added; a |- block keeps its paragraphs.
        XCTAssertEqual(text("fastlane/metadata/ios/en-US/description.txt"), "Audio walks.\n\nOffline too.")
        XCTAssertEqual(text("fastlane/metadata/android/en-US/full_description.txt"), "Audio walks.\n\nOffline too.", "Play's full description is store.description")
        XCTAssertEqual(text("fastlane/metadata/android/ru-RU/title.txt"), "Walks: аудиопрогулки", "Play's title is store.name")
        XCTAssertEqual(text("fastlane/metadata/android/es-419/changelogs/42.txt"), "Mapas más rápidos.", "the changelog is named after app.build")
        XCTAssertEqual(text("fastlane/metadata/ios/fr-FR/privacy_url.txt"), "https://walks.example/privacy")
    }

    func testPlayOnlyListingWithoutBuildWritesSupplysDefaultChangelog() throws {
        var files = Self.walks
        files["walks/store.yaml"] = "stores: [googlePlay]\nurls:\n  privacy: https://walks.example/privacy\n"
        files["walks/tenant.yaml"] = files["walks/tenant.yaml"]!.replacingOccurrences(of: "  build: 42\n", with: "")
        let (tenant, root) = try BuildSettingsTests.resolve(files)
        defer { try? FileManager.default.removeItem(at: root) }
        let paths = StoreListings.files(tenant).map(\.path)
        XCTAssertFalse(paths.contains { $0.hasPrefix("fastlane/metadata/ios/") }, "only the stores listed")
        XCTAssertTrue(paths.contains("fastlane/metadata/android/fr-FR/changelogs/default.txt"), "supply's default changelog without a build")
    }

    func testStoreLocaleCodes() {
        let table: [(String, String?, String?)] = [
            ("en", "en-US", "en-US"), ("en-GB", "en-GB", "en-GB"), ("en-IN", nil, "en-IN"), ("ru", "ru", "ru-RU"), ("ru-RU", "ru", "ru-RU"),
            ("it", "it", "it-IT"), ("fr", "fr-FR", "fr-FR"), ("fr-CA", "fr-CA", "fr-CA"), ("fr-BE", nil, nil), ("es", "es-ES", "es-ES"),
            ("es-MX", "es-MX", "es-419"), ("es-419", "es-MX", "es-419"), ("es-AR", "es-MX", "es-419"), ("es-US", "es-MX", "es-US"),
            ("pt", "pt-BR", "pt-BR"), ("pt-PT", "pt-PT", "pt-PT"), ("de", "de-DE", "de-DE"), ("ja", "ja", "ja-JP"), ("hi", "hi", "hi-IN"),
            ("he", "he", "iw-IL"), ("nb", "no", "no-NO"), ("zh-Hans", "zh-Hans", "zh-CN"), ("zh-Hant", "zh-Hant", "zh-TW"), ("zh-HK", "zh-Hant", "zh-HK"),
            ("zh", "zh-Hans", "zh-CN"), ("sw", nil, "sw"), ("sr-Latn", nil, nil), ("ar", "ar-SA", "ar"), ("ko", "ko", "ko-KR"),
        ]
        for (locale, appStore, play) in table {
            XCTAssertEqual(StoreLocales.code(for: locale, in: .appStore), appStore, "App Store code of \(locale)")
            XCTAssertEqual(StoreLocales.code(for: locale, in: .googlePlay), play, "Play code of \(locale)")
        }
        // Every code maps to itself: the lists are what the mapping lands on.
        for store in Store.allCases {
            for code in StoreLocales.codes(of: store) { XCTAssertEqual(StoreLocales.code(for: code, in: store), code) }
        }
    }

    /// Validates `walks` with one English store text replaced, and returns the findings of `rule`.
    private func findings(_ key: String, _ value: String, locale: String = "en", rule: RuleID) throws -> [Diagnostic] {
        var files = Self.walks
        let path = "walks/locales/\(locale).yaml"
        let lines = files[path]!.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // The key's line takes the new value; the lines of a block it had (deeper indented) go.
        var kept: [String] = [], inBlock = false
        for line in lines {
            if line.hasPrefix("  \(key):") { kept.append("  \(key): \"\(value)\""); inBlock = true; continue }
            if inBlock, line.hasPrefix("    ") || line.isEmpty { continue }
            inBlock = false
            kept.append(line)
        }
        files[path] = kept.joined(separator: "\n") + "\n"
        if !lines.contains(where: { $0.hasPrefix("  \(key):") }) { files[path]! += "  \(key): \"\(value)\"\n" }
        let root = try PlatformFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        for (path, text) in files {
            let url = root.appendingPathComponent("Tenants/" + path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return Validator.validate(workspace: root.appendingPathComponent("Tenants"), displayRoot: "Tenants", rules: .all).diagnostics.filter { $0.ruleID == rule }
    }

    func testLimitsAtAndOnePastTheBoundaryCountCharactersNotBytes() throws {
        let cyrillic30 = String(repeating: "ж", count: 30)  // 30 characters, 60 bytes
        XCTAssertEqual(try findings("name", cyrillic30, locale: "ru", rule: "store.text-length").count, 0)
        XCTAssertEqual(try findings("name", cyrillic30 + "ж", locale: "ru", rule: "store.text-length").count, 1)
        // An emoji beyond the Basic Multilingual Plane is two code units, as a web form counts it.
        XCTAssertEqual(try findings("name", String(repeating: "a", count: 28) + "🎧", rule: "store.text-length").count, 0)
        XCTAssertEqual(try findings("name", String(repeating: "a", count: 29) + "🎧", rule: "store.text-length").count, 1)
        XCTAssertEqual(try findings("shortDescription", String(repeating: "क", count: 80), rule: "store.text-length").count, 0)
        XCTAssertEqual(try findings("shortDescription", String(repeating: "क", count: 81), rule: "store.text-length").count, 1)
        XCTAssertEqual(try findings("description", String(repeating: "d", count: 4000), rule: "store.text-length").count, 0)
        XCTAssertEqual(try findings("description", String(repeating: "d", count: 4001), rule: "store.text-length").count, 1)
        // Release notes: the App Store takes 4,000, Google Play 500; one finding names Play's limit.
        XCTAssertEqual(try findings("releaseNotes", String(repeating: "r", count: 500), rule: "store.text-length").count, 0)
        let notes = try findings("releaseNotes", String(repeating: "r", count: 501), rule: "store.text-length")
        XCTAssertEqual(notes.count, 1)
        XCTAssertTrue(notes.first?.message.contains("Google Play release notes takes 500") == true, notes.map(\.message).description)
        XCTAssertFalse(notes.first?.message.contains("App Store") == true)
    }

    func testKeywordsCountBytes() throws {
        // 50 Cyrillic letters are 100 bytes; 51 are 102. 33 Devanagari letters are 99 bytes; 34 are 102.
        XCTAssertEqual(try findings("keywords", String(repeating: "ж", count: 50), locale: "ru", rule: "store.keywords").count, 0)
        XCTAssertEqual(try findings("keywords", String(repeating: "ж", count: 51), locale: "ru", rule: "store.keywords").count, 1)
        XCTAssertEqual(try findings("keywords", String(repeating: "क", count: 33), rule: "store.keywords").count, 0)
        XCTAssertEqual(try findings("keywords", String(repeating: "क", count: 34), rule: "store.keywords").count, 1)
        let repeated = try findings("keywords", "walks, audio, Walks", rule: "store.keywords")
        XCTAssertEqual(repeated.map(\.location.column), [28], "at the repeated keyword, after its blank")
    }

    func testListingTextWithArgumentsIsReportedAndLeftOut() throws {
        let found = try findings("description", "{count, plural, one {# walk} other {# walks}}", rule: "store.plain-text")
        XCTAssertEqual(found.count, 1)
        XCTAssertEqual(found.first?.location.file, "Tenants/walks/locales/en.yaml")
    }

    func testSameInputsGiveSameBytes() throws {
        let (tenant, root) = try BuildSettingsTests.resolve(Self.walks)
        defer { try? FileManager.default.removeItem(at: root) }
        let first = StoreListings.files(tenant)
        let (again, secondRoot) = try BuildSettingsTests.resolve(Self.walks)
        defer { try? FileManager.default.removeItem(at: secondRoot) }
        XCTAssertEqual(first, StoreListings.files(again))
        XCTAssertEqual(first.map(\.path), first.map(\.path).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
    }

    /// A brand extending a brand inherits its store.yaml, key by key (its own values win), and the
    /// store text of its locale bundles; a creator gets no listing even with an inherited store.yaml.
    func testStoreSettingsAreInheritedDownTheLineageAndCreatorsHaveNoListing() throws {
        var files = Self.walks
        files["walks/store.yaml"]! += "  marketing: https://walks.example/\n"
        files["rome/tenant.yaml"] = """
            id: rome
            kind: brand
            extends: walks
            name: Rome Walks
            app:
              displayName: Rome Walks
              bundleIds: {ios: com.example.romewalks, android: com.example.romewalks}
            locales: {default: en, supported: [en, ru, fr, es-419]}

            """
        files["rome/store.yaml"] = "urls:\n  support: https://rome.example/help\n"
        files["lucia/tenant.yaml"] = "id: lucia\nkind: creator\nextends: walks\nname: Lucia\nlocales: {default: en, supported: [en]}\n"
        let root = try PlatformFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        for (path, text) in files {
            let url = root.appendingPathComponent("Tenants/" + path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let result = Validator.validate(workspace: root.appendingPathComponent("Tenants"), displayRoot: "Tenants", rules: .all)
        XCTAssertEqual(result.diagnostics.filter { $0.severity == .error }.map(\.line), [])
        let rome = try XCTUnwrap(result.tenants.first { $0.id == "rome" })
        let listing = StoreListings.files(rome)
        func text(_ path: String) -> String? { listing.first { $0.path == path }.map { String(decoding: $0.contents, as: UTF8.self) } }
        XCTAssertEqual(text("fastlane/metadata/ios/en-US/support_url.txt"), "https://rome.example/help", "its own value wins")
        XCTAssertEqual(text("fastlane/metadata/ios/en-US/privacy_url.txt"), "https://walks.example/privacy", "the parent's privacy URL")
        XCTAssertEqual(text("fastlane/metadata/ios/en-US/marketing_url.txt"), "https://walks.example/")
        XCTAssertEqual(text("fastlane/metadata/ios/ru/name.txt"), "Walks: аудиопрогулки", "inherited store text")
        let lucia = try XCTUnwrap(result.tenants.first { $0.id == "lucia" })
        XCTAssertEqual(StoreListings.files(lucia), [], "a creator is listed in its platform's app")
    }
}
