import Foundation
import LiveryLoad
import LiveryResolve

/// A resolved colour token as 8-bit sRGB channels plus an alpha: what every platform file writes.
public struct PlatformColor: Sendable, Hashable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    /// 0…1.
    public var alpha: Double

    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// The one place a DTCG colour value becomes sRGB: any of the fourteen colour spaces, converted
    /// and gamut-mapped by LiveryResolve's `DTCGColor` (CSS Color 4's OKLCH chroma reduction), then
    /// rounded to 8 bits a channel. An unknown space falls back to the `hex` member. Nil when the
    /// value is not a colour (the resolver has already reported it).
    public static func from(_ value: Node) -> PlatformColor? {
        let alpha = min(max(value["alpha"]?.number ?? 1, 0), 1)
        if let name = value["colorSpace"]?.string, let space = DTCGColorSpace(rawValue: name),
           let items = value["components"]?.items, items.count == 3 {
            // "none" is a missing component, which DTCGColor models as nil.
            let color = DTCGColor(space, items.map(\.number), alpha: alpha, hex: value["hex"]?.string).srgb()
            return PlatformColor(red: channel(color.red), green: channel(color.green), blue: channel(color.blue), alpha: alpha)
        }
        guard let hex = value["hex"]?.string else { return nil }
        return PlatformColor(hex: hex, alpha: alpha)
    }

    /// `#rrggbb` (the DTCG `hex` member's form).
    init?(hex: String, alpha: Double) {
        let digits = hex.hasPrefix("#") ? hex.dropFirst() : Substring(hex)
        guard digits.count == 6, let number = UInt32(digits, radix: 16) else { return nil }
        self.init(red: UInt8(number >> 16 & 0xFF), green: UInt8(number >> 8 & 0xFF), blue: UInt8(number & 0xFF), alpha: alpha)
    }

    private static func channel(_ value: Double) -> UInt8 {
        UInt8((min(max(value, 0), 1) * 255).rounded())
    }

    /// Alpha as a byte, the way Android and CSS eight-digit hex write it.
    public var alphaByte: UInt8 { UInt8((alpha * 255).rounded()) }
    public var isOpaque: Bool { alphaByte == 255 }

    /// `#0066CC` (opaque) — the form designers read.
    public var hex: String { String(format: "#%02X%02X%02X", red, green, blue) }
    /// `#0066CC` or `#0066CC80` (CSS Color 4 order: alpha last).
    public var cssHex: String { isOpaque ? hex : hex + String(format: "%02X", alphaByte) }
    /// `#FF0066CC` (Android order: alpha first; always eight digits so light and dark line up).
    public var androidHex: String { String(format: "#%02X%02X%02X%02X", alphaByte, red, green, blue) }
    /// `0xFF0066CC` for Jetpack Compose's `Color(Long)`.
    public var kotlinLiteral: String { String(format: "0x%02X%02X%02X%02X", alphaByte, red, green, blue) }
    /// Channel fractions with three decimals, for SwiftUI's `Color(.sRGB, red:green:blue:opacity:)`.
    public var swiftComponents: String {
        "red: \(Self.decimal(Double(red) / 255)), green: \(Self.decimal(Double(green) / 255)), blue: \(Self.decimal(Double(blue) / 255)), opacity: \(Self.decimal(alpha))"
    }

    /// Shortest decimal with at most `places` digits after the point; never exponent notation.
    static func decimal(_ value: Double, places: Int = 3) -> String {
        var text = String(format: "%.\(places)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }
}

/// WCAG 2.x contrast between two platform colours, measured by LiveryResolve's `Contrast` (the
/// same function as the branding contrast rule), so the brand sheet and `livery validate` agree.
public enum WCAGContrast {
    /// The contrast ratio (1…21) of `foreground` drawn on `background`; a translucent colour is
    /// composited over what is beneath it (white beneath a translucent background).
    public static func ratio(_ foreground: PlatformColor, on background: PlatformColor) -> Double {
        Contrast.ratio(foreground: foreground.srgb, background: background.srgb).ratio
    }
}

extension PlatformColor {
    /// As LiveryResolve's channel fractions.
    var srgb: SRGBColor { SRGBColor(red: Double(red) / 255, green: Double(green) / 255, blue: Double(blue) / 255, alpha: alpha) }
}
