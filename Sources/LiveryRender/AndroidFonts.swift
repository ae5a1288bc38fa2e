import Foundation
import LiveryDiagnostics
import LiveryLoad
import LiveryResolve

/// Which font Android draws for a typography token's family stack, and where that is not the family the tenant
/// named: a family Android does not have and the tenant does not bundle (an Apple system font such as "SF Pro", or
/// "Inter" without its files) falls back, as a browser walks a CSS stack, to the next family Android can draw.
public struct AndroidFont: Sendable, Equatable {
    /// What Compose's `TextStyle.fontFamily` is set to: `FontFamily.SansSerif`, `.Serif`, `.Monospace`, `.Cursive`
    /// or `.Default` (a bundled family, which the app maps, and a stack with nothing Android can draw).
    public var kotlinFamily: String
    /// The family Android draws, for people: `Roboto`, `Noto Serif`, or the bundled family's own name.
    public var drawn: String
    /// The first family of the stack Android cannot draw, when the stack fell back past it to a generic family
    /// (`system-ui`, `sans-serif`…) or to nothing; nil when a named family of the stack is drawn, or the stack names
    /// only generic families (the tenant asked for the system's font).
    public var unavailable: String?
}

/// Android's side of font family stacks: the families its system has, and the font files a tenant bundles.
public enum AndroidFonts {
    /// Walks `families` in order: the first family bundled by the tenant (a file of `assets.fonts` named after it) or
    /// on every Android device (`systemFamilies`) is drawn; a generic family (`genericFamilies`) ends the walk with
    /// its system font; a stack with neither gets Compose's default, Roboto.
    public static func resolve(_ families: [String], bundled: [String]) -> AndroidFont {
        var unavailable: String?
        for family in families {
            let key = family.lowercased()
            if let generic = genericFamilies[key] {
                return AndroidFont(kotlinFamily: generic.kotlin, drawn: generic.drawn, unavailable: unavailable)
            }
            if isBundled(family, files: bundled) { return AndroidFont(kotlinFamily: "FontFamily.Default", drawn: family, unavailable: nil) }
            if let system = systemFamilies[key] { return AndroidFont(kotlinFamily: system.kotlin, drawn: system.drawn, unavailable: nil) }
            if unavailable == nil { unavailable = family }
        }
        return AndroidFont(kotlinFamily: "FontFamily.Default", drawn: "Roboto", unavailable: unavailable)
    }

    /// Whether a font file of `assets.fonts` is named after `family`: the file's name, in lowercase letters and
    /// digits only, starts with the family's (`Open Sans` → `OpenSans-Bold.ttf`, `open-sans-regular.woff2`).
    public static func isBundled(_ family: String, files: [String]) -> Bool {
        let name = letters(family)
        guard !name.isEmpty else { return false }
        return files.contains { letters(URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent).hasPrefix(name) }
    }

    private static func letters(_ text: String) -> String {
        String(text.lowercased().unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) })
    }

    /// CSS generic families (and Apple's spellings of the system font) and what Android draws for them: the
    /// `sans-serif`, `serif`, `monospace` and `cursive` families of its `fonts.xml`, which Compose names as below.
    static let genericFamilies: [String: (kotlin: String, drawn: String)] = [
        "sans-serif": ("FontFamily.SansSerif", "Roboto"), "system-ui": ("FontFamily.SansSerif", "Roboto"),
        "ui-sans-serif": ("FontFamily.SansSerif", "Roboto"), "-apple-system": ("FontFamily.SansSerif", "Roboto"),
        "blinkmacsystemfont": ("FontFamily.SansSerif", "Roboto"),
        "serif": ("FontFamily.Serif", "Noto Serif"), "ui-serif": ("FontFamily.Serif", "Noto Serif"),
        "monospace": ("FontFamily.Monospace", "Droid Sans Mono"), "ui-monospace": ("FontFamily.Monospace", "Droid Sans Mono"),
        "cursive": ("FontFamily.Cursive", "Dancing Script"),
    ]

    /// Named families every Android device has: the fonts its `fonts.xml` gives the generic families.
    static let systemFamilies: [String: (kotlin: String, drawn: String)] = [
        "roboto": ("FontFamily.SansSerif", "Roboto"), "noto serif": ("FontFamily.Serif", "Noto Serif"),
        "droid sans mono": ("FontFamily.Monospace", "Droid Sans Mono"), "dancing script": ("FontFamily.Cursive", "Dancing Script"),
    ]

    /// Apple's system families: no Android app may ship them, so the hint says to name an Android family instead.
    static let appleFamilies: Set<String> = [
        "sf pro", "sf pro text", "sf pro display", "sf pro rounded", "sf compact", "sf compact text", "sf compact display",
        "sf mono", "new york", "menlo", "helvetica", "helvetica neue", "avenir", "avenir next", "san francisco",
    ]

    /// The files of the tenant's `assets.fonts` (its own and inherited).
    public static func bundledFiles(_ tenant: ResolvedTenant) -> [String] {
        tenant.tenant?["assets"]?["fonts"]?.items?.compactMap(\.string) ?? []
    }

    /// The family stack of a typography value (DTCG allows one name or a list).
    static func families(_ value: Node?) -> [String] {
        value?.items?.compactMap(\.string) ?? value?.string.map { [$0] } ?? []
    }

    // MARK: Findings

    /// A finding for every family stack of the tenant's typography (in any mode) whose preferred family Android
    /// cannot draw: at the family's name where it is written (a `fontFamily` token the typography refers to, or
    /// the typography value), once per place.
    public static func fallbacks(_ tenant: ResolvedTenant) -> [Diagnostic] {
        let bundled = bundledFiles(tenant)
        var found: [Diagnostic] = []
        var reported = Set<String>()
        for mode in tenant.tokens.keys.sorted() {
            guard let resolved = tenant.tokens[mode] else { continue }
            for path in resolved.types.keys.sorted() where resolved.types[path] == "typography" {
                let stack = families(resolved.values[path]?["fontFamily"])
                // A reference left unresolved is the alias rules' finding, not a family.
                guard !stack.contains(where: { $0.hasPrefix("{") && $0.hasSuffix("}") }) else { continue }
                let font = resolve(stack, bundled: bundled)
                guard let family = font.unavailable, let token = resolved.tokens[path] else { continue }
                let written = origin(ofFamilyOf: token, in: resolved.tokens)
                let at = written?.items?.first { $0.string == family }?.location ?? written?.location ?? token.location
                guard reported.insert("\(at)\u{0}\(family)").inserted else { continue }
                let hint = appleFamilies.contains(family.lowercased())
                    ? "an Apple system font cannot ship with an Android app: put an Android family after it in the stack (Roboto, Noto Serif, Droid Sans Mono) to choose what Android draws"
                    : "bundle the family: list its font files in assets.fonts, named after it (\(letters(family))-regular.ttf); or put an Android family (Roboto, Noto Serif) after it to choose the fallback"
                found.append(Diagnostic(.warning, AndroidFontMessage.fallback(family: family, fallback: "\(font.kotlinFamily) (\(font.drawn))"), at: at,
                                        rule: PlatformRule.fontFallback, hint: hint))
            }
        }
        return found.normalized()
    }

    /// The node where a typography token's family stack is written: its `fontFamily` member, followed through
    /// references (`{font.family.body}`, and a typography token that is an alias of another) to the token holding it.
    static func origin(ofFamilyOf token: DesignToken, in tokens: [String: DesignToken]) -> Node? {
        var value: Node? = token.value
        var hops = 0
        // A whole-value alias of another typography token.
        while let node = value, let reference = TokenReference.of(node), reference.subpath.isEmpty, hops < 32 {
            value = tokens[reference.path]?.value
            hops += 1
        }
        var family = value?["fontFamily"]
        while let node = family, let reference = TokenReference.of(node), reference.subpath.isEmpty, hops < 64 {
            family = tokens[reference.path]?.value
            hops += 1
        }
        return family
    }
}

/// The message of `branding.font-fallback`.
public enum AndroidFontMessage {
    public static func fallback(family: String, fallback: String) -> DiagnosticMessage {
        DiagnosticMessage("fallback", "'\(family)' is neither bundled (assets.fonts) nor an Android system font: Compose draws it as \(fallback)")
    }
}
