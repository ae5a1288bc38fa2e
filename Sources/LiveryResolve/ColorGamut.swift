import Foundation

/// How an out-of-gamut colour is brought into sRGB.
public enum ColorGamutMapping: String, Sendable, Hashable, CaseIterable {
    /// Clamp each channel to [0, 1]: cheap, but shifts hue and lightness (what many design tools do).
    case clip
    /// CSS Color 4 "CSS Gamut Mapping to an RGB Destination": reduce OKLCH chroma by binary search until the clipped colour is within
    /// deltaEOK 0.02 (one JND) of the reduced one; preserves lightness and hue.
    case cssOKLCHChroma = "css"
}

/// A gamma-encoded sRGB colour with straight (not premultiplied) alpha; channels may lie outside [0, 1].
public struct SRGBColor: Sendable, Hashable, CustomStringConvertible {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public static let white = SRGBColor(red: 1, green: 1, blue: 1)
    public static let black = SRGBColor(red: 0, green: 0, blue: 0)

    /// Parses `#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa` (CSS Color 4 "The RGB Hexadecimal Notations"), either case.
    public init?(hex: String) {
        guard hex.hasPrefix("#") else { return nil }
        var digits = Array(hex.utf8.dropFirst()).map { Self.hexDigit($0) }
        guard !digits.contains(nil), [3, 4, 6, 8].contains(digits.count) else { return nil }
        if digits.count <= 4 { digits = digits.flatMap { [$0, $0] } }
        let bytes = stride(from: 0, to: digits.count, by: 2).map { Double(digits[$0]! * 16 + digits[$0 + 1]!) / 255 }
        self.init(red: bytes[0], green: bytes[1], blue: bytes[2], alpha: bytes.count == 4 ? bytes[3] : 1)
    }

    static func hexDigit(_ byte: UInt8) -> Int? {
        switch byte {
        case 48...57: Int(byte) - 48
        case 65...70: Int(byte) - 55
        case 97...102: Int(byte) - 87
        default: nil
        }
    }

    var vector: SIMD3<Double> { SIMD3(red, green, blue) }

    init(_ vector: SIMD3<Double>, alpha: Double) { self.init(red: vector.x, green: vector.y, blue: vector.z, alpha: alpha) }

    /// Whether every channel is within [0, 1], allowing `tolerance` of floating-point noise.
    public func isInGamut(tolerance: Double = 1e-6) -> Bool {
        [red, green, blue].allSatisfy { $0 >= -tolerance && $0 <= 1 + tolerance }
    }

    /// Channels clamped to [0, 1] (alpha too).
    public var clipped: SRGBColor {
        SRGBColor(vector.clamped(lowerBound: .zero, upperBound: .one), alpha: min(max(alpha, 0), 1))
    }

    /// The colour brought into the sRGB gamut with `method`.
    public func mapped(_ method: ColorGamutMapping) -> SRGBColor {
        switch method {
        case .clip: clipped
        case .cssOKLCHChroma: ColorGamutMapper.map(self)
        }
    }

    /// 8-bit channels of the clipped colour, rounded half up as CSS serialisation does.
    public var bytes: (red: Int, green: Int, blue: Int, alpha: Int) {
        let c = clipped
        func byte(_ v: Double) -> Int { Int((v * 255).rounded(.toNearestOrAwayFromZero)) }
        return (byte(c.red), byte(c.green), byte(c.blue), byte(c.alpha))
    }

    /// The colour as 8-bit channels hold it: red, green and blue clipped and rounded as `bytes` rounds them, alpha
    /// clipped and kept as it is. What the platform files write, so two colours they write alike compare equal and
    /// contrast is measured on what an app will draw.
    public var eightBit: SRGBColor {
        let b = bytes
        return SRGBColor(red: Double(b.red) / 255, green: Double(b.green) / 255, blue: Double(b.blue) / 255, alpha: min(max(alpha, 0), 1))
    }

    /// Whether the alpha byte is 255: the hex forms that leave alpha out when opaque do so then.
    public var isOpaque: Bool { bytes.alpha == 255 }

    /// Where a hex form writes the alpha byte.
    public enum HexAlpha: Sendable {
        /// `#RRGGBB`: no alpha.
        case omitted
        /// `#RRGGBBAA` (CSS Color 4: alpha last), `#RRGGBB` when opaque.
        case lastUnlessOpaque
        /// `#AARRGGBB` (Android: alpha first), always eight digits.
        case first
        /// `#AARRGGBB`, `#RRGGBB` when opaque (Android's colour resources).
        case firstUnlessOpaque
    }

    /// The 8-bit channels (`bytes`) as uppercase hex after `prefix`, alpha placed as `alpha` says: the one hex
    /// writer of colours, for every platform's form.
    public func hex(alpha placement: HexAlpha, prefix: String = "#") -> String {
        let b = bytes
        let rgb = [b.red, b.green, b.blue]
        let ordered = switch placement {
        case .omitted: rgb
        case .lastUnlessOpaque: isOpaque ? rgb : rgb + [b.alpha]
        case .first: [b.alpha] + rgb
        case .firstUnlessOpaque: isOpaque ? rgb : [b.alpha] + rgb
        }
        return prefix + ordered.map { String(format: "%02X", $0) }.joined()
    }

    /// `#rrggbb` of the clipped colour, ignoring alpha (the form of a DTCG `hex` fallback).
    public var opaqueHexString: String { hex(alpha: .omitted).lowercased() }

    /// `#rrggbb`, or `#rrggbbaa` when the rounded alpha byte is below 255; lowercase.
    public var hexString: String { hex(alpha: .lastUnlessOpaque).lowercased() }

    public var description: String { hexString }

    /// This colour as a DTCG `srgb` value (without hex).
    public var dtcgColor: DTCGColor { DTCGColor(.srgb, [red, green, blue], alpha: alpha < 1 ? alpha : nil) }
}

/// CSS Color 4 "Binary Search Gamut Mapping with Local MINDE" (the CSS gamut mapping), into sRGB
/// or, with `Destination.displayP3`, into Display P3 (the same algorithm, another RGB cube).
enum ColorGamutMapper {
    /// One just-noticeable difference in deltaEOK, and the search's convergence step, as the algorithm sets them.
    static let jnd = 0.02
    static let epsilon = 0.0001

    /// The RGB space mapped into: its gamma-encoded channels to and from Oklab.
    enum Destination {
        case srgb, displayP3

        func toOklab(_ rgb: SIMD3<Double>) -> SIMD3<Double> {
            switch self {
            case .srgb: ColorGamutMapper.oklab(rgb)
            case .displayP3: ColorConversion.xyzToOklab(ColorConversion.xyzD65(from: rgb, in: .displayP3))
            }
        }

        func fromOklab(_ lab: SIMD3<Double>) -> SIMD3<Double> {
            switch self {
            case .srgb: return ColorGamutMapper.srgb(fromOklab: lab)
            case .displayP3:
                let p3 = ColorConversion.components(fromXYZD65: ColorConversion.oklabToXYZ(lab), in: .displayP3)
                return SIMD3(p3[0] ?? 0, p3[1] ?? 0, p3[2] ?? 0)
            }
        }
    }

    static func oklab(_ srgb: SIMD3<Double>) -> SIMD3<Double> {
        let linear = ColorConversion.map(srgb, ColorConversion.srgbToLinear)
        return ColorConversion.xyzToOklab(ColorConversion.srgbToXYZ * linear)
    }

    static func srgb(fromOklab lab: SIMD3<Double>) -> SIMD3<Double> {
        let linear = ColorConversion.xyzToSRGB * ColorConversion.oklabToXYZ(lab)
        return ColorConversion.map(linear, ColorConversion.srgbFromLinear)
    }

    /// deltaEOK: Euclidean distance in Oklab (CSS Color 4 "Color Difference in Oklab").
    static func deltaEOK(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        let d = a - b
        return (d * d).sum().squareRoot()
    }

    /// Maps `color` into sRGB; `origin` is its Oklab when known exactly (an `oklab`/`oklch` value),
    /// so that lightness 0 or 1 is recognised without round-off from the trip through sRGB.
    /// With `destination`, `color`'s channels are that space's (an `SRGBColor` is only their container).
    static func map(_ color: SRGBColor, origin known: SIMD3<Double>? = nil, into destination: Destination = .srgb) -> SRGBColor {
        let oklab = destination.toOklab, srgb = destination.fromOklab
        let alpha = min(max(color.alpha, 0), 1)
        let origin = known ?? oklab(color.vector)
        // Lightness outside (0, 1) has no chroma to search: the result is white or black (steps 3–4).
        // The 1e-9 absorbs matrix round-off; it is far below any visible difference.
        if origin.x >= 1 - 1e-9 { return SRGBColor(.one, alpha: alpha) }
        if origin.x <= 1e-9 { return SRGBColor(.zero, alpha: alpha) }
        if color.isInGamut(tolerance: 0) { return SRGBColor(color.vector, alpha: alpha) }
        let chromaOrigin = (origin.y * origin.y + origin.z * origin.z).squareRoot()
        let direction = chromaOrigin > 0 ? SIMD3(0, origin.y / chromaOrigin, origin.z / chromaOrigin) : .zero
        func atChroma(_ chroma: Double) -> SIMD3<Double> { SIMD3(origin.x, 0, 0) + direction * chroma }
        func clip(_ rgb: SIMD3<Double>) -> SIMD3<Double> { rgb.clamped(lowerBound: .zero, upperBound: .one) }

        var clipped = clip(color.vector)
        if deltaEOK(oklab(clipped), origin) < jnd { return SRGBColor(clipped, alpha: alpha) }
        var low = 0.0, high = chromaOrigin, lowInGamut = true
        while high - low > epsilon {
            let chroma = (low + high) / 2
            let current = atChroma(chroma)
            let rgb = srgb(current)
            if lowInGamut, SRGBColor(rgb, alpha: 1).isInGamut(tolerance: 0) {
                low = chroma
                continue
            }
            clipped = clip(rgb)
            let difference = deltaEOK(oklab(clipped), current)
            if difference < jnd {
                if jnd - difference < epsilon { break }
                lowInGamut = false
                low = chroma
            } else {
                high = chroma
            }
        }
        return SRGBColor(clipped, alpha: alpha)
    }
}

/// Whether a colour's `hex` fallback matches its components, converted to 8-bit sRGB.
public struct ColorHexFallbackCheck: Sendable, Hashable {
    /// The fallback as written.
    public var declared: String
    /// `#rrggbb` of the components, gamut mapped with the CSS Color 4 algorithm.
    public var computed: String
    /// `#rrggbb` of the components, clipped; equals `computed` for in-gamut colours.
    public var computedClipped: String
    /// Whether the components lie inside sRGB (so both computations agree).
    public var isInGamut: Bool
    /// The largest per-channel difference, in 8-bit steps, to the closer of the two computations.
    public var largestDifference: Int
    /// The tolerance applied, in 8-bit steps per channel.
    public var tolerance: Int

    /// True when every channel is within `tolerance` of `computed` or of `computedClipped`: tools differ
    /// in how they map out-of-gamut colours, and either mapping is a faithful fallback.
    public var matches: Bool { largestDifference <= tolerance }
}

extension DTCGColor {
    /// Compares `hex` with the components; nil when there is no hex or it is not 6-digit hex.
    public func checkHexFallback(tolerance: Int = 1) -> ColorHexFallbackCheck? {
        guard let hex, DTCGColor.isSixDigitHex(hex), let declared = SRGBColor(hex: hex) else { return nil }
        let unmapped = unmappedSRGB
        let mapped = unmapped.mapped(.cssOKLCHChroma), clipped = unmapped.clipped
        func difference(_ computed: SRGBColor) -> Int {
            let a = declared.bytes, b = computed.bytes
            return max(abs(a.red - b.red), abs(a.green - b.green), abs(a.blue - b.blue))
        }
        return ColorHexFallbackCheck(
            declared: hex, computed: mapped.opaqueHexString, computedClipped: clipped.opaqueHexString,
            isInGamut: unmapped.isInGamut(), largestDifference: min(difference(mapped), difference(clipped)),
            tolerance: tolerance)
    }
}
