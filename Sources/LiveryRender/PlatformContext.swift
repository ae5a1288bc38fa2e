import Foundation
import LiveryDiagnostics
import LiveryLoad
import LiveryResolve

/// Rule ids of findings made while generating platform files.
public enum PlatformRule {
    /// Two tokens of one category that would get the same name in a generated file.
    public static let nameCollision: RuleID = "branding.platform-name"
    /// A typography family Android neither has nor gets from the tenant's font files, so Compose draws another.
    public static let fontFallback: RuleID = "branding.font-fallback"
    /// A platform or brand-sheet template that does not parse.
    public static let template: RuleID = "render.template"
    /// The findings made while rendering that no validation rule declares (`livery generate`, `build`, `preview` report them).
    public static let renderingOnly: [(id: RuleID, rationale: String)] = [
        (template, "A platform, preview or brand-sheet template parses as Mustache, so every tenant's files can be rendered."),
    ]
}

/// What the platform templates see: plain lists of tokens whose values are already written in each
/// target's syntax, so the templates only place text and never decide anything. It is Encodable so
/// the exact context can be snapshotted as readable JSON.
public struct PlatformContext: Encodable, Sendable {
    public struct Tenant: Encodable, Sendable {
        public var id: String
        public var name: String
        /// `PhysioClinicTheme`: the Swift enum and Kotlin object holding everything.
        public var typeName: String
        /// `com.example.physioclinic.theme` (the Android application id plus `.theme`).
        public var kotlinPackage: String
        /// The oldest Android API level the app runs on (`app.android.minSdk`, else `androidMinimumSdk`): generated
        /// Kotlin checks `Build.VERSION.SDK_INT` only for APIs newer than this.
        public var androidMinSdk: Int
    }

    /// Names every platform file uses for one token.
    public struct Names: Encodable, Sendable, Hashable {
        public var path: String
        public var swiftName: String
        public var kotlinName: String
        public var tsName: String
        public var cssName: String
        public var androidName: String
    }

    public struct ColorValue: Encodable, Sendable, Hashable {
        /// `#0066CC`, for people.
        public var hex: String
        /// `#0066CC` or `#00000026`.
        public var css: String
        /// `#FF0066CC`.
        public var android: String
        /// `0xFF0066CC`.
        public var kotlin: String
        /// `red: 0, green: 0.4, blue: 0.8, opacity: 1`.
        public var swift: String
    }

    public struct ColorToken: Encodable, Sendable {
        public var names: Names
        public var light: ColorValue
        public var dark: ColorValue
    }

    public struct DimensionToken: Encodable, Sendable {
        public var names: Names
        /// Points (iOS) = dp (Android) = px (CSS at 1×); `rem` counts 16.
        public var points: String
        public var css: String
    }

    public struct TypographyToken: Encodable, Sendable {
        public var names: Names
        /// The first family of the stack, which apps bundle or the system provides.
        public var family: String
        /// The first family as a double-quoted string literal (TypeScript and JSON agree on it).
        public var familyLiteral: String
        /// The whole stack, quoted for CSS.
        public var cssFamily: String
        public var size: String
        public var weight: String
        /// The line height in points (DTCG gives a multiple of the size).
        public var lineHeight: String
        public var lineHeightRatio: String
        public var letterSpacing: String
        /// `.system(size: 15, weight: .regular)` or `.custom("Inter", size: 15, relativeTo: .subheadline).weight(.regular)`.
        public var swiftFont: String
        /// `TypeTier(size: 15, weight: .regular, design: .default, textStyle: .subheadline, family: nil)`: what
        /// `.typeTier(_:)` scales with Dynamic Type.
        public var swiftTier: String
        /// `FontFamily.SansSerif`, `FontFamily.Serif`, `FontFamily.Monospace`, `FontFamily.Cursive` or `FontFamily.Default`:
        /// the first family of the stack Android can draw (`AndroidFonts.resolve`).
        public var kotlinFamily: String
        /// The family Android draws (`Roboto`, or a bundled family's name), for the generated comment.
        public var androidFamily: String
    }

    public struct ShadowToken: Encodable, Sendable {
        public var names: Names
        /// The whole `box-shadow` value (every layer).
        public var css: String
        /// Native values: iOS from `com.livery.platform.ios` when given, else derived from the first layer.
        public var color: ColorValue
        public var opacity: String
        public var radius: String
        public var x: String
        public var y: String
        /// Android elevation in dp (`com.livery.platform.android.elevation`, else the iOS radius).
        public var elevation: String
    }

    public struct SpringToken: Encodable, Sendable {
        public var names: Names
        public var damping: String
        public var stiffness: String
        public var mass: String
        public var dampingRatio: String
        /// Compose's `spring(stiffness:)` assumes a unit mass: stiffness ÷ mass keeps the same frequency.
        public var stiffnessPerMass: String
        public var settleSeconds: String
        public var summary: String
    }

    public struct DurationToken: Encodable, Sendable {
        public var names: Names
        public var milliseconds: String
        public var seconds: String
    }

    public var tenant: Tenant
    /// Every mode with resolved tokens, "default" first.
    public var modes: [String]
    /// The mode whose colours are used when the system is in dark appearance ("dark" when the tenant
    /// declares it; otherwise the default mode's colours serve both).
    public var darkMode: String
    public var colors: [ColorToken]
    /// Colours whose dark value differs: what `values-night/` needs.
    public var nightColors: [ColorToken]
    public var typography: [TypographyToken]
    public var spacing: [DimensionToken]
    public var radii: [DimensionToken]
    public var sizes: [DimensionToken]
    public var shadows: [ShadowToken]
    public var springs: [SpringToken]
    public var durations: [DurationToken]
    /// Number tokens under `opacity`.
    public var opacity: [OpacityToken] = []
    public var gradients: [GradientToken] = []
    /// Colour tokens with `com.livery.glass`, and with `com.livery.tab`.
    public var glass: [GlassToken] = []
    public var tabs: [TabToken] = []
    /// Interactions with their haptic feedback (`com.livery.haptics` of a token group).
    public var haptics: [HapticToken] = []
    /// Every mode but the default, as the CSS custom properties it changes (`PlatformBrand.swift`).
    public var modeStyles: [ModeStyle] = []
    /// Every mode but the default, as the tokens it changes in each target's syntax (`PlatformBrand.swift`).
    public var modeChanges: [ModeTokens] = []
    /// Springs as CSS easings, and component sizes with a larger touchable area.
    public var springEasings: [SpringEasing] = []
    public var hitAreas: [HitAreaToken] = []
    /// Material 3 for Compose (`MaterialTheme.swift`): the colour roles of the light and dark appearances, and the
    /// tier standing for each text style.
    public var materialLight: [MaterialColor] = []
    public var materialDark: [MaterialColor] = []
    public var materialTypography: [MaterialTypeStyle] = []
}

extension PlatformContext {
    /// Builds the context for a tenant. Tokens of a category are named by their path below the
    /// category's common group (`color.brand.primary` → `brandPrimary`); two tokens that would get
    /// the same name in any language are both left out, never silently merged, and returned as
    /// findings for validation to report (`branding.platform-name`, with the tenant's severity).
    public static func make(_ tenant: ResolvedTenant) -> (context: PlatformContext, nameCollisions: [Diagnostic]) {
        let base = TokenTable(tenant.tokens["default"])
        let darkName = tenant.tokens["dark"] != nil ? "dark" : "default"
        let dark = TokenTable(tenant.tokens[darkName])
        let named = Naming(tenant, base: base)

        var colors: [ColorToken] = []
        for (path, names) in named.colors {
            guard let light = base.values[path].flatMap(SRGBColor.init(tokenValue:)) else { continue }
            let night = dark.values[path].flatMap(SRGBColor.init(tokenValue:)) ?? light
            colors.append(ColorToken(names: names, light: PlatformValues.color(light), dark: PlatformValues.color(night)))
        }
        func dimensions(_ named: [(path: String, names: Names)]) -> [DimensionToken] {
            named.compactMap { path, names in
                base.values[path].flatMap(PlatformValues.points).map { DimensionToken(names: names, points: PlatformValues.number($0), css: PlatformValues.css(base.values[path]!)) }
            }
        }
        let spacing = dimensions(named.spacing), radii = dimensions(named.radii), sizes = dimensions(named.sizes)
        let typography = named.typography.compactMap { path, names in base.values[path].flatMap { PlatformValues.typography($0, names: names, bundledFonts: named.bundledFonts) } }
        let shadows = named.shadows.compactMap { path, names in
            base.values[path].flatMap { PlatformValues.shadow($0, extensions: base.tokens[path]?.extensions, names: names) }
        }
        let springs = named.springs.compactMap { path, names in
            base.tokens[path]?.extensions?["com.livery"]?["spring"].flatMap { PlatformValues.spring($0, names: names) }
        }
        let durations = named.durations.compactMap { path, names in base.values[path].flatMap { PlatformValues.duration($0, names: names) } }

        let manifest = tenant.tenant
        // A creator is shown under its own name: the app: it inherits is its platform's (Compañero for Lucía Moreno).
        let ownName = manifest?["kind"]?.string == "creator" ? manifest?["name"]?.string : nil
        let name = ownName ?? manifest?["app"]?["displayName"]?.string ?? manifest?["name"]?.string ?? tenant.id
        let applicationID = manifest?["app"]?["bundleIds"]?["android"]?.string ?? "com.example.\(PlatformNames.words(tenant.id).joined())"
        let kotlinPackage = applicationID.split(separator: ".").map { PlatformNames.kotlin(PlatformNames.words(String($0))) }.joined(separator: ".") + ".theme"
        let minSdk = androidMinSdk(tenant)
        let context = PlatformContext(
            tenant: Tenant(id: tenant.id, name: name, typeName: PlatformNames.pascalCase(PlatformNames.words(tenant.id)) + "Theme", kotlinPackage: kotlinPackage,
                           androidMinSdk: minSdk),
            modes: ["default"] + tenant.tokens.keys.filter { $0 != "default" }.sorted(),
            darkMode: darkName,
            colors: colors,
            nightColors: colors.filter { $0.light != $0.dark },
            typography: typography, spacing: spacing, radii: radii, sizes: sizes,
            shadows: shadows, springs: springs, durations: durations)
        var full = context
        let extras = brand(base, resolved: tenant.tokens["default"], named: named)
        (full.opacity, full.gradients, full.glass, full.tabs) = (extras.opacity, extras.gradients, extras.glass, extras.tabs)
        full.haptics = haptics(tenant, named: named, minSdk: minSdk)
        full.modeStyles = modeStyles(tenant, named: named)
        full.modeChanges = modeChanges(tenant, named: named)
        full.springEasings = springEasings(tenant, named: named)
        full.hitAreas = hitAreas(tenant, named: named)
        full.materialLight = materialColors(base, named: named)
        full.materialDark = materialColors(dark, named: named, lightTable: darkName == "default" ? nil : base)
        full.materialTypography = materialTypography(typography)
        return (full, named.collisions)
    }

    /// The tokens that would clash in the generated files, found without formatting any value: what
    /// validation asks of every tenant (`branding.platform-name`).
    public static func nameCollisions(_ tenant: ResolvedTenant) -> [Diagnostic] {
        Naming(tenant, base: TokenTable(tenant.tokens["default"])).collisions
    }

    /// Each category's tokens in file order (scales by value) with their names; tokens whose names
    /// clash are left out and reported in `collisions`.
    struct Naming {
        var colors: [(path: String, names: Names)] = [], spacing: [(path: String, names: Names)] = [], radii: [(path: String, names: Names)] = []
        var sizes: [(path: String, names: Names)] = [], typography: [(path: String, names: Names)] = [], shadows: [(path: String, names: Names)] = []
        var springs: [(path: String, names: Names)] = [], durations: [(path: String, names: Names)] = []
        var opacity: [(path: String, names: Names)] = [], gradients: [(path: String, names: Names)] = [], haptics: [(path: String, names: Names)] = []
        var collisions: [Diagnostic] = []
        /// The font files of `assets.fonts`, which decide the families Android draws (`AndroidFonts.resolve`).
        var bundledFonts: [String] = []

        init(_ tenant: ResolvedTenant, base: TokenTable) {
            bundledFonts = AndroidFonts.bundledFiles(tenant)
            let lineage = (tenant.ancestors + [tenant.source]).map(\.displayRoot)
            func ordered(_ paths: [String]) -> [String] { PlatformValues.sourceOrder(paths, tokens: base.tokens, lineage: lineage) }
            func paths(_ type: String, where include: (String) -> Bool = { _ in true }) -> [String] {
                ordered(base.values.keys.filter { base.types[$0] == type && include($0) })
            }
            // Scales read from small to large (type from large to small), whatever file a token came from.
            func byValue(_ paths: [String], descending: Bool = false, _ measure: (Node) -> Double?) -> [String] {
                let values = paths.map { base.values[$0].flatMap(measure) ?? 0 }
                return zip(paths, values).enumerated().sorted { a, b in
                    a.element.1 != b.element.1 ? (a.element.1 < b.element.1) != descending : a.offset < b.offset
                }.map(\.element.0)
            }
            var found: [Diagnostic] = []
            func named(_ paths: [String], category: String) -> [(path: String, names: Names)] {
                let (names, clashes) = PlatformValues.names(for: paths, category: category, locations: { base.tokens[$0]?.location })
                found += clashes
                return paths.compactMap { path in names[path].map { (path, $0) } }
            }
            func isIn(_ groups: [String]) -> (String) -> Bool { { path in groups.contains { path.hasPrefix($0 + ".") } } }
            let spacingGroups = ["spacing", "space"], radiusGroups = ["radius", "radii"]
            colors = named(paths("color"), category: "color")
            spacing = named(byValue(paths("dimension", where: isIn(spacingGroups)), PlatformValues.points), category: "spacing")
            radii = named(byValue(paths("dimension", where: isIn(radiusGroups)), PlatformValues.points), category: "radius")
            sizes = named(paths("dimension", where: { !isIn(spacingGroups + radiusGroups)($0) }), category: "size")
            typography = named(byValue(paths("typography"), descending: true) { $0["fontSize"].flatMap(PlatformValues.points) }, category: "typography")
            shadows = named(paths("shadow"), category: "shadow")
            let springPaths = base.values.keys.filter { base.tokens[$0]?.extensions?["com.livery"]?["spring"] != nil }
            springs = named(ordered(springPaths), category: "spring")
            durations = named(paths("duration"), category: "duration")
            opacity = named(paths("number", where: isIn(["opacity"])), category: "opacity")
            gradients = named(paths("gradient"), category: "gradient")
            haptics = named(PlatformContext.hapticStyles(tenant).keys.sorted(), category: "haptic")
            collisions = found.normalized()
        }
    }

    /// One mode's resolved tokens, empty when the mode is missing.
    struct TokenTable {
        var tokens: [String: DesignToken] = [:], values: [String: Node] = [:], types: [String: String] = [:]
        init(_ resolved: ResolvedTokens?) {
            if let resolved { (tokens, values, types) = (resolved.tokens, resolved.values, resolved.types) }
        }
    }
}
