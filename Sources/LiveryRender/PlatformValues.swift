import Foundation
import LiveryDiagnostics
import LiveryEncoding
import LiveryLoad
import LiveryResolve

/// Every formatting decision of the platform files: units, number forms, font and shadow values.
/// Templates receive only the strings made here.
enum PlatformValues {
    // MARK: Names

    /// Names for the tokens of one category, relative to the category's common group. A name two
    /// tokens would share in any language is reported at both and neither gets one.
    static func names(for paths: [String], category: String, locations: (String) -> SourceLocation?) -> ([String: PlatformContext.Names], [Diagnostic]) {
        let split = paths.map { $0.split(separator: ".").map(String.init) }
        var common = split.first.map { Array($0.dropLast()) } ?? []
        for parts in split.dropFirst() {
            while !common.isEmpty && !(parts.count > common.count && Array(parts.prefix(common.count)) == common) { common.removeLast() }
        }
        var result: [String: PlatformContext.Names] = [:]
        for (path, parts) in zip(paths, split) {
            let words = PlatformNames.words(parts.dropFirst(common.count).joined(separator: "."))
            result[path] = PlatformContext.Names(path: path, swiftName: PlatformNames.swift(words), kotlinName: PlatformNames.kotlin(words),
                                                 tsName: PlatformNames.typeScript(words), cssName: PlatformNames.css(category: category, words),
                                                 androidName: PlatformNames.android(category: category, words))
        }
        // Every language's spelling derives from the same words, so comparing the camelCase name
        // and the CSS name catches every clash (`brand-primary` vs `brandPrimary`, `a.b` vs `a-b`).
        var diagnostics: [Diagnostic] = []
        var byName: [String: [String]] = [:]
        for path in paths { if let names = result[path] { byName[names.tsName, default: []].append(path); byName[names.cssName, default: []].append(path) } }
        var reported = Set<String>()
        for (name, clashing) in byName.sorted(by: { $0.key < $1.key }) where clashing.count > 1 {
            for path in clashing where !reported.contains(path) {
                reported.insert(path)
                let others = clashing.filter { $0 != path }.map { "'\($0)'" }.joined(separator: ", ")
                diagnostics.append(Diagnostic(.error, PlatformNameMessage.collision(path: path, others: others, name: "\(name)", category: "\(category)"),
                                              at: locations(path) ?? SourceLocation(file: "", line: 0, column: 0), rule: PlatformRule.nameCollision,
                                              hint: "rename one of the tokens; names keep only ASCII letters and digits, split at anything else"))
            }
        }
        for path in reported { result[path] = nil }
        return (result, diagnostics)
    }

    /// Authors order tokens on purpose (a scale from small to large), so files keep the order of
    /// the token files: by where each token is written, ancestors' files first.
    static func sourceOrder(_ paths: [String], tokens: [String: DesignToken], lineage: [String]) -> [String] {
        func key(_ path: String) -> (Int, String, Int, Int) {
            guard let location = tokens[path]?.location else { return (Int.max, "", 0, 0) }
            let rank = lineage.lastIndex { location.file.hasPrefix($0 + "/") } ?? lineage.count
            return (rank, location.file, location.line, location.column)
        }
        return paths.sorted { a, b in
            let (ka, kb) = (key(a), key(b))
            return ka != kb ? ka < kb : a < b
        }
    }

    // MARK: Values

    /// A colour token's value (8-bit, `SRGBColor.eightBit`) in every target's syntax; the hex forms are
    /// LiveryResolve's (`SRGBColor.hex(alpha:prefix:)`), only SwiftUI's channel fractions are written here.
    static func color(_ color: SRGBColor) -> PlatformContext.ColorValue {
        PlatformContext.ColorValue(hex: color.hex(alpha: .omitted), css: color.hex(alpha: .lastUnlessOpaque), android: color.hex(alpha: .first),
                                   kotlin: color.hex(alpha: .first, prefix: "0x"),
                                   swift: "red: \(decimal(color.red)), green: \(decimal(color.green)), blue: \(decimal(color.blue)), opacity: \(decimal(color.alpha))")
    }

    /// A dimension in points: `px` counts one point (iOS) or dp (Android), `rem` counts 16.
    static func points(_ value: Node) -> Double? {
        guard let number = value["value"]?.number, let unit = value["unit"]?.string else { return nil }
        return unit == "rem" ? number * 16 : number
    }

    /// `12px` or `1.5rem`: CSS keeps the unit as written.
    static func css(_ value: Node) -> String {
        guard let amount = value["value"]?.number, let unit = value["unit"]?.string else { return "0" }
        return amount == 0 ? "0" : number(amount) + unit
    }

    /// A number in the plainest form every target language reads: `12`, `0.5`, `-0.25`.
    static func number(_ value: Double) -> String { decimal(value, places: 4) }

    /// Shortest decimal with at most `places` digits after the point; never exponent notation.
    static func decimal(_ value: Double, places: Int = 3) -> String {
        var text = String(format: "%.\(places)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text == "-0" ? "0" : text
    }

    /// A typography token in every target's syntax; `bundledFonts` (the files of `assets.fonts`) decide which family of
    /// the stack Android draws.
    static func typography(_ value: Node, names: PlatformContext.Names, bundledFonts: [String]) -> PlatformContext.TypographyToken? {
        guard let sizeNode = value["fontSize"], let size = points(sizeNode) else { return nil }
        let families = AndroidFonts.families(value["fontFamily"])
        let weight = fontWeight(value["fontWeight"])
        let ratio = value["lineHeight"]?.number ?? 1.2
        let tracking = value["letterSpacing"].flatMap(points) ?? 0
        let family = families.first ?? "system-ui"
        let generic = genericFamily(family)
        let swiftWeight = "." + swiftWeightName(weight)
        let textStyle = "." + swiftTextStyle(size)
        let swiftFont: String
        let swiftDesign: String
        switch generic {
        case "sans-serif": (swiftFont, swiftDesign) = (".system(size: \(number(size)), weight: \(swiftWeight))", ".default")
        case "serif": (swiftFont, swiftDesign) = (".system(size: \(number(size)), weight: \(swiftWeight), design: .serif)", ".serif")
        case "monospace": (swiftFont, swiftDesign) = (".system(size: \(number(size)), weight: \(swiftWeight), design: .monospaced)", ".monospaced")
        // A bundled family scales with Dynamic Type on its own, relative to the tier's text style.
        default: (swiftFont, swiftDesign) = (".custom(\(swiftString(family)), size: \(number(size)), relativeTo: \(textStyle)).weight(\(swiftWeight))", ".default")
        }
        let swiftTier = "TypeTier(size: \(number(size)), weight: \(swiftWeight), design: \(swiftDesign), textStyle: \(textStyle), family: "
            + (generic == nil ? swiftString(family) : "nil") + ")"
        // Android walks the stack as a browser does: "SF Pro" is Apple's, so ["SF Pro", "Roboto"] is Roboto there.
        let android = AndroidFonts.resolve(families, bundled: bundledFonts)
        let stack = families.map { genericFamily($0) == $0 || ["system-ui", "ui-sans-serif", "ui-serif", "ui-monospace"].contains($0) ? $0 : cssString($0) }
        return PlatformContext.TypographyToken(
            names: names, family: commentText(family), familyLiteral: JSONText.quoted(family), cssFamily: stack.isEmpty ? "system-ui" : stack.joined(separator: ", "), size: number(size),
            weight: String(weight), lineHeight: number((size * ratio * 100).rounded() / 100), lineHeightRatio: number(ratio),
            letterSpacing: number(tracking), swiftFont: swiftFont, swiftTier: swiftTier, kotlinFamily: android.kotlinFamily,
            androidFamily: commentText(android.drawn))
    }

    /// The iOS text style whose size at the default text size (Apple's Human Interface Guidelines, "Large") is nearest
    /// to `size`, the larger one on a tie: the tier grows and shrinks with Dynamic Type as that style does.
    static func swiftTextStyle(_ size: Double) -> String {
        let styles: [(String, Double)] = [("largeTitle", 34), ("title", 28), ("title2", 22), ("title3", 20), ("body", 17), ("callout", 16),
                                          ("subheadline", 15), ("footnote", 13), ("caption", 12), ("caption2", 11)]
        return styles.min { abs($0.1 - size) < abs($1.1 - size) }?.0 ?? "body"
    }

    /// The system families Apple maps to its own fonts; nil for a named family that apps must bundle. "SF Pro" is
    /// Apple's system font, so it is the system font there (Android's side is `AndroidFonts`).
    static func genericFamily(_ family: String) -> String? {
        switch family.lowercased() {
        case "sans-serif", "system-ui", "ui-sans-serif", "-apple-system", "sf pro", "sf pro text", "sf pro display", "roboto": return "sans-serif"
        case "serif", "ui-serif", "new york": return "serif"
        case "monospace", "ui-monospace", "sf mono": return "monospace"
        default: return nil
        }
    }

    static let namedWeights: [String: Int] = [
        "thin": 100, "hairline": 100, "extra-light": 200, "ultra-light": 200, "light": 300, "normal": 400, "regular": 400, "book": 400,
        "medium": 500, "semi-bold": 600, "demi-bold": 600, "bold": 700, "extra-bold": 800, "ultra-bold": 800, "black": 900, "heavy": 900,
        "extra-black": 950, "ultra-black": 950,
    ]

    static func fontWeight(_ node: Node?) -> Int {
        if let number = node?.number { return Int(number.rounded()) }
        return node?.string.flatMap { namedWeights[$0] } ?? 400
    }

    /// SwiftUI's `Font.Weight` nearest to a numeric weight.
    static func swiftWeightName(_ weight: Int) -> String {
        let names = [(100, "ultraLight"), (200, "thin"), (300, "light"), (400, "regular"), (500, "medium"), (600, "semibold"), (700, "bold"), (800, "heavy"), (900, "black")]
        return names.min { abs($0.0 - weight) < abs($1.0 - weight) }?.1 ?? "regular"
    }

    static func shadow(_ value: Node, extensions: Node?, names: PlatformContext.Names) -> PlatformContext.ShadowToken? {
        let layers = value.items ?? [value]
        var css: [String] = []
        for layer in layers {
            guard let color = layer["color"].flatMap(SRGBColor.init(tokenValue:)) else { return nil }
            let parts = ["offsetX", "offsetY", "blur", "spread"].map { layer[$0].map(self.css) ?? "0" }
            css.append((layer["inset"]?.bool == true ? "inset " : "") + parts.joined(separator: " ") + " " + color.hex(alpha: .lastUnlessOpaque))
        }
        guard let first = layers.first, let color = first["color"].flatMap(SRGBColor.init(tokenValue:)) else { return nil }
        let ios = extensions?["com.livery"]?["platform"]?["ios"]
        let offset = ios?["offset"]?.items?.compactMap(\.number)
        // Core Animation's shadowRadius is about half a CSS blur radius.
        let radius = ios?["radius"]?.number ?? (first["blur"].flatMap(points) ?? 0) / 2
        let opacity = ios?["opacity"]?.number ?? color.alpha
        var opaque = color
        opaque.alpha = 1
        let elevation = extensions?["com.livery"]?["platform"]?["android"]?["elevation"]?.number ?? radius
        return PlatformContext.ShadowToken(
            names: names, css: css.joined(separator: ", "), color: self.color(opaque), opacity: number(opacity), radius: number(radius),
            x: number(offset?.first ?? first["offsetX"].flatMap(points) ?? 0), y: number(offset?.dropFirst().first ?? first["offsetY"].flatMap(points) ?? 0),
            elevation: number(elevation))
    }

    static func spring(_ node: Node, names: PlatformContext.Names) -> PlatformContext.SpringToken? {
        guard let motion = SpringConfig(node), motion.mass > 0, motion.stiffness > 0, motion.damping >= 0 else { return nil }
        let (damping, stiffness, mass) = (motion.damping, motion.stiffness, motion.mass)
        return PlatformContext.SpringToken(
            names: names, damping: number(damping), stiffness: number(stiffness), mass: number(mass),
            dampingRatio: PlatformValues.decimal(motion.dampingRatio, places: 3), stiffnessPerMass: number(stiffness / mass),
            settleSeconds: PlatformValues.decimal(motion.settleTime, places: 3), summary: motion.summary)
    }

    static func duration(_ value: Node, names: PlatformContext.Names) -> PlatformContext.DurationToken? {
        guard let amount = value["value"]?.number, let unit = value["unit"]?.string else { return nil }
        let ms = unit == "s" ? amount * 1000 : amount
        return PlatformContext.DurationToken(names: names, milliseconds: number(ms), seconds: number(ms / 1000))
    }

    // MARK: String literals

    /// A Swift (and Kotlin) string literal; both escape the same few characters.
    static func swiftString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Text safe inside a one-line comment of any target language (no line breaks, no `*/`, no `-->`).
    static func commentText(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
            .replacingOccurrences(of: "*/", with: "* /").replacingOccurrences(of: "--", with: "- -")
    }

    /// A CSS string (`"Open Sans"`).
    static func cssString(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

/// The message of `branding.platform-name`.
public enum PlatformNameMessage {
    public static func collision(path: String, others: String, name: String, category: String) -> DiagnosticMessage {
        DiagnosticMessage("collision", "'\(path)' and \(others) would both be named '\(name)' in the generated \(category) files")
    }
}
