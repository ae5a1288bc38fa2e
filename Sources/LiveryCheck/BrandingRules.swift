import LiveryDiagnostics
import LiveryLoad
import LiveryRender
import LiveryResolve

/// Example workspaces with one token file.
enum TokenExample {
    static func files(_ json: String, dark: String? = nil) -> [String: String] {
        var files = ["example/branding/tokens.json": json]
        var branding = "branding:\n  tokens: [branding/tokens.json]\n"
        if let dark {
            files["example/branding/dark.tokens.json"] = dark
            branding += "  modes:\n    dark: [branding/dark.tokens.json]\n"
        }
        files["example/tenant.yaml"] = RuleExample.tenant(appending: branding)
        return files
    }

    static let valid = files("""
        {
          "color": {
            "$type": "color",
            "palette": {"blue": {"$value": {"colorSpace": "srgb", "components": [0, 0.4, 0.8], "hex": "#0066cc"}}},
            "primary": {"$value": "{color.palette.blue}"}
          }
        }

        """)
}

struct TokenStructureRule: CollectedRule {
    static let description = RuleDescription(
        id: ResolveRule.tokenStructure, name: "Token structure", family: .branding,
        rationale: "A DTCG file holds groups and tokens (objects with $value); names cannot contain '.', '{' or '}'.",
        triggering: [
            RuleExample("a raw value instead of a token", files: TokenExample.files("{\"color\": {\"brand\": ↓\"#0066cc\"}}\n")),
            RuleExample("a dot in a name", files: TokenExample.files("{\"color\": {↓\"brand.primary\": {\"$type\": \"number\", \"$value\": 1}}}\n")),
        ],
        nonTriggering: [RuleExample("groups and tokens", files: TokenExample.valid)])
}

struct TokenTypeRule: CollectedRule {
    static let description = RuleDescription(
        id: ResolveRule.tokenType, name: "Token type", family: .branding,
        rationale: "`$type` is one of the thirteen DTCG types.",
        triggering: [RuleExample("British spelling", files: TokenExample.files("{\"brand\": {\"$type\": ↓\"colour\", \"$value\": \"{brand}\"}}\n"))],
        nonTriggering: [RuleExample("inherited group type", files: TokenExample.valid)])
}

struct TokenValueRule: CollectedRule {
    static let description = RuleDescription(
        id: ResolveRule.tokenValue, name: "Token value", family: .branding,
        rationale: "Each `$value` has the shape its DTCG 2025.10 type defines (colour objects, {value, unit} dimensions and durations, composite members), pointed at the part that is wrong.",
        triggering: [
            RuleExample("a dimension with an unknown unit", files: TokenExample.files("""
                {"space": {"$type": "dimension", "sm": {"$value": {"value": 4, "unit": ↓"pt"}}}}

                """)),
            RuleExample("an sRGB component above 1", files: TokenExample.files("""
                {"color": {"$type": "color", "brand": {"$value": {"colorSpace": "srgb", "components": [0, ↓255, 0]}}}}

                """)),
            RuleExample("the older string form of a dimension", files: TokenExample.files("""
                {"radius": {"$type": "dimension", "md": {"$value": ↓"8px"}}}

                """)),
            RuleExample("a typography value missing a member", files: TokenExample.files("""
                {"type": {"$type": "typography", "body": {"$value": ↓{"fontFamily": "Inter", "fontSize": {"value": 16, "unit": "px"},
                  "fontWeight": 400, "letterSpacing": {"value": 0, "unit": "px"}}}}}

                """)),
        ],
        nonTriggering: [
            RuleExample("valid values and references", files: TokenExample.files("""
                {"color": {"$type": "color", "blue": {"$value": {"colorSpace": "oklch", "components": [0.6, 0.15, 250], "alpha": 0.9}}},
                 "border": {"$type": "border", "focus": {"$value": {"color": "{color.blue}", "width": {"value": 2, "unit": "px"}, "style": "solid"}}},
                 "motion": {"$type": "transition", "fade": {"$value": {"duration": {"value": 200, "unit": "ms"}, "delay": {"value": 0, "unit": "ms"},
                   "timingFunction": [0.4, 0, 0.2, 1]}}}}

                """)),
        ])
}

struct AliasUnknownRule: CollectedRule {
    static let description = RuleDescription(
        id: ResolveRule.aliasUnknown, name: "Unknown alias", family: .branding,
        rationale: "Every `{group.token}` alias points at a token that exists.",
        triggering: [
            RuleExample("misspelt alias", files: TokenExample.files("""
                {"color": {"$type": "color",
                  "palette": {"blue": {"$value": {"colorSpace": "srgb", "components": [0, 0.4, 0.8]}}},
                  "primary": {"$value": ↓"{color.pallete.blue}"}}}

                """)),
            RuleExample("alias inside a composite value", files: TokenExample.files("""
                {"line": {"$type": "border", "$value": {"color": ↓"{color.nope}", "width": {"value": 1, "unit": "px"}, "style": "solid"}}}

                """)),
        ],
        nonTriggering: [RuleExample("resolving alias", files: TokenExample.valid)])
}

struct AliasCycleRule: CollectedRule {
    static let description = RuleDescription(
        id: ResolveRule.aliasCycle, name: "Alias cycle", family: .branding,
        rationale: "Aliases that point at each other never reach a value; every token in the cycle is reported.",
        triggering: [RuleExample("two tokens aliasing each other", files: TokenExample.files("""
            {"color": {"$type": "color", "a": {"$value": ↓"{color.b}"}, "b": {"$value": "{color.a}"}}}

            """))],
        nonTriggering: [RuleExample("an alias chain", files: TokenExample.files("""
            {"color": {"$type": "color", "a": {"$value": "{color.b}"}, "b": {"$value": "{color.c}"},
              "c": {"$value": {"colorSpace": "srgb", "components": [1, 1, 1]}}}}

            """))])
}

struct AliasTypeRule: CollectedRule {
    static let description = RuleDescription(
        id: ResolveRule.aliasType, name: "Alias type", family: .branding,
        rationale: "A token that aliases another must have the same type.",
        triggering: [RuleExample("dimension aliasing a colour", files: TokenExample.files("""
            {"color": {"$type": "color", "blue": {"$value": {"colorSpace": "srgb", "components": [0, 0, 1]}}},
             "space": {"$type": "dimension", "sm": {"$value": ↓"{color.blue}"}}}

            """))],
        nonTriggering: [RuleExample("same type", files: TokenExample.valid)])
}

struct BrandingModeRule: Rule {
    static let description = RuleDescription(
        id: "branding.mode-override", name: "Mode overrides", family: .branding,
        rationale: "A mode file (e.g. dark) only overrides tokens of the base files; a new token there is usually a typo.",
        severity: .warning,
        triggering: [RuleExample("dark token missing from the base", files: TokenExample.files(
            "{\"color\": {\"$type\": \"color\", \"bg\": {\"$value\": {\"colorSpace\": \"srgb\", \"components\": [1, 1, 1]}}}}\n",
            dark: "{\"color\": {\"$type\": \"color\", ↓\"bgg\": {\"$value\": {\"colorSpace\": \"srgb\", \"components\": [0, 0, 0]}}}}\n"))],
        nonTriggering: [RuleExample("dark overrides a base token", files: TokenExample.files(
            "{\"color\": {\"$type\": \"color\", \"bg\": {\"$value\": {\"colorSpace\": \"srgb\", \"components\": [1, 1, 1]}}}}\n",
            dark: "{\"color\": {\"$type\": \"color\", \"bg\": {\"$value\": {\"colorSpace\": \"srgb\", \"components\": [0, 0, 0]}}}}\n"))])

    func check(_ context: RuleContext) -> [Diagnostic] {
        guard let base = context.tenant.tokens["default"] else { return [] }
        var diagnostics: [Diagnostic] = []
        for (mode, tokens) in context.tenant.tokens where mode != "default" {
            for (path, token) in tokens.tokens where base.tokens[path] == nil && token.location.file.hasPrefix(context.source.displayRoot + "/") {
                diagnostics.append(Diagnostic(.warning, "token '\(path)' of mode '\(mode)' does not exist in the base tokens", at: token.location,
                                              rule: Self.description.id,
                                              hint: DidYouMean.hint(for: path, among: base.tokens.keys) ?? "define it in the base token files too"))
            }
        }
        return diagnostics
    }
}

/// `branding.platform-name`: two tokens of one category whose names in the generated platform files
/// would be the same. The generator finds it (and leaves both tokens out of those files); this rule
/// reports it when the tenant is validated, so creators see it before a build.
struct PlatformNameRule: Rule {
    static let description = RuleDescription(
        id: PlatformRule.nameCollision, name: "Distinct names in platform files", family: .branding,
        rationale: "Generated Swift, Kotlin, TypeScript, CSS and Android names keep only the ASCII letters and digits of a token's path below its category's group, so 'brand-primary' and 'brandPrimary' would both be brandPrimary; the generator leaves such tokens out rather than pick one.",
        triggering: [
            RuleExample("two spellings of one colour name", files: TokenExample.files("""
                {
                  "color": {
                    "$type": "color",
                    "palette": {"blue": {"$value": {"colorSpace": "srgb", "components": [0, 0.4, 0.8], "hex": "#0066cc"}}},
                    ↓"brand-primary": {"$value": "{color.palette.blue}"},
                    ↓"brandPrimary": {"$value": "{color.palette.blue}"}
                  }
                }

                """)),
        ],
        nonTriggering: [RuleExample("distinct names", files: TokenExample.valid)])

    func check(_ context: RuleContext) -> [Diagnostic] {
        guard context.tenant.tokens.values.contains(where: { !$0.tokens.isEmpty }) else { return [] }
        // Inherited tokens are reported with the tenant whose files hold them.
        return PlatformContext.nameCollisions(context.tenant).filter { context.owns($0.location) }
    }
}
