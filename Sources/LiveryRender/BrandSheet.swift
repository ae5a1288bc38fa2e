import Foundation
import LiveryDiagnostics
import LiveryLoad
import LiveryResolve

/// What the brand sheet template (`Templates/preview/brand-sheet.html.mustache`) sees: swatches per
/// mode, the type scale, radii, shadows, springs in words and the contrast matrix, all measured here,
/// in the words of the tenant's default locale. A tenant that extends another (a creator) has every
/// colour once, in its base's place, its own values marked with its name and the base's value struck.
public struct BrandSheetContext: Encodable, Sendable {
    public struct Swatch: Encodable, Sendable {
        public var path: String
        public var name: String
        public var hex: String
        public var css: String
        /// `#000000` or `#FFFFFF`, whichever reads better on the swatch.
        public var ink: String
        /// "60 %" for a translucent colour, empty when opaque.
        public var alpha: String
        /// Whether the value differs from the default mode's.
        public var changed: Bool
        /// The tenant's name when it sets this colour itself (a creator's override or addition), for its badge.
        public var mark: String? = nil
        /// "set by Lucía Moreno" or "added by Lucía Moreno": the swatch's accessible label.
        public var markLabel: String? = nil
        /// A colour the base does not have.
        public var added = false
        /// The base's value this one replaces (`#007BFF`), when the tenant's differs.
        public var replaces: String? = nil
        /// "through color.palette.primary": an inherited token that takes the tenant's value through an alias.
        public var through: String? = nil
    }

    public struct SwatchGroup: Encodable, Sendable {
        public var name: String
        public var swatches: [Swatch]
    }

    public struct Mode: Encodable, Sendable {
        public var name: String
        /// "mode “dark”", in the page's words.
        public var title: String
        public var groups: [SwatchGroup]
        public var contrast: [ContrastPair]
        public var hasContrast: Bool
        /// "5 of 6 pairs meet AA".
        public var contrastSummary: String
    }

    public struct ContrastPair: Encodable, Sendable {
        public var foreground: String
        public var background: String
        public var foregroundHex: String
        public var backgroundHex: String
        /// `body` (AA 4.5:1, AAA 7:1) or `ui` (large text and UI: AA 3:1, AAA 4.5:1).
        public var usage: String
        /// The usage, and whether AA and AAA pass, in the page's words.
        public var usageLabel: String
        public var aaLabel: String
        public var aaaLabel: String
        /// Rounded down, so a pair shown as 4.50:1 really reaches 4.5:1.
        public var ratio: String
        public var aa: String
        public var aaa: String
        /// Why a failing pair is kept as designed (`acknowledged` on the pair), if the tenant says.
        public var acknowledged: String?
    }

    public struct TypeTier: Encodable, Sendable {
        public var name: String
        public var cssFamily: String
        public var size: String
        public var weight: String
        public var lineHeight: String
        public var letterSpacing: String
        public var family: String
    }

    public struct Measure: Encodable, Sendable {
        public var name: String
        public var label: String
        /// The CSS value to draw it with (radii clamped to the sample's half width).
        public var css: String
    }

    public struct Spring: Encodable, Sendable {
        public var name: String
        public var summary: String
        public var parameters: String
        public var curve: String
        /// The y of the dashed target line in the curve's 240 × 90 box.
        public var targetY: String
    }

    public var tenant: PlatformContext.Tenant
    /// The tenant's default locale: the page's `lang` and the language of its words.
    public var locale: String
    public var direction: String
    /// The sheet's own words (`PreviewWords`), by key.
    public var words: [String: String]
    /// For a tenant that extends another: what its marks mean.
    public var oursNote: String?
    public var modes: [Mode]
    public var typography: [TypeTier]
    public var spacing: [Measure]
    public var radii: [Measure]
    public var shadows: [Measure]
    public var springs: [Spring]
    public var sample: String
}

extension BrandSheetContext {
    /// WCAG 2.x thresholds: (AA, AAA) by usage.
    static let thresholds: [String: (Double, Double)] = ["body": (4.5, 7), "ui": (3, 4.5)]

    /// Colliding token names are validation's to report (`branding.platform-name`); the sheet shows the rest.
    public static func make(_ tenant: ResolvedTenant) -> BrandSheetContext {
        let platform = PlatformContext.make(tenant).context
        let defaults = tenant.tokens["default"]
        let locale = tenant.defaultLocale ?? "en"
        let words = PreviewWords(locale: locale)
        let lineage = TokenLineage(tenant, name: platform.tenant.name)
        let paths = platform.colors.map(\.names.path)
        var modes: [Mode] = []
        for mode in platform.modes {
            guard let tokens = tenant.tokens[mode] else { continue }
            let base = lineage?.base.tokens[mode]
            var groups: [SwatchGroup] = []
            for path in lineage?.baseOrder(paths) ?? paths {
                guard let value = tokens.values[path].flatMap(SRGBColor.init(tokenValue:)) else { continue }
                let parts = path.split(separator: ".").map(String.init)
                let group = parts.count > 2 ? parts[1] : parts.first ?? ""
                let name = parts.dropFirst(parts.count > 2 ? 2 : 1).joined(separator: ".")
                let original = defaults?.values[path].flatMap(SRGBColor.init(tokenValue:))
                var swatch = Swatch(path: path, name: name, hex: value.hex(alpha: .omitted), css: value.hex(alpha: .lastUnlessOpaque), ink: ink(on: value),
                                    alpha: value.isOpaque ? "" : "\(Int((value.alpha * 100).rounded())) %", changed: mode != "default" && original != value)
                if let lineage {
                    let was = base?.values[path].flatMap(SRGBColor.init(tokenValue:))
                    if was != nil && was != value { swatch.replaces = was?.hex(alpha: .lastUnlessOpaque) }
                    if lineage.isOwn(path, in: tokens) {
                        swatch.added = base?.tokens[path] == nil
                        swatch.mark = lineage.name
                        swatch.markLabel = words(swatch.added ? .addedBy : .setBy, ["name": lineage.name])
                    } else if swatch.replaces != nil {
                        swatch.through = lineage.ownTarget(of: path, in: tokens).map { words(.through, ["path": $0]) }
                    }
                }
                // A creator's additions join their group in the base's order, rather than a second group of that name.
                if let index = groups.firstIndex(where: { $0.name == group }) {
                    groups[index].swatches.append(swatch)
                } else {
                    groups.append(SwatchGroup(name: group, swatches: [swatch]))
                }
            }
            let pairs = contrastPairs(tenant, tokens: tokens, words: words)
            let passing = pairs.filter { $0.aa == "pass" }.count
            modes.append(Mode(name: mode, title: words(.mode, ["name": mode]), groups: groups, contrast: pairs, hasContrast: !pairs.isEmpty,
                              contrastSummary: pairs.isEmpty ? words(.noContrast)
                                  : words(.contrastSummary, ["passing": String(passing), "total": String(pairs.count)])))
        }
        let typography = platform.typography.map {
            TypeTier(name: $0.names.path.split(separator: ".").dropFirst().joined(separator: "."), cssFamily: $0.cssFamily, size: $0.size,
                     weight: $0.weight, lineHeight: $0.lineHeightRatio, letterSpacing: $0.letterSpacing, family: $0.family)
        }
        func label(_ path: String) -> String { path.split(separator: ".").dropFirst().joined(separator: ".") }
        let spacing = platform.spacing.map { Measure(name: label($0.names.path), label: "\($0.points) pt", css: "\(min(Double($0.points) ?? 0, 400))px") }
        let radii = platform.radii.map { Measure(name: label($0.names.path), label: "\($0.points) pt", css: "\(min(Double($0.points) ?? 0, 48))px") }
        let shadows = platform.shadows.map { Measure(name: label($0.names.path), label: $0.css, css: $0.css) }
        let springs = platform.springs.compactMap { spring -> Spring? in
            guard let damping = Double(spring.damping), let stiffness = Double(spring.stiffness), let mass = Double(spring.mass) else { return nil }
            let motion = SpringConfig(damping: damping, stiffness: stiffness, mass: mass)
            let curve = motion.curve(width: 240, height: 86)
            return Spring(name: label(spring.names.path), summary: summary(motion, words: words),
                          parameters: words(.springParameters, ["damping": spring.damping, "stiffness": spring.stiffness, "mass": spring.mass,
                                                                "ratio": spring.dampingRatio]),
                          curve: curve.points, targetY: PlatformValues.decimal(curve.targetY, places: 1))
        }
        let context = BrandSheetContext(tenant: platform.tenant, locale: locale, direction: ContentPreview.Site.direction(locale),
                                        words: words.templateWords, oursNote: lineage.map { words(.oursNote, ["name": $0.name, "base": $0.baseName]) },
                                        modes: modes, typography: typography, spacing: spacing, radii: radii,
                                        shadows: shadows, springs: springs, sample: words(.sampleSentence))
        return context
    }

    /// `SpringConfig.summary` in the page's words.
    static func summary(_ motion: SpringConfig, words: PreviewWords) -> String {
        switch motion.feel {
        case .bouncy, .lively, .smooth:
            let feel: PreviewWords.Key = motion.feel == .bouncy ? .bouncy : motion.feel == .lively ? .lively : .smooth
            return words(.springOvershoots, ["feel": words(feel), "amount": motion.overshootText, "time": motion.settleText])
        case .criticallyDamped: return words(.springCritical, ["time": motion.settleText])
        case .overdamped: return words(.springOverdamped, ["time": motion.settleText])
        }
    }

    /// The declared pairs (`$extensions.com.livery.contrast` at a token file's top level) measured in one mode.
    static func contrastPairs(_ tenant: ResolvedTenant, tokens: ResolvedTokens, words: PreviewWords) -> [ContrastPair] {
        let declared = tenant.tokenGroupExtensions[""]?["com.livery"]?["contrast"]?.items ?? []
        return declared.compactMap { pair -> ContrastPair? in
            guard let foreground = pair["foreground"]?.string, let background = pair["background"]?.string else { return nil }
            let usage = pair["usage"]?.string ?? "body"
            let usageLabel = usage == "body" ? words(.body) : usage == "ui" ? words(.ui) : usage
            func verdict(_ passes: Bool) -> (String, String) { passes ? ("pass", words(.pass)) : ("fail", words(.fail)) }
            func color(_ reference: String) -> SRGBColor? {
                let path = reference.hasPrefix("{") && reference.hasSuffix("}") ? String(reference.dropFirst().dropLast()) : reference
                return tokens.values[path].flatMap(SRGBColor.init(tokenValue:))
            }
            let strip = { (text: String) in text.trimmingCharacters(in: CharacterSet(charactersIn: "{}")) }
            guard let front = color(foreground), let back = color(background) else {
                return ContrastPair(foreground: strip(foreground), background: strip(background), foregroundHex: "?", backgroundHex: "?",
                                    usage: usage, usageLabel: usageLabel, aaLabel: words(.fail), aaaLabel: words(.fail),
                                    ratio: words(.notAColour), aa: "fail", aaa: "fail", acknowledged: pair["acknowledged"]?.string)
            }
            let ratio = Contrast.ratio(foreground: front, background: back).ratio
            let (aa, aaa) = thresholds[usage] ?? thresholds["body"]!
            let (aaClass, aaLabel) = verdict(ratio >= aa), (aaaClass, aaaLabel) = verdict(ratio >= aaa)
            return ContrastPair(foreground: strip(foreground), background: strip(background), foregroundHex: front.hex(alpha: .lastUnlessOpaque), backgroundHex: back.hex(alpha: .lastUnlessOpaque),
                                usage: usage, usageLabel: usageLabel, aaLabel: aaLabel, aaaLabel: aaaLabel,
                                ratio: String(format: "%.2f:1", (ratio * 100).rounded(.down) / 100),
                                aa: aaClass, aaa: aaaClass, acknowledged: pair["acknowledged"]?.string)
        }
    }

    /// Black or white, whichever contrasts more with the swatch (as seen over white).
    static func ink(on color: SRGBColor) -> String {
        let black = SRGBColor.black, white = SRGBColor.white
        return Contrast.ratio(foreground: black, background: color).ratio >= Contrast.ratio(foreground: white, background: color).ratio ? "#000000" : "#FFFFFF"
    }
}

/// `livery preview`: the brand sheet as one self-contained HTML page.
public enum BrandSheet {
    public static func render(_ tenant: ResolvedTenant, template: String, templatePath: String) -> (html: String?, diagnostics: [Diagnostic]) {
        let context = BrandSheetContext.make(tenant)
        switch TemplateContext.parse(template, file: templatePath) {
        case .success(let parsed): return (parsed.render(TemplateContext.mustacheValue(context)), [])
        case .failure(let diagnostic): return (nil, [diagnostic])
        }
    }
}
