/// A position in a source file: 1-based line and column, where a column counts Unicode scalars.
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// The start of a file, for findings about the file as a whole.
    public static func start(of file: String) -> SourceLocation {
        SourceLocation(file: file, line: 1, column: 1)
    }

    public var description: String { "\(file):\(line):\(column)" }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        if lhs.file != rhs.file { return Array(lhs.file.utf8).lexicographicallyPrecedes(Array(rhs.file.utf8)) }
        if lhs.line != rhs.line { return lhs.line < rhs.line }
        return lhs.column < rhs.column
    }
}

extension String {
    /// The lines of a source text, split at "\n" with a "\r" before it dropped, so that files with
    /// Windows line ends number and show their lines like any other. (Splitting on the Character "\n"
    /// would miss every "\r\n": Swift reads the pair as one Character.)
    public var sourceLines: [Substring] {
        unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { scalars in
            let line = Substring(scalars)
            return line.unicodeScalars.last == "\r" ? Substring(line.unicodeScalars.dropLast()) : line
        }
    }
}
