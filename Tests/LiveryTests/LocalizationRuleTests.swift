import LiveryDiagnostics
@testable import LiveryCheck
import LiveryLoad
import XCTest

/// Behaviour of the localization rules beyond their own examples: CLDR categories of several
/// languages, inheritance through `extends`, globs, and the parser shortcut for plain text.
final class LocalizationRuleTests: XCTestCase {
    private func findings(_ files: [String: String], rule: String) throws -> [Diagnostic] {
        let workspace = try ExampleWorkspace(RuleExample("test", files: files))
        let found = workspace.validate().diagnostics.filter { $0.ruleID == rule }
        return found
    }

    private func english(_ pluralMessage: String) -> String {
        "nav:\n  home: \"\(pluralMessage)\"\n  profile: Profile\n"
    }

    func testPolishAndArabicNeedTheirCLDRCategories() throws {
        let en = english("{n, plural, one {# file} other {# files}}")
        let polish = try findings(LocaleExample.files(locale: "pl", text: "nav:\n  home: \"{n, plural, one {# plik} other {# plików}}\"\n  profile: Profil\n", english: en),
                                  rule: "localization.plural-categories")
        XCTAssertEqual(polish.map(\.message), ["the plural on {n} in 'nav.home' lacks few, many; 'pl' needs one, few, many, other"])
        let arabic = try findings(LocaleExample.files(locale: "ar", text: "nav:\n  home: \"{n, plural, one {ملف} two {ملفان} few {# ملفات} other {# ملف}}\"\n  profile: ملف\n", english: en),
                                  rule: "localization.plural-categories")
        XCTAssertEqual(arabic.map(\.message), ["the plural on {n} in 'nav.home' lacks zero, many; 'ar' needs zero, one, two, few, many, other"])
        XCTAssertEqual(arabic.first?.location.description, "Tenants/example/locales/ar.yaml:2:10")
    }

    func testExplicitValuesDoNotStandInForCategories() throws {
        let found = try findings(LocaleExample.english(english("{n, plural, =1 {one file} other {# files}}")), rule: "localization.plural-categories")
        XCTAssertEqual(found.count, 1)
        XCTAssertTrue(found[0].message.contains("lacks one"), found[0].message)
    }

    func testNestedPluralsAreEachChecked() throws {
        let ru = "nav:\n  home: \"{a, plural, one {{b, plural, one {x} few {x} many {x} other {x}}} few {x} many {x} other {↓{b, plural, one {x} other {x}}}}\"\n  profile: Профиль\n"
        let workspace = try ExampleWorkspace(RuleExample("nested", files: LocaleExample.files(locale: "ru", text: ru, english: english("{a, plural, one {{b, plural, one {x} other {x}}} other {{b, plural, one {x} other {x}}}}"))))
        let found = workspace.validate().diagnostics.filter { $0.ruleID == "localization.plural-categories" }
        XCTAssertEqual(found.map(\.location), workspace.markers)
    }

    func testInheritedBundleMissingAKeyTheChildAddsIsReportedAtTheChildsKey() throws {
        var files = LocaleExample.files(russian: "nav:\n  home: Главная\n  profile: Профиль\n")
        files["child/tenant.yaml"] = "id: child\nkind: creator\nextends: example\nname: Child\nlocales:\n  default: en\n  supported: [en, ru]\n"
        files["child/locales/en.yaml"] = "↓extra: Extra\n"
        let workspace = try ExampleWorkspace(RuleExample("child", files: files))
        let found = workspace.validate().diagnostics.filter { $0.ruleID == "localization.missing-key" }
        XCTAssertEqual(found.map(\.location), workspace.markers)
        XCTAssertTrue(found.first?.message.contains("inherited from Tenants/example/locales/ru.yaml") == true, found.first?.message ?? "")
    }

    func testInheritedMessagesAreNotReportedAgainForTheChild() throws {
        var files = LocaleExample.files(russian: "nav:\n  home: \"Главная {\"\n  profile: Профиль\n")
        files["child/tenant.yaml"] = "id: child\nkind: creator\nextends: example\nname: Child\nlocales:\n  default: en\n  supported: [en, ru]\n"
        let diagnostics = try ExampleWorkspace(RuleExample("child", files: files)).validate().diagnostics.filter { $0.ruleID == "localization.message-syntax" }
        XCTAssertEqual(diagnostics.map(\.location.file), ["Tenants/example/locales/ru.yaml"])
    }

    func testChildOverridingTheSourceTextIsToldItsInheritedTranslationNoLongerFits() throws {
        var files = LocaleExample.files(russian: "nav:\n  home: Главная\n  profile: Профиль\n")
        files["child/tenant.yaml"] = "id: child\nkind: creator\nextends: example\nname: Child\nlocales:\n  default: en\n  supported: [en, ru]\n"
        files["child/locales/en.yaml"] = "nav:\n  home: ↓\"Home of {name}\"\n"
        let workspace = try ExampleWorkspace(RuleExample("child", files: files))
        let found = workspace.validate().diagnostics.filter { $0.ruleID == "localization.placeholder-mismatch" }
        XCTAssertEqual(found.map(\.location), workspace.markers)
    }

    func testKeyPatterns() {
        XCTAssertTrue(KeyPattern("nav.*").matches("nav.home"))
        XCTAssertFalse(KeyPattern("nav.*").matches("nav.home.badge"))
        XCTAssertTrue(KeyPattern("nav.**").matches("nav.home.badge"))
        XCTAssertTrue(KeyPattern("**").matches("a.b.c"))
        XCTAssertTrue(KeyPattern("*.title").matches("home.title"))
        XCTAssertFalse(KeyPattern("*.title").matches("home.subtitle"))
        XCTAssertTrue(KeyPattern("errors.*-long").matches("errors.network-long"))
        XCTAssertFalse(KeyPattern("nav.home").matches("nav.homes"))
    }

    func testPlainTextShortcutAgreesWithTheParser() {
        for text in ["Hello  world", "Ünïcödé text  ok", "#1 choice", "", "  ", "Тест"] {
            let shortcut = MessageFacts(text)
            // Wrapping in a select forces the parser; the facts of the literal text must agree.
            let parsed = MessageFacts("{x, select, other {\(text)}}")
            XCTAssertNil(shortcut.error)
            XCTAssertEqual(shortcut.longestLength, parsed.longestLength, text)
            let shift = "{x, select, other {".unicodeScalars.count
            XCTAssertEqual(shortcut.doubleSpaces, parsed.doubleSpaces.map { $0 - shift }, text)
        }
    }

    func testOnlyLiteralLettersNeedTranslation() {
        XCTAssertFalse(MessageFacts.hasLetters("{count}"))
        XCTAssertFalse(MessageFacts.hasLetters("{n, number} — {m}"))
        XCTAssertTrue(MessageFacts.hasLetters("{km, number} km"))
        XCTAssertTrue(MessageFacts.hasLetters("Ок"))
    }

    func testLongestFormCountsArgumentsAsOneCharacter() {
        XCTAssertEqual(MessageFacts("Hi {name}!").longestLength, 5)
        XCTAssertEqual(MessageFacts("{n, plural, one {# day} other {# days left}}").longestLength, 11)
        XCTAssertEqual(MessageFacts("👍🏽 é").longestLength, 3)
    }

    func testRightToLeftLocales() {
        for locale in ["ar", "he", "fa", "ur", "ar-EG", "pa-Arab", "ff-Adlm", "yi"] { XCTAssertTrue(TextDirection.isRightToLeft(locale), locale) }
        for locale in ["en", "ru", "hi", "pa", "sd-Deva", "az-Latn", "ja"] { XCTAssertFalse(TextDirection.isRightToLeft(locale), locale) }
    }

    func testDerivedValuesAreComputedOnceAndStartAfreshWhenMessagesChange() throws {
        let values = DerivedValues()
        var calls = 0
        XCTAssertEqual(values.value(Int.self) { calls += 1; return 1 }, 1)
        XCTAssertEqual(values.value(Int.self) { calls += 1; return 2 }, 1)
        XCTAssertEqual(calls, 1)

        let workspace = try ExampleWorkspace(RuleExample("ru", files: LocaleExample.files(russian: "nav:\n  home: Главная\n  profile: Профиль\n")))
        let bundle = try XCTUnwrap(workspace.validate().tenants.first?.locales["ru"])
        XCTAssertEqual(bundle.facts.facts.count, 2)
        var changed = bundle
        changed.messages.removeLast()
        XCTAssertEqual(changed.facts.facts.count, 1, "changing the messages must not keep the old facts")
    }
}
