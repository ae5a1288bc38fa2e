import LiveryDiagnostics
import LiveryLoad
import LiveryResolve

struct MissingTranslationRule: Rule {
    static let description = RuleDescription(
        id: "localization.missing-key", name: "Missing translation", family: .localization,
        rationale: "Every key of the default locale exists in every supported locale, so no app shows a raw key.",
        triggering: [RuleExample("Russian bundle without nav.profile", files: LocaleExample.files(russian: "↓nav:\n  home: Главная\n"))],
        nonTriggering: [RuleExample("complete Russian bundle", files: LocaleExample.files(russian: "nav:\n  home: Главная\n  profile: Профиль\n"))])

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
                    diagnostics.append(Diagnostic(.error, "key '\(message.key)' of the default locale '\(defaultLocale)' is missing in '\(locale)', whose bundle is inherited from \(bundle.file)",
                                                  at: message.keyLocation, rule: Self.description.id,
                                                  hint: "add locales/\(locale).yaml to this tenant with a translation of '\(message.key)'"))
                    continue
                }
                diagnostics.append(Diagnostic(.error, "key '\(message.key)' of the default locale '\(defaultLocale)' is missing in '\(locale)'",
                                              at: bundle.location, rule: Self.description.id,
                                              hint: "translate \(message.location): \"\(message.text.prefix(60))\""))
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
        triggering: [RuleExample("misspelt Russian key", files: LocaleExample.files(russian: "nav:\n  home: Главная\n  profile: Профиль\n  ↓hone: Дом\n"))],
        nonTriggering: [RuleExample("complete Russian bundle", files: LocaleExample.files(russian: "nav:\n  home: Главная\n  profile: Профиль\n"))])

    func check(_ context: RuleContext) -> [Diagnostic] {
        guard let pairing = context.translationPairing else { return [] }
        let defaultLocale = pairing.defaultLocale, source = pairing.source
        var diagnostics: [Diagnostic] = []
        for translation in pairing.translations {
            let messages = translation.bundle.messages
            for (i, j) in translation.sourceIndex.enumerated() where j < 0 && context.owns(messages[i].keyLocation) {
                let message = messages[i]
                diagnostics.append(Diagnostic(.warning, "key '\(message.key)' in '\(translation.bundle.locale)' does not exist in the default locale '\(defaultLocale)'",
                                              at: message.keyLocation, rule: Self.description.id,
                                              hint: DidYouMean.hint(for: message.key, among: source.keyIndex.keys) ?? "add it to \(source.file) or remove it"))
            }
        }
        return diagnostics
    }
}
