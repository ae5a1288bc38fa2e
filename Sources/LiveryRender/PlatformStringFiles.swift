import Foundation
import LiveryDiagnostics
import LiveryInterchange
import LiveryLoad
import LiveryResolve

/// A tenant's messages as an app project compiles them (docs/l10n.md#for-app-builds): one String Catalog
/// with every supported locale, in Xcode's layout, and Android's `strings.xml` for each locale, made from the
/// merged locale bundles (inherited keys included) without the store listing text (`store.*`, which no app
/// shows). `livery generate` writes them beside the other files app build pipelines need.
///
/// A release's locale bundles carry the messages as JSON only (`locales/<locale>.json`), which is what an app
/// reads at run time: neither platform loads these files from a download (Xcode compiles a String Catalog into
/// the app, aapt2 compiles `strings.xml` into the APK), and they were two thirds of a locale bundle's bytes.
public enum PlatformStringFiles {
    /// `ios/Localizable.xcstrings` and `android/values…/strings.xml` (`values/` for the default locale), or the
    /// diagnostics that stop them (a key Android cannot name, a message that is not valid ICU). For a brand only: a
    /// creator runs inside its platform's app and has no app project (its strings reach the app as JSON); none for a
    /// brand without a default locale that it has messages for.
    public static func files(_ tenant: ResolvedTenant) -> (files: [GeneratedFile], diagnostics: [Diagnostic]) {
        guard tenant.tenant?["kind"]?.string == "brand", let catalog = catalog(tenant) else { return ([], []) }
        var files: [GeneratedFile] = []
        var diagnostics: [Diagnostic] = []
        func add(_ path: String, _ result: InterchangeResult<Data>) {
            diagnostics += result.diagnostics
            if let data = result.value, !result.failed { files.append(GeneratedFile(path: path, contents: data)) }
        }
        add("ios/Localizable.xcstrings", StringCatalogFormat.export(catalog))
        for locale in catalog.locales {
            add("android/\(AndroidResources.folder(of: locale, defaultLocale: catalog.defaultLocale))/strings.xml",
                AndroidFormat.export(catalog, locale: locale))
        }
        // An error in one file stops them all: an app project gets every locale's strings or none.
        guard !diagnostics.contains(where: { $0.severity == .error }) else { return ([], diagnostics) }
        return (files, diagnostics)
    }

    /// The tenant's merged locale bundles without the store listing text (store.*, docs/store-listings.md), which no
    /// app shows: what these files and a release's `locales/<locale>.json` are made from.
    public static func appText(_ tenant: ResolvedTenant) -> [String: LocaleBundle] {
        tenant.locales.mapValues { bundle in
            guard bundle.messages.contains(where: { StoreField.isListingKey($0.key) }) else { return bundle }
            var appText = bundle
            appText.messages.removeAll { StoreField.isListingKey($0.key) }
            return appText
        }
    }

    /// The tenant's supported locales that have a bundle, as `appText`.
    static func catalog(_ tenant: ResolvedTenant) -> LocaleCatalog? {
        guard let defaultLocale = tenant.defaultLocale, tenant.locales[defaultLocale] != nil else { return nil }
        return LocaleCatalog(tenantID: tenant.source.id, defaultLocale: defaultLocale,
                             locales: tenant.supportedLocales.filter { tenant.locales[$0] != nil }, bundles: appText(tenant),
                             displayRoot: tenant.source.displayRoot)
    }
}
