import Foundation
import LiveryInterchange
import LiveryResolve

/// A brand's build settings (`AppIdentity`), in the forms app builds include: `ios/Tenant.xcconfig`,
/// `ios/<locale>.lproj/InfoPlist.strings`, `android/tenant.gradle.properties` and
/// `android/values…/app_name.xml`. Creators and brands without `app:` get none.
public enum BuildSettings {
    /// The folders of build-settings files among the platform files: `livery build` leaves them out of
    /// core bundles (they are for build pipelines, as the colour assets).
    public static func isBuildSetting(_ path: String) -> Bool {
        path == xcconfig || path == gradleProperties || path.hasPrefix("ios/") && path.hasSuffix(".lproj/InfoPlist.strings")
            || path.hasPrefix("android/values") && path.hasSuffix("/app_name.xml")
    }

    public static let xcconfig = "ios/Tenant.xcconfig"
    public static let gradleProperties = "android/tenant.gradle.properties"
    /// The app icon set the xcconfig names (`AppIcon.appiconset`, issue 15 item 1).
    public static let appIconName = "AppIcon"

    /// Every build-settings file of `tenant`, in path order.
    public static func files(_ tenant: ResolvedTenant) -> [GeneratedFile] {
        guard let identity = AppIdentity.of(tenant) else { return [] }
        var files = [
            GeneratedFile(path: xcconfig, contents: Data(xcconfigText(identity, tenant: tenant.id).utf8)),
            GeneratedFile(path: gradleProperties, contents: Data(propertiesText(identity, tenant: tenant.id).utf8)),
        ]
        for (locale, name) in identity.localizedNames {
            files.append(GeneratedFile(path: "ios/\(lproj(locale))/InfoPlist.strings", contents: Data(infoPlistStrings(name).utf8)))
            let folder = AndroidResources.folder(of: locale, defaultLocale: identity.defaultLocale)
            if let xml = AndroidFormat.stringResource(name: "app_name", text: name) {
                files.append(GeneratedFile(path: "android/\(folder)/app_name.xml", contents: xml))
            }
        }
        return files.sorted { $0.path < $1.path }
    }

    /// `en.lproj`, `pt-BR.lproj`, `zh-Hans.lproj`: Apple names localisation folders by BCP 47 tag.
    static func lproj(_ locale: String) -> String {
        locale.replacingOccurrences(of: "_", with: "-") + ".lproj"
    }

    // MARK: iOS

    static func xcconfigText(_ identity: AppIdentity, tenant: String) -> String {
        var lines = ["// Build settings of the tenant \(tenant), written by livery from its tenant.yaml; do not edit.",
                     "// Base the app target's configuration on this file, or #include it from the one you use.",
                     ""]
        if let id = identity.iosBundleID { lines.append("PRODUCT_BUNDLE_IDENTIFIER = \(xcconfigValue(id))") }
        lines.append("INFOPLIST_KEY_CFBundleDisplayName = \(xcconfigValue(identity.displayName))")
        if let version = identity.version { lines.append("MARKETING_VERSION = \(xcconfigValue(version))") }
        if let build = identity.build { lines.append("CURRENT_PROJECT_VERSION = \(build)") }
        lines.append("ASSETCATALOG_COMPILER_APPICON_NAME = \(appIconName)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A value as an xcconfig file reads it back: `//` would start a comment anywhere on the line
    /// (written `/$()/`: `$()` expands to nothing), `$` would start a reference (written `$(DOLLAR)`,
    /// the build setting Xcode defines as `$`), and blanks at either end would be trimmed (kept by
    /// an empty `$()` outside them). A line break cannot be written; it becomes a space
    /// (`structure.app-identity` reports display names holding one).
    public static func xcconfigValue(_ value: String) -> String {
        var out = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "$": out += "$(DOLLAR)"
            case "/" where out.hasSuffix("/"): out += "$()/"
            case "\n", "\r", "\u{2028}", "\u{2029}": out += " "
            default: out.unicodeScalars.append(scalar)
            }
        }
        if out.first?.isWhitespace == true { out = "$()" + out }
        if out.last?.isWhitespace == true { out += "$()" }
        return out
    }

    /// `InfoPlist.strings` of one locale: the name under the icon and the bundle's short name.
    static func infoPlistStrings(_ name: String) -> String {
        "/* Display name, written by livery from app.displayName; do not edit. */\n"
            + "\"CFBundleDisplayName\" = \"\(stringsLiteral(name))\";\n"
            + "\"CFBundleName\" = \"\(stringsLiteral(name))\";\n"
    }

    /// Text as a quoted `.strings` literal: backslash, quote and control characters escaped.
    public static func stringsLiteral(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += String(format: "\\U%04X", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    // MARK: Android

    static func propertiesText(_ identity: AppIdentity, tenant: String) -> String {
        var lines = ["# Build settings of the tenant \(tenant), written by livery from its tenant.yaml; do not edit.",
                     "# Read it in the app's build.gradle(.kts) and set defaultConfig or a product flavour (docs/build-settings.md)."]
        if let id = identity.androidApplicationID { lines.append("applicationId=\(propertiesValue(id))") }
        if let version = identity.version { lines.append("versionName=\(propertiesValue(version))") }
        if let build = identity.build { lines.append("versionCode=\(build)") }
        // The level compose/Theme.kt's API checks assume: the app's build takes it from the same place.
        if let minSdk = identity.androidMinSdk { lines.append("minSdk=\(minSdk)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A value as `java.util.Properties.store` writes it: ASCII only (`\uXXXX` for the rest, as
    /// `Properties.load` reads ISO 8859-1), backslash and line breaks escaped, a leading blank
    /// escaped so it is not taken for separator space, and `= : # !` escaped.
    public static func propertiesValue(_ value: String) -> String {
        var out = ""
        for (index, unit) in value.utf16.enumerated() {
            switch unit {
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x0C: out += "\\f"
            case 0x20 where index == 0: out += "\\ "
            case 0x3D, 0x3A, 0x23, 0x21: out += "\\" + String(UnicodeScalar(UInt8(unit)))
            case 0x20...0x7E: out += String(UnicodeScalar(UInt8(unit)))
            default: out += String(format: "\\u%04X", unit)
            }
        }
        return out
    }
}
