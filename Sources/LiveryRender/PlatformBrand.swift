import Foundation
import LiveryLoad
import LiveryResolve

// The rest of the brand in the platform files (issue 15, item 6): opacity and gradient tokens, and
// the `com.livery` extensions DTCG has no type for (glass, tab identities, haptics), plus every mode
// beyond the dark appearance (density, contrast…) as CSS blocks.

extension PlatformContext {
    public struct OpacityToken: Encodable, Sendable {
        public var names: Names
        /// 0…1.
        public var value: String
    }

    public struct GradientStop: Encodable, Sendable {
        public var color: ColorValue
        /// 0…1.
        public var position: String
        /// `0%`…`100%`.
        public var percent: String
    }

    /// A DTCG gradient: colour stops along the gradient line (top to bottom unless the app turns it).
    public struct GradientToken: Encodable, Sendable {
        public var names: Names
        /// `linear-gradient(#1A1625 0%, #2A1F3D 100%)`: CSS's default direction is to bottom.
        public var css: String
        public var stops: [GradientStop]
    }

    /// A glass (frosted) surface: `com.livery.glass` on a colour token.
    public struct GlassToken: Encodable, Sendable {
        public var names: Names
        /// The token's colour with the fill opacity applied.
        public var fill: ColorValue
        /// Backdrop blur radius in points.
        public var blur: String
        public var fillOpacity: String
        public var border: ColorValue
    }

    /// A tab identity colour: `com.livery.tab` (the tab's tint wash and header colour).
    public struct TabToken: Encodable, Sendable {
        public var names: Names
        public var color: ColorValue
        /// Opacity of the tint wash, 0…1.
        public var tint: String
        /// The colour at the tint opacity.
        public var tintColor: ColorValue
        public var header: ColorValue
    }

    /// An interaction's haptic feedback: `com.livery.haptics` on a group.
    public struct HapticToken: Encodable, Sendable {
        public var names: Names
        /// `light`, `medium`, `heavy`, `soft`, `rigid`, `selection`, `success`, `warning` or `error`.
        public var style: String
        /// SwiftUI's `SensoryFeedback` (iOS 17): `.impact(weight: .light)`, `.selection`, `.success`.
        public var swiftFeedback: String
        /// `android.view.HapticFeedbackConstants` (the nearest constant).
        public var androidConstant: String
        /// The API level that added `androidConstant`.
        public var androidAPI: Int
        /// The Kotlin expression to use: the constant, or, when it is newer than the tenant's minSdk
        /// (`Tenant.androidMinSdk`), the constant behind a `Build.VERSION.SDK_INT` check with an older one for older
        /// devices (what Android lint's NewApi check accepts).
        public var androidExpression: String
    }

    public struct CSSDeclaration: Encodable, Sendable, Hashable {
        public var name: String
        public var value: String
    }

    /// The custom properties a mode changes, and where they apply: always under `selector` (an app
    /// sets `data-mode="dark compact"` on the root element), and under `media` too when the mode
    /// follows a system preference (dark: `prefers-color-scheme`, high-contrast: `prefers-contrast`).
    public struct ModeStyle: Encodable, Sendable {
        public var mode: String
        public var selector: String
        /// The media query, and the selector inside it (the mode's parts that no query covers).
        public var media: String?
        public var mediaSelector: String
        public var declarations: [CSSDeclaration]
    }

    /// The brand extras of one mode's tokens, named with the base mode's names.
    struct Brand {
        var opacity: [OpacityToken] = [], gradients: [GradientToken] = [], glass: [GlassToken] = [], tabs: [TabToken] = []
    }

    static func brand(_ table: TokenTable, resolved: ResolvedTokens?, named: Naming) -> Brand {
        var brand = Brand()
        // A loop with `if let`, not `?.number.map { … }` inside `compactMap`: that form crashed Swift 6.3.1's
        // optimizer in release builds ("Found ownership error", CopyPropagation).
        for (path, names) in named.opacity {
            guard let node = table.values[path], let value = node.number else { continue }
            brand.opacity.append(OpacityToken(names: names, value: PlatformValues.number(min(max(value, 0), 1))))
        }
        brand.gradients = named.gradients.compactMap { path, names in
            guard let items = table.values[path]?.items, !items.isEmpty else { return nil }
            var stops: [GradientStop] = []
            for item in items {
                guard let color = item["color"].flatMap(SRGBColor.init(tokenValue:)) else { return nil }
                let position = min(max(item["position"]?.number ?? 0, 0), 1)
                stops.append(GradientStop(color: PlatformValues.color(color), position: PlatformValues.number(position),
                                          percent: PlatformValues.number(position * 100) + "%"))
            }
            return GradientToken(names: names, css: "linear-gradient(" + stops.map { "\($0.color.css) \($0.percent)" }.joined(separator: ", ") + ")", stops: stops)
        }
        for (path, names) in named.colors {
            guard let color = table.values[path].flatMap(SRGBColor.init(tokenValue:)), let livery = resolved?.liveryExtension(of: path) else { continue }
            if let glass = livery["glass"] {
                let opacity = min(max(glass["fillOpacity"]?.number ?? 1, 0), 1)
                var fill = color
                fill.alpha = color.alpha * opacity
                let border = glass["border"].flatMap(SRGBColor.init(tokenValue:)) ?? color
                brand.glass.append(GlassToken(names: names, fill: PlatformValues.color(fill), blur: PlatformValues.number(glass["blur"]?.number ?? 0),
                                              fillOpacity: PlatformValues.number(opacity), border: PlatformValues.color(border)))
            }
            if let tab = livery["tab"] {
                let tint = min(max(tab["tint"]?.number ?? 0.15, 0), 1)
                var wash = color
                wash.alpha = color.alpha * tint
                let header = tab["header"].flatMap(SRGBColor.init(tokenValue:)) ?? color
                brand.tabs.append(TabToken(names: names, color: PlatformValues.color(color), tint: PlatformValues.number(tint),
                                           tintColor: PlatformValues.color(wash), header: PlatformValues.color(header)))
            }
        }
        return brand
    }

    /// Every interaction's haptic style, from the `com.livery.haptics` of the tenant's token groups.
    static func haptics(_ tenant: ResolvedTenant, named: Naming, minSdk: Int) -> [HapticToken] {
        let styles = hapticStyles(tenant)
        return named.haptics.compactMap { path, names in
            guard let style = styles[path], let feedback = hapticFeedback[style] else { return nil }
            let api = androidHapticAPI[feedback.android] ?? 1
            var expression = "HapticFeedbackConstants.\(feedback.android)"
            if api > minSdk, let fallback = androidHapticFallback[feedback.android] {
                expression = "if (Build.VERSION.SDK_INT >= \(api)) \(expression) else HapticFeedbackConstants.\(fallback)"
            }
            return HapticToken(names: names, style: style, swiftFeedback: feedback.swift, androidConstant: feedback.android, androidAPI: api, androidExpression: expression)
        }
    }

    /// `haptics.<interaction>` → style, across the lineage's groups (a nearer group's entry wins).
    static func hapticStyles(_ tenant: ResolvedTenant) -> [String: String] {
        var styles: [String: String] = [:]
        for (_, node) in tenant.tokenGroupExtensions.sorted(by: { $0.key < $1.key }) {
            for entry in LiveryExtensions.of(node)?["haptics"]?.entries ?? [] {
                if let style = entry.value.string, hapticFeedback[style] != nil { styles["haptics." + entry.key] = style }
            }
        }
        return styles
    }

    /// The Android API level generated Compose code runs on when the tenant declares none (`app.android.minSdk`):
    /// Jetpack Compose's own minimum. A constant added later is used behind an API-level check
    /// (`HapticToken.androidExpression`).
    public static let androidMinimumSdk = 21

    /// The tenant's `app.android.minSdk` (its own or inherited: a creator runs inside its platform's app), else
    /// `androidMinimumSdk`. Validation refuses a value outside `ManifestShapes.androidMinSdkRange`.
    public static func androidMinSdk(_ tenant: ResolvedTenant) -> Int {
        tenant.tenant?["app"]?["android"]?["minSdk"]?.int ?? androidMinimumSdk
    }

    /// The API level that added each `HapticFeedbackConstants` constant the table below names (Android's reference).
    public static let androidHapticAPI: [String: Int] = [
        "LONG_PRESS": 3, "VIRTUAL_KEY": 5, "KEYBOARD_TAP": 8, "CLOCK_TICK": 21, "CONTEXT_CLICK": 23, "CONFIRM": 30, "REJECT": 30,
    ]

    /// What a device older than a constant's API level gets instead: the nearest constant it has.
    static let androidHapticFallback: [String: String] = ["CONTEXT_CLICK": "VIRTUAL_KEY", "CONFIRM": "VIRTUAL_KEY", "REJECT": "LONG_PRESS"]

    /// Each style in SwiftUI's `SensoryFeedback` and Android's nearest `HapticFeedbackConstants`
    /// (KEYBOARD_TAP, VIRTUAL_KEY and LONG_PRESS by strength; CONFIRM and REJECT are API 30).
    static let hapticFeedback: [String: (swift: String, android: String)] = [
        "light": (".impact(weight: .light)", "KEYBOARD_TAP"), "medium": (".impact(weight: .medium)", "VIRTUAL_KEY"),
        "heavy": (".impact(weight: .heavy)", "LONG_PRESS"), "soft": (".impact(flexibility: .soft)", "KEYBOARD_TAP"),
        "rigid": (".impact(flexibility: .rigid)", "CONTEXT_CLICK"), "selection": (".selection", "CLOCK_TICK"),
        "success": (".success", "CONFIRM"), "warning": (".warning", "REJECT"), "error": (".error", "REJECT"),
    ]

    // MARK: CSS per mode

    /// Every custom property of `css/tokens.css` a mode's tokens give, in file order: what mode blocks are diffed from.
    static func cssDeclarations(_ table: TokenTable, resolved: ResolvedTokens?, named: Naming) -> [CSSDeclaration] {
        var out: [CSSDeclaration] = []
        func add(_ name: String, _ value: String) { out.append(CSSDeclaration(name: name, value: value)) }
        for (path, names) in named.colors { if let color = table.values[path].flatMap(SRGBColor.init(tokenValue:)) { add(names.cssName, color.hex(alpha: .lastUnlessOpaque)) } }
        for (path, names) in named.typography {
            guard let value = table.values[path], let type = PlatformValues.typography(value, names: names, bundledFonts: named.bundledFonts) else { continue }
            add(names.cssName, "\(type.weight) \(type.size)px/\(type.lineHeightRatio) \(type.cssFamily)")
            add(names.cssName + "-font-family", type.cssFamily)
            add(names.cssName + "-font-size", type.size + "px")
            add(names.cssName + "-font-weight", type.weight)
            add(names.cssName + "-line-height", type.lineHeightRatio)
            add(names.cssName + "-letter-spacing", type.letterSpacing + "px")
        }
        for (path, names) in named.spacing + named.radii + named.sizes {
            if let value = table.values[path], PlatformValues.points(value) != nil { add(names.cssName, PlatformValues.css(value)) }
        }
        for (path, names) in named.shadows {
            if let value = table.values[path], let shadow = PlatformValues.shadow(value, extensions: table.tokens[path]?.extensions, names: names) { add(names.cssName, shadow.css) }
        }
        for (path, names) in named.durations {
            if let value = table.values[path], let duration = PlatformValues.duration(value, names: names) { add(names.cssName, duration.milliseconds + "ms") }
        }
        let brand = brand(table, resolved: resolved, named: named)
        for token in brand.opacity { add(token.names.cssName, token.value) }
        for token in brand.gradients { add(token.names.cssName, token.css) }
        for token in brand.glass {
            add(token.names.cssName + "-glass-fill", token.fill.css)
            add(token.names.cssName + "-glass-blur", token.blur + "px")
            add(token.names.cssName + "-glass-border", token.border.css)
        }
        for token in brand.tabs {
            add(token.names.cssName + "-tab-tint", token.tintColor.css)
            add(token.names.cssName + "-tab-header", token.header.css)
        }
        return out
    }

    /// A block per mode other than the default, holding the properties whose value differs from
    /// the default mode's; modes of one part come first, so a combined mode (`dark+compact`) wins.
    static func modeStyles(_ tenant: ResolvedTenant, named: Naming) -> [ModeStyle] {
        let base = cssDeclarations(TokenTable(tenant.tokens["default"]), resolved: tenant.tokens["default"], named: named)
        let baseValues = Dictionary(base.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
        let modes = tenant.tokens.keys.filter { $0 != "default" }.sorted { a, b in
            let (pa, pb) = (a.split(separator: "+").count, b.split(separator: "+").count)
            return pa != pb ? pa < pb : a < b
        }
        return modes.compactMap { mode in
            let declarations = cssDeclarations(TokenTable(tenant.tokens[mode]), resolved: tenant.tokens[mode], named: named)
                .filter { baseValues[$0.name] != $0.value }
            guard !declarations.isEmpty else { return nil }
            let parts = mode.split(separator: "+").map(String.init)
            func selector(_ parts: [String]) -> String { ":root" + parts.map { "[data-mode~=\(PlatformValues.cssString($0))]" }.joined() }
            let queries = parts.compactMap { mediaFeature[$0] }
            return ModeStyle(mode: PlatformValues.commentText(mode), selector: selector(parts), media: queries.isEmpty ? nil : queries.joined(separator: " and "),
                             mediaSelector: selector(parts.filter { mediaFeature[$0] == nil }), declarations: declarations)
        }
    }

    /// The system preferences a mode of this name follows.
    static let mediaFeature: [String: String] = [
        "dark": "(prefers-color-scheme: dark)", "light": "(prefers-color-scheme: light)",
        "high-contrast": "(prefers-contrast: more)", "reduced-motion": "(prefers-reduced-motion: reduce)",
        // The one-word name the colour assets also read for the dark high-contrast appearance.
        "dark-high-contrast": "(prefers-color-scheme: dark) and (prefers-contrast: more)",
    ]
}

// MARK: Every mode, for every output

extension PlatformContext {
    /// A colour in one mode.
    public struct ModeColor: Encodable, Sendable {
        public var names: Names
        public var value: ColorValue
    }

    /// What one mode other than the default changes, token by token, in every target's syntax:
    /// only the tokens whose value differs from the default mode's (named with its names).
    public struct ModeTokens: Encodable, Sendable {
        /// The mode's name as the tenant writes it (`dark+compact`).
        public var mode: String
        /// The name as a quoted TypeScript key (`'dark+compact'`) and as identifiers (`darkCompact`, `DarkCompact`).
        public var tsKey: String
        public var camelName: String
        public var pascalName: String
        public var colors: [ModeColor] = []
        public var typography: [TypographyToken] = []
        public var spacing: [DimensionToken] = []
        public var radii: [DimensionToken] = []
        public var sizes: [DimensionToken] = []
        public var shadows: [ShadowToken] = []
        public var durations: [DurationToken] = []
        public var opacity: [OpacityToken] = []
        public var gradients: [GradientToken] = []
        public var glass: [GlassToken] = []
        public var tabs: [TabToken] = []
    }

    /// Every token of one mode, named with the default mode's names.
    static func modeTokens(_ mode: String, _ table: TokenTable, resolved: ResolvedTokens?, named: Naming) -> ModeTokens {
        let words = PlatformNames.words(mode)
        var out = ModeTokens(mode: PlatformValues.commentText(mode), tsKey: "'" + mode.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'",
                             camelName: PlatformNames.swift(words), pascalName: PlatformNames.pascalCase(words))
        out.colors = named.colors.compactMap { path, names in table.values[path].flatMap(SRGBColor.init(tokenValue:)).map { ModeColor(names: names, value: PlatformValues.color($0)) } }
        out.typography = named.typography.compactMap { path, names in table.values[path].flatMap { PlatformValues.typography($0, names: names, bundledFonts: named.bundledFonts) } }
        func dimensions(_ named: [(path: String, names: Names)]) -> [DimensionToken] {
            named.compactMap { path, names in
                table.values[path].flatMap(PlatformValues.points).map { DimensionToken(names: names, points: PlatformValues.number($0), css: PlatformValues.css(table.values[path]!)) }
            }
        }
        (out.spacing, out.radii, out.sizes) = (dimensions(named.spacing), dimensions(named.radii), dimensions(named.sizes))
        out.shadows = named.shadows.compactMap { path, names in table.values[path].flatMap { PlatformValues.shadow($0, extensions: table.tokens[path]?.extensions, names: names) } }
        out.durations = named.durations.compactMap { path, names in table.values[path].flatMap { PlatformValues.duration($0, names: names) } }
        let extras = brand(table, resolved: resolved, named: named)
        (out.opacity, out.gradients, out.glass, out.tabs) = (extras.opacity, extras.gradients, extras.glass, extras.tabs)
        return out
    }

    /// Each mode but the default with only what it changes; modes of one part first, then combined
    /// ones (`dark+compact`), each by name. Modes that change nothing are left out.
    static func modeChanges(_ tenant: ResolvedTenant, named: Naming) -> [ModeTokens] {
        let base = modeTokens("default", TokenTable(tenant.tokens["default"]), resolved: tenant.tokens["default"], named: named)
        func changed<T: Encodable>(_ values: [T], _ baseValues: [T]) -> [T] {
            let known = Set(baseValues.map(TemplateContext.json))
            return values.filter { !known.contains(TemplateContext.json($0)) }
        }
        let modes = tenant.tokens.keys.filter { $0 != "default" }.sorted { a, b in
            let (pa, pb) = (a.split(separator: "+").count, b.split(separator: "+").count)
            return pa != pb ? pa < pb : a < b
        }
        return modes.compactMap { mode in
            var tokens = modeTokens(mode, TokenTable(tenant.tokens[mode]), resolved: tenant.tokens[mode], named: named)
            tokens.colors = changed(tokens.colors, base.colors)
            tokens.typography = changed(tokens.typography, base.typography)
            tokens.spacing = changed(tokens.spacing, base.spacing)
            tokens.radii = changed(tokens.radii, base.radii)
            tokens.sizes = changed(tokens.sizes, base.sizes)
            tokens.shadows = changed(tokens.shadows, base.shadows)
            tokens.durations = changed(tokens.durations, base.durations)
            tokens.opacity = changed(tokens.opacity, base.opacity)
            tokens.gradients = changed(tokens.gradients, base.gradients)
            tokens.glass = changed(tokens.glass, base.glass)
            tokens.tabs = changed(tokens.tabs, base.tabs)
            let empty = tokens.colors.isEmpty && tokens.typography.isEmpty && tokens.spacing.isEmpty && tokens.radii.isEmpty && tokens.sizes.isEmpty
                && tokens.shadows.isEmpty && tokens.durations.isEmpty && tokens.opacity.isEmpty && tokens.gradients.isEmpty && tokens.glass.isEmpty && tokens.tabs.isEmpty
            return empty ? nil : tokens
        }
    }
}

// MARK: Springs for CSS, hit areas

extension PlatformContext {
    /// A spring as CSS can play it: a `linear()` easing sampling the spring's motion over its settle
    /// time (CSS Easing Level 2), and that time as the duration.
    public struct SpringEasing: Encodable, Sendable {
        public var names: Names
        public var css: String
        public var milliseconds: String
    }

    /// A component dimension drawn smaller than it can be touched (`com.livery.hitArea`): the
    /// touchable size, in points, that the app pads the drawn one out to.
    public struct HitAreaToken: Encodable, Sendable {
        public var names: Names
        public var points: String
        public var css: String
    }

    static func springEasings(_ tenant: ResolvedTenant, named: Naming, samples: Int = 24) -> [SpringEasing] {
        named.springs.compactMap { path, names in
            guard let node = tenant.tokens["default"]?.tokens[path]?.extensions?["com.livery"]?["spring"], let spring = SpringConfig(node),
                  spring.mass > 0, spring.stiffness > 0, spring.damping >= 0, spring.settleTime.isFinite else { return nil }
            let span = spring.settleTime
            var stops = (0..<samples).map { PlatformValues.decimal(spring.position(at: span * Double($0) / Double(samples)), places: 3) }
            stops.append("1")
            return SpringEasing(names: names, css: "linear(" + stops.joined(separator: ", ") + ")", milliseconds: PlatformValues.number((span * 1000).rounded()))
        }
    }

    static func hitAreas(_ tenant: ResolvedTenant, named: Naming) -> [HitAreaToken] {
        guard let resolved = tenant.tokens["default"] else { return [] }
        return named.sizes.compactMap { path, names in
            var area = resolved.liveryExtension(of: path)?["hitArea"]
            if area == nil {
                // A group's hitArea covers its dimensions; the nearest group wins.
                var parts = path.split(separator: ".").dropLast()
                while area == nil, !parts.isEmpty {
                    area = LiveryExtensions.of(tenant.tokenGroupExtensions[parts.joined(separator: ".")])?["hitArea"].map(resolved.resolvingReferences)
                    parts = parts.dropLast()
                }
            }
            guard let area, let points = PlatformValues.points(area) else { return nil }
            return HitAreaToken(names: names, points: PlatformValues.number(points), css: PlatformValues.css(area))
        }
    }
}
