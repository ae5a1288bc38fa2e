import Crypto
import Foundation
import LiveryInterchange
import LiveryLoad
import LiveryResolve
import LiveryReleaseFormat

/// The generated files of a release's locale bundles: each carries its locale's messages as JSON
/// (`locales/<locale>.json`, what the app reads) and its locale's String Catalog and Android
/// `strings.xml`, made from the merged locale bundles (inherited keys included).
///
/// Per locale, not one catalog in `core`, so that changing one string rebuilds only its locale bundle.
struct PlatformStrings: Sendable {
    /// The merged locale bundles without the store listing text (store.*): no app shows it.
    private let bundles: [String: LocaleBundle]
    private let catalog: LocaleCatalog?
    /// A digest of everything the files are made from (`GeneratedFileMemo`); nil without a memo.
    private let inputs: SHA256.Digest?

    init(_ tenant: ResolvedTenant, memo: GeneratedFileMemo? = nil) {
        bundles = tenant.locales.mapValues { bundle in
            guard bundle.messages.contains(where: { StoreField.isListingKey($0.key) }) else { return bundle }
            var appText = bundle
            appText.messages.removeAll { StoreField.isListingKey($0.key) }
            return appText
        }
        if let defaultLocale = tenant.defaultLocale, tenant.locales[defaultLocale] != nil {
            let locales = tenant.supportedLocales.filter { tenant.locales[$0] != nil }
            catalog = LocaleCatalog(tenantID: tenant.source.id, defaultLocale: defaultLocale, locales: locales, bundles: bundles,
                                    displayRoot: tenant.source.displayRoot)
        } else {
            catalog = nil
        }
        inputs = memo == nil ? nil : Self.digest(bundles: bundles, catalog: catalog)
    }

    /// The locale's generated files: remembered from a tenant of this build with the same inputs, or made now.
    func files(for locale: String, memo: GeneratedFileMemo?) throws -> [BundleEntry] {
        guard let memo, let inputs else { return try make(locale) }
        let key = GeneratedFileMemo.Key(inputs: inputs, locale: locale)
        if let made = memo.files(key) {
            // The bundle's files are made together, once, if its archive must be written after all.
            let again = MadeOnce { [self] in try make(locale) }
            return made.map { file in
                BundleEntry(path: file.path, sha256: file.sha256, size: file.size) {
                    guard let bytes = try again.entries().first(where: { $0.path == file.path })?.bytes() else {
                        throw BundleEntry.Mismatch(description: "internal error: '\(file.path)' was not generated again (please report it)")
                    }
                    return bytes
                }
            }
        }
        let entries = try make(locale)
        memo.remember(key, entries.map { GeneratedFileMemo.Made(path: $0.path, sha256: $0.sha256, size: $0.size) })
        return entries
    }

    /// `locales/<locale>.json`, `platform/ios/<locale>/Localizable.xcstrings` and
    /// `platform/android/values…/strings.xml` (the last two only for a tenant with a default locale).
    private func make(_ locale: String) throws -> [BundleEntry] {
        guard let bundle = bundles[locale] else { return [] }
        let messages = BundleEntry(path: "locales/\(locale).json",
                                   data: JSONValue.stringObjectBytes(keys: bundle.messages.map(\.key), values: bundle.messages.map(\.text)))
        guard let catalog, catalog.locales.contains(locale) else { return [messages] }
        let folder = AndroidResources.folder(of: locale, defaultLocale: catalog.defaultLocale)
        return [
            messages,
            BundleEntry(path: "platform/ios/\(locale)/Localizable.xcstrings", data: try Self.data(StringCatalogFormat.export(catalog, locales: [locale], compact: true))),
            BundleEntry(path: "platform/android/\(folder)/strings.xml", data: try Self.data(AndroidFormat.export(catalog, locale: locale))),
        ]
    }

    /// A locale's files made at most once, by whichever of its entries asks first.
    private final class MadeOnce: @unchecked Sendable {
        // The lock guards `made`.
        private let lock = NSLock()
        private var made: Result<[BundleEntry], any Error>?
        private let make: @Sendable () throws -> [BundleEntry]

        init(_ make: @escaping @Sendable () throws -> [BundleEntry]) {
            self.make = make
        }

        func entries() throws -> [BundleEntry] {
            try lock.withLock {
                if let made { return try made.get() }
                let result = Result { try make() }
                made = result
                return try result.get()
            }
        }
    }

    private static func data(_ result: InterchangeResult<Data>) throws -> Data {
        guard let data = result.value, !result.failed else {
            let first = result.diagnostics.first { $0.severity == .error }
            throw BundlePlanner.Failure(description: (first?.line ?? "platform string files could not be generated") + " (run `livery validate`)")
        }
        return data
    }

    /// What `make` reads, and nothing else (not the tenant's id or folder, which only its error
    /// messages name): whether there is a catalog, its default locale and locale order, and every
    /// bundle's locale, keys and texts in order. Each string is length-prefixed, so no two different
    /// inputs give the same bytes to hash.
    static func digest(bundles: [String: LocaleBundle], catalog: LocaleCatalog?) -> SHA256.Digest {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(bundles.values.reduce(64) { $0 + $1.messages.count * 96 })
        func append(_ string: String) {
            var count = UInt32(string.utf8.count).littleEndian
            withUnsafeBytes(of: &count) { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: string.utf8)
        }
        append("livery-locale-files-1")
        if let catalog {
            append(catalog.defaultLocale)
            append(String(catalog.locales.count))
            catalog.locales.forEach(append)
        } else {
            append("no catalog")
        }
        for locale in bundles.keys.sorted() {
            let messages = bundles[locale]?.messages ?? []
            append(locale)
            append(String(messages.count))
            for message in messages {
                append(message.key)
                append(message.text)
            }
        }
        return SHA256.hash(data: bytes)
    }
}
