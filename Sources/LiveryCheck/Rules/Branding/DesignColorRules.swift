import LiveryDiagnostics
import LiveryLoad
import LiveryResolve

/// Helpers the design rules share.
enum DesignTokens {
    /// Tokens defined in this tenant's own files (an ancestor's are reported when it is validated).
    static func own(_ token: DesignToken, _ context: RuleContext) -> Bool {
        token.location.file.hasPrefix(context.source.displayRoot + "/")
    }

    /// Modes with `default` first.
    static func modes(_ tenant: ResolvedTenant) -> [(String, ResolvedTokens)] {
        tenant.tokens.keys.sorted(by: ContrastAudit.modeOrder).compactMap { mode in tenant.tokens[mode].map { (mode, $0) } }
    }

    /// Every colour object written inside a value (a border's colour, shadow colours, gradient stops).
    static func colorObjects(in node: Node) -> [Node] {
        if node["colorSpace"] != nil { return [node] }
        if let items = node.items { return items.flatMap(colorObjects) }
        if let entries = node.entries { return entries.flatMap { colorObjects(in: $0.value) } }
        return []
    }

    /// The `com.livery` value `key` on the token or the nearest enclosing group that has it.
    static func inherited(_ key: String, for token: DesignToken, in tenant: ResolvedTenant) -> Node? {
        if let own = LiveryExtensions.of(token.extensions)?[key] { return own }
        var parts = token.path.split(separator: ".").map(String.init)
        while !parts.isEmpty {
            parts.removeLast()
            if let value = LiveryExtensions.of(tenant.tokenGroupExtensions[parts.joined(separator: ".")])?[key] { return value }
        }
        return nil
    }
}

/// `branding.palette-only`: outside the palette, colours are aliases of palette tokens.
struct PaletteOnlyRule: Rule {
    static let id: RuleID = "branding.palette-only"
    static let description = RuleDescription(
        id: id, name: "Colours from the palette", family: .branding,
        rationale: "When a tenant has a palette (`color.palette`, or the group `canonical.palette` names), every other colour — component, semantic, text, and the colours inside borders, shadows and gradients — aliases a palette token, so a brand change is one edit.",
        messages: [declare(Message.rawColour)],
        triggering: [
            RuleExample("a raw hex colour on a component token", files: TokenExample.files("""
                {"color": {"$type": "color", "palette": {"blue": {"$value": {"colorSpace": "srgb", "components": [0, 0.4, 0.8], "hex": "#0066cc"}}},
                  "button": {"$value": ↓{"colorSpace": "srgb", "components": [0, 0.4, 0.8], "hex": "#0066cc"}}}}

                """)),
            RuleExample("a raw colour inside a border", files: TokenExample.files("""
                {"color": {"$type": "color", "palette": {"blue": {"$value": {"colorSpace": "srgb", "components": [0, 0.4, 0.8], "hex": "#0066cc"}}}},
                 "border": {"$type": "border", "focus": {"$value": {"color": ↓{"colorSpace": "srgb", "components": [0, 0, 0]}, "width": {"value": 1, "unit": "px"}, "style": "solid"}}}}

                """)),
        ],
        nonTriggering: [
            RuleExample("components alias the palette", files: TokenExample.valid),
            RuleExample("a declared palette group", files: TokenExample.files("""
                {"$extensions": {"com.livery": {"canonical": {"palette": "brand.colors"}}},
                 "brand": {"$type": "color", "colors": {"teal": {"$value": {"colorSpace": "srgb", "components": [0.051, 0.451, 0.4667], "hex": "#0d7377"}}},
                   "button": {"$value": "{brand.colors.teal}"}}}

                """)),
        ])

    enum Message {
        static func rawColour(path: String, hex: String, palette: String) -> DiagnosticMessage {
            DiagnosticMessage("raw-colour", "'\(path)' holds a raw colour\(hex); outside '\(palette)' colours alias a palette token")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        let palette = TenantExtensions.of(context.tenant).canonical.palette
        let prefix = palette + "."
        var diagnostics: [Diagnostic] = []
        for (_, tokens) in DesignTokens.modes(context.tenant) {
            guard tokens.tokens.keys.contains(where: { $0.hasPrefix(prefix) }) else { continue }
            let swatches = tokens.tokens.keys.filter { $0.hasPrefix(prefix) }.sorted().compactMap { path in tokens.color(path).map { (path, $0.srgb().opaqueHexString) } }
            for token in tokens.tokens.values where DesignTokens.own(token, context) && !token.path.hasPrefix(prefix) && token.reference == nil {
                for raw in DesignTokens.colorObjects(in: token.value) {
                    let hex = DTCGColor(node: raw)?.srgb().opaqueHexString
                    let same = swatches.first { $0.1 == hex }.map { "alias '{\($0.0)}', which has this colour" }
                    diagnostics.append(Diagnostic(.error, Message.rawColour(path: token.path, hex: hex.map { " (\($0))" } ?? "", palette: "\(palette)"),
                                                  at: raw.location, rule: Self.id, hint: same ?? "add the colour to '\(palette)' and alias it"))
                }
            }
        }
        return diagnostics
    }
}

/// `branding.color-hex`: a colour's `hex` fallback is its components in 8-bit sRGB.
struct ColorHexFallbackRule: Rule {
    static let id: RuleID = "branding.color-hex"
    static let description = RuleDescription(
        id: id, name: "Hex fallback matches", family: .branding,
        rationale: "Tools that cannot convert colour spaces show the `hex` fallback; it must be the components converted to sRGB (gamut-mapped or clipped, within one 8-bit step), or those tools show another colour.",
        severity: .warning,
        messages: [declare(Message.hexMismatch)],
        triggering: [RuleExample("a hex copied from another swatch", files: TokenExample.files("""
            {"color": {"$type": "color", "palette": {"blue": {"$value": {"colorSpace": "srgb", "components": [0, 0.4, 0.8], "hex": ↓"#0052a3"}}}}}

            """))],
        nonTriggering: [RuleExample("an oklch colour with its sRGB hex", files: TokenExample.files("""
            {"color": {"$type": "color", "palette": {"blue": {"$value": {"colorSpace": "oklch", "components": [0.5, 0.2, 260], "hex": "#0559d2"}},
              "white": {"$value": {"colorSpace": "srgb", "components": [1, 1, 1], "hex": "#ffffff"}}}}}

            """))])

    enum Message {
        static func hexMismatch(path: String, declared: String, computed: String, difference: String) -> DiagnosticMessage {
            DiagnosticMessage("hex-mismatch", "'\(path)': hex \(declared) does not match the components (\(computed)), off by \(difference) steps")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for (_, tokens) in DesignTokens.modes(context.tenant) {
            for token in tokens.tokens.values where DesignTokens.own(token, context) && token.reference == nil {
                for raw in DesignTokens.colorObjects(in: token.value) {
                    guard let color = DTCGColor(node: raw), let check = color.checkHexFallback(), !check.matches, let hex = raw["hex"] else { continue }
                    let computed = check.isInGamut ? check.computed : "\(check.computed) gamut-mapped, \(check.computedClipped) clipped"
                    diagnostics.append(Diagnostic(.warning, Message.hexMismatch(path: token.path, declared: "\(check.declared)", computed: computed, difference: "\(check.largestDifference)"),
                                                  at: hex.location, rule: Self.id, hint: "write \"hex\": \"\(check.computed)\""))
                }
            }
        }
        return diagnostics
    }
}

/// `branding.dark-coverage`: with a dark mode, every component colour has a dark value.
struct DarkCoverageRule: Rule {
    static let id: RuleID = "branding.dark-coverage"
    static let description = RuleDescription(
        id: id, name: "Dark mode coverage", family: .branding,
        rationale: "When a tenant declares a `dark` mode, every colour a component uses is given a dark value: the token or a token on its alias chain is defined by a dark-mode file (alias the same palette colour there to keep it on purpose).",
        messages: [declare(Message.noDarkValue)],
        triggering: [RuleExample("a component colour no dark file touches", files: TokenExample.files("""
            {"color": {"$type": "color", "palette": {
               "white": {"$value": {"colorSpace": "srgb", "components": [1, 1, 1], "hex": "#ffffff"}},
               "ink": {"$value": {"colorSpace": "srgb", "components": [0.0667, 0.0941, 0.1529], "hex": "#111827"}}},
              "surface": {"$value": "{color.palette.white}"},
              "component": {"card": {"background": {"$value": "{color.surface}"}}, ↓"chip": {"$value": "{color.palette.white}"}}}}

            """, dark: """
            {"color": {"$type": "color", "surface": {"$value": "{color.palette.ink}"}}}

            """))],
        nonTriggering: [RuleExample("components follow a dark semantic token or are restated", files: TokenExample.files("""
            {"color": {"$type": "color", "palette": {
               "white": {"$value": {"colorSpace": "srgb", "components": [1, 1, 1], "hex": "#ffffff"}},
               "ink": {"$value": {"colorSpace": "srgb", "components": [0.0667, 0.0941, 0.1529], "hex": "#111827"}}},
              "surface": {"$value": "{color.palette.white}"},
              "component": {"card": {"background": {"$value": "{color.surface}"}}, "chip": {"$value": "{color.palette.white}"}}}}

            """, dark: """
            {"color": {"$type": "color", "surface": {"$value": "{color.palette.ink}"}, "component": {"chip": {"$value": "{color.palette.white}"}}}}

            """))])

    enum Message {
        static func noDarkValue(path: String, hex: String) -> DiagnosticMessage {
            DiagnosticMessage("no-dark-value", "component colour '\(path)' has no dark value: no dark-mode file defines it or a token it aliases (it stays \(hex))")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        guard let dark = context.tenant.tokens["dark"], let base = context.tenant.tokens["default"] else { return [] }
        var diagnostics: [Diagnostic] = []
        for token in dark.tokens.values.sorted(by: { $0.path < $1.path })
        where DesignTokens.own(token, context) && dark.types[token.path] == "color" && token.path.split(separator: ".").contains("component") {
            // Walk the alias chain in dark mode: a link defined somewhere else than in the
            // default mode was laid on by a dark file.
            var path: String? = token.path, seen = Set<String>(), covered = false
            while let current = path, seen.insert(current).inserted, let link = dark.tokens[current] {
                if base.tokens[current]?.location != link.location { covered = true; break }
                path = link.reference?.path
            }
            if covered { continue }
            let hex = dark.color(token.path)?.srgb().hexString ?? "?"
            diagnostics.append(Diagnostic(.error, Message.noDarkValue(path: token.path, hex: hex),
                                          at: base.tokens[token.path]?.location ?? token.location, rule: Self.id,
                                          hint: "give it a dark value in the dark token file; alias the same palette colour there if it is meant to stay"))
        }
        return diagnostics
    }
}
