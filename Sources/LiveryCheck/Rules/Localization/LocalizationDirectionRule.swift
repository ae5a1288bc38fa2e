import LiveryDiagnostics
import LiveryLoad

/// Which locales are written right to left.
///
/// From CLDR's layout data (`characterOrder` right-to-left in common/main: ar, ckb, fa, ff-Adlm, he,
/// ks, lrc, mzn, pa-Arab, ps, sd, ug, ur, uz-Arab, yi) and the scripts those locales use, plus the
/// RTL languages CLDR lists with less data (dv, syr, arc, nqo) and the legacy codes iw and ji. An
/// explicit script subtag decides on its own: `sd-Deva` is left to right, `pa-Arab` right to left.
enum TextDirection {
    static let rightToLeftLanguages: Set<String> = ["ar", "arc", "ckb", "dv", "fa", "he", "iw", "ji", "ks", "lrc", "mzn", "nqo", "ps", "sd", "syr", "ug", "ur", "yi"]
    static let rightToLeftScripts: Set<String> = ["Adlm", "Arab", "Hebr", "Mand", "Nkoo", "Rohg", "Samr", "Syrc", "Thaa"]

    static func isRightToLeft(_ locale: String) -> Bool {
        let parts = locale.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        guard let language = parts.first?.lowercased() else { return false }
        if let script = parts.dropFirst().first(where: { $0.count == 4 && $0.allSatisfy(\.isLetter) }) {
            return rightToLeftScripts.contains(script.prefix(1).uppercased() + script.dropFirst().lowercased())
        }
        return rightToLeftLanguages.contains(language)
    }
}

struct RightToLeftRule: Rule {
    static let description = RuleDescription(
        id: "localization.rtl", name: "Right-to-left locales declared", family: .localization,
        rationale: "An app mirrors its layout only for the locales the tenant declares right to left; Arabic or Hebrew left out of locales.rtl shows a mirrored-text, unmirrored-layout app.",
        severity: .warning,
        messages: [declare(Message.notListed), declare(Message.leftToRight), declare(Message.unsupported)],
        triggering: [
            RuleExample("Arabic not declared right to left", files: [
                "example/tenant.yaml": LocaleExample.tenant(supported: "en, ↓ar", localeLines: ""),
                "example/locales/ar.yaml": "nav:\n  home: الرئيسية\n  profile: الملف الشخصي\n",
            ]),
            RuleExample("French declared right to left", files: [
                "example/tenant.yaml": LocaleExample.tenant(supported: "en, fr", localeLines: "  rtl: [↓fr]\n"),
                "example/locales/fr.yaml": "nav:\n  home: Accueil\n  profile: Profil\n",
            ]),
            RuleExample("Arabic declared right to left but not supported", files: [
                "example/tenant.yaml": LocaleExample.tenant(supported: "en", localeLines: "  rtl: [↓ar]\n"),
            ]),
        ],
        nonTriggering: [RuleExample("Hebrew declared, English not", files: [
            "example/tenant.yaml": LocaleExample.tenant(supported: "en, he", localeLines: "  rtl: [he]\n"),
            "example/locales/he.yaml": "nav:\n  home: בית\n  profile: פרופיל\n",
        ])])

    enum Message {
        static func notListed(locale: String) -> DiagnosticMessage {
            DiagnosticMessage("rtl-not-listed", "'\(locale)' is written right to left, but locales.rtl does not list it")
        }
        static func leftToRight(locale: String) -> DiagnosticMessage {
            DiagnosticMessage("listed-left-to-right", "locales.rtl lists '\(locale)', which is written left to right")
        }
        static func unsupported(locale: String) -> DiagnosticMessage {
            DiagnosticMessage("listed-unsupported", "locales.rtl lists '\(locale)', which is not in locales.supported")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        let settings = context.localeSettings
        let declared = Set(settings.rtl.compactMap(\.string))
        let supported = Set(settings.supported.compactMap(\.string))
        let id = Self.description.id
        var diagnostics: [Diagnostic] = []
        for node in settings.supported where context.owns(node.location) {
            guard let locale = node.string, TextDirection.isRightToLeft(locale), !declared.contains(locale) else { continue }
            diagnostics.append(Diagnostic(.warning, Message.notListed(locale: locale), at: node.location, rule: id,
                                          hint: "add it to locales.rtl so the app mirrors its layout"))
        }
        for node in settings.rtl where context.owns(node.location) {
            guard let locale = node.string else { continue }
            if !TextDirection.isRightToLeft(locale) {
                diagnostics.append(Diagnostic(.warning, Message.leftToRight(locale: locale), at: node.location, rule: id,
                                              hint: "remove it from locales.rtl"))
            } else if !supported.contains(locale) {
                diagnostics.append(Diagnostic(.warning, Message.unsupported(locale: locale), at: node.location, rule: id,
                                              hint: "add it to locales.supported or remove it from locales.rtl"))
            }
        }
        return diagnostics
    }
}
