import Foundation
import LiveryDiagnostics
import LiveryImage
import LiveryInterchange
import LiveryLoad
import LiveryResolve

/// A brand's app icons and launch screens (issue 15, items 1 and 2; docs/app-icons.md), drawn from the
/// master icon and layers of `app.icon` with libvips:
///
/// - iOS: `AppIcon.appiconset` (one 1024 × 1024 universal icon with dark and tinted appearances; the
///   opaque icon written without an alpha channel), the `LaunchLogo` image set and `ios/LaunchScreen.plist`,
///   an Info.plist fragment with `UILaunchScreen` naming a colour of the colour assets and that image;
/// - Android: the adaptive icon (`mipmap-anydpi-v26/ic_launcher.xml`, with a monochrome layer, and the
///   same as `ic_launcher_round.xml` for the manifest's `android:roundIcon`) and its 108 dp layers at every
///   density, legacy 48 dp `ic_launcher.png` and `ic_launcher_round.png` (the master in a circle), the
///   512 px Play Store icon, and the splash screen theme (AndroidX core-splashscreen attributes) for light and night;
/// - web: a 32 px favicon, `favicon.ico` (16, 32 and 48 px) for the site root, 192 and 512 px web app
///   manifest icons, a 512 px maskable icon, and the manifest's `icons` member (`web/manifest-icons.json`).
///
/// Like the colour assets and build settings, they are for app build pipelines: `livery generate`
/// writes them, and release bundles leave them out.
public enum AppIcons {
    public static let iconSet = "\(ColorAssets.catalog)/\(BuildSettings.appIconName).appiconset"
    /// The image set `UIImageName` names.
    public static let launchImageName = "LaunchLogo"
    public static let launchImageSet = "\(ColorAssets.catalog)/\(launchImageName).imageset"
    public static let launchPlist = "ios/LaunchScreen.plist"
    public static let playStoreIcon = "android/ic_launcher-playstore.png"
    public static let webManifestIcons = "web/manifest-icons.json"
    /// The icon browsers ask the site root for (`/favicon.ico`), and the sizes it holds.
    public static let favicon = "web/favicon.ico"
    public static let faviconSides = [16, 32, 48]
    /// The splash theme's style name; the app's starting theme extends it (docs/app-icons.md).
    public static let splashStyle = "Theme.Livery.Splash"
    /// Android densities: folder suffix and scale in quarters (mdpi 4/4 … xxxhdpi 16/4).
    public static let densities: [(name: String, quarters: Int)] = [("mdpi", 4), ("hdpi", 6), ("xhdpi", 8), ("xxhdpi", 12), ("xxxhdpi", 16)]
    /// An adaptive icon layer is 108 dp square; the mask shows the central 72 dp; content belongs in the central 66 dp circle.
    public static let layerDP = 108, visibleDP = 72, safeZoneDP = 66
    /// A legacy launcher icon is 48 dp.
    public static let legacyDP = 48
    /// The launch image's side in points (drawn at 1x, 2x and 3x).
    public static let launchLogoPoints = 160

    /// The identity files among generated files (the asset catalog's are recognised by `ColorAssets.catalog`).
    public static func isIdentityFile(_ path: String) -> Bool {
        path == launchPlist || path == playStoreIcon || path.hasPrefix("android/mipmap-") || path.hasPrefix("web/icons/") || path == webManifestIcons || path == favicon
            || (path.hasPrefix("android/values") && (path.hasSuffix("/splash_theme.xml") || path.hasSuffix("/ic_launcher_background.xml")))
    }

    /// Every icon and launch screen file of `tenant`, in path order, or the findings that stopped them
    /// (validation reports the same problems first, so `livery generate` never reaches these).
    public static func files(_ tenant: ResolvedTenant) -> (files: [GeneratedFile], diagnostics: [Diagnostic]) {
        guard let declaration = AppIconDeclaration.of(tenant) else { return ([], []) }
        var renderer = Renderer(tenant: tenant, declaration: declaration)
        let files = renderer.render()
        return renderer.diagnostics.isEmpty ? (files.sorted { $0.path < $1.path }, []) : ([], renderer.diagnostics)
    }

    struct Renderer {
        let tenant: ResolvedTenant
        let declaration: AppIconDeclaration
        var diagnostics: [Diagnostic] = []
        var files: [GeneratedFile] = []
        var sources: [String: AppIconSource] = [:]

        init(tenant: ResolvedTenant, declaration: AppIconDeclaration) {
            self.tenant = tenant
            self.declaration = declaration
        }

        mutating func render() -> [GeneratedFile] {
            for image in declaration.images {
                guard let url = image.url else {
                    fail("'\(image.path)' is not a file inside the tenant folder", image, rule: PathRule.missing)
                    continue
                }
                do {
                    sources[image.role] = try AppIconSource(url: url, isSVG: image.isSVG)
                } catch let failure as AppIconSource.Failure {
                    fail("'\(image.path)' \(failure.description)", image, rule: failure.isHeader ? AppIconRule.size : AppIconRule.decode)
                } catch {
                    fail("'\(image.path)' \(error)", image, rule: AppIconRule.decode)
                }
            }
            let launch = color(declaration.launchBackground), launchIcon = color(declaration.launchIconBackground)
            let layerColor = declaration.background == nil ? color(declaration.backgroundColor) : nil
            let colorName = ColorAssets.assetName(ofToken: declaration.launchBackground.path, in: tenant)
            if colorName == nil, launch != nil {
                fail("the launch screen colour '{\(declaration.launchBackground.path)}' has no colour asset (its name clashes with another colour's)",
                     at: declaration.launchBackground.node ?? declaration.master.node, rule: AppIconRule.launchColor)
            }
            guard diagnostics.isEmpty, let master = sources["master"], let launch, let launchIcon, let colorName else { return [] }
            do {
                try ios(master: master, colorName: colorName)
                try android(master: master, layerColor: layerColor, launch: launch, launchIcon: launchIcon)
                try web(master: master, layerColor: layerColor)
            } catch let failure as AppIconSource.Failure {
                fail("the app icon \(failure.description)", declaration.master, rule: AppIconRule.decode)
            } catch let failure as RasterImage.Failure {
                fail("the app icon cannot be drawn: \(failure.description)", declaration.master, rule: AppIconRule.decode)
            } catch let failure as IconContainer.Failure {
                fail("the favicon cannot be written: \(failure.description)", declaration.master, rule: AppIconRule.decode)
            } catch {
                fail("the app icon cannot be drawn: \(error)", declaration.master, rule: AppIconRule.decode)
            }
            return files
        }

        mutating func fail(_ message: String, _ image: AppIconDeclaration.Image, rule: RuleID) {
            fail(message, at: image.node, rule: rule)
        }

        mutating func fail(_ message: String, at node: Node, rule: RuleID) {
            diagnostics.append(Diagnostic(.error, message, at: node.location, rule: rule))
        }

        /// The token's colour in `mode` (the default mode's when that mode lacks it); a finding when it is no colour token.
        mutating func color(_ token: AppIconDeclaration.ColorToken) -> (light: SRGBColor, dark: SRGBColor)? {
            func value(_ mode: String) -> SRGBColor? {
                guard let tokens = tenant.tokens[mode], tokens.types[token.path] == "color" else { return nil }
                return tokens.values[token.path].flatMap(SRGBColor.init(tokenValue:))
            }
            guard let light = value("default") else {
                fail("'{\(token.path)}' is not a colour token of this tenant", at: token.node ?? declaration.master.node, rule: AppIconRule.launchColor)
                return nil
            }
            return (light, value("dark") ?? light)
        }

        mutating func add(_ path: String, _ data: Data?) {
            guard let data else { return }
            files.append(GeneratedFile(path: path, contents: data))
        }

        mutating func png(_ path: String, _ image: RasterImage) throws {
            add(path, try image.pngData())
        }

        /// The master at `side`, without alpha (validation has checked it is opaque).
        func opaque(_ master: AppIconSource, side: Int) throws -> RasterImage {
            try master.render(side: side).flattened()
        }

        // MARK: iOS

        mutating func ios(master: AppIconSource, colorName: String) throws {
            var images: [XcodeJSON] = []
            for (role, appearance) in [("master", nil), ("dark", "dark"), ("tinted", "tinted")] as [(String, String?)] {
                var entry: [String: XcodeJSON] = ["idiom": .string("universal"), "platform": .string("ios"), "size": .string("1024x1024")]
                if let appearance {
                    entry["appearances"] = .array([.object(["appearance": .string("luminosity"), "value": .string(appearance)])])
                }
                if let source = sources[role] {
                    let name = appearance.map { "AppIcon-\($0).png" } ?? "AppIcon.png"
                    let drawn = role == "master" ? try opaque(source, side: 1024) : try source.render(side: 1024)
                    try png("\(iconSet)/\(name)", drawn)
                    entry["filename"] = .string(name)
                }
                images.append(.object(entry))
            }
            add("\(iconSet)/Contents.json", XcodeJSON.object(["images": .array(images), "info": ColorAssets.info]).bytes)

            let logo = sources["android.foreground"] ?? master
            var logos: [XcodeJSON] = []
            for scale in 1...3 {
                let name = scale == 1 ? "\(launchImageName).png" : "\(launchImageName)@\(scale)x.png"
                try png("\(launchImageSet)/\(name)", try logo.render(side: launchLogoPoints * scale))
                logos.append(.object(["filename": .string(name), "idiom": .string("universal"), "scale": .string("\(scale)x")]))
            }
            add("\(launchImageSet)/Contents.json", XcodeJSON.object(["images": .array(logos), "info": ColorAssets.info]).bytes)
            add(launchPlist, IdentityXML.launchScreenPlist(colorName: colorName, imageName: launchImageName))
        }

        // MARK: Android

        /// The adaptive foreground layer at `side` pixels: the declared layer, or the master shrunk to the
        /// 72 dp the mask shows, centred on a transparent layer.
        func foreground(_ master: AppIconSource, side: Int) throws -> RasterImage {
            if let layer = sources["android.foreground"] { return try layer.render(side: side) }
            let inner = side * visibleDP / layerDP
            let offset = (side - inner) / 2
            return try master.render(side: inner).embedded(left: offset, top: offset, width: side, height: side)
        }

        /// The adaptive background layer at `side` pixels: the declared image, or the background colour.
        func background(side: Int, color: SRGBColor?) throws -> RasterImage {
            if let layer = sources["android.background"] { return try layer.render(side: side) }
            let color = color ?? SRGBColor.white
            let bytes = color.bytes
            return try RasterImage.solid(red: UInt8(bytes.red), green: UInt8(bytes.green), blue: UInt8(bytes.blue), alpha: UInt8(bytes.alpha), width: side, height: side)
        }

        mutating func android(master: AppIconSource, layerColor: (light: SRGBColor, dark: SRGBColor)?,
                              launch: (light: SRGBColor, dark: SRGBColor), launchIcon: (light: SRGBColor, dark: SRGBColor)) throws {
            for density in densities {
                let folder = "android/mipmap-\(density.name)"
                let layer = layerDP * density.quarters / 4
                try png("\(folder)/ic_launcher_foreground.png", try foreground(master, side: layer))
                if let image = sources["android.background"] { try png("\(folder)/ic_launcher_background.png", try image.render(side: layer)) }
                // Without a monochrome layer the foreground stands in: Android uses only its alpha.
                try png("\(folder)/ic_launcher_monochrome.png", try sources["android.monochrome"]?.render(side: layer) ?? foreground(master, side: layer))
                try png("\(folder)/ic_launcher.png", try opaque(master, side: legacyDP * density.quarters / 4))
                // What launchers asking for `@mipmap/ic_launcher_round` show before Android 8: the master cut to
                // a circle, transparent outside it (the shape Android's legacy round icons have).
                try png("\(folder)/ic_launcher_round.png", try master.render(side: legacyDP * density.quarters / 4).circled())
            }
            let backgroundDrawable: String
            if sources["android.background"] != nil {
                backgroundDrawable = "@mipmap/ic_launcher_background"
            } else {
                backgroundDrawable = "@color/ic_launcher_background"
                add("android/values/ic_launcher_background.xml", IdentityXML.colorResource(name: "ic_launcher_background", hex: (layerColor?.light ?? launchIcon.light).hex(alpha: .firstUnlessOpaque)))
            }
            // The round icon of Android 8+ is the same adaptive icon: the launcher's mask makes it round.
            for name in ["ic_launcher", "ic_launcher_round"] {
                add("android/mipmap-anydpi-v26/\(name).xml", IdentityXML.adaptiveIcon(
                    background: backgroundDrawable, foreground: "@mipmap/ic_launcher_foreground", monochrome: "@mipmap/ic_launcher_monochrome"))
            }
            try png(playStoreIcon, try opaque(master, side: 512))
            for (folder, night) in [("values", false), ("values-night", true)] {
                let comment = " Splash screen of the tenant \(tenant.id) (Android 12+, AndroidX core-splashscreen), written by livery; do not edit. "
                    + "Give the app's starting theme this parent and set postSplashScreenTheme (docs/app-icons.md). "
                add("android/\(folder)/splash_theme.xml", IdentityXML.style(name: splashStyle, parent: "Theme.SplashScreen.IconBackground", items: [
                    ("windowSplashScreenBackground", (night ? launch.dark : launch.light).hex(alpha: .firstUnlessOpaque)),
                    ("windowSplashScreenAnimatedIcon", "@mipmap/ic_launcher_foreground"),
                    ("windowSplashScreenIconBackgroundColor", (night ? launchIcon.dark : launchIcon.light).hex(alpha: .firstUnlessOpaque)),
                ], comment: comment))
            }
        }

        // MARK: Web

        mutating func web(master: AppIconSource, layerColor: (light: SRGBColor, dark: SRGBColor)?) throws {
            try png("web/icons/favicon-32.png", try opaque(master, side: 32))
            // 32-bit RGBA images (the master is opaque: every alpha is 255), as the directory entries say.
            add(favicon, try IconContainer.ico(faviconSides.map { try master.render(side: $0) }))
            try png("web/icons/icon-192.png", try opaque(master, side: 192))
            try png("web/icons/icon-512.png", try opaque(master, side: 512))
            // Maskable: the adaptive layers composed; their 66 dp safe zone lies inside the web's 80 % circle.
            let maskable = try background(side: 512, color: layerColor?.light).overlaid(with: try foreground(master, side: 512)).flattened()
            try png("web/icons/icon-maskable-512.png", maskable)
            let icons: [(String, String, String)] = [("favicon-32.png", "32x32", "any"), ("icon-192.png", "192x192", "any"),
                                                     ("icon-512.png", "512x512", "any"), ("icon-maskable-512.png", "512x512", "maskable")]
            let members = icons.map { icon in
                "    {\"purpose\": \"\(icon.2)\", \"sizes\": \"\(icon.1)\", \"src\": \"icons/\(icon.0)\", \"type\": \"image/png\"}"
            }
            add(webManifestIcons, Data(("{\n  \"icons\": [\n" + members.joined(separator: ",\n") + "\n  ]\n}\n").utf8))
        }
    }
}
