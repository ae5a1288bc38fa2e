import LiveryDiagnostics
import LiveryL10n
import LiveryLoad

struct WhitespaceRule: Rule {
    static let description = RuleDescription(
        id: "localization.whitespace", name: "Stray whitespace", family: .localization,
        rationale: "Leading, trailing and doubled spaces are invisible in a file but misalign labels in the app; they are almost always slips.",
        severity: .warning,
        messages: [declare(Message.leading), declare(Message.trailing), declare(Message.doubleSpace)],
        triggering: [
            RuleExample("trailing space inside quotes", files: LocaleExample.english("nav:\n  home: \"Home↓ \"\n  profile: Profile\n")),
            RuleExample("leading space inside quotes", files: LocaleExample.english("nav:\n  home: \"↓ Home\"\n  profile: Profile\n")),
            RuleExample("double space after an escape", files: LocaleExample.english("nav:\n  home: \"Caf\\u00e9 ↓ bar\"\n  profile: Profile\n")),
            RuleExample("final line break of a literal block", files: LocaleExample.english("nav:\n  home: |\n    Home↓\n  profile: Profile\n")),
        ],
        nonTriggering: [RuleExample("single spaces, block scalar with |-", files: LocaleExample.english(
            "nav:\n  home: |-\n    Home sweet\n    home\n  profile: \"My {x} profile\"\n"))])

    enum Message {
        static func leading(key: String) -> DiagnosticMessage {
            DiagnosticMessage("leading", "'\(key)' starts with whitespace")
        }
        static func trailing(key: String, what: String) -> DiagnosticMessage {
            DiagnosticMessage("trailing", "'\(key)' ends with \(what)")
        }
        static func doubleSpace(key: String) -> DiagnosticMessage {
            DiagnosticMessage("double-space", "'\(key)' has two spaces in a row")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        let id = Self.description.id
        var diagnostics: [Diagnostic] = []
        forEachOwnMessage(context, in: \.withWhitespace) { _, message, facts in
            let scalars = Array(message.text.unicodeScalars)
            guard let first = scalars.first, let last = scalars.last else { return }
            if first.properties.isWhitespace {
                diagnostics.append(Diagnostic(.warning, Message.leading(key: message.key), at: message.location(atOffset: 0), rule: id,
                                              hint: "remove it; the app adds the spacing around a label"))
            }
            if last.properties.isWhitespace, scalars.contains(where: { !$0.properties.isWhitespace }) || !first.properties.isWhitespace {
                var start = scalars.count - 1
                while start > 0, scalars[start - 1].properties.isWhitespace { start -= 1 }
                let block = message.scalar?.style == .literal || message.scalar?.style == .folded
                diagnostics.append(Diagnostic(.warning, Message.trailing(key: message.key, what: last == "\n" ? "a line break" : "whitespace"),
                                              at: message.location(atOffset: start), rule: id,
                                              hint: block && last == "\n" ? "write |- (or >-) to drop the block's final line break" : "remove it"))
            }
            for offset in facts.doubleSpaces {
                diagnostics.append(Diagnostic(.warning, Message.doubleSpace(key: message.key), at: message.location(atOffset: offset), rule: id,
                                              hint: "remove the extra space"))
            }
        }
        return diagnostics
    }
}

struct UntranslatedRule: Rule {
    static let description = RuleDescription(
        id: "localization.untranslated", name: "Translation equal to the source", family: .localization,
        rationale: "A translation identical to the default locale's text was usually copied and never translated; list deliberate ones (brand names, 'OK') under locales.untranslatedAllowed.",
        severity: .warning,
        messages: [declare(Message.sameText)],
        triggering: [RuleExample("English text in the Russian bundle", files: LocaleExample.files(russian: "nav:\n  home: ↓Home\n  profile: Профиль\n"))],
        nonTriggering: [
            RuleExample("allowed key, and a message without words", files: LocaleExample.files(
                locale: "ru", text: "nav:\n  home: Home\n  profile: \"{n}\"\n", english: "nav:\n  home: Home\n  profile: \"{n}\"\n",
                localeLines: "  untranslatedAllowed: [nav.home]\n")),
            RuleExample("same language, another region", files: LocaleExample.files(locale: "en-GB", text: "nav:\n  home: Home\n  profile: Profile\n")),
        ])

    enum Message {
        static func sameText(locale: String, key: String, defaultLocale: String, note: String) -> DiagnosticMessage {
            DiagnosticMessage("same-text", "the '\(locale)' text of '\(key)' is the same as the '\(defaultLocale)' text\(note)")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        guard let defaultLocale = context.tenant.defaultLocale else { return [] }
        let settings = context.localeSettings
        let language = { (locale: String) in locale.split(separator: "-").first.map(String.init) ?? locale }
        var diagnostics: [Diagnostic] = []
        var sameLanguage: [String: Bool] = [:]
        forEachDifferingTranslation(context, \.sameText) { bundle, message, _, original, _, placement in
            let skip = sameLanguage[bundle.locale] ?? (language(bundle.locale) == language(defaultLocale))
            sameLanguage[bundle.locale] = skip
            guard !skip, !settings.allowsUntranslated(message.key), MessageFacts.hasLetters(message.text) else { return }
            let text = { Message.sameText(locale: bundle.locale, key: message.key, defaultLocale: defaultLocale, note: $0) }
            let hint = "translate it, or list '\(message.key)' under locales.untranslatedAllowed in tenant.yaml if it stays as it is"
            switch placement {
            case .translation: diagnostics.append(Diagnostic(.warning, text(""), at: message.location, rule: Self.description.id, hint: hint))
            case .source(let note): diagnostics.append(Diagnostic(.warning, text(note), at: original.location, rule: Self.description.id, hint: hint))
            }
        }
        return diagnostics
    }
}

struct MaxLengthRule: Rule {
    static let description = RuleDescription(
        id: "localization.max-length", name: "Text fits its slot", family: .localization,
        rationale: "A tab label or button holds only so many characters; a longer translation is cut off or wraps. Limits come from locales.maxLength.",
        messages: [declare(Message.tooLong), declare(Message.unmatchedPattern)],
        triggering: [
            RuleExample("Russian label longer than its tab", files: LocaleExample.files(
                locale: "ru", text: "nav:\n  home: ↓Главная страница приложения\n  profile: Профиль\n", localeLines: "  maxLength: {nav.*: 12}\n")),
            RuleExample("longest plural branch too long", files: LocaleExample.english(
                "nav:\n  home: ↓\"{n, plural, one {# day} other {# days in a row}}\"\n  profile: Profile\n", localeLines: "  maxLength: {nav.home: 10}\n")),
            RuleExample("limit for a key that does not exist", files: LocaleExample.english(
                "nav:\n  home: Home\n  profile: Profile\n", localeLines: "  maxLength: {↓nav.hom: 10}\n")),
        ],
        nonTriggering: [RuleExample("labels within their limits; an exact key wins over a glob", files: LocaleExample.files(
            locale: "ru", text: "nav:\n  home: Главная\n  profile: Профиль пользователя\n",
            localeLines: "  maxLength: {nav.*: 12, nav.profile: 20, '**': 40}\n"))])

    enum Message {
        static func tooLong(key: String, locale: String, length: Int, limit: Int, pattern: String) -> DiagnosticMessage {
            DiagnosticMessage("too-long", "'\(key)' in '\(locale)' is \(length) characters long; its slot holds \(limit) (locales.maxLength '\(pattern)')")
        }
        static func unmatchedPattern(pattern: String, defaultLocale: String) -> DiagnosticMessage {
            DiagnosticMessage("unmatched-pattern", "locales.maxLength names '\(pattern)', which matches no key of the default locale '\(defaultLocale)'")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        let settings = context.localeSettings
        guard !settings.maxLength.isEmpty else { return [] }
        let id = Self.description.id
        var diagnostics: [Diagnostic] = []
        forEachOwnMessage(context, in: { Array($0.facts.indices) }) { bundle, message, facts in
            guard facts.error == nil, let (limit, pattern) = settings.limit(for: message.key), case let length = MessageFacts.longestLength(of: message.text), length > limit else { return }
            diagnostics.append(Diagnostic(.error, Message.tooLong(key: message.key, locale: bundle.locale, length: length, limit: limit, pattern: "\(pattern)"),
                                          at: message.location, rule: id,
                                          hint: "shorten it; arguments count as one character and the longest plural or select option is measured"))
        }
        // A limit naming a key that does not exist checks nothing: usually a typo.
        if let defaultLocale = context.tenant.defaultLocale, let source = context.tenant.locales[defaultLocale] {
            let keys = source.keys
            for (pattern, _, entry) in settings.maxLength where context.owns(entry.keyLocation) && !keys.contains(where: pattern.matches) {
                diagnostics.append(Diagnostic(.error, Message.unmatchedPattern(pattern: pattern.text, defaultLocale: defaultLocale),
                                              at: entry.keyLocation, rule: id, hint: DidYouMean.hint(for: pattern.text, among: keys) ?? "remove it or fix the key"))
            }
        }
        return diagnostics
    }
}
