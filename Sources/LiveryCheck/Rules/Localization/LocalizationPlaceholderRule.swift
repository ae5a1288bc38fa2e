import LiveryDiagnostics
import LiveryL10n
import LiveryLoad

struct PlaceholderMismatchRule: Rule {
    static let description = RuleDescription(
        id: "localization.placeholder-mismatch", name: "Same placeholders in every translation", family: .localization,
        rationale: "A translation must use the arguments of the default locale's message, with the same types; a dropped or misspelt {name} shows a blank or a raw brace.",
        messages: [declare(Message.drops), declare(Message.unknown), declare(Message.kind)],
        triggering: [
            RuleExample("dropped argument", files: LocaleExample.files(
                locale: "ru", text: "nav:\n  home: ↓\"Привет\"\n  profile: Профиль\n", english: "nav:\n  home: \"Hello, {name}\"\n  profile: Profile\n")),
            RuleExample("misspelt argument", files: LocaleExample.files(
                locale: "ru", text: "nav:\n  home: ↓\"Привет, {↓nmae}\"\n  profile: Профиль\n", english: "nav:\n  home: \"Hello, {name}\"\n  profile: Profile\n")),
            RuleExample("argument of another type", files: LocaleExample.files(
                locale: "ru", text: "nav:\n  home: \"Визит ↓{when, time, short}\"\n  profile: Профиль\n", english: "nav:\n  home: \"Visit {when, date, medium}\"\n  profile: Profile\n")),
        ],
        nonTriggering: [
            RuleExample("same arguments in another order, plural # is not an argument", files: LocaleExample.files(
                locale: "ru", text: "nav:\n  home: \"{count, plural, one {# сеанс} few {# сеанса} many {# сеансов} other {# сеанса}} у {name}\"\n  profile: Профиль\n",
                english: "nav:\n  home: \"{name} has {count, plural, one {# session} other {# sessions}}\"\n  profile: Profile\n")),
            RuleExample("a locale with only 'other' may drop the plural", files: LocaleExample.files(
                locale: "ja", text: "nav:\n  home: \"{count, number}件\"\n  profile: プロフィール\n",
                english: "nav:\n  home: \"{count, plural, one {# item} other {# items}}\"\n  profile: Profile\n")),
        ])

    enum Message {
        static func drops(locale: String, key: String, argument: String, defaultLocale: String, note: String) -> DiagnosticMessage {
            DiagnosticMessage("drops-argument", "the '\(locale)' text of '\(key)' drops the argument {\(argument)} of the '\(defaultLocale)' text\(note)")
        }
        static func unknown(locale: String, key: String, argument: String, defaultLocale: String, note: String) -> DiagnosticMessage {
            DiagnosticMessage("unknown-argument", "the '\(locale)' text of '\(key)' uses {\(argument)}, which the '\(defaultLocale)' text does not have\(note)")
        }
        static func kind(locale: String, key: String, argument: String, kind: String, defaultLocale: String, defaultKind: String, note: String) -> DiagnosticMessage {
            DiagnosticMessage("argument-kind", "the '\(locale)' text of '\(key)' uses {\(argument)} as \(kind), but the '\(defaultLocale)' text uses it as \(defaultKind)\(note)")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        guard let defaultLocale = context.tenant.defaultLocale else { return [] }
        let id = Self.description.id
        var diagnostics: [Diagnostic] = []
        var onlyOtherLocales: [String: Bool] = [:]
        forEachDifferingTranslation(context, \.arguments) {
            bundle, message, facts, original, originalFacts, placement in
            // A language with one plural form has nothing to choose: `{n}` or `{n, number}` may stand for a plural.
            let onlyOther = onlyOtherLocales[bundle.locale] ?? (PluralRules.cardinal(bundle.locale)?.categories == [.other])
            onlyOtherLocales[bundle.locale] = onlyOther
            func normalized(_ kinds: [String: Set<String>]) -> [String: Set<String>] {
                guard onlyOther else { return kinds }
                return kinds.mapValues { Set($0.map { $0 == "plural" || $0 == "simple" ? "number" : $0 }) }
            }
            let arguments = MessageFacts.details(of: message.text).arguments
            let expected = normalized(MessageFacts.details(of: original.text).argumentKinds)
            let found = normalized(MessageFacts.Details(arguments: arguments).argumentKinds)
            guard expected != found else { return }
            func report(_ text: (_ note: String) -> DiagnosticMessage, atOffset offset: Int?, hint: String?) {
                switch placement {
                case .translation:
                    diagnostics.append(Diagnostic(.error, text(""), at: offset.map { message.location(atOffset: $0) } ?? message.location, rule: id, hint: hint))
                case .source(let note):
                    diagnostics.append(Diagnostic(.error, text(note), at: original.location, rule: id, hint: hint))
                }
            }
            for name in expected.keys.sorted() where found[name] == nil {
                report({ Message.drops(locale: bundle.locale, key: message.key, argument: name, defaultLocale: defaultLocale, note: $0) }, atOffset: nil,
                       hint: "use {\(name)} as \(original.location) does")
            }
            for use in arguments where expected[use.name] == nil {
                report({ Message.unknown(locale: bundle.locale, key: message.key, argument: use.name, defaultLocale: defaultLocale, note: $0) }, atOffset: use.nameOffset,
                       hint: DidYouMean.hint(for: use.name, among: expected.keys) ?? "the '\(defaultLocale)' arguments are \(expected.keys.sorted().map { "{\($0)}" }.joined(separator: ", "))")
            }
            for name in expected.keys.sorted() {
                guard let have = found[name], let want = expected[name], have != want,
                      let use = arguments.first(where: { $0.name == name && !want.contains(Self.kind(of: $0, onlyOther: onlyOther)) })
                        ?? arguments.first(where: { $0.name == name }) else { continue }
                report({ Message.kind(locale: bundle.locale, key: message.key, argument: name, kind: Self.describe(have), defaultLocale: defaultLocale, defaultKind: Self.describe(want), note: $0) },
                       atOffset: use.offset,
                       hint: "format the argument as the default locale does, or the app passes a value of the wrong type")
            }
        }
        return diagnostics
    }

    private static func kind(of use: MessageFacts.ArgumentUse, onlyOther: Bool) -> String {
        let kind = use.type?.rawValue ?? "simple"
        return onlyOther && (kind == "plural" || kind == "simple") ? "number" : kind
    }

    private static func describe(_ kinds: Set<String>) -> String {
        kinds.sorted().map { $0 == "simple" ? "plain {…}" : $0 }.joined(separator: " and ")
    }
}
