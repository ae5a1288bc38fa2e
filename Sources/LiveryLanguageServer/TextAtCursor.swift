import Foundation

/// What is written around a cursor: a token reference, a word, the key the line is under.
struct TextAtCursor {
    let document: SourceDocument
    let line: Int
    /// The cursor's scalar offset on its line.
    let index: Int
    let scalars: [Unicode.Scalar]

    init(_ document: SourceDocument, _ position: Position) {
        self.document = document
        line = position.line
        index = document.scalarIndex(position)
        scalars = document.lines.indices.contains(position.line) ? document.lines[position.line] : []
    }

    private func string(_ range: Swift.Range<Int>) -> String {
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars[range])
        return text
    }

    private func range(_ scalarRange: Swift.Range<Int>) -> Range {
        Range(start: document.position(lineIndex: line, scalar: scalarRange.lowerBound), end: document.position(lineIndex: line, scalar: scalarRange.upperBound))
    }

    /// The `{path}` reference the cursor is in (on a brace or inside), with the range of the whole reference.
    var tokenReference: (path: String, range: Range)? {
        guard !scalars.isEmpty else { return nil }
        var open = min(index, scalars.count - 1)
        while open >= 0 && scalars[open] != "{" {
            if scalars[open] == "}" && open != index { return nil }
            open -= 1
        }
        guard open >= 0, let close = scalars[(open + 1)...].firstIndex(where: { $0 == "}" || $0 == "{" }), scalars[close] == "}", index <= close else { return nil }
        let path = string((open + 1)..<close)
        guard !path.isEmpty, path.unicodeScalars.allSatisfy({ !$0.properties.isWhitespace && $0 != "\"" }) else { return nil }
        return (path, range(open..<(close + 1)))
    }

    /// The text typed since an unclosed `{` before the cursor, and the range it covers (for completing a reference).
    var openReference: (typed: String, range: Range)? {
        var open = index - 1
        while open >= 0 {
            let c = scalars[open]
            if c == "{" { break }
            if c == "}" || c == "\"" || c == " " || c == "'" { return nil }
            open -= 1
        }
        guard open >= 0 else { return nil }
        return (string((open + 1)..<index), range((open + 1)..<index))
    }

    static func isWordScalar(_ c: Unicode.Scalar) -> Bool {
        c.properties.isAlphabetic || c.properties.numericType != nil || c == "." || c == "-" || c == "_" || c == "$"
    }

    /// The word (letters, digits, `.`, `-`, `_`) the cursor is on, with its range.
    var word: (text: String, range: Range)? {
        var start = min(index, scalars.count), end = start
        while start > 0 && Self.isWordScalar(scalars[start - 1]) { start -= 1 }
        while end < scalars.count && Self.isWordScalar(scalars[end]) { end += 1 }
        guard start < end else { return nil }
        return (string(start..<end), range(start..<end))
    }

    /// The file path the cursor is on (a scalar with a `/` and no spaces, quotes or YAML punctuation), if any.
    var path: String? {
        func isPathScalar(_ c: Unicode.Scalar) -> Bool { !c.properties.isWhitespace && !"\"',[]{}:#".unicodeScalars.contains(c) }
        var start = min(index, scalars.count), end = start
        while start > 0 && isPathScalar(scalars[start - 1]) { start -= 1 }
        while end < scalars.count && isPathScalar(scalars[end]) { end += 1 }
        let text = string(start..<end)
        return text.contains("/") || text.contains(".") ? text : nil
    }

    /// The part of the word before the cursor, and its range (what a completion replaces).
    var typedWord: (text: String, range: Range) {
        var start = min(index, scalars.count)
        while start > 0 && Self.isWordScalar(scalars[start - 1]) { start -= 1 }
        return (string(start..<min(index, scalars.count)), range(start..<min(index, scalars.count)))
    }

    /// In a YAML locale bundle: the dotted message key of the line the cursor is on (its own key after the keys of
    /// the less indented lines above it), when the line is a `key: text` entry.
    var localeKey: String? {
        func indentation(_ line: [Unicode.Scalar]) -> Int { line.prefix { $0 == " " }.count }
        func key(_ line: [Unicode.Scalar]) -> String? {
            let trimmed = line.drop { $0 == " " }
            guard let colon = trimmed.firstIndex(of: ":"), trimmed.first != "#" else { return nil }
            var key = ""
            key.unicodeScalars.append(contentsOf: trimmed[..<colon])
            return key.trimmingCharacters(in: CharacterSet(charactersIn: "\"' "))
        }
        guard let own = key(scalars), !own.isEmpty else { return nil }
        var keys = [own]
        var limit = indentation(scalars)
        var l = line - 1
        while l >= 0 && limit > 0 {
            let text = document.lines[l]
            if let parent = key(text), indentation(text) < limit {
                keys.insert(parent, at: 0)
                limit = indentation(text)
            }
            l -= 1
        }
        return keys.joined(separator: ".")
    }

    /// Whether the cursor is after a `key:` or `- ` on its line: where a value is written.
    var inValue: Bool {
        let before = scalars.prefix(index)
        return before.contains(":") || before.drop(while: { $0 == " " }).first == "-"
    }
}
