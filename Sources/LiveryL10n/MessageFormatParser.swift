// A recursive-descent parser for ICU MessageFormat (MF1), following ICU4J's MessagePattern with the
// default apostrophe mode DOUBLE_OPTIONAL. Where Livery is stricter or differs, the comment says so.
// Recursion depth is bounded by `maximumDepth` selections, so hostile input cannot overflow the stack.
//
// It reads the message's UTF-8 bytes and writes `MessagePattern` parts: ICU's syntax characters are
// all ASCII, so only identifiers and Pattern_White_Space outside ASCII need a scalar decoded.

private typealias MF = MessageFormat
private typealias Part = MessagePattern.Part

struct MessageFormatParser {
    /// The deepest nesting of plural/select arguments accepted; real messages use two or three levels.
    static let maximumDepth = 32

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var parts: [Part]

    /// Parses `source`, appending its pattern parts to `parts`; returns true when the text is all ASCII.
    static func parse(_ source: String, into parts: inout [MessagePattern.Part]) throws(MessageFormatError) -> Bool {
        var taken = parts
        parts = []
        let run = { (bytes: UnsafeBufferPointer<UInt8>) -> Result<([MessagePattern.Part], Bool), MessageFormatError> in
            var parser = MessageFormatParser(bytes: bytes, parts: taken)
            taken = []
            do throws(MessageFormatError) {
                try parser.parseMessage(depth: 0, poundAllowed: false, openBrace: nil)
            } catch {
                return .failure(error)
            }
            return .success((parser.parts, !bytes.contains { $0 >= 0x80 }))
        }
        let result = source.utf8.withContiguousStorageIfAvailable(run) ?? Array(source.utf8).withUnsafeBufferPointer(run)
        let (found, isASCII) = try result.get()
        parts = found
        return isASCII
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, parts: [MessagePattern.Part]) {
        self.bytes = bytes
        self.parts = parts
    }

    private var count: Int { bytes.count }

    // MARK: Messages and literal text

    /// Parses message text up to the `}` that closes a sub-message (left unconsumed) or the end of the text.
    /// `poundAllowed` is true inside a plural/selectordinal sub-message, including selects nested in one.
    private mutating func parseMessage(depth: Int, poundAllowed: Bool, openBrace: Int?) throws(MessageFormatError) {
        var textStart = index
        var doubled = false  // the run holds `''`
        while index < count {
            switch bytes[index] {
            case 0x27:  // '
                let next = index + 1 < count ? bytes[index + 1] : 0
                if next == 0x27 {
                    doubled = true  // '' is one apostrophe, inside or outside quotes
                    index += 2
                } else if next == 0x7B || next == 0x7D || (next == 0x23 && poundAllowed) {
                    flush(textStart, doubled)
                    quotedRun()
                    textStart = index
                    doubled = false
                } else {
                    index += 1  // a lone apostrophe before anything else is literal: it's, l'ami
                }
            case 0x23 where poundAllowed:  // #
                flush(textStart, doubled)
                parts.append(Part(.pound, index, index + 1))
                index += 1
                textStart = index
                doubled = false
            case 0x7B:  // {
                flush(textStart, doubled)
                try parseArgument(depth: depth, poundAllowed: poundAllowed)
                textStart = index
                doubled = false
            case 0x7D:  // }
                guard openBrace != nil else {
                    // ICU prints a `}` outside any argument literally; in a translation it is almost always a typo.
                    throw error(.unmatchedClosingBrace, "'}' without a matching '{'; quote it as '}' to show a brace", at: index)
                }
                flush(textStart, doubled)
                return
            default:
                index += 1
            }
        }
        if let openBrace { throw error(.unclosedBrace, "'{' is never closed", at: openBrace) }
        flush(textStart, doubled)
    }

    /// Reads `'…'` starting at the opening apostrophe. Inside, `''` is one apostrophe. An unterminated quote
    /// runs to the end of the whole message, as in ICU (which then typically reports the enclosing `{` as unclosed).
    private mutating func quotedRun() {
        index += 1
        let start = index
        var doubled = false
        while index < count {
            if bytes[index] == 0x27 {
                if index + 1 < count, bytes[index + 1] == 0x27 {
                    doubled = true
                    index += 2
                    continue
                }
                parts.append(Part(.quotedText, start, index, value: doubled ? 1 : 0))
                index += 1
                return
            }
            index += 1
        }
        parts.append(Part(.quotedText, start, index, value: doubled ? 1 : 0))
    }

    private mutating func flush(_ start: Int, _ doubled: Bool) {
        guard index > start else { return }
        parts.append(Part(.text, start, index, value: doubled ? 1 : 0))
    }

    // MARK: Arguments

    /// Parses `{…}` starting at the `{`, leaving the index after the closing `}`.
    private mutating func parseArgument(depth: Int, poundAllowed: Bool) throws(MessageFormatError) {
        let open = index
        let startPart = parts.count
        parts.append(Part(.argumentStart, open, open + 1))
        index += 1
        _ = try skipWhiteSpace(open: open)  // the name part records where the name starts
        try parseArgumentName()
        var c = bytes[try skipWhiteSpace(open: open)]
        if c == 0x7D {
            closeArgument()
            return
        }
        guard c == 0x2C else {
            throw error(.invalidArgumentName, "unexpected '\(scalar(at: index))' in argument name; expected ',' or '}'", at: index)
        }
        index += 1
        let typeStart = try skipWhiteSpace(open: open)
        let typeWord = identifier()
        guard !typeWord.isEmpty else {
            if bytes[typeStart] == 0x2C || bytes[typeStart] == 0x7D {
                throw error(.missingArgumentType, "missing argument type after ','", at: typeStart)
            }
            throw error(.unknownArgumentType, "'\(scalar(at: typeStart))' cannot start an argument type", at: typeStart)
        }
        // ICU compares type and style keywords case-insensitively.
        guard let type = argumentType(typeWord) else {
            let word = string(typeWord)
            let known = MF.ArgumentType.allCases.map(\.rawValue).joined(separator: ", ")
            let why = word.lowercased() == "choice" ? "'choice' is deprecated and not supported; use plural or select"
                : "unknown argument type '\(word)'; expected one of \(known)"
            throw error(.unknownArgumentType, why, at: typeStart)
        }
        parts[startPart].value = MessagePattern.typeCode(type)
        c = bytes[try skipWhiteSpace(open: open)]
        if type.isSelection {
            guard c == 0x2C else {
                let name = string(Int(parts[startPart + 1].start)..<Int(parts[startPart + 1].end))
                if c == 0x7D { throw error(.missingOptions, "\(type.rawValue) needs options, as in {\(name), \(type.rawValue), other {…}}", at: index) }
                throw error(.unexpectedCharacter, "unexpected '\(scalar(at: index))' after '\(type.rawValue)'; expected ','", at: index)
            }
            guard depth < Self.maximumDepth else {
                throw error(.nestingTooDeep, "plural/select arguments are nested more than \(Self.maximumDepth) deep", at: open)
            }
            index += 1
            try parseOptions(type: type, open: open, depth: depth + 1, poundAllowed: type.isPlural || poundAllowed)
            return
        }
        if c == 0x2C {
            index += 1
            try parseSimpleStyle(open: open)
        } else if c != 0x7D {
            throw error(.unexpectedCharacter, "unexpected '\(scalar(at: index))' after '\(type.rawValue)'; expected ',' or '}'", at: index)
        }
        closeArgument()
    }

    /// Consumes the `}` at the index that closes an argument.
    private mutating func closeArgument() {
        parts.append(Part(.argumentEnd, index, index + 1))
        index += 1
    }

    /// An argument name: a number without leading zeros, or an ICU identifier (which may start with a digit, `1a`).
    private mutating func parseArgumentName() throws(MessageFormatError) {
        let start = index
        let word = identifier()
        guard !word.isEmpty else {
            let c = bytes[start]
            if c == 0x7D || c == 0x2C { throw error(.emptyArgument, "empty argument; expected a name or number", at: start) }
            throw error(.invalidArgumentName, "'\(scalar(at: start))' cannot start an argument name", at: start)
        }
        guard word.allSatisfy({ bytes[$0] >= 0x30 && bytes[$0] <= 0x39 }) else {
            parts.append(Part(.argumentName, word.lowerBound, word.upperBound, value: -1))
            return
        }
        // ICU rejects leading zeros and numbers beyond Int32 rather than reading `{01}` as argument 1.
        guard word.count == 1 || bytes[word.lowerBound] != 0x30, let number = Int32(string(word)) else {
            throw error(.invalidArgumentName, "argument number '\(string(word))' must have no leading zeros and fit in 32 bits", at: start)
        }
        parts.append(Part(.argumentName, word.lowerBound, word.upperBound, value: number))
    }

    /// The type named by the identifier bytes `word`, compared case-insensitively.
    private func argumentType(_ word: Range<Int>) -> MF.ArgumentType? {
        candidates: for type in MF.ArgumentType.allCases where type.rawValue.utf8.count == word.count {
            for (offset, expected) in type.rawValue.utf8.enumerated() {
                let b = bytes[word.lowerBound + offset]
                let lower = b >= 0x41 && b <= 0x5A ? b | 0x20 : b
                if lower != expected { continue candidates }
            }
            return type
        }
        return nil
    }

    /// The style of a simple argument, up to and not including its closing `}`. As in ICU, braces nest and
    /// apostrophes quote, so `{n, number, '{'0}` is a pattern; the text is kept verbatim apart from trimming.
    private mutating func parseSimpleStyle(open: Int) throws(MessageFormatError) {
        let start = try skipWhiteSpace(open: open)
        var depth = 0
        while true {
            guard index < count else { throw error(.unclosedBrace, "'{' is never closed", at: open) }
            let c = bytes[index]
            if c == 0x27 {
                let quote = index
                index += 1
                while index < count, bytes[index] != 0x27 { index += 1 }
                guard index < count else {
                    throw error(.unterminatedQuote, "quoted text in the argument style never ends", at: quote)
                }
            } else if c == 0x7B {
                depth += 1
            } else if c == 0x7D {
                if depth == 0 { break }
                depth -= 1
            }
            index += 1
        }
        var end = index
        while end > start, let width = trailingWhiteSpace(before: end) { end -= width }
        if end > start { parts.append(Part(.argumentStyle, start, end)) }
    }

    /// The byte length of the Pattern_White_Space character that ends just before `end`, if one does.
    private func trailingWhiteSpace(before end: Int) -> Int? {
        var start = end - 1
        while start > 0, bytes[start] & 0xC0 == 0x80 { start -= 1 }
        return MessageFormatCharacters.isWhiteSpace(scalar(at: start)) ? end - start : nil
    }

    // MARK: Plural and select

    /// Parses the options after `plural,` / `select,` up to and including the argument's closing `}`.
    private mutating func parseOptions(type: MF.ArgumentType, open: Int, depth: Int, poundAllowed: Bool) throws(MessageFormatError) {
        let optionsStart = parts.count  // this selection's options are the parts from here
        var optionCount = 0
        var hasOffset = false
        while true {
            let start = try skipWhiteSpace(open: open)
            let c = bytes[start]
            if c == 0x7D {
                guard optionCount > 0 else {
                    throw error(.missingOptions, "\(type.rawValue) has no options; add at least 'other {…}'", at: start)
                }
                closeArgument()
                return
            }
            let selector: Part
            if c == 0x3D {  // =
                guard type.isPlural else {
                    throw error(.invalidSelector, "'=N' selectors are only allowed in plural and selectordinal", at: start)
                }
                selector = try explicitSelector()
            } else {
                let word = identifier()
                guard !word.isEmpty else {
                    if optionCount == 0 {
                        throw error(.invalidSelector, "expected a selector such as 'other', found '\(scalar(at: start))'", at: start)
                    }
                    throw error(.trailingText, "unexpected '\(scalar(at: start))' after the last option; expected a selector or '}'", at: start)
                }
                if index < count, bytes[index] == 0x3A, string(word) == "offset" {
                    guard type.isPlural else {
                        throw error(.offsetInSelect, "'offset:' is only allowed in plural and selectordinal", at: start)
                    }
                    guard optionCount == 0, !hasOffset else {
                        throw error(.offsetNotFirst, "'offset:' must come once, before the first selector", at: start)
                    }
                    try parseOffset(at: start, open: open)
                    hasOffset = true
                    continue
                }
                selector = Part(.selector, word.lowerBound, word.upperBound)
            }
            let next = try skipWhiteSpace(open: open)
            let written = string(Int(selector.start)..<Int(selector.end))
            guard bytes[next] == 0x7B else {
                if bytes[next] == 0x7D {
                    throw error(.trailingText, "'\(written)' after the last option has no message", at: start)
                }
                throw error(.missingSelectorMessage, "selector '\(written)' must be followed by a message in braces", at: start)
            }
            // By value: `=1` and `=1.0` are one selector.
            if hasSelector(matching: selector, from: optionsStart) {
                throw error(.duplicateSelector, "duplicate selector '\(written)' in \(type.rawValue)", at: start)
            }
            optionCount += 1
            parts.append(selector)
            index += 1
            parts.append(Part(.messageStart, index, index))
            try parseMessage(depth: depth, poundAllowed: poundAllowed, openBrace: next)
            parts.append(Part(.messageEnd, index, index + 1))
            index += 1  // the sub-message's `}`
        }
    }

    /// True when the options from `start` (this selection's; nested selections skipped) have a selector
    /// that matches the same thing as `selector`. Options are few, so a scan beats keeping a set.
    private func hasSelector(matching selector: Part, from start: Int) -> Bool {
        var depth = 0
        for part in parts[start...] {
            switch part.kind {
            case .argumentStart: depth += 1
            case .argumentEnd: depth -= 1
            case .selector where depth == 0: if matchSameValue(part, selector) { return true }
            default: break
            }
        }
        return false
    }

    /// True when two selector parts match the same thing: equal keywords, or `=N` of equal value.
    private func matchSameValue(_ a: Part, _ b: Part) -> Bool {
        guard a.value == b.value else { return false }
        if a.value == 1 { return Double(string(Int(a.start) + 1..<Int(a.end))) == Double(string(Int(b.start) + 1..<Int(b.end))) }
        return a.end - a.start == b.end - b.start && (0..<Int(a.end - a.start)).allSatisfy { bytes[Int(a.start) + $0] == bytes[Int(b.start) + $0] }
    }

    /// `=N` at the `=`. ICU reads any decimal (`=1.5`, `=-1`); the token runs to whitespace or a brace so `=1x` is one bad token.
    private mutating func explicitSelector() throws(MessageFormatError) -> Part {
        let equals = index
        index += 1
        let start = index
        while index < count, bytes[index] != 0x7B, bytes[index] != 0x7D {
            let c = scalar(at: index)
            guard MessageFormatCharacters.isNumberCharacter(c) || MessageFormatCharacters.isIdentifier(c) else { break }
            index += width(at: index)
        }
        let text = string(start..<index)
        guard !text.isEmpty else { throw error(.invalidExplicitSelector, "'=' must be followed by a number, as in =0", at: equals) }
        guard text.unicodeScalars.allSatisfy(MessageFormatCharacters.isNumberCharacter), let value = Double(text), value.isFinite else {
            throw error(.invalidExplicitSelector, "'=\(text)' is not a number", at: start)
        }
        return Part(.selector, equals, index, value: 1)
    }

    /// `offset:N` with the index just after `offset`. ICU accepts any decimal; Livery requires a non-negative integer.
    private mutating func parseOffset(at start: Int, open: Int) throws(MessageFormatError) {
        index += 1  // the colon
        let valueStart = try skipWhiteSpace(open: open)
        while index < count {
            let c = scalar(at: index)
            guard MessageFormatCharacters.isNumberCharacter(c) || MessageFormatCharacters.isIdentifier(c) else { break }
            index += width(at: index)
        }
        let text = string(valueStart..<index)
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let value = Int32(text) else {
            throw error(.invalidOffset, "'offset:' must be followed by a non-negative integer", at: valueStart)
        }
        parts.append(Part(.offset, start, start + 6, value: value))
    }

    // MARK: Scanning helpers

    /// Skips Pattern_White_Space inside an argument and returns the new index; the end of the text there means
    /// the argument's `{` is unclosed.
    private mutating func skipWhiteSpace(open: Int) throws(MessageFormatError) -> Int {
        while index < count {
            let b = bytes[index]
            if b == 0x20 || (b >= 0x09 && b <= 0x0D) { index += 1; continue }
            guard b >= 0x80, MessageFormatCharacters.isWhiteSpace(scalar(at: index)) else { break }
            index += width(at: index)
        }
        guard index < count else { throw error(.unclosedBrace, "'{' is never closed", at: open) }
        return index
    }

    /// Reads an ICU identifier (possibly empty) at the index, returning its byte range.
    private mutating func identifier() -> Range<Int> {
        let start = index
        while index < count {
            let b = bytes[index]
            if b < 0x80 {
                guard Self.asciiIdentifier[Int(b)] else { break }
                index += 1
            } else {
                guard MessageFormatCharacters.isIdentifier(scalar(at: index)) else { break }
                index += width(at: index)
            }
        }
        return start..<index
    }

    /// Which ASCII characters may appear in an identifier (neither Pattern_White_Space nor Pattern_Syntax).
    private static let asciiIdentifier: [Bool] = (0..<128).map { MessageFormatCharacters.isIdentifier(Unicode.Scalar(UInt8($0))) }

    private func scalar(at i: Int) -> Unicode.Scalar { MessagePositions.scalar(in: bytes, at: i).0 }

    private func width(at i: Int) -> Int { MessagePositions.scalar(in: bytes, at: i).1 }

    private func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    private func error(_ code: MessageFormatError.Code, _ message: String, at offset: Int) -> MessageFormatError {
        var positions = MessagePositions(bytes)
        return MessageFormatError(code, message, at: positions.position(offset))
    }
}
