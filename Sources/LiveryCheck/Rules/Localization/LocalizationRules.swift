import LiveryDiagnostics
import LiveryLoad
import LiveryResolve

struct MissingTranslationRule: Rule {
    static let description = RuleDescription(
        id: "localization.missing-key", name: "Missing translation", family: .localization,
        rationale: "Every key of the default locale exists in every supported locale, so no app shows a raw key.",
        messages: [declare(Message.missingInherited), declare(Message.missing)],
        triggering: [RuleExample("Russian bundle without nav.profile", files: LocaleExample.files(russian: "↓nav:\n  home: Главная\n")),
                     RuleExample("a creator's new key, where its Russian bundle is inherited", files: LocaleExample.files(russian: "nav:\n  home: Главная\n  profile: Профиль\n").merging([
                        "creator/tenant.yaml": "id: creator\nkind: creator\nname: Creator\nextends: example\nlocales: {default: en, supported: [en, ru]}\n",
                        "creator/locales/en.yaml": "nav:\n  home: Home\n  profile: Profile\n↓greeting: Hello\n",
                     ]) { _, new in new })],
        nonTriggering: [RuleExample("complete Russian bundle", files: LocaleExample.files(russian: "nav:\n  home: Главная\n  profile: Профиль\n"))])

    enum Message {
        static func missingInherited(key: String, defaultLocale: String, locale: String, file: String) -> DiagnosticMessage {
            DiagnosticMessage("missing-inherited", "key '\(key)' of the default locale '\(defaultLocale)' is missing in '\(locale)', whose bundle is inherited from \(file)")
        }
        static func missing(key: String, defaultLocale: String, locale: String) -> DiagnosticMessage {
            DiagnosticMessage("missing", "key '\(key)' of the default locale '\(defaultLocale)' is missing in '\(locale)'")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        guard let pairing = context.translationPairing else { return [] }
        let defaultLocale = pairing.defaultLocale, source = pairing.source
        var diagnostics: [Diagnostic] = []
        for locale in context.tenant.supportedLocales where locale != defaultLocale {
            guard let translation = pairing.translations.first(where: { $0.bundle.locale == locale }) else { continue }
            let bundle = translation.bundle
            // A bundle inherited whole from an ancestor cannot be edited here: point at the tenant's own
            // source message that needs the translation instead.
            let inherited = !context.owns(bundle.location)
            for (j, covered) in pairing.covered(by: translation).enumerated() where !covered {
                let message = source.messages[j]
                if inherited, context.owns(message.keyLocation) {
                    diagnostics.append(Diagnostic(.error, Message.missingInherited(key: message.key, defaultLocale: defaultLocale, locale: locale, file: bundle.file),
                                                  at: message.keyLocation, rule: Self.description.id,
                                                  hint: "add locales/\(locale).yaml to this tenant with a translation of '\(message.key)'"))
                    continue
                }
                diagnostics.append(Diagnostic(.error, Message.missing(key: message.key, defaultLocale: defaultLocale, locale: locale),
                                              at: bundle.location, rule: Self.description.id,
                                              hint: "translate \(message.location): \"\(message.text.prefix(60))\"",
                                              related: RefusedMessage.note(message.key, in: bundle)))
            }
        }
        return diagnostics
    }
}

struct ExtraTranslationRule: Rule {
    static let description = RuleDescription(
        id: "localization.extra-key", name: "Extra translation", family: .localization,
        rationale: "A key that the default locale lacks is usually a typo or a leftover; apps never show it.",
        severity: .warning,
        messages: [declare(Message.extraKey)],
        triggering: [RuleExample("misspelt Russian key", files: LocaleExample.files(russian: "nav:\n  home: Главная\n  profile: Профиль\n  ↓hone: Дом\n"))],
        nonTriggering: [RuleExample("complete Russian bundle", files: LocaleExample.files(russian: "nav:\n  home: Главная\n  profile: Профиль\n"))])

    enum Message {
        static func extraKey(key: String, locale: String, defaultLocale: String) -> DiagnosticMessage {
            DiagnosticMessage("extra-key", "key '\(key)' in '\(locale)' does not exist in the default locale '\(defaultLocale)'")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        guard let pairing = context.translationPairing else { return [] }
        let defaultLocale = pairing.defaultLocale, source = pairing.source
        var diagnostics: [Diagnostic] = []
        for translation in pairing.translations {
            let messages = translation.bundle.messages
            for (i, j) in translation.sourceIndex.enumerated() where j < 0 && context.owns(messages[i].keyLocation) {
                let message = messages[i]
                diagnostics.append(Diagnostic(.warning, Message.extraKey(key: message.key, locale: translation.bundle.locale, defaultLocale: defaultLocale),
                                              at: message.keyLocation, rule: Self.description.id,
                                              hint: DidYouMean.hint(for: message.key, among: source.keyIndex.keys) ?? "add it to \(source.file) or remove it",
                                              related: RefusedMessage.note(message.key, in: source)))
            }
        }
        return diagnostics
    }
}

/// A key whose value in a bundle is not text (`LocaleBundle.refused`) is not missing from it: a finding that says so
/// names the refused value as its second place, which folds it under that value's type error (`RootCause`).
enum RefusedMessage {
    static func note(_ key: String, in bundle: LocaleBundle) -> [RelatedLocation] {
        bundle.refused[key].map { [RelatedLocation("'\(key)' is written here, with a value that is not text", at: $0)] } ?? []
    }
}
