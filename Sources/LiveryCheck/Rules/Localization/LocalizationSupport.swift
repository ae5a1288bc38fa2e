import LiveryDiagnostics
import LiveryLoad
import LiveryResolve

/// Example workspaces with English and Russian (or other) bundles.
enum LocaleExample {
    static func files(russian: String) -> [String: String] {
        files(locale: "ru", text: russian)
    }

    /// The base tenant supporting `en` and `locale`, with `text` as that locale's bundle;
    /// `localeLines` are added under `locales:` in the tenant manifest.
    static func files(locale: String, text: String, english: String? = nil, localeLines: String = "") -> [String: String] {
        var files = [
            "example/tenant.yaml": tenant(supported: "en, \(locale)", localeLines: localeLines),
            "example/locales/\(locale).yaml": text,
        ]
        if let english { files["example/locales/en.yaml"] = english }
        return files
    }

    /// The base tenant (English only) with `english` as its bundle.
    static func english(_ text: String, localeLines: String = "") -> [String: String] {
        ["example/tenant.yaml": tenant(supported: "en", localeLines: localeLines), "example/locales/en.yaml": text]
    }

    /// The base tenant manifest with its supported locales and extra lines under `locales:`.
    static func tenant(supported: String, localeLines: String) -> String {
        RuleExample.base["example/tenant.yaml"]!.replacingOccurrences(of: "  supported: [en]\n", with: "  supported: [\(supported)]\n" + localeLines)
    }
}

extension RuleContext {
    /// True when `location` is in this tenant's own folder, not in a manifest it inherits.
    package func owns(_ location: SourceLocation) -> Bool {
        location.file.hasPrefix(ownPrefix)
    }

    /// The default locale's bundle paired key by key with every other bundle of the tenant; nil without a
    /// default locale bundle. Made once per tenant for every rule that compares translations with their source.
    var translationPairing: TranslationPairing? {
        if let made = cache.translationPairing { return made }
        var made: TranslationPairing?
        if let defaultLocale = tenant.defaultLocale, let source = tenant.locales[defaultLocale] {
            let others = tenant.locales.filter { $0.key != defaultLocale }.sorted { $0.key < $1.key }.map(\.value)
            made = TranslationPairing(defaultLocale: defaultLocale, source: source, translations: others)
        }
        cache.translationPairing = .some(made)
        return made
    }

    /// Where a finding that compares a translation with its source belongs: in the translation when this
    /// tenant wrote it; in the source message when only that is the tenant's own (it changed a text its
    /// inherited translation no longer fits); nowhere when both are inherited (the ancestor reports it).
    func placement(of translation: LocaleBundle.Message, against source: LocaleBundle.Message) -> Placement? {
        if owns(translation.keyLocation) { return .translation }
        if owns(source.keyLocation) { return .source(note: " (its text is inherited from \(translation.location.file):\(translation.location.line))") }
        return nil
    }

    /// The tenant's localization settings (`locales:` in the tenant manifest, inherited values merged).
    var localeSettings: LocaleSettings { LocaleSettings(tenant.tenant?["locales"]) }
}

/// The messages of each translation paired with the default locale's message of the same key.
struct TranslationPairing {
    struct Translation {
        let bundle: LocaleBundle
        /// For each message of `bundle`, the index of the source message with its key, or -1.
        let sourceIndex: [Int]
    }

    let defaultLocale: String
    let source: LocaleBundle
    /// Sorted by locale.
    let translations: [Translation]

    init(defaultLocale: String, source: LocaleBundle, translations: [LocaleBundle]) {
        self.defaultLocale = defaultLocale
        self.source = source
        let sourceMessages = source.messages
        var keyIndex: [String: Int]?  // fetched only when a translation does not follow the source's order
        self.translations = translations.map { bundle in
            let messages = bundle.messages
            // Translations usually keep the order of the default locale's file: the same position
            // mostly holds the same key, and then no hashing is needed.
            let sourceIndex = messages.indices.map { i -> Int in
                if i < sourceMessages.count, sourceMessages[i].key == messages[i].key { return i }
                if keyIndex == nil { keyIndex = source.keyIndex }
                return keyIndex![messages[i].key] ?? -1
            }
            return Translation(bundle: bundle, sourceIndex: sourceIndex)
        }
    }

    /// For each source message, whether `translation` has its key.
    func covered(by translation: Translation) -> [Bool] {
        var covered = [Bool](repeating: false, count: source.messages.count)
        for j in translation.sourceIndex where j >= 0 { covered[j] = true }
        return covered
    }
}

enum Placement {
    case translation
    case source(note: String)
}

/// The optional localization settings of `locales:` in the tenant manifest (see docs/locales.md).
struct LocaleSettings {
    /// `maxLength`: key or glob → characters.
    var maxLength: [(pattern: KeyPattern, limit: Int, entry: Node.Entry)] = []
    /// `untranslatedAllowed`: keys or globs.
    var untranslatedAllowed: [KeyPattern] = []
    /// `rtl`: locale nodes, with their locations.
    var rtl: [Node] = []
    var supported: [Node] = []

    init(_ locales: Node?) {
        for entry in locales?["maxLength"]?.entries ?? [] {
            if let limit = entry.value.int { maxLength.append((KeyPattern(entry.key), limit, entry)) }
        }
        untranslatedAllowed = (locales?["untranslatedAllowed"]?.items ?? []).compactMap(\.string).map(KeyPattern.init)
        rtl = (locales?["rtl"]?.items ?? []).filter { $0.string != nil }
        supported = (locales?["supported"]?.items ?? []).filter { $0.string != nil }
    }

    /// The limit for `key`: an exact key wins over globs; among globs, the smallest limit applies.
    func limit(for key: String) -> (limit: Int, pattern: String)? {
        if let exact = maxLength.first(where: { !$0.pattern.isGlob && $0.pattern.text == key }) { return (exact.limit, exact.pattern.text) }
        return maxLength.filter { $0.pattern.isGlob && $0.pattern.matches(key) }.min { $0.limit < $1.limit }.map { ($0.limit, $0.pattern.text) }
    }

    func allowsUntranslated(_ key: String) -> Bool {
        untranslatedAllowed.contains { $0.matches(key) }
    }
}

/// A message key or a glob over keys: `*` matches within one dot-separated part, `**` across parts.
struct KeyPattern {
    let text: String
    private let scalars: [Unicode.Scalar]

    init(_ text: String) {
        self.text = text
        scalars = Array(text.unicodeScalars)
    }

    var isGlob: Bool { scalars.contains("*") }

    func matches(_ key: String) -> Bool {
        guard isGlob else { return key == text }
        let key = Array(key.unicodeScalars)
        // reachable[j]: the pattern read so far can match key[..<j]. Dynamic programming, no backtracking.
        var reachable = [Bool](repeating: false, count: key.count + 1)
        reachable[0] = true
        var p = 0
        while p < scalars.count {
            var next = [Bool](repeating: false, count: key.count + 1)
            if scalars[p] == "*" {
                let crossesDots = p + 1 < scalars.count && scalars[p + 1] == "*"
                for j in 0...key.count where reachable[j] {
                    next[j] = true
                    var k = j
                    while k < key.count, crossesDots || key[k] != "." { k += 1; next[k] = true }
                }
                p += crossesDots ? 2 : 1
            } else {
                for j in 0..<key.count where reachable[j] && key[j] == scalars[p] { next[j + 1] = true }
                p += 1
            }
            reachable = next
        }
        return reachable[key.count]
    }
}
