import Foundation
import LiveryInterchange
import LiveryLoad
import LiveryResolve

/// Xcode colour assets: `Assets.xcassets/<name>.colorset/Contents.json` for every colour token of a
/// tenant, and the catalog's own `Contents.json`, in Apple's asset catalog format (Asset Catalog
/// Format Reference, "Named Color Type"). Apps use them as `Color("brandPrimary")` or, with Xcode's
/// generated asset symbols, `Color.brandPrimary`.
///
/// Each set has the appearances Xcode writes for "Any, Light, Dark": the default mode as any and
/// light, the `dark` mode as dark (the default mode's colours when the tenant has none, as in the
/// theme files), and, when the tenant has a `high-contrast` or dark high-contrast mode, the same
/// three again with high contrast (the light or dark colours where one of those modes is missing).
/// A colour keeps its space when it is `srgb` or `display-p3`; any other space is converted to
/// sRGB, or to Display P3 when sRGB cannot show it (gamut-mapped into P3 by CSS Color 4's algorithm
/// when P3 cannot either). Components are written as Xcode writes them: decimal strings with three
/// places.
public enum ColorAssets {
    /// Where the catalog goes among the platform files (the iOS output, beside `Theme.swift`).
    public static let catalog = "swiftui/Assets.xcassets"
    /// The mode that gives the light high-contrast appearance; the dark one is `dark-high-contrast`
    /// (`branding.modes` names are slugs), or a resolver document's combination of a `dark` and a
    /// `high-contrast` context (`dark+high-contrast`, in either order).
    public static let highContrastMode = "high-contrast"

    /// The dark high-contrast mode's tokens, under whichever name the tenant gives them.
    static func darkHighContrast(_ tenant: ResolvedTenant) -> ResolvedTokens? {
        if let tokens = tenant.tokens["dark-high-contrast"] { return tokens }
        let combined = tenant.tokens.keys.sorted().first { Set($0.split(separator: "+")) == ["dark", "high-contrast"] }
        return combined.flatMap { tenant.tokens[$0] }
    }

    /// One colour as an asset catalog writes it: the space it names and the channels in that space (Display P3's
    /// for `display-p3`, which `SRGBColor` only holds, as `DTCGColor.displayP3()` gives them).
    public struct AssetColor: Sendable, Hashable {
        /// `srgb` or `display-p3`.
        public var colorSpace: String
        public var channels: SRGBColor
    }

    /// The catalog's files for `tenant`, in path order: the root `Contents.json`, then one
    /// `Contents.json` per colour, named as in `Theme.swift` (colours whose names clash are left
    /// out, as there; validation reports them).
    public static func files(_ tenant: ResolvedTenant) -> [GeneratedFile] {
        guard let base = tenant.tokens["default"] else { return [] }
        let named = PlatformContext.Naming(tenant, base: PlatformContext.TokenTable(base)).colors
        guard !named.isEmpty else { return [] }
        let dark = tenant.tokens["dark"] ?? base
        let darkHighMode = darkHighContrast(tenant)
        let contrast = tenant.tokens[highContrastMode] != nil || darkHighMode != nil
        let lightHigh = tenant.tokens[highContrastMode] ?? base
        let darkHigh = darkHighMode ?? dark

        var files = [GeneratedFile(path: catalog + "/Contents.json", contents: XcodeJSON.object(["info": info]).bytes)]
        var seen = Set<String>()
        for (path, names) in named {
            let name = assetName(names.swiftName)
            guard seen.insert(name).inserted, let light = base.values[path].flatMap(color) else { continue }
            func value(_ mode: ResolvedTokens) -> AssetColor { mode.values[path].flatMap(color) ?? light }
            var entries: [XcodeJSON] = [
                entry(light, appearances: []),
                entry(light, appearances: [("luminosity", "light")]),
                entry(value(dark), appearances: [("luminosity", "dark")]),
            ]
            if contrast {
                entries += [
                    entry(value(lightHigh), appearances: [("contrast", "high")]),
                    entry(value(lightHigh), appearances: [("luminosity", "light"), ("contrast", "high")]),
                    entry(value(darkHigh), appearances: [("luminosity", "dark"), ("contrast", "high")]),
                ]
            }
            let document = XcodeJSON.object(["colors": .array(entries), "info": info])
            files.append(GeneratedFile(path: "\(catalog)/\(name).colorset/Contents.json", contents: document.bytes))
        }
        return files.sorted { $0.path < $1.path }
    }

    /// The name of the colour set holding the colour token at `path` (`color.background.default` →
    /// `colorBackgroundDefault`, as `files` names it); nil when the tenant has no such colour, or its
    /// name clashes with an earlier colour's.
    public static func assetName(ofToken path: String, in tenant: ResolvedTenant) -> String? {
        guard let base = tenant.tokens["default"] else { return nil }
        let named = PlatformContext.Naming(tenant, base: PlatformContext.TokenTable(base)).colors
        var seen = Set<String>()
        for (candidate, names) in named {
            let name = assetName(names.swiftName)
            guard seen.insert(name).inserted, base.values[candidate].flatMap(color) != nil else { continue }
            if candidate == path { return name }
        }
        return nil
    }

    /// The colour of a resolved DTCG colour value, in the space the catalog will hold it in; nil
    /// when the value is not a colour (the resolver has reported it). An unknown space falls back to
    /// the `hex` member, as in the theme files.
    public static func color(_ value: Node) -> AssetColor? {
        guard let dtcg = DTCGColor(renderedValue: value) else { return nil }
        let alpha = dtcg.effectiveAlpha
        let rgb: SRGBColor, target: String
        switch dtcg.colorSpace {
        case .srgb:
            (rgb, target) = (SRGBColor(red: dtcg.resolvedComponents.x, green: dtcg.resolvedComponents.y, blue: dtcg.resolvedComponents.z, alpha: alpha), "srgb")
        case .displayP3:
            (rgb, target) = (SRGBColor(red: dtcg.resolvedComponents.x, green: dtcg.resolvedComponents.y, blue: dtcg.resolvedComponents.z, alpha: alpha), "display-p3")
        default:
            let srgb = dtcg.unmappedSRGB
            // Within rounding of the three places written, a colour is in sRGB.
            (rgb, target) = srgb.isInGamut(tolerance: 0.0005) ? (srgb, "srgb") : (dtcg.displayP3(), "display-p3")
        }
        return AssetColor(colorSpace: target, channels: rgb.clipped)
    }

    /// A Swift name as an asset name: Xcode's generated symbols need no backticks.
    static func assetName(_ swiftName: String) -> String {
        swiftName.filter { $0 != "`" }
    }

    static let info = XcodeJSON.object(["author": .string("livery"), "version": .integer(1)])

    static func entry(_ color: AssetColor, appearances: [(String, String)]) -> XcodeJSON {
        var members: [String: XcodeJSON] = [
            "color": .object([
                "color-space": .string(color.colorSpace),
                "components": .object([
                    "red": .string(component(color.channels.red)), "green": .string(component(color.channels.green)),
                    "blue": .string(component(color.channels.blue)), "alpha": .string(component(color.channels.alpha)),
                ]),
            ]),
            "idiom": .string("universal"),
        ]
        if !appearances.isEmpty {
            members["appearances"] = .array(appearances.map { .object(["appearance": .string($0.0), "value": .string($0.1)]) })
        }
        return .object(members)
    }

    /// `0.851`: three decimal places, as Xcode writes components (never `-0.000`).
    static func component(_ value: Double) -> String {
        let text = String(format: "%.3f", min(max(value, 0), 1))
        return text == "-0.000" ? "0.000" : text
    }
}

/// An asset catalog's JSON, written the way Xcode writes it (`XcodeJSONWriter`) with a final newline,
/// so the files read as Xcode's own and diff cleanly.
enum XcodeJSON {
    case string(String)
    case integer(Int)
    case array([XcodeJSON])
    case object([String: XcodeJSON])

    var bytes: Data {
        var writer = XcodeJSONWriter()
        write(into: &writer)
        writer.raw(UInt8(ascii: "\n"))
        return Data(writer.bytes)
    }

    /// Through the writer String Catalogs use, so both catalogs share one layout.
    private func write(into writer: inout XcodeJSONWriter) {
        switch self {
        case .string(let value): writer.string(value)
        case .integer(let value): writer.int(value)
        case .array(let items):
            writer.beginArray()
            for item in items {
                writer.element()
                item.write(into: &writer)
            }
            writer.endArray()
        case .object(let members):
            writer.beginObject()
            for key in XcodeJSONWriter.sorted(members.keys) {
                writer.key(key)
                members[key]?.write(into: &writer)
            }
            writer.endObject()
        }
    }
}
