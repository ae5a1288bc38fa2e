// The syntax tree of an ICU MessageFormat (MF1) message, built from its `MessagePattern` (MessagePattern.swift;
// the parser is in MessageFormatParser.swift),
// queries for rules in MessageFormatQueries.swift, the canonical printer in MessageFormatPrinter.swift.
// Every node carries the position of its first character so rules can point into the message text.

/// A parsed ICU MessageFormat message: the text it came from and its tree.
public struct MessageFormat: Hashable, Sendable {
    /// The message text exactly as given to the parser.
    public let source: String
    /// The top-level message.
    public let root: Message

    /// Parses `source`, throwing the first syntax error (ICU stops at the first one too).
    public init(parsing source: String) throws(MessageFormatError) {
        self.source = source
        self.root = try MessagePattern(parsing: source).root
    }

    /// The tree of an already parsed `pattern`.
    public init(_ pattern: MessagePattern) {
        self.source = pattern.source
        self.root = pattern.root
    }

    /// Parses `source`, returning the tree or the first syntax error.
    public static func parse(_ source: String) -> Result<MessageFormat, MessageFormatError> {
        do { return .success(try MessageFormat(parsing: source)) } catch { return .failure(error) }
    }
}

/// A place in a message's text: scalar offset from its start, 1-based line, 1-based column in Unicode scalars.
public struct MessagePosition: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Unicode scalars before this position in the message text.
    public var offset: Int
    /// 1-based line within the message text (lines end at "\n").
    public var line: Int
    /// 1-based column within the line, counting Unicode scalars.
    public var column: Int

    public init(offset: Int, line: Int, column: Int) {
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// The start of a message.
    public static let start = MessagePosition(offset: 0, line: 1, column: 1)

    public var description: String { "\(line):\(column)" }

    public static func < (lhs: MessagePosition, rhs: MessagePosition) -> Bool { lhs.offset < rhs.offset }
}

extension MessageFormat {
    /// A message or sub-message: literal text, arguments and `#` in source order.
    public struct Message: Hashable, Sendable {
        /// The parts in source order.
        public var parts: [Part]
        /// Where the message body starts (just after the `{` for a sub-message).
        public var start: MessagePosition

        public init(parts: [Part], start: MessagePosition) {
            self.parts = parts
            self.start = start
        }
    }

    /// One piece of a message.
    public enum Part: Hashable, Sendable {
        /// Literal text (apostrophe quoting already resolved).
        case text(TextSegment)
        /// A simple or typed argument such as `{name}` or `{n, number, integer}`.
        case argument(Argument)
        /// A `plural`, `selectordinal` or `select` argument with its sub-messages.
        case selection(Selection)
        /// A `#` in a plural or selectordinal sub-message: the number, minus the offset.
        case pound(MessagePosition)
    }

    /// A run of literal text that maps one to one onto the source, except `''` which stands for one apostrophe.
    public struct TextSegment: Hashable, Sendable {
        /// The text as it will be shown, apostrophe quoting resolved.
        public var text: String
        /// The source text of the run (without the apostrophes that open and close a quoted run).
        public var raw: String
        /// Where the run starts in the message.
        public var start: MessagePosition
        /// True when the run was inside ICU apostrophe quotes such as `'{'`.
        public var isQuoted: Bool

        public init(text: String, raw: String, start: MessagePosition, isQuoted: Bool) {
            self.text = text
            self.raw = raw
            self.start = start
            self.isQuoted = isQuoted
        }
    }

    /// The name of an argument: an ICU pattern identifier, or a non-negative number for positional arguments.
    public enum ArgumentName: Hashable, Sendable, Comparable, CustomStringConvertible {
        case named(String)
        case indexed(Int)

        public var description: String {
            switch self {
            case .named(let name): return name
            case .indexed(let number): return String(number)
            }
        }

        public static func < (lhs: ArgumentName, rhs: ArgumentName) -> Bool { lhs.description < rhs.description }
    }

    /// The argument types Livery accepts; anything else is an error (ICU would fail when formatting).
    public enum ArgumentType: String, Hashable, Sendable, CaseIterable {
        case number, date, time, spellout, ordinal, duration
        case plural, selectordinal, select

        /// True for the types whose options are sub-messages.
        public var isSelection: Bool { self == .plural || self == .selectordinal || self == .select }
        /// True for `plural` and `selectordinal`: the types with `=N` selectors, `offset:` and `#`.
        public var isPlural: Bool { self == .plural || self == .selectordinal }

        /// The style keywords ICU recognises for this type (case-insensitively).
        public var styleKeywords: [String] {
            switch self {
            case .number: return ["integer", "currency", "percent"]
            case .date, .time: return ["short", "medium", "long", "full"]
            default: return []
            }
        }
    }

    /// The third field of a simple typed argument.
    public enum ArgumentStyle: Hashable, Sendable {
        /// No style: `{n, number}`.
        case none
        /// A predefined style, lower-cased: `{n, number, percent}`.
        case keyword(String)
        /// An ICU skeleton, without the leading `::`: `{n, number, ::currency/EUR}`.
        case skeleton(String)
        /// Any other style text, kept verbatim (trimmed): `{n, number, #,##0.00}`.
        case pattern(String)
    }

    /// A simple argument `{name}` or a typed one `{name, type[, style]}` (not plural or select).
    public struct Argument: Hashable, Sendable {
        public var name: ArgumentName
        /// Nil for a simple argument `{name}`.
        public var type: ArgumentType?
        public var style: ArgumentStyle
        /// Position of the opening `{`.
        public var position: MessagePosition
        /// Position of the name's first character.
        public var namePosition: MessagePosition

        public init(name: ArgumentName, type: ArgumentType?, style: ArgumentStyle, position: MessagePosition, namePosition: MessagePosition) {
            self.name = name
            self.type = type
            self.style = style
            self.position = position
            self.namePosition = namePosition
        }
    }

    /// A `plural`, `selectordinal` or `select` argument.
    public struct Selection: Hashable, Sendable {
        public var name: ArgumentName
        /// `.plural`, `.selectordinal` or `.select`.
        public var type: ArgumentType
        /// The `offset:` value, 0 when absent (only plural and selectordinal have one).
        public var offset: Int
        /// Position of the `offset:` keyword, nil when absent.
        public var offsetPosition: MessagePosition?
        /// The selector/sub-message pairs in source order.
        public var options: [Option]
        /// Position of the opening `{`.
        public var position: MessagePosition
        /// Position of the name's first character.
        public var namePosition: MessagePosition

        public init(name: ArgumentName, type: ArgumentType, offset: Int, offsetPosition: MessagePosition?, options: [Option],
                    position: MessagePosition, namePosition: MessagePosition) {
            self.name = name
            self.type = type
            self.offset = offset
            self.offsetPosition = offsetPosition
            self.options = options
            self.position = position
            self.namePosition = namePosition
        }
    }

    /// One selector and its sub-message, such as `one {# item}`.
    public struct Option: Hashable, Sendable {
        public var selector: Selector
        /// Position of the selector's first character (the `=` of an explicit one).
        public var position: MessagePosition
        public var message: Message

        public init(selector: Selector, position: MessagePosition, message: Message) {
            self.selector = selector
            self.position = position
            self.message = message
        }
    }

    /// What an option matches: an exact value `=N` (plural only) or a keyword (`one`, `other`, `female`…).
    public enum Selector: Hashable, Sendable, CustomStringConvertible {
        /// `=N`: the value, and the text after `=` as written (`=1.5` → 1.5, "1.5").
        case explicit(Double, String)
        /// A plural category or select keyword, as written (case-sensitive, like ICU).
        case keyword(String)

        public var description: String {
            switch self {
            case .explicit(_, let text): return "=" + text
            case .keyword(let word): return word
            }
        }

        /// Two selectors are duplicates when they match the same thing: `=1` and `=1.0` do.
        func matchesSameValue(as other: Selector) -> Bool { normalized == other.normalized }

        /// The selector with its text dropped for explicit values, for comparing by what it matches.
        var normalized: Selector {
            if case .explicit(let value, _) = self { return .explicit(value == 0 ? 0 : value, "") }
            return self
        }
    }
}
