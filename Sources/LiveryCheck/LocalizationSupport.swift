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
    func owns(_ location: SourceLocation) -> Bool {
        // Asked of every message by several rules: compared in place, without building "root/".
        let root = tenant.source.displayRoot.utf8, file = location.file.utf8
        guard file.count > root.count, file.starts(with: root) else { return false }
        return file[file.index(file.startIndex, offsetBy: root.count)] == UInt8(ascii: "/")
    }

    /// The default locale's bundle and every other bundle of the tenant, sorted by locale.
    var translationPairs: (defaultLocale: String, source: LocaleBundle, translations: [LocaleBundle])? {
        guard let defaultLocale = tenant.defaultLocale, let source = tenant.locales[defaultLocale] else { return nil }
        let others = tenant.locales.filter { $0.key != defaultLocale }.sorted { $0.key < $1.key }.map(\.value)
        return (defaultLocale, source, others)
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
