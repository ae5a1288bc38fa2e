import LiveryL10n

/// One way a message can read: its literal characters in order, each with its Unicode-scalar offset in
/// the message text, and every `{argument}` or plural `#` as one placeholder character.
///
/// A plural or select has several sub-messages, and the app shows one of them: a rule that counts
/// (emoji, exclamation marks, words) must count each reading separately, not all options together.
struct VoiceRendering: Sendable {
    /// Stands for an argument whose value is unknown: not a letter, not an emoji, but a word in a label.
    static let placeholder: Unicode.Scalar = "\u{FFFC}"

    var scalars: [Unicode.Scalar] = []
    var offsets: [Int] = []

    var text: String { String(String.UnicodeScalarView(scalars)) }

    mutating func append(_ scalar: Unicode.Scalar, at offset: Int) {
        scalars.append(scalar)
        offsets.append(offset)
    }

    static func + (lhs: VoiceRendering, rhs: VoiceRendering) -> VoiceRendering {
        VoiceRendering(scalars: lhs.scalars + rhs.scalars, offsets: lhs.offsets + rhs.offsets)
    }
}

/// A word of a rendering, found on Unicode word boundaries.
struct VoiceWord: Sendable, Equatable {
    var text: String
    /// Index of the first and one past the last scalar in the rendering.
    var start: Int, end: Int
    /// Offset of the first character in the message text.
    var offset: Int
    /// True when an apostrophe follows directly (an elided `t'`, `l'`).
    var beforeApostrophe: Bool
    /// True at the start of the text or after `.`, `!`, `?`, `…`, `:` or a line break.
    var startsSentence: Bool

    var hasLetters: Bool { text.unicodeScalars.contains { $0.properties.isAlphabetic } }
    /// A capital first letter.
    var isCapitalised: Bool { text.unicodeScalars.first.map { $0.properties.isUppercase } ?? false }
}

enum VoiceText {
    /// Every combination of options up to this many readings; beyond it each option is still read once.
    static let maximumRenderings = 32

    /// The readings of a message; none when the message is not valid MessageFormat (its syntax rule reports that).
    static func renderings(of text: String) -> [VoiceRendering] {
        // Text without ICU syntax or markup is one literal reading: skip the parser, as the facts do.
        if !text.unicodeScalars.contains(where: { $0 == "{" || $0 == "}" || $0 == "'" || $0 == "<" }) {
            var rendering = VoiceRendering()
            for (offset, scalar) in text.unicodeScalars.enumerated() { rendering.append(scalar, at: offset) }
            return [rendering]
        }
        guard case .success(let format) = MessageFormat.parse(text) else { return [] }
        // Markup tags are not copy: `<b>Save</b>` is one word.
        var masked = Set<Int>()
        for tag in MarkupTags.find(in: format) {
            masked.formUnion(tag.position.offset..<(tag.position.offset + tag.text.unicodeScalars.count))
        }
        return expand(format.root, masked: masked)
    }

    /// The parser bounds nesting depth, so this recursion is bounded too.
    private static func expand(_ message: MessageFormat.Message, masked: Set<Int>) -> [VoiceRendering] {
        var results = [VoiceRendering()]
        for part in message.parts {
            switch part {
            case .text(let segment):
                for (scalar, position) in segment.scalarPositions where !masked.contains(position.offset) {
                    for i in results.indices { results[i].append(scalar, at: position.offset) }
                }
            case .argument(let argument):
                for i in results.indices { results[i].append(VoiceRendering.placeholder, at: argument.position.offset) }
            case .pound(let position):
                for i in results.indices { results[i].append(VoiceRendering.placeholder, at: position.offset) }
            case .selection(let selection):
                let options = selection.options.flatMap { expand($0.message, masked: masked) }
                guard !options.isEmpty else { continue }
                if results.count * options.count <= maximumRenderings {
                    results = results.flatMap { head in options.map { head + $0 } }
                } else {
                    // Too many combinations: pair them up so every option is still read at least once; the
                    // count then grows with the number of options, not with their product.
                    let count = max(results.count, options.count)
                    results = (0..<count).map { results[$0 % results.count] + options[$0 % options.count] }
                }
            }
        }
        return results
    }

    // MARK: Words

    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        let properties = scalar.properties
        if properties.isAlphabetic || properties.numericType == .decimal { return true }
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return scalar != "\u{20E3}" && scalar != "\u{FE0F}"
        default: return false
        }
    }

    static func isApostrophe(_ scalar: Unicode.Scalar) -> Bool { scalar == "'" || scalar == "\u{2019}" || scalar == "\u{02BC}" }

    static let sentenceEnds: Set<Unicode.Scalar> = [".", "!", "?", "…", ":", ";", "\n", "।", "。", "！", "？"]

    /// The words of a rendering. An apostrophe between letters joins a word (`don't`) unless
    /// `splitsApostrophes` (French, Italian: `l'app` is `l` and `app`); hyphens and placeholders split words.
    static func words(in rendering: VoiceRendering, splitsApostrophes: Bool) -> [VoiceWord] {
        let scalars = rendering.scalars
        var words: [VoiceWord] = []
        var i = 0
        while i < scalars.count {
            guard isWordScalar(scalars[i]) else { i += 1; continue }
            let start = i
            while i < scalars.count {
                if isWordScalar(scalars[i]) { i += 1; continue }
                if !splitsApostrophes, isApostrophe(scalars[i]), i + 1 < scalars.count, isWordScalar(scalars[i + 1]) { i += 1; continue }
                break
            }
            words.append(VoiceWord(text: String(String.UnicodeScalarView(scalars[start..<i])), start: start, end: i, offset: rendering.offsets[start],
                                   beforeApostrophe: i < scalars.count && isApostrophe(scalars[i]),
                                   startsSentence: startsSentence(scalars, at: start)))
        }
        return words
    }

    /// Looks back from `index` over spaces, opening quotes and symbols (emoji) for the start of the text or a sentence end.
    private static func startsSentence(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        var i = index - 1
        while i >= 0 {
            let scalar = scalars[i]
            if sentenceEnds.contains(scalar) { return true }
            if scalar == VoiceRendering.placeholder || isWordScalar(scalar) || scalar == "," { return false }
            i -= 1
        }
        return true
    }

    // MARK: Emoji

    /// True when a character (grapheme cluster) shows as an emoji by default (UTS #51): it holds a
    /// scalar with Emoji_Presentation (🔥, flags, skin tones), a keycap (1️⃣), or a text-style emoji
    /// made emoji by U+FE0F (❤️) or joined to others by a ZWJ (the standard library does not expose
    /// Extended_Pictographic, so Emoji is the property used there). `©`, `™`, `❤` or a digit alone show as text and
    /// are not counted; U+FE0E asks for text, so neither is what it follows.
    static func isEmoji(_ character: Character) -> Bool {
        let scalars = character.unicodeScalars
        guard let first = scalars.first, !scalars.contains("\u{FE0E}") else { return false }
        if scalars.contains(where: { $0.properties.isEmojiPresentation }) { return true }
        if scalars.contains("\u{20E3}") { return true }
        if scalars.contains("\u{FE0F}") && first.properties.isEmoji { return true }
        return scalars.contains("\u{200D}") && first.properties.isEmoji && !first.isASCII
    }

    /// The emoji of a rendering, each counted once however many scalars it is made of (a family, a
    /// flag, a thumbs-up with a skin tone): the rendering index of each emoji's first scalar.
    static func emoji(in rendering: VoiceRendering) -> [Int] {
        var found: [Int] = []
        var index = 0
        for character in rendering.text {
            if isEmoji(character) { found.append(index) }
            index += character.unicodeScalars.count
        }
        return found
    }

    /// The exclamation marks of a rendering (`‼` counts twice); `¡` opens one and is not counted.
    static func exclamations(in rendering: VoiceRendering) -> [Int] {
        var found: [Int] = []
        for (index, scalar) in rendering.scalars.enumerated() {
            switch scalar {
            case "!", "\u{FF01}", "\u{2049}": found.append(index)
            case "\u{203C}": found += [index, index]
            default: continue
            }
        }
        return found
    }
}
