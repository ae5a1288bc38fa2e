import LiveryDiagnostics

extension Fix {
    /// Replaces the text value `node` with `value`, written in the node's own style (plain, or in the
    /// same quotes); nil when the node is not a one-line text value whose span the parser recorded.
    public static func replacing(_ node: Node, with value: String, title: String? = nil) -> Fix? {
        guard let old = node.string, let scalar = node.scalar, Int(scalar.endLine) == node.location.line else { return nil }
        let written: String
        switch scalar.style {
        case .plain:
            // A plain scalar stays plain only if the new value reads back as the same text.
            guard !value.isEmpty, value.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || "0123456789-_./".unicodeScalars.contains($0) }) else { return nil }
            written = value
        case .doubleQuoted:
            written = "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        case .singleQuoted:
            written = "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
        case .literal, .folded:
            return nil
        }
        let end = SourceLocation(file: node.location.file, line: Int(scalar.endLine), column: Int(scalar.endColumn))
        return Fix(title ?? "Replace '\(old)' with '\(value)'", edits: [TextEdit(from: node.location, to: end, replacement: written)])
    }

    /// Renames a mapping key written plainly (`emoji:` → `emojis:`); nil for a key written otherwise.
    public static func renaming(_ entry: Node.Entry, to key: String, source: String? = nil) -> Fix? {
        guard key.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || "0123456789-_.".unicodeScalars.contains($0) }),
              entry.key.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic || "0123456789-_.".unicodeScalars.contains($0) }) else { return nil }
        let start = entry.keyLocation
        // A JSON key is quoted: keep its quotes.
        let quoted = start.file.hasSuffix(".json")
        let from = quoted ? SourceLocation(file: start.file, line: start.line, column: start.column + 1) : start
        let end = SourceLocation(file: start.file, line: start.line, column: from.column + entry.key.unicodeScalars.count)
        return Fix("Rename '\(entry.key)' to '\(key)'", edits: [TextEdit(from: from, to: end, replacement: key)])
    }
}

extension DidYouMean {
    /// The quick fix for a misspelt text value: replace it with the closest candidate.
    public static func fix(for node: Node, among candidates: some Sequence<String>) -> [Fix] {
        guard let word = node.string, let suggestion = suggestion(for: word, among: candidates) else { return [] }
        return Fix.replacing(node, with: suggestion).map { [$0] } ?? []
    }
}
