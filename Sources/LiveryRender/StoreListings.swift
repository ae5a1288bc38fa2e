import Foundation
import LiveryResolve

/// A brand's store listings in fastlane's metadata layout (docs/store-listings.md):
/// `fastlane/metadata/ios/<App Store locale>/` for `deliver` and `fastlane/metadata/android/<Play
/// locale>/` for `supply`. Brands without a store.yaml, and creators, get none.
///
/// deliver's own default is the `metadata/` folder itself, but it refuses a folder there that is not
/// an App Store locale ("Unsupported directory name(s)"), so `android/` beside the App Store locales
/// would stop it: each store gets a folder of its own, passed as `metadata_path`.
public enum StoreListings {
    public static let folder = "fastlane/metadata"
    public static let appStoreFolder = folder + "/ios"
    public static let googlePlayFolder = folder + "/android"

    /// Whether `path` among the platform files is a listing file: `livery build` leaves them out of
    /// core bundles (they are for release pipelines, as the build settings).
    public static func isStoreListing(_ path: String) -> Bool { path.hasPrefix(folder + "/") }

    /// Every listing file of `tenant`, in path order. Text is written as the store takes it: UTF-8,
    /// without a line break added at the end. A locale a store has no code for is left out of it.
    public static func files(_ tenant: ResolvedTenant) -> [GeneratedFile] {
        guard let listing = StoreListing.of(tenant) else { return [] }
        var files: [GeneratedFile] = []
        for store in listing.stores {
            for locale in listing.locales {
                guard let code = locale.code(in: store) else { continue }
                let base = (store == .appStore ? appStoreFolder : googlePlayFolder) + "/" + code + "/"
                for field in StoreField.all where field.store == store {
                    guard let text = listing.text(field, in: locale.locale)?.text, !text.isEmpty else { continue }
                    files.append(GeneratedFile(path: base + listing.file(of: field), contents: Data(text.utf8)))
                }
                // deliver reads the URLs per locale (they are localisable in App Store Connect); Google
                // Play has no listing field for them: its privacy policy is set on the App content page.
                if store == .appStore {
                    for (name, file) in [("privacy", "privacy_url.txt"), ("support", "support_url.txt"), ("marketing", "marketing_url.txt")] {
                        if let url = listing.url(name) { files.append(GeneratedFile(path: base + file, contents: Data(url.utf8))) }
                    }
                }
            }
        }
        return files.sorted { Array($0.path.utf8).lexicographicallyPrecedes(Array($1.path.utf8)) }
    }
}
