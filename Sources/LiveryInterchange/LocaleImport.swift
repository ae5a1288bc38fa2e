import Foundation
import LiveryDiagnostics
import LiveryLoad

/// One value read from an interchange file: a key's message in a locale, in the file's platform form.
public struct ImportedValue: Sendable {
    public var locale: String
    public var key: String
    public var form: PlatformForm
    /// Where the value starts in the imported file.
    public var location: SourceLocation
    /// True when the value is ICU text copied into the file character for character (XLIFF), so ICU positions map onto the file.
    public var verbatimText: Bool

    public init(locale: String, key: String, form: PlatformForm, location: SourceLocation, verbatimText: Bool) {
        self.locale = locale
        self.key = key
        self.form = form
        self.location = location
        self.verbatimText = verbatimText
    }
}

/// What an import changed: keys per locale and the files written.
public struct ImportSummary: Sendable {
    public var changed: [(locale: String, key: String)] = []
    public var filesWritten: [String] = []
}

/// Applies imported values to a tenant's locale files: validate everything, then write all files or none.
///
/// A value whose platform form equals the form of the message already in the YAML file is left alone,
/// so exporting and importing without edits changes no byte; only changed values are converted back
/// to ICU, checked and written (in place, by `LocaleFileEditor`).
public enum LocaleImport {
    public static func apply(_ values: [ImportedValue], to catalog: LocaleCatalog, flavor: PlatformFlavor?, dryRun: Bool = false) -> InterchangeResult<ImportSummary> {
        var diagnostics: [Diagnostic] = []
        var changes: [String: [(key: String, value: String)]] = [:]
        let sourceKeys = catalog.bundles[catalog.defaultLocale]?.keys ?? []
        var signatures: [String: PlatformSignature] = [:]
        for value in values {
            guard let text = changedText(value, in: catalog, sourceKeys: sourceKeys, flavor: flavor, signatures: &signatures, &diagnostics) else { continue }
            changes[value.locale, default: []].append((value.key, text))
        }
        var summary = ImportSummary()
        if diagnostics.contains(where: { $0.severity == .error }) { return InterchangeResult(value: nil, diagnostics: diagnostics) }
        guard let folder = catalog.folder else { return InterchangeResult(value: summary, diagnostics: diagnostics) }
        var files = AtomicFileSet()
        for locale in catalog.locales {
            guard let edits = changes[locale], !edits.isEmpty,
                  let (url, display, newText) = editedFile(of: locale, edits, in: catalog, folder: folder, &diagnostics) else { continue }
            files.add(Data(newText.utf8), at: url)
            summary.filesWritten.append(display)
            summary.changed += edits.map { (locale, $0.key) }
        }
        if diagnostics.contains(where: { $0.severity == .error }) { return InterchangeResult(value: nil, diagnostics: diagnostics) }
        if !dryRun {
            do { try files.commit() } catch {
                diagnostics.append(Diagnostic(.error, "cannot write '\(error.path)': \(error.reason); no file was changed", at: .start(of: error.path), rule: InterchangeRule.io))
                return InterchangeResult(value: nil, diagnostics: diagnostics)
            }
        }
        return InterchangeResult(value: summary, diagnostics: diagnostics)
    }

    /// The ICU text of an imported value that changes its message, checked; nil (with the finding, if any) for a value
    /// of an unknown locale or key, one whose form does not convert back, and one equal to the message already there.
    /// `sourceKeys` are the default locale's keys.
    private static func changedText(_ value: ImportedValue, in catalog: LocaleCatalog, sourceKeys: Set<String>, flavor: PlatformFlavor?,
                                    signatures: inout [String: PlatformSignature], _ diagnostics: inout [Diagnostic]) -> String? {
        guard catalog.locales.contains(value.locale) else {
            diagnostics.append(Diagnostic(.error, "locale '\(value.locale)' is not one of the tenant's supported locales (\(catalog.locales.joined(separator: ", ")))",
                                          at: value.location, rule: InterchangeRule.language, hint: "add it to locales.supported in tenant.yaml first"))
            return nil
        }
        let known = sourceKeys.contains(value.key) || catalog.bundles[value.locale]?.message(value.key) != nil
        guard known else {
            diagnostics.append(Diagnostic(.error, "'\(value.key)' is not a key of the default locale (\(catalog.defaultLocale))", at: value.location,
                                          rule: InterchangeRule.unknownKey, hint: DidYouMean.hint(for: value.key, among: sourceKeys)))
            return nil
        }
        let signature: PlatformSignature
        if let flavor {
            if let cached = signatures[value.key] { signature = cached } else {
                signature = PlatformSignature.of(value.key, in: catalog, flavor: flavor)
                signatures[value.key] = signature
            }
        } else {
            signature = PlatformSignature(shape: .verbatim, slots: [], pluralArgument: nil, flavor: .apple)
        }
        let current = catalog.text(value.key, in: value.locale)
        if let current, PlatformRenderer.render(current, signature: signature, locale: value.locale) == value.form { return nil }
        let text: String
        switch ICUReconstruction.icu(from: value.form, signature: signature) {
        case .success(let icu): text = icu
        case .failure(let problem):
            let part = problem.part.map { " (in '\($0)')" } ?? ""
            diagnostics.append(Diagnostic(.error, "'\(value.key)'\(part): \(problem.message)", at: value.location, rule: InterchangeRule.format))
            return nil
        }
        if text == current { return nil }
        let source = value.locale == catalog.defaultLocale ? nil : catalog.text(value.key, in: catalog.defaultLocale)
        diagnostics += MessageChecks.check(text, key: value.key, locale: value.locale, source: source, at: value.location,
                                           textIsVerbatim: value.verbatimText && signature.shape == .verbatim)
        return text
    }

    /// The new text of a locale's file with `edits` applied: the YAML file edited in place, or a new file with the
    /// edited keys in the catalog's order; nil (with the finding) when the file does not read or edit.
    private static func editedFile(of locale: String, _ edits: [(key: String, value: String)], in catalog: LocaleCatalog, folder: URL,
                                   _ diagnostics: inout [Diagnostic]) -> (url: URL, display: String, text: String)? {
        let relative = catalog.relativePath(of: locale)
        let display = catalog.displayRoot + "/" + relative
        let url = folder.appendingPathComponent(relative)
        var expected: [String: String] = [:]
        for message in catalog.bundles[locale]?.messages ?? [] { expected[message.key] = message.text }
        for (key, text) in edits { expected[key] = text }
        guard catalog.bundles[locale] != nil else {
            let order = catalog.keys
            return (url, display, LocaleFileEditor.create(edits.sorted { (order.firstIndex(of: $0.key) ?? .max) < (order.firstIndex(of: $1.key) ?? .max) }))
        }
        guard case .success(let old) = SourceText.read(url, displayPath: display) else {
            diagnostics.append(Diagnostic(.error, "cannot read the locale file", at: .start(of: display), rule: InterchangeRule.io))
            return nil
        }
        // SourceText drops a byte order mark; keep it, so an edit changes only the edited values.
        let bom = (try? FileHandle(forReadingFrom: url).read(upToCount: 3)).map { $0 == Data([0xEF, 0xBB, 0xBF]) } ?? false
        switch LocaleFileEditor.edit(old, file: display, changes: edits, expected: expected) {
        case .success(let edited): return (url, display, (bom ? "\u{FEFF}" : "") + edited)
        case .failure(let diagnostic):
            diagnostics.append(diagnostic)
            return nil
        }
    }
}
