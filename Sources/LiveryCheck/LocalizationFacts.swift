import LiveryL10n
import LiveryLoad

// What the localization rules need to know about one message, extracted from its parsed
// MessageFormat once per bundle and shared by every rule. The trees themselves are not kept:
// a workspace holds over a million messages, and these facts are a fraction of a tree's size.
// Every position is a Unicode-scalar offset into the message text; `LocaleBundle.Message.location(atOffset:)`
// turns it into a file location.

/// The facts of one message. A class, since every rule passes the facts of every message around:
/// a reference costs one retain where copying the struct cost one per array inside it.
/// Immutable once `init` returns, which is what makes sharing it across threads safe.
final class MessageFacts: @unchecked Sendable {
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
    }

    struct Tag: Sendable {
        var kind: MarkupTag.Kind
        var name: String
        var text: String
        var offset: Int
    }

    /// The syntax error, when the message does not parse; every other fact is then empty.
    var error: MessageFormatError?
    var arguments: [ArgumentUse] = []
    var selections: [Selection] = []
    var tags: [Tag] = []
    /// The first tag that does not pair up, with what is wrong.
    var markupProblem: (message: String, offset: Int)?
    /// The second space of every run of two or more spaces in literal text.
    var doubleSpaces: [Int] = []
    /// True when the text starts or ends with whitespace.
    var hasOuterWhitespace = false
    /// Characters (grapheme clusters) of the longest form: the longest option of every plural and
    /// select, each argument and `#` counted as one character since their values are unknown.
    var longestLength = 0
    /// The arguments as sorted "name|type" strings ("simple" for `{name}`): equal signatures need no closer look.
    var argumentSignature: [String] = []
    /// The tags as sorted "kind|name" strings.
    var tagSignature: [String] = []

    init(_ text: String) {
        // Each scan below is skipped when a cheap look at the text shows it cannot find anything:
        // most messages have no markup and no doubled spaces, and many are plain text.
        let scalars = text.unicodeScalars
        hasOuterWhitespace = (scalars.first?.properties.isWhitespace ?? false) || (scalars.last?.properties.isWhitespace ?? false)
        var mayHaveDoubleSpaces = false, previous: UInt8 = 0
        for byte in text.utf8 {
            if byte == 0x20 && previous == 0x20 { mayHaveDoubleSpaces = true; break }
            previous = byte
        }
        // Text without ICU syntax or markup is literal: skip the parser for it.
        if !scalars.contains(where: { $0 == "{" || $0 == "}" || $0 == "'" || $0 == "<" }) {
            if mayHaveDoubleSpaces { literal(text) }
            longestLength = Self.characterCount(text)
            return
        }
        switch MessageFormat.parse(text) {
        case .failure(let error):
            self.error = error
        case .success(let format):
            extract(format, markup: scalars.contains("<"), doubleSpaces: mayHaveDoubleSpaces)
        }
    }

    private func extract(_ format: MessageFormat, markup: Bool, doubleSpaces findDoubleSpaces: Bool) {
        arguments = format.argumentUses.map {
            ArgumentUse(name: $0.name.description, type: $0.type, offset: $0.position.offset, nameOffset: $0.namePosition.offset)
        }
        argumentSignature = Set(arguments.map { $0.name + "|" + ($0.type?.rawValue ?? "simple") }).sorted()
        selections = format.selections.map { selection in
            Selection(name: selection.name.description, type: selection.type, offset: selection.position.offset,
                      options: selection.options.map { Selection.Option(selector: $0.selector, offset: $0.position.offset) })
        }
        if markup {
            tags = MarkupTags.find(in: format).map { Tag(kind: $0.kind, name: $0.name, text: $0.text, offset: $0.position.offset) }
            tagSignature = tags.map { "\($0.kind)|\($0.name)" }.sorted()
            if !tags.isEmpty, let problem = MarkupTags.firstProblem(in: format) {
                markupProblem = (problem.message, problem.tag.position.offset)
            }
        }
        if findDoubleSpaces {
            for segment in format.textSegments where Self.hasDoubleSpace(segment.text) {
                var previousWasSpace = false
                for (scalar, position) in segment.scalarPositions {
                    if scalar == " " && previousWasSpace { doubleSpaces.append(position.offset) }
                    previousWasSpace = scalar == " "
                }
            }
        }
        longestLength = Self.longest(format.root)
    }

    /// A cheap byte scan before the per-character positions are worked out (rarely needed).
    static func hasDoubleSpace(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if byte == 0x20 && previous == 0x20 { return true }
            previous = byte
        }
        return false
    }

    /// Double spaces of text with no ICU syntax in it.
    private func literal(_ text: String) {
        var offset = 0
        var previousWasSpace = false
        for scalar in text.unicodeScalars {
            if scalar == " " && previousWasSpace { doubleSpaces.append(offset) }
            previousWasSpace = scalar == " "
            offset += 1
        }
    }

    /// True when the literal text of `text` holds a letter: a message of only arguments, digits and
    /// punctuation needs no translation. Asked only of the rare translation equal to its source.
    static func hasLetters(_ text: String) -> Bool {
        guard case .success(let format) = MessageFormat.parse(text) else { return text.unicodeScalars.contains { $0.properties.isAlphabetic } }
        return format.textSegments.contains { $0.text.unicodeScalars.contains { $0.properties.isAlphabetic } }
    }

    /// The parser bounds nesting depth, so this recursion is bounded too.
    /// User-perceived characters. ASCII text without a carriage return (one grapheme per byte) is
    /// counted on its bytes: grapheme breaking of every message was a visible share of validation.
    static func characterCount(_ text: String) -> Int {
        let bytes = text.utf8
        if bytes.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) { return bytes.count }
        return text.count
    }

    private static func longest(_ message: MessageFormat.Message) -> Int {
        message.parts.reduce(0) { total, part in
            switch part {
            case .text(let segment): return total + characterCount(segment.text)
            case .argument, .pound: return total + 1
            case .selection(let selection): return total + (selection.options.map { longest($0.message) }.max() ?? 0)
            }
        }
    }

    /// Argument names with the types they are used as ("simple" for `{name}`).
    var argumentKinds: [String: Set<String>] {
        arguments.reduce(into: [:]) { kinds, use in kinds[use.name, default: []].insert(use.type?.rawValue ?? "simple") }
    }
}

/// The facts of every message of a bundle, in message order, with an index by key and the messages
/// each rule needs to look at, so a rule visits a handful of messages rather than all of them.
struct BundleFacts: Sendable {
    let facts: [MessageFacts]
    let index: [String: Int]
    /// Messages that do not parse; with plural or select arguments; with markup; with stray whitespace.
    let withErrors: [Int], withSelections: [Int], withTags: [Int], withWhitespace: [Int]

    init(_ bundle: LocaleBundle) {
        let all = bundle.messages.map { MessageFacts($0.text) }
        facts = all
        index = Dictionary(bundle.messages.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { first, _ in first })
        withErrors = all.indices.filter { all[$0].error != nil }
        withSelections = all.indices.filter { !all[$0].selections.isEmpty }
        withTags = all.indices.filter { !all[$0].tags.isEmpty }
        withWhitespace = all.indices.filter { all[$0].hasOuterWhitespace || !all[$0].doubleSpaces.isEmpty }
    }

    /// The index of `key` in this bundle, trying `hint` first: translations usually keep the order of the
    /// default locale's file, so the same position mostly holds the same key and no hashing is needed.
    func index(of key: String, hint: Int, in messages: [LocaleBundle.Message]) -> Int? {
        if hint < messages.count, messages[hint].key == key { return hint }
        return index[key]
    }
}

extension LocaleBundle {
    /// The facts of every message, computed on first use and shared by every rule and every tenant that inherits this bundle.
    var facts: BundleFacts { derived.value(BundleFacts.self) { BundleFacts(self) } }
}

/// Calls `body` for every message this tenant wrote itself, in every locale.
func forEachOwnMessage(_ context: RuleContext, _ body: (LocaleBundle, LocaleBundle.Message, MessageFacts) -> Void) {
    forEachOwnMessage(context, in: { Array($0.facts.indices) }, body)
}

/// Calls `body` for each message of `bundle` at `indices` that this tenant wrote itself (inherited ones
/// are checked with the tenant they come from).
func forEachOwnMessage(_ context: RuleContext, in select: (BundleFacts) -> [Int], _ body: (LocaleBundle, LocaleBundle.Message, MessageFacts) -> Void) {
    for (_, bundle) in context.tenant.locales.sorted(by: { $0.key < $1.key }) {
        let all = bundle.facts
        for i in select(all) where context.owns(bundle.messages[i].keyLocation) {
            body(bundle, bundle.messages[i], all.facts[i])
        }
    }
}

/// Calls `body` for each message of every translation whose default-locale message `differs` from it,
/// with where to report. Translations and sources are paired by key in one pass per bundle.
func forEachDifferingTranslation(_ context: RuleContext,
                                 differs: (_ original: LocaleBundle.Message, _ originalFacts: MessageFacts, _ message: LocaleBundle.Message, _ facts: MessageFacts) -> Bool,
                                 _ body: (_ bundle: LocaleBundle, _ message: LocaleBundle.Message, _ facts: MessageFacts,
                                          _ original: LocaleBundle.Message, _ originalFacts: MessageFacts, _ placement: Placement) -> Void) {
    guard let (_, source, translations) = context.translationPairs else { return }
    let sourceFacts = source.facts
    for bundle in translations {
        let all = bundle.facts
        for i in bundle.messages.indices {
            let key = bundle.messages[i].key
            guard let j = sourceFacts.index(of: key, hint: i, in: source.messages) else { continue }
            guard all.facts[i].error == nil, sourceFacts.facts[j].error == nil, differs(source.messages[j], sourceFacts.facts[j], bundle.messages[i], all.facts[i]),
                  let placement = context.placement(of: bundle.messages[i], against: source.messages[j]) else { continue }
            body(bundle, bundle.messages[i], all.facts[i], source.messages[j], sourceFacts.facts[j], placement)
        }
    }
}
