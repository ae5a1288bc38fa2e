// A recursive-descent parser for ICU MessageFormat (MF1), following ICU4J's MessagePattern with the
// default apostrophe mode DOUBLE_OPTIONAL. Where Livery is stricter or differs, the comment says so.
// Recursion depth is bounded by `maximumDepth` selections, so hostile input cannot overflow the stack.

private typealias MF = MessageFormat

struct MessageFormatParser {
    /// The deepest nesting of plural/select arguments accepted; real messages use two or three levels.
    static let maximumDepth = 32

    private let scalars: [Unicode.Scalar]
    /// Offsets at which each line starts, for turning offsets into line and column.
    private let lineStarts: [Int]
    private var index = 0

    static func parse(_ source: String) throws(MessageFormatError) -> MessageFormat.Message {
        var parser = MessageFormatParser(source)
        return try parser.parseMessage(depth: 0, poundAllowed: false, openBrace: nil)
    }

    private init(_ source: String) {
        scalars = Array(source.unicodeScalars)
        var starts = [0]
        for (offset, c) in scalars.enumerated() where c == "\n" { starts.append(offset + 1) }
        lineStarts = starts
    }

    // MARK: Messages and literal text

    /// Parses message text up to the `}` that closes a sub-message (left unconsumed) or the end of the text.
    /// `poundAllowed` is true inside a plural/selectordinal sub-message, including selects nested in one.
    private mutating func parseMessage(depth: Int, poundAllowed: Bool, openBrace: Int?) throws(MessageFormatError) -> MF.Message {
        var parts: [MF.Part] = []
        var text = TextBuilder(start: index)
        let start = position(index)
        while index < scalars.count {
            let c = scalars[index]
            switch c {
            case "'":
                let next = index + 1 < scalars.count ? scalars[index + 1] : nil
                if next == "'" {
                    text.append("'")  // '' is one apostrophe, inside or outside quotes
                    index += 2
                } else if next == "{" || next == "}" || (next == "#" && poundAllowed) {
                    flush(&text, into: &parts)
                    parts.append(.text(quotedRun()))
                    text = TextBuilder(start: index)
                } else {
                    text.append("'")  // a lone apostrophe before anything else is literal: it's, l'ami
                    index += 1
                }
            case "#" where poundAllowed:
                flush(&text, into: &parts)
                parts.append(.pound(position(index)))
                index += 1
                text = TextBuilder(start: index)
            case "{":
                flush(&text, into: &parts)
                parts.append(try parseArgument(depth: depth, poundAllowed: poundAllowed))
                text = TextBuilder(start: index)
            case "}":
                guard openBrace != nil else {
                    // ICU prints a `}` outside any argument literally; in a translation it is almost always a typo.
                    throw error(.unmatchedClosingBrace, "'}' without a matching '{'; quote it as '}' to show a brace", at: index)
                }
                flush(&text, into: &parts)
                return MF.Message(parts: parts, start: start)
            default:
                text.append(c)
                index += 1
            }
        }
        if let openBrace { throw error(.unclosedBrace, "'{' is never closed", at: openBrace) }
        flush(&text, into: &parts)
        return MF.Message(parts: parts, start: start)
    }

    /// Reads `'…'` starting at the opening apostrophe. Inside, `''` is one apostrophe. An unterminated quote
    /// runs to the end of the whole message, as in ICU (which then typically reports the enclosing `{` as unclosed).
    private mutating func quotedRun() -> MF.TextSegment {
        index += 1
        var run = TextBuilder(start: index)
        while index < scalars.count {
            if scalars[index] == "'" {
                if index + 1 < scalars.count, scalars[index + 1] == "'" {
                    run.append("'")
                    index += 2
                    continue
                }
                let segment = segment(run, quoted: true)
                index += 1
                return segment
            }
            run.append(scalars[index])
            index += 1
        }
        return segment(run, quoted: true)
    }

    private func flush(_ text: inout TextBuilder, into parts: inout [MF.Part]) {
        guard index > text.start else { return }
        parts.append(.text(segment(text, quoted: false)))
    }

    private func segment(_ text: TextBuilder, quoted: Bool) -> MF.TextSegment {
        let rawBytes = TextBuilder.utf8(scalars[text.start..<index])
        let raw = String(decoding: rawBytes, as: UTF8.self)
        // Most text has no '' in it: then the text is the source itself, and one string serves both.
        let value = rawBytes == text.bytes ? raw : String(decoding: text.bytes, as: UTF8.self)
        return MF.TextSegment(text: value, raw: raw, start: position(text.start), isQuoted: quoted)
    }

    // MARK: Arguments

    /// Parses `{…}` starting at the `{`, leaving the index after the closing `}`.
    private mutating func parseArgument(depth: Int, poundAllowed: Bool) throws(MessageFormatError) -> MF.Part {
        let open = index
        index += 1
        let nameStart = try skipWhiteSpace(open: open)
        let name = try parseArgumentName()
        var c = scalars[try skipWhiteSpace(open: open)]
        if c == "}" {
            index += 1
            return .argument(MF.Argument(name: name, type: nil, style: .none, position: position(open), namePosition: position(nameStart)))
        }
        guard c == "," else {
            throw error(.invalidArgumentName, "unexpected '\(c)' in argument name; expected ',' or '}'", at: index)
        }
        index += 1
        let typeStart = try skipWhiteSpace(open: open)
        let typeWord = identifier()
        guard !typeWord.isEmpty else {
            if scalars[typeStart] == "," || scalars[typeStart] == "}" {
                throw error(.missingArgumentType, "missing argument type after ','", at: typeStart)
            }
            throw error(.unknownArgumentType, "'\(scalars[typeStart])' cannot start an argument type", at: typeStart)
        }
        // ICU compares type and style keywords case-insensitively.
        guard let type = MF.ArgumentType(rawValue: typeWord.lowercased()) else {
            let known = MF.ArgumentType.allCases.map(\.rawValue).joined(separator: ", ")
            let why = typeWord.lowercased() == "choice" ? "'choice' is deprecated and not supported; use plural or select"
                : "unknown argument type '\(typeWord)'; expected one of \(known)"
            throw error(.unknownArgumentType, why, at: typeStart)
        }
        c = scalars[try skipWhiteSpace(open: open)]
        if type.isSelection {
            guard c == "," else {
                if c == "}" { throw error(.missingOptions, "\(type.rawValue) needs options, as in {\(name), \(type.rawValue), other {…}}", at: index) }
                throw error(.unexpectedCharacter, "unexpected '\(c)' after '\(type.rawValue)'; expected ','", at: index)
            }
            guard depth < Self.maximumDepth else {
                throw error(.nestingTooDeep, "plural/select arguments are nested more than \(Self.maximumDepth) deep", at: open)
            }
            index += 1
            let selection = try parseOptions(name: name, type: type, open: open, nameStart: nameStart, depth: depth + 1,
                                             poundAllowed: type.isPlural || poundAllowed)
            return .selection(selection)
        }
        var style = MF.ArgumentStyle.none
        if c == "," {
            index += 1
            style = try parseSimpleStyle(type: type, open: open)
        } else if c != "}" {
            throw error(.unexpectedCharacter, "unexpected '\(c)' after '\(type.rawValue)'; expected ',' or '}'", at: index)
        }
        index += 1
        return .argument(MF.Argument(name: name, type: type, style: style, position: position(open), namePosition: position(nameStart)))
    }

    /// An argument name: a number without leading zeros, or an ICU identifier (which may start with a digit, `1a`).
    private mutating func parseArgumentName() throws(MessageFormatError) -> MF.ArgumentName {
        let start = index
        let word = identifier()
        guard !word.isEmpty else {
            let c = scalars[start]
            if c == "}" || c == "," { throw error(.emptyArgument, "empty argument; expected a name or number", at: start) }
            throw error(.invalidArgumentName, "'\(c)' cannot start an argument name", at: start)
        }
        guard word.unicodeScalars.allSatisfy(MessageFormatCharacters.isASCIIDigit) else { return .named(word) }
        // ICU rejects leading zeros and numbers beyond Int32 rather than reading `{01}` as argument 1.
        guard word == "0" || !word.hasPrefix("0"), let number = Int32(word) else {
            throw error(.invalidArgumentName, "argument number '\(word)' must have no leading zeros and fit in 32 bits", at: start)
        }
        return .indexed(Int(number))
    }

    /// The style of a simple argument, up to and not including its closing `}`. As in ICU, braces nest and
    /// apostrophes quote, so `{n, number, '{'0}` is a pattern; the text is kept verbatim apart from trimming.
    private mutating func parseSimpleStyle(type: MF.ArgumentType, open: Int) throws(MessageFormatError) -> MF.ArgumentStyle {
        let start = try skipWhiteSpace(open: open)
        var depth = 0
        while true {
            guard index < scalars.count else { throw error(.unclosedBrace, "'{' is never closed", at: open) }
            let c = scalars[index]
            if c == "'" {
                let quote = index
                index += 1
                while index < scalars.count, scalars[index] != "'" { index += 1 }
                guard index < scalars.count else {
                    throw error(.unterminatedQuote, "quoted text in the argument style never ends", at: quote)
                }
            } else if c == "{" {
                depth += 1
            } else if c == "}" {
                if depth == 0 { break }
                depth -= 1
            }
            index += 1
        }
        var end = index
        while end > start, MessageFormatCharacters.isWhiteSpace(scalars[end - 1]) { end -= 1 }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[start..<end])
        let style = String(view)
        if style.isEmpty { return .none }
        if style.hasPrefix("::") {
            let skeleton = style.unicodeScalars.dropFirst(2).drop(while: MessageFormatCharacters.isWhiteSpace)
            return .skeleton(String(String.UnicodeScalarView(skeleton)))
        }
        if type.styleKeywords.contains(style.lowercased()) { return .keyword(style.lowercased()) }
        return .pattern(style)
    }

    // MARK: Plural and select

    /// Parses the options after `plural,` / `select,` up to and including the argument's closing `}`.
    private mutating func parseOptions(name: MF.ArgumentName, type: MF.ArgumentType, open: Int, nameStart: Int,
                                       depth: Int, poundAllowed: Bool) throws(MessageFormatError) -> MF.Selection {
        var selection = MF.Selection(name: name, type: type, offset: 0, offsetPosition: nil, options: [],
                                     position: position(open), namePosition: position(nameStart))
        var seen = Set<MF.Selector>()  // by value: `=1` and `=1.0` are one selector
        while true {
            let start = try skipWhiteSpace(open: open)
            let c = scalars[start]
            if c == "}" {
                guard !selection.options.isEmpty else {
                    throw error(.missingOptions, "\(type.rawValue) has no options; add at least 'other {…}'", at: start)
                }
                index += 1
                return selection
            }
            let selector: MF.Selector
            if c == "=" {
                guard type.isPlural else {
                    throw error(.invalidSelector, "'=N' selectors are only allowed in plural and selectordinal", at: start)
                }
                selector = try explicitSelector()
            } else {
                let word = identifier()
                guard !word.isEmpty else {
                    if selection.options.isEmpty {
                        throw error(.invalidSelector, "expected a selector such as 'other', found '\(c)'", at: start)
                    }
                    throw error(.trailingText, "unexpected '\(c)' after the last option; expected a selector or '}'", at: start)
                }
                if word == "offset", index < scalars.count, scalars[index] == ":" {
                    try parseOffset(into: &selection, at: start, open: open)
                    continue
                }
                selector = .keyword(word)
            }
            let next = try skipWhiteSpace(open: open)
            guard scalars[next] == "{" else {
                if scalars[next] == "}" {
                    throw error(.trailingText, "'\(selector)' after the last option has no message", at: start)
                }
                throw error(.missingSelectorMessage, "selector '\(selector)' must be followed by a message in braces", at: start)
            }
            guard seen.insert(selector.normalized).inserted else {
                throw error(.duplicateSelector, "duplicate selector '\(selector)' in \(type.rawValue)", at: start)
            }
            index += 1
            let message = try parseMessage(depth: depth, poundAllowed: poundAllowed, openBrace: next)
            index += 1  // the sub-message's `}`
            selection.options.append(MF.Option(selector: selector, position: position(start), message: message))
        }
    }

    /// `=N` at the `=`. ICU reads any decimal (`=1.5`, `=-1`); the token runs to whitespace or a brace so `=1x` is one bad token.
    private mutating func explicitSelector() throws(MessageFormatError) -> MF.Selector {
        let equals = index
        index += 1
        let start = index
        while index < scalars.count, scalars[index] != "{", scalars[index] != "}",
              MessageFormatCharacters.isNumberCharacter(scalars[index]) || MessageFormatCharacters.isIdentifier(scalars[index]) {
            index += 1
        }
        let text = string(start..<index)
        guard !text.isEmpty else { throw error(.invalidExplicitSelector, "'=' must be followed by a number, as in =0", at: equals) }
        guard text.unicodeScalars.allSatisfy(MessageFormatCharacters.isNumberCharacter), let value = Double(text), value.isFinite else {
            throw error(.invalidExplicitSelector, "'=\(text)' is not a number", at: start)
        }
        return .explicit(value, text)
    }

    /// `offset:N` with the index just after `offset`. ICU accepts any decimal; Livery requires a non-negative integer.
    private mutating func parseOffset(into selection: inout MF.Selection, at start: Int, open: Int) throws(MessageFormatError) {
        guard selection.type.isPlural else {
            throw error(.offsetInSelect, "'offset:' is only allowed in plural and selectordinal", at: start)
        }
        guard selection.options.isEmpty, selection.offsetPosition == nil else {
            throw error(.offsetNotFirst, "'offset:' must come once, before the first selector", at: start)
        }
        index += 1  // the colon
        let valueStart = try skipWhiteSpace(open: open)
        while index < scalars.count, MessageFormatCharacters.isNumberCharacter(scalars[index]) || MessageFormatCharacters.isIdentifier(scalars[index]) {
            index += 1
        }
        let text = string(valueStart..<index)
        guard !text.isEmpty, text.unicodeScalars.allSatisfy(MessageFormatCharacters.isASCIIDigit), let value = Int32(text) else {
            throw error(.invalidOffset, "'offset:' must be followed by a non-negative integer", at: valueStart)
        }
        selection.offset = Int(value)
        selection.offsetPosition = position(start)
    }

    // MARK: Scanning helpers

    /// Skips Pattern_White_Space inside an argument and returns the new index; the end of the text there means
    /// the argument's `{` is unclosed.
    private mutating func skipWhiteSpace(open: Int) throws(MessageFormatError) -> Int {
        while index < scalars.count, MessageFormatCharacters.isWhiteSpace(scalars[index]) { index += 1 }
        guard index < scalars.count else { throw error(.unclosedBrace, "'{' is never closed", at: open) }
        return index
    }

    /// Reads an ICU identifier (possibly empty) at the index.
    private mutating func identifier() -> String {
        let start = index
        while index < scalars.count, MessageFormatCharacters.isIdentifier(scalars[index]) { index += 1 }
        return string(start..<index)
    }

    private func string(_ range: Range<Int>) -> String {
        String(decoding: TextBuilder.utf8(scalars[range]), as: UTF8.self)
    }

    private func position(_ offset: Int) -> MessagePosition {
        // The last line start at or before `offset`, by binary search.
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return MessagePosition(offset: offset, line: low + 1, column: offset - lineStarts[low] + 1)
    }

    private func error(_ code: MessageFormatError.Code, _ message: String, at offset: Int) -> MessageFormatError {
        MessageFormatError(code, message, at: position(offset))
    }
}

/// Literal text being collected: where its source starts and the scalars it stands for.
/// Literal text as UTF-8 bytes: appending a scalar to a `String.UnicodeScalarView` one at a time
/// was most of the parser's time on large bundles.
private struct TextBuilder {
    let start: Int
    var bytes: [UInt8] = []

    init(start: Int) { self.start = start }

    mutating func append(_ c: Unicode.Scalar) {
        if c.isASCII { bytes.append(UInt8(c.value)) } else { UTF8.encode(c) { bytes.append($0) } }
    }

    static func utf8(_ scalars: ArraySlice<Unicode.Scalar>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(scalars.count)
        for c in scalars {
            if c.isASCII { bytes.append(UInt8(c.value)) } else { UTF8.encode(c) { bytes.append($0) } }
        }
        return bytes
    }
}
