import LiveryDiagnostics
import LiveryL10n
import LiveryLoad

struct MessageSyntaxRule: Rule {
    static let description = RuleDescription(
        id: "localization.message-syntax", name: "ICU MessageFormat syntax", family: .localization,
        rationale: "A message that is not valid ICU MessageFormat fails or shows raw braces in the app; the error points at the offending character.",
        messages: [declare(Message.invalid)],
        triggering: [
            RuleExample("unclosed argument in a quoted value", files: LocaleExample.english("nav:\n  home: \"Hello ↓{name\"\n  profile: Profile\n")),
            RuleExample("unclosed plural in a literal block scalar", files: LocaleExample.english(
                "nav:\n  home: |-\n    {count, plural,\n      one {# day}\n      other ↓{# days\n  profile: Profile\n")),
            RuleExample("stray closing brace after escapes", files: LocaleExample.files(russian: "nav:\n  home: \"\\u00ab\\\"Главная\\\"\\u00bb ↓}\"\n  profile: Профиль\n")),
        ],
        nonTriggering: [
            RuleExample("arguments, plurals and quoted braces", files: LocaleExample.english(
                "nav:\n  home: \"{count, plural, =0 {No sessions} one {# session} other {# sessions}}\"\n  profile: \"Use '{'name'}' for {name}\"\n")),
        ])

    enum Message {
        static func invalid(key: String, error: String) -> DiagnosticMessage {
            DiagnosticMessage("invalid", "'\(key)' is not valid ICU MessageFormat: \(error)")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        forEachOwnMessage(context, in: \.withErrors) { _, message, facts in
            guard let error = facts.error else { return }
            diagnostics.append(Diagnostic(.error, Message.invalid(key: message.key, error: "\(error.message)"),
                                          at: message.location(atOffset: error.position.offset), rule: Self.description.id,
                                          hint: Self.hint(error.code)))
        }
        return diagnostics
    }

    static func hint(_ code: MessageFormatError.Code) -> String? {
        switch code {
        case .unclosedBrace: return "close it with '}'; to show a literal brace, quote it: '{'"
        case .unmatchedClosingBrace: return "remove it, or quote it to show it: '}'"
        case .unknownArgumentType: return "use number, date, time, spellout, ordinal, duration, plural, selectordinal or select"
        case .duplicateSelector: return "remove one of the two options"
        default: return nil
        }
    }
}

struct SelectOtherRule: Rule {
    static let description = RuleDescription(
        id: "localization.select-other", name: "Select needs other", family: .localization,
        rationale: "ICU falls back to `other` for any value a `select` does not list; without it formatting fails at run time.",
        messages: [declare(Message.noOther)],
        triggering: [RuleExample("select without other", files: LocaleExample.english(
            "nav:\n  home: \"↓{role, select, doctor {Doctor home} patient {Patient home}}\"\n  profile: Profile\n"))],
        nonTriggering: [RuleExample("select with other", files: LocaleExample.english(
            "nav:\n  home: \"{role, select, doctor {Doctor home} other {Home}}\"\n  profile: Profile\n"))])

    enum Message {
        static func noOther(argument: String, key: String) -> DiagnosticMessage {
            DiagnosticMessage("no-other", "the select on {\(argument)} in '\(key)' has no 'other' option")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        forEachOwnMessageIndex(context, in: \.withSelections) { bundle, index, facts in
            for selection in facts.selections where selection.type == .select && !selection.options.contains(where: { $0.keyword == "other" }) {
                let message = bundle.messages[index]
                diagnostics.append(Diagnostic(.error, Message.noOther(argument: "\(selection.name)", key: message.key),
                                              at: message.location(atOffset: selection.offset), rule: Self.description.id,
                                              hint: "add other {…} for every value the options do not list"))
            }
        }
        return diagnostics
    }
}

struct MarkupRule: Rule {
    static let description = RuleDescription(
        id: "localization.markup", name: "Matching markup", family: .localization,
        rationale: "Tags such as <b>…</b> must pair up, and a translation must keep the tags of the default locale, or the app shows raw or broken markup.",
        messages: [declare(Message.malformed), declare(Message.extraTag), declare(Message.missingTags)],
        triggering: [
            RuleExample("close tag that does not match", files: LocaleExample.english("nav:\n  home: \"<b>Home↓</i>\"\n  profile: Profile\n")),
            RuleExample("translation drops a tag", files: LocaleExample.files(
                locale: "ru", text: "nav:\n  home: ↓Главная\n  profile: Профиль\n", english: "nav:\n  home: <b>Home</b>\n  profile: Profile\n")),
            RuleExample("translation adds a tag", files: LocaleExample.files(
                locale: "ru", text: "nav:\n  home: Главная\n  profile: \"Мой ↓<i>профиль↓</i>\"\n")),
        ],
        nonTriggering: [RuleExample("tags kept, moved with the words", files: LocaleExample.files(
            locale: "ru", text: "nav:\n  home: \"<b>Главная</b>\"\n  profile: Профиль\n", english: "nav:\n  home: <b>Home</b>\n  profile: Profile\n"))])

    enum Message {
        static func malformed(key: String, problem: String) -> DiagnosticMessage {
            DiagnosticMessage("malformed", "'\(key)': \(problem)")
        }
        static func extraTag(locale: String, key: String, tag: String, defaultLocale: String, note: String) -> DiagnosticMessage {
            DiagnosticMessage("extra-tag", "the '\(locale)' text of '\(key)' has \(tag), which the '\(defaultLocale)' text does not\(note)")
        }
        static func missingTags(locale: String, key: String, tags: String, defaultLocale: String, note: String) -> DiagnosticMessage {
            DiagnosticMessage("missing-tags", "the '\(locale)' text of '\(key)' lacks \(tags) of the '\(defaultLocale)' text\(note)")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        let id = Self.description.id
        var diagnostics: [Diagnostic] = []
        forEachOwnMessage(context, in: \.withTags) { _, message, facts in
            if let problem = facts.markupProblem {
                diagnostics.append(Diagnostic(.error, Message.malformed(key: message.key, problem: problem.message), at: message.location(atOffset: problem.offset), rule: id))
            }
        }
        guard let defaultLocale = context.tenant.defaultLocale else { return diagnostics }
        forEachDifferingTranslation(context, \.tags) {
            bundle, message, facts, original, originalFacts, placement in
            let originalTags = MessageFacts.details(of: original.text).tags
            var expected: [String: Int] = [:]
            for tag in originalTags { expected["\(tag.kind.rawValue)|\(tag.name)", default: 0] += 1 }
            func report(_ text: (_ note: String) -> DiagnosticMessage, at location: SourceLocation) {
                switch placement {
                case .translation: diagnostics.append(Diagnostic(.error, text(""), at: location, rule: id, hint: "keep the tags of \(original.location)"))
                case .source(let note): diagnostics.append(Diagnostic(.error, text(note), at: original.location, rule: id))
                }
            }
            for tag in MessageFacts.details(of: message.text).tags {
                let key = "\(tag.kind.rawValue)|\(tag.name)"
                if let left = expected[key], left > 0 { expected[key] = left - 1; continue }
                report({ Message.extraTag(locale: bundle.locale, key: message.key, tag: "\(tag.text)", defaultLocale: defaultLocale, note: $0) },
                       at: message.location(atOffset: tag.offset))
            }
            let missing = originalTags.filter { tag in
                let key = "\(tag.kind.rawValue)|\(tag.name)"
                guard let left = expected[key], left > 0 else { return false }
                expected[key] = left - 1
                return true
            }
            if !missing.isEmpty {
                report({ Message.missingTags(locale: bundle.locale, key: message.key, tags: missing.map(\.text).joined(separator: ", "), defaultLocale: defaultLocale, note: $0) },
                       at: message.location)
            }
        }
        return diagnostics
    }
}
