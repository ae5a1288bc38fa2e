import Crypto
import Foundation
import LiveryLoad
import LiveryResolve
import LiveryReleaseFormat
import LiveryRender

/// The generated file of a release's locale bundle: the locale's messages as JSON (`locales/<locale>.json`,
/// what an app reads at run time), from the merged locale bundles (inherited keys included) without the store
/// listing text (store.*), which no app shows.
///
/// The String Catalog and Android `strings.xml` an app project compiles are not in releases: `livery generate`
/// writes them (`PlatformStringFiles`), since neither platform loads them from a download.
/// Per locale, not one catalog in `core`, so that changing one string rebuilds only its locale bundle.
struct LocaleFiles: Sendable {
    /// The merged locale bundles without the store listing text (store.*): no app shows it.
    private let bundles: [String: LocaleBundle]
    /// A digest of everything the files are made from (`GeneratedFileMemo`); nil without a memo.
    private let inputs: SHA256.Digest?

    init(_ tenant: ResolvedTenant, memo: GeneratedFileMemo? = nil) {
        bundles = PlatformStringFiles.appText(tenant)
        inputs = memo == nil ? nil : Self.digest(bundles: bundles)
    }

    /// The locale's generated files: remembered from a tenant of this build with the same inputs, or made now.
    func files(for locale: String, memo: GeneratedFileMemo?) throws -> [BundleEntry] {
        guard let memo, let inputs else { return try make(locale) }
        let key = GeneratedFileMemo.Key(inputs: inputs, locale: locale)
        if let made = memo.files(key) {
            // Made again only if an archive holding it must be written after all (one file per locale: no other entry
            // of the bundle would make it too).
            return made.map { file in
                BundleEntry(path: file.path, sha256: file.sha256, size: file.size) { [self] in
                    guard let bytes = try make(locale).first(where: { $0.path == file.path })?.bytes() else {
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

    /// `locales/<locale>.json`.
    private func make(_ locale: String) throws -> [BundleEntry] {
        guard let bundle = bundles[locale] else { return [] }
        return [BundleEntry(path: "locales/\(locale).json",
                            data: JSONValue.stringObjectBytes(keys: bundle.messages.map(\.key), values: bundle.messages.map(\.text)))]
    }

    /// What `make` reads, and nothing else (not the tenant's id or folder): every bundle's locale, keys and
    /// texts in order. Each string is length-prefixed, so no two different inputs give the same bytes to hash.
    static func digest(bundles: [String: LocaleBundle]) -> SHA256.Digest {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(bundles.values.reduce(64) { $0 + $1.messages.count * 96 })
        func append(_ string: String) {
            var count = UInt32(string.utf8.count).littleEndian
            withUnsafeBytes(of: &count) { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: string.utf8)
        }
        append("livery-locale-files-2")
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
