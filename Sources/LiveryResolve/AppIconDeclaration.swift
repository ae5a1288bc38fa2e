import LiveryDiagnostics
import Foundation
import LiveryLoad

/// A brand's `app.icon` and `app.launchScreen` as the icon renderer and the icon rules need them:
/// each image with the manifest node that names it (where findings point) and the file it resolves
/// to, and the colour tokens of the adaptive icon's background and of the launch screens.
public struct AppIconDeclaration: Sendable {
    /// One declared image.
    public struct Image: Sendable {
        /// `master`, `dark`, `tinted`, `android.foreground`, `android.background` or `android.monochrome`.
        public var role: String
        /// The node holding the path: findings are located here.
        public var node: Node
        /// The path as written.
        public var path: String
        /// The file, when the path is safe and names a regular file inside the folder of the tenant that
        /// declares it (the asset checks report every other case).
        public var url: URL?
        /// `png` or `svg`, from the extension (the asset checks compare it with the bytes).
        public var isSVG: Bool { (path as NSString).pathExtension.lowercased() == "svg" }

        /// The smallest side the role needs: 1024 for the iOS images, 432 (108 dp at xxxhdpi) for Android layers.
        public var minimumSide: Int { role.hasPrefix("android.") ? 432 : 1024 }
    }

    /// A colour token a launch screen or the adaptive background uses.
    public struct ColorToken: Sendable {
        /// `{color.brand.primary}` → `color.brand.primary`.
        public var path: String
        /// The node that names it; nil when the default applies.
        public var node: Node?
    }

    public var master: Image
    public var dark: Image?
    public var tinted: Image?
    public var foreground: Image?
    public var background: Image?
    public var monochrome: Image?
    /// The adaptive icon's background colour (used when there is no background image).
    public var backgroundColor: ColorToken
    /// The launch screen's colour (iOS `UIColorName`, Android `windowSplashScreenBackground`).
    public var launchBackground: ColorToken
    /// The colour behind the Android 12+ splash icon (`windowSplashScreenIconBackgroundColor`).
    public var launchIconBackground: ColorToken

    /// The default tokens, present in every sample brand (docs/app-icons.md).
    public static let defaultLaunchBackground = "color.background.default"
    public static let defaultBrandColor = "color.brand.primary"

    /// Every declared image, master first.
    public var images: [Image] { [master, dark, tinted, foreground, background, monochrome].compactMap { $0 } }

    /// The icon of a brand that declares `app.icon` with a master path; nil otherwise (creators
    /// ship inside their platform's app and get no icon).
    public static func of(_ tenant: ResolvedTenant) -> AppIconDeclaration? {
        guard let manifest = tenant.tenant, manifest["kind"]?.string == "brand", let app = manifest["app"], let icon = app["icon"],
              let master = image("master", icon["master"], tenant) else { return nil }
        let android = icon["android"]
        func token(_ node: Node?, default path: String) -> ColorToken {
            guard let node, let text = node.string, text.hasPrefix("{"), text.hasSuffix("}") else { return ColorToken(path: path, node: nil) }
            return ColorToken(path: String(text.dropFirst().dropLast()), node: node)
        }
        return AppIconDeclaration(
            master: master, dark: image("dark", icon["dark"], tenant), tinted: image("tinted", icon["tinted"], tenant),
            foreground: image("android.foreground", android?["foreground"], tenant), background: image("android.background", android?["background"], tenant),
            monochrome: image("android.monochrome", android?["monochrome"], tenant),
            backgroundColor: token(android?["backgroundColor"], default: defaultBrandColor),
            launchBackground: token(app["launchScreen"]?["background"], default: defaultLaunchBackground),
            launchIconBackground: token(app["launchScreen"]?["iconBackground"], default: defaultBrandColor))
    }

    /// The declared image, its path resolved against the folder of the manifest that wrote it (an
    /// inherited icon is the ancestor's file).
    static func image(_ role: String, _ node: Node?, _ tenant: ResolvedTenant) -> Image? {
        guard let node, let path = node.string else { return nil }
        let sources = [tenant.source] + tenant.ancestors
        let owner = sources.first { node.location.file.hasPrefix($0.displayRoot + "/") } ?? tenant.source
        let manifestFile = String(node.location.file.dropFirst(owner.displayRoot.count + 1))
        let directory = (manifestFile as NSString).deletingLastPathComponent
        var url: URL?
        if case .success(let relative) = TenantPath.normalize(path, baseDirectory: directory),
           case .success(let resolved) = owner.paths.regularFile(relative) {
            url = resolved
        }
        return Image(role: role, node: node, path: path, url: url)
    }
}

/// Rule ids of the app icon and launch screen findings (docs/app-icons.md).
public enum AppIconRule {
    public static let missing: RuleID = "assets.app-icon-missing"
    public static let size: RuleID = "assets.app-icon-size"
    public static let opaque: RuleID = "assets.app-icon-opaque"
    public static let safeZone: RuleID = "assets.app-icon-safe-zone"
    public static let decode: RuleID = "assets.app-icon-decode"
    public static let launchColor: RuleID = "branding.launch-screen-color"
}
