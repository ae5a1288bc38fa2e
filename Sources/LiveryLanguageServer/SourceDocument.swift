import LiveryDiagnostics

/// A document's text split into lines, converting between Livery's columns and LSP positions.
///
/// Livery's `SourceLocation` counts lines from 1 and columns in Unicode scalars from 1; LSP counts both from 0
/// and characters in UTF-16 code units. A scalar above U+FFFF (an emoji, a rare CJK ideograph) is two UTF-16
/// units, so the two columns part after the first such scalar on a line.
public struct SourceDocument: Sendable {
    public let text: String
    /// Lines without their line ends ("\n", or "\r\n").
    public let lines: [[Unicode.Scalar]]

    public init(_ text: String) {
        self.text = text
        lines = text.sourceLines.map { Array($0.unicodeScalars) }
    }

    private func line(_ index: Int) -> [Unicode.Scalar] {
        lines.indices.contains(index) ? lines[index] : []
    }

    /// The LSP position of a Livery location (clamped to the text).
    public func position(line: Int, column: Int) -> Position {
        let index = max(0, line - 1)
        return Position(line: index, character: utf16Offset(in: self.line(index), scalars: max(0, column - 1)))
    }

    /// The scalar offset (0-based) on `position`'s line of `position.character` UTF-16 units; inside a
    /// surrogate pair it points at the pair's scalar.
    public func scalarIndex(_ position: Position) -> Int {
        var units = 0
        for (index, scalar) in line(position.line).enumerated() {
            let width = scalar.utf16.count
            if units + width > position.character { return index }
            units += width
        }
        return line(position.line).count
    }

    /// The Livery (1-based, scalar) column of an LSP position.
    public func column(_ position: Position) -> Int { scalarIndex(position) + 1 }

    func utf16Offset(in line: [Unicode.Scalar], scalars: Int) -> Int {
        line.prefix(scalars).reduce(0) { $0 + $1.utf16.count }
    }

    /// The UTF-16 position of scalar `index` on line `lineIndex` (0-based both).
    public func position(lineIndex: Int, scalar index: Int) -> Position {
        Position(line: lineIndex, character: utf16Offset(in: line(lineIndex), scalars: index))
    }

    /// The text of a line (0-based), without its line end.
    public func lineText(_ index: Int) -> String {
        var text = ""
        text.unicodeScalars.append(contentsOf: line(index))
        return text
    }

    /// The range a finding at `location` covers: the scalar, key or value written there. A quoted scalar
    /// runs to its closing quote, a flow collection to its closing bracket, a plain scalar to the next
    /// `,`, `]`, `}`, `: `, ` #` or the line's end. Findings about a whole file start at 1:1 and cover the first word.
    public func range(at location: SourceLocation) -> Range {
        let lineIndex = max(0, location.line - 1)
        let scalars = line(lineIndex)
        let start = min(max(0, location.column - 1), scalars.count)
        var end = start
        if start < scalars.count {
            let first = scalars[start]
            if first == "\"" || first == "'" {
                end = start + 1
                while end < scalars.count {
                    if scalars[end] == "\\" && first == "\"" { end += 2; continue }
                    if scalars[end] == first { end += 1; break }
                    end += 1
                }
                end = min(end, scalars.count)
            } else if first == "{" || first == "[" {
                let close: Unicode.Scalar = first == "{" ? "}" : "]"
                var depth = 0
                end = scalars.count
                for i in start..<scalars.count {
                    if scalars[i] == first { depth += 1 } else if scalars[i] == close { depth -= 1; if depth == 0 { end = i + 1; break } }
                }
            } else {
                while end < scalars.count {
                    let c = scalars[end]
                    if c == "," || c == "]" || c == "}" { break }
                    if c == ":" && (end + 1 == scalars.count || scalars[end + 1] == " ") { break }
                    if c == "#" && end > start && scalars[end - 1] == " " { break }
                    end += 1
                }
                while end > start && scalars[end - 1] == " " { end -= 1 }
            }
        }
        return Range(start: position(lineIndex: lineIndex, scalar: start), end: position(lineIndex: lineIndex, scalar: end))
    }

    /// The text between two positions on one line (empty across lines).
    public func text(in range: Range) -> String {
        guard range.start.line == range.end.line else { return "" }
        let scalars = line(range.start.line)
        let from = scalarIndex(range.start), to = scalarIndex(range.end)
        guard from <= to else { return "" }
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars[from..<to])
        return text
    }

    /// The position just after the last character of the text.
    public var endPosition: Position {
        let last = max(0, lines.count - 1)
        return position(lineIndex: last, scalar: line(last).count)
    }
}
