import LiveryDiagnostics
import LiveryLoad
import LiveryResolve

/// `localization.unsupported-locale-file`: a tenant's own `locales/<locale>.yaml` whose locale the
/// tenant does not ship. The build packs only the locales of `locales.supported` (`BundlePlanner`,
/// `LocaleFiles`), so such a file is left out of every release without a word.
///
/// "Supported" is the tenant's effective list, after `extends` (what its build packs). A list replaces
/// its parent's whole, and every tenant.yaml must write `locales.supported` itself (docs/extends.md), so
/// for a creator this is its own list: a base's bundle for a locale the creator leaves out is the
/// base's file, shipped by the base, and is not reported for the creator.
struct UnsupportedLocaleFileRule: Rule {
    static let description = RuleDescription(
        id: "localization.unsupported-locale-file", name: "Locale file for a locale the tenant does not ship", family: .localization,
        rationale: "Only the locales in locales.supported are packed; a bundle for any other locale is silently left out of the release, which is rarely what its translator meant.",
        severity: .warning,
        messages: [declare(Message.notSupported)],
        triggering: [
            RuleExample("an Italian bundle the tenant does not list", files: [
                "example/locales/it.yaml": "↓nav:\n  home: Inizio\n  profile: Profilo\n",
            ]),
            RuleExample("a creator's Italian bundle, where the creator lists only English", files: [
                "creator/tenant.yaml": "id: creator\nkind: creator\nname: Creator\nextends: example\nlocales: {default: en, supported: [en]}\n",
                "creator/locales/it.yaml": "# Italian, ahead of the base\n↓nav:\n  home: Inizio\n  profile: Profilo\n",
            ]),
        ],
        nonTriggering: [
            RuleExample("a bundle for every supported locale", files: LocaleExample.files(locale: "it", text: "nav:\n  home: Inizio\n  profile: Profilo\n")),
            RuleExample("a creator's Italian bundle for a locale it adds to its own list", files: [
                "creator/tenant.yaml": "id: creator\nkind: creator\nname: Creator\nextends: example\nlocales: {default: en, supported: [en, it]}\n",
                "creator/locales/it.yaml": "nav:\n  home: Inizio\n  profile: Profilo\n",
            ]),
        ])

    enum Message {
        static func notSupported(locale: String, supported: String) -> DiagnosticMessage {
            DiagnosticMessage("not-supported",
                              "'\(locale)' is not in locales.supported (\(supported)), so this file is not shipped: add '\(locale)' to locales.supported, or delete the file")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        // Without a list (a required key, reported by the shape rules) or with an empty one there is nothing to compare with.
        guard let locales = context.tenant.tenant?["locales"], let list = locales["supported"]?.items else { return [] }
        let supported = list.compactMap(\.string)
        guard !supported.isEmpty else { return [] }
        // A default locale missing from the list is `references.locale-bundle`'s error already.
        let defaultLocale = locales["default"]?.string
        var diagnostics: [Diagnostic] = []
        for manifest in context.source.manifests(.locale) {
            let locale = manifest.localeBundle?.locale ?? manifest.stem
            guard !supported.contains(locale), locale != defaultLocale else { continue }
            let location = manifest.localeBundle?.location ?? manifest.node.location
            diagnostics.append(Diagnostic(.warning, Message.notSupported(locale: locale, supported: supported.joined(separator: ", ")), at: location,
                                          rule: Self.description.id))
        }
        return diagnostics
    }
}
