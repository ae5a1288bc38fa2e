import LiveryDiagnostics
import LiveryLoad

// The voice rules for the app's states: what an error message and an empty state say.

struct VoiceTechnicalErrorTextRule: Rule {
    static let description = RuleDescription(
        id: "voice.technical-error-text", name: "Technical text in errors", family: .voice,
        rationale: "An error message speaks to a person: no `null`, `undefined`, exception names, HTTP status codes, error constants, memory addresses or stack frames, which leak internals and tell the user nothing they can act on.",
        messages: [declare(Message.technical)],
        triggering: [
            RuleExample("a status code and null", files: VoiceExample.files(voice: "greeting: warm\n", english: "errors:\n  generic: \"Error ↓500: ↓null\"\n")),
            RuleExample("an exception name in a nested error", files: VoiceExample.files(
                voice: "greeting: warm\n", english: "booking:\n  paymentError: \"Payment failed (↓java.io.IOException)\"\n")),
            RuleExample("a stack frame", files: VoiceExample.files(voice: "greeting: warm\n", english: "errors:\n  crash: \"Crashed at ↓Main.swift:42\"\n")),
        ],
        nonTriggering: [RuleExample("plain words, an amount, and null outside errors", files: VoiceExample.files(
            voice: "greeting: warm\n",
            english: "errors:\n  payment: \"The payment of ₹500 didn’t go through. No money was taken.\"\nhelp:\n  nullable: Fields marked null are optional\n"))])

    /// Words a program prints, never a person.
    static let literals: Set<String> = ["null", "NULL", "undefined", "NaN", "nil", "Traceback", "stacktrace", "errno", "SIGSEGV", "SIGABRT", "segfault", "EXC_BAD_ACCESS"]
    static let sourceExtensions = ["swift", "java", "kt", "js", "ts", "py", "m", "mm", "c", "cpp", "go", "rb", "dart", "cs", "php"]
    /// Words that follow a status code in an HTTP reason phrase ("404 Not Found").
    static let reasonWords: Set<String> = ["internal", "bad", "not", "forbidden", "unauthorized", "unavailable", "gateway", "timeout", "too", "service"]

    enum Message {
        static func technical(key: String, what: String, text: String) -> DiagnosticMessage {
            DiagnosticMessage("technical", "error message '\(key)' shows \(what) '\(text)' to the user")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        guard let settings = context.voiceSettings else { return [] }
        var findings = VoiceFindings()
        context.forEachOwnReading(where: { settings.kinds(of: $1.key).contains(.error) }) { bundle, message, readings in
            let code = VoiceLanguage.code(of: bundle.locale)
            for reading in readings {
                let runs = Self.runs(of: reading)
                for (i, run) in runs.enumerated() {
                    let previous = i > 0 ? runs[i - 1].text.lowercased() : ""
                    let next = i + 1 < runs.count ? runs[i + 1].text.lowercased() : ""
                    guard let what = Self.technical(run.text, previous: previous, next: next, language: code) else { continue }
                    findings.add(Diagnostic(.error, Message.technical(key: message.key, what: what, text: run.text),
                                            at: voiceLocation(message, offset: run.offset), rule: Self.description.id,
                                            hint: "say in plain words what happened and what the user can do; log the technical detail instead"))
                }
            }
        }
        return findings.diagnostics
    }

    /// Runs of text between spaces and arguments, with the punctuation around them trimmed.
    static func runs(of reading: VoiceRendering) -> [(text: String, offset: Int)] {
        var runs: [(text: String, offset: Int)] = []
        var current: [(Unicode.Scalar, Int)] = []
        func flush() {
            let isEdge: (Unicode.Scalar) -> Bool = { scalar in
                switch scalar.properties.generalCategory {
                case .openPunctuation, .closePunctuation, .initialPunctuation, .finalPunctuation, .otherPunctuation, .dashPunctuation: return true
                default: return false
                }
            }
            var slice = current[...]
            while let first = slice.first, isEdge(first.0) { slice = slice.dropFirst() }
            while let last = slice.last, isEdge(last.0) { slice = slice.dropLast() }
            if let first = slice.first { runs.append((String(String.UnicodeScalarView(slice.map(\.0))), first.1)) }
            current.removeAll()
        }
        for (scalar, offset) in zip(reading.scalars, reading.offsets) {
            if scalar.properties.isWhitespace || scalar == VoiceRendering.placeholder { flush() } else { current.append((scalar, offset)) }
        }
        flush()
        return runs
    }

    /// What kind of technical text `run` is, or nil when it reads as words.
    static func technical(_ run: String, previous: String, next: String, language: String) -> String? {
        // In German `null` is the word for zero; only the programmer's spellings count there.
        if literals.contains(run), !(language == "de" && run == "null") { return "the raw value" }
        let name = run.split(separator: ".").last.map(String.init) ?? run
        if isExceptionName(name) { return "the exception name" }
        if run.hasPrefix("0x"), run.count >= 6, run.dropFirst(2).allSatisfy(\.isHexDigit) { return "the memory address" }
        if isSourceLocation(run) { return "the source location" }
        if run.hasPrefix("HTTP/") { return "the protocol" }
        // ERR_CONNECTION_REFUSED, E_FAIL: constants are upper case with underscores.
        if run.contains("_"), run.count >= 5, run.allSatisfy({ $0.isUppercase || $0 == "_" || $0.isNumber }) { return "the error constant" }
        if run.count == 3, run.allSatisfy(\.isASCII), let status = Int(run), (400...599).contains(status),
           VoiceLanguage.allErrorWords.contains(previous) || VoiceLanguage.allErrorWords.contains(next) || reasonWords.contains(next) {
            return "the HTTP status code"
        }
        return nil
    }

    /// `TypeError`, `NullPointerException`, `IOException`: one capitalised ASCII identifier ending in Error or Exception.
    static func isExceptionName(_ name: String) -> Bool {
        guard name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }), name.first?.isUppercase == true else { return false }
        if name.hasSuffix("Exception") { return name.count > "Exception".count }
        guard name.hasSuffix("Error"), name.count > "Error".count else { return false }
        // `TypeError` yes; `ERROR` or `Error` no.
        return name.dropLast(5).last?.isLowercase == true
    }

    /// `Main.swift:42`, `(Foo.java:12)`.
    static func isSourceLocation(_ run: String) -> Bool {
        guard let colon = run.lastIndex(of: ":"), run[run.index(after: colon)...].first?.isNumber == true else { return false }
        let file = run[..<colon]
        return sourceExtensions.contains { file.hasSuffix("." + $0) }
    }
}

struct VoiceEmptyStateRule: Rule {
    static let description = RuleDescription(
        id: "voice.empty-state", name: "Empty states point to an action", family: .voice,
        rationale: "An empty state tells the user what to do next; one that only says nothing is there (\"No data found\") is a dead end. A message of one sentence that states an absence is reported; add a sentence with the next step.",
        severity: .warning,
        messages: [declare(Message.onlyAbsence)],
        triggering: [
            RuleExample("No data found", files: VoiceExample.files(voice: "greeting: warm\n", english: "bookings:\n  empty: ↓No data found\n")),
            RuleExample("нет in a Russian empty state of one sentence", files: VoiceExample.files(
                voice: "greeting: warm\n", english: "empty:\n  inbox: No messages yet. Book a visit to start a conversation.\n",
                locale: "ru", translation: "empty:\n  inbox: Сообщений пока ↓нет.\n")),
        ],
        nonTriggering: [
            RuleExample("an absence and the next step", files: VoiceExample.files(
                voice: "greeting: warm\n", english: "bookings:\n  empty: \"No trips yet. Find a hotel to plan your first one.\"\n")),
            RuleExample("the title of an empty state may state the absence", files: VoiceExample.files(
                voice: "greeting: warm\n", english: "bookings:\n  empty:\n    title: No trips yet\n    body: Find a hotel to plan your first one.\n")),
        ])

    enum Message {
        static func onlyAbsence(key: String) -> DiagnosticMessage {
            DiagnosticMessage("only-absence", "empty state '\(key)' only says that nothing is there")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        guard let settings = context.voiceSettings else { return [] }
        var findings = VoiceFindings()
        // A heading or button inside an empty state names it or is the action; the body points the way.
        context.forEachOwnReading(where: { bundle, message in
            let kinds = settings.kinds(of: message.key)
            return kinds.contains(.emptyState) && kinds.isDisjoint(with: [.heading, .button]) && VoiceLanguage.named(bundle.locale) != nil
        }) { bundle, message, readings in
            guard let language = VoiceLanguage.named(bundle.locale) else { return }
            for reading in readings {
                let words = VoiceText.words(in: reading, splitsApostrophes: language.splitsApostrophes)
                let sentences = words.filter { $0.hasLetters && $0.startsSentence }.count
                guard sentences <= 1, let absence = words.first(where: { language.absenceWords.contains($0.text.lowercased()) }) else { continue }
                findings.add(Diagnostic(.warning, Message.onlyAbsence(key: message.key),
                                        at: voiceLocation(message, offset: absence.offset), rule: Self.description.id,
                                        hint: "add the next step, such as 'No bookings yet. Find a service to get started.'"))
            }
        }
        return findings.diagnostics
    }
}
