import CLiverySystem
import LiveryDiagnostics
@testable import LiveryCheck
import LiveryLoad
import LiveryL10n
import XCTest

/// Behaviour of the localization rules beyond their own examples: CLDR categories of several
/// languages, inheritance through `extends`, globs, and the parser shortcut for plain text.
final class LocalizationRuleTests: XCTestCase {
    private func findings(_ files: [String: String], rule: RuleID) throws -> [Diagnostic] {
        let workspace = try ExampleWorkspace(RuleExample("test", files: files))
        let found = workspace.validate().diagnostics.filter { $0.ruleID == rule }
        return found
    }

    private func english(_ pluralMessage: String) -> String {
        "nav:\n  home: \"\(pluralMessage)\"\n  profile: Profile\n"
    }

    func testABadKeyOrABundleThatIsNotAMappingIsReportedOnce() throws {
        let badKey = try findings(LocaleExample.english("nav:\n  home: Home\n  profile: Profile\n\"bad key!\": Hello\n"), rule: "structure.format")
        XCTAssertEqual(badKey.map(\.location.description), ["Tenants/example/locales/en.yaml:4:1"])
        let nested = try findings(LocaleExample.english("nav:\n  home: Home\n  profile: Profile\n  \"bad key!\": Hello\n"), rule: "structure.format")
        XCTAssertEqual(nested.map(\.location.description), ["Tenants/example/locales/en.yaml:4:3"])
        let list = try findings(LocaleExample.english("- Home\n- Profile\n"), rule: "structure.type")
        XCTAssertEqual(list.map(\.message), ["the manifest must be a mapping, found a list"])
    }

    func testPolishAndArabicNeedTheirCLDRCategories() throws {
        let en = english("{n, plural, one {# file} other {# files}}")
        let polish = try findings(LocaleExample.files(locale: "pl", text: "nav:\n  home: \"{n, plural, one {# plik} other {# plików}}\"\n  profile: Profil\n", english: en),
                                  rule: "localization.plural-categories")
        XCTAssertEqual(polish.map(\.message), ["the plural on {n} in 'nav.home' lacks few, many; 'pl' needs one, few, many, other"])
        // The hint says which numbers each missing form is for, as a translator would check it (not "(CLDR 41)").
        XCTAssertEqual(polish.map(\.hint), ["add few {…} many {…}: in 'pl', few for numbers such as 2, 3, 4; many for numbers such as 0, 5, 6"])
        let arabic = try findings(LocaleExample.files(locale: "ar", text: "nav:\n  home: \"{n, plural, one {ملف} two {ملفان} few {# ملفات} other {# ملف}}\"\n  profile: ملف\n", english: en),
                                  rule: "localization.plural-categories")
        XCTAssertEqual(arabic.map(\.message), ["the plural on {n} in 'nav.home' lacks zero, many; 'ar' needs zero, one, two, few, many, other"])
        XCTAssertEqual(arabic.first?.location.description, "Tenants/example/locales/ar.yaml:2:10")
        XCTAssertEqual(arabic.map(\.hint), ["add zero {…} many {…}: in 'ar', zero for numbers such as 0; many for numbers such as 11, 12, 13"])
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

    /// The loader refuses a key twice in one mapping, so only a group and a dotted key can name one message twice.
    func testAGroupAndADottedKeyNamingOneMessageAreReported() throws {
        let found = try findings(LocaleExample.english("nav:\n  home: Home\n  profile: Profile\n↓nav.home: Start\n"), rule: "structure.duplicate-key")
        XCTAssertEqual(found.map(\.message), ["key 'nav.home' is defined twice (first at line 2, column 3)"])
        XCTAssertEqual(found.map(\.location.description), ["Tenants/example/locales/en.yaml:4:1"])
    }

    /// Translations are paired with their source by position when the files keep one order, by key when
    /// they do not: a bundle in another order is checked the same.
    func testATranslationInAnotherOrderIsPairedByKey() throws {
        let files = LocaleExample.files(locale: "ru", text: "extra: Лишний\nnav:\n  profile: \"{name}\"\n  home: Главная\n",
                                        english: "nav:\n  home: Home\n  profile: \"{user}\"\n")
        let workspace = try ExampleWorkspace(RuleExample("order", files: files))
        let found = workspace.validate().diagnostics
        let placeholders = found.filter { $0.ruleID == "localization.placeholder-mismatch" }
        XCTAssertEqual(placeholders.map(\.location.description), ["Tenants/example/locales/ru.yaml:3:12", "Tenants/example/locales/ru.yaml:3:14"])
        XCTAssertEqual(placeholders.map { $0.message.contains("{user}") }, [true, false], placeholders.map(\.message).description)
        XCTAssertEqual(found.filter { $0.ruleID == "localization.extra-key" }.map(\.location.description), ["Tenants/example/locales/ru.yaml:1:1"])
        XCTAssertEqual(found.filter { $0.ruleID == "localization.missing-key" }.map(\.message), [])
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
            XCTAssertEqual(MessageFacts.longestLength(of: text), MessageFacts.longestLength(of: "{x, select, other {\(text)}}"), text)
            let shift = "{x, select, other {".unicodeScalars.count
            XCTAssertEqual(shortcut.doubleSpaces, parsed.doubleSpaces.map { $0 - shift }, text)
        }
    }

    /// The facts come from the flat parts of a message, without a tree; they must say what the tree says.
    func testFactsAgreeWithTheTree() throws {
        let corpus = [
            "Hello, {name}! You have {count, plural, =0 {no messages} one {# message} other {# messages}}.",
            "Привет, {имя}! {n, plural, offset:1 =0 {никого} one {<b>#</b> друг} few {# друга} many {# друзей} other {# друга}}",
            "{g, select, female {{n, plural, =1 {Elle  et un <i>ami</i>} other {Elle et # amis}}} other {<a href=\"{url}\">Ils</a>}}",
            "it''s '{'literal'}' and  I''m {n, number, ::currency/EUR} on {d, date, long} at {t, time, HH:mm} 🎉  <br/>",
            "{0} and {1, number} and {0, number} <b>bold <i>both</b></i>",
            "ünïcödé  '<b>' <b>x</b> {n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}",
        ]
        for text in corpus {
            let facts = MessageFacts(text), details = MessageFacts.details(of: text)
            XCTAssertNil(facts.error, text)
            let format = try MessageFormat(parsing: text)
            let codes = [nil] + MessageFormat.ArgumentType.allCases
            let signature = Set(format.argumentUses.map { use in "\(use.name):\(codes.firstIndex(of: use.type)!)" }).sorted().joined(separator: ",")
            XCTAssertEqual(facts.argumentSignature, signature, text)
            XCTAssertEqual(details.arguments.map(\.name), format.argumentUses.map(\.name.description), text)
            XCTAssertEqual(details.arguments.map(\.type), format.argumentUses.map(\.type), text)
            XCTAssertEqual(details.arguments.map(\.offset), format.argumentUses.map(\.position.offset), text)
            XCTAssertEqual(details.arguments.map(\.nameOffset), format.argumentUses.map(\.namePosition.offset), text)
            XCTAssertEqual(facts.selections.map(\.name), format.selections.map(\.name.description), text)
            XCTAssertEqual(facts.selections.map(\.offset), format.selections.map(\.position.offset), text)
            XCTAssertEqual(facts.selections.map { $0.options.map(\.selector) }, format.selections.map { $0.options.map(\.selector) }, text)
            XCTAssertEqual(facts.selections.map { $0.options.map(\.offset) }, format.selections.map { $0.options.map(\.position.offset) }, text)
            let tags = MarkupTags.find(in: format)
            XCTAssertEqual(details.tags.map(\.text), tags.map(\.text), text)
            XCTAssertEqual(details.tags.map(\.offset), tags.map(\.position.offset), text)
            XCTAssertEqual(facts.tagSignature, MarkupTags.find(in: format).map { "\($0.kind.rawValue)|\($0.name)" }.sorted().joined(separator: ","), text)
            XCTAssertEqual(facts.markupProblem?.offset, MarkupTags.firstProblem(in: format)?.tag.position.offset, text)
            XCTAssertEqual(facts.markupProblem?.message, MarkupTags.firstProblem(in: format)?.message, text)
            var spaces: [Int] = []
            for segment in format.textSegments {
                var previousWasSpace = false
                for (scalar, position) in segment.scalarPositions {
                    if scalar == " " && previousWasSpace { spaces.append(position.offset) }
                    previousWasSpace = scalar == " "
                }
            }
            XCTAssertEqual(facts.doubleSpaces, spaces, text)
        }
        // The corpus exercises what it claims to: non-ASCII offsets, nested selections, tags and problems.
        XCTAssertEqual(MessageFacts(corpus[2]).selections.count, 2)
        XCTAssertNotNil(MessageFacts(corpus[4]).markupProblem)
        XCTAssertTrue(MessageFacts(corpus[1]).hasTags)
    }

    /// The word-at-a-time double-space search against the plain byte scan, on random text where
    /// spaces, look-alikes (NBSP, '!' and '"' next to 0x20) and word boundaries are common.
    func testDoubleSpaceSearchAgreesWithAByteScan() {
        var random = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = [0x20, 0x20, 0x21, 0x22, 0xC2, 0xA0, 0x61, 0x7A, 0x00, 0xE2]
        for _ in 0..<20_000 {
            let bytes = (0..<Int.random(in: 0...40, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
            let expected = zip(bytes, bytes.dropFirst()).contains { $0 == 0x20 && $1 == 0x20 }
            let found = bytes.withUnsafeBufferPointer { livery_has_double_space($0.baseAddress, UInt($0.count)) != 0 }
            XCTAssertEqual(found, expected, "\(bytes)")
        }
    }

    func testOnlyLiteralLettersNeedTranslation() {
        XCTAssertFalse(MessageFacts.hasLetters("{count}"))
        XCTAssertFalse(MessageFacts.hasLetters("{n, number} — {m}"))
        XCTAssertTrue(MessageFacts.hasLetters("{km, number} km"))
        XCTAssertTrue(MessageFacts.hasLetters("Ок"))
    }

    func testLongestFormCountsArgumentsAsOneCharacter() {
        XCTAssertEqual(MessageFacts.longestLength(of: "Hi {name}!"), 5)
        XCTAssertEqual(MessageFacts.longestLength(of: "{n, plural, one {# day} other {# days left}}"), 11)
        XCTAssertEqual(MessageFacts.longestLength(of: "👍🏽 é"), 3)
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
