/// The stores a brand's listing goes to (docs/store-listings.md).
public enum Store: String, Sendable, CaseIterable {
    case appStore, googlePlay

    public var title: String { self == .appStore ? "App Store" : "Google Play" }
}

/// Our locale identifiers (BCP 47: `en`, `pt-BR`, `zh-Hans`, `es-419`) mapped to each store's own
/// locale codes, which are the names of fastlane's metadata folders.
///
/// The two lists are the stores' published ones, typed in from:
/// - App Store Connect Help, "Reference › App Store localizations" (the languages an App Store
///   product page can be written in), as fastlane `deliver` also lists them in
///   `deliver/lib/deliver/languages.rb` (`Deliver::Languages::ALL_LANGUAGES`, 2025 edition with
///   Bengali, Gujarati, Kannada, Malayalam, Marathi, Odia, Punjabi, Slovenian, Tamil, Telugu, Urdu);
/// - Play Console Help answer 3125566, "Add translations and localized assets › available languages",
///   as fastlane `supply` lists them in `supply/lib/supply/languages.rb` (`Supply::Languages`,
///   with `-` for its `_`).
/// A store code is never guessed: a locale maps to a code of the list or to nothing (`store.locale-unmapped`).
public enum StoreLocales {
    public static let appStore: [String] = [
        "ar-SA", "bn", "ca", "cs", "da", "de-DE", "el", "en-AU", "en-CA", "en-GB", "en-US", "es-ES", "es-MX", "fi", "fr-CA", "fr-FR",
        "gu", "he", "hi", "hr", "hu", "id", "it", "ja", "kn", "ko", "ml", "mr", "ms", "nl-NL", "no", "or", "pa", "pl", "pt-BR", "pt-PT",
        "ro", "ru", "sk", "sl", "sv", "ta", "te", "th", "tr", "uk", "ur", "vi", "zh-Hans", "zh-Hant",
    ]

    public static let googlePlay: [String] = [
        "af", "am", "ar", "az-AZ", "be", "bg", "bn-BD", "ca", "cs-CZ", "da-DK", "de-DE", "el-GR", "en-AU", "en-CA", "en-GB", "en-IN",
        "en-SG", "en-US", "en-ZA", "es-419", "es-ES", "es-US", "et", "eu-ES", "fa", "fi-FI", "fil", "fr-CA", "fr-FR", "gl-ES", "hi-IN",
        "hr", "hu-HU", "hy-AM", "id", "is-IS", "it-IT", "iw-IL", "ja-JP", "ka-GE", "km-KH", "kn-IN", "ko-KR", "ky-KG", "lo-LA", "lt",
        "lv", "mk-MK", "ml-IN", "mn-MN", "mr-IN", "ms", "ms-MY", "my-MM", "ne-NP", "nl-NL", "no-NO", "pl-PL", "pt-BR", "pt-PT", "rm",
        "ro", "ru-RU", "si-LK", "sk", "sl", "sr", "sv-SE", "sw", "ta-IN", "te-IN", "th", "tr-TR", "uk", "vi", "zh-CN", "zh-HK", "zh-TW", "zu",
    ]

    public static func codes(of store: Store) -> [String] { store == .appStore ? appStore : googlePlay }

    /// Where a language alone is listed under several regions, the one a bare language tag means:
    /// CLDR's likely region (en → US, es → ES, fr → FR, pt → BR, as `pt` is Brazilian in CLDR).
    static let defaultRegion: [String: String] = ["en": "US", "es": "ES", "fr": "FR", "pt": "BR"]

    /// Language codes the stores spell their own way: Play keeps Hebrew's withdrawn `iw`, both list
    /// Norwegian Bokmål as `no`, and Filipino is `fil` where a tenant may write `tl`.
    static let languageAliases: [String: String] = ["he": "iw", "nb": "no", "tl": "fil"]

    /// Latin American regions: a Spanish listing for them is Play's `es-419` and the App Store's `es-MX`
    /// (the App Store's only Spanish besides Spain's).
    static let latinAmerica: Set<String> = ["419", "AR", "BO", "CL", "CO", "CR", "CU", "DO", "EC", "GT", "HN", "MX", "NI", "PA", "PE", "PR", "PY", "SV", "UY", "VE"]

    /// The store code of `locale`, or nil when the store lists no such language (or region of it).
    ///
    /// In order: the code itself when the store lists it (any case); Chinese by script or region
    /// (Hans: `zh-Hans` / `zh-CN`; Hant: `zh-Hant` / `zh-TW`, or Play's `zh-HK`); Latin American
    /// Spanish; a regional locale the store lists only as a language (`ru-RU` → App Store `ru`); a
    /// bare language the store lists under regions (`ru` → Play `ru-RU`; `en` → `en-US`).
    /// A regional locale whose region the store lacks (`fr-BE`, App Store `en-IN`) maps to nothing
    /// rather than onto another region's listing: choose in store.yaml.
    public static func code(for locale: String, in store: Store) -> String? {
        let codes = codes(of: store)
        func listed(_ candidate: String) -> String? { codes.first { $0.lowercased() == candidate.lowercased() } }
        if let exact = listed(locale) { return exact }
        let parts = locale.split(separator: "-").map(String.init)
        guard let first = parts.first else { return nil }
        var language = first.lowercased()
        let script = parts.dropFirst().first { $0.count == 4 }
        let region = parts.dropFirst().first { $0.count == 2 || $0.count == 3 }?.uppercased()
        if !(store == .appStore && language == "he") { language = languageAliases[language] ?? language }
        if language == "zh" {
            let traditional = script?.lowercased() == "hant" || (script == nil && ["TW", "HK", "MO"].contains(region ?? ""))
            if store == .appStore { return traditional ? "zh-Hant" : "zh-Hans" }
            if traditional { return region == "HK" ? "zh-HK" : "zh-TW" }
            return "zh-CN"
        }
        if script != nil { return nil }
        if language == "es", let region, latinAmerica.contains(region) || (region == "US" && store == .appStore) {
            return store == .appStore ? "es-MX" : (region == "US" ? "es-US" : "es-419")
        }
        if let region {
            if let exact = listed(language + "-" + region) { return exact }
            return listed(language)
        }
        if let exact = listed(language) { return exact }
        if let preferred = defaultRegion[language], let exact = listed(language + "-" + preferred) { return exact }
        let regional = codes.filter { $0.lowercased().hasPrefix(language + "-") }
        return regional.count == 1 ? regional[0] : nil
    }

    /// The store's codes for the language of `locale`, for hints (`fr-FR, fr-CA`).
    public static func codes(ofLanguage locale: String, in store: Store) -> [String] {
        let language = String(locale.split(separator: "-").first ?? "").lowercased()
        return codes(of: store).filter { $0.lowercased() == language || $0.lowercased().hasPrefix(language + "-") }
    }
}
