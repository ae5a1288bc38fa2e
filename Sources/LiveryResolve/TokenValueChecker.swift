import LiveryDiagnostics
import LiveryLoad

/// Checks a token's `$value` against the value shape of its DTCG 2025.10 type, pointing at the
/// offending part: a wrong unit at the unit, a component out of range at that component. A
/// reference (`{group.token}`, or `{"$ref": "#/…"}` where the format allows property-level
/// references) is accepted in every place the format allows one; what it points to is checked
/// where that token is defined.
public enum TokenValueChecker {
    public static let colorSpaces = ["srgb", "srgb-linear", "hsl", "hwb", "lab", "lch", "oklab", "oklch",
                                     "display-p3", "a98-rgb", "prophoto-rgb", "rec2020", "xyz-d65", "xyz-d50"]
    public static let fontWeightNames = ["thin", "hairline", "extra-light", "ultra-light", "light", "normal", "regular", "book", "medium",
                                         "semi-bold", "demi-bold", "bold", "extra-bold", "ultra-bold", "black", "heavy", "extra-black", "ultra-black"]
    public static let strokeStyles = ["solid", "dashed", "dotted", "double", "groove", "ridge", "outset", "inset"]
    public static let lineCaps = ["round", "butt", "square"]

    /// Diagnostics for `value` as a `type` token called `path`.
    public static func check(_ value: Node, type: String, path: String) -> [Diagnostic] {
        var checker = Walk(path: path)
        checker.value(value, type: type, allowReference: false)
        return checker.diagnostics
    }

    /// Whether `value` (with no references left in it) may stand where `partType` is expected: a
    /// DTCG type (checked as a whole value of that type), or one of the parts below the types
    /// (`partType(_:at:)`).
    public static func fits(_ value: Node, _ partType: String) -> Bool {
        switch partType {
        case "number": return value.number != nil
        case "component": return value.number != nil || value.string == "none"
        case "string": return value.string != nil
        case "boolean": return value.bool != nil
        default: return check(value, type: partType, path: "").isEmpty
        }
    }

    /// The kind of the part of a `type` value at `part` (keys and indexes): a DTCG type where the
    /// format has a token's value (a border's colour, a shadow's offset), else "number",
    /// "component" (a colour component: a number or "none"), "string" or "boolean"; nil where
    /// the format puts nothing.
    public static func partType(_ type: String, at part: ArraySlice<String>) -> String? {
        guard let first = part.first else { return type }
        let rest = part.dropFirst()
        func leaf(_ kind: String) -> String? { rest.isEmpty ? kind : nil }
        func member(_ members: Walk.Members) -> String? {
            members.first { $0.key == first }.flatMap { $0.type == "boolean" ? leaf("boolean") : partType($0.type, at: rest) }
        }
        switch type {
        case "color":
            switch first {
            case "components": return rest.count == 1 && Int(rest.first!) != nil ? "component" : nil
            case "alpha": return leaf("number")
            case "colorSpace", "hex": return leaf("string")
            default: return nil
            }
        case "dimension", "duration":
            return first == "value" ? leaf("number") : first == "unit" ? leaf("string") : nil
        case "cubicBezier": return Int(first) != nil ? leaf("number") : nil
        case "fontFamily": return Int(first) != nil ? leaf("string") : nil
        case "strokeStyle":
            if first == "lineCap" { return leaf("string") }
            guard first == "dashArray", let index = rest.first, Int(index) != nil else { return nil }
            return partType("dimension", at: rest.dropFirst())
        case "border": return member(Walk.borderMembers)
        case "transition": return member(Walk.transitionMembers)
        case "typography": return member(Walk.typographyMembers)
        case "shadow":
            // One shadow, or an array of them.
            if Int(first) != nil { return rest.isEmpty ? "shadow" : partType("shadow", at: rest) }
            return member(Walk.shadowMembers + Walk.shadowOptionalMembers)
        case "gradient":
            guard Int(first) != nil, let key = rest.first else { return nil }
            return Walk.gradientStopMembers.first { $0.key == key }.flatMap { partType($0.type, at: rest.dropFirst()) }
        default: return nil
        }
    }

    /// "a color value", "a number" and so on, for messages.
    public static func describe(part kind: String) -> String {
        switch kind {
        case "number": return "a number"
        case "component": return "a colour component (a number or \"none\")"
        case "string": return "a string"
        case "boolean": return "true or false"
        default: return "a \(kind) value"
        }
    }

    /// Whether a node is a curly-brace alias: `{group.token}`.
    public static func isAlias(_ node: Node) -> Bool { DesignToken.aliasTarget(of: node) != nil }

    /// Whether a node is a property-level JSON Pointer reference: `{"$ref": "#/…"}` and nothing else.
    public static func isPointerObject(_ node: Node) -> Bool {
        guard let entries = node.entries, entries.count == 1, entries[0].key == "$ref", let pointer = entries[0].value.string else { return false }
        return pointer.hasPrefix("#/")
    }

    private struct Walk {
        let path: String
        var diagnostics: [Diagnostic] = []

        mutating func fail(_ message: String, at node: Node, hint: String? = nil) {
            diagnostics.append(Diagnostic(.error, "'\(path)': \(message)", at: node.location, rule: ResolveRule.tokenValue, hint: hint))
        }

        /// A value of `type`; `allowReference` when the format allows a token reference in this place.
        mutating func value(_ node: Node, type: String, allowReference: Bool = true) {
            if isAlias(node) || isPointerObject(node) {
                if !allowReference && isPointerObject(node) {
                    fail("a whole value cannot be a {\"$ref\": …} object; use \"$ref\" on the token instead of \"$value\"", at: node)
                }
                return
            }
            switch type {
            case "color": color(node)
            case "dimension": measure(node, units: Self.dimensionUnits, what: "dimension", example: "{\"value\": 16, \"unit\": \"px\"}")
            case "duration": measure(node, units: Self.durationUnits, what: "duration", example: "{\"value\": 200, \"unit\": \"ms\"}")
            case "fontFamily": fontFamily(node)
            case "fontWeight": fontWeight(node)
            case "cubicBezier": cubicBezier(node)
            case "number":
                if node.number == nil { fail("a number token's value is a number, found \(node.typeDescription)", at: node) }
            case "strokeStyle": strokeStyle(node)
            case "border": object(node, "border", required: Self.borderMembers)
            case "transition": object(node, "transition", required: Self.transitionMembers)
            case "shadow": shadow(node)
            case "gradient": gradient(node)
            case "typography": object(node, "typography", required: Self.typographyMembers)
            default: break  // unknown types are reported by the type rule
            }
        }

        /// A composite type's members and the type of each, in key order (the order messages list them in).
        typealias Members = [(key: String, type: String)]

        static let borderMembers: Members = [("color", "color"), ("style", "strokeStyle"), ("width", "dimension")]
        static let transitionMembers: Members = [("delay", "duration"), ("duration", "duration"), ("timingFunction", "cubicBezier")]
        static let typographyMembers: Members = [("fontFamily", "fontFamily"), ("fontSize", "dimension"), ("fontWeight", "fontWeight"),
                                                 ("letterSpacing", "dimension"), ("lineHeight", "number")]
        static let shadowMembers: Members = [("blur", "dimension"), ("color", "color"), ("offsetX", "dimension"), ("offsetY", "dimension"),
                                             ("spread", "dimension")]
        static let shadowOptionalMembers: Members = [("inset", "boolean")]
        static let gradientStopMembers: Members = [("color", "color"), ("position", "number")]
        static let dimensionUnits = ["px", "rem"]
        static let durationUnits = ["ms", "s"]
        static let colorMembers = ["colorSpace", "components", "alpha", "hex"]

        /// An object with exactly these members, each of its own type (references allowed).
        mutating func object(_ node: Node, _ what: String, required: Members, optional: Members = []) {
            guard let entries = node.entries else {
                fail("a \(what) value is an object with \(required.map(\.key).joined(separator: ", ")), found \(node.typeDescription)", at: node)
                return
            }
            for entry in entries {
                guard let type = (required.first { $0.key == entry.key } ?? optional.first { $0.key == entry.key })?.type else {
                    let known = required.map(\.key) + optional.map(\.key)
                    diagnostics.append(Diagnostic(.error, "'\(path)': '\(entry.key)' is not a member of a \(what) value", at: entry.keyLocation,
                                                  rule: ResolveRule.tokenValue,
                                                  hint: DidYouMean.hint(for: entry.key, among: known) ?? "members are \(known.sorted().joined(separator: ", "))"))
                    continue
                }
                if type == "boolean" {
                    if entry.value.bool == nil { fail("'\(entry.key)' is true or false, found \(entry.value.typeDescription)", at: entry.value) }
                } else {
                    value(entry.value, type: type)
                }
            }
            for (key, _) in required where node[key] == nil {
                fail("a \(what) value needs '\(key)'", at: node)
            }
        }

        /// `{value, unit}` where only property-level pointers may replace a member.
        mutating func measure(_ node: Node, units: [String], what: String, example: String) {
            guard let entries = node.entries else {
                let hint = node.string.map { text in "write \(example); '\(text)' is the older string form" } ?? "write \(example)"
                fail("a \(what) value is an object {value, unit}, found \(node.typeDescription)", at: node, hint: hint)
                return
            }
            for entry in entries where entry.key != "value" && entry.key != "unit" {
                diagnostics.append(Diagnostic(.error, "'\(path)': '\(entry.key)' is not a member of a \(what) value", at: entry.keyLocation,
                                              rule: ResolveRule.tokenValue, hint: "members are value and unit"))
            }
            if let number = node["value"] {
                if number.number == nil && !isPointerObject(number) { fail("a \(what)'s value is a number, found \(number.typeDescription)", at: number) }
            } else {
                fail("a \(what) value needs 'value'", at: node)
            }
            if let unit = node["unit"] {
                if !isPointerObject(unit) && !(unit.string.map(units.contains) ?? false) {
                    fail("'\(unit.string ?? unit.typeDescription)' is not a \(what) unit; units are \(units.joined(separator: ", "))", at: unit,
                         hint: unit.string.flatMap { DidYouMean.hint(for: $0, among: units) })
                }
            } else {
                fail("a \(what) value needs 'unit' (\(units.joined(separator: " or ")))", at: node)
            }
        }

        mutating func color(_ node: Node) {
            guard let entries = node.entries else {
                let hint = node.string.map { text in text.hasPrefix("#") ? "write {\"colorSpace\": \"srgb\", \"components\": [r, g, b], \"hex\": \"\(text)\"}" : nil } ?? nil
                fail("a color value is an object {colorSpace, components, alpha?, hex?}, found \(node.typeDescription)", at: node, hint: hint)
                return
            }
            for entry in entries where !Self.colorMembers.contains(entry.key) {
                diagnostics.append(Diagnostic(.error, "'\(path)': '\(entry.key)' is not a member of a color value", at: entry.keyLocation,
                                              rule: ResolveRule.tokenValue, hint: DidYouMean.hint(for: entry.key, among: Self.colorMembers)))
            }
            var space: String?
            if let spaceNode = node["colorSpace"] {
                if let name = spaceNode.string, Self.colorSpaceNames.contains(name) {
                    space = name
                } else if !isPointerObject(spaceNode) {
                    fail("'\(spaceNode.string ?? spaceNode.typeDescription)' is not a DTCG colour space", at: spaceNode,
                         hint: spaceNode.string.flatMap { DidYouMean.hint(for: $0, among: TokenValueChecker.colorSpaces) } ?? "spaces are \(TokenValueChecker.colorSpaces.joined(separator: ", "))")
                }
            } else {
                fail("a color value needs 'colorSpace'", at: node)
            }
            if let components = node["components"] {
                if let items = components.items {
                    if items.count != 3 { fail("a color has 3 components, found \(items.count)", at: components) }
                    for (index, item) in items.enumerated() {
                        if item.string == "none" || isPointerObject(item) { continue }
                        guard let number = item.number else {
                            fail("component \(index + 1) is a number or \"none\", found \(item.typeDescription)", at: item)
                            continue
                        }
                        if let space, let range = Self.componentRange(space, index), !range.contains(number) {
                            fail("component \(index + 1) of a \(space) colour is \(Self.describe(range)), found \(number)", at: item)
                        }
                    }
                } else if !isPointerObject(components) {
                    fail("'components' is an array of 3 numbers, found \(components.typeDescription)", at: components)
                }
            } else {
                fail("a color value needs 'components'", at: node)
            }
            if let alpha = node["alpha"], !isPointerObject(alpha) {
                if let number = alpha.number {
                    if !(0...1).contains(number) { fail("alpha is between 0 and 1, found \(number)", at: alpha) }
                } else {
                    fail("alpha is a number between 0 and 1, found \(alpha.typeDescription)", at: alpha)
                }
            }
            if let hex = node["hex"], !isPointerObject(hex) {
                let text = hex.string ?? ""
                if !Self.isSixDigitHex(text) {
                    fail("hex is 6-digit CSS hex like \"#ff00ff\", found \(hex.string.map { "'\($0)'" } ?? hex.typeDescription)", at: hex,
                         hint: text.count == 9 ? "put the alpha in 'alpha', not in hex" : nil)
                }
            }
        }

        static let colorSpaceNames = Set(TokenValueChecker.colorSpaces)

        /// `#` and six hexadecimal digits. ASCII text is checked byte by byte; other text by
        /// characters (`isHexDigit` takes fullwidth digits too).
        static func isSixDigitHex(_ text: String) -> Bool {
            let bytes = text.utf8
            guard bytes.allSatisfy({ $0 < 0x80 }) else {
                return text.count == 7 && text.hasPrefix("#") && text.dropFirst().allSatisfy(\.isHexDigit)
            }
            return bytes.count == 7 && bytes.first == UInt8(ascii: "#") && bytes.dropFirst().allSatisfy { byte in
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
            }
        }

        /// Component ranges of CSS Color 4 where the format bounds them (hue is any angle below 360).
        static func componentRange(_ space: String, _ index: Int) -> ClosedRange<Double>? {
            switch (space, index) {
            case ("srgb", _), ("srgb-linear", _), ("display-p3", _), ("a98-rgb", _), ("prophoto-rgb", _), ("rec2020", _): return 0...1
            case ("hsl", 0), ("hwb", 0), ("lch", 2), ("oklch", 2): return 0...359.999_999_999
            case ("hsl", _), ("hwb", _): return 0...100
            case ("lab", 0), ("lch", 0): return 0...100
            case ("oklab", 0), ("oklch", 0): return 0...1
            case ("lch", 1), ("oklch", 1): return 0...Double.greatestFiniteMagnitude
            default: return nil
            }
        }

        static func describe(_ range: ClosedRange<Double>) -> String {
            if range.upperBound == .greatestFiniteMagnitude { return "0 or more" }
            if range.upperBound > 359 && range.upperBound < 360 { return "an angle from 0 up to (not including) 360" }
            return "from \(range.lowerBound == 0 ? "0" : "\(range.lowerBound)") to \(range.upperBound == 1 ? "1" : "\(Int(range.upperBound))")"
        }

        mutating func fontFamily(_ node: Node) {
            if node.string != nil { return }
            guard let items = node.items, !items.isEmpty else {
                fail("a fontFamily value is a font name or a non-empty array of names, found \(node.typeDescription)", at: node)
                return
            }
            for item in items where item.string == nil && !isPointerObject(item) {
                fail("a font name is a string, found \(item.typeDescription)", at: item)
            }
            for item in items where isAlias(item) { fail("font names in an array cannot be {…} references", at: item) }
        }

        mutating func fontWeight(_ node: Node) {
            if let number = node.number {
                if !(1...1000).contains(number) { fail("a numeric font weight is from 1 to 1000, found \(number)", at: node) }
            } else if let name = node.string {
                if !TokenValueChecker.fontWeightNames.contains(name) {
                    fail("'\(name)' is not a font weight name", at: node, hint: DidYouMean.hint(for: name, among: TokenValueChecker.fontWeightNames))
                }
            } else {
                fail("a fontWeight value is a number from 1 to 1000 or a weight name, found \(node.typeDescription)", at: node)
            }
        }

        mutating func cubicBezier(_ node: Node) {
            guard let items = node.items, items.count == 4 else {
                fail("a cubicBezier value is an array of 4 numbers [P1x, P1y, P2x, P2y], found \(node.items.map { "\($0.count) items" } ?? node.typeDescription)", at: node)
                return
            }
            for (index, item) in items.enumerated() where !isPointerObject(item) {
                guard let number = item.number else {
                    fail("point \(index + 1) of a cubicBezier is a number, found \(item.typeDescription)", at: item)
                    continue
                }
                if index % 2 == 0 && !(0...1).contains(number) { fail("x coordinates of a cubicBezier are from 0 to 1, found \(number)", at: item) }
            }
        }

        mutating func strokeStyle(_ node: Node) {
            if let name = node.string {
                if !TokenValueChecker.strokeStyles.contains(name) {
                    fail("'\(name)' is not a stroke style", at: node, hint: DidYouMean.hint(for: name, among: TokenValueChecker.strokeStyles)
                         ?? "styles are \(TokenValueChecker.strokeStyles.joined(separator: ", "))")
                }
                return
            }
            guard let entries = node.entries else {
                fail("a strokeStyle value is a style name or {dashArray, lineCap}, found \(node.typeDescription)", at: node)
                return
            }
            for entry in entries where entry.key != "dashArray" && entry.key != "lineCap" {
                diagnostics.append(Diagnostic(.error, "'\(path)': '\(entry.key)' is not a member of a strokeStyle value", at: entry.keyLocation,
                                              rule: ResolveRule.tokenValue, hint: "members are dashArray and lineCap"))
            }
            if let dashes = node["dashArray"] {
                if let items = dashes.items, !items.isEmpty {
                    for item in items { value(item, type: "dimension") }
                } else if !isPointerObject(dashes) {
                    fail("dashArray is a non-empty array of dimensions", at: dashes)
                }
            } else {
                fail("a strokeStyle object needs 'dashArray'", at: node)
            }
            if let cap = node["lineCap"] {
                if !isPointerObject(cap) && !(cap.string.map(TokenValueChecker.lineCaps.contains) ?? false) {
                    fail("lineCap is round, butt or square, found \(cap.string.map { "'\($0)'" } ?? cap.typeDescription)", at: cap)
                }
            } else {
                fail("a strokeStyle object needs 'lineCap'", at: node)
            }
        }

        mutating func shadow(_ node: Node) {
            if let items = node.items {
                if items.isEmpty { fail("a shadow array needs at least one shadow", at: node) }
                for item in items {
                    if isAlias(item) || isPointerObject(item) { continue }
                    object(item, "shadow", required: Self.shadowMembers, optional: Self.shadowOptionalMembers)
                }
            } else {
                object(node, "shadow", required: Self.shadowMembers, optional: Self.shadowOptionalMembers)
            }
        }

        mutating func gradient(_ node: Node) {
            guard let items = node.items, !items.isEmpty else {
                fail("a gradient value is a non-empty array of stops {color, position}, found \(node.typeDescription)", at: node)
                return
            }
            for item in items {
                if isAlias(item) || isPointerObject(item) { continue }
                object(item, "gradient stop", required: Self.gradientStopMembers)
                if let position = item["position"]?.number, !(0...1).contains(position) {
                    fail("a gradient stop's position is from 0 to 1, found \(position)", at: item["position"]!)
                }
            }
        }
    }
}
