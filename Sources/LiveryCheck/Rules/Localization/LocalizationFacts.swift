import CLiverySystem
import Foundation
import LiveryL10n
import LiveryLoad

// What the localization rules need to know about one message, extracted from its parts
// (`MessagePattern`) once per bundle and shared by every rule. No tree is built: a workspace holds
// over a million messages, and these facts are a fraction of a tree's size and cost.
// Every position is a Unicode-scalar offset into the message text; `LocaleBundle.Message.location(atOffset:)`
// turns it into a file location.

/// The facts of one message that every rule looks at, for every message: small, so a workspace's
/// million messages keep them cheaply. What is only needed to describe a finding (each argument use
/// and tag with its position) is worked out again from the text, by `details(of:)`, for the few
/// messages a rule reports on. What most messages lack (a syntax error, a markup problem, double
/// spaces) sits in one optional box.
struct MessageFacts: Sendable {
    struct ArgumentUse: Sendable {
        var name: String
        /// Nil for a simple `{name}`.
        var type: MessageFormat.ArgumentType?
        /// The `{`, and the name's first character.
        var offset: Int, nameOffset: Int
    }

    struct Selection: Sendable {
        struct Option: Sendable {
            var selector: MessageFormat.Selector
            var offset: Int
            var keyword: String? { if case .keyword(let word) = selector { return word } else { return nil } }
        }
        var name: String
        var type: MessageFormat.ArgumentType
        var offset: Int
        var options: [Option]
        /// The index in `selections` of the selection whose option holds this one, -1 at the top.
        var parent = -1
        /// For a plural or selectordinal: the CLDR categories among its keywords (bit n: `PluralCategory.allCases[n]`),
        /// and whether it has other keywords, so the plural rules compare sets without reading every option.
        var categories: UInt8 = 0
        var hasOtherKeywords = false
    }

    /// The bit of each category in `Selection.categories`.
    static func mask(_ categories: [PluralCategory]) -> UInt8 {
        categories.reduce(0) { $0 | 1 << UInt8(PluralCategory.allCases.firstIndex(of: $1)!) }
    }

    struct Tag: Sendable {
        var kind: MarkupTag.Kind
        var name: String
        var text: String
        var offset: Int
    }

    /// What few messages have. Immutable once made, which is what makes sharing it across threads safe.
    final class Rare: @unchecked Sendable {
        var error: MessageFormatError?
        var markupProblem: (message: String, offset: Int)?
        var doubleSpaces: [Int] = []
    }

    private var rare: Rare?
    var selections: [Selection] = []
    /// True when the text starts or ends with whitespace.
    var hasOuterWhitespace = false
    /// The distinct arguments as sorted "name:code" (code: a digit for the type, 0 for `{name}`), joined
    /// by commas: equal signatures need no closer look. Compact, so that most fit in a small string.
    var argumentSignature = ""
    /// The tags as sorted "kind|name", joined by commas; empty when the message has no markup.
    var tagSignature = ""

    /// The syntax error, when the message does not parse; every other fact is then empty.
    var error: MessageFormatError? { rare?.error }
    /// The first tag that does not pair up, with what is wrong.
    var markupProblem: (message: String, offset: Int)? { rare?.markupProblem }
    /// The second space of every run of two or more spaces in literal text.
    var doubleSpaces: [Int] { rare?.doubleSpaces ?? [] }
    var hasTags: Bool { !tagSignature.isEmpty }
    /// False for most messages: no syntax error, markup problem or double spaces.
    var hasRareFacts: Bool { rare != nil }

    private mutating func rareFacts() -> Rare {
        if let rare { return rare }
        let made = Rare()
        rare = made
        return made
    }

    /// Each argument use and tag of a message, with positions: what a finding needs to point at.
    struct Details {
        var arguments: [ArgumentUse] = []
        var tags: [Tag] = []

        /// Argument names with the types they are used as ("simple" for `{name}`).
        var argumentKinds: [String: Set<String>] {
            arguments.reduce(into: [:]) { kinds, use in kinds[use.name, default: []].insert(use.type?.rawValue ?? "simple") }
        }
    }

    /// The details of `text`, parsed again; empty when it does not parse.
    static func details(of text: String) -> Details {
        var details: Details? = Details()
        var facts = MessageFacts()
        if case .success(let pattern) = MessagePattern.parse(text) {
            facts.extract(pattern, markup: text.utf8.contains(UInt8(ascii: "<")), doubleSpaces: false, details: &details)
        }
        return details!
    }

    private init() {}

    init(_ text: String) {
        var buffer: [MessagePattern.Part] = []
        self.init(text, buffer: &buffer)
    }

    /// The facts of `text`, parsing into `buffer` (see `MessagePattern.parse(_:reusing:)`).
    init(_ text: String, buffer: inout [MessagePattern.Part]) {
        // Each scan below is skipped when a cheap look at the text shows it cannot find anything:
        // most messages have no markup and no doubled spaces, and many are plain text.
        let scan = { (bytes: UnsafeBufferPointer<UInt8>) -> (doubleSpaces: Bool, syntax: Bool, markup: Bool) in
            // libc's vectorised searches: a byte loop here was a visible share of checking a large workspace.
            guard let base = bytes.baseAddress, bytes.count > 0 else { return (false, false, false) }
            func contains(_ byte: UInt8) -> Bool { memchr(base, Int32(byte), bytes.count) != nil }
            let doubleSpaces = livery_has_double_space(base, UInt(bytes.count)) != 0
            return (doubleSpaces, contains(0x7B) || contains(0x7D) || contains(0x27), contains(0x3C))  // { } ' <
        }
        let (mayHaveDoubleSpaces, hasSyntax, hasMarkup) = text.utf8.withContiguousStorageIfAvailable(scan) ?? Array(text.utf8).withUnsafeBufferPointer(scan)
        hasOuterWhitespace = Self.isWhitespace(text.unicodeScalars.first) || Self.isWhitespace(text.unicodeScalars.last)
        // Text without ICU syntax or markup is literal: skip the parser for it.
        if !hasSyntax && !hasMarkup {
            if mayHaveDoubleSpaces { literal(text) }
            return
        }
        switch MessagePattern.parse(text, reusing: &buffer) {
        case .failure(let error):
            rareFacts().error = error
        case .success(let pattern):
            var details: Details? = nil
            extract(pattern, markup: hasMarkup, doubleSpaces: mayHaveDoubleSpaces, details: &details)
            buffer = pattern.parts
        }
    }

    /// Walks the parsed message's parts once: arguments and selections in source order (a selection
    /// before the ones in its sub-messages), then markup and double spaces when the text may have them.
    /// With `details`, every argument use and tag is collected there too.
    private mutating func extract(_ pattern: MessagePattern, markup: Bool, doubleSpaces findDoubleSpaces: Bool, details: inout Details?) {
        var kinds = SignatureItems()
        var spaces: [Int] = []
        pattern.withUTF8 { bytes in
            var positions = MessagePositions(bytes)
            func offset(_ byte: Int32) -> Int { pattern.isASCII ? Int(byte) : positions.offset(Int(byte)) }
            var current = -1  // index in `selections` of the innermost selection being walked; each knows its parent
            let parts = pattern.parts
            var i = 0
            while i < parts.count {
                let part = parts[i]
                switch part.kind {
                case .argumentStart:
                    let namePart = parts[i + 1]
                    let name = pattern.argumentName(of: namePart).description
                    let type = pattern.argumentType(of: part)
                    kinds.append(SignatureItem(name: name, code: part.value))  // the type code
                    if let type, type.isSelection {
                        var options: [Selection.Option] = []
                        options.reserveCapacity(Self.optionCount(parts, from: i))
                        selections.append(Selection(name: name, type: type, offset: offset(part.start), options: options, parent: current))
                        current = selections.count - 1
                    }
                    details?.arguments.append(ArgumentUse(name: name, type: type, offset: offset(part.start), nameOffset: offset(namePart.start)))
                    i += 1
                case .selector:
                    let written = pattern.source(of: part)
                    let selector: MessageFormat.Selector = part.value == 1
                        ? .explicit(Double(written.dropFirst()) ?? 0, String(written.dropFirst())) : .keyword(written)
                    let selection = current
                    selections[selection].options.append(Selection.Option(selector: selector, offset: offset(part.start)))
                    if selections[selection].type.isPlural, case .keyword(let word) = selector {
                        if let category = PluralCategory(rawValue: word) {
                            selections[selection].categories |= 1 << UInt8(PluralCategory.allCases.firstIndex(of: category)!)
                        } else {
                            selections[selection].hasOtherKeywords = true
                        }
                    }
                case .argumentEnd:
                    // A selection's end: the innermost open selection is done.
                    if Self.closes(parts, at: i) { current = selections[current].parent }
                case .text, .quotedText:
                    if findDoubleSpaces {
                        var previousWasSpace = false
                        var k = Int(part.start)
                        while k < Int(part.end) {
                            let isSpace = bytes[k] == 0x20
                            if isSpace && previousWasSpace { spaces.append(offset(Int32(k))) }
                            previousWasSpace = isSpace
                            // '' is one apostrophe, which is not a space either way.
                            k += bytes[k] == 0x27 && k + 1 < Int(part.end) && bytes[k + 1] == 0x27 ? 2 : 1
                        }
                    }
                case .pound, .argumentName, .argumentStyle, .offset, .messageStart, .messageEnd:
                    break
                }
                i += 1
            }
        }
        if !spaces.isEmpty { rareFacts().doubleSpaces = spaces }
        argumentSignature = kinds.signature
        guard markup else { return }
        let scopes = MarkupTags.scopes(of: pattern)
        var signature: [String] = []
        for scope in scopes {
            for tag in scope { signature.append(tag.kind.rawValue + "|" + tag.name) }
        }
        tagSignature = Self.signature(signature, distinct: false)
        if !signature.isEmpty, let problem = scopes.compactMap(MarkupTags.firstProblem(in:)).min(by: { $0.tag.position < $1.tag.position }) {
            rareFacts().markupProblem = (problem.message, problem.tag.position.offset)
        }
        if details != nil {
            details?.tags = scopes.flatMap { $0 }.sorted { $0.position < $1.position }
                .map { Tag(kind: $0.kind, name: $0.name, text: $0.text, offset: $0.position.offset) }
        }
    }

    /// Sorted (and, when `distinct`, without repeats) items joined by commas; one item needs no sorting.
    private static func signature(_ items: [String], distinct: Bool = true) -> String {
        if items.count <= 1 { return items.first ?? "" }
        var sorted = items.sorted()
        if distinct { sorted = sorted.enumerated().filter { $0.offset == 0 || sorted[$0.offset - 1] != $0.element }.map(\.element) }
        return sorted.joined(separator: ",")
    }

    /// The options of the selection whose `argumentStart` is at `start`: its selectors outside nested arguments.
    private static func optionCount(_ parts: [MessagePattern.Part], from start: Int) -> Int {
        var depth = 0, count = 0
        for part in parts[(start + 1)...] {
            switch part.kind {
            case .argumentStart: depth += 1
            case .argumentEnd:
                if depth == 0 { return count }
                depth -= 1
            case .selector where depth == 0: count += 1
            default: break
            }
        }
        return count
    }

    /// True when the `argumentEnd` at `index` closes a selection rather than a simple or typed argument:
    /// the part before it ends a sub-message (`messageEnd`), which only options have.
    private static func closes(_ parts: [MessagePattern.Part], at index: Int) -> Bool {
        index > 0 && parts[index - 1].kind == .messageEnd
    }

    private static func isWhitespace(_ scalar: Unicode.Scalar?) -> Bool {
        guard let scalar else { return false }
        if scalar.isASCII { return scalar == " " || (scalar.value >= 0x09 && scalar.value <= 0x0D) }
        return scalar.properties.isWhitespace
    }

    /// Double spaces of text with no ICU syntax in it.
    private mutating func literal(_ text: String) {
        var offset = 0
        var previousWasSpace = false
        var spaces: [Int] = []
        for scalar in text.unicodeScalars {
            if scalar == " " && previousWasSpace { spaces.append(offset) }
            previousWasSpace = scalar == " "
            offset += 1
        }
        if !spaces.isEmpty { rareFacts().doubleSpaces = spaces }
    }

    /// True when the literal text of `text` holds a letter: a message of only arguments, digits and
    /// punctuation needs no translation. Asked only of the rare translation equal to its source.
    static func hasLetters(_ text: String) -> Bool {
        guard case .success(let format) = MessageFormat.parse(text) else { return text.unicodeScalars.contains { $0.properties.isAlphabetic } }
        return format.textSegments.contains { $0.text.unicodeScalars.contains { $0.properties.isAlphabetic } }
    }

    /// User-perceived characters. ASCII text without a carriage return (one grapheme per byte) is
    /// counted on its bytes: grapheme breaking of every message was a visible share of validation.
    static func characterCount(_ text: String) -> Int {
        let bytes = text.utf8
        if bytes.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) { return bytes.count }
        return text.count
    }

    /// Characters (grapheme clusters) of the longest form of `text`: the longest option of every plural
    /// and select, each argument and `#` counted as one character since their values are unknown. Asked
    /// only for keys whose length the manifest limits.
    static func longestLength(of text: String) -> Int {
        guard case .success(let format) = MessageFormat.parse(text) else { return characterCount(text) }
        return longest(format.root)
    }

    /// The parser bounds nesting depth, so this recursion is bounded too.
    private static func longest(_ message: MessageFormat.Message) -> Int {
        message.parts.reduce(0) { total, part in
            switch part {
            case .text(let segment): return total + characterCount(segment.text)
            case .argument, .pound: return total + 1
            case .selection(let selection): return total + (selection.options.map { longest($0.message) }.max() ?? 0)
            }
        }
    }

}

/// An argument in a signature: its name and the type code of its `argumentStart` part (0 for `{name}`).
struct SignatureItem: Comparable {
    var name: String
    var code: Int32

    static func < (a: SignatureItem, b: SignatureItem) -> Bool { a.name != b.name ? a.name < b.name : a.code < b.code }

    func append(to text: inout String) {
        text += name
        text += ":"
        text += String(code)
    }
}

/// The arguments of a message for its signature; the first two without an array, since most messages have at most two.
struct SignatureItems {
    private var first: SignatureItem?, second: SignatureItem?
    private var more: [SignatureItem] = []

    mutating func append(_ item: SignatureItem) {
        if first == nil { first = item } else if second == nil { second = item } else { more.append(item) }
    }

    /// The distinct items, sorted, joined by commas.
    var signature: String {
        guard let first else { return "" }
        var text = ""
        guard let second else { first.append(to: &text); return text }
        if more.isEmpty {
            let (low, high) = second < first ? (second, first) : (first, second)
            low.append(to: &text)
            if high != low { text += ","; high.append(to: &text) }
            return text
        }
        let sorted = ([first, second] + more).sorted()
        for (i, item) in sorted.enumerated() where i == 0 || sorted[i - 1] != item {
            if i > 0 { text += "," }
            item.append(to: &text)
        }
        return text
    }
}

/// The facts of every message of a bundle, in message order, with an index by key and the messages
/// each rule needs to look at, so a rule visits a handful of messages rather than all of them.
struct BundleFacts: Sendable {
    let facts: [MessageFacts]
    /// Messages that do not parse; with plural or select arguments; with markup; with stray whitespace.
    let withErrors: [Int], withSelections: [Int], withTags: [Int], withWhitespace: [Int]

    init(_ bundle: LocaleBundle) {
        let messages = bundle.messages
        var all: [MessageFacts] = []
        all.reserveCapacity(messages.count)
        var withErrors: [Int] = [], withSelections: [Int] = [], withTags: [Int] = [], withWhitespace: [Int] = []
        var buffer: [MessagePattern.Part] = []
        buffer.reserveCapacity(64)
        for i in messages.indices {
            let facts = MessageFacts(messages[i].text, buffer: &buffer)
            if facts.hasRareFacts, facts.error != nil { withErrors.append(i) }
            if !facts.selections.isEmpty { withSelections.append(i) }
            if facts.hasTags { withTags.append(i) }
            if facts.hasOuterWhitespace || (facts.hasRareFacts && !facts.doubleSpaces.isEmpty) { withWhitespace.append(i) }
            all.append(facts)
        }
        facts = all
        (self.withErrors, self.withSelections, self.withTags, self.withWhitespace) = (withErrors, withSelections, withTags, withWhitespace)
    }
}

extension LocaleBundle {
    /// Drops the facts once no rule needs them: a workspace's facts held to the end were a fifth of its memory.
    func forgetFacts() { derived.forget(BundleFacts.self) }

    /// The facts of every message, computed on first use and shared by every rule and every tenant that inherits this bundle.
    var facts: BundleFacts { derived.value(BundleFacts.self) { BundleFacts(self) } }
}

/// Calls `body` for every message this tenant wrote itself, in every locale.
func forEachOwnMessage(_ context: RuleContext, _ body: (LocaleBundle, LocaleBundle.Message, MessageFacts) -> Void) {
    forEachOwnMessage(context, in: { Array($0.facts.indices) }, body)
}

/// Calls `body` for each message of each bundle at the indices `select` picks that this tenant wrote itself
/// (inherited ones are checked with the tenant they come from), with the message's index in its bundle
/// and its facts: rules that report rarely read the message only for a finding, since handing every
/// message over by value cost a share of checking a large workspace.
func forEachOwnMessageIndex(_ context: RuleContext, in select: (BundleFacts) -> [Int],
                            _ body: (_ bundle: LocaleBundle, _ index: Int, _ facts: MessageFacts) -> Void) {
    for (_, bundle) in context.tenant.locales.sorted(by: { $0.key < $1.key }) {
        let all = bundle.facts
        let messages = bundle.messages
        for i in select(all) where context.owns(messages[i].keyLocation) { body(bundle, i, all.facts[i]) }
    }
}

/// `forEachOwnMessageIndex` with the message itself.
func forEachOwnMessage(_ context: RuleContext, in select: (BundleFacts) -> [Int], _ body: (LocaleBundle, LocaleBundle.Message, MessageFacts) -> Void) {
    forEachOwnMessageIndex(context, in: select) { bundle, i, facts in body(bundle, bundle.messages[i], facts) }
}

/// The source–translation pairs that differ in each way the rules compare them (both messages parse),
/// found in one pass over the tenant's translations for all those rules.
struct TranslationDifferences {
    struct Pair {
        /// Index in `TranslationPairing.translations`, of the message there, and of its source message.
        let translation: Int, message: Int, source: Int
    }
    /// Different arguments or argument types.
    var arguments: [Pair] = []
    /// Different tags, where both messages' tags pair up.
    var tags: [Pair] = []
    /// The same text.
    var sameText: [Pair] = []

    init(_ pairing: TranslationPairing) {
        let sourceFacts = pairing.source.facts.facts, sourceMessages = pairing.source.messages
        for (t, translation) in pairing.translations.enumerated() {
            let facts = translation.bundle.facts.facts, messages = translation.bundle.messages
            for (i, j) in translation.sourceIndex.enumerated() where j >= 0 && facts[i].error == nil && sourceFacts[j].error == nil {
                if facts[i].argumentSignature != sourceFacts[j].argumentSignature { arguments.append(Pair(translation: t, message: i, source: j)) }
                if facts[i].tagSignature != sourceFacts[j].tagSignature, facts[i].markupProblem == nil, sourceFacts[j].markupProblem == nil {
                    tags.append(Pair(translation: t, message: i, source: j))
                }
                // Byte for byte: `==` compares canonical equivalence, which is slow for non-ASCII text, and a
                // translation only differently normalized than its source is not what this looks for.
                if Self.sameBytes(messages[i].text, sourceMessages[j].text) { sameText.append(Pair(translation: t, message: i, source: j)) }
            }
        }
    }
}

extension TranslationDifferences {
    static func sameBytes(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && a.utf8.elementsEqual(b.utf8)
    }
}

extension RuleContext {
    var translationDifferences: TranslationDifferences? {
        if let made = cache.translationDifferences { return made }
        guard let pairing = translationPairing else { return nil }
        let made = TranslationDifferences(pairing)
        cache.translationDifferences = made
        return made
    }
}

/// Calls `body` for each message of every translation that differs from its default-locale message in
/// the way `differences` selects, with where to report.
func forEachDifferingTranslation(_ context: RuleContext, _ differences: KeyPath<TranslationDifferences, [TranslationDifferences.Pair]>,
                                 _ body: (_ bundle: LocaleBundle, _ message: LocaleBundle.Message, _ facts: MessageFacts,
                                          _ original: LocaleBundle.Message, _ originalFacts: MessageFacts, _ placement: Placement) -> Void) {
    guard let pairing = context.translationPairing, let found = context.translationDifferences else { return }
    let source = pairing.source
    for pair in found[keyPath: differences] {
        let bundle = pairing.translations[pair.translation].bundle
        let message = bundle.messages[pair.message], original = source.messages[pair.source]
        guard let placement = context.placement(of: message, against: original) else { continue }
        body(bundle, message, bundle.facts.facts[pair.message], original, source.facts.facts[pair.source], placement)
    }
}
