import Foundation
import LiveryDiagnostics
import LiveryL10n

/// Android `res/values*/strings.xml`: `<string>` and `<plurals>` resources, one file per locale.
///
/// Keys become resource names with `.` and `-` as `_`; a plural becomes `<plurals>` with one `<item>`
/// per CLDR category of the locale (a category the message lacks reads its `other` text); keys
/// Android cannot express carry their ICU text in a `<string formatted="false">` after a comment.
public enum AndroidFormat {
    /// The comment written before a key carried as ICU text.
    public static let verbatimComment = " ICU MessageFormat, carried verbatim (not representable as Android resources); format it with ICU "

    /// Resource names of the catalog's keys, or a diagnostic for each name that is invalid or taken twice.
    public static func names(_ catalog: LocaleCatalog) -> InterchangeResult<[String: String]> { names(catalog, keys: catalog.keys) }

    /// `names(catalog)` for the catalog's `keys`, already listed by the caller.
    static func names(_ catalog: LocaleCatalog, keys: [String]) -> InterchangeResult<[String: String]> {
        var names: [String: String] = [:]
        var owners: [String: String] = [:]
        var diagnostics: [Diagnostic] = []
        func location(_ key: String) -> SourceLocation {
            for locale in catalog.locales { if let message = catalog.bundles[locale]?.message(key) { return message.keyLocation } }
            return .start(of: catalog.displayRoot)
        }
        for key in keys {
            let name = AndroidResources.name(of: key)
            if !AndroidResources.isValidName(name) {
                diagnostics.append(Diagnostic(.error, "'\(key)' becomes the Android resource name '\(name)', which is not valid (letters, digits and _, not starting with a digit)",
                                              at: location(key), rule: InterchangeRule.nameCollision))
            } else if let other = owners[name] {
                diagnostics.append(Diagnostic(.error, "'\(key)' and '\(other)' both become the Android resource name '\(name)'", at: location(key),
                                              rule: InterchangeRule.nameCollision, hint: "rename one of the keys; Android names replace '.' and '-' with '_'"))
            } else {
                owners[name] = key
                names[key] = name
            }
        }
        return InterchangeResult(value: diagnostics.isEmpty ? names : nil, diagnostics: diagnostics)
    }

    /// A resources file holding one string, written as `export` writes each string (e.g. the
    /// `app_name` of a tenant's build settings); nil when libxml2 cannot make a document.
    public static func stringResource(name: String, text: String) -> Data? {
        guard let xml = XMLBuilder(root: "resources") else { return nil }
        let element = xml.add("string", to: xml.root, text: AndroidResources.escape(text))
        xml.set("name", name, on: element)
        // Never formatted: a '%' in the text must not read as a specifier.
        if text.contains("%") { xml.set("formatted", "false", on: element) }
        return xml.serialize()
    }

    /// `strings.xml` for `locale`.
    public static func export(_ catalog: LocaleCatalog, locale: String) -> InterchangeResult<Data> {
        let table = catalog.parsed.table(of: catalog)
        var writer = AndroidResourceBytes(capacity: 160 * table.orderedKeys.count)
        return export(catalog, locale: locale, table: table, into: &writer)
    }

    /// `export` through libxml2's tree and serialiser: the oracle the tests hold `export`'s bytes to.
    static func exportThroughLibxml2(_ catalog: LocaleCatalog, locale: String) -> InterchangeResult<Data> {
        guard var writer = AndroidResourceTree() else {
            return InterchangeResult(value: nil, diagnostics: [Diagnostic(.error, "libxml2 could not create a document", at: .start(of: catalog.displayRoot), rule: InterchangeRule.io)])
        }
        return export(catalog, locale: locale, table: catalog.parsed.table(of: catalog), into: &writer)
    }

    private static func export<Writer: AndroidResourceWriter>(_ catalog: LocaleCatalog, locale: String, table: ParsedCatalog.Table,
                                                              into writer: inout Writer) -> InterchangeResult<Data> {
        let named = table.androidNames
        guard let names = named.value else { return InterchangeResult(value: nil, diagnostics: named.diagnostics) }
        var diagnostics: [Diagnostic] = []
        // A bundle of a locale the tenant does not list (a stray file) is read from the bundle itself.
        let localeIndex = catalog.locales.firstIndex(of: locale)
        let stray = localeIndex == nil ? catalog.bundles[locale] : nil
        let categories = CLDRCategories.shared.orders(of: locale)
        var variant: [UInt8] = []
        let pluralCategories = categories?.android
        let entries = table.entries
        for (position, key) in table.orderedKeys.enumerated() {
            guard let name = names[key] else { continue }
            let signature = entries[position].android
            // A plural of a listed locale (its text parsed), the most common shape: each variant is rendered
            // straight into the file, and the entry's fields are read in place.
            if let localeIndex, signature.shape == .plural, let template = entries[position].templates[localeIndex] {
                writer.beginPlurals(name: name)
                template.forEachVariant(signature: signature, locale: locale, order: .android, known: pluralCategories, text: &variant) { category, text in
                    writer.item(quantity: category, utf8: text)
                }
                writer.endPlurals()
                continue
            }
            let entry = entries[position]
            guard let text = localeIndex.map({ entry.texts[$0] }) ?? stray?.message(key)?.text else { continue }
            // A stray bundle's text was not parsed with the catalog: it is rendered here, its plural forms put in Android's order.
            let rendered = localeIndex.map { entry.value(.android, locale: $0, text: text, locale: locale, categories: categories) }
                ?? PlatformRenderer.render(text, signature: signature, locale: locale).map { form -> ParsedCatalog.ExportedValue in
                    guard case .plural(let items) = form else { return .form(form) }
                    return .plural(PluralCategory.allCases.compactMap { category in items[category.rawValue].map { (category.rawValue, $0) } })
                }
            guard let value = rendered else {
                let location = catalog.bundles[locale]?.message(key)?.location ?? .start(of: catalog.displayRoot)
                diagnostics.append(Diagnostic(.error, "'\(key)' is not valid ICU MessageFormat; run `livery validate`", at: location, rule: InterchangeRule.icuSyntax))
                continue
            }
            switch value {
            case .plural(let variants):
                writer.beginPlurals(name: name)
                for variant in variants { writer.item(quantity: variant.category, text: variant.text) }
                writer.endPlurals()
            case .form(.text(let text)):
                if signature.shape == .verbatim { writer.comment(verbatimComment) }
                // Without format arguments the text is never formatted, so a '%' must not read as a specifier.
                let percent = text.utf8.contains(UInt8(ascii: "%"))
                writer.string(name: name, text: text, unformatted: (!signature.formatsText || signature.shape == .verbatim) && percent)
            case .form(.plural), .form(.substituted):
                break  // plural forms arrive as `.plural` variants; Android signatures are never substituted
            }
        }
        if diagnostics.contains(where: { $0.severity == .error }) { return InterchangeResult(value: nil, diagnostics: diagnostics) }
        guard let data = writer.finish() else {
            return InterchangeResult(value: nil, diagnostics: [Diagnostic(.error, "libxml2 could not create a document", at: .start(of: catalog.displayRoot), rule: InterchangeRule.io)])
        }
        return InterchangeResult(value: data, diagnostics: diagnostics)
    }

    /// The values of a `strings.xml` for `locale`, checked for structure, names and escaping.
    public static func read(_ bytes: [UInt8], file: String, locale: String, catalog: LocaleCatalog) -> InterchangeResult<[ImportedValue]> {
        let root: ParsedXML
        switch XMLReading.parse(bytes, file: file) {
        case .success(let parsed): root = parsed
        case .failure(let diagnostic): return InterchangeResult(value: nil, diagnostics: [diagnostic])
        }
        let lines = LineIndex(bytes)
        func at(_ element: ParsedXML) -> SourceLocation { lines.location(of: element.name, line: element.line, file: file) }
        guard root.name == "resources", root.namespace == nil else {
            return InterchangeResult(value: nil, diagnostics: [Diagnostic(.error, "not an Android resources file: the root element is <\(root.name)>, expected <resources>",
                                                                          at: at(root), rule: InterchangeRule.syntax)])
        }
        var keysByName: [String: String] = [:]
        for key in catalog.keys { keysByName[AndroidResources.name(of: key)] = key }
        var diagnostics: [Diagnostic] = []
        var values: [ImportedValue] = []
        var seen: [String: Int] = [:]
        for element in root.elements {
            guard element.name == "string" || element.name == "plurals" else {
                diagnostics.append(Diagnostic(.error, "<\(element.name)> resources are not supported; only <string> and <plurals> map to locale messages",
                                              at: at(element), rule: InterchangeRule.format))
                continue
            }
            guard let name = element.attribute("name") else {
                diagnostics.append(Diagnostic(.error, "<\(element.name)> has no name", at: at(element), rule: InterchangeRule.syntax))
                continue
            }
            if element.attribute("translatable") == "false" { continue }
            // A name is only ever looked up among the tenant's keys, never used as a path.
            guard let key = keysByName[name] else {
                diagnostics.append(Diagnostic(.error, "'\(name)' is not the resource name of any key of \(catalog.tenantID)", at: at(element),
                                              rule: InterchangeRule.unknownKey, hint: DidYouMean.hint(for: name, among: keysByName.keys)))
                continue
            }
            if let first = seen[name] {
                diagnostics.append(Diagnostic(.error, "resource '\(name)' appears twice (first on line \(first))", at: at(element), rule: InterchangeRule.duplicateKey))
                continue
            }
            seen[name] = element.line
            if element.name == "string" {
                if let text = content(element, at: at(element), diagnostics: &diagnostics) {
                    values.append(ImportedValue(locale: locale, key: key, form: .text(text), location: at(element), verbatimText: false))
                }
                continue
            }
            var items: [String: String] = [:]
            var broken = false
            for item in element.elements {
                guard item.name == "item", let quantity = item.attribute("quantity"), PluralCategory(rawValue: quantity) != nil else {
                    diagnostics.append(Diagnostic(.error, "<plurals> holds <item quantity=\"zero|one|two|few|many|other\"> only", at: at(item), rule: InterchangeRule.syntax))
                    broken = true
                    continue
                }
                if items[quantity] != nil {
                    diagnostics.append(Diagnostic(.error, "quantity '\(quantity)' appears twice in '\(name)'", at: at(item), rule: InterchangeRule.duplicateKey))
                    broken = true
                }
                if let text = content(item, at: at(item), diagnostics: &diagnostics) { items[quantity] = text } else { broken = true }
            }
            if !broken { values.append(ImportedValue(locale: locale, key: key, form: .plural(items), location: at(element), verbatimText: false)) }
        }
        return InterchangeResult(value: diagnostics.contains { $0.severity == .error } ? nil : values, diagnostics: diagnostics)
    }

    /// An element's text with Android escapes resolved; `<xliff:g>` wrappers (from translation tools) are read through.
    private static func content(_ element: ParsedXML, at location: SourceLocation, diagnostics: inout [Diagnostic]) -> String? {
        var raw = ""
        for child in element.children {
            switch child {
            case .text(let text): raw += text
            case .element(let inner) where inner.name == "g" && inner.namespace == "urn:oasis:names:tc:xliff:document:1.2" && inner.elements.isEmpty:
                raw += inner.text
            case .element(let inner):
                diagnostics.append(Diagnostic(.error, "markup <\(inner.name)> inside a string is not supported", at: location, rule: InterchangeRule.format))
                return nil
            }
        }
        switch AndroidResources.unescape(raw) {
        case .success(let text): return text
        case .failure(let error):
            diagnostics.append(Diagnostic(.error, error.message, at: location, rule: InterchangeRule.format))
            return nil
        }
    }
}
