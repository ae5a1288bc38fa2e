import Foundation
import LiveryDiagnostics
import LiveryLoad

/// Apple String Catalogs (`.xcstrings`): every locale of a tenant in one JSON file, plurals as variations.
///
/// ICU plurals become `variations.plural` (one plural and no other argument) or `%#@name@`
/// substitutions; keys Xcode cannot express (select, selectordinal, offset, `=N`, nesting) carry their
/// ICU text verbatim in a plain `stringUnit`, marked by the key's `comment`.
public enum StringCatalogFormat {
    /// The comment that marks a key carried as ICU text.
    public static let verbatimComment = "ICU MessageFormat, carried verbatim (not representable as a String Catalog plural); format it with ICU"

    /// The catalog of `catalog`'s keys in `locales` (default: every supported locale), laid out as Xcode writes it.
    public static func export(_ catalog: LocaleCatalog, locales: [String]? = nil) -> InterchangeResult<Data> {
        let wanted = locales ?? catalog.locales
        // The exported locales as indices into the catalog's, in the order Xcode writes them.
        let exported = catalog.locales.indices.filter { wanted.contains(catalog.locales[$0]) }
            .sorted { catalog.locales[$0].utf8.lexicographicallyPrecedes(catalog.locales[$1].utf8) }
        let table = catalog.parsed.table(of: catalog)
        var diagnostics: [Diagnostic] = []
        var writer = XcodeJSONWriter(capacity: 256 * table.entries.count * max(1, exported.count))
        writer.beginObject()
        writer.member("sourceLanguage", catalog.defaultLocale)
        writer.key("strings")
        writer.beginObject()
        // The exported locales that have the key, by index.
        var present: [Int] = []
        var variant: [UInt8] = []
        // Each exported locale's plural categories in Xcode's order, by its index in the catalog's locales.
        let categories = catalog.locales.map { wanted.contains($0) ? CLDRCategories.shared.orders(of: $0)?.xcode : nil }
        let entries = table.entries
        for position in table.sorted {
            let key = table.orderedKeys[position]
            let signature = entries[position].apple
            present.removeAll(keepingCapacity: true)
            for index in exported where entries[position].texts[index] != nil {
                // Only a verbatim key is written without its parsed message.
                guard signature.shape == .verbatim || !entries[position].unparsable else {
                    let locale = catalog.locales[index]
                    let location = catalog.bundles[locale]?.message(key)?.location ?? .start(of: catalog.displayRoot)
                    diagnostics.append(Diagnostic(.error, "'\(key)' is not valid ICU MessageFormat; run `livery validate`", at: location, rule: InterchangeRule.icuSyntax))
                    continue
                }
                present.append(index)
            }
            guard !present.isEmpty else { continue }
            writer.key(key)
            writer.beginObject()
            if signature.shape == .verbatim { writer.member("comment", verbatimComment) }
            writer.member("extractionState", "manual")
            writer.key("localizations")
            writer.beginObject()
            for index in present {
                let locale = catalog.locales[index]
                writer.key(locale)
                if signature.shape == .plural, let template = entries[position].templates[index] {
                    // The most common shape: each variant is rendered straight into the catalog.
                    writer.beginObject()
                    writer.key("variations")
                    writer.beginObject()
                    writer.key("plural")
                    writer.beginObject()
                    template.forEachVariant(signature: signature, locale: locale, order: .xcode, known: categories[index], text: &variant) { category, text in
                        writer.key(category)
                        writer.translatedUnit(utf8: text)
                    }
                    writer.endObject()
                    writer.endObject()
                    writer.endObject()
                } else if let text = entries[position].texts[index], let form = entries[position].form(.apple, locale: index, text: text, locale: locale) {
                    write(form, into: &writer)
                }
            }
            writer.endObject()
            writer.endObject()
        }
        writer.endObject()
        writer.member("version", "1.0")
        writer.endObject()
        if diagnostics.contains(where: { $0.severity == .error }) { return InterchangeResult(value: nil, diagnostics: diagnostics) }
        return InterchangeResult(value: Data(writer.bytes), diagnostics: diagnostics)
    }

    /// `{"stringUnit" : {"state" : "translated", "value" : …}}`, the value of one string.
    private static func unit(_ value: String, into writer: inout XcodeJSONWriter) {
        writer.beginObject()
        writer.key("stringUnit")
        stringUnit(value, into: &writer)
        writer.endObject()
    }

    private static func stringUnit(_ value: String, into writer: inout XcodeJSONWriter) {
        writer.beginObject()
        writer.member("state", "translated")
        writer.member("value", value)
        writer.endObject()
    }

    /// `{"plural" : {category : unit, …}}`.
    private static func plural(_ items: [String: String], into writer: inout XcodeJSONWriter) {
        plural(XcodeJSONWriter.sorted(items.keys).map { ($0, items[$0] ?? "") }, into: &writer)
    }

    /// `{"plural" : {category : unit, …}}` with the categories already in Xcode's order.
    private static func plural(_ variants: [(category: String, text: String)], into writer: inout XcodeJSONWriter) {
        writer.beginObject()
        writer.key("plural")
        writer.beginObject()
        for variant in variants {
            writer.key(variant.category)
            unit(variant.text, into: &writer)
        }
        writer.endObject()
        writer.endObject()
    }

    /// One localization of a key, as Xcode writes `form`.
    static func write(_ form: PlatformForm, into writer: inout XcodeJSONWriter) {
        switch form {
        case .text(let text):
            unit(text, into: &writer)
        case .plural(let items):
            writer.beginObject()
            writer.key("variations")
            plural(items, into: &writer)
            writer.endObject()
        case .substituted(let main, let substitutions):
            writer.beginObject()
            writer.key("stringUnit")
            stringUnit(main, into: &writer)
            writer.key("substitutions")
            writer.beginObject()
            for name in XcodeJSONWriter.sorted(substitutions.keys) {
                guard let substitution = substitutions[name] else { continue }
                writer.key(name)
                writer.beginObject()
                writer.key("argNum")
                writer.int(substitution.argumentNumber)
                writer.member("formatSpecifier", substitution.formatSpecifier)
                writer.key("variations")
                plural(substitution.variants, into: &writer)
                writer.endObject()
            }
            writer.endObject()
            writer.endObject()
        }
    }

    /// The values of a String Catalog, checked against the tenant (languages, keys, structure).
    public static func read(_ text: String, file: String, catalog: LocaleCatalog) -> InterchangeResult<[ImportedValue]> {
        let (parsed, parseDiagnostics) = ManifestParser.parse(text, format: .json, file: file)
        var diagnostics = parseDiagnostics
        guard let root = parsed, root.entries != nil, !diagnostics.contains(where: { $0.severity == .error }) else {
            if parsed != nil && parsed?.entries == nil { diagnostics.append(Diagnostic(.error, "a String Catalog is a JSON object", at: .start(of: file), rule: InterchangeRule.syntax)) }
            return InterchangeResult(value: nil, diagnostics: diagnostics)
        }
        func fail(_ message: String, _ node: Node, rule: RuleID = InterchangeRule.syntax, hint: String? = nil) {
            diagnostics.append(Diagnostic(.error, message, at: node.location, rule: rule, hint: hint))
        }
        if let source = root["sourceLanguage"] {
            if !XLIFFFormat.sameLocale(source.string ?? "", catalog.defaultLocale) {
                fail("sourceLanguage is '\(source.string ?? source.typeDescription)', but the default locale of \(catalog.tenantID) is '\(catalog.defaultLocale)'", source, rule: InterchangeRule.language)
            }
        } else { fail("the catalog has no sourceLanguage", root) }
        if let version = root["version"], version.string != "1.0" { fail("String Catalog version '\(version.string ?? "")' is not supported; expected 1.0", version) }
        guard let strings = root["strings"]?.entries else {
            fail("the catalog has no \"strings\" object", root)
            return InterchangeResult(value: nil, diagnostics: diagnostics)
        }
        var values: [ImportedValue] = []
        for string in strings {
            for localization in string.value["localizations"]?.entries ?? [] {
                let locale = catalog.locales.first { XLIFFFormat.sameLocale($0, localization.key) } ?? localization.key
                guard catalog.locales.contains(locale) else {
                    diagnostics.append(Diagnostic(.error, "'\(localization.key)' is not a supported locale of \(catalog.tenantID) (\(catalog.locales.joined(separator: ", ")))",
                                                  at: localization.keyLocation, rule: InterchangeRule.language))
                    continue
                }
                switch form(of: localization.value) {
                case .success(let (form, location)):
                    values.append(ImportedValue(locale: locale, key: string.key, form: form, location: location, verbatimText: false))
                case .failure(let diagnostic):
                    diagnostics.append(diagnostic)
                }
            }
        }
        // Unknown keys are reported by LocaleImport at the value; point at the key itself instead.
        let known = Set(catalog.keys)
        for string in strings where !known.contains(string.key) {
            diagnostics.append(Diagnostic(.error, "'\(string.key)' is not a key of \(catalog.tenantID)'s locale files", at: string.keyLocation,
                                          rule: InterchangeRule.unknownKey, hint: DidYouMean.hint(for: string.key, among: known)))
        }
        values.removeAll { !known.contains($0.key) }
        return InterchangeResult(value: diagnostics.contains { $0.severity == .error } ? nil : values, diagnostics: diagnostics)
    }

    /// One localization as a platform form and the location of its main value.
    private static func form(of node: Node) -> Result<(PlatformForm, SourceLocation), Diagnostic> {
        func value(_ unit: Node?, _ context: Node) -> Result<(String, SourceLocation), Diagnostic> {
            guard let valueNode = unit?["stringUnit"]?["value"], let text = valueNode.string else {
                return .failure(Diagnostic(.error, "expected a \"stringUnit\" with a string \"value\"", at: (unit ?? context).location, rule: InterchangeRule.syntax))
            }
            return .success((text, valueNode.location))
        }
        func plural(_ variations: Node?, _ context: Node) -> Result<[String: String], Diagnostic> {
            guard let variations else { return .failure(Diagnostic(.error, "expected \"variations\"", at: context.location, rule: InterchangeRule.syntax)) }
            for entry in variations.entries ?? [] where entry.key != "plural" {
                return .failure(Diagnostic(.error, "'\(entry.key)' variations are not supported; only plural variations map to ICU", at: entry.keyLocation, rule: InterchangeRule.format))
            }
            guard let cases = variations["plural"]?.entries, !cases.isEmpty else {
                return .failure(Diagnostic(.error, "expected \"plural\" variations", at: variations.location, rule: InterchangeRule.syntax))
            }
            var items: [String: String] = [:]
            for entry in cases {
                switch value(entry.value, variations) {
                case .success(let (text, _)): items[entry.key] = text
                case .failure(let diagnostic): return .failure(diagnostic)
                }
            }
            return .success(items)
        }
        if node["variations"] != nil {
            return plural(node["variations"], node).map { (.plural($0), node.location) }
        }
        let main: (String, SourceLocation)
        switch value(node, node) {
        case .success(let found): main = found
        case .failure(let diagnostic): return .failure(diagnostic)
        }
        guard let substitutions = node["substitutions"]?.entries else { return .success((.text(main.0), main.1)) }
        var subs: [String: PlatformForm.Substitution] = [:]
        for entry in substitutions {
            guard let number = entry.value["argNum"]?.int else {
                return .failure(Diagnostic(.error, "substitution '\(entry.key)' has no integer \"argNum\"", at: entry.keyLocation, rule: InterchangeRule.syntax))
            }
            switch plural(entry.value["variations"], entry.value) {
            case .success(let items):
                subs[entry.key] = PlatformForm.Substitution(argumentNumber: number, formatSpecifier: entry.value["formatSpecifier"]?.string ?? "lld", variants: items)
            case .failure(let diagnostic): return .failure(diagnostic)
            }
        }
        return .success((.substituted(main.0, subs), main.1))
    }
}
