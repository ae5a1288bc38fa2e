import LiveryDiagnostics
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
    public static func adding(_ added: [(key: String, value: String)], to text: String, file: String) -> Result<String, Diagnostic> {
        let (node, diagnostics) = ManifestParser.parse(text, format: .yaml, file: file)
        guard let node, !diagnostics.contains(where: { $0.severity == .error }) else {
            return .failure(Diagnostic(.error, "the locale file cannot be read as YAML", at: .start(of: file), rule: InterchangeRule.io))
        }
        var expected = flatten(node)
        for (key, value) in added { expected[key] = value }
        return edit(text, file: file, changes: added, expected: expected)
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
