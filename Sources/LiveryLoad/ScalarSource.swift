import LiveryDiagnostics

/// How a text value was written in its file, so a position inside the value can be mapped back to
/// the exact line and column of the file.
///
/// A value read from `title: Hello` maps one to one onto the file: the value's n-th character is n
/// columns right of the value's start. Quotes, escapes (`\"`, `\u00e9`, `''`), line folding and
/// block scalars (`|`, `>`) break that, so for those the parser keeps the scalar's source text
/// (`raw`) and `ScalarSourceMap` replays how YAML turned it into the value.
public struct ScalarSource: Sendable, Hashable {
    /// YAML's scalar styles; a JSON string is `doubleQuoted` (its escapes are a subset of YAML's).
    public enum Style: UInt8, Sendable, Hashable {
        case plain, singleQuoted, doubleQuoted, literal, folded

        /// True for the styles whose value starts one column after the opening quote.
        public var isQuoted: Bool { self == .singleQuoted || self == .doubleQuoted }
    }

    public var style: Style
    /// Where the scalar ends in the file: just after its last character (or closing quote).
    /// Block scalars end at the start of the line after their last content line.
    public var endLine: Int32
    public var endColumn: Int32
    /// The scalar exactly as written (quotes and block indicators included), kept only when the value
    /// does not map one to one onto one line of the file; nil when it does.
    public var raw: String?

    public init(style: Style, endLine: Int, endColumn: Int, raw: String?) {
        self.style = style
        self.endLine = Int32(clamping: endLine)
        self.endColumn = Int32(clamping: endColumn)
        self.raw = raw
    }

    /// The file location of the value's character at `offset` (Unicode scalars from the value's start;
    /// `offset == value.unicodeScalars.count` is just past the end). `start` is where the scalar starts
    /// (its opening quote or block indicator).
    public func location(ofValueOffset offset: Int, value: String, start: SourceLocation) -> SourceLocation {
        if let raw, let map = ScalarSourceMap(raw: raw, style: style, value: value, start: start) {
            return map.location(ofValueOffset: offset)
        }
        return Self.shifted(start, by: offset, quoted: style.isQuoted)
    }

    /// The location `offset` columns right of the value's first character on `start`'s line: exact for a
    /// scalar that maps one to one, the best guess for one whose source could not be replayed.
    public static func shifted(_ start: SourceLocation, by offset: Int, quoted: Bool) -> SourceLocation {
        SourceLocation(file: start.file, line: start.line, column: start.column + offset + (quoted ? 1 : 0))
    }
}
