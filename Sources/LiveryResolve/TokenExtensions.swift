import LiveryDiagnostics
import LiveryLoad

/// Livery's `$extensions` vocabulary (`com.livery`): what DTCG has no type for.
public enum LiveryExtensions {
    /// The reverse-domain key every Livery extension lives under.
    public static let namespace = "com.livery"

    /// The `com.livery` object inside an `$extensions` node, if any.
    public static func of(_ extensions: Node?) -> Node? { extensions?[namespace] }

    /// Haptic feedback styles an interaction may map to (UIKit's impact, selection and
    /// notification generators; Android maps each to its nearest HapticFeedbackConstants).
    public static let hapticStyles = ["light", "medium", "heavy", "soft", "rigid", "selection", "success", "warning", "error"]

    /// Where each key may appear: file top level, a group, or a token of the given types.
    public enum Place: Sendable, Hashable {
        case file, group, token(type: String?)
    }

    /// The keys allowed at `place`, each with the token types it needs (empty: any).
    public static func keys(at place: Place) -> [String: Set<String>] {
        switch place {
        case .file: ["contrast": [], "canonical": []]
        case .group: ["haptics": [], "hitArea": [], "interactive": []]
        case .token: ["tab": ["color"], "glass": ["color"], "platform": ["shadow"], "spring": ["number"],
                      "hitArea": ["dimension"], "interactive": ["dimension"]]
        }
    }
}

/// What a declared contrast pair is used for, and so which WCAG 2.x minimum it must meet.
public enum ContrastUsage: String, Sendable, CaseIterable {
    /// Body text: SC 1.4.3 AA 4.5:1 (AAA 7:1).
    case body
    /// Large text (≥ 24 px, or ≥ 18.67 px bold): SC 1.4.3 AA 3:1 (AAA 4.5:1).
    case large
    /// UI components and graphics: SC 1.4.11 3:1 (there is no AAA level).
    case ui

    public var required: WCAGLevel {
        switch self {
        case .body: .aa
        case .large: .aaLarge
        case .ui: .aaNonText
        }
    }

    public var enhanced: WCAGLevel? {
        switch self {
        case .body: .aaa
        case .large: .aaaLarge
        case .ui: nil
        }
    }
}

/// One `com.livery.contrast` entry of a token file.
public struct ContrastPair: Sendable {
    public var foreground: TokenReference
    public var background: TokenReference
    /// What a translucent background is drawn on; nil: the mode's `color.background.default`.
    public var base: TokenReference?
    public var usage: ContrastUsage
    /// True when the pair must also meet AAA (`"level": "aaa"`).
    public var requiresEnhanced: Bool
    /// Why a known AA failure ships anyway; an acknowledged failure is not an error.
    public var acknowledged: String?
    /// The pair object in its token file.
    public var location: SourceLocation
    /// The tenant whose token file declares the pair.
    public var declaredBy: String

    public var key: String { "\(foreground.path)|\(background.path)|\(usage.rawValue)" }
}

/// A spring animation: damping, stiffness and mass (the parameters SwiftUI's
/// `.interpolatingSpring` and Compose's `spring()` are derived from).
public struct SpringConfig: Sendable, Hashable, CustomStringConvertible {
    public var damping: Double
    public var stiffness: Double
    public var mass: Double

    public init(damping: Double, stiffness: Double, mass: Double = 1) {
        self.damping = damping
        self.stiffness = stiffness
        self.mass = mass
    }

    public init?(_ node: Node?) {
        guard let node, let damping = node["damping"]?.number, let stiffness = node["stiffness"]?.number else { return nil }
        self.init(damping: damping, stiffness: stiffness, mass: node["mass"]?.number ?? 1)
    }

    public var description: String { "{damping \(Self.text(damping)), stiffness \(Self.text(stiffness)), mass \(Self.text(mass))}" }

    /// A number as people write it: `15`, not `15.0`.
    public static func text(_ value: Double) -> String { value == value.rounded() && abs(value) < 1e12 ? String(Int(value)) : String(value) }
}

/// The canonical sets a tenant declares (`com.livery.canonical` at the top of a token file).
public struct CanonicalSets: Sendable {
    /// Allowed typography font sizes, in px.
    public var fontSizes: [Double]?
    /// Allowed corner radii, in px.
    public var radii: [Double]?
    public var springs: [SpringConfig]?
    /// The group holding raw colours; `color.palette` unless declared.
    public var palette: String
    /// Where each set is declared, for messages.
    public var locations: [String: SourceLocation]

    public static let defaultPalette = "color.palette"

    public init(fontSizes: [Double]? = nil, radii: [Double]? = nil, springs: [SpringConfig]? = nil,
                palette: String = CanonicalSets.defaultPalette, locations: [String: SourceLocation] = [:]) {
        self.fontSizes = fontSizes
        self.radii = radii
        self.springs = springs
        self.palette = palette
        self.locations = locations
    }
}

/// The file-level `com.livery` values of a tenant and its ancestors.
public struct TenantExtensions: Sendable {
    /// Contrast pairs of every token file in the lineage; a later file's pair with the same
    /// foreground, background and usage replaces an earlier one.
    public var contrast: [ContrastPair]
    /// Each canonical set from the nearest tenant (self first, then ancestors) that declares it.
    public var canonical: CanonicalSets

    /// Reads the top-level `$extensions` of every token file of `tenant`'s lineage, root first.
    /// Shapes are not checked here (the `branding.extensions` rule does that); malformed entries are skipped.
    public static func of(_ tenant: ResolvedTenant) -> TenantExtensions {
        var pairs: [String: ContrastPair] = [:], order: [String] = []
        var canonical = CanonicalSets()
        for member in tenant.ancestors + [tenant.source] {
            for manifest in member.manifests(.branding) {
                guard let livery = LiveryExtensions.of(manifest.node["$extensions"]) else { continue }
                for item in livery["contrast"]?.items ?? [] {
                    guard let pair = contrastPair(item, declaredBy: member.id) else { continue }
                    if pairs[pair.key] == nil { order.append(pair.key) }
                    pairs[pair.key] = pair
                }
                if let sets = livery["canonical"] {
                    if let sizes = numbers(sets["fontSizes"]) { canonical.fontSizes = sizes; canonical.locations["fontSizes"] = sets["fontSizes"]?.location }
                    if let radii = numbers(sets["radii"]) { canonical.radii = radii; canonical.locations["radii"] = sets["radii"]?.location }
                    if let springs = sets["springs"]?.items {
                        canonical.springs = springs.compactMap { SpringConfig($0) }
                        canonical.locations["springs"] = sets["springs"]?.location
                    }
                    if let palette = sets["palette"]?.string { canonical.palette = palette }
                }
            }
        }
        return TenantExtensions(contrast: order.compactMap { pairs[$0] }, canonical: canonical)
    }

    static func numbers(_ node: Node?) -> [Double]? {
        guard let items = node?.items else { return nil }
        let values = items.compactMap(\.number)
        return values.count == items.count ? values : nil
    }

    static func contrastPair(_ node: Node, declaredBy: String) -> ContrastPair? {
        guard let foreground = node["foreground"].flatMap(TokenReference.of), let background = node["background"].flatMap(TokenReference.of),
              let usage = node["usage"]?.string.flatMap(ContrastUsage.init(rawValue:)) else { return nil }
        return ContrastPair(foreground: foreground, background: background, base: node["base"].flatMap(TokenReference.of), usage: usage,
                            requiresEnhanced: node["level"]?.string == "aaa", acknowledged: node["acknowledged"]?.string,
                            location: node.location, declaredBy: declaredBy)
    }
}

extension ResolvedTokens {
    /// A token's `com.livery` extension with every reference inside it (`"{color.x}"`,
    /// `{"$ref": "#/…"}`) replaced by the value it resolves to in this mode; nil without one.
    /// Unknown references stay as written (the `branding.extensions` rule reports them).
    public func liveryExtension(of path: String) -> Node? {
        LiveryExtensions.of(tokens[path]?.extensions).map(resolvingReferences)
    }

    /// `node` with references to this mode's tokens replaced by their resolved values.
    public func resolvingReferences(in node: Node) -> Node {
        if let reference = TokenReference.of(node) {
            guard let target = values[reference.path], let part = TokenResolver.navigate(target, reference.subpath) else { return node }
            return part
        }
        switch node.value {
        case .sequence(let items): return Node(.sequence(items.map(resolvingReferences)), at: node.location)
        case .mapping(let entries):
            return Node(.mapping(entries.map { Node.Entry(key: $0.key, keyLocation: $0.keyLocation, value: resolvingReferences(in: $0.value)) }), at: node.location)
        default: return node
        }
    }

    /// The colour a resolved colour token holds, nil when `path` is not a colour token.
    public func color(_ path: String) -> DTCGColor? {
        guard types[path] == "color", let value = values[path] else { return nil }
        return DTCGColor(node: value)
    }

    /// A resolved dimension token in px (`rem` counted as 16 px), nil otherwise.
    public func pixels(_ path: String) -> Double? { values[path].flatMap(DTCGDimension.pixels) }
}

/// DTCG dimension values in the unit the design rules compare in.
public enum DTCGDimension {
    /// `{value, unit}` in px; `rem` is 16 px (the CSS initial font size). Nil for anything else.
    /// One px is one iOS point and one Android dp, so the 44 pt touch target is 44 here.
    public static func pixels(_ node: Node) -> Double? {
        guard let value = node["value"]?.number else { return nil }
        switch node["unit"]?.string {
        case "px": return value
        case "rem": return value * 16
        default: return nil
        }
    }
}

extension DTCGColor {
    /// A resolved DTCG colour value (`{colorSpace, components, alpha?, hex?}`); nil when it is
    /// not a valid one (the resolver has already reported why).
    public init?(node: Node) {
        guard let space = node["colorSpace"]?.string, let items = node["components"]?.items, items.count == 3 else { return nil }
        var components: [Double?] = []
        for item in items {
            if item.string == "none" { components.append(nil) } else if let number = item.number { components.append(number) } else { return nil }
        }
        let alpha = node["alpha"]?.number
        if node["alpha"] != nil && alpha == nil { return nil }
        guard let color = try? DTCGColor(validating: space, components: components, alpha: alpha, hex: node["hex"]?.string) else { return nil }
        self = color
    }

    /// A resolved colour token's value as the generated files take it, without validation (the resolver has
    /// reported any problem): a known space with three components (`none`, or anything not a number, is a missing
    /// one), alpha clipped to [0, 1]. A space this version does not know falls back to the `hex` member, as sRGB.
    /// Nil when the value has neither.
    public init?(renderedValue value: Node) {
        let alpha = min(max(value["alpha"]?.number ?? 1, 0), 1)
        if let name = value["colorSpace"]?.string, let space = DTCGColorSpace(rawValue: name),
           let items = value["components"]?.items, items.count == 3 {
            self.init(space, items.map(\.number), alpha: alpha, hex: value["hex"]?.string)
        } else if let hex = value["hex"]?.string, DTCGColor.isSixDigitHex(hex), let srgb = SRGBColor(hex: hex) {
            self.init(.srgb, [srgb.red, srgb.green, srgb.blue], alpha: alpha, hex: hex)
        } else {
            return nil
        }
    }
}

extension SRGBColor {
    /// A resolved colour token's value as every platform file writes it: gamut mapped into sRGB with CSS Color 4's
    /// algorithm (`DTCGColor.srgb()`), then 8-bit (`eightBit`). Nil when the value is not a colour.
    public init?(tokenValue value: Node) {
        guard let color = DTCGColor(renderedValue: value) else { return nil }
        self = color.srgb().eightBit
    }
}
