import Foundation
import LiveryResolve

// Material 3 for Compose (issue 36): `MaterialTheme(colorScheme:, typography:)` is how Compose apps take a theme, so
// the tenant's semantic colours become a `ColorScheme` per appearance and its type tiers a `Typography`. The table
// below is the whole mapping; docs/platform-files.md#material-3 prints it.

extension PlatformContext {
    /// One Material 3 colour role in one appearance: the colour and, for the generated comment, where it came from.
    public struct MaterialColor: Encodable, Sendable {
        /// The parameter of `lightColorScheme`/`darkColorScheme`: `primary`, `onPrimary`, `surfaceContainerHigh`…
        public var role: String
        public var color: ColorValue
        /// `color.brand.primary`, or how a role without a token was filled (`as primary`, `legible on primary: …`).
        public var source: String
    }

    /// One Material 3 text style: the tenant's type tier that stands for it.
    public struct MaterialTypeStyle: Encodable, Sendable {
        /// The parameter of `Typography(…)`: `displayLarge` … `labelSmall`.
        public var role: String
        /// The tier (its names in `Typography`) and its size, and Material's default size for the role.
        public var names: Names
        public var size: String
        public var materialSize: String
    }

    /// How a role without a token of its own is filled.
    enum MaterialFallback {
        /// The same colour as an earlier role.
        case role(String)
        /// Text on an earlier role: the tenant's text colour that is most legible on it, else black or white.
        case legibleOn(String)
        /// Left out of the call: Material's baseline colour for the appearance.
        case baseline
    }

    /// Each role of Material 3's `ColorScheme`, the tenant tokens that feed it (the first the tenant has wins) and
    /// what it is without any. Roles are listed so that a fallback only names a role above it.
    static let materialColorRoles: [(role: String, tokens: [String], fallback: MaterialFallback)] = [
        ("primary", ["color.brand.primary", "color.component.button.primary.background"], .baseline),
        ("onPrimary", ["color.text.on-primary", "color.component.button.primary.text"], .legibleOn("primary")),
        ("primaryContainer", ["color.brand.primary-subtle"], .role("primary")),
        ("onPrimaryContainer", ["color.text.on-primary-subtle"], .legibleOn("primaryContainer")),
        ("inversePrimary", ["color.brand.primary-subtle"], .role("primary")),
        ("secondary", ["color.brand.secondary", "color.brand.accent"], .role("primary")),
        ("onSecondary", ["color.text.on-secondary"], .legibleOn("secondary")),
        ("secondaryContainer", ["color.brand.secondary-subtle"], .role("secondary")),
        ("onSecondaryContainer", ["color.text.on-secondary-subtle"], .legibleOn("secondaryContainer")),
        ("tertiary", ["color.brand.tertiary", "color.brand.accent"], .role("secondary")),
        ("onTertiary", ["color.text.on-tertiary", "color.text.on-accent"], .legibleOn("tertiary")),
        ("tertiaryContainer", ["color.brand.tertiary-subtle", "color.brand.accent-subtle"], .role("tertiary")),
        ("onTertiaryContainer", ["color.text.on-tertiary-subtle", "color.text.on-accent-subtle"], .legibleOn("tertiaryContainer")),
        ("background", ["color.background.default", "color.surface.default"], .baseline),
        ("onBackground", ["color.text.primary"], .legibleOn("background")),
        ("surface", ["color.surface.default", "color.background.default"], .baseline),
        ("onSurface", ["color.text.primary"], .legibleOn("surface")),
        ("surfaceVariant", ["color.surface.subtle", "color.background.subtle", "color.surface.sunken"], .role("surface")),
        ("onSurfaceVariant", ["color.text.secondary"], .role("onSurface")),
        ("surfaceTint", [], .role("primary")),
        ("inverseSurface", ["color.surface.inverse"], .role("onSurface")),
        ("inverseOnSurface", ["color.text.inverse"], .role("surface")),
        ("error", ["color.semantic.error"], .baseline),
        ("onError", ["color.text.on-error"], .legibleOn("error")),
        ("errorContainer", ["color.semantic.error-subtle"], .role("error")),
        ("onErrorContainer", ["color.text.on-error-subtle"], .legibleOn("errorContainer")),
        ("outline", ["color.border.strong", "color.border.default"], .role("onSurfaceVariant")),
        ("outlineVariant", ["color.border.subtle", "color.border.default"], .role("outline")),
        ("scrim", [], .baseline),
        ("surfaceBright", [], .role("surface")),
        ("surfaceDim", [], .role("surfaceVariant")),
        ("surfaceContainerLowest", [], .role("surface")),
        ("surfaceContainerLow", [], .role("surface")),
        ("surfaceContainer", [], .role("surface")),
        ("surfaceContainerHigh", ["color.surface.elevated"], .role("surface")),
        ("surfaceContainerHighest", [], .role("surfaceVariant")),
    ]

    /// The tenant's text colours an `on` role without a token may take, the most legible on the role first.
    static let materialTextCandidates = ["color.text.primary", "color.text.on-primary", "color.text.inverse"]

    /// WCAG 2's minimum for body text: an `on` role takes a tenant text colour only when it reaches this on the role.
    static let materialLegibleContrast = 4.5

    /// The colour roles of one appearance from that mode's tokens. Only tokens that have a name in the generated
    /// files count (`named`), so a role never comes from a token the files leave out. For the dark appearance,
    /// `lightTable` is the default mode's: a token the dark mode leaves at its light value (most likely one its file
    /// forgot) gives way to a later token of the role that the dark mode does set.
    static func materialColors(_ table: TokenTable, named: Naming, lightTable: TokenTable? = nil) -> [MaterialColor] {
        let known = Set(named.colors.map(\.path))
        func token(_ path: String, in table: TokenTable) -> SRGBColor? { known.contains(path) ? table.values[path].flatMap(SRGBColor.init(tokenValue:)) : nil }
        func token(_ path: String) -> SRGBColor? { token(path, in: table) }
        var chosen: [String: SRGBColor] = [:]
        var out: [MaterialColor] = []
        for (role, tokens, fallback) in materialColorRoles {
            var color: SRGBColor?
            var source = ""
            let present = tokens.filter { token($0) != nil }
            let darkened = lightTable.flatMap { light in present.first { token($0) != token($0, in: light) } }
            if let path = darkened ?? present.first {
                (color, source) = (token(path), path)
            } else {
                switch fallback {
                case .role(let other):
                    (color, source) = (chosen[other], "no token: as \(other)")
                case .legibleOn(let other):
                    guard let background = chosen[other] else { break }
                    let text = materialTextCandidates.compactMap { path in token(path).map { (path, $0) } }
                        .map { (path: $0.0, color: $0.1, ratio: Contrast.ratio(foreground: $0.1, background: background).ratio) }
                        .filter { $0.ratio >= materialLegibleContrast }
                        .max { $0.ratio < $1.ratio }
                    if let text {
                        (color, source) = (text.color, "no token: legible on \(other), \(text.path)")
                    } else {
                        let (black, white) = (SRGBColor.black, SRGBColor.white)
                        let blackWins = Contrast.ratio(foreground: black, background: background).ratio > Contrast.ratio(foreground: white, background: background).ratio
                        (color, source) = (blackWins ? black : white, "no token: legible on \(other), \(blackWins ? "black" : "white")")
                    }
                case .baseline:
                    break
                }
            }
            guard let color else { continue }
            chosen[role] = color
            out.append(MaterialColor(role: role, color: PlatformValues.color(color), source: PlatformValues.commentText(source)))
        }
        return out
    }

    /// Material 3's text styles with their default size and weight (the Material 3 type scale, as Compose's
    /// `Typography()` has them).
    static let materialTypeScale: [(role: String, size: Double, weight: Int)] = [
        ("displayLarge", 57, 400), ("displayMedium", 45, 400), ("displaySmall", 36, 400),
        ("headlineLarge", 32, 400), ("headlineMedium", 28, 400), ("headlineSmall", 24, 400),
        ("titleLarge", 22, 400), ("titleMedium", 16, 500), ("titleSmall", 14, 500),
        ("bodyLarge", 16, 400), ("bodyMedium", 14, 400), ("bodySmall", 12, 400),
        ("labelLarge", 14, 500), ("labelMedium", 12, 500), ("labelSmall", 11, 500),
    ]

    /// Each Material style takes the tier whose size is nearest to the style's default size; on a tie the one whose
    /// weight is nearest, then the larger (as `TypeTiers` picks the iOS text style). No tiers: Material's own.
    static func materialTypography(_ tiers: [TypographyToken]) -> [MaterialTypeStyle] {
        let measured = tiers.compactMap { tier in Double(tier.size).map { (tier: tier, size: $0, weight: Int(tier.weight) ?? 400) } }
        return materialTypeScale.compactMap { role, size, weight in
            let best = measured.enumerated().min { a, b in
                let (da, db) = (abs(a.element.size - size), abs(b.element.size - size))
                if da != db { return da < db }
                let (wa, wb) = (abs(a.element.weight - weight), abs(b.element.weight - weight))
                if wa != wb { return wa < wb }
                return a.element.size != b.element.size ? a.element.size > b.element.size : a.offset < b.offset
            }?.element
            return best.map { MaterialTypeStyle(role: role, names: $0.tier.names, size: $0.tier.size, materialSize: PlatformValues.number(size)) }
        }
    }
}
