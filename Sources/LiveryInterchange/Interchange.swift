import Foundation
import LiveryDiagnostics

/// `livery l10n export` and `import` as library calls: a tenant's locale files to and from one format.
public enum Interchange {
    /// Files larger than this are refused before parsing (interchange files are text of a few hundred KiB).
    public static let maxFileBytes = 16 << 20

    /// The file for `format`: XLIFF and Android need a `locale` (Android defaults to the default locale);
    /// a String Catalog holds every supported locale unless `locale` picks one (with the source language).
    public static func export(_ catalog: LocaleCatalog, format: InterchangeFormat, locale: String?) -> InterchangeResult<Data> {
        if let locale, !catalog.locales.contains(locale) {
            return InterchangeResult(value: nil, diagnostics: [Diagnostic(.error, "'\(locale)' is not a supported locale of \(catalog.tenantID) (\(catalog.locales.joined(separator: ", ")))",
                                                                          at: .start(of: catalog.displayRoot + "/tenant.yaml"), rule: InterchangeRule.language)])
        }
        switch format {
        case .xliff:
            let target = locale ?? catalog.locales.first { $0 != catalog.defaultLocale } ?? catalog.defaultLocale
            return XLIFFFormat.export(catalog, target: target)
        case .xcstrings:
            return StringCatalogFormat.export(catalog, locales: locale.map { [catalog.defaultLocale, $0] })
        case .android:
            return AndroidFormat.export(catalog, locale: locale ?? catalog.defaultLocale)
        }
    }

    /// Reads `url` as `format` and writes the changed messages into the tenant's locale files, all or nothing.
    ///
    /// For Android the locale comes from `locale` or else from the file's `values…` folder.
    public static func importFile(_ url: URL, displayPath: String, format: InterchangeFormat, locale: String?, into catalog: LocaleCatalog,
                                  dryRun: Bool = false) -> InterchangeResult<ImportSummary> {
        let bytes: [UInt8]
        switch read(url, displayPath: displayPath) {
        case .success(let data): bytes = data
        case .failure(let diagnostic): return InterchangeResult(value: nil, diagnostics: [diagnostic])
        }
        let values: InterchangeResult<[ImportedValue]>
        let flavor: PlatformFlavor?
        switch format {
        case .xliff:
            values = XLIFFFormat.read(bytes, file: displayPath, catalog: catalog)
            flavor = nil
        case .xcstrings:
            values = StringCatalogFormat.read(String(decoding: bytes, as: UTF8.self), file: displayPath, catalog: catalog)
            flavor = .apple
        case .android:
            let folder = url.deletingLastPathComponent().lastPathComponent
            let target: String
            if let locale {
                target = locale
            } else if let found = AndroidResources.locale(ofFolder: folder) {
                target = found.flatMap { name in catalog.locales.first { XLIFFFormat.sameLocale($0, name) } ?? name } ?? catalog.defaultLocale
            } else {
                return InterchangeResult(value: nil, diagnostics: [Diagnostic(.error, "cannot tell the locale of '\(displayPath)': its folder '\(folder)' is not values or values-<locale>",
                                                                              at: .start(of: displayPath), rule: InterchangeRule.language, hint: "pass --locale")])
            }
            values = AndroidFormat.read(bytes, file: displayPath, locale: target, catalog: catalog)
            flavor = .android
        }
        guard let found = values.value, !values.failed else { return InterchangeResult(value: nil, diagnostics: values.diagnostics) }
        let applied = LocaleImport.apply(found, to: catalog, flavor: flavor, dryRun: dryRun)
        return InterchangeResult(value: applied.value, diagnostics: values.diagnostics + applied.diagnostics)
    }

    /// The file's bytes, refusing anything over `maxFileBytes` without reading the rest, and anything not UTF-8.
    static func read(_ url: URL, displayPath: String) -> Result<[UInt8], Diagnostic> {
        guard let handle = try? FileHandle(forReadingFrom: url) else {
            return .failure(Diagnostic(.error, "cannot read '\(displayPath)'", at: .start(of: displayPath), rule: InterchangeRule.io))
        }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: maxFileBytes + 1)) ?? Data()
        guard data.count <= maxFileBytes else {
            return .failure(Diagnostic(.error, "file is larger than \(maxFileBytes >> 20) MiB; interchange files are refused beyond that",
                                       at: .start(of: displayPath), rule: InterchangeRule.unsafe))
        }
        var bytes = Array(data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        guard String(validating: bytes, as: UTF8.self) != nil else {
            return .failure(Diagnostic(.error, "file is not UTF-8 text", at: .start(of: displayPath), rule: InterchangeRule.syntax))
        }
        return .success(bytes)
    }
}
