import LiveryDiagnostics
import LiveryLoad

// The voice rules that apply to every message: emoji, exclamation marks, form of address and
// banned terms. Each reports at the offending character inside the locale file.

/// Example workspaces: the base tenant with a voice manifest and copy in English (and one more locale).
enum VoiceExample {
    /// The navigation labels every bundle needs, per locale.
    static let navigation: [String: String] = [
        "en": "nav:\n  home: Home\n  profile: Profile\n", "ru": "nav:\n  home: Главная\n  profile: Профиль\n",
        "fr": "nav:\n  home: Accueil\n  profile: Profil\n", "it": "nav:\n  home: Inizio\n  profile: Profilo\n",
        "de": "nav:\n  home: Start\n  profile: Konto\n", "es": "nav:\n  home: Inicio\n  profile: Perfil\n",
    ]

    /// `english` (and `translation` in `locale`, with the same keys) after the navigation labels.
    static func files(voice: String, english: String, locale: String? = nil, translation: String = "") -> [String: String] {
        var files = ["example/voice.yaml": voice, "example/locales/en.yaml": navigation["en"]! + english]
        if let locale {
            files["example/tenant.yaml"] = RuleExample.tenant(appending: "").replacingOccurrences(of: "supported: [en]", with: "supported: [en, \(locale)]")
            files["example/locales/\(locale).yaml"] = (navigation[locale] ?? "") + translation
        }
        return files
    }
}

struct VoiceEmojiRule: Rule {
    static let description = RuleDescription(
        id: "voice.emoji", name: "Emoji policy", family: .voice,
        rationale: "The voice's emoji policy caps the emoji in one message: none 0, sparing 1, moderate 2, liberal no limit; a family, a flag or a skin-toned hand is one emoji.",
        severity: .warning,
        messages: [declare(Message.tooMany)],
        triggering: [
            RuleExample("two emoji where the voice is sparing", files: VoiceExample.files(voice: "emoji: sparing\n", english: "streak: \"Seven days 🔥 keep going ↓💪\"\n")),
            RuleExample("an emoji where the voice has none, in a plural", files: VoiceExample.files(
                voice: "emoji: none\n", english: "streak: \"{count, plural, one {# day ↓🔥} other {# days}}\"\n")),
        ],
        nonTriggering: [
            RuleExample("one ZWJ family and one flag are two emoji, within moderate", files: VoiceExample.files(
                voice: "emoji: moderate\n", english: "family: \"Family plan 👨‍👩‍👧 from 🇫🇷\"\n")),
            RuleExample("text-style symbols are not emoji", files: VoiceExample.files(voice: "emoji: none\n", english: "legal: \"© Example™ 2025\"\n")),
        ])

    enum Message {
        static func tooMany(key: String, count: Int, policy: String, allowed: String) -> DiagnosticMessage {
            DiagnosticMessage("too-many", "'\(key)' has \(count) emoji; the '\(policy)' voice allows \(allowed)")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        guard let settings = context.voiceSettings, let (policy, limit) = settings.emoji, let limit else { return [] }
        var findings = VoiceFindings()
        context.forEachOwnReading { _, message, readings in
            for reading in readings {
                let emoji = VoiceText.emoji(in: reading)
                guard emoji.count > limit else { continue }
                let allowed = limit == 0 ? "no emoji" : "at most \(limit) emoji per message"
                findings.add(Diagnostic(.warning, Message.tooMany(key: message.key, count: emoji.count, policy: "\(policy)", allowed: allowed),
                                        at: voiceLocation(message, offset: reading.offsets[emoji[limit]]), rule: Self.description.id,
                                        hint: limit == 0 ? "remove the emoji" : "keep the one that carries the most meaning"))
            }
        }
        return findings.diagnostics
    }
}

struct VoiceExclamationRule: Rule {
    static let description = RuleDescription(
        id: "voice.exclamation", name: "Exclamation marks", family: .voice,
        rationale: "A message has at most `exclamations.max` exclamation marks, and an error message none unless `exclamations.inErrors` is true: shouting at a user who hit a problem reads as blame.",
        severity: .warning,
        messages: [declare(Message.inError), declare(Message.tooMany)],
        triggering: [
            RuleExample("two where the voice allows one", files: VoiceExample.files(voice: "exclamations: {max: 1}\n", english: "done: \"Great job! You did it↓!\"\n")),
            RuleExample("one in an error message", files: VoiceExample.files(voice: "greeting: warm\n", english: "errors:\n  network: \"No connection↓! Check your Wi-Fi.\"\n")),
        ],
        nonTriggering: [
            RuleExample("one, and an error without", files: VoiceExample.files(
                voice: "exclamations: {max: 1}\n", english: "done: \"Great job!\"\nerrors:\n  network: \"No connection. Check your Wi-Fi and try again.\"\n")),
            RuleExample("errors may exclaim when the voice says so", files: VoiceExample.files(
                voice: "exclamations: {inErrors: true}\n", english: "errors:\n  network: \"No connection! Check your Wi-Fi.\"\n")),
        ])

    enum Message {
        static func inError(key: String) -> DiagnosticMessage {
            DiagnosticMessage("in-error", "error message '\(key)' exclaims; errors stay calm in this voice")
        }
        static func tooMany(key: String, count: Int, allowed: String) -> DiagnosticMessage {
            DiagnosticMessage("too-many", "'\(key)' has \(count) exclamation marks; this voice allows \(allowed)")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        guard let settings = context.voiceSettings else { return [] }
        var findings = VoiceFindings()
        context.forEachOwnReading { _, message, readings in
            let isError = settings.kinds(of: message.key).contains(.error)
            for reading in readings {
                let marks = VoiceText.exclamations(in: reading)
                if isError, !settings.exclamationsInErrors, let first = marks.first {
                    findings.add(Diagnostic(.warning, Message.inError(key: message.key),
                                            at: voiceLocation(message, offset: reading.offsets[first]), rule: Self.description.id,
                                            hint: "end the sentence with a full stop"))
                } else if let max = settings.exclamationMax, marks.count > max {
                    findings.add(Diagnostic(.warning, Message.tooMany(key: message.key, count: marks.count, allowed: max == 0 ? "none" : "at most \(max) per message"),
                                            at: voiceLocation(message, offset: reading.offsets[marks[max]]), rule: Self.description.id,
                                            hint: "keep the exclamation for the one moment that earns it"))
                }
            }
        }
        return findings.diagnostics
    }
}

struct VoiceFormalityRule: Rule {
    static let description = RuleDescription(
        id: "voice.formality", name: "Form of address", family: .voice,
        rationale: "Copy addresses the reader in the voice's register in every language (ты/вы, tu/vous, tu/Lei, du/Sie, tú/usted); one message in the other register breaks the relationship the brand has set.",
        severity: .warning,
        messages: [declare(Message.unknownAddress), declare(Message.wrongRegister)],
        triggering: [
            RuleExample("ты where the voice says вы", files: VoiceExample.files(
                voice: "formality: formal\n", english: "greeting: Nice to see you\n", locale: "ru", translation: "greeting: Рады ↓тебя видеть\n")),
            RuleExample("vous where the French address is tu", files: VoiceExample.files(
                voice: "formality: formal\naddress:\n  fr: tu\n", english: "saved: Your plan is saved\n", locale: "fr", translation: "saved: ↓Votre plan est enregistré\n")),
            RuleExample("Sie mid-sentence where the voice says du", files: VoiceExample.files(
                voice: "address: {de: du}\n", english: "saved: Done, you can go\n", locale: "de", translation: "saved: \"Fertig, ↓Sie können gehen\"\n")),
            RuleExample("an address Livery does not know", files: VoiceExample.files(
                voice: "address:\n  ru: ↓вась\n", english: "saved: Saved\n", locale: "ru", translation: "saved: Сохранено\n")),
        ],
        nonTriggering: [
            RuleExample("вы in formal Russian", files: VoiceExample.files(
                voice: "address: {ru: вы}\n", english: "greeting: Nice to see you\n", locale: "ru", translation: "greeting: Рады вас видеть\n")),
            RuleExample("Italian articles and lowercase lei in informal copy", files: VoiceExample.files(
                voice: "address: {it: tu}\n", english: "tip: The guide says she knows the way\n", locale: "it",
                translation: "tip: \"La guida dice che lei conosce la strada, ti aspetta\"\n")),
            RuleExample("a sentence-initial Sie, which may be 'they', in informal German", files: VoiceExample.files(
                voice: "formality: informal\n", english: "tip: They know the way\n", locale: "de", translation: "tip: Sie kennen den Weg\n")),
        ])

    enum Message {
        static func unknownAddress(value: String, locale: String) -> DiagnosticMessage {
            DiagnosticMessage("unknown-address", "'\(value)' is not a form of address Livery knows for '\(locale)'")
        }
        static func wrongRegister(word: String, register: String, name: String, locale: String) -> DiagnosticMessage {
            DiagnosticMessage("wrong-register", "'\(word)' addresses the reader \(register); this voice uses '\(name)' in '\(locale)'")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        guard let settings = context.voiceSettings else { return [] }
        var diagnostics: [Diagnostic] = []
        for (locale, node) in settings.address where context.owns(node.location) {
            guard let language = VoiceLanguage.named(locale), !language.formalName.isEmpty, let value = node.string,
                  VoiceSettings.register(named: value, in: language) == nil else { continue }
            let choices = (language.informalName.prefix(1) + language.formalName.prefix(1)).joined(separator: " or ")
            diagnostics.append(Diagnostic(.warning, Message.unknownAddress(value: value, locale: locale), at: node.location, rule: Self.description.id,
                                          hint: "write \(choices), or formal or informal"))
        }
        var findings = VoiceFindings()
        context.forEachOwnReading(where: { bundle, _ in settings.register(for: bundle.locale) != nil }) { bundle, message, readings in
            guard let register = settings.register(for: bundle.locale), let language = VoiceLanguage.named(bundle.locale) else { return }
            let wrong = register == .formal ? language.informal : language.formal
            let right = register == .formal ? language.formal : language.informal
            let name = (register == .formal ? language.formalName : language.informalName).first ?? register.rawValue
            for reading in readings {
                for word in VoiceText.words(in: reading, splitsApostrophes: language.splitsApostrophes) where wrong.contains(where: { Self.matches($0, word) }) {
                    let written = word.text + (word.beforeApostrophe ? "'" : "")
                    findings.add(Diagnostic(.warning, Message.wrongRegister(word: written, register: register == .formal ? "informally" : "formally", name: name, locale: bundle.locale),
                                            at: voiceLocation(message, offset: word.offset), rule: Self.description.id,
                                            hint: "use the \(register.rawValue) forms: " + right.prefix(4).map { $0.word + ($0.elided ? "'" : "") }.joined(separator: ", ") + "…"))
                }
            }
        }
        return diagnostics + findings.diagnostics
    }

    static func matches(_ form: AddressForm, _ word: VoiceWord) -> Bool {
        if form.elided && !word.beforeApostrophe { return false }
        switch form.match {
        case .anyCase: return word.text.lowercased() == form.word.lowercased()
        case .capitalised: return word.text == form.word
        case .capitalisedMidSentence: return word.text == form.word && !word.startsSentence
        }
    }
}

struct VoiceBannedTermRule: Rule {
    static let description = RuleDescription(
        id: "voice.banned-term", name: "Banned terms", family: .voice,
        rationale: "A term the voice manifest bans (in every locale, or in the one it names) does not appear in the copy; the finding names the preferred substitute.",
        messages: [declare(Message.banned), declare(Message.bannedInLocale)],
        triggering: [
            RuleExample("a banned word, any case", files: VoiceExample.files(
                voice: "bannedTerms:\n  - {term: workout, prefer: practice}\n", english: "today: \"Your ↓Workout is ready\"\n")),
            RuleExample("a banned phrase with a prefix, only in its locale", files: VoiceExample.files(
                voice: "bannedTerms:\n  - {term: ejercicio dur*, prefer: práctica, locale: es}\n", english: "today: Hard workout\n",
                locale: "es", translation: "today: \"Hoy toca ↓ejercicio durísimo\"\n")),
        ],
        nonTriggering: [
            RuleExample("a longer word and another locale's term", files: VoiceExample.files(
                voice: "bannedTerms:\n  - {term: diet, prefer: eating habits}\n  - {term: practice, locale: es}\n",
                english: "today: \"Your dietitian plans your practice\"\n")),
        ])

    enum Message {
        static func banned(term: String) -> DiagnosticMessage {
            DiagnosticMessage("banned", "'\(term)' is a banned term in this voice")
        }
        static func bannedInLocale(term: String, locale: String) -> DiagnosticMessage {
            DiagnosticMessage("banned-in-locale", "'\(term)' is a banned term in this voice in '\(locale)'")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        guard let settings = context.voiceSettings, !settings.bannedTerms.isEmpty else { return [] }
        var findings = VoiceFindings()
        context.forEachOwnReading(where: { bundle, _ in
            let code = VoiceLanguage.code(of: bundle.locale)
            return settings.bannedTerms.contains { $0.locale == nil || $0.locale == bundle.locale || $0.locale == code }
        }) { bundle, message, readings in
            let code = VoiceLanguage.code(of: bundle.locale)
            let splits = VoiceLanguage.named(bundle.locale)?.splitsApostrophes ?? VoiceLanguage.eliding.contains(code)
            let terms = settings.bannedTerms.filter { $0.locale == nil || $0.locale == bundle.locale || $0.locale == code }
            guard !terms.isEmpty else { return }
            let patterns = terms.map { term -> (VoiceSettings.BannedTerm, [String]) in
                var rendering = VoiceRendering()
                for (i, scalar) in term.term.unicodeScalars.enumerated() { rendering.append(scalar, at: i) }
                return (term, VoiceText.words(in: rendering, splitsApostrophes: splits).map { $0.text.lowercased() })
            }
            for reading in readings {
                let words = VoiceText.words(in: reading, splitsApostrophes: splits)
                let lowered = words.map { $0.text.lowercased() }
                for (term, pattern) in patterns where !pattern.isEmpty {
                    for start in words.indices where Self.matches(pattern, prefix: term.prefix, lowered, from: start, words: words, reading: reading) {
                        let found = String(String.UnicodeScalarView(reading.scalars[words[start].start..<words[start + pattern.count - 1].end]))
                        findings.add(Diagnostic(.error, term.locale.map { Message.bannedInLocale(term: found, locale: $0) } ?? Message.banned(term: found),
                                                at: voiceLocation(message, offset: words[start].offset), rule: Self.description.id,
                                                hint: term.prefer.map { "write '\($0)' instead" } ?? "rephrase without it"))
                    }
                }
            }
        }
        return findings.diagnostics
    }

    /// True when the words from `start` spell `pattern`, separated by nothing but spaces and punctuation (no argument).
    static func matches(_ pattern: [String], prefix: Bool, _ lowered: [String], from start: Int, words: [VoiceWord], reading: VoiceRendering) -> Bool {
        guard start + pattern.count <= lowered.count else { return false }
        for (k, expected) in pattern.enumerated() {
            let word = lowered[start + k]
            let isLast = k == pattern.count - 1
            guard word == expected || (isLast && prefix && word.hasPrefix(expected)) else { return false }
            if k > 0, reading.scalars[words[start + k - 1].end..<words[start + k].start].contains(VoiceRendering.placeholder) { return false }
        }
        return true
    }
}
