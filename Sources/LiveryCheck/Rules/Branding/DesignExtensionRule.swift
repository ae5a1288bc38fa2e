import LiveryDiagnostics
import LiveryLoad
import LiveryResolve

/// `branding.extensions`: every `com.livery` value has the shape `schemas/livery-token-extensions.schema.json` gives it.
struct ExtensionValueRule: Rule {
    static let id: RuleID = "branding.extensions"
    static let description = RuleDescription(
        id: id, name: "Livery token extensions", family: .branding,
        rationale: "The `com.livery` extensions (contrast pairs, canonical sets, tab identity, springs, haptics, platform shadows, glass, hit areas) have one documented shape, sit where they apply, and their aliases name tokens of the right type.",
        triggering: [
            RuleExample("a spring without stiffness", files: TokenExample.files("""
                {"motion": {"$type": "number", "soft": {"$value": 15, "$extensions": {"com.livery": {"spring": ↓{"damping": 15}}}}}}

                """)),
            RuleExample("a haptic style that does not exist", files: TokenExample.files("""
                {"haptics": {"$extensions": {"com.livery": {"haptics": {"tap": ↓"buzz"}}}}}

                """)),
            RuleExample("a tab header that is not a colour token", files: TokenExample.files("""
                {"color": {"$type": "color", "palette": {"blue": {"$value": {"colorSpace": "srgb", "components": [0, 0.4, 0.8], "hex": "#0066cc"}}},
                  "tab": {"$value": "{color.palette.blue}", "$extensions": {"com.livery": {"tab": {"tint": 0.15, "header": ↓"{color.palette.bleu}"}}}}}}

                """)),
            RuleExample("glass on a number token", files: TokenExample.files("""
                {"blur": {"$type": "number", "$value": 12, "$extensions": {"com.livery": {↓"glass": {"blur": 12, "fillOpacity": 0.1}}}}}

                """)),
            RuleExample("a contrast usage that does not exist", files: TokenExample.files("""
                {"$extensions": {"com.livery": {"contrast": [{"foreground": "{color.palette.blue}", "background": "{color.primary}", "usage": ↓"heading"}]}},
                 "color": {"$type": "color", "palette": {"blue": {"$value": {"colorSpace": "srgb", "components": [0, 0.4, 0.8], "hex": "#0066cc"}}},
                   "primary": {"$value": "{color.palette.blue}"}}}

                """)),
        ],
        nonTriggering: [
            RuleExample("every extension in its place", files: TokenExample.files("""
                {"$extensions": {"com.livery": {"canonical": {"fontSizes": [15, 17], "radii": [0, 8], "springs": [{"damping": 15, "stiffness": 150, "mass": 1}]},
                   "contrast": [{"foreground": "{color.palette.white}", "background": "{color.palette.blue}", "usage": "body"}]}},
                 "color": {"$type": "color", "palette": {"blue": {"$value": {"colorSpace": "srgb", "components": [0, 0.4, 0.8], "hex": "#0066cc"}},
                   "white": {"$value": {"colorSpace": "srgb", "components": [1, 1, 1], "hex": "#ffffff"}}},
                   "glass": {"$value": "{color.palette.white}", "$extensions": {"com.livery": {"glass": {"blur": 20, "fillOpacity": 0.12, "border": "{color.palette.white}"}}}}},
                 "motion": {"$type": "number", "default": {"$value": 15, "$extensions": {"com.livery": {"spring": {"damping": 15, "stiffness": 150, "mass": 1}}}}},
                 "haptics": {"$extensions": {"com.livery": {"haptics": {"tap": "light", "success": "success"}}}}}

                """)),
        ])

    func check(_ context: RuleContext) -> [Diagnostic] {
        let tokens = context.tenant.tokens["default"]
        var checker = ExtensionShapeChecker(tokens: tokens)
        for manifest in context.source.manifests(.branding) where manifest.node["resolutionOrder"] == nil {
            let parsed = TokenParser.parseFile(manifest.node)
            for (group, extensions) in parsed.groupExtensions {
                checker.check(extensions, at: group.isEmpty ? .file : .group)
            }
            for token in parsed.tokens {
                checker.check(token.extensions, at: .token(type: token.type ?? tokens?.types[token.path]), token: token)
            }
        }
        return checker.diagnostics
    }
}

/// Checks `com.livery` values against the vocabulary, reporting at the offending part.
struct ExtensionShapeChecker {
    let tokens: ResolvedTokens?
    var diagnostics: [Diagnostic] = []

    init(tokens: ResolvedTokens?) { self.tokens = tokens }

    mutating func fail(_ message: String, at node: Node, hint: String? = nil) {
        diagnostics.append(Diagnostic(.error, message, at: node.location, rule: ExtensionValueRule.id, hint: hint))
    }

    mutating func check(_ extensions: Node?, at place: LiveryExtensions.Place, token: DesignToken? = nil) {
        guard let extensions, let livery = extensions.entry(LiveryExtensions.namespace) else { return }
        guard let entries = livery.value.entries else {
            fail("'com.livery' is an object of Livery extensions, found \(livery.value.typeDescription)", at: livery.value)
            return
        }
        let allowed = LiveryExtensions.keys(at: place)
        for entry in entries {
            guard let types = allowed[entry.key] else {
                let everywhere = [LiveryExtensions.Place.file, .group, .token(type: nil)].flatMap { LiveryExtensions.keys(at: $0).keys }
                if Set(everywhere).contains(entry.key) {
                    diagnostics.append(Diagnostic(.error, "'\(entry.key)' does not belong \(Self.describe(place))", at: entry.keyLocation, rule: ExtensionValueRule.id,
                                                  hint: Self.placeHint(entry.key)))
                } else {
                    diagnostics.append(Diagnostic(.error, "'\(entry.key)' is not a Livery extension", at: entry.keyLocation, rule: ExtensionValueRule.id,
                                                  hint: DidYouMean.hint(for: entry.key, among: Set(everywhere)) ?? "see schemas/livery-token-extensions.schema.json"))
                }
                continue
            }
            if case .token(let type) = place, !types.isEmpty, !types.contains(type ?? "") {
                diagnostics.append(Diagnostic(.error, "'\(entry.key)' belongs on a \(types.sorted().joined(separator: " or ")) token, not a \(type ?? "untyped") one",
                                              at: entry.keyLocation, rule: ExtensionValueRule.id))
                continue
            }
            let value = entry.value
            switch entry.key {
            case "contrast": contrast(value)
            case "canonical": canonical(value)
            case "haptics": haptics(value)
            case "hitArea": hitArea(value)
            case "interactive": if value.bool == nil { fail("'interactive' is true or false, found \(value.typeDescription)", at: value) }
            case "tab": object(value, "tab", required: ["tint": .fraction, "header": .color], optional: ["tinted": .color])
            case "glass": object(value, "glass", required: ["blur": .nonNegative, "fillOpacity": .unit], optional: ["border": .color])
            case "platform": platform(value)
            case "spring":
                object(value, "spring", required: ["damping": .positive, "stiffness": .positive], optional: ["mass": .positive])
                if let token, let damping = value["damping"]?.number, let own = tokens?.values[token.path]?.number, own != damping {
                    fail("'\(token.path)' has the value \(SpringConfig.text(own)) but its spring's damping is \(SpringConfig.text(damping)); the value of a spring token is its damping",
                         at: value["damping"] ?? value)
                }
            default: break
            }
        }
    }

    static func describe(_ place: LiveryExtensions.Place) -> String {
        switch place {
        case .file: "at the top of a token file"
        case .group: "on a group"
        case .token(let type): "on a \(type ?? "untyped") token"
        }
    }

    static func placeHint(_ key: String) -> String {
        switch key {
        case "contrast", "canonical": "put '\(key)' in the top-level $extensions of a token file"
        case "haptics": "put 'haptics' on a group"
        default: "put '\(key)' on the token it describes"
        }
    }

    /// What a member of an extension object must be.
    enum Member { case fraction, unit, positive, nonNegative, color, number, point }

    mutating func object(_ node: Node, _ what: String, required: [String: Member], optional: [String: Member] = [:]) {
        guard let entries = node.entries else { fail("'\(what)' is an object, found \(node.typeDescription)", at: node); return }
        let all = required.merging(optional) { a, _ in a }
        for entry in entries {
            guard let member = all[entry.key] else {
                diagnostics.append(Diagnostic(.error, "'\(entry.key)' is not a member of '\(what)'", at: entry.keyLocation, rule: ExtensionValueRule.id,
                                              hint: DidYouMean.hint(for: entry.key, among: all.keys) ?? "members are \(all.keys.sorted().joined(separator: ", "))"))
                continue
            }
            self.member(entry.value, member, name: "\(what).\(entry.key)")
        }
        for name in required.keys.sorted() where node[name] == nil {
            fail("'\(what)' needs '\(name)'", at: node)
        }
    }

    mutating func member(_ node: Node, _ kind: Member, name: String) {
        if kind == .color { colorAlias(node, name: name); return }
        if kind == .point {
            if node.items?.count != 2 || node.items?.allSatisfy({ $0.number != nil }) != true { fail("'\(name)' is [x, y], two numbers in pt", at: node) }
            return
        }
        guard let number = node.number else { fail("'\(name)' is a number, found \(node.typeDescription)", at: node); return }
        switch kind {
        case .fraction where !(number > 0 && number <= 1): fail("'\(name)' is a fraction above 0 and at most 1 (0.15 = 15%), found \(number)", at: node)
        case .unit where !(0...1).contains(number): fail("'\(name)' is between 0 and 1, found \(number)", at: node)
        case .positive where !(number > 0): fail("'\(name)' is above 0, found \(number)", at: node)
        case .nonNegative where number < 0: fail("'\(name)' is 0 or more, found \(number)", at: node)
        default: break
        }
    }

    /// An alias to a colour token (`"{color.x}"` or `{"$ref": "#/…"}`), checked against the default mode.
    mutating func colorAlias(_ node: Node, name: String) {
        guard let reference = TokenReference.of(node), reference.subpath.isEmpty else {
            fail("'\(name)' is an alias to a colour token, like \"{color.palette.white}\"", at: node)
            return
        }
        guard let tokens else { return }
        guard tokens.tokens[reference.path] != nil else {
            fail("'\(name)' refers to '\(reference.text)', which is not a token", at: node,
                 hint: DidYouMean.suggestion(for: reference.path, among: tokens.tokens.keys).map { "did you mean '{\($0)}'?" })
            return
        }
        if let type = tokens.types[reference.path], type != "color" {
            fail("'\(name)' refers to '\(reference.text)', a \(type) token; it needs a colour", at: node)
        }
    }

    mutating func contrast(_ node: Node) {
        guard let items = node.items else { fail("'contrast' is a list of {foreground, background, usage}, found \(node.typeDescription)", at: node); return }
        for item in items {
            guard let entries = item.entries else { fail("a contrast pair is an object {foreground, background, usage}", at: item); continue }
            let members = ["foreground", "background", "usage", "base", "level", "acknowledged"]
            for entry in entries {
                switch entry.key {
                case "foreground", "background", "base": colorAlias(entry.value, name: "contrast.\(entry.key)")
                case "usage":
                    if ContrastUsage(rawValue: entry.value.string ?? "") == nil {
                        fail("usage is one of \(ContrastUsage.allCases.map(\.rawValue).joined(separator: ", ")), found \(entry.value.string.map { "'\($0)'" } ?? entry.value.typeDescription)",
                             at: entry.value, hint: "body: text (4.5:1); large: text ≥ 24 px or ≥ 18.67 px bold (3:1); ui: components and graphics (3:1)")
                    }
                case "level":
                    if !["aa", "aaa"].contains(entry.value.string ?? "") { fail("level is \"aa\" (the default) or \"aaa\"", at: entry.value) }
                case "acknowledged":
                    if (entry.value.string ?? "").allSatisfy(\.isWhitespace) {
                        fail("'acknowledged' gives the reason a known contrast failure ships, as text", at: entry.value)
                    }
                default:
                    diagnostics.append(Diagnostic(.error, "'\(entry.key)' is not a member of a contrast pair", at: entry.keyLocation, rule: ExtensionValueRule.id,
                                                  hint: DidYouMean.hint(for: entry.key, among: members)))
                }
            }
            for name in ["foreground", "background", "usage"] where item[name] == nil { fail("a contrast pair needs '\(name)'", at: item) }
        }
    }

    mutating func canonical(_ node: Node) {
        guard let entries = node.entries else { fail("'canonical' is an object {fontSizes, radii, springs, palette}", at: node); return }
        for entry in entries {
            switch entry.key {
            case "fontSizes", "radii":
                guard let items = entry.value.items, !items.isEmpty else { fail("'canonical.\(entry.key)' is a non-empty list of sizes in px", at: entry.value); continue }
                for item in items where !((item.number ?? -1) >= 0) { fail("'canonical.\(entry.key)' holds sizes in px (numbers ≥ 0), found \(item.typeDescription)", at: item) }
            case "springs":
                guard let items = entry.value.items, !items.isEmpty else { fail("'canonical.springs' is a non-empty list of {damping, stiffness, mass}", at: entry.value); continue }
                for item in items { object(item, "spring", required: ["damping": .positive, "stiffness": .positive], optional: ["mass": .positive]) }
            case "palette":
                let path = entry.value.string ?? ""
                if path.isEmpty || path.hasPrefix("{") { fail("'canonical.palette' is the path of the palette group, like \"color.palette\"", at: entry.value) }
            default:
                diagnostics.append(Diagnostic(.error, "'\(entry.key)' is not a canonical set", at: entry.keyLocation, rule: ExtensionValueRule.id,
                                              hint: DidYouMean.hint(for: entry.key, among: ["fontSizes", "radii", "springs", "palette"])))
            }
        }
    }

    mutating func haptics(_ node: Node) {
        guard let entries = node.entries else { fail("'haptics' maps interactions to feedback styles, found \(node.typeDescription)", at: node); return }
        for entry in entries where !LiveryExtensions.hapticStyles.contains(entry.value.string ?? "") {
            fail("'\(entry.key)' maps to \(entry.value.string.map { "'\($0)'" } ?? entry.value.typeDescription), not a haptic style", at: entry.value,
                 hint: entry.value.string.flatMap { DidYouMean.hint(for: $0, among: LiveryExtensions.hapticStyles) }
                    ?? "styles are \(LiveryExtensions.hapticStyles.joined(separator: ", "))")
        }
    }

    mutating func hitArea(_ node: Node) {
        if let reference = TokenReference.of(node) {
            if let tokens, tokens.tokens[reference.path] == nil {
                fail("'hitArea' refers to '\(reference.text)', which is not a token", at: node)
            } else if let type = tokens?.types[reference.path], type != "dimension" {
                fail("'hitArea' refers to a \(type) token; it needs a dimension", at: node)
            }
        } else if DTCGDimension.pixels(node) == nil {
            fail("'hitArea' is a dimension {value, unit} in px or rem, or an alias to one", at: node)
        }
    }

    mutating func platform(_ node: Node) {
        guard let entries = node.entries, !entries.isEmpty else { fail("'platform' is an object with 'ios' and/or 'android' shadow values", at: node); return }
        for entry in entries {
            switch entry.key {
            case "ios":
                object(entry.value, "ios", required: ["opacity": .unit, "radius": .nonNegative, "offset": .point], optional: [:])
            case "android":
                object(entry.value, "android", required: ["elevation": .nonNegative])
            default:
                diagnostics.append(Diagnostic(.error, "'\(entry.key)' is not a platform; shadows have 'ios' and 'android' values", at: entry.keyLocation,
                                              rule: ExtensionValueRule.id))
            }
        }
    }
}
