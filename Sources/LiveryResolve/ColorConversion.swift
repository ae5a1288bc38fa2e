import Foundation

// Conversions between the DTCG colour spaces and CIE XYZ (D65), following CSS Color 4
// (https://www.w3.org/TR/css-color-4/), cited by section title: "Predefined Color Spaces", "HSL Colors",
// "HWB Colors", "Device-independent Colors: CIE Lab and LCH, Oklab and Oklch" and "Sample code for Color
// Conversions". Every space goes through XYZ-D65, the connection space CSS uses; D50 spaces (lab, lch,
// prophoto-rgb, xyz-d50) are adapted with Bradford, as the sample code does.

/// A 3×3 matrix of rows; just enough linear algebra for colour conversion.
struct ColorMatrix: Sendable {
    var rows: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)

    init(_ r0: SIMD3<Double>, _ r1: SIMD3<Double>, _ r2: SIMD3<Double>) { rows = (r0, r1, r2) }

    static func * (m: ColorMatrix, v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3((m.rows.0 * v).sum(), (m.rows.1 * v).sum(), (m.rows.2 * v).sum())
    }

    static func * (a: ColorMatrix, b: ColorMatrix) -> ColorMatrix {
        let columns = b.transposed.rows
        func row(_ r: SIMD3<Double>) -> SIMD3<Double> { SIMD3((r * columns.0).sum(), (r * columns.1).sum(), (r * columns.2).sum()) }
        return ColorMatrix(row(a.rows.0), row(a.rows.1), row(a.rows.2))
    }

    var transposed: ColorMatrix {
        let (a, b, c) = rows
        return ColorMatrix(SIMD3(a.x, b.x, c.x), SIMD3(a.y, b.y, c.y), SIMD3(a.z, b.z, c.z))
    }

    static func diagonal(_ d: SIMD3<Double>) -> ColorMatrix {
        ColorMatrix(SIMD3(d.x, 0, 0), SIMD3(0, d.y, 0), SIMD3(0, 0, d.z))
    }

    /// The inverse by cofactors; colour matrices are well conditioned, so this loses < 1e-15.
    var inverse: ColorMatrix {
        let (a, b, c) = rows
        let c0 = SIMD3(b.y * c.z - b.z * c.y, b.z * c.x - b.x * c.z, b.x * c.y - b.y * c.x)
        let c1 = SIMD3(a.z * c.y - a.y * c.z, a.x * c.z - a.z * c.x, a.y * c.x - a.x * c.y)
        let c2 = SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
        let determinant = (a * c0).sum()
        return ColorMatrix(c0 / determinant, c1 / determinant, c2 / determinant).transposed
    }
}

/// CSS Color 4 conversions of the DTCG colour spaces to and from CIE XYZ (D65).
public enum ColorConversion {
    // MARK: White points and adaptation (CSS Color 4 sample code: chromaticities x, y of D65 and D50)

    /// D65 and D50 as XYZ with Y = 1, from the chromaticities CSS Color 4 uses (0.3127, 0.3290) and (0.3457, 0.3585).
    static let d65 = whitePoint(x: 0.3127, y: 0.3290)
    static let d50 = whitePoint(x: 0.3457, y: 0.3585)

    static func whitePoint(x: Double, y: Double) -> SIMD3<Double> { SIMD3(x / y, 1, (1 - x - y) / y) }

    /// The linearised Bradford cone response matrix (CSS Color 4 sample code, `D65_to_D50`).
    static let bradford = ColorMatrix(SIMD3(0.8951, 0.2664, -0.1614), SIMD3(-0.7502, 1.7135, 0.0367), SIMD3(0.0389, -0.0685, 1.0296))
    static let d50ToD65 = adaptation(from: d50, to: d65)
    static let d65ToD50 = adaptation(from: d65, to: d50)

    /// Von Kries scaling in the Bradford cone space; reproduces CSS Color 4's D50↔D65 matrices.
    static func adaptation(from source: SIMD3<Double>, to destination: SIMD3<Double>) -> ColorMatrix {
        let scale = (bradford * destination) / (bradford * source)
        return bradford.inverse * .diagonal(scale) * bradford
    }

    // MARK: RGB spaces (CSS Color 4 "Predefined Color Spaces": primaries and white; matrices derived from them as the sample code's are)

    /// Linear-light RGB → XYZ (in the space's own white) from primary chromaticities.
    static func rgbToXYZ(red: (Double, Double), green: (Double, Double), blue: (Double, Double), white: SIMD3<Double>) -> ColorMatrix {
        let primaries = ColorMatrix(whitePoint(x: red.0, y: red.1), whitePoint(x: green.0, y: green.1), whitePoint(x: blue.0, y: blue.1)).transposed
        let scale = primaries.inverse * white
        return primaries * .diagonal(scale)
    }

    static let srgbToXYZ = rgbToXYZ(red: (0.640, 0.330), green: (0.300, 0.600), blue: (0.150, 0.060), white: d65)
    static let xyzToSRGB = srgbToXYZ.inverse
    static let p3ToXYZ = rgbToXYZ(red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060), white: d65)
    static let xyzToP3 = p3ToXYZ.inverse
    static let a98ToXYZ = rgbToXYZ(red: (0.6400, 0.3300), green: (0.2100, 0.7100), blue: (0.1500, 0.0600), white: d65)
    static let xyzToA98 = a98ToXYZ.inverse
    static let rec2020ToXYZ = rgbToXYZ(red: (0.708, 0.292), green: (0.170, 0.797), blue: (0.131, 0.046), white: d65)
    static let xyzToRec2020 = rec2020ToXYZ.inverse
    /// ProPhoto is defined relative to D50 (CSS Color 4 "The Predefined ProPhoto RGB Color Space"), so its matrix yields XYZ-D50.
    static let prophotoToXYZD50 = rgbToXYZ(red: (0.734699, 0.265301), green: (0.159597, 0.840403), blue: (0.036598, 0.000105), white: d50)
    static let xyzD50ToProphoto = prophotoToXYZD50.inverse

    // Transfer functions, all extended to negative values by mirroring (CSS Color 4 sample code: extended range).

    /// sRGB (and display-p3) encoded → linear light (CSS Color 4 "The Predefined sRGB Color Space").
    static func srgbToLinear(_ value: Double) -> Double {
        let magnitude = abs(value)
        let linear = magnitude <= 0.04045 ? magnitude / 12.92 : pow((magnitude + 0.055) / 1.055, 2.4)
        return value < 0 ? -linear : linear
    }

    static func srgbFromLinear(_ value: Double) -> Double {
        let magnitude = abs(value)
        let encoded = magnitude > 0.0031308 ? 1.055 * pow(magnitude, 1 / 2.4) - 0.055 : 12.92 * magnitude
        return value < 0 ? -encoded : encoded
    }

    /// a98-rgb: a pure power of 563/256 (CSS Color 4 "The Predefined A98 RGB Color Space").
    static func a98ToLinear(_ value: Double) -> Double { signedPow(value, 563 / 256) }
    static func a98FromLinear(_ value: Double) -> Double { signedPow(value, 256 / 563) }

    /// prophoto-rgb: gamma 1.8 with a linear toe below 16/512 (CSS Color 4 "The Predefined ProPhoto RGB Color Space").
    static func prophotoToLinear(_ value: Double) -> Double {
        abs(value) <= 16.0 / 512 ? value / 16 : signedPow(value, 1.8)
    }

    static func prophotoFromLinear(_ value: Double) -> Double {
        abs(value) >= 1.0 / 512 ? signedPow(value, 1 / 1.8) : 16 * value
    }

    /// rec2020: the BT.1886 display EOTF, a pure gamma of 2.4. The CSS WG resolved this in 2025
    /// (w3c/csswg-drafts#12574), replacing the BT.2020 camera OETF the 2024 CR still showed;
    /// `rec2020` colours therefore convert as current browsers and colour libraries intend.
    static func rec2020ToLinear(_ value: Double) -> Double { signedPow(value, 2.4) }
    static func rec2020FromLinear(_ value: Double) -> Double { signedPow(value, 1 / 2.4) }

    static func signedPow(_ value: Double, _ exponent: Double) -> Double {
        value < 0 ? -pow(-value, exponent) : pow(value, exponent)
    }

    // MARK: CIE Lab (CSS Color 4 "Converting Lab or LCH Colors"; κ and ε as the exact rationals of the sample code)

    static let kappa = 24389.0 / 27
    static let epsilon = 216.0 / 24389

    static func labToXYZD50(_ lab: SIMD3<Double>) -> SIMD3<Double> {
        let f1 = (lab.x + 16) / 116
        let f0 = lab.y / 500 + f1
        let f2 = f1 - lab.z / 200
        let x = pow(f0, 3) > epsilon ? pow(f0, 3) : (116 * f0 - 16) / kappa
        let y = lab.x > kappa * epsilon ? pow(f1, 3) : lab.x / kappa
        let z = pow(f2, 3) > epsilon ? pow(f2, 3) : (116 * f2 - 16) / kappa
        return SIMD3(x, y, z) * d50
    }

    static func xyzD50ToLab(_ xyz: SIMD3<Double>) -> SIMD3<Double> {
        let scaled = xyz / d50
        func f(_ v: Double) -> Double { v > epsilon ? cbrt(v) : (kappa * v + 16) / 116 }
        let (fx, fy, fz) = (f(scaled.x), f(scaled.y), f(scaled.z))
        return SIMD3(116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))
    }

    // MARK: Oklab (CSS Color 4 sample code: the 64-bit-precision matrices, relative to D65)

    static let xyzToLMS = ColorMatrix(
        SIMD3(0.8190224379967030, 0.3619062600528904, -0.1288737815209879),
        SIMD3(0.0329836539323885, 0.9292868615863434, 0.0361446663506424),
        SIMD3(0.0481771893596242, 0.2642395317527308, 0.6335478284694309))
    static let lmsToOklab = ColorMatrix(
        SIMD3(0.2104542683093140, 0.7936177747023054, -0.0040720430116193),
        SIMD3(1.9779985324311684, -2.4285922420485799, 0.4505937096174110),
        SIMD3(0.0259040424655478, 0.7827717124575296, -0.8086757549230774))
    static let lmsToXYZ = xyzToLMS.inverse
    static let oklabToLMS = lmsToOklab.inverse

    static func oklabToXYZ(_ lab: SIMD3<Double>) -> SIMD3<Double> {
        let lms = oklabToLMS * lab
        return lmsToXYZ * (lms * lms * lms)
    }

    static func xyzToOklab(_ xyz: SIMD3<Double>) -> SIMD3<Double> {
        let lms = xyzToLMS * xyz
        return lmsToOklab * SIMD3(cbrt(lms.x), cbrt(lms.y), cbrt(lms.z))
    }

    // MARK: Polar forms

    static func polarToRectangular(_ lch: SIMD3<Double>) -> SIMD3<Double> {
        let radians = lch.z * .pi / 180
        return SIMD3(lch.x, lch.y * cos(radians), lch.y * sin(radians))
    }

    /// Rectangular → polar; hue is `none` when chroma is below `achromatic`, as CSS Color 4
    /// makes hue powerless for achromatic colours (the threshold absorbs matrix round-off of greys).
    static func rectangularToPolar(_ lab: SIMD3<Double>, achromatic: Double) -> [Double?] {
        let chroma = (lab.y * lab.y + lab.z * lab.z).squareRoot()
        guard chroma >= achromatic else { return [lab.x, chroma, nil] }
        let hue = atan2(lab.z, lab.y) * 180 / .pi
        return [lab.x, chroma, normalizedHue(hue)]
    }

    static func normalizedHue(_ hue: Double) -> Double {
        let turned = hue.truncatingRemainder(dividingBy: 360)
        let positive = turned < 0 ? turned + 360 : turned
        return positive >= 360 ? 0 : positive
    }

    // MARK: hsl and hwb (CSS Color 4 "Converting HSL Colors to sRGB", "Converting HWB Colors to sRGB"), as transformations of gamma-encoded sRGB

    static func hslToSRGB(_ hsl: SIMD3<Double>) -> SIMD3<Double> {
        let hue = normalizedHue(hsl.x), saturation = hsl.y / 100, lightness = hsl.z / 100
        func channel(_ n: Double) -> Double {
            let k = (n + hue / 30).truncatingRemainder(dividingBy: 12)
            let a = saturation * min(lightness, 1 - lightness)
            return lightness - a * max(-1, min(k - 3, 9 - k, 1))
        }
        return SIMD3(channel(0), channel(8), channel(4))
    }

    static func srgbToHSL(_ rgb: SIMD3<Double>) -> [Double?] {
        let high = rgb.max(), low = rgb.min()
        let lightness = (high + low) / 2, delta = high - low
        guard abs(delta) > 1e-12 else { return [nil, 0, lightness * 100] }
        var saturation = (lightness == 0 || lightness == 1) ? 0 : (high - lightness) / min(lightness, 1 - lightness)
        var hue: Double
        switch high {
        case rgb.x: hue = (rgb.y - rgb.z) / delta + (rgb.y < rgb.z ? 6 : 0)
        case rgb.y: hue = (rgb.z - rgb.x) / delta + 2
        default: hue = (rgb.x - rgb.y) / delta + 4
        }
        hue *= 60
        // Out-of-gamut input can give negative saturation; CSS Color 4 "Converting sRGB Colors to HSL" turns it into the opposite hue.
        if saturation < 0 { hue += 180; saturation = -saturation }
        return [normalizedHue(hue), saturation * 100, lightness * 100]
    }

    static func hwbToSRGB(_ hwb: SIMD3<Double>) -> SIMD3<Double> {
        let white = hwb.y / 100, black = hwb.z / 100
        if white + black >= 1 { return SIMD3(repeating: white / (white + black)) }
        return hslToSRGB(SIMD3(hwb.x, 100, 50)) * (1 - white - black) + SIMD3(repeating: white)
    }

    static func srgbToHWB(_ rgb: SIMD3<Double>) -> [Double?] {
        let hue = srgbToHSL(rgb)[0]
        return [hue, rgb.min() * 100, (1 - rgb.max()) * 100]
    }

    static func map(_ v: SIMD3<Double>, _ f: (Double) -> Double) -> SIMD3<Double> { SIMD3(f(v.x), f(v.y), f(v.z)) }

    // MARK: Public entry points

    /// CIE XYZ relative to D65 (Y = 1 for diffuse white) of components in `space` (`none` already 0).
    public static func xyzD65(from components: SIMD3<Double>, in space: DTCGColorSpace) -> SIMD3<Double> {
        let c = components
        switch space {
        case .srgb: return srgbToXYZ * map(c, srgbToLinear)
        case .srgbLinear: return srgbToXYZ * c
        case .hsl: return srgbToXYZ * map(hslToSRGB(c), srgbToLinear)
        case .hwb: return srgbToXYZ * map(hwbToSRGB(c), srgbToLinear)
        case .displayP3: return p3ToXYZ * map(c, srgbToLinear)
        case .a98RGB: return a98ToXYZ * map(c, a98ToLinear)
        case .rec2020: return rec2020ToXYZ * map(c, rec2020ToLinear)
        case .prophotoRGB: return d50ToD65 * (prophotoToXYZD50 * map(c, prophotoToLinear))
        case .xyzD65: return c
        case .xyzD50: return d50ToD65 * c
        case .lab: return d50ToD65 * labToXYZD50(c)
        case .lch: return d50ToD65 * labToXYZD50(polarToRectangular(c))
        case .oklab: return oklabToXYZ(c)
        case .oklch: return oklabToXYZ(polarToRectangular(c))
        }
    }

    /// Components in `space` of an XYZ-D65 colour; a polar space's hue is nil (`none`) when powerless.
    public static func components(fromXYZD65 xyz: SIMD3<Double>, in space: DTCGColorSpace) -> [Double?] {
        func plain(_ v: SIMD3<Double>) -> [Double?] { [v.x, v.y, v.z] }
        switch space {
        case .srgb: return plain(map(xyzToSRGB * xyz, srgbFromLinear))
        case .srgbLinear: return plain(xyzToSRGB * xyz)
        case .hsl: return srgbToHSL(map(xyzToSRGB * xyz, srgbFromLinear))
        case .hwb: return srgbToHWB(map(xyzToSRGB * xyz, srgbFromLinear))
        case .displayP3: return plain(map(xyzToP3 * xyz, srgbFromLinear))
        case .a98RGB: return plain(map(xyzToA98 * xyz, a98FromLinear))
        case .rec2020: return plain(map(xyzToRec2020 * xyz, rec2020FromLinear))
        case .prophotoRGB: return plain(map(xyzD50ToProphoto * (d65ToD50 * xyz), prophotoFromLinear))
        case .xyzD65: return plain(xyz)
        case .xyzD50: return plain(d65ToD50 * xyz)
        case .lab: return plain(xyzD50ToLab(d65ToD50 * xyz))
        case .lch: return rectangularToPolar(xyzD50ToLab(d65ToD50 * xyz), achromatic: 0.0015)
        case .oklab: return plain(xyzToOklab(xyz))
        case .oklch: return rectangularToPolar(xyzToOklab(xyz), achromatic: 0.000004)
        }
    }
}

extension DTCGColor {
    /// CIE XYZ (D65) of this colour, `none` components taken as 0 (CSS Color 4 "'Missing' Color Components and the none Keyword").
    public var xyzD65: SIMD3<Double> { ColorConversion.xyzD65(from: resolvedComponents, in: colorSpace) }

    /// The same colour in another space (alpha kept, `hex` dropped); no gamut mapping.
    public func converted(to space: DTCGColorSpace) -> DTCGColor {
        if space == colorSpace { return DTCGColor(space, components, alpha: alpha) }
        return DTCGColor(space, ColorConversion.components(fromXYZD65: xyzD65, in: space), alpha: alpha)
    }

    /// Gamma-encoded sRGB before gamut mapping: channels may lie outside [0, 1].
    public var unmappedSRGB: SRGBColor {
        let rgb = ColorConversion.map(ColorConversion.xyzToSRGB * xyzD65, ColorConversion.srgbFromLinear)
        return SRGBColor(red: rgb.x, green: rgb.y, blue: rgb.z, alpha: effectiveAlpha)
    }

    /// sRGB inside the gamut, mapped with `method` (CSS Color 4 "CSS Gamut Mapping to an RGB Destination" by default).
    public func srgb(gamutMapping method: ColorGamutMapping = .cssOKLCHChroma) -> SRGBColor {
        guard method == .cssOKLCHChroma else { return unmappedSRGB.mapped(method) }
        let origin: SIMD3<Double> = switch colorSpace {
        case .oklab: resolvedComponents
        case .oklch: ColorConversion.polarToRectangular(resolvedComponents)
        default: ColorConversion.xyzToOklab(xyzD65)
        }
        return ColorGamutMapper.map(unmappedSRGB, origin: origin)
    }

    /// Gamma-encoded Display P3 inside its gamut, mapped with CSS Color 4's gamut mapping when
    /// outside it (the channels are P3's; `SRGBColor` only holds them). For colours sRGB cannot show.
    public func displayP3() -> SRGBColor {
        let p3 = converted(to: .displayP3).resolvedComponents
        let origin: SIMD3<Double> = switch colorSpace {
        case .oklab: resolvedComponents
        case .oklch: ColorConversion.polarToRectangular(resolvedComponents)
        default: ColorConversion.xyzToOklab(xyzD65)
        }
        return ColorGamutMapper.map(SRGBColor(p3, alpha: effectiveAlpha), origin: origin, into: .displayP3)
    }

    /// `#rrggbb` (or `#rrggbbaa` when alpha < 1) of the gamut-mapped sRGB colour.
    public var hexString: String { srgb().hexString }
}
