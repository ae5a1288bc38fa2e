import LiveryDiagnostics

/// The first syntax error in a message: what is wrong, a short code, and the offending character's position.
public struct MessageFormatError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kinds of syntax error; the raw value is a stable short code for reports and tests.
    public enum Code: String, Hashable, Sendable, CaseIterable {
        /// A `{` (argument or sub-message) with no matching `}`; points at the `{`.
        case unclosedBrace = "unclosed-brace"
        /// A `}` outside any argument; ICU would print it literally, Livery treats it as a mistake.
        case unmatchedClosingBrace = "unmatched-closing-brace"
        /// `{}` or `{ , number}`: no argument name.
        case emptyArgument = "empty-argument"
        /// A name that is neither an identifier nor a number without leading zeros, or text after it.
        case invalidArgumentName = "invalid-argument-name"
        /// `{n, }`: a comma with no type after it.
        case missingArgumentType = "missing-argument-type"
        /// A type that is not in `MessageFormat.ArgumentType`.
        case unknownArgumentType = "unknown-argument-type"
        /// A character where `,` or `}` was expected.
        case unexpectedCharacter = "unexpected-character"
        /// `{n, plural}` or `{n, select,}`: a selection with no options.
        case missingOptions = "missing-options"
        /// Something that cannot be a selector where one was expected.
        case invalidSelector = "invalid-selector"
        /// `=` not followed by a number.
        case invalidExplicitSelector = "invalid-explicit-selector"
        /// The same selector twice in one selection; points at the second.
        case duplicateSelector = "duplicate-selector"
        /// A selector that is not followed by `{…}`.
        case missingSelectorMessage = "missing-selector-message"
        /// A word after the last option, right before the closing `}`.
        case trailingText = "trailing-text"
        /// `offset:` after a selector, or twice.
        case offsetNotFirst = "offset-not-first"
        /// `offset:` without a non-negative integer.
        case invalidOffset = "invalid-offset"
        /// `offset:` in a `select`.
        case offsetInSelect = "offset-in-select"
        /// A quoted argument style (`{n, number, '…}`) that never ends; points at the apostrophe.
        case unterminatedQuote = "unterminated-quote"
        /// Selections nested deeper than `MessageFormatParser.maximumDepth`; points at the `{` that is too deep.
        case nestingTooDeep = "nesting-too-deep"
    }

    public var code: Code
    public var message: String
    public var position: MessagePosition

    public init(_ code: Code, _ message: String, at position: MessagePosition) {
        self.code = code
        self.message = message
        self.position = position
    }

    /// `line:column: message [code]`, positions within the message text.
    public var description: String { "\(position): \(message) [\(code.rawValue)]" }
}

extension MessagePosition {
    /// The file location of this position, for a message stored verbatim in a file starting at `start`.
    /// (Messages inside escaped strings, such as JSON with `\n`, need their own mapping.)
    public func location(in start: SourceLocation) -> SourceLocation {
        if line == 1 { return SourceLocation(file: start.file, line: start.line, column: start.column + column - 1) }
        return SourceLocation(file: start.file, line: start.line + line - 1, column: column)
    }
}
