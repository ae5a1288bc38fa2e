import Foundation
import LiveryInterchange
import LiveryResolve

/// The generated platform string files of a release: each locale bundle carries its locale's String
/// Catalog and Android `strings.xml`, made from the merged locale bundles (inherited keys included).
///
/// Per locale, not one catalog in `core`, so that changing one string rebuilds only its locale bundle.
struct PlatformStrings {
    private let catalog: LocaleCatalog?

    init(_ tenant: ResolvedTenant) {
        guard let defaultLocale = tenant.defaultLocale, tenant.locales[defaultLocale] != nil else {
            catalog = nil
            return
        }
        let locales = tenant.supportedLocales.filter { tenant.locales[$0] != nil }
        // The app's string files leave out the store listing text (store.*): no app shows it.
        let bundles = tenant.locales.mapValues { bundle in
            guard bundle.messages.contains(where: { StoreField.isListingKey($0.key) }) else { return bundle }
            var appText = bundle
            appText.messages.removeAll { StoreField.isListingKey($0.key) }
            return appText
        }
        catalog = LocaleCatalog(tenantID: tenant.source.id, defaultLocale: defaultLocale, locales: locales, bundles: bundles,
                                displayRoot: tenant.source.displayRoot)
    }

    /// `platform/ios/<locale>/Localizable.xcstrings` and `platform/android/values…/strings.xml` for the bundle of `locale`.
    func entries(for locale: String) throws -> [BundleEntry] {
        guard let catalog, catalog.locales.contains(locale) else { return [] }
        let folder = AndroidResources.folder(of: locale, defaultLocale: catalog.defaultLocale)
        return [
            BundleEntry(path: "platform/ios/\(locale)/Localizable.xcstrings", data: try Self.data(StringCatalogFormat.export(catalog, locales: [locale]))),
            BundleEntry(path: "platform/android/\(folder)/strings.xml", data: try Self.data(AndroidFormat.export(catalog, locale: locale))),
        ]
    }

    private static func data(_ result: InterchangeResult<Data>) throws -> Data {
        guard let data = result.value, !result.failed else {
            let first = result.diagnostics.first { $0.severity == .error }
            throw BundlePlanner.Failure(description: (first?.line ?? "platform string files could not be generated") + " (run `livery validate`)")
        }
        return data
    }
}
