import LiveryLoad

/// Where the cursor is in the manifest's structure, read from the loader's located node tree of the editor's text.
///
/// The line being typed is usually not valid yet (`type: l`, `- {type: ` with the brace still open, a key with no
/// colon), so the text is parsed once with the word at the cursor replaced by a marker the tree then shows: as a
/// value (its keys from the root are the path) or as a key (its mapping's keys are the parent path). Where the
/// replaced line still does not parse, the flow collections left open before the cursor on that line are closed
/// and the rest of the line dropped, and the text is parsed again. This reads YAML and JSON alike, block and flow
/// style, and is not fooled by indentation (a flow mapping over several lines, a JSON manifest).
enum CursorInTree: Equatable {
    /// The cursor is in a value; the keys leading to it from the root (list items stepped through).
    case value([String])
    /// The cursor is in a key of the mapping the keys lead to.
    case key(parent: [String])

    /// A plain word no manifest uses, valid unquoted in YAML and inside a JSON string.
    static let marker = "livery-cursor-7d1f0c"

    /// Locates the cursor at `position` in `document` (a YAML or JSON manifest); nil if no repair of the line makes the
    /// text parse, or the cursor is not on a key or a value.
    static func locate(_ document: SourceDocument, _ position: Position, format: ManifestFormat) -> CursorInTree? {
        let line = position.line
        guard document.lines.indices.contains(line) else { return nil }
        let scalars = document.lines[line]
        let index = min(document.scalarIndex(position), scalars.count)
        var start = index, end = index
        while start > 0 && TextAtCursor.isWordScalar(scalars[start - 1]) { start -= 1 }
        while end < scalars.count && TextAtCursor.isWordScalar(scalars[end]) { end += 1 }
        let before = Array(scalars[..<start]), after = Array(scalars[end...])
        // A key is being written where nothing on the line before the word ends a key (`:`), unless it is a list item.
        let trimmedBefore = before.drop { $0 == " " || $0 == "\t" }
        let isValue = before.contains(":") || trimmedBefore.first == "-" || trimmedBefore.first == "["
        let afterText = after.drop { $0 == " " || $0 == "\"" || $0 == "'" }
        var candidates: [[Unicode.Scalar]] = []
        let marker = Array(marker.unicodeScalars)
        if isValue || afterText.first == ":" {
            candidates.append(before + marker + after)
        } else if format == .yaml {
            candidates.append(before + marker + Array(":".unicodeScalars) + after)
        } else {
            // A JSON key without its colon yet: the marker as a key with a null value, the string's quote closed.
            let rest = after.first == "\"" ? Array(after.dropFirst()) : after
            candidates.append(before + marker + Array("\": null".unicodeScalars) + rest)
        }
        // The same line cut after the marker, with the flow collections still open there closed (opened on this line
        // or above: a flow mapping may span lines). Brackets in quoted scalars and comments do not count; a quote
        // begins a scalar only where one can begin, and none runs past its line (an approximation: it only repairs,
        // and the parse decides).
        var open: [Unicode.Scalar] = []
        var quote: Unicode.Scalar?
        for text in document.lines.prefix(line) + [Array(candidates[0].prefix(before.count + marker.count))] {
            quote = nil
            var previous: Unicode.Scalar = " "
            scan: for c in text {
                defer { previous = c }
                if let q = quote {
                    if c == q { quote = nil }
                    continue
                }
                let mayBeginScalar = format == .json || " \t[{,:-".unicodeScalars.contains(previous)
                switch c {
                case "\"" where mayBeginScalar, "'" where format == .yaml && mayBeginScalar: quote = c
                case "#" where format == .yaml && (previous == " " || previous == "\t"): break scan
                case "{": open.append("}")
                case "[": open.append("]")
                case "}", "]": if !open.isEmpty { open.removeLast() }
                default: break
                }
            }
        }
        var cut = Array(candidates[0].prefix(before.count + marker.count))
        if let quote { cut.append(quote) }
        if !isValue && format == .yaml && afterText.first != ":" { cut += Array(":".unicodeScalars) }
        candidates.append(cut + open.reversed())

        // JSON text typed without its quotes yet: the marker as a string.
        if format == .json && before.last != "\"" {
            candidates += candidates.map { candidate in
                Array(candidate.prefix(before.count)) + Array("\"".unicodeScalars) + marker + Array("\"".unicodeScalars) + Array(candidate.dropFirst(before.count + marker.count))
            }
        }
        for candidate in candidates {
            var lines = document.lines
            lines[line] = candidate
            let text = lines.map { line in var text = ""; text.unicodeScalars.append(contentsOf: line); return text }.joined(separator: "\n")
            let (node, _) = ManifestParser.parse(text, format: format, file: "")
            if let node, let found = find(in: node, path: []) { return found }
        }
        return nil
    }

    /// The marker's place under `node`, whose keys from the root are `path`.
    private static func find(in node: Node, path: [String]) -> CursorInTree? {
        if node.string == marker { return .value(path) }
        for entry in node.entries ?? [] {
            if entry.key == marker { return .key(parent: path) }
            if let found = find(in: entry.value, path: path + [entry.key]) { return found }
        }
        for item in node.items ?? [] {
            if let found = find(in: item, path: path) { return found }
        }
        return nil
    }
}
