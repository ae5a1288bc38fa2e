import Foundation
import LiveryDiagnostics
import LiveryLoad
import LiveryResolve

// The store-listing rules on the text itself (docs/store-listings.md): plain text, the stores'
// length limits, and App Store keywords. The examples are StoreRules.swift's `StoreExample`.

/// Store text is shown as written: no ICU arguments, selections or markup; one-line fields on one line.
struct StorePlainTextRule: Rule {
    static let id: RuleID = "store.plain-text"
    static let description = RuleDescription(
        id: id, name: "Store text is plain text", family: .store,
        rationale: "A store shows listing text as it is written, with nothing to fill in an ICU argument, choose a plural form or draw markup: "
            + "{count} or a plural would reach the store page as raw syntax. ICU's apostrophe quoting is resolved ('{' is a brace). The name, "
            + "subtitle, title, short description and keywords are one line.",
        messages: [declare(Message.notPlain), declare(Message.lineBreak)],
        triggering: [
            RuleExample("a description with a plural", files: StoreExample.files(texts: StoreExample.texts.replacingOccurrences(
                of: "description: Audio walks through the old town, offline.", with: "description: ↓\"{count, plural, one {# walk} other {# walks}} offline\""))),
            RuleExample("a subtitle over two lines", files: StoreExample.files(texts: StoreExample.texts.replacingOccurrences(
                of: "subtitle: Walks worth taking", with: "subtitle: ↓\"Walks\\nworth taking\""))),
        ],
        nonTriggering: [
            RuleExample("quoted braces and an apostrophe are text", files: StoreExample.files(texts: StoreExample.texts.replacingOccurrences(
                of: "description: Audio walks through the old town, offline.", with: "description: \"Florence's walks, '{'offline'}'.\""))),
        ])

    enum Message {
        static func notPlain(key: String, locale: String) -> DiagnosticMessage {
            DiagnosticMessage("not-plain", "\(key) in \(locale) is not plain text: a store shows it as written, with no argument filled in, plural chosen or markup drawn")
        }
        static func lineBreak(key: String, locale: String, store: String, field: String) -> DiagnosticMessage {
            DiagnosticMessage("line-break", "\(key) in \(locale) holds a line break; the \(store) \(field) is one line")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        guard let listing = context.storeListing else { return [] }
        var diagnostics: [Diagnostic] = []
        var seen = Set<String>()
        for locale in listing.locales {
            for field in StoreField.all where listing.stores.contains(field.store) {
                guard let text = listing.text(field, in: locale.locale), let message = text.message, let key = text.key,
                      context.owns(message.location), seen.insert("\(message.location)|\(field.singleLine)").inserted else { continue }
                if text.text == nil {
                    diagnostics.append(Diagnostic(.error, Message.notPlain(key: key, locale: locale.locale), at: message.location, rule: Self.id,
                                                  hint: "write the text itself; quote a literal brace as '{'"))
                } else if field.singleLine, let value = text.text, value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" }) {
                    diagnostics.append(Diagnostic(.error, Message.lineBreak(key: key, locale: locale.locale, store: field.store.title, field: field.label),
                                                  at: message.location, rule: Self.id))
                }
            }
        }
        return diagnostics
    }
}

/// Listing text within each store's limit.
struct StoreTextLengthRule: Rule {
    static let id: RuleID = "store.text-length"
    static let description = RuleDescription(
        id: id, name: "Store text within the stores' limits", family: .store,
        rationale: "The stores refuse longer text: App Store name and subtitle 30 characters, promotional text 170, description and release notes "
            + "4,000; Google Play title 30, short description 80, full description 4,000, release notes 500. Characters are counted as a web form "
            + "counts them (UTF-16 code units): every letter of Latin, Cyrillic or Devanagari script is one, an emoji beyond them two.",
        messages: [declare(Message.tooLong)],
        triggering: [
            RuleExample("a 31-character subtitle", files: StoreExample.files(texts: StoreExample.texts.replacingOccurrences(
                of: "subtitle: Walks worth taking", with: "subtitle: ↓" + String(repeating: "w", count: 31)))),
            RuleExample("release notes the App Store takes but Google Play does not (501 characters)", files: StoreExample.files(
                texts: StoreExample.texts + "  releaseNotes: ↓" + String(repeating: "a", count: 501) + "\n")),
            RuleExample("a Russian subtitle of 29 letters and an emoji (31 code units)", files: StoreExample.files(russian: StoreExample.russian.replacingOccurrences(
                of: "subtitle: Прогулки с аудиогидом", with: "subtitle: ↓" + String(repeating: "ж", count: 29) + "🎧"))),
        ],
        nonTriggering: [
            RuleExample("a 30-letter Russian subtitle (60 bytes)", files: StoreExample.files(russian: StoreExample.russian.replacingOccurrences(
                of: "subtitle: Прогулки с аудиогидом", with: "subtitle: " + String(repeating: "ж", count: 30)))),
            RuleExample("long release notes for the App Store with a short Play changelog", files: StoreExample.files(
                texts: StoreExample.texts + "  releaseNotes: " + String(repeating: "a", count: 4000) + "\n  changelog: Faster maps.\n")),
        ])

    enum Message {
        static func tooLong(what: String, length: Int, limits: String) -> DiagnosticMessage {
            DiagnosticMessage("too-long", "\(what) is \(length) characters; \(limits)")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        guard let listing = context.storeListing else { return [] }
        // One finding per message, naming every field it is too long for.
        var over: [(location: SourceLocation, what: String, length: Int, limits: [String])] = []
        for locale in listing.locales {
            for field in StoreField.all where listing.stores.contains(field.store) && !field.countsBytes && locale.code(in: field.store) != nil {
                guard let text = listing.text(field, in: locale.locale), let value = text.text,
                      let location = context.location(of: text, in: locale.locale), context.owns(location) else { continue }
                let length = StoreListing.length(value, of: field)
                guard length > field.limit else { continue }
                let limit = "the \(field.store.title) \(field.label) takes \(field.limit)"
                if let index = over.firstIndex(where: { $0.location == location }) {
                    if !over[index].limits.contains(limit) { over[index].limits.append(limit) }
                } else {
                    over.append((location, "\(text.key ?? "the display name") in \(locale.locale)", length, [limit]))
                }
            }
        }
        return over.map { found in
            let hint = found.limits.contains { $0.contains("Google Play release notes") } ? "give Google Play its own shorter text in store.changelog"
                : found.limits.contains { $0.contains("Google Play title") } && !found.limits.contains { $0.contains("App Store") } ? "give Google Play its own title in store.title" : nil
            return Diagnostic(.error, Message.tooLong(what: found.what, length: found.length, limits: found.limits.joined(separator: ", ")), at: found.location, rule: Self.id, hint: hint)
        }
    }
}

/// App Store keywords: at most 100 bytes, comma-separated, none empty or repeated.
struct StoreKeywordsRule: Rule {
    static let id: RuleID = "store.keywords"
    static let description = RuleDescription(
        id: id, name: "App Store keywords", family: .store,
        rationale: "App Store Connect takes at most 100 bytes of keywords (UTF-8: a Cyrillic or Devanagari letter is two or three), separated by "
            + "commas; an empty keyword wastes a comma and a repeated one (in any case) wastes its bytes, as the store indexes each word once.",
        messages: [declare(Message.tooLong), declare(Message.empty), declare(Message.repeated)],
        triggering: [
            RuleExample("101 bytes of keywords", files: StoreExample.files(texts: StoreExample.texts.replacingOccurrences(
                of: "keywords: walks,audio,tours", with: "keywords: ↓" + (0..<20).map { String(format: "w%03d", $0) }.joined(separator: ",") + "xy"))),
            RuleExample("a keyword twice", files: StoreExample.files(texts: StoreExample.texts.replacingOccurrences(of: "keywords: walks,audio,tours", with: "keywords: walks,audio,↓Walks"))),
            RuleExample("51 Russian letters: 51 characters but 102 bytes", files: StoreExample.files(russian: StoreExample.russian.replacingOccurrences(
                of: "keywords: прогулки,аудио,туры", with: "keywords: ↓" + String(repeating: "ж", count: 51)))),
            RuleExample("an empty keyword", files: StoreExample.files(texts: StoreExample.texts.replacingOccurrences(of: "keywords: walks,audio,tours", with: "keywords: walks,↓,tours"))),
        ],
        nonTriggering: [
            RuleExample("exactly 100 bytes", files: StoreExample.files(texts: StoreExample.texts.replacingOccurrences(
                of: "keywords: walks,audio,tours", with: "keywords: " + (0..<20).map { String(format: "w%03d", $0) }.joined(separator: ",") + String(repeating: "x", count: 1)))),
            RuleExample("50 Russian letters are 100 bytes", files: StoreExample.files(russian: StoreExample.russian.replacingOccurrences(
                of: "keywords: прогулки,аудио,туры", with: "keywords: " + String(repeating: "ж", count: 50)))),
        ])

    enum Message {
        static func tooLong(key: String, locale: String, bytes: Int, limit: Int) -> DiagnosticMessage {
            DiagnosticMessage("too-long", "\(key) in \(locale) is \(bytes) bytes; App Store keywords take \(limit) bytes (UTF-8)")
        }
        static func empty(key: String, locale: String) -> DiagnosticMessage {
            DiagnosticMessage("empty-keyword", "\(key) in \(locale) has an empty keyword")
        }
        static func repeated(key: String, locale: String, keyword: String) -> DiagnosticMessage {
            DiagnosticMessage("repeated-keyword", "\(key) in \(locale) repeats '\(keyword)'")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        guard let listing = context.storeListing, listing.stores.contains(.appStore), let field = StoreField.all.first(where: { $0.countsBytes }) else { return [] }
        var diagnostics: [Diagnostic] = []
        var seen = Set<SourceLocation>()
        for locale in listing.locales where locale.appStore != nil {
            guard let text = listing.text(field, in: locale.locale), let value = text.text, let message = text.message,
                  context.owns(message.location), seen.insert(message.location).inserted else { continue }
            let bytes = value.utf8.count
            if bytes > field.limit {
                diagnostics.append(Diagnostic(.error, Message.tooLong(key: text.key!, locale: locale.locale, bytes: bytes, limit: field.limit),
                                              at: message.location, rule: Self.id, hint: "drop keywords, or spaces after commas (they count)"))
            }
            // Positions inside the message only where the file's text is the store's (no ICU quoting to undo).
            let raw = message.text
            let mapsOneToOne = raw == value
            var offset = 0, words = Set<String>()
            for part in raw.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
                let leading = part.unicodeScalars.prefix { $0.properties.isWhitespace }.count
                let keyword = StoreListing.keywords(part).first ?? ""
                let location = mapsOneToOne ? message.location(atOffset: offset + leading) : message.location
                if keyword.isEmpty {
                    diagnostics.append(Diagnostic(.error, Message.empty(key: text.key!, locale: locale.locale), at: location, rule: Self.id, hint: "remove the extra comma"))
                } else if !words.insert(keyword.lowercased()).inserted {
                    diagnostics.append(Diagnostic(.error, Message.repeated(key: text.key!, locale: locale.locale, keyword: keyword), at: location, rule: Self.id,
                                                  hint: "the store indexes each keyword once; use the bytes for another"))
                }
                offset += part.unicodeScalars.count + 1
            }
        }
        return diagnostics
    }
}
