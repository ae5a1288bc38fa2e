import Foundation

// DTCG 2025.10 colour values (Color Module, "Supported color spaces", and the official
// `format/values/color.json` schema). Ranges below are the schema's; the schema is stricter than
// CSS Color 4 in places (see `DTCGColorSpace.componentRanges`).

/// A colour space of DTCG 2025.10 (the CSS Color 4 set); raw values are spelled as in `colorSpace`.
public enum DTCGColorSpace: String, CaseIterable, Sendable, Hashable, Codable {
    case srgb
    case srgbLinear = "srgb-linear"
    case hsl, hwb, lab, lch, oklab, oklch
    case displayP3 = "display-p3"
    case a98RGB = "a98-rgb"
    case prophotoRGB = "prophoto-rgb"
    case rec2020
    case xyzD65 = "xyz-d65"
    case xyzD50 = "xyz-d50"

    /// Component names in `components` order, as the DTCG Color Module names them.
    public var componentNames: [String] {
        switch self {
        case .srgb, .srgbLinear, .displayP3, .a98RGB, .prophotoRGB, .rec2020: ["red", "green", "blue"]
        case .hsl: ["hue", "saturation", "lightness"]
        case .hwb: ["hue", "whiteness", "blackness"]
        case .lab, .oklab: ["lightness", "a", "b"]
        case .lch, .oklch: ["lightness", "chroma", "hue"]
        case .xyzD65, .xyzD50: ["x", "y", "z"]
        }
    }

    /// The allowed range of each component, from the schema's `zeroToOne`, `percentage`, `hue`,
    /// `chroma` and `unbounded` component definitions.
    ///
    /// Note: the schema limits XYZ to [0, 1] although the D65 white point itself has Z ≈ 1.089
    /// (and the D50 white X ≈ 0.964); we follow the schema and report such values, a rule may
    /// choose to treat that particular problem as a warning.
    public var componentRanges: [DTCGComponentRange] {
        switch self {
        case .srgb, .srgbLinear, .displayP3, .a98RGB, .prophotoRGB, .rec2020, .xyzD65, .xyzD50:
            [.unit, .unit, .unit]
        case .hsl, .hwb: [.hue, .percentage, .percentage]
        case .lab: [.percentage, .unbounded, .unbounded]
        case .lch: [.percentage, .chroma, .hue]
        case .oklab: [.unit, .unbounded, .unbounded]
        case .oklch: [.unit, .chroma, .hue]
        }
    }

    /// Index of the hue component for polar spaces (hsl, hwb, lch, oklch), else nil.
    public var hueIndex: Int? {
        switch self {
        case .hsl, .hwb: 0
        case .lch, .oklch: 2
        default: nil
        }
    }
}

/// An interval a component must lie in; `nil` bounds are unbounded.
public struct DTCGComponentRange: Sendable, Hashable, CustomStringConvertible {
    public var lower: Double?
    public var upper: Double?
    /// False for hue, which is [0, 360): 360 itself must be written as 0.
    public var upperInclusive: Bool

    public static let unit = DTCGComponentRange(lower: 0, upper: 1, upperInclusive: true)
    public static let percentage = DTCGComponentRange(lower: 0, upper: 100, upperInclusive: true)
    public static let hue = DTCGComponentRange(lower: 0, upper: 360, upperInclusive: false)
    public static let chroma = DTCGComponentRange(lower: 0, upper: nil, upperInclusive: true)
    public static let unbounded = DTCGComponentRange(lower: nil, upper: nil, upperInclusive: true)

    /// Whether `value` is finite and inside the interval.
    public func contains(_ value: Double) -> Bool {
        guard value.isFinite else { return false }
        if let lower, value < lower { return false }
        if let upper, upperInclusive ? value > upper : value >= upper { return false }
        return true
    }

    /// Interval notation as the DTCG Color Module writes it, e.g. `[0, 360)`.
    public var description: String {
        let low = lower.map { Self.format($0) } ?? "-∞"
        let high = upper.map { Self.format($0) } ?? "∞"
        return "[\(low), \(high)\(upperInclusive && upper != nil ? "]" : ")")"
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

/// Why a DTCG colour value is invalid; `componentIndex` points into `components` when relevant.
public enum DTCGColorProblem: Error, Sendable, Hashable, CustomStringConvertible {
    case unknownColorSpace(String)
    case componentCount(space: DTCGColorSpace, found: Int)
    case componentOutOfRange(space: DTCGColorSpace, index: Int, value: Double, range: DTCGComponentRange)
    case alphaOutOfRange(Double)
    case malformedHex(String)

    /// The index of the offending component, or nil when the problem is not about one component.
    public var componentIndex: Int? {
        if case .componentOutOfRange(_, let index, _, _) = self { return index }
        return nil
    }

    /// A one-sentence explanation naming the component and its allowed range.
    public var message: String {
        switch self {
        case .unknownColorSpace(let name):
            let known = DTCGColorSpace.allCases.map(\.rawValue).joined(separator: ", ")
            return "unknown colorSpace \"\(name)\"; DTCG 2025.10 allows \(known)"
        case .componentCount(let space, let found):
            return "\(space.rawValue) needs 3 components (\(space.componentNames.joined(separator: ", "))), found \(found)"
        case .componentOutOfRange(let space, let index, let value, let range):
            let name = space.componentNames[index]
            let shown = value.isFinite ? DTCGComponentRange.format(value) : "a non-finite number"
            var text = "\(space.rawValue) \(name) (component \(index)) is \(shown), outside \(range)"
            if range == .hue, value == 360 { text += "; write 0 instead of 360" }
            return text
        case .alphaOutOfRange(let value):
            return "alpha is \(value.isFinite ? DTCGComponentRange.format(value) : "a non-finite number"), outside [0, 1]"
        case .malformedHex(let text):
            return "hex \"\(text)\" is not 6-digit CSS hex notation #rrggbb"
        }
    }

    public var description: String { message }
}

/// A DTCG 2025.10 colour value: a colour space, three components (`nil` is `none`), alpha and hex.
public struct DTCGColor: Sendable, Hashable {
    public var colorSpace: DTCGColorSpace
    /// Exactly three components for a valid value; `nil` stands for the keyword `none`.
    public var components: [Double?]
    /// Alpha as written; nil when omitted (which means 1).
    public var alpha: Double?
    /// The optional `#rrggbb` fallback, as written.
    public var hex: String?

    /// Builds a value without validation, for computed colours (which may be out of range).
    public init(_ colorSpace: DTCGColorSpace, _ components: [Double?], alpha: Double? = nil, hex: String? = nil) {
        self.colorSpace = colorSpace
        self.components = components
        self.alpha = alpha
        self.hex = hex
    }

    /// Builds a value from plain JSON values, throwing the first problem `problems(…)` reports.
    public init(validating colorSpace: String, components: [Double?], alpha: Double? = nil, hex: String? = nil) throws(DTCGColorProblem) {
        if let first = Self.problems(colorSpace: colorSpace, components: components, alpha: alpha, hex: hex).first { throw first }
        self.init(DTCGColorSpace(rawValue: colorSpace)!, components, alpha: alpha, hex: hex)
    }

    /// Every problem of a colour value, in member order (colorSpace, components, alpha, hex).
    public static func problems(colorSpace: String, components: [Double?], alpha: Double?, hex: String?) -> [DTCGColorProblem] {
        var found: [DTCGColorProblem] = []
        if let space = DTCGColorSpace(rawValue: colorSpace) {
            if components.count != 3 {
                found.append(.componentCount(space: space, found: components.count))
            } else {
                for (index, (value, range)) in zip(components, space.componentRanges).enumerated() {
                    if let value, !range.contains(value) {
                        found.append(.componentOutOfRange(space: space, index: index, value: value, range: range))
                    }
                }
            }
        } else {
            found.append(.unknownColorSpace(colorSpace))
        }
        if let alpha, !(alpha >= 0 && alpha <= 1) { found.append(.alphaOutOfRange(alpha)) }
        if let hex, !isSixDigitHex(hex) { found.append(.malformedHex(hex)) }
        return found
    }

    /// The schema's pattern `^#[0-9a-fA-F]{6}$` (either case; 3- and 8-digit forms are not allowed).
    public static func isSixDigitHex(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 7, bytes[0] == UInt8(ascii: "#") else { return false }
        return bytes.dropFirst().allSatisfy { (48...57).contains($0) || (65...70).contains($0) || (97...102).contains($0) }
    }

    /// Alpha with the DTCG default applied (omitted means fully opaque).
    public var effectiveAlpha: Double { alpha ?? 1 }

    /// Components with `none` replaced by 0, as CSS Color 4 ("'Missing' Color Components") prescribes for conversion.
    public var resolvedComponents: SIMD3<Double> {
        let value = { (index: Int) in index < self.components.count ? (self.components[index] ?? 0) : 0 }
        return SIMD3(value(0), value(1), value(2))
    }
}
