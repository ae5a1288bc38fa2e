import Foundation
import LiveryDiagnostics
import LiveryL10n

/// XLIFF 2.0 (OASIS core): one file per target locale, one `<unit>` per key, ICU text kept as text.
///
/// ICU syntax stays in `<source>` and `<target>` exactly as written (libxml2 escapes what XML requires);
/// placeholders are not turned into `<ph>` elements, so what a translator edits is what the app formats.
public enum XLIFFFormat {
    public static let namespace = "urn:oasis:names:tc:xliff:document:2.0"

    /// The XLIFF document for translating the default locale into `target`.
    public static func export(_ catalog: LocaleCatalog, target: String) -> InterchangeResult<Data> {
        guard catalog.locales.contains(target) else {
            return InterchangeResult(value: nil, diagnostics: [Diagnostic(.error, "'\(target)' is not a supported locale of \(catalog.tenantID) (\(catalog.locales.joined(separator: ", ")))",
                                                                          at: .start(of: catalog.displayRoot + "/tenant.yaml"), rule: InterchangeRule.language)])
        }
        guard let xml = XMLBuilder(root: "xliff", namespace: namespace) else {
            return InterchangeResult(value: nil, diagnostics: [Diagnostic(.error, "libxml2 could not create a document", at: .start(of: catalog.displayRoot), rule: InterchangeRule.io)])
        }
        xml.set("version", "2.0", on: xml.root)
        xml.set("srcLang", catalog.defaultLocale, on: xml.root)
        xml.set("trgLang", target, on: xml.root)
        let file = xml.add("file", to: xml.root)
        xml.set("id", catalog.tenantID, on: file)
        xml.set("original", catalog.relativePath(of: catalog.defaultLocale), on: file)
        let categories = PluralRules.cardinal(target)?.categories.map(\.rawValue)
        for message in catalog.bundles[catalog.defaultLocale]?.messages ?? [] {
            let unit = xml.add("unit", to: file)
            xml.set("id", message.key, on: unit)
            let translation = catalog.text(message.key, in: target)
            // A note tells the translator which plural cases the target language needs.
            if let categories, case .success(let parsed) = MessageFormat.parse(message.text), parsed.selections.contains(where: { $0.type == .plural }) {
                let notes = xml.add("notes", to: unit)
                let note = xml.add("note", to: notes, text: "plural cases in \(target): " + categories.joined(separator: ", "))
                xml.set("category", "plural-categories", on: note)
            }
            let segment = xml.add("segment", to: unit)
            xml.set("state", translation == nil ? "initial" : "translated", on: segment)
            let source = xml.add("source", to: segment, text: message.text)
            if needsPreserve(message.text) { xml.set("space", "preserve", prefix: "xml", on: source) }
            if let translation {
                let element = xml.add("target", to: segment, text: translation)
                if needsPreserve(translation) { xml.set("space", "preserve", prefix: "xml", on: element) }
            }
        }
        return InterchangeResult(value: xml.serialize(), diagnostics: [])
    }

    /// Whitespace that an XLIFF tool may otherwise normalise.
    private static func needsPreserve(_ text: String) -> Bool {
        text.contains("\n") || text.contains("  ") || text.contains("\t") || text.first == " " || text.last == " "
    }

    /// The translations in an XLIFF 2.0 file, checked against the tenant: languages, unit ids, structure.
    public static func read(_ bytes: [UInt8], file: String, catalog: LocaleCatalog) -> InterchangeResult<[ImportedValue]> {
        let root: ParsedXML
        switch XMLReading.parse(bytes, file: file) {
        case .success(let parsed): root = parsed
        case .failure(let diagnostic): return InterchangeResult(value: nil, diagnostics: [diagnostic])
        }
        let lines = LineIndex(bytes)
        func at(_ element: ParsedXML) -> SourceLocation { lines.location(of: element.name, line: element.line, file: file) }
        guard root.name == "xliff", root.namespace == namespace else {
            return InterchangeResult(value: nil, diagnostics: [Diagnostic(.error, "not an XLIFF 2.0 document: the root element is <\(root.name)> in namespace '\(root.namespace ?? "none")'",
                                                                          at: at(root), rule: InterchangeRule.syntax, hint: "expected <xliff xmlns=\"\(namespace)\" version=\"2.0\">")])
        }
        var diagnostics: [Diagnostic] = []
        if root.attribute("version") != "2.0" {
            diagnostics.append(Diagnostic(.error, "XLIFF version '\(root.attribute("version") ?? "")' is not supported; expected 2.0", at: at(root), rule: InterchangeRule.syntax))
        }
        let sourceLanguage = root.attribute("srcLang") ?? ""
        if !sameLocale(sourceLanguage, catalog.defaultLocale) {
            diagnostics.append(Diagnostic(.error, "srcLang is '\(sourceLanguage)', but the default locale of \(catalog.tenantID) is '\(catalog.defaultLocale)'",
                                          at: at(root), rule: InterchangeRule.language, hint: "export again with `livery l10n export`, or fix srcLang"))
        }
        guard let targetLanguage = root.attribute("trgLang"), !targetLanguage.isEmpty else {
            diagnostics.append(Diagnostic(.error, "the <xliff> element has no trgLang, so the file holds no translation", at: at(root), rule: InterchangeRule.language))
            return InterchangeResult(value: nil, diagnostics: diagnostics)
        }
        let locale = catalog.locales.first { sameLocale($0, targetLanguage) } ?? targetLanguage
        if !catalog.locales.contains(locale) {
            diagnostics.append(Diagnostic(.error, "trgLang '\(targetLanguage)' is not a supported locale of \(catalog.tenantID) (\(catalog.locales.joined(separator: ", ")))",
                                          at: at(root), rule: InterchangeRule.language))
        }
        var values: [ImportedValue] = []
        var seen: [String: Int] = [:]
        // Units may sit in <group>s at any depth; walk files and groups without recursion.
        var pending = root.elements("file")
        while let container = pending.popLast() {
            pending += container.elements("group").reversed()
            for unit in container.elements("unit") {
                guard let id = unit.attribute("id") else {
                    diagnostics.append(Diagnostic(.error, "<unit> has no id", at: at(unit), rule: InterchangeRule.syntax))
                    continue
                }
                if let first = seen[id] {
                    diagnostics.append(Diagnostic(.error, "unit id '\(id)' appears twice (first on line \(first))", at: at(unit), rule: InterchangeRule.duplicateKey))
                    continue
                }
                seen[id] = unit.line
                guard catalog.text(id, in: catalog.defaultLocale) != nil || catalog.text(id, in: locale) != nil else {
                    diagnostics.append(Diagnostic(.error, "'\(id)' is not a key of the default locale (\(catalog.defaultLocale))", at: at(unit),
                                                  rule: InterchangeRule.unknownKey, hint: DidYouMean.hint(for: id, among: catalog.keys)))
                    continue
                }
                var sourceText = "", targetText = "", targetElement: ParsedXML?, problem = false
                for part in unit.elements where part.name == "segment" || part.name == "ignorable" {
                    let source = part.elements("source").first
                    let target = part.elements("target").first
                    for element in [source, target].compactMap({ $0 }) {
                        if let inline = element.elements.first {
                            diagnostics.append(Diagnostic(.error, "inline element <\(inline.name)> is not supported; write ICU placeholders such as {name} as text",
                                                          at: at(inline), rule: InterchangeRule.format))
                            problem = true
                        }
                    }
                    sourceText += source?.text ?? ""
                    if let target { targetText += target.text; targetElement = targetElement ?? target } else if part.name == "ignorable" { targetText += source?.text ?? "" }
                }
                guard !problem, let targetElement else { continue }  // no <target>: not translated yet
                if let current = catalog.text(id, in: catalog.defaultLocale), current != sourceText {
                    diagnostics.append(Diagnostic(.warning, "the source text of '\(id)' changed since this file was exported; check the translation still fits",
                                                  at: at(unit), rule: InterchangeRule.unknownKey))
                }
                let column = lines.contentStart(of: "target", line: targetElement.line) ?? 1
                values.append(ImportedValue(locale: locale, key: id, form: .text(targetText),
                                            location: SourceLocation(file: file, line: targetElement.line, column: column), verbatimText: true))
            }
        }
        return InterchangeResult(value: diagnostics.contains { $0.severity == .error } ? nil : values, diagnostics: diagnostics)
    }

    /// Locale ids compare without regard to case or `_` versus `-`.
    static func sameLocale(_ a: String, _ b: String) -> Bool {
        a.replacingOccurrences(of: "_", with: "-").lowercased() == b.replacingOccurrences(of: "_", with: "-").lowercased()
    }
}
