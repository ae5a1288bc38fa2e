import LiveryDiagnostics
import LiveryLoad

/// What a message key is in the interface, which decides the voice rules that apply to it.
enum MessageKind: String, Sendable, CaseIterable {
    case button, heading, error, emptyState

    /// The default naming convention: a key part (group or last segment) that is one of these words, or
    /// ends in one in camelCase or snake_case (`saveButton`, `network_error`), gives the key that kind.
    static let conventionWords: [String: MessageKind] = [
        "button": .button, "buttons": .button, "cta": .button, "ctas": .button, "action": .button, "actions": .button,
        "title": .heading, "titles": .heading, "heading": .heading, "headings": .heading, "header": .heading, "headers": .heading,
        "error": .error, "errors": .error,
        "empty": .emptyState, "emptystate": .emptyState, "emptystates": .emptyState,
    ]

    /// The kind a key part names: `errors`, `emptyState`, `saveButton`, `network_error`.
    static func named(by part: Substring) -> MessageKind? {
        let normal = part.lowercased().filter { $0 != "_" && $0 != "-" }
        if let kind = conventionWords[normal] { return kind }
        // A compound: the last camelCase or snake_case word decides (`genericError`, `empty_state` above).
        let scalars = Array(part.unicodeScalars)
        guard let split = scalars.indices.last(where: { i in
            i > 0 && (scalars[i].properties.isUppercase && scalars[i - 1].properties.isLowercase || scalars[i - 1] == "_" || scalars[i - 1] == "-")
        }) else { return nil }
        let tail = String(String.UnicodeScalarView(scalars[split...])).lowercased()
        // `empty` and `action` alone are too common as compound tails (`isEmpty`, `lastAction`) to count.
        guard tail != "empty", tail != "action", tail != "actions" else { return nil }
        return conventionWords[tail]
    }
}

/// The voice manifest as the voice rules read it (docs/voice.md), inherited values merged.
struct VoiceSettings {
    enum Register: String { case formal, informal }

    struct BannedTerm {
        var words: [String]
        /// Trailing `*`: the last word matches any word it starts (`workout*` finds `workouts`).
        var prefix: Bool
        var term: String
        var prefer: String?
        var locale: String?
    }

    /// The emoji policy and its limit per message (nil: no limit).
    var emoji: (policy: String, limit: Int?)?
    var formality: Register?
    /// `address:` entries: locale → value node.
    var address: [(locale: String, node: Node)] = []
    var bannedTerms: [BannedTerm] = []
    var exclamationMax: Int?
    var exclamationsInErrors = false
    var maxWords = 3
    var sentenceCase = true
    /// Words that keep their capital in labels and headings (names).
    var properNouns: Set<String> = []
    var keyConventions = true
    var keyPatterns: [(kind: MessageKind, pattern: KeyPattern)] = []
    var plainKeys: [KeyPattern] = []

    static let emojiLimits: [String: Int?] = ["none": 0, "sparing": 1, "moderate": 2, "liberal": nil]

    init(_ voice: Node) {
        if let policy = voice["emoji"]?.string, let limit = Self.emojiLimits[policy] { emoji = (policy, limit) }
        formality = voice["formality"]?.string.flatMap(Register.init(rawValue:))
        address = (voice["address"]?.entries ?? []).map { ($0.key, $0.value) }
        for entry in voice["bannedTerms"]?.items ?? [] {
            guard let term = entry["term"]?.string else { continue }
            let prefix = term.hasSuffix("*")
            let body = prefix ? String(term.dropLast()) : term
            let words = body.split(whereSeparator: { $0.isWhitespace }).map { String($0) }
            guard !words.isEmpty else { continue }
            bannedTerms.append(BannedTerm(words: words, prefix: prefix, term: body, prefer: entry["prefer"]?.string, locale: entry["locale"]?.string))
        }
        exclamationMax = voice["exclamations"]?["max"]?.int
        exclamationsInErrors = voice["exclamations"]?["inErrors"]?.bool ?? false
        maxWords = voice["labels"]?["maxWords"]?.int ?? 3
        sentenceCase = voice["labels"]?["sentenceCase"]?.bool ?? true
        properNouns = Set((voice["labels"]?["properNouns"]?.items ?? []).compactMap(\.string))
        let keys = voice["keys"]
        keyConventions = keys?["conventions"]?.bool ?? true
        for kind in MessageKind.allCases {
            for pattern in keys?[kind.rawValue]?.items ?? [] {
                if let text = pattern.string { keyPatterns.append((kind, KeyPattern(text))) }
            }
        }
        plainKeys = (keys?["plain"]?.items ?? []).compactMap(\.string).map(KeyPattern.init)
    }

    /// The kinds of a message key: from the `keys:` globs and, unless turned off, the naming convention
    /// applied to every part of the key. `keys.plain` globs have no kind whatever their names.
    func kinds(of key: String) -> Set<MessageKind> {
        if plainKeys.contains(where: { $0.matches(key) }) { return [] }
        var kinds = Set(keyPatterns.filter { $0.pattern.matches(key) }.map(\.kind))
        if keyConventions {
            for part in key.split(separator: ".") { if let kind = MessageKind.named(by: part) { kinds.insert(kind) } }
        }
        return kinds
    }

    /// The register copy in `locale` must use: `address` for the locale or its language, else `formality`.
    /// Nil when neither is set, the language has no T–V distinction, or the address is not understood.
    func register(for locale: String) -> Register? {
        guard let language = VoiceLanguage.named(locale), !language.formalName.isEmpty else { return nil }
        let code = VoiceLanguage.code(of: locale)
        if let node = address.first(where: { $0.locale == locale })?.node ?? address.first(where: { $0.locale == code })?.node {
            return node.string.flatMap { Self.register(named: $0, in: language) }
        }
        return formality
    }

    /// `formal`, `informal`, or the pronoun of one register in this language (ты, вы, tu, vous, Lei, du, Sie, tú, usted).
    static func register(named value: String, in language: VoiceLanguage) -> Register? {
        let word = value.lowercased()
        if let register = Register(rawValue: word) { return register }
        if language.formalName.contains(word) { return .formal }
        if language.informalName.contains(word) { return .informal }
        return nil
    }
}

extension RuleContext {
    /// The voice settings, when the tenant (or an ancestor) has a voice manifest; the voice rules
    /// apply only to tenants that describe a voice.
    var voiceSettings: VoiceSettings? { tenant.voice.map(VoiceSettings.init) }

    /// Calls `body` with the readings of every valid message this tenant wrote itself, in every locale,
    /// that `include` selects. Readings are made on demand, not kept: a workspace holds too many messages.
    func forEachOwnReading(where include: (_ bundle: LocaleBundle, _ message: LocaleBundle.Message) -> Bool = { _, _ in true },
                           _ body: (_ bundle: LocaleBundle, _ message: LocaleBundle.Message, _ readings: [VoiceRendering]) -> Void) {
        forEachOwnMessage(self) { bundle, message, facts in
            guard facts.error == nil, include(bundle, message) else { return }
            body(bundle, message, VoiceText.renderings(of: message.text))
        }
    }
}

/// The file location of a character of a message: the one place the voice rules map positions, through
/// the loader's scalar source map (quotes, escapes, block scalars).
func voiceLocation(_ message: LocaleBundle.Message, offset: Int) -> SourceLocation {
    message.location(atOffset: offset)
}

/// Collects one finding per place, as the readings of one message share text (and may count differently).
struct VoiceFindings {
    private(set) var diagnostics: [Diagnostic] = []
    private var seen = Set<String>()

    mutating func add(_ diagnostic: Diagnostic) {
        if seen.insert(diagnostic.location.description).inserted { diagnostics.append(diagnostic) }
    }
}
