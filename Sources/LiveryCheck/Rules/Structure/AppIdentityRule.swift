import LiveryDiagnostics
import LiveryLoad
import LiveryResolve

/// A brand's `app:` gives everything its build settings need (docs/build-settings.md): both store
/// identifiers (their grammar is checked by the schema's formats, `structure.format`), and a display name that can stand under an icon in every
/// locale.
struct AppIdentityRule: Rule {
    static let id: RuleID = "structure.app-identity"
    static let description = RuleDescription(
        id: id, name: "App identity for build settings", family: .structure,
        rationale: "A brand's app needs an iOS bundle identifier (reverse-DNS, at most 155 characters) and an Android application id for its "
            + "build settings (their grammar is structure.format's), and a display name that is plain text, "
            + "without blanks at its ends or line breaks, in every locale (a message key of the locale bundles, or a literal): a store refuses the "
            + "first two, and the name under the icon cannot show the last.",
        messages: [declare(Message.noBundleID), declare(Message.bundleID), declare(Message.displayNameNotPlain), declare(Message.localizedDisplayName), declare(Message.displayName)],
        triggering: [
            RuleExample("an iOS bundle identifier longer than App Store Connect takes", files: ["example/tenant.yaml": app(ios: "↓com.example." + String(repeating: "a", count: 150), android: "com.example.app")]),
            RuleExample("a brand's app without an Android application id", files: ["example/tenant.yaml": RuleExample.tenant(appending: """
                app:
                  displayName: Example
                  bundleIds: ↓{ios: com.example.app}

                """)]),
            RuleExample("a display name message with an argument", files: [
                "example/tenant.yaml": app(ios: "com.example.app", android: "com.example.app", displayName: "app.name"),
                "example/locales/en.yaml": "nav:\n  home: Home\n  profile: Profile\napp:\n  name: ↓\"{brand} app\"\n",
            ]),
            RuleExample("a literal display name ending in a blank", files: ["example/tenant.yaml": app(ios: "com.example.app", android: "com.example.app", displayName: "↓\"Example \"")]),
            RuleExample("a display name message beginning with a blank", files: [
                "example/tenant.yaml": app(ios: "com.example.app", android: "com.example.app", displayName: "app.name"),
                "example/locales/en.yaml": "nav:\n  home: Home\n  profile: Profile\napp:\n  name: ↓\" Example\"\n",
            ]),
        ],
        nonTriggering: [
            RuleExample("store identifiers and a literal display name", files: IconExample.adding(to: ["example/tenant.yaml": app(ios: "com.example.my-app", android: "com.example.my_app")])),
            RuleExample("a brand without an app has no build settings to check", files: [:]),
            RuleExample("a display name from the locale bundles", files: IconExample.adding(to: [
                "example/tenant.yaml": app(ios: "com.example.app", android: "com.example.app", displayName: "app.name"),
                "example/locales/en.yaml": "nav:\n  home: Home\n  profile: Profile\napp:\n  name: Example's\n",
            ])),
            RuleExample("a creator inherits its platform's app and needs no ids", files: ["example/tenant.yaml": RuleExample.tenant(appending: "app:\n  displayName: Example\n")
                .replacingOccurrences(of: "kind: brand", with: "kind: creator")]),
        ])

    static func app(ios: String, android: String, displayName: String = "Example") -> String {
        RuleExample.tenant(appending: "app:\n  displayName: \(displayName)\n  bundleIds:\n    ios: \(ios)\n    android: \(android)\n")
    }

    enum Message {
        static func noBundleID(label: String, platform: String, system: String) -> DiagnosticMessage {
            DiagnosticMessage("no-bundle-id", "the app has no \(label) (app.bundleIds.\(platform)); the \(system) build settings need one")
        }
        static func bundleID(value: String, problem: String) -> DiagnosticMessage {
            DiagnosticMessage("bad-bundle-id", "the iOS bundle identifier '\(value)' \(problem)")
        }
        static func displayNameNotPlain(key: String, locale: String) -> DiagnosticMessage {
            DiagnosticMessage("display-name-not-plain", "the display name '\(key)' in \(locale) is not plain text; a name under an icon cannot take arguments or selections")
        }
        static func localizedDisplayName(key: String, locale: String, problem: String) -> DiagnosticMessage {
            DiagnosticMessage("bad-localized-display-name", "the display name '\(key)' in \(locale) \(problem)")
        }
        static func displayName(problem: String) -> DiagnosticMessage {
            DiagnosticMessage("bad-display-name", "the display name \(problem)")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        guard let manifest = context.tenant.tenant, manifest["kind"]?.string == "brand", let app = manifest["app"] else { return [] }
        var diagnostics: [Diagnostic] = []
        func report(_ message: DiagnosticMessage, at location: SourceLocation, hint: String? = nil) {
            guard context.owns(location) else { return }  // an ancestor's own validation reports it
            diagnostics.append(Diagnostic(.error, message, at: location, rule: Self.id, hint: hint))
        }
        let ids = app["bundleIds"]
        for (platform, label) in [("ios", "iOS bundle identifier"), ("android", "Android application id")] {
            guard ids?[platform] == nil else { continue }
            report(Message.noBundleID(label: label, platform: platform, system: platform == "ios" ? "iOS" : "Android"),
                   at: (ids ?? app).location, hint: "add bundleIds: {\(platform): com.example.app}")
        }
        // A value outside the schema's format is structure.format's finding; App Store Connect also limits the length.
        if let node = ids?["ios"], let value = node.string, StringFormat.bundleID.matches(value), let found = AppIdentity.iosBundleIDProblem(value) {
            report(Message.bundleID(value: value, problem: found), at: node.location, hint: "use a shorter reverse-DNS name, as in com.example.app")
        }

        guard let nameNode = app["displayName"], let declared = nameNode.string else { return diagnostics }
        if let key = AppIdentity.displayNameKey(declared, in: context.tenant) {
            for locale in context.tenant.supportedLocales {
                guard let message = context.tenant.locales[locale]?.message(key) else { continue }  // localization.missing reports it
                guard let text = AppIdentity.plainText(message.text) else {
                    report(Message.displayNameNotPlain(key: key, locale: locale),
                           at: message.location, hint: "write the name itself, with no {…}")
                    continue
                }
                if let found = AppIdentity.displayNameProblem(text) {
                    report(Message.localizedDisplayName(key: key, locale: locale, problem: found), at: message.location)
                }
            }
        } else if let found = AppIdentity.displayNameProblem(declared) {
            report(Message.displayName(problem: found), at: nameNode.location,
                   hint: "app.displayName is a literal unless the default locale's bundle has a message with that key")
        }
        return diagnostics
    }
}
