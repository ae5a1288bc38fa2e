import Foundation
import LiveryDiagnostics
import LiveryL10n
import LiveryLoad

/// The locale bundles of one tenant as interchange sees them: its own files, default locale first.
///
/// Only the tenant's own `locales/*.yaml` are exported and imported: a creator that `extends` a
/// base exchanges the keys it writes itself, and the base's keys are exchanged from the base's folder.
public struct LocaleCatalog: Sendable {
    public var tenantID: String
    public var defaultLocale: String
    /// The supported locales in the order `tenant.yaml` lists them (the default is always included).
    public var locales: [String] { didSet { parsed = ParsedCatalog() } }
    public var bundles: [String: LocaleBundle] { didSet { parsed = ParsedCatalog() } }
    /// Every key's messages parsed once and its platform signatures: every locale's export on both
    /// platforms renders from them. Reset whenever the bundles or locales change.
    var parsed = ParsedCatalog()
    /// The tenant folder, when the catalog was loaded from disk (nil for a catalog built in memory).
    public var folder: URL?
    /// The tenant folder as diagnostics show it.
    public var displayRoot: String

    public init(tenantID: String, defaultLocale: String, locales: [String], bundles: [String: LocaleBundle], folder: URL? = nil, displayRoot: String = "") {
        self.tenantID = tenantID
        self.defaultLocale = defaultLocale
        var ordered = locales.contains(defaultLocale) ? locales : [defaultLocale] + locales
        var seen = Set<String>()
        ordered = ordered.filter { seen.insert($0).inserted }
        self.locales = ordered
        self.bundles = bundles
        self.folder = folder
        self.displayRoot = displayRoot
    }

    /// Every key: the default locale's in file order, then keys only other locales have, in locale and file order.
    public var keys: [String] {
        var seen = Set<String>()
        var out: [String] = []
        for locale in locales {
            for message in bundles[locale]?.messages ?? [] where seen.insert(message.key).inserted { out.append(message.key) }
        }
        return out
    }

    /// The text of `key` in `locale`, if that bundle has it.
    public func text(_ key: String, in locale: String) -> String? { bundles[locale]?.message(key)?.text }

    /// The relative path of a locale's file: the existing one, or `locales/<locale>.yaml` for a new one.
    public func relativePath(of locale: String) -> String {
        if let file = bundles[locale]?.file, file.hasPrefix(displayRoot + "/") { return String(file.dropFirst(displayRoot.count + 1)) }
        return "locales/\(locale).yaml"
    }

    /// Loads a tenant folder's locale bundles; errors in `tenant.yaml` or a locale file stop the load.
    public static func load(_ folder: URL, displayRoot: String? = nil) -> InterchangeResult<LocaleCatalog> {
        let display = displayRoot ?? folder.path
        let source = TenantLoader.load(folder, displayRoot: display)
        let relevant = source.diagnostics.filter { d in
            d.location.file.hasPrefix(display + "/locales/") || d.location.file.hasPrefix(display + "/tenant.")
        }
        if relevant.contains(where: { $0.severity == .error }) { return InterchangeResult(value: nil, diagnostics: relevant) }
        guard let tenant = source.tenant else {
            return InterchangeResult(value: nil, diagnostics: [Diagnostic(.error, "no tenant manifest: expected tenant.yaml in '\(display)'",
                                                                         at: .start(of: display + "/tenant.yaml"), rule: InterchangeRule.io)])
        }
        guard let defaultLocale = tenant.node["locales"]?["default"]?.string else {
            return InterchangeResult(value: nil, diagnostics: [Diagnostic(.error, "tenant.yaml names no default locale (locales.default)",
                                                                         at: tenant.node.location, rule: InterchangeRule.language,
                                                                         hint: "add `locales: {default: en, supported: [en]}` to tenant.yaml")])
        }
        let supported = tenant.node["locales"]?["supported"]?.items?.compactMap(\.string) ?? []
        var bundles: [String: LocaleBundle] = [:]
        let diagnostics = relevant
        // The loader flattened each bundle; its findings are among `relevant`.
        for bundle in source.manifests(.locale).compactMap(\.localeBundle) { bundles[bundle.locale] = bundle }
        if diagnostics.contains(where: { $0.severity == .error }) { return InterchangeResult(value: nil, diagnostics: diagnostics) }
        let catalog = LocaleCatalog(tenantID: source.id, defaultLocale: defaultLocale, locales: supported, bundles: bundles, folder: folder, displayRoot: display)
        return InterchangeResult(value: catalog, diagnostics: diagnostics)
    }
}

/// A catalog's keys, each message parsed once, with the key's signature on both platforms (shared by
/// the catalog's copies, which have the same bundles). Built whole on first use: `generate` exports every
/// key of every locale for both platforms, and parsing each message once for all of them (it was parsed nine
/// times: six times for the two signatures, then again for each platform's rendering) was the largest
/// share of that work.
final class ParsedCatalog: @unchecked Sendable {
    struct Key: Sendable {
        /// For a key a platform renders from the message tree (a simple or substituted shape): its message in
        /// each of the catalog's locales (same order), nil where the locale lacks the key or its text is not
        /// valid ICU. Empty for other keys (plurals render from `templates`, verbatim keys from `texts`).
        var messages: [MessageFormat?]
        /// The key's text in each of the catalog's locales (same order), nil where the locale lacks it.
        var texts: [String?]
        /// Whether a locale's text is not valid ICU (the key is then verbatim on both platforms).
        var unparsable: Bool
        var apple: PlatformSignature
        var android: PlatformSignature
        /// For a key that is `.plural` on either platform: each locale's parsed message flattened for
        /// rendering (same order as `messages`, nil where that is nil); empty for other keys.
        var templates: [PluralTemplate?]

        func signature(_ flavor: PlatformFlavor) -> PlatformSignature { flavor == .apple ? apple : android }

        /// The key's form in the locale at `index`, whose text is `text`; nil when that text is not valid ICU
        /// under a signature that is not verbatim (a key with such a text is verbatim, so only a defence).
        func form(_ flavor: PlatformFlavor, locale index: Int, text: String, locale: String) -> PlatformForm? {
            let signature = signature(flavor)
            if signature.shape == .verbatim { return .text(text) }
            guard let message = message(locale: index, text: text) else { return nil }
            return PlatformRenderer.render(message, signature: signature, locale: locale)
        }

        /// The tree of the key's message in the locale at `index`, whose text is `text`: kept for a key that
        /// renders from it, else parsed again (exports render plurals from their templates).
        private func message(locale index: Int, text: String) -> MessageFormat? {
            if !messages.isEmpty { return messages[index] }
            return try? MessageFormat(parsing: text)
        }

        /// What an export writes for the locale at `index`: `form`, except that a `.plural` key's variants come
        /// in the platform file's own category order, without a dictionary per message.
        /// `categories` are the locale's CLDR plural categories (nil when CLDR does not know the locale).
        func value(_ flavor: PlatformFlavor, locale index: Int, text: String, locale: String, categories: CLDRCategories.Orders?) -> ExportedValue? {
            let signature = signature(flavor)
            guard signature.shape == .plural else { return form(flavor, locale: index, text: text, locale: locale).map(ExportedValue.form) }
            guard let message = message(locale: index, text: text) else { return nil }
            return .plural(PlatformRenderer.pluralVariants(message, signature: signature, locale: locale, order: flavor == .apple ? .xcode : .android,
                                                           known: categories))
        }
    }

    /// One key's value in one locale as an export writes it.
    enum ExportedValue {
        case form(PlatformForm)
        /// Each plural category's format string, in the order the platform file lists them.
        case plural([(category: String, text: String)])
    }

    struct Table: Sendable {
        /// Each key's entry, in `orderedKeys` order (an export reads the fields it needs in place, rather
        /// than copying a whole entry out of a dictionary for every key).
        var entries: [Key]
        /// Each key's position in `orderedKeys` and `entries`.
        var positions: [String: Int]
        /// The catalog's keys in `LocaleCatalog.keys` order.
        var orderedKeys: [String]
        /// The positions of the catalog's keys in the order Xcode writes them.
        var sorted: [Int]
        /// Each key's Android resource name, or the diagnostics of names that are invalid or taken twice.
        var androidNames: InterchangeResult<[String: String]>
    }

    // The lock guards `built`.
    private let lock = NSLock()
    private var built: Table?

    func table(of catalog: LocaleCatalog) -> Table {
        lock.withLock {
            if let built { return built }
            let made = Self.make(catalog)
            built = made
            return made
        }
    }

    func entry(_ key: String, of catalog: LocaleCatalog) -> Key? {
        let table = table(of: catalog)
        return table.positions[key].map { table.entries[$0] }
    }

    private static func make(_ catalog: LocaleCatalog) -> Table {
        var entries: [Key] = []
        let bundles = catalog.locales.map { catalog.bundles[$0] }
        // Each bundle's messages and key index, fetched once: reading a text in place copies no message.
        let indexes = bundles.map { $0?.keyIndex ?? [:] }
        let bundleMessages = bundles.map { $0?.messages ?? [] }
        let all = catalog.keys
        entries.reserveCapacity(all.count)
        // Each locale's parse of the current key, into a buffer reused from key to key.
        var patterns = [MessagePattern?](repeating: nil, count: bundles.count)
        var buffers = [[MessagePattern.Part]](repeating: [], count: bundles.count)
        for key in all {
            var texts: [String?] = []
            texts.reserveCapacity(bundles.count)
            var unparsable = false
            for b in bundles.indices {
                let text = indexes[b][key].map { bundleMessages[b][$0].text }
                texts.append(text)
                guard let text else { continue }
                switch MessagePattern.parse(text, reusing: &buffers[b]) {
                case .success(let pattern): patterns[b] = pattern
                case .failure: unparsable = true
                }
            }
            // The signatures and plural templates are read from the flat parses; a tree is made only for a key
            // a platform renders from it (simple and substituted shapes): most of a build's keys are plurals.
            let signatures = PlatformSignature.computedForBothFlavors(patterns.compactMap { $0 }, unparsable: unparsable)
            // Both platforms' slots are the same unless a platform is verbatim (no slots), so either plural signature's do.
            let pluralSlots = signatures.apple.shape == .plural ? signatures.apple.slots
                : signatures.android.shape == .plural ? signatures.android.slots : nil
            let templates = pluralSlots.map { slots in patterns.map { $0.map { PluralTemplate($0, slots: slots) } } } ?? []
            let rendersFromTree = [signatures.apple.shape, signatures.android.shape].contains { $0 == .simple || $0 == .substituted }
            let messages = rendersFromTree ? patterns.map { $0.map(MessageFormat.init) } : []
            entries.append(Key(messages: messages, texts: texts, unparsable: unparsable, apple: signatures.apple, android: signatures.android, templates: templates))
            for b in patterns.indices {
                guard let pattern = patterns[b] else { continue }
                patterns[b] = nil
                buffers[b] = pattern.parts
            }
        }
        let positions = Dictionary(all.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        return Table(entries: entries, positions: positions, orderedKeys: all, sorted: XcodeJSONWriter.sortedPositions(all),
                     androidNames: AndroidFormat.names(catalog, keys: all))
    }
}
