import LiveryDiagnostics
import LiveryLoad

struct BidiControlRule: Rule {
    static let description = RuleDescription(
        id: "localization.bidi-controls", name: "Bidirectional controls", family: .localization,
        rationale: "Bidirectional override and isolate controls (U+202A–U+202E, U+2066–U+2069) make text display in another order than it is stored: a message can show one thing and say another (the Trojan Source trick), and a stray one scrambles a label. In a locale written left to right they have no honest use; right-to-left locales may need them around embedded Latin text.",
        isSecurity: true,
        messages: [declare(Message.bidiControl)],
        triggering: [
            RuleExample("a right-to-left override in English", files: LocaleExample.english("nav:\n  home: \"Pay ↓\u{202E}01$ now\"\n  profile: Profile\n")),
            RuleExample("an isolate in Russian", files: LocaleExample.files(russian: "nav:\n  home: \"Главная ↓\u{2066}x↓\u{2069}\"\n  profile: Профиль\n")),
        ],
        nonTriggering: [RuleExample("an isolate in Arabic", files: LocaleExample.files(locale: "ar", text: "nav:\n  home: \"الرئيسية \u{2066}Home\u{2069}\"\n  profile: الملف\n",
                                                                         localeLines: "  rtl: [ar]\n"))])

    enum Message {
        static func bidiControl(key: String, control: String) -> DiagnosticMessage {
            DiagnosticMessage("bidi-control", "'\(key)' contains \(control), which reorders how the text displays")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        let id = Self.description.id
        var diagnostics: [Diagnostic] = []
        for (locale, bundle) in context.tenant.locales.sorted(by: { $0.key < $1.key }) where !TextDirection.isRightToLeft(locale) {
            for message in bundle.messages where context.owns(message.keyLocation) {
                for control in InvisibleCharacters.bidiControls(in: message.text) {
                    diagnostics.append(Diagnostic(.error, Message.bidiControl(key: message.key, control: "\(InvisibleCharacters.name(control.scalar))"),
                                                  at: message.location(atOffset: control.offset), rule: id,
                                                  hint: "delete it: \(locale) is written left to right"))
                }
            }
        }
        return diagnostics
    }
}
