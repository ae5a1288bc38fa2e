import Foundation
import LiveryDiagnostics
import LiveryLoad
import LiveryResolve

// The store-listing rules (docs/store-listings.md): a brand's store.yaml and the store.* messages of
// its locale bundles, checked against what App Store Connect and the Play Console accept.

/// Example workspaces for the store rules: a brand with an app, a store.yaml and English store text.
enum StoreExample {
    static let tenant = RuleExample.tenant(appending: "app:\n  displayName: Example\n  bundleIds:\n    ios: com.example.app\n    android: com.example.app\n")
    static let store = "urls:\n  privacy: https://example.com/privacy\n  support: https://example.com/support\n"
    static let texts = """
        store:
          subtitle: Walks worth taking
          description: Audio walks through the old town, offline.
          keywords: walks,audio,tours
          shortDescription: Audio walks through the old town.

        """

    static func files(store: String? = store, texts: String = texts, tenant: String = tenant) -> [String: String] {
        var files = ["example/tenant.yaml": tenant, "example/locales/en.yaml": "nav:\n  home: Home\n  profile: Profile\n" + texts]
        if let store { files["example/store.yaml"] = store }
        // A brand that ships an app has an icon (assets.app-icon-missing), so the examples are clean of other findings.
        return IconExample.adding(to: files)
    }

    /// The example with Russian as a second locale, `russian` its bundle.
    static func files(russian: String, store: String = store) -> [String: String] {
        var files = self.files(store: store, tenant: tenant.replacingOccurrences(of: "supported: [en]", with: "supported: [en, ru]"))
        files["example/locales/ru.yaml"] = russian
        return files
    }

    /// `files` with a `↓` at the start of `path`.
    static func marked(_ files: [String: String], _ path: String) -> [String: String] {
        var files = files
        files[path] = "↓" + (files[path] ?? "")
        return files
    }

    /// The example with Swahili as a second locale (no App Store listing language).
    static func swahili(store: String = store) -> [String: String] {
        var files = self.files(store: store, tenant: tenant.replacingOccurrences(of: "supported: [en]", with: "supported: [en, sw]"))
        files["example/locales/sw.yaml"] = """
            nav:
              home: Nyumbani
              profile: Wasifu
            store:
              subtitle: Matembezi ya sauti
              description: Matembezi ya sauti katika mji wa zamani.
              keywords: matembezi,sauti
              shortDescription: Matembezi ya sauti mjini.

            """
        return files
    }

    static let russian = """
        nav:
          home: Главная
          profile: Профиль
        store:
          subtitle: Прогулки с аудиогидом
          description: Аудиопрогулки по старому городу, без сети.
          keywords: прогулки,аудио,туры
          shortDescription: Аудиопрогулки по старому городу.

        """
}

extension RuleContext {
    /// The tenant's store listing (a brand with an app and a store.yaml), if it has one.
    var storeListing: StoreListing? { StoreListing.of(tenant) }

    /// Where a locale stands in the tenant manifest's `locales.supported`.
    func supportedLocaleLocation(_ locale: String) -> SourceLocation? {
        tenant.tenant?["locales"]?["supported"]?.items?.first { $0.string == locale }?.location
    }

    /// Where a listing text is written: its message, or for a display name standing in for the name,
    /// `app.displayName` (or its message).
    func location(of text: StoreListing.Text, in locale: String) -> SourceLocation? {
        if let message = text.message { return message.location }
        guard let node = tenant.tenant?["app"]?["displayName"], let declared = node.string else { return nil }
        if let key = AppIdentity.displayNameKey(declared, in: tenant) {
            return (tenant.locales[locale]?.message(key) ?? tenant.defaultLocale.flatMap { tenant.locales[$0]?.message(key) })?.location
        }
        return node.location
    }
}

/// Every text a store listing needs is there, and a store.yaml belongs to a brand with an app.
struct StoreRequiredTextRule: Rule {
    static let id: RuleID = "store.required-text"
    static let description = RuleDescription(
        id: id, name: "Store listing text present", family: .store,
        rationale: "Each store refuses a listing without its required text: the App Store a description and keywords (the name defaults to the "
            + "app's display name), Google Play a short and a full description (the title defaults likewise). They come from the default "
            + "locale's store.* messages. A store.yaml lists an app, so it belongs to a brand with an app: (a creator is listed in its platform's app).",
        messages: [declare(Message.noListing), declare(Message.missingText)],
        triggering: [
            RuleExample("a Google Play listing without a short description", files: StoreExample.marked(StoreExample.files(
                texts: "store:\n  description: Audio walks through the old town.\n  keywords: walks,audio\n"), "example/locales/en.yaml")),
            RuleExample("a store.yaml for a brand without an app", files: ["example/store.yaml": "↓urls:\n  privacy: https://example.com/privacy\n"]),
        ],
        nonTriggering: [
            RuleExample("description, keywords and short description; the name is the display name", files: StoreExample.files()),
            RuleExample("an App Store listing only needs no Play short description", files: StoreExample.files(
                store: "stores: [appStore]\n" + StoreExample.store, texts: "store:\n  description: Audio walks.\n  keywords: walks,audio\n")),
        ])

    enum Message {
        static func noListing(problem: String) -> DiagnosticMessage {
            DiagnosticMessage("no-listing", "store.yaml describes store listings, but \(problem)")
        }
        static func missingText(store: String, field: String, key: String, file: String, limit: Int, unit: String) -> DiagnosticMessage {
            DiagnosticMessage("missing-text", "the \(store) listing has no \(field): add \(key) to \(file) (at most \(limit) \(unit))")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        if let own = context.source.manifests(.store).first {
            let manifest = context.tenant.tenant
            let problem = manifest?["kind"]?.string == "creator" ? "a creator is listed in its platform's app and has no listing of its own"
                : manifest?["app"]?["displayName"] == nil ? "the tenant has no app: (display name and store identifiers) to list" : nil
            if let problem {
                diagnostics.append(Diagnostic(.error, Message.noListing(problem: problem), at: own.node.location, rule: Self.id,
                                              hint: "remove store.yaml, or give the brand an app: in tenant.yaml"))
            }
        }
        guard let listing = context.storeListing, let bundle = context.tenant.locales[listing.defaultLocale], context.owns(bundle.location) else { return diagnostics }
        for store in listing.stores {
            for field in StoreField.all where field.store == store && field.required {
                let text = listing.text(field, in: listing.defaultLocale)
                guard text?.text?.isEmpty ?? (text == nil) else { continue }
                let file = (bundle.file as NSString).lastPathComponent
                diagnostics.append(Diagnostic(.error, Message.missingText(store: store.title, field: field.label, key: field.keys.last!, file: bundle.file, limit: field.limit,
                                                                        unit: field.countsBytes ? "bytes" : "characters"), at: bundle.location, rule: Self.id,
                                              hint: "\(file) holds the default locale's text; store.yaml 'stores' lists the stores the app is in"))
            }
        }
        return diagnostics
    }
}

/// A `store.*` message key a listing does not read is a misspelling.
struct StoreUnknownKeyRule: Rule {
    static let id: RuleID = "store.unknown-key"
    static let description = RuleDescription(
        id: id, name: "Known store listing keys", family: .store,
        rationale: "The store. namespace of the locale bundles holds listing text, read by key: a misspelt key (store.descripton) would leave "
            + "its text out of every listing without a word.",
        messages: [declare(Message.unknownKey)],
        triggering: [
            RuleExample("a misspelt description key", files: StoreExample.files(texts: StoreExample.texts + "  ↓descripton: Audio walks.\n")),
        ],
        nonTriggering: [
            RuleExample("every key a listing reads", files: StoreExample.files(texts: StoreExample.texts
                + "  name: Example Walks\n  title: Example Walks\n  promotionalText: New walks every month.\n  fullDescription: Audio walks, offline.\n"
                + "  releaseNotes: Faster maps.\n  changelog: Faster maps.\n")),
        ])

    enum Message {
        static func unknownKey(key: String) -> DiagnosticMessage {
            DiagnosticMessage("unknown-key", "'\(key)' is not a store listing key")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for bundle in context.source.manifests(.locale).compactMap(\.localeBundle) {
            for message in bundle.messages where message.key.hasPrefix("store.") && !StoreField.knownKeys.contains(message.key) {
                diagnostics.append(Diagnostic(.error, Message.unknownKey(key: message.key), at: message.keyLocation, rule: Self.id,
                                              hint: DidYouMean.hint(for: message.key, among: StoreField.knownKeys)
                                                ?? "listing keys: \(StoreField.knownKeys.sorted().joined(separator: ", ")); the store. namespace is theirs"))
            }
        }
        return diagnostics
    }
}

/// The URLs the stores require, present and well-formed https.
struct StoreURLRule: Rule {
    static let id: RuleID = "store.urls"
    static let description = RuleDescription(
        id: id, name: "Store listing URLs", family: .store,
        rationale: "Both stores require a privacy policy URL and the App Store a support URL; each must be a well-formed https URL (App Store "
            + "Connect refuses others, and a store page must not send people to an unencrypted page). Listing text without a store.yaml has no "
            + "privacy URL to go with it.",
        messages: [declare(Message.noStoreManifest), declare(Message.badURL), declare(Message.missingURL)],
        triggering: [
            RuleExample("no privacy URL", files: StoreExample.files(store: "↓urls:\n  support: https://example.com/support\n")),
            RuleExample("a support URL over http", files: StoreExample.files(store: "urls:\n  privacy: https://example.com/privacy\n  support: ↓http://example.com/support\n")),
            RuleExample("a URL with a space", files: StoreExample.files(store: "urls:\n  privacy: ↓https://example.com/privacy policy\n  support: https://example.com/support\n")),
            RuleExample("store text without a store.yaml", files: StoreExample.files(store: nil, texts: "store:\n  description: ↓Audio walks.\n")),
        ],
        nonTriggering: [
            RuleExample("privacy, support and marketing pages over https", files: StoreExample.files(
                store: StoreExample.store + "  marketing: https://example.com/?from=store#walks\n")),
            RuleExample("a Google Play listing needs no support URL", files: StoreExample.files(store: "stores: [googlePlay]\nurls:\n  privacy: https://example.com/privacy\n")),
        ])

    /// Why `url` is not a well-formed https URL, or nil.
    static func problem(_ url: String) -> String? {
        if url.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.properties.generalCategory == .control }) { return "holds a blank or control character" }
        guard let components = URLComponents(string: url), let scheme = components.scheme else { return "is not a URL" }
        if scheme.lowercased() != "https" { return "is not https" }
        if (components.host ?? "").isEmpty { return "has no host" }
        return nil
    }

    enum Message {
        static func noStoreManifest() -> DiagnosticMessage {
            DiagnosticMessage("no-store-manifest", "the locale bundles have store listing text, but there is no store.yaml with the privacy URL both stores require")
        }
        static func badURL(name: String, value: String, problem: String) -> DiagnosticMessage {
            DiagnosticMessage("bad-url", "the \(name) URL '\(value)' \(problem)")
        }
        static func missingURL(name: String, stores: String, verb: String) -> DiagnosticMessage {
            DiagnosticMessage("missing-url", "no \(name) URL: \(stores) \(verb) one")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        guard let manifest = context.tenant.tenant, manifest["kind"]?.string == "brand", manifest["app"] != nil else { return [] }
        var diagnostics: [Diagnostic] = []
        guard let settings = StoreListing.settings(of: context.tenant) else {
            let own = context.source.manifests(.locale).compactMap(\.localeBundle).first { $0.locale == context.tenant.defaultLocale }
            if let first = own?.messages.first(where: { $0.key.hasPrefix("store.") }) {
                diagnostics.append(Diagnostic(.error, Message.noStoreManifest(),
                                              at: first.location, rule: Self.id, hint: "add store.yaml with urls: {privacy: https://…, support: https://…}"))
            }
            return diagnostics
        }
        let stores = settings["stores"]?.items?.compactMap { $0.string.flatMap(Store.init(rawValue:)) } ?? Store.allCases
        let urls = settings["urls"]
        for (name, needed) in [("privacy", stores), ("support", stores.filter { $0 == .appStore }), ("marketing", [])] {
            if let node = urls?[name] {
                if let value = node.string, let found = Self.problem(value), context.owns(node.location) {
                    diagnostics.append(Diagnostic(.error, Message.badURL(name: name, value: value, problem: found), at: node.location, rule: Self.id, hint: "write a full https:// address"))
                }
            } else if !needed.isEmpty, let location = settings.entry("urls")?.keyLocation, context.owns(location) {
                diagnostics.append(Diagnostic(.error, Message.missingURL(name: name, stores: needed.map(\.title).joined(separator: " and "), verb: needed.count == 1 ? "requires" : "require"),
                                              at: location, rule: Self.id, hint: "add urls.\(name): https://…"))
            }
        }
        return diagnostics
    }
}

/// Store locale codes set by hand are the store's, and no two locales share a store's listing.
struct StoreLocaleRule: Rule {
    static let id: RuleID = "store.locale"
    static let description = RuleDescription(
        id: id, name: "Store locale codes", family: .store,
        rationale: "Each store has its own list of listing languages (App Store es-MX, Google Play es-419), and a listing folder named otherwise "
            + "is refused; two of the tenant's locales on one store code would write one listing twice, the second over the first.",
        messages: [declare(Message.unsupported), declare(Message.unknownCode), declare(Message.collision)],
        triggering: [
            RuleExample("a Google Play code for the App Store", files: StoreExample.files(store: StoreExample.store + "locales:\n  appStore: {en: ↓es-419}\n")),
            RuleExample("a listing language for a locale the tenant does not support", files: StoreExample.files(store: StoreExample.store + "locales:\n  appStore: {↓fr: fr-FR}\n")),
            RuleExample("Russian and Russian in Russia on one App Store listing", files: StoreExample.files(
                russian: StoreExample.russian).merging(["example/tenant.yaml": StoreExample.tenant.replacingOccurrences(of: "supported: [en]", with: "supported: [en, ru, ↓ru-RU]"),
                                                        "example/locales/ru-RU.yaml": StoreExample.russian]) { _, new in new }),
        ],
        nonTriggering: [
            RuleExample("English listed in the British stores by hand", files: StoreExample.files(store: StoreExample.store + "locales:\n  appStore: {en: en-GB}\n  googlePlay: {en: en-GB}\n")),
        ])

    enum Message {
        static func unsupported(locale: String) -> DiagnosticMessage {
            DiagnosticMessage("unsupported-locale", "'\(locale)' is not a supported locale of the tenant")
        }
        static func unknownCode(code: String, store: String) -> DiagnosticMessage {
            DiagnosticMessage("unknown-code", "'\(code)' is not a \(store) locale code")
        }
        static func collision(locale: String, earlier: String, store: String, code: String) -> DiagnosticMessage {
            DiagnosticMessage("same-code", "\(locale) and \(earlier) would both be the \(store) listing '\(code)'")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        guard let listing = context.storeListing else { return [] }
        var diagnostics: [Diagnostic] = []
        let supported = Set(listing.locales.map(\.locale))
        for store in Store.allCases {
            for entry in listing.settings["locales"]?[store.rawValue]?.entries ?? [] where context.owns(entry.value.location) {
                if !supported.contains(entry.key) {
                    diagnostics.append(Diagnostic(.error, Message.unsupported(locale: entry.key), at: entry.keyLocation, rule: Self.id,
                                                  hint: DidYouMean.hint(for: entry.key, among: supported)))
                } else if let code = entry.value.string, !StoreLocales.codes(of: store).contains(code) {
                    let near = StoreLocales.codes(ofLanguage: code, in: store)
                    diagnostics.append(Diagnostic(.error, Message.unknownCode(code: code, store: store.title), at: entry.value.location, rule: Self.id,
                                                  hint: near.isEmpty ? "the \(store.title) lists no such language" : "the \(store.title) has \(near.joined(separator: ", "))"))
                }
            }
            guard listing.stores.contains(store) else { continue }
            var first: [String: String] = [:]
            for locale in listing.locales {
                guard let code = locale.code(in: store) else { continue }
                if let earlier = first[code] {
                    let location = locale.chosen.contains(store) ? listing.settings["locales"]?[store.rawValue]?[locale.locale]?.location : context.supportedLocaleLocation(locale.locale)
                    if let location, context.owns(location) {
                        diagnostics.append(Diagnostic(.error, Message.collision(locale: locale.locale, earlier: earlier, store: store.title, code: code), at: location, rule: Self.id,
                                                      hint: "give one of them another code in store.yaml locales.\(store.rawValue)"))
                    }
                } else {
                    first[code] = locale.locale
                }
            }
        }
        return diagnostics
    }
}

/// A supported locale the store lists no language for has no listing there.
struct StoreLocaleUnmappedRule: Rule {
    static let id: RuleID = "store.locale-unmapped"
    static let description = RuleDescription(
        id: id, name: "Locales without a store listing", family: .store, rationale:
            "A locale a store has no listing language for (App Store Swahili, Belgian French) is left out of that store's listing, and people "
            + "there see the app's primary listing: the app still ships the language, so this warns; store.yaml locales can pick a code by hand.",
        severity: .warning,
        messages: [declare(Message.unmapped)],
        triggering: [
            RuleExample("Swahili has no App Store listing", files: StoreExample.swahili().merging([
                "example/tenant.yaml": StoreExample.tenant.replacingOccurrences(of: "supported: [en]", with: "supported: [en, ↓sw]")]) { _, new in new }),
        ],
        nonTriggering: [
            RuleExample("Swahili listed in Google Play only", files: StoreExample.swahili(store: "stores: [googlePlay]\nurls:\n  privacy: https://example.com/privacy\n")),
        ])

    enum Message {
        static func unmapped(store: String, locale: String) -> DiagnosticMessage {
            DiagnosticMessage("unmapped", "the \(store) has no listing language for \(locale); its listing there leaves it out")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        guard let listing = context.storeListing else { return [] }
        var diagnostics: [Diagnostic] = []
        for locale in listing.locales {
            for store in listing.stores where locale.code(in: store) == nil && !locale.chosen.contains(store) {
                guard let location = context.supportedLocaleLocation(locale.locale), context.owns(location) else { continue }
                let near = StoreLocales.codes(ofLanguage: locale.locale, in: store)
                diagnostics.append(Diagnostic(.warning, Message.unmapped(store: store.title, locale: locale.locale), at: location, rule: Self.id,
                                              hint: near.isEmpty ? "the \(store.title) lists no such language" : "choose one of \(near.joined(separator: ", ")) in store.yaml locales.\(store.rawValue)"))
            }
        }
        return diagnostics
    }
}
