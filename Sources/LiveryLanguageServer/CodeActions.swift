import Foundation
import LiveryDiagnostics
import LiveryInterchange
import LiveryLoad
import LiveryResolve

/// Quick fixes for the findings in a range: the fixes rules declare (`Diagnostic.fixes`: every "did you mean"),
/// add a missing `$type`, add a missing message key.
extension LanguageServer {
    func codeActions(_ range: Range, in document: OpenDocument) -> [CodeAction] {
        var actions: [CodeAction] = []
        for (diagnostic, found) in findings(in: document) where found.start <= range.end && range.start <= found.end {
            let lsp = lspDiagnostic(diagnostic, in: document.source)
            // The fixes the rule declares with its finding ("did you mean" replacements among them), then the server's own.
            actions += declaredFixes(diagnostic)
            if diagnostic.ruleID == ResolveRule.tokenType, let action = addType(diagnostic, in: document) { actions.append(action) }
            if diagnostic.ruleID == "references.locale-key" || diagnostic.ruleID == "localization.missing-key",
               let action = addMessageKey(diagnostic, found, in: document) { actions.append(action) }
            for index in actions.indices where actions[index].diagnostics == nil { actions[index].diagnostics = [lsp] }
        }
        return actions
    }

    /// A rule's declared fixes (`Diagnostic.fixes`) as code actions: each edit's Livery positions (lines from 1,
    /// columns in Unicode scalars) in UTF-16 positions of the text the editor has.
    private func declaredFixes(_ diagnostic: Diagnostic) -> [CodeAction] {
        diagnostic.fixes.enumerated().map { index, fix in
            var changes: [String: [TextEdit]] = [:]
            for edit in fix.edits {
                let source = self.source(of: edit.start.file) ?? SourceDocument("")
                let range = Range(start: source.position(line: edit.start.line, column: edit.start.column),
                                  end: source.position(line: edit.end.line, column: edit.end.column))
                changes[uri(for: edit.start.file), default: []].append(TextEdit(range: range, newText: edit.replacement))
            }
            return CodeAction(title: fix.title, isPreferred: index == 0, edit: WorkspaceEdit(changes: changes))
        }
    }

    /// The first `'…'` quoted in `text` and the rest after it.
    private static func quoted(in text: Substring) -> (String, Substring)? {
        guard let open = text.firstIndex(of: "'"), let close = text[text.index(after: open)...].firstIndex(of: "'") else { return nil }
        return (String(text[text.index(after: open)..<close]), text[text.index(after: close)...])
    }

    /// A token without `$type`: insert the type its value shows, after the `{` that opens the token.
    private func addType(_ diagnostic: Diagnostic, in document: OpenDocument) -> CodeAction? {
        guard diagnostic.message.contains("$type"), let (path, _) = Self.quoted(in: diagnostic.message[...]), let tenant = tenant(of: document),
              let token = tenant.tokens.values.lazy.compactMap({ $0.tokens[path] }).first, let type = Self.inferredType(token.value) else { return nil }
        // The token's name is where the finding is; its object opens at the next `{`.
        let lines = document.source.lines
        var line = diagnostic.location.line - 1, index = diagnostic.location.column - 1
        while lines.indices.contains(line) {
            if let brace = lines[line].indices.first(where: { $0 >= index && lines[line][$0] == "{" }) {
                let at = document.source.position(lineIndex: line, scalar: brace + 1)
                let edit = TextEdit(range: Range(start: at, end: at), newText: "\"$type\": \"\(type)\", ")
                return CodeAction(title: "Add \"$type\": \"\(type)\" to '\(path)'", isPreferred: true,
                                  edit: WorkspaceEdit(changes: [document.uri: [edit]]))
            }
            line += 1
            index = 0
        }
        return nil
    }

    /// The DTCG type a value is written as, when it shows one.
    static func inferredType(_ value: Node) -> String? {
        if value["colorSpace"] != nil || value["hex"] != nil { return "color" }
        if let unit = value["unit"]?.string { return unit == "ms" || unit == "s" ? "duration" : "dimension" }
        if let text = value.string {
            if text.hasPrefix("#") { return "color" }
            if text.hasSuffix("ms") || (text.hasSuffix("s") && Double(text.dropLast()) != nil) { return "duration" }
            if text.hasSuffix("px") || text.hasSuffix("rem") { return "dimension" }
        }
        if value.number != nil { return "number" }
        if let items = value.items, items.count == 4, items.allSatisfy({ $0.number != nil }) { return "cubicBezier" }
        return nil
    }

    /// A message key that a locale lacks: written into every locale file of the tenant that lacks it, with the
    /// default locale's text. The copy is the project's mark of an untranslated string: `localization.untranslated`
    /// reports a translation equal to the default text until someone translates it.
    private func addMessageKey(_ diagnostic: Diagnostic, _ found: Range, in document: OpenDocument) -> CodeAction? {
        let key: String
        if diagnostic.ruleID == "references.locale-key" {
            key = document.source.text(in: found).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
        } else if let (quoted, _) = Self.quoted(in: diagnostic.message[...]) {
            key = quoted
        } else { return nil }
        guard !key.isEmpty, let tenant = tenant(of: document) else { return nil }
        let defaultText = tenant.defaultLocale.flatMap { tenant.locales[$0]?.message(key)?.text } ?? key
        var changes: [String: [TextEdit]] = [:]
        var locales: [String] = []
        // YAML and JSON bundles (the formats the loader reads), each edited in its own layout by `LocaleFileEditor`.
        for manifest in tenant.source.manifests(.locale) {
            guard let bundle = manifest.localeBundle, bundle.message(key) == nil else { continue }
            let path = tenant.source.root.appendingPathComponent(manifest.relativePath).standardizedFileURL.path
            guard let source = source(of: path), case .success(let edited) = LocaleFileEditor.adding([(key, defaultText)], to: source.text, file: path) else { continue }
            changes[uri(for: path)] = [TextEdit(range: Range(start: Position(line: 0, character: 0), end: source.endPosition), newText: edited)]
            locales.append(bundle.locale)
        }
        guard !changes.isEmpty else { return nil }
        return CodeAction(title: "Add '\(key)' to \(locales.sorted().joined(separator: ", ")) (untranslated: \"\(defaultText.prefix(40))\")",
                          edit: WorkspaceEdit(changes: changes))
    }
}
