import Foundation

/// The XML files of a brand's app identity (docs/app-icons.md), written through libxml2 (`XMLBuilder`),
/// which does all escaping: the iOS launch screen's Info.plist fragment and the Android adaptive
/// icon, colour and splash theme resources.
public enum IdentityXML {
    static let androidNamespace = "http://schemas.android.com/apk/res/android"

    /// An Info.plist fragment with `UILaunchScreen`: a colour and an image of the app's asset catalog.
    public static func launchScreenPlist(colorName: String, imageName: String) -> Data? {
        guard let xml = XMLBuilder(root: "plist") else { return nil }
        xml.doctype("plist", publicID: "-//Apple//DTD PLIST 1.0//EN", systemID: "http://www.apple.com/DTDs/PropertyList-1.0.dtd")
        xml.set("version", "1.0", on: xml.root)
        let top = xml.add("dict", to: xml.root)
        xml.add("key", to: top, text: "UILaunchScreen")
        let screen = xml.add("dict", to: top)
        xml.add("key", to: screen, text: "UIColorName")
        xml.add("string", to: screen, text: colorName)
        xml.add("key", to: screen, text: "UIImageName")
        xml.add("string", to: screen, text: imageName)
        xml.add("key", to: screen, text: "UIImageRespectsSafeAreaInsets")
        xml.add("true", to: screen)
        return xml.serialize()
    }

    /// `mipmap-anydpi-v26/ic_launcher.xml`: an adaptive icon from drawables such as `@mipmap/ic_launcher_foreground`.
    public static func adaptiveIcon(background: String, foreground: String, monochrome: String?) -> Data? {
        guard let xml = XMLBuilder(root: "adaptive-icon") else { return nil }
        xml.declare(prefix: "android", uri: androidNamespace)
        for (name, drawable) in [("background", background), ("foreground", foreground)] + (monochrome.map { [("monochrome", $0)] } ?? []) {
            let element = xml.add(name, to: xml.root)
            xml.set("drawable", drawable, prefix: "android", on: element)
        }
        return xml.serialize()
    }

    /// `values/<file>.xml` with one `<color name="…">#RRGGBB</color>`.
    public static func colorResource(name: String, hex: String) -> Data? {
        guard let xml = XMLBuilder(root: "resources") else { return nil }
        let element = xml.add("color", to: xml.root, text: hex)
        xml.set("name", name, on: element)
        return xml.serialize()
    }

    /// A theme style with `items` (attribute → value), for the splash screen theme of AndroidX
    /// `core-splashscreen`, whose attributes (`windowSplashScreenBackground`, …) are unprefixed.
    public static func style(name: String, parent: String, items: [(String, String)], comment: String) -> Data? {
        guard let xml = XMLBuilder(root: "resources") else { return nil }
        xml.comment(comment, in: xml.root)
        let style = xml.add("style", to: xml.root)
        xml.set("name", name, on: style)
        xml.set("parent", parent, on: style)
        for (attribute, value) in items {
            let item = xml.add("item", to: style, text: value)
            xml.set("name", attribute, on: item)
        }
        return xml.serialize()
    }
}
