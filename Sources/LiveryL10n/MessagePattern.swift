// A parsed message as a flat list of parts in source order, with UTF-8 offsets into its text: the
// representation ICU4J's MessagePattern uses. The parser (MessageFormatParser.swift) writes only this
// list; the tree (`MessageFormat`) is built from it, and checks that need facts rather than a tree
// (which arguments, which selectors, where) walk it directly. Parsing a message allocates the one
// array, which is what makes checking a million messages cheap.

/// A message parsed into parts, in source order.
///
/// The parts of a message are text, `#` and arguments. An argument is `argumentStart`, `argumentName`,
/// then for a typed argument an optional `argumentStyle`, or for a selection an optional `offset` and
/// one or more options (`selector`, `messageStart`, the sub-message's parts, `messageEnd`), and last
/// `argumentEnd`.
public struct MessagePattern: Sendable {
    public enum Kind: UInt8, Sendable {
        /// Literal text outside apostrophe quotes; `value` is 1 when it holds `''` (one apostrophe).
        case text
        /// Literal text inside apostrophe quotes, the quotes excluded; `value` as for `text`.
        case quotedText
        /// A `#` that stands for the number of a plural or selectordinal.
        case pound
        /// The `{` of an argument; `value` is its type code (see `argumentType(of:)`).
        case argumentStart
        /// An argument's name or number; `value` is the number of a positional argument, -1 for a name.
        case argumentName
        /// The style of a typed argument, trimmed: `percent` in `{n, number, percent}`.
        case argumentStyle
        /// The `offset` keyword of `offset:N`; `value` is N.
        case offset
        /// A selector as written: a keyword, or `=N` (from the `=`, `value` 1).
        case selector
        /// A sub-message starts: just after its `{`.
        case messageStart
        /// A sub-message ends: at its `}`.
        case messageEnd
        /// The `}` that closes an argument.
        case argumentEnd
    }

    public struct Part: Sendable, Hashable {
        public var kind: Kind
        public var value: Int32
        /// UTF-8 offsets of the part's text in the message.
        public var start: Int32, end: Int32

        init(_ kind: Kind, _ start: Int, _ end: Int, value: Int32 = 0) {
            self.kind = kind
            self.value = value
            self.start = Int32(truncatingIfNeeded: start)
            self.end = Int32(truncatingIfNeeded: end)
        }
    }

    /// The message text exactly as given to the parser.
    public let source: String
    public let parts: [Part]
    /// True when the text is all ASCII: its UTF-8 offsets are then also Unicode-scalar offsets.
    public let isASCII: Bool

    /// Parses `source`, throwing the first syntax error (ICU stops at the first one too).
    public init(parsing source: String) throws(MessageFormatError) {
        var parts: [Part] = []
        parts.reserveCapacity(32)  // a plural with five options has about 25 parts
        isASCII = try MessageFormatParser.parse(source, into: &parts)
        self.parts = parts
        self.source = source
    }

    /// Parses `source`, returning the pattern or the first syntax error.
    public static func parse(_ source: String) -> Result<MessagePattern, MessageFormatError> {
        do { return .success(try MessagePattern(parsing: source)) } catch { return .failure(error) }
    }

    /// Parses `source` into the storage of `buffer`, which is left empty: a caller parsing many messages
    /// gives the pattern's `parts` back to `buffer` when done with it, and no message allocates.
    public static func parse(_ source: String, reusing buffer: inout [Part]) -> Result<MessagePattern, MessageFormatError> {
        var parts = buffer
        buffer = []
        parts.removeAll(keepingCapacity: true)
        do {
            let isASCII = try MessageFormatParser.parse(source, into: &parts)
            return .success(MessagePattern(source: source, parts: parts, isASCII: isASCII))
        } catch {
            return .failure(error)
        }
    }

    private init(source: String, parts: [Part], isASCII: Bool) {
        self.source = source
        self.parts = parts
        self.isASCII = isASCII
    }

    /// The argument type an `argumentStart` part declares: nil for a simple `{name}`.
    public func argumentType(of part: Part) -> MessageFormat.ArgumentType? {
        part.value == 0 ? nil : MessageFormat.ArgumentType.allCases[Int(part.value) - 1]
    }

    /// The type code an `argumentStart` part carries: 0 for a simple `{name}`, else the type's index in `ArgumentType.allCases` plus one.
    static func typeCode(_ type: MessageFormat.ArgumentType?) -> Int32 {
        guard let type else { return 0 }
        return Int32(MessageFormat.ArgumentType.allCases.firstIndex(of: type)! + 1)
    }

    /// The part's source text (for `text` parts: apostrophe quoting not resolved; see `text(of:)`).
    public func source(of part: Part) -> String { substring(Int(part.start), Int(part.end)) }

    /// The literal text of a `text` or `quotedText` part, `''` read as one apostrophe.
    public func text(of part: Part) -> String {
        guard part.value == 1 else { return source(of: part) }
        return withUTF8 { bytes in
            var out: [UInt8] = []
            out.reserveCapacity(Int(part.end - part.start))
            var i = Int(part.start)
            while i < Int(part.end) {
                out.append(bytes[i])
                i += bytes[i] == 0x27 && i + 1 < Int(part.end) && bytes[i + 1] == 0x27 ? 2 : 1
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// The style of an `argumentStyle` part of an argument of `type`, as the tree reads it.
    public func argumentStyle(of part: Part, type: MessageFormat.ArgumentType?) -> MessageFormat.ArgumentStyle {
        TreeBuilder.style(source(of: part), type: type)
    }

    /// The argument name of an `argumentName` part.
    public func argumentName(of part: Part) -> MessageFormat.ArgumentName {
        part.value >= 0 ? .indexed(Int(part.value)) : .named(source(of: part))
    }

    func substring(_ start: Int, _ end: Int) -> String {
        withUTF8 { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<end]), as: UTF8.self) }
    }

    /// Calls `body` with the message's UTF-8 bytes.
    public func withUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = source.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(source.utf8).withUnsafeBufferPointer(body)
    }
}

/// Turns UTF-8 offsets of a message into positions (Unicode-scalar offset, line and column), walking
/// forward from the last answer: callers ask in source order, so a message is walked once.
public struct MessagePositions {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var byte = 0, scalar = 0, line = 1, lineStartScalar = 0

    /// `bytes` must stay valid while this is used (see `MessagePattern.withUTF8`).
    public init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    public mutating func position(_ offset: Int) -> MessagePosition {
        if offset < byte { byte = 0; scalar = 0; line = 1; lineStartScalar = 0 }
        while byte < offset {
            let b = bytes[byte]
            byte += 1
            if b & 0xC0 != 0x80 { scalar += 1 }
            if b == 0x0A { line += 1; lineStartScalar = scalar }
        }
        return MessagePosition(offset: scalar, line: line, column: scalar - lineStartScalar + 1)
    }

    /// The Unicode-scalar offset of a UTF-8 offset.
    public mutating func offset(_ offset: Int) -> Int { position(offset).offset }

    /// The scalar that starts at UTF-8 offset `i`, and its length in bytes.
    static func scalar(in bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (Unicode.Scalar, Int) {
        let lead = bytes[i]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        let length = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for k in 1..<length where i + k < bytes.count { value = value << 6 | UInt32(bytes[i + k] & 0x3F) }
        return (Unicode.Scalar(value) ?? "\u{FFFD}", length)
    }
}

// MARK: The tree

extension MessagePattern {
    /// The message as a tree, with positions.
    public var root: MessageFormat.Message {
        withUTF8 { bytes in
            var builder = TreeBuilder(pattern: self, positions: MessagePositions(bytes))
            return builder.message(start: .start)
        }
    }

    /// Builds the tree in one pass over the parts; positions are asked for in source order.
    private struct TreeBuilder {
        let pattern: MessagePattern
        var positions: MessagePositions
        var next = 0

        /// The parts from `next` up to the `messageEnd` that closes this message (consumed) or the end.
        mutating func message(start: MessagePosition) -> MessageFormat.Message {
            var parts: [MessageFormat.Part] = []
            while next < pattern.parts.count {
                let part = pattern.parts[next]
                next += 1
                switch part.kind {
                case .text, .quotedText:
                    // Without a doubled apostrophe the text is its source: one String for both.
                    let raw = pattern.source(of: part)
                    parts.append(.text(MessageFormat.TextSegment(text: part.value == 1 ? pattern.text(of: part) : raw, raw: raw,
                                                                 start: positions.position(Int(part.start)), isQuoted: part.kind == .quotedText)))
                case .pound:
                    parts.append(.pound(positions.position(Int(part.start))))
                case .argumentStart:
                    parts.append(argument(part))
                case .messageEnd:
                    return MessageFormat.Message(parts: parts, start: start)
                case .argumentName, .argumentStyle, .offset, .selector, .messageStart, .argumentEnd:
                    assertionFailure("part \(part.kind) outside an argument")
                }
            }
            return MessageFormat.Message(parts: parts, start: start)
        }

        /// The argument whose `argumentStart` was just read, through its `argumentEnd`.
        mutating func argument(_ startPart: Part) -> MessageFormat.Part {
            let position = positions.position(Int(startPart.start))
            let namePart = pattern.parts[next]
            next += 1
            let name = pattern.argumentName(of: namePart)
            let namePosition = positions.position(Int(namePart.start))
            let type = pattern.argumentType(of: startPart)
            guard let type, type.isSelection else {
                var style = MessageFormat.ArgumentStyle.none
                if pattern.parts[next].kind == .argumentStyle {
                    style = Self.style(pattern.source(of: pattern.parts[next]), type: type)
                    next += 1
                }
                next += 1  // argumentEnd
                return .argument(MessageFormat.Argument(name: name, type: type, style: style, position: position, namePosition: namePosition))
            }
            var selection = MessageFormat.Selection(name: name, type: type, offset: 0, offsetPosition: nil, options: [],
                                                    position: position, namePosition: namePosition)
            while next < pattern.parts.count {
                let part = pattern.parts[next]
                next += 1
                switch part.kind {
                case .offset:
                    selection.offset = Int(part.value)
                    selection.offsetPosition = positions.position(Int(part.start))
                case .selector:
                    let written = pattern.source(of: part)
                    let selector: MessageFormat.Selector = part.value == 1
                        ? .explicit(Double(written.dropFirst()) ?? 0, String(written.dropFirst())) : .keyword(written)
                    let selectorPosition = positions.position(Int(part.start))
                    let body = pattern.parts[next]  // messageStart
                    next += 1
                    let message = message(start: positions.position(Int(body.start)))
                    selection.options.append(MessageFormat.Option(selector: selector, position: selectorPosition, message: message))
                case .argumentEnd:
                    return .selection(selection)
                default:
                    assertionFailure("part \(part.kind) in the options of a selection")
                }
            }
            return .selection(selection)
        }

        /// A simple argument's style: none, a keyword (lower-cased), an ICU skeleton or a pattern kept verbatim.
        static func style(_ style: String, type: MessageFormat.ArgumentType?) -> MessageFormat.ArgumentStyle {
            if style.isEmpty { return .none }
            if style.hasPrefix("::") {
                let skeleton = style.unicodeScalars.dropFirst(2).drop(while: MessageFormatCharacters.isWhiteSpace)
                return .skeleton(String(String.UnicodeScalarView(skeleton)))
            }
            if let type, type.styleKeywords.contains(style.lowercased()) { return .keyword(style.lowercased()) }
            return .pattern(style)
        }
    }
}
