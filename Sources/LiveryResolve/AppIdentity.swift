import LiveryL10n
import LiveryLoad

/// A brand's app identity as its build settings need it: store identifiers, version, and the name
/// under the icon in every supported locale. Read from the merged `app:` of `tenant.yaml`.
///
/// `app.displayName` is a **message key** when the default locale's bundle has a message with
/// exactly that key (then every locale's display name is that locale's message); otherwise it is a
/// literal, the same in every locale. A display name must be plain text: a message with arguments
/// or selections cannot stand under an icon (`structure.app-identity` reports it).
public struct AppIdentity: Sendable, Equatable {
    public var iosBundleID: String?
    public var androidApplicationID: String?
    /// `app.version`: the version people see (`MARKETING_VERSION`, `versionName`), X.Y.Z.
    public var version: String?
    /// `app.build`: the build number (`CURRENT_PROJECT_VERSION`, `versionCode`).
    public var build: Int?
    /// `app.android.minSdk`: the oldest Android API level the app runs on, when the tenant declares it.
    public var androidMinSdk: Int? = nil
    /// The display name of the default locale (a literal, or the default locale's message).
    public var displayName: String
    /// The message key of the display name; nil when `app.displayName` is a literal.
    public var displayNameKey: String?
    /// Every supported locale (default first, then as listed) with its display name.
    public var localizedNames: [(locale: String, name: String)]
    public var defaultLocale: String

    public static func == (lhs: AppIdentity, rhs: AppIdentity) -> Bool {
        lhs.iosBundleID == rhs.iosBundleID && lhs.androidApplicationID == rhs.androidApplicationID && lhs.version == rhs.version
            && lhs.build == rhs.build && lhs.androidMinSdk == rhs.androidMinSdk && lhs.displayName == rhs.displayName && lhs.displayNameKey == rhs.displayNameKey
            && lhs.defaultLocale == rhs.defaultLocale && lhs.localizedNames.map(\.locale) == rhs.localizedNames.map(\.locale)
            && lhs.localizedNames.map(\.name) == rhs.localizedNames.map(\.name)
    }

    /// The identity of a brand with an `app:`; nil for creators (they ship inside a platform app)
    /// and for brands without one. Display names that are not plain text fall back to the default
    /// locale's, then to the key (validation reports them first).
    public static func of(_ tenant: ResolvedTenant) -> AppIdentity? {
        guard let manifest = tenant.tenant, manifest["kind"]?.string == "brand", let app = manifest["app"],
              let declared = app["displayName"]?.string else { return nil }
        let defaultLocale = tenant.defaultLocale ?? "en"
        let key = displayNameKey(declared, in: tenant)
        var locales = [defaultLocale]
        for locale in tenant.supportedLocales where !locales.contains(locale) { locales.append(locale) }
        func name(_ locale: String) -> String? {
            guard let key else { return declared }
            return tenant.locales[locale]?.message(key).flatMap { plainText($0.text) }
        }
        let fallback = name(defaultLocale) ?? declared
        return AppIdentity(
            iosBundleID: app["bundleIds"]?["ios"]?.string, androidApplicationID: app["bundleIds"]?["android"]?.string,
            version: app["version"]?.string, build: app["build"]?.int, androidMinSdk: app["android"]?["minSdk"]?.int, displayName: fallback, displayNameKey: key,
            localizedNames: locales.map { ($0, name($0) ?? fallback) }, defaultLocale: defaultLocale)
    }

    /// `displayName` when the default locale's bundle has a message with that key, else nil (a literal).
    public static func displayNameKey(_ displayName: String, in tenant: ResolvedTenant) -> String? {
        guard let locale = tenant.defaultLocale, tenant.locales[locale]?.message(displayName) != nil else { return nil }
        return displayName
    }

    /// The text of an ICU message that is only text (apostrophe quoting resolved); nil when it has
    /// arguments or selections, or does not parse.
    public static func plainText(_ message: String) -> String? {
        guard case .success(let parsed) = MessageFormat.parse(message) else { return nil }
        var text = ""
        for part in parsed.root.parts {
            guard case .text(let segment) = part else { return nil }
            text += segment.text
        }
        return text
    }

    /// Why `name` cannot be a display name, or nil when it can: empty, blank at an end, or holding
    /// a line break or other control character.
    public static func displayNameProblem(_ name: String) -> String? {
        if name.trimmingWhitespace.isEmpty { return "is empty" }
        if name.trimmingWhitespace != name { return "begins or ends with whitespace" }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" }) {
            return "holds a line break or control character"
        }
        return nil
    }

    /// Why `id` is not an iOS bundle identifier, or nil: Apple allows ASCII letters, digits, hyphens
    /// and periods; Livery also asks for reverse-DNS (two or more non-empty segments) and at most 155
    /// characters (App Store Connect's limit).
    public static func iosBundleIDProblem(_ id: String) -> String? {
        if id.count > 155 { return "is longer than 155 characters" }
        if let bad = id.unicodeScalars.first(where: { !($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == ".")) }) {
            return "holds '\(bad)'; a bundle identifier has only ASCII letters, digits, hyphens and periods"
        }
        let segments = id.split(separator: ".", omittingEmptySubsequences: false)
        if segments.count < 2 { return "is not reverse-DNS (it needs at least two segments, as in com.example.app)" }
        if segments.contains(where: \.isEmpty) { return "has an empty segment" }
        return nil
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let end = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[start...end])
    }
}
