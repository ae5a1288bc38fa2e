import LiveryDiagnostics
import LiveryEncoding
import LiveryLoad

/// Changes message values in a locale YAML file's text without disturbing anything else.
///
/// Changed values are replaced where they are written (same quoting style when it can hold the new
/// text); new keys go at the end of the deepest existing block group that contains them, written with
/// the rest of their key dotted. Comments, blank lines, key order and grouping stay as they were.
/// The result is parsed again and must hold exactly the intended messages, or nothing is written.
public enum LocaleFileEditor {
    /// `text` (a YAML locale file) with the messages `added` written in, keeping everything else as it is; a
    /// diagnostic if it cannot be edited safely. For `livery lsp`'s "add the missing key" code action.
    /// A file ending in `.json` is edited as JSON (`addingJSON`), any other as YAML.
    public static func adding(_ added: [(key: String, value: String)], to text: String, file: String) -> Result<String, Diagnostic> {
        if file.lowercased().hasSuffix(".json") { return addingJSON(added, to: text, file: file) }
        let (node, diagnostics) = ManifestParser.parse(text, format: .yaml, file: file)
        guard let node, !diagnostics.contains(where: { $0.severity == .error }) else {
            return .failure(Diagnostic(.error, "the locale file cannot be read as YAML", at: .start(of: file), rule: InterchangeRule.io))
        }
        var expected = flatten(node)
        for (key, value) in added { expected[key] = value }
        return edit(text, file: file, changes: added, expected: expected)
    }

    /// `text` (a JSON locale bundle) with the messages `added` written in, in the file's own layout: each new key
    /// goes last in the deepest existing object group that contains it (the rest of its key dotted), indented
    /// like that object's other members and with its line ends; a one-line object stays on one line. Nothing
    /// else changes. The result is parsed again and must hold exactly the intended messages.
    public static func addingJSON(_ added: [(key: String, value: String)], to text: String, file: String) -> Result<String, Diagnostic> {
        let unreadable = Diagnostic(.error, "the locale file cannot be read as JSON", at: .start(of: file), rule: InterchangeRule.io)
        var current = text
        var expected: [String: String] = [:]
        for (index, (key, value)) in added.enumerated() {
            let (parsed, diagnostics) = ManifestParser.parse(current, format: .json, file: file)
            guard let root = parsed, root.entries != nil, !diagnostics.contains(where: { $0.severity == .error }) else { return .failure(unreadable) }
            if index == 0 { expected = flatten(root); for (key, value) in added { expected[key] = value } }
            guard let edited = insertJSON(key: key, value: value, into: current, root: root) else { return .failure(unreadable) }
            current = edited
        }
        let (node, diagnostics) = ManifestParser.parse(current, format: .json, file: file)
        guard let node, !diagnostics.contains(where: { $0.severity == .error }), flatten(node) == expected else {
            return .failure(Diagnostic(.error, "the edited locale file would not read back as the intended messages; nothing was written",
                                       at: .start(of: file), rule: InterchangeRule.io, hint: "this is a bug in the locale editor; please report it with the file"))
        }
        return .success(current)
    }

    /// `text` with one member added for `key` (see `addingJSON`), or nil if the text does not allow it.
    private static func insertJSON(key: String, value: String, into text: String, root: Node) -> String? {
        // The deepest object group the key's dotted parts lead to (a message with the group's name stops the descent).
        let parts = key.split(separator: ".").map(String.init)
        var object = root, depth = 0
        while depth < parts.count - 1, let next = object[parts[depth]], next.entries != nil {
            object = next
            depth += 1
        }
        let relative = parts[depth...].joined(separator: ".")
        let scalars = Array(text.unicodeScalars)
        let newline = text.contains("\r\n") ? "\r\n" : "\n"
        // Scalar offsets of each line's start, for the parser's (line, column) locations.
        var lineStarts = [0]
        for (offset, scalar) in scalars.enumerated() where scalar == "\n" { lineStarts.append(offset + 1) }
        func offset(_ location: SourceLocation) -> Int? {
            guard lineStarts.indices.contains(location.line - 1) else { return nil }
            let offset = lineStarts[location.line - 1] + location.column - 1
            return offset < scalars.count ? offset : nil
        }
        func indentation(ofLineAt offset: Int) -> String {
            let start = lineStarts.last { $0 <= offset } ?? 0
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars[start...].prefix { $0 == " " || $0 == "\t" })
            return text
        }
        guard let open = offset(object.location), scalars[open] == "{" else { return nil }
        // The object's closing brace: brackets counted outside strings.
        var close: Int?, level = 0, index = open, inString = false
        while index < scalars.count {
            let scalar = scalars[index]
            if inString {
                if scalar == "\\" { index += 1 } else if scalar == "\"" { inString = false }
            } else if scalar == "\"" {
                inString = true
            } else if scalar == "{" || scalar == "[" {
                level += 1
            } else if scalar == "}" || scalar == "]" {
                level -= 1
                if level == 0 { close = index; break }
            }
            index += 1
        }
        guard let close else { return nil }
        let member = JSONText.quoted(relative) + ": " + JSONText.quoted(value)
        var insertion: String, at: Int
        if let last = object.entries?.last, let lastKey = offset(last.keyLocation) {
            // After the last member's value: the last non-space before the closing brace.
            at = close
            while at > open + 1 && [" ", "\t", "\n", "\r"].contains(scalars[at - 1]) { at -= 1 }
            let multiline = lineStarts.contains { $0 > open && $0 <= lastKey }
            insertion = multiline ? "," + newline + indentation(ofLineAt: lastKey) + member : ", " + member
        } else {
            // An empty object: one member on its own line, one step in from the object's line (the file's step, else two spaces).
            at = open + 1
            let outer = indentation(ofLineAt: open)
            let step = root.entries?.first.flatMap { offset($0.keyLocation) }.map { indentation(ofLineAt: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "  "
            insertion = newline + outer + step + member + newline + outer
            // `{}` spread over lines keeps its closing brace's line.
            if scalars[(open + 1)..<close].contains("\n") {
                insertion = newline + outer + step + member
            }
        }
        var result = ""
        result.unicodeScalars.append(contentsOf: scalars[..<at])
        result += insertion
        result.unicodeScalars.append(contentsOf: scalars[at...])
        return result
    }

    /// The edited text, or a diagnostic saying why the file cannot be edited safely.
    static func edit(_ text: String, file: String, changes: [(key: String, value: String)], expected: [String: String]) -> Result<String, Diagnostic> {
        guard let spans = YAMLSpans.read(text) else {
            return .failure(Diagnostic(.error, "the locale file cannot be read as YAML", at: .start(of: file), rule: InterchangeRule.io))
        }
        var bytes = Array(text.utf8)
        let newline = text.contains("\r\n") ? "\r\n" : "\n"
        // Edits as (offset, length to replace, replacement), applied from the end so offsets stay valid.
        var edits: [(offset: Int, length: Int, text: [UInt8])] = []
        var insertions: [Int: [UInt8]] = [:]
        for (key, value) in changes {
            if spans.unmovable.contains(key) {
                return .failure(Diagnostic(.error, "'\(key)' is written as a YAML alias, which import cannot change", at: .start(of: file),
                                           rule: InterchangeRule.io, hint: "write the value out instead of using an alias"))
            }
            if let scalar = spans.scalars[key] {
                var replacement = render(value, like: scalar.style)
                let old = bytes[scalar.start..<scalar.end]
                // A block scalar's span takes its line breaks with it; put them back.
                if scalar.style == .block { replacement += String(decoding: old.reversed().prefix { $0 == 0x0A || $0 == 0x0D }.reversed(), as: UTF8.self) }
                edits.append((scalar.start, scalar.end - scalar.start, Array(replacement.utf8)))
                continue
            }
            var prefix = key
            var group: YAMLSpans.Group?
            while group == nil {
                if let dot = prefix.lastIndex(of: ".") { prefix = String(prefix[..<dot]) } else { prefix = "" }
                if let found = spans.groups[prefix], found.block { group = found } else if prefix.isEmpty { break }
            }
            let relative = prefix.isEmpty ? key : String(key.dropFirst(prefix.count + 1))
            let indent = String(repeating: " ", count: group?.indent ?? 0)
            let line = indent + renderKey(relative) + ": " + render(value, like: .plain) + newline
            var at = bytes.count
            if let group, group.end < bytes.count || prefix.isEmpty == false {
                at = group.end
                if at > 0 && bytes[at - 1] != 0x0A {
                    while at < bytes.count && bytes[at] != 0x0A { at += 1 }
                    if at < bytes.count { at += 1 }
                }
            }
            if at == bytes.count && !bytes.isEmpty && bytes.last != 0x0A {
                bytes += Array(newline.utf8)
                at = bytes.count
            }
            insertions[at, default: []] += Array(line.utf8)
        }
        for (offset, text) in insertions { edits.append((offset, 0, text)) }
        for edit in edits.sorted(by: { $0.offset > $1.offset }) {
            bytes.replaceSubrange(edit.offset..<(edit.offset + edit.length), with: edit.text)
        }
        let result = String(decoding: bytes, as: UTF8.self)
        // The safety net: the edited file must read back as exactly the intended messages.
        let (node, diagnostics) = ManifestParser.parse(result, format: .yaml, file: file)
        guard let node, !diagnostics.contains(where: { $0.severity == .error }), flatten(node) == expected else {
            return .failure(Diagnostic(.error, "the edited locale file would not read back as the imported messages; nothing was written",
                                       at: .start(of: file), rule: InterchangeRule.io, hint: "this is a bug in `livery l10n import`; please report it with the file"))
        }
        return .success(result)
    }

    /// A new locale file: a schema comment, then keys nested by their dotted groups (or flat when a key is also a group).
    static func create(_ messages: [(key: String, value: String)]) -> String {
        var out = "# yaml-language-server: $schema=../../../schemas/locale.schema.json\n"
        let keys = Set(messages.map(\.key))
        let nestable = !keys.contains { key in keys.contains { $0.hasPrefix(key + ".") } }
        guard nestable else {
            for (key, value) in messages { out += renderKey(key) + ": " + render(value, like: .plain) + "\n" }
            return out
        }
        // Keys of one group stay together, groups in the order they first appear.
        var open: [String] = []
        for (key, value) in sortedByGroup(messages) {
            let parts = key.split(separator: ".").map(String.init)
            var common = 0
            while common < open.count, common < parts.count - 1, open[common] == parts[common] { common += 1 }
            open = Array(open.prefix(common))
            for depth in common..<(parts.count - 1) {
                out += String(repeating: "  ", count: depth) + renderKey(parts[depth]) + ":\n"
                open.append(parts[depth])
            }
            out += String(repeating: "  ", count: parts.count - 1) + renderKey(parts[parts.count - 1]) + ": " + render(value, like: .plain) + "\n"
        }
        return out
    }

    private static func sortedByGroup(_ messages: [(key: String, value: String)]) -> [(key: String, value: String)] {
        var firstSeen: [String: Int] = [:]
        func groupPath(_ key: String) -> [Int] {
            let parts = key.split(separator: ".")
            return (1..<max(parts.count, 1)).map { firstSeen[parts.prefix($0).joined(separator: ".")] ?? 0 }
        }
        for (index, message) in messages.enumerated() {
            let parts = message.key.split(separator: ".")
            for length in 1..<max(parts.count, 1) where firstSeen[parts.prefix(length).joined(separator: ".")] == nil {
                firstSeen[parts.prefix(length).joined(separator: ".")] = index
            }
        }
        return messages.enumerated().sorted { a, b in
            let (pa, pb) = (groupPath(a.element.key), groupPath(b.element.key))
            for (x, y) in zip(pa, pb) where x != y { return x < y }
            return a.offset < b.offset
        }.map(\.element)
    }

    /// Message keys to values, flattened the way `LocaleBundle` does.
    static func flatten(_ node: Node) -> [String: String] {
        var out: [String: String] = [:]
        var stack: [(Node.Entry, String)] = (node.entries ?? []).map { ($0, "") }
        while let (entry, prefix) = stack.popLast() {
            if prefix.isEmpty && entry.key == "$schema" { continue }
            let key = prefix.isEmpty ? entry.key : prefix + "." + entry.key
            if let text = entry.value.string { out[key] = text } else if let children = entry.value.entries { stack += children.map { ($0, key) } }
        }
        return out
    }

    private static func renderKey(_ key: String) -> String { key }

    /// A YAML scalar for `value`: the original style when it can hold the text, double quotes otherwise.
    static func render(_ value: String, like style: YAMLSpans.Style) -> String {
        let hasControl = value.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0 == "\u{85}" || $0 == "\u{2028}" || $0 == "\u{2029}" }
        switch style {
        case .plain where isPlainSafe(value):
            return value
        case .singleQuoted where !hasControl:
            return "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
        default:
            return JSONText.quoted(value, alsoEscaping: { $0.value == 0x7F || $0 == "\u{85}" || $0 == "\u{2028}" || $0 == "\u{2029}" || $0 == "\u{FEFF}" },
                                   uppercaseHex: true)
        }
    }

    /// Conservative: text that YAML reads back as the same string when written unquoted.
    static func isPlainSafe(_ value: String) -> Bool {
        guard let first = value.unicodeScalars.first, let last = value.unicodeScalars.last else { return false }
        if " \t".unicodeScalars.contains(first) || " \t".unicodeScalars.contains(last) { return false }
        if "-?:,[]{}#&*!|>'\"%@`0123456789+.~".unicodeScalars.contains(first) { return false }
        if value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || $0.value >= 0x80 && $0.value < 0xA0 || $0 == "\u{2028}" || $0 == "\u{2029}" || $0 == "\u{FEFF}" }) { return false }
        if value.contains(": ") || value.contains(" #") || value.hasSuffix(":") { return false }
        let lowered = value.lowercased()
        if ["null", "true", "false", ".inf", ".nan"].contains(lowered) { return false }
        return true
    }
}
