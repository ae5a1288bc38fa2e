import Foundation
import LiveryDiagnostics
import LiveryLoad

/// The locale bundles of one tenant as interchange sees them: its own files, default locale first.
///
/// Only the tenant's own `locales/*.yaml` are exported and imported: a creator that `extends` a
/// base exchanges the keys it writes itself, and the base's keys are exchanged from the base's folder.
public struct LocaleCatalog: Sendable {
    public var tenantID: String
    public var defaultLocale: String
    /// The supported locales in the order `tenant.yaml` lists them (the default is always included).
    public var locales: [String] { didSet { signatures = SignatureCache() } }
    public var bundles: [String: LocaleBundle] { didSet { signatures = SignatureCache() } }
    /// Each key's platform signature per flavour: every locale's export asks for every key's, and
    /// each one parses that key's message in every locale. Reset whenever the bundles or locales change.
    var signatures = SignatureCache()
    /// The tenant folder, when the catalog was loaded from disk (nil for a catalog built in memory).
    public var folder: URL?
    /// The tenant folder as diagnostics show it.
    public var displayRoot: String

    public init(tenantID: String, defaultLocale: String, locales: [String], bundles: [String: LocaleBundle], folder: URL? = nil, displayRoot: String = "") {
        self.tenantID = tenantID
        self.defaultLocale = defaultLocale
        var ordered = locales.contains(defaultLocale) ? locales : [defaultLocale] + locales
        var seen = Set<String>()
        ordered = ordered.filter { seen.insert($0).inserted }
        self.locales = ordered
        self.bundles = bundles
        self.folder = folder
        self.displayRoot = displayRoot
    }

    /// Every key: the default locale's in file order, then keys only other locales have, in locale and file order.
    public var keys: [String] {
        var seen = Set<String>()
        var out: [String] = []
        for locale in locales {
            for message in bundles[locale]?.messages ?? [] where seen.insert(message.key).inserted { out.append(message.key) }
        }
        return out
    }

    /// The text of `key` in `locale`, if that bundle has it.
    public func text(_ key: String, in locale: String) -> String? { bundles[locale]?.message(key)?.text }

    /// The relative path of a locale's file: the existing one, or `locales/<locale>.yaml` for a new one.
    public func relativePath(of locale: String) -> String {
        if let file = bundles[locale]?.file, file.hasPrefix(displayRoot + "/") { return String(file.dropFirst(displayRoot.count + 1)) }
        return "locales/\(locale).yaml"
    }

    /// Loads a tenant folder's locale bundles; errors in `tenant.yaml` or a locale file stop the load.
    public static func load(_ folder: URL, displayRoot: String? = nil) -> InterchangeResult<LocaleCatalog> {
        let display = displayRoot ?? folder.path
        let source = TenantLoader.load(folder, displayRoot: display)
        let relevant = source.diagnostics.filter { d in
            d.location.file.hasPrefix(display + "/locales/") || d.location.file.hasPrefix(display + "/tenant.")
        }
        if relevant.contains(where: { $0.severity == .error }) { return InterchangeResult(value: nil, diagnostics: relevant) }
        guard let tenant = source.tenant else {
            return InterchangeResult(value: nil, diagnostics: [Diagnostic(.error, "no tenant manifest: expected tenant.yaml in '\(display)'",
                                                                         at: .start(of: display + "/tenant.yaml"), rule: InterchangeRule.io)])
        }
        guard let defaultLocale = tenant.node["locales"]?["default"]?.string else {
            return InterchangeResult(value: nil, diagnostics: [Diagnostic(.error, "tenant.yaml names no default locale (locales.default)",
                                                                         at: tenant.node.location, rule: InterchangeRule.language,
                                                                         hint: "add `locales: {default: en, supported: [en]}` to tenant.yaml")])
        }
        let supported = tenant.node["locales"]?["supported"]?.items?.compactMap(\.string) ?? []
        var bundles: [String: LocaleBundle] = [:]
        let diagnostics = relevant
        // The loader flattened each bundle; its findings are among `relevant`.
        for bundle in source.manifests(.locale).compactMap(\.localeBundle) { bundles[bundle.locale] = bundle }
        if diagnostics.contains(where: { $0.severity == .error }) { return InterchangeResult(value: nil, diagnostics: diagnostics) }
        let catalog = LocaleCatalog(tenantID: source.id, defaultLocale: defaultLocale, locales: supported, bundles: bundles, folder: folder, displayRoot: display)
        return InterchangeResult(value: catalog, diagnostics: diagnostics)
    }
}

/// Memoised `PlatformSignature`s of one catalog (shared by its copies, which have the same bundles).
final class SignatureCache: @unchecked Sendable {
    // The lock guards `values`.
    private let lock = NSLock()
    private var values: [String: PlatformSignature] = [:]

    func value(_ key: String, _ flavor: PlatformFlavor, _ make: () -> PlatformSignature) -> PlatformSignature {
        let id = "\(flavor)|\(key)"
        if let stored = lock.withLock({ values[id] }) { return stored }
        let made = make()
        lock.withLock { values[id] = made }
        return made
    }
}
