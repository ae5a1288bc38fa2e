import LiveryDiagnostics
import LiveryLoad

/// One text of a store listing: which store, which fastlane file, which `store.*` keys feed it (the
/// first the default locale has wins), and the store's limit.
public struct StoreField: Sendable, Equatable {
    public var store: Store
    /// The file in a locale folder of fastlane's layout (`name.txt`; the changelog's name is chosen per release).
    public var file: String
    /// What the store calls it ("name", "short description").
    public var label: String
    public var keys: [String]
    /// Most characters (UTF-16 code units, see `StoreListing.length`), or bytes when `countsBytes`.
    public var limit: Int
    public var countsBytes: Bool
    /// Whether the listing needs it (the store refuses a listing without it).
    public var required: Bool
    /// Whether the store shows it on one line (no line breaks).
    public var singleLine: Bool

    /// Every field, App Store then Google Play. Limits: App Store Connect Help, "Reference › Platform
    /// version information" (name, subtitle 30; promotional text 170; description, what's new 4,000;
    /// keywords 100 bytes); Play Console Help, "Create and set up your app › store listing" (title 30,
    /// short description 80, full description 4,000; release notes 500).
    public static let all: [StoreField] = [
        StoreField(store: .appStore, file: "name.txt", label: "name", keys: ["store.name"], limit: 30, countsBytes: false, required: true, singleLine: true),
        StoreField(store: .appStore, file: "subtitle.txt", label: "subtitle", keys: ["store.subtitle"], limit: 30, countsBytes: false, required: false, singleLine: true),
        StoreField(store: .appStore, file: "promotional_text.txt", label: "promotional text", keys: ["store.promotionalText"], limit: 170, countsBytes: false, required: false, singleLine: false),
        StoreField(store: .appStore, file: "description.txt", label: "description", keys: ["store.description"], limit: 4000, countsBytes: false, required: true, singleLine: false),
        StoreField(store: .appStore, file: "keywords.txt", label: "keywords", keys: ["store.keywords"], limit: 100, countsBytes: true, required: true, singleLine: true),
        StoreField(store: .appStore, file: "release_notes.txt", label: "release notes", keys: ["store.releaseNotes"], limit: 4000, countsBytes: false, required: false, singleLine: false),
        StoreField(store: .googlePlay, file: "title.txt", label: "title", keys: ["store.title", "store.name"], limit: 30, countsBytes: false, required: true, singleLine: true),
        StoreField(store: .googlePlay, file: "short_description.txt", label: "short description", keys: ["store.shortDescription"], limit: 80, countsBytes: false, required: true, singleLine: true),
        StoreField(store: .googlePlay, file: "full_description.txt", label: "full description", keys: ["store.fullDescription", "store.description"], limit: 4000, countsBytes: false, required: true, singleLine: false),
        StoreField(store: .googlePlay, file: "changelogs", label: "release notes", keys: ["store.changelog", "store.releaseNotes"], limit: 500, countsBytes: false, required: false, singleLine: false),
    ]

    /// Every `store.*` key a listing reads; others in the `store.` namespace are misspellings.
    public static let knownKeys: Set<String> = Set(all.flatMap(\.keys))

    /// Whether a message key is store listing text (the `store.` group of the locale bundles): release
    /// bundles leave it out of the app's locale files, as no app reads it.
    public static func isListingKey(_ key: String) -> Bool { key.hasPrefix("store.") }
}

/// A brand's store listings: its `store.yaml` (merged down its `extends` lineage) and the store text
/// of every supported locale, with each locale's code in each store.
public struct StoreListing: Sendable {
    /// One of our locales with its code in each store (nil: the store lists no such language).
    public struct StoreLocale: Sendable, Equatable {
        public var locale: String
        public var appStore: String?
        public var googlePlay: String?
        /// The codes set by hand in store.yaml `locales`, by store.
        public var chosen: Set<Store>

        public func code(in store: Store) -> String? { store == .appStore ? appStore : googlePlay }
    }

    /// One text of the listing in one locale.
    public struct Text: Sendable {
        /// The key it came from, and its message (in this locale, or the default locale's where a
        /// translation is missing); nil for the app's display name standing in for a missing name.
        public var key: String?
        public var message: LocaleBundle.Message?
        /// The text as the store gets it: ICU quoting resolved, blanks at the ends trimmed; nil when
        /// the message is not plain text (arguments, selections, markup).
        public var text: String?
    }

    /// The merged store.yaml.
    public var settings: Node
    public var stores: [Store]
    public var defaultLocale: String
    /// Every supported locale, default first.
    public var locales: [StoreLocale]
    /// `app.build`, which names Google Play's changelog file.
    public var build: Int?
    /// The app's display name per locale, the name a listing has without `store.name`.
    public var displayNames: [String: String]
    let bundles: [String: LocaleBundle]

    public func url(_ name: String) -> String? { settings["urls"]?[name]?.string }

    /// The listing of a brand with an `app:` and a store.yaml (its own or inherited); nil otherwise.
    /// Creators publish inside their platform's app, which has the listing.
    public static func of(_ tenant: ResolvedTenant) -> StoreListing? {
        guard let identity = AppIdentity.of(tenant), let settings = settings(of: tenant) else { return nil }
        let declared = settings["stores"]?.items?.compactMap { $0.string.flatMap(Store.init(rawValue:)) } ?? Store.allCases
        let stores = Store.allCases.filter { declared.contains($0) }
        let chosen = settings["locales"]
        let locales = identity.localizedNames.map(\.locale).map { locale -> StoreLocale in
            let appStore = chosen?["appStore"]?[locale]?.string
            let googlePlay = chosen?["googlePlay"]?[locale]?.string
            // A code set by hand must be one of the store's (store.locale reports others); no fallback then.
            func code(_ store: Store, _ chosen: String?) -> String? {
                guard let chosen else { return StoreLocales.code(for: locale, in: store) }
                return StoreLocales.codes(of: store).contains(chosen) ? chosen : nil
            }
            return StoreLocale(locale: locale, appStore: code(.appStore, appStore), googlePlay: code(.googlePlay, googlePlay),
                               chosen: Set([appStore == nil ? nil : Store.appStore, googlePlay == nil ? nil : .googlePlay].compactMap { $0 }))
        }
        return StoreListing(settings: settings, stores: stores, defaultLocale: identity.defaultLocale, locales: locales, build: identity.build,
                            displayNames: Dictionary(identity.localizedNames.map { ($0.locale, $0.name) }, uniquingKeysWith: { a, _ in a }),
                            bundles: tenant.locales)
    }

    /// The store.yaml of `tenant` merged down its lineage (nearest wins), or nil when none has one.
    public static func settings(of tenant: ResolvedTenant) -> Node? {
        var merged: Node?
        for member in tenant.ancestors + [tenant.source] {
            guard let node = member.manifests(.store).first?.node else { continue }
            merged = merged.map { ManifestMerge.merge(parent: $0, child: node) } ?? node
        }
        return merged
    }

    /// The key of `field` this listing uses: the first of its keys the default locale has.
    public func key(of field: StoreField) -> String? {
        field.keys.first { bundles[defaultLocale]?.message($0) != nil }
    }

    /// The text of `field` in `locale`: the locale's message of the field's key (the default locale's
    /// where it has none), or for a name or title without one, the app's display name. Nil when the
    /// listing has no such text.
    public func text(_ field: StoreField, in locale: String) -> Text? {
        guard let key = key(of: field) else {
            guard field.keys.contains("store.name"), let name = displayNames[locale] ?? displayNames[defaultLocale] else { return nil }
            return Text(key: nil, message: nil, text: name)
        }
        guard let message = bundles[locale]?.message(key) ?? bundles[defaultLocale]?.message(key) else { return nil }
        return Text(key: key, message: message, text: AppIdentity.plainText(message.text).map(Self.trimmed))
    }

    /// The fastlane file of `field`: Google Play's changelog is `changelogs/<versionCode>.txt`, or
    /// `changelogs/default.txt` (supply's fallback for any version) without `app.build`.
    public func file(of field: StoreField) -> String {
        field.file == "changelogs" ? "changelogs/\(build.map(String.init) ?? "default").txt" : field.file
    }

    /// A text's length as the stores' limits count it: UTF-16 code units, as a browser counts a form
    /// field's `maxlength` (both stores' consoles are web forms). It equals the number of characters
    /// for every letter of the Basic Multilingual Plane (Latin, Cyrillic, Devanagari…) and counts an
    /// emoji beyond it as two, so a text within it is never refused for length. Keywords are bytes.
    public static func length(_ text: String, of field: StoreField) -> Int {
        field.countsBytes ? text.utf8.count : text.utf16.count
    }

    /// The keywords of a keyword list: comma-separated, blanks around each trimmed.
    public static func keywords(_ text: String) -> [String] {
        text.split(separator: ",", omittingEmptySubsequences: false).map { trimmed(String($0)) }
    }

    static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let end = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[start...end])
    }
}
