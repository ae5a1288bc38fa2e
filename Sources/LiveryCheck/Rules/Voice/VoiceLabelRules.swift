import LiveryDiagnostics
import LiveryLoad

// The voice rules that apply to kinds of message (docs/voice.md, "Kinds of message"): buttons,
// headings, error messages and empty states.

/// A run of text between spaces (or arguments): what a reader counts as one word of a label.
struct VoiceChunk {
    /// The words of the run (`Wi-Fi` is `Wi` and `Fi`; `l’app` is `l` and `app` in French).
    var words: [VoiceWord]
    var text: String
    var offset: Int { words[0].offset }

    /// Groups words that touch (no space or argument between them) into runs.
    static func chunks(of words: [VoiceWord], in reading: VoiceRendering) -> [VoiceChunk] {
        var chunks: [VoiceChunk] = []
        for word in words {
            if let last = chunks.last?.words.last,
               !reading.scalars[last.end..<word.start].contains(where: { $0 == VoiceRendering.placeholder || $0.properties.isWhitespace }) {
                chunks[chunks.count - 1].words.append(word)
                continue
            }
            chunks.append(VoiceChunk(words: [word], text: ""))
        }
        for i in chunks.indices {
            chunks[i].text = String(String.UnicodeScalarView(reading.scalars[chunks[i].words[0].start..<chunks[i].words.last!.end]))
        }
        return chunks
    }
}

extension RuleContext {
    /// Words written capitalised in the tenant's own name and app name, which stay capitalised in labels.
    var nameWords: Set<String> {
        let names = [tenant.tenant?["name"]?.string, tenant.tenant?["app"]?["displayName"]?.string].compactMap { $0 }
        return Set(names.flatMap { $0.split(whereSeparator: { $0.isWhitespace || $0.isPunctuation }).map(String.init) })
    }
}

struct VoiceSentenceCaseRule: Rule {
    static let description = RuleDescription(
        id: "voice.sentence-case", name: "Sentence case", family: .voice,
        rationale: "Button labels and headings are in sentence case: a capital only at the start and on names. Skipped in German, which capitalises every noun.",
        severity: .warning,
        messages: [declare(Message.startsLowercase), declare(Message.capitalised)],
        triggering: [
            RuleExample("a title-case button", files: VoiceExample.files(voice: "greeting: warm\n", english: "actions:\n  book: Book ↓Now\n")),
            RuleExample("a heading that starts in lowercase", files: VoiceExample.files(voice: "greeting: warm\n", english: "bookings:\n  title: ↓my bookings\n")),
        ],
        nonTriggering: [
            RuleExample("names, acronyms, the app's name and a listed proper noun", files: VoiceExample.files(
                voice: "labels:\n  properNouns: [Florence]\n", english: "tours:\n  title: Walk Florence with Example\n  heading: Download GPS tracks over Wi-Fi\n")),
            RuleExample("sentence case turned off", files: VoiceExample.files(voice: "labels: {sentenceCase: false}\n", english: "actions:\n  book: Book Now\n")),
        ])

    enum Message {
        static func startsLowercase(key: String) -> DiagnosticMessage {
            DiagnosticMessage("starts-lowercase", "'\(key)' starts in lowercase; labels and headings are in sentence case")
        }
        static func capitalised(word: String, key: String) -> DiagnosticMessage {
            DiagnosticMessage("capitalised", "'\(word)' is capitalised in '\(key)'; labels and headings are in sentence case")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        guard let settings = context.voiceSettings, settings.sentenceCase else { return [] }
        let names = context.nameWords.union(settings.properNouns)
        var findings = VoiceFindings()
        context.forEachOwnReading(where: { bundle, message in
            !VoiceLanguage.nounCapitalising.contains(VoiceLanguage.code(of: bundle.locale)) && !settings.kinds(of: message.key).isDisjoint(with: [.button, .heading])
        }) { bundle, message, readings in
            let code = VoiceLanguage.code(of: bundle.locale)
            let language = VoiceLanguage.named(bundle.locale)
            let splits = language?.splitsApostrophes ?? VoiceLanguage.eliding.contains(code)
            // Courtesy capitals (Italian `Lei`, `Suo`) are the formal register, not title case.
            let courtesy = Set(language?.formal.filter { $0.match != .anyCase }.map(\.word) ?? [])
            for reading in readings {
                for chunk in VoiceChunk.chunks(of: VoiceText.words(in: reading, splitsApostrophes: splits), in: reading) {
                    guard let first = chunk.words.first(where: \.hasLetters) else { continue }
                    let letters = chunk.text.unicodeScalars.filter { $0.properties.isAlphabetic }
                    // Internal capitals (UrbanNest, Wi-Fi, GPS, iPhone) mark a name or an acronym.
                    if letters.dropFirst().contains(where: { $0.properties.isUppercase }) || letters.count < 2 { continue }
                    if names.contains(chunk.text) || names.contains(first.text) || courtesy.contains(first.text) { continue }
                    if code == "en", first.text.hasPrefix("I’") || first.text.hasPrefix("I'") { continue }
                    // Scripts without case (Devanagari, Arabic, Han) have neither capitals nor lowercase letters.
                    if first.startsSentence, first.text.unicodeScalars.first?.properties.isLowercase == true {
                        findings.add(Diagnostic(.warning, Message.startsLowercase(key: message.key),
                                                at: voiceLocation(message, offset: first.offset), rule: Self.description.id,
                                                hint: "capitalise '\(first.text)'"))
                    } else if !first.startsSentence, first.isCapitalised {
                        findings.add(Diagnostic(.warning, Message.capitalised(word: chunk.text, key: message.key),
                                                at: voiceLocation(message, offset: first.offset), rule: Self.description.id,
                                                hint: "write '\(chunk.text.lowercased())', or add '\(chunk.text)' to labels.properNouns if it is a name"))
                    }
                }
            }
        }
        return findings.diagnostics
    }
}

struct VoiceButtonLengthRule: Rule {
    static let description = RuleDescription(
        id: "voice.button-length", name: "Button label length", family: .voice,
        rationale: "A button says its action in at most `labels.maxWords` words (3 unless the voice says otherwise); an argument counts as a word. Skipped in languages written without spaces.",
        severity: .warning,
        messages: [declare(Message.tooLong)],
        triggering: [
            RuleExample("five words", files: VoiceExample.files(voice: "greeting: warm\n", english: "actions:\n  book: Book a ride ↓to the airport\n")),
            RuleExample("an argument counts", files: VoiceExample.files(voice: "labels: {maxWords: 2}\n", english: "saveButton: \"Save {count} ↓items\"\n")),
        ],
        nonTriggering: [RuleExample("three words, and a long message that is no button", files: VoiceExample.files(
            voice: "greeting: warm\n", english: "actions:\n  book: Book a ride\nbooking:\n  confirmed: Your ride is booked and on its way\n"))])

    enum Message {
        static func tooLong(key: String, words: Int, limit: Int) -> DiagnosticMessage {
            DiagnosticMessage("too-long", "button '\(key)' has \(words) words; buttons have at most \(limit)")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        guard let settings = context.voiceSettings else { return [] }
        var findings = VoiceFindings()
        context.forEachOwnReading(where: { bundle, message in
            !VoiceLanguage.unspaced.contains(VoiceLanguage.code(of: bundle.locale)) && settings.kinds(of: message.key).contains(.button)
        }) { _, message, readings in
            for reading in readings {
                let words = Self.words(of: reading)
                guard words.count > settings.maxWords else { continue }
                findings.add(Diagnostic(.warning, Message.tooLong(key: message.key, words: words.count, limit: settings.maxWords),
                                        at: voiceLocation(message, offset: words[settings.maxWords]), rule: Self.description.id,
                                        hint: "name the action with a verb and its object, such as 'Book a ride'"))
            }
        }
        return findings.diagnostics
    }

    /// The message offset of each word: a run between spaces that holds a letter, a digit or an argument.
    static func words(of reading: VoiceRendering) -> [Int] {
        var starts: [Int] = []
        var counted = false
        for (index, scalar) in reading.scalars.enumerated() {
            if scalar.properties.isWhitespace {
                counted = false
            } else if scalar == VoiceRendering.placeholder {
                // An argument is a word of its own: `{count}items` is two.
                starts.append(reading.offsets[index])
                counted = false
            } else if !counted, VoiceText.isWordScalar(scalar) {
                starts.append(reading.offsets[index])
                counted = true
            }
        }
        return starts
    }
}
