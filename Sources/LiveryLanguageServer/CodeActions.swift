import Foundation
import LiveryDiagnostics
import LiveryInterchange
import LiveryLoad
import LiveryResolve

/// Quick fixes for the findings in a range: apply a "did you mean", add a missing `$type`, add a missing message key.
extension LanguageServer {
    func codeActions(_ range: Range, in document: OpenDocument) -> [CodeAction] {
        var actions: [CodeAction] = []
        for (diagnostic, found) in findings(in: document) where found.start <= range.end && range.start <= found.end {
            let lsp = lspDiagnostic(diagnostic, in: document.source)
            if let action = didYouMean(diagnostic, found, in: document) { actions.append(action) }
            if diagnostic.ruleID == ResolveRule.tokenType, let action = addType(diagnostic, in: document) { actions.append(action) }
            if diagnostic.ruleID == "references.locale-key" || diagnostic.ruleID == "localization.missing-key",
               let action = addMessageKey(diagnostic, found, in: document) { actions.append(action) }
            for index in actions.indices where actions[index].diagnostics == nil { actions[index].diagnostics = [lsp] }
        }
        return actions
    }

    /// The first `'…'` quoted in `text` and the rest after it.
    private static func quoted(in text: Substring) -> (String, Substring)? {
        guard let open = text.firstIndex(of: "'"), let close = text[text.index(after: open)...].firstIndex(of: "'") else { return nil }
        return (String(text[text.index(after: open)..<close]), text[text.index(after: close)...])
    }

    /// "did you mean 'color'?": the misspelt word is the message's quoted word, written on the finding's line at or
    /// after the finding, that is closest to the suggestion (a message may quote other words too: "tab 'home' uses
    /// token '{color.x}'"); it is replaced there.
    private func didYouMean(_ diagnostic: Diagnostic, _ found: Range, in document: OpenDocument) -> CodeAction? {
        guard let hint = diagnostic.hint, hint.hasPrefix("did you mean"), let (suggestion, _) = Self.quoted(in: hint[...]) else { return nil }
        let scalars = Array(document.source.lineText(found.start.line).unicodeScalars)
        let startScalar = document.source.scalarIndex(found.start)
        var written: [(word: String, offset: Int)] = []
        var rest = diagnostic.message[...]
        while let (word, after) = Self.quoted(in: rest) {
            rest = after
            let target = Array(word.unicodeScalars)
            guard !target.isEmpty, startScalar + target.count <= scalars.count else { continue }
            if let offset = (startScalar...(scalars.count - target.count)).first(where: { Array(scalars[$0..<($0 + target.count)]) == target }) {
                written.append((word, offset))
            }
        }
        let chosen = DidYouMean.suggestion(for: suggestion, among: written.map(\.word)).flatMap { best in written.first { $0.word == best } } ?? written.first
        guard let (word, offset) = chosen else { return nil }
        let range = Range(start: document.source.position(lineIndex: found.start.line, scalar: offset),
                          end: document.source.position(lineIndex: found.start.line, scalar: offset + word.unicodeScalars.count))
        return CodeAction(title: "Replace '\(word)' with '\(suggestion)'", isPreferred: true,
                          edit: WorkspaceEdit(changes: [document.uri: [TextEdit(range: range, newText: suggestion)]]))
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
        for manifest in tenant.source.manifests(.locale) where manifest.relativePath.hasSuffix(".yaml") || manifest.relativePath.hasSuffix(".yml") {
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
