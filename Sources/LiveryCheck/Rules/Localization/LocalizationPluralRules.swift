import LiveryDiagnostics
import LiveryL10n
import LiveryLoad

/// The CLDR rules a plural or selectordinal is chosen by in `locale`, or nil when CLDR does not know the locale.
private func pluralRules(_ type: MessageFormat.ArgumentType, _ locale: String) -> PluralRules? {
    type == .selectordinal ? PluralRules.ordinal(locale) : PluralRules.cardinal(locale)
}

/// The plural rules of a locale with the bit set of their categories (`MessageFacts.mask`), remembered
/// per kind for the locale asked last: messages come bundle by bundle, so the lookup runs about once per
/// bundle and kind, not once per message.
private struct PluralRulesCache {
    typealias Found = (rules: PluralRules, mask: UInt8)
    private var cardinal: (locale: String, found: Found?)?, ordinal: (locale: String, found: Found?)?

    mutating func rules(_ type: MessageFormat.ArgumentType, _ locale: String) -> Found? {
        let remembered = type == .selectordinal ? ordinal : cardinal
        if let remembered, remembered.locale == locale { return remembered.found }
        let found = pluralRules(type, locale).map { ($0, MessageFacts.mask($0.categories)) }
        if type == .selectordinal { ordinal = (locale, found) } else { cardinal = (locale, found) }
        return found
    }
}

private func list(_ categories: [PluralCategory]) -> String {
    categories.map(\.rawValue).joined(separator: ", ")
}

/// The hint for missing categories, in the words a translator uses: which numbers each category is for in
/// this locale (the first three whole numbers, else "fractions such as 1.5"), not the CLDR version they come from.
private func examplesHint(_ missing: [PluralCategory], rules: PluralRules, locale: String, ordinal: Bool) -> String {
    let add = "add " + missing.map { "\($0.rawValue) {…}" }.joined(separator: " ")
    let uses = missing.map { category -> String in
        let whole = (0...1000).filter { rules.category($0) == category }.prefix(3).map(String.init)
        if !whole.isEmpty { return "\(category.rawValue) for \(ordinal ? "positions" : "numbers") such as \(whole.joined(separator: ", "))" }
        let fractions = ["0.5", "1.5", "2.5", "0.1", "1.1"].filter { rules.category($0) == category }.prefix(2)
        return fractions.isEmpty ? "\(category.rawValue) for some numbers" : "\(category.rawValue) for fractions such as \(fractions.joined(separator: ", "))"
    }
    return "\(add): in '\(locale)', \(uses.joined(separator: "; "))"
}

struct PluralCategoriesRule: Rule {
    static let description = RuleDescription(
        id: "localization.plural-categories", name: "Plural categories the locale needs", family: .localization,
        rationale: "Each language needs its own CLDR plural categories (Russian: one, few, many, other); a missing one shows the wrong form, or fails, for some numbers.",
        messages: [declare(Message.lacks)],
        triggering: [
            RuleExample("Russian plural without few and many", files: LocaleExample.files(locale: "ru", text:
                "nav:\n  home: \"↓{count, plural, one {# занятие} other {# занятия}}\"\n  profile: Профиль\n",
                english: "nav:\n  home: \"{count, plural, one {# session} other {# sessions}}\"\n  profile: Profile\n")),
            RuleExample("English plural without other, only =0", files: LocaleExample.english(
                "nav:\n  home: \"↓{count, plural, =0 {none} one {# day}}\"\n  profile: Profile\n")),
        ],
        nonTriggering: [
            RuleExample("Russian one/few/many/other, English one/other with =0 and offset", files: LocaleExample.files(locale: "ru", text:
                "nav:\n  home: \"{count, plural, offset:1 =0 {Никого} one {Вы и # друг} few {Вы и # друга} many {Вы и # друзей} other {Вы и # друга}}\"\n  profile: Профиль\n",
                english: "nav:\n  home: \"{count, plural, offset:1 =0 {Nobody} one {You and # friend} other {You and # friends}}\"\n  profile: Profile\n")),
        ])

    enum Message {
        static func lacks(kind: String, argument: String, key: String, missing: String, locale: String, needed: String) -> DiagnosticMessage {
            DiagnosticMessage("lacks-categories", "the \(kind) on {\(argument)} in '\(key)' lacks \(missing); '\(locale)' needs \(needed)")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var cache = PluralRulesCache()
        forEachOwnMessageIndex(context, in: \.withSelections) { bundle, index, facts in
            for selection in facts.selections where selection.type.isPlural {
                guard let (rules, mask) = cache.rules(selection.type, bundle.locale), mask & ~selection.categories != 0 else { continue }
                let missing = rules.categories.filter { category in !selection.options.contains { $0.keyword == category.rawValue } }
                guard !missing.isEmpty else { continue }
                let message = bundle.messages[index]
                let kind = selection.type == .selectordinal ? "ordinal" : "plural"
                diagnostics.append(Diagnostic(
                    .error, Message.lacks(kind: kind, argument: "\(selection.name)", key: message.key, missing: list(missing), locale: bundle.locale, needed: list(rules.categories)),
                    at: message.location(atOffset: selection.offset), rule: Self.description.id,
                    hint: missing == [.other] ? "add other {…}: ICU requires it, and =N options do not count as categories"
                        : examplesHint(missing, rules: rules, locale: bundle.locale, ordinal: selection.type == .selectordinal)))
            }
        }
        return diagnostics
    }
}

struct PluralExtraCategoryRule: Rule {
    static let description = RuleDescription(
        id: "localization.plural-extra", name: "Plural category the locale never uses", family: .localization,
        rationale: "A category the locale's CLDR rules never select (few in English) is dead text, often a sign the message was copied from another language.",
        severity: .warning,
        messages: [declare(Message.neverSelected), declare(Message.notCategory)],
        triggering: [
            RuleExample("English plural with few", files: LocaleExample.english(
                "nav:\n  home: \"{count, plural, one {# day} ↓few {# days} other {# days}}\"\n  profile: Profile\n")),
            RuleExample("misspelt category", files: LocaleExample.english(
                "nav:\n  home: \"{count, plural, ↓One {# day} one {# day} other {# days}}\"\n  profile: Profile\n")),
        ],
        nonTriggering: [RuleExample("English ordinal with one/two/few/other", files: LocaleExample.english(
            "nav:\n  home: \"{place, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}\"\n  profile: Profile\n"))])

    enum Message {
        static func neverSelected(locale: String, keyword: String, key: String, categories: String) -> DiagnosticMessage {
            DiagnosticMessage("never-selected", "'\(locale)' never selects '\(keyword)' in '\(key)'; its categories are \(categories)")
        }
        static func notCategory(keyword: String, key: String) -> DiagnosticMessage {
            DiagnosticMessage("not-a-category", "'\(keyword)' in '\(key)' is not a plural category")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var cache = PluralRulesCache()
        forEachOwnMessageIndex(context, in: \.withSelections) { bundle, index, facts in
            for selection in facts.selections where selection.type.isPlural {
                guard let (rules, mask) = cache.rules(selection.type, bundle.locale),
                      selection.hasOtherKeywords || selection.categories & ~mask != 0 else { continue }
                for option in selection.options {
                    guard let keyword = option.keyword, !rules.categories.contains(where: { $0.rawValue == keyword }) else { continue }
                    let message = bundle.messages[index]
                    let known = PluralCategory(rawValue: keyword) != nil
                    diagnostics.append(Diagnostic(
                        .warning, known ? Message.neverSelected(locale: bundle.locale, keyword: keyword, key: message.key, categories: list(rules.categories))
                            : Message.notCategory(keyword: keyword, key: message.key),
                        at: message.location(atOffset: option.offset), rule: Self.description.id,
                        hint: known ? "remove the option, or use =N for an exact number"
                            : DidYouMean.hint(for: keyword, among: rules.categories.map(\.rawValue)) ?? "use one of \(list(rules.categories))"))
                }
            }
        }
        return diagnostics
    }
}

struct PluralLocaleRule: Rule {
    static let description = RuleDescription(
        id: "localization.plural-locale", name: "Plural rules known for the locale", family: .localization,
        rationale: "Plural categories come from CLDR; for a locale CLDR does not know, Livery cannot check them and the app may not either.",
        severity: .warning,
        messages: [declare(Message.noRules)],
        triggering: [RuleExample("plural in a locale CLDR does not know", files: LocaleExample.files(
            locale: "xx", text: "nav:\n  home: \"↓{count, plural, one {# xa} other {# xas}}\"\n  profile: Xprofile\n",
            english: "nav:\n  home: \"{count, plural, one {# day} other {# days}}\"\n  profile: Profile\n"))],
        nonTriggering: [RuleExample("an unknown locale without plurals", files: LocaleExample.files(
            locale: "xx", text: "nav:\n  home: Xhome\n  profile: Xprofile\n"))])

    enum Message {
        static func noRules(cldr: String, kind: String, locale: String, file: String) -> DiagnosticMessage {
            DiagnosticMessage("no-rules", "CLDR \(cldr) has no \(kind) plural rules for '\(locale)', so the plural categories of \(file) cannot be checked")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var reported = Set<String>()
        var cache = PluralRulesCache()
        forEachOwnMessageIndex(context, in: \.withSelections) { bundle, index, facts in
            for selection in facts.selections where selection.type.isPlural && cache.rules(selection.type, bundle.locale) == nil {
                let message = bundle.messages[index]
                let kind = selection.type == .selectordinal ? "ordinal" : "cardinal"
                // Once per bundle and kind: the first message says it for the whole file.
                guard reported.insert(bundle.locale + "|" + kind).inserted else { continue }
                diagnostics.append(Diagnostic(
                    .warning, Message.noRules(cldr: "\(PluralRules.cldrVersion)", kind: kind, locale: bundle.locale, file: bundle.file),
                    at: message.location(atOffset: selection.offset), rule: Self.description.id,
                    hint: "check the locale id; CLDR knows e.g. \(["ar", "pl", "ru", "pt-PT"].joined(separator: ", "))"))
            }
        }
        return diagnostics
    }
}
