import Foundation

// WCAG 2.x contrast (WCAG 2.2 §1.4.3, §1.4.6, §1.4.11 and the definitions of "relative luminance"
// and "contrast ratio"). Ratios are never rounded before comparison: WCAG's thresholds are exact, so
// 4.499 fails 4.5 even though it would print as "4.5:1".

/// A WCAG 2.x contrast requirement and its minimum ratio.
public enum WCAGLevel: String, Sendable, Hashable, CaseIterable {
    /// SC 1.4.3 Contrast (Minimum), body text: 4.5:1.
    case aa
    /// SC 1.4.3, large text (≥ 18pt, or ≥ 14pt bold): 3:1.
    case aaLarge
    /// SC 1.4.11 Non-text Contrast, UI components and graphical objects: 3:1.
    case aaNonText
    /// SC 1.4.6 Contrast (Enhanced), body text: 7:1.
    case aaa
    /// SC 1.4.6, large text: 4.5:1.
    case aaaLarge

    /// The smallest ratio that meets the requirement.
    public var minimumRatio: Double {
        switch self {
        case .aa, .aaaLarge: 4.5
        case .aaLarge, .aaNonText: 3
        case .aaa: 7
        }
    }

    /// Whether `ratio` (unrounded) meets the requirement.
    public func isMet(by ratio: Double) -> Bool { ratio >= minimumRatio }
}

/// A contrast ratio with the opaque colours it was computed from (after alpha compositing).
public struct ContrastResult: Sendable, Hashable {
    /// (L1 + 0.05) / (L2 + 0.05), L1 the lighter; from 1 to 21, unrounded.
    public var ratio: Double
    /// The foreground composited over the effective background (opaque).
    public var foreground: SRGBColor
    /// The background composited over the base (opaque).
    public var background: SRGBColor
    /// True when a translucent background (or base) had to be composited over an assumed white page,
    /// because no opaque base was declared; the ratio then depends on where the colours are used.
    public var assumedWhiteBase: Bool

    /// Whether the ratio meets `level`.
    public func meets(_ level: WCAGLevel) -> Bool { level.isMet(by: ratio) }

    /// Every level the ratio meets.
    public var levelsMet: [WCAGLevel] { WCAGLevel.allCases.filter(meets) }

    /// The ratio for people, truncated (never rounded up) to two decimals, e.g. `4.48:1`, so a printed
    /// "4.50:1" always passes 4.5.
    public var formatted: String {
        let hundredths = (ratio * 100).rounded(.down)
        return String(format: "%.2f:1", hundredths / 100)
    }
}

/// WCAG 2.x relative luminance, contrast ratio and alpha compositing of sRGB colours.
public enum Contrast {
    /// WCAG 2.x relative luminance of the clipped sRGB channels.
    ///
    /// WCAG's definition linearises with the threshold 0.03928 (from an early sRGB draft); IEC 61966-2-1
    /// and CSS use 0.04045. No 8-bit channel value lies between the two, so we use the sRGB function.
    /// The coefficients are WCAG's four-digit ones (0.2126, 0.7152, 0.0722), not the CSS matrix's
    /// Y row; the two differ by < 4e-5 in luminance.
    public static func relativeLuminance(_ color: SRGBColor) -> Double {
        let c = color.clipped
        let linear = ColorConversion.map(c.vector, ColorConversion.srgbToLinear)
        return 0.2126 * linear.x + 0.7152 * linear.y + 0.0722 * linear.z
    }

    /// The WCAG contrast ratio of two relative luminances, in either order.
    public static func ratio(luminance a: Double, _ b: Double) -> Double {
        (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    /// Source-over compositing (Compositing and Blending Level 1, "Simple alpha compositing") in gamma-encoded sRGB, as browsers
    /// paint; straight alpha in and out. An opaque backdrop gives an opaque result.
    public static func composite(_ source: SRGBColor, over backdrop: SRGBColor) -> SRGBColor {
        let s = source.clipped, b = backdrop.clipped
        let alpha = s.alpha + b.alpha * (1 - s.alpha)
        guard alpha > 0 else { return SRGBColor(red: 0, green: 0, blue: 0, alpha: 0) }
        let rgb = (s.vector * s.alpha + b.vector * b.alpha * (1 - s.alpha)) / alpha
        return SRGBColor(rgb, alpha: alpha)
    }

    /// Contrast of `foreground` drawn on `background`, which is itself drawn on `base` (the page or
    /// surface beneath; only needed when the background is translucent, white is assumed otherwise).
    /// Channels are clipped to sRGB; gamut-map colours first (the `DTCGColor` overload does).
    public static func ratio(foreground: SRGBColor, background: SRGBColor, base: SRGBColor? = nil) -> ContrastResult {
        var assumed = false
        var surface = base ?? .white
        if surface.alpha < 1 {
            surface = composite(surface, over: .white)
            assumed = true
        }
        var backdrop = background.clipped
        if backdrop.alpha < 1 {
            backdrop = composite(backdrop, over: surface)
            assumed = assumed || base == nil
        }
        backdrop.alpha = 1
        var front = composite(foreground, over: backdrop)
        front.alpha = 1
        let value = ratio(luminance: relativeLuminance(front), relativeLuminance(backdrop))
        return ContrastResult(ratio: value, foreground: front, background: backdrop, assumedWhiteBase: assumed)
    }

    /// Contrast of DTCG colours, each first mapped into sRGB with `gamutMapping`.
    public static func ratio(foreground: DTCGColor, background: DTCGColor, base: DTCGColor? = nil,
                             gamutMapping: ColorGamutMapping = .cssOKLCHChroma) -> ContrastResult {
        ratio(foreground: foreground.srgb(gamutMapping: gamutMapping),
              background: background.srgb(gamutMapping: gamutMapping),
              base: base?.srgb(gamutMapping: gamutMapping))
    }
}
