import LiveryDiagnostics
import LiveryLoad
import LiveryResolve

/// Example workspaces with one token file.
public enum TokenExample {
    public static func files(_ json: String, dark: String? = nil) -> [String: String] {
        var files = ["example/branding/tokens.json": json]
        var branding = "branding:\n  tokens: [branding/tokens.json]\n"
        if let dark {
            files["example/branding/dark.tokens.json"] = dark
            branding += "  modes:\n    dark: [branding/dark.tokens.json]\n"
        }
        files["example/tenant.yaml"] = RuleExample.tenant(appending: branding)
        return files
    }

    public static let valid = files("""
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
        messages: [declare(TokenStructureMessage.notAnObject), declare(TokenStructureMessage.badExtends), declare(TokenStructureMessage.badName), declare(TokenStructureMessage.notGroupOrToken), declare(TokenStructureMessage.valueAndRef), declare(TokenStructureMessage.badRef), declare(TokenStructureMessage.rootNotToken)],
        triggering: [
            RuleExample("a raw value instead of a token", files: TokenExample.files("{\"color\": {\"brand\": ↓\"#0066cc\"}}\n")),
            RuleExample("a dot in a name", files: TokenExample.files("{\"color\": {↓\"brand.primary\": {\"$type\": \"number\", \"$value\": 1}}}\n")),
            RuleExample("a token file that is a list", files: TokenExample.files("↓[]\n")),
            RuleExample("$extends naming a group without braces", files: TokenExample.files("{\"color\": {\"$type\": \"color\"}, \"text\": {\"$extends\": ↓\"color\"}}\n")),
            RuleExample("a token with both $value and $ref", files: TokenExample.files("{\"size\": {\"$type\": \"number\", \"a\": {\"$value\": 1}, \"b\": {\"$value\": 2, \"$ref\": ↓\"#/size/a/$value\"}}}\n")),
            RuleExample("a $ref that is not a JSON Pointer", files: TokenExample.files("{\"size\": {\"$type\": \"number\", \"a\": {\"$value\": 1}, \"b\": {\"$ref\": ↓\"size.a\"}}}\n")),
            RuleExample("a $root that is a group", files: TokenExample.files("{\"size\": {\"$type\": \"number\", ↓\"$root\": {\"a\": {\"$value\": 1}}}}\n")),
        ],
        nonTriggering: [RuleExample("groups and tokens", files: TokenExample.valid)])
}

struct TokenTypeRule: CollectedRule {
    static let description = RuleDescription(
        id: ResolveRule.tokenType, name: "Token type", family: .branding,
        rationale: "`$type` is one of the thirteen DTCG types.",
        messages: [declare(TokenTypeMessage.untyped), declare(TokenTypeMessage.unknownType)],
        triggering: [
            RuleExample("British spelling", files: TokenExample.files("{\"brand\": {\"$type\": ↓\"colour\", \"$value\": \"{brand}\"}}\n")),
            RuleExample("no type on the token, its groups or the group they extend", files: TokenExample.files("""
                {"base": {"gap": {"$type": "number", "$value": 4}},
                 "layout": {"$extends": "{base}", ↓"wide": {"$value": 8}}}

                """)),
        ],
        nonTriggering: [
            RuleExample("inherited group type", files: TokenExample.valid),
            RuleExample("a type inherited through $extends", files: TokenExample.files("""
                {"button": {"$type": "color",
                   "background": {"$value": {"colorSpace": "srgb", "components": [0, 0.4, 0.8], "hex": "#0066cc"}}},
                 "button-primary": {"$extends": "{button}",
                   "focus": {"$value": {"colorSpace": "srgb", "components": [1, 0.2, 0.6], "hex": "#ff3399"}}}}

                """)),
        ])
}

struct TokenPropertyRule: CollectedRule {
    static let description = RuleDescription(
        id: ResolveRule.tokenProperty, name: "Token property types", family: .branding,
        rationale: "`$description` is a string, `$deprecated` true, false or a string saying why, and `$extensions` an object keyed by vendor, on tokens and groups alike (DTCG 2025.10); anything else is a mistake tools would read differently.",
        messages: [declare(TokenPropertyMessage.wrongType)],
        triggering: [
            RuleExample("a deprecation given as a number", files: TokenExample.files("""
                {"size": {"$type": "number", "old": {"$value": 4, "$deprecated": ↓1}}}

                """)),
            RuleExample("a description that is a list", files: TokenExample.files("""
                {"size": {"$type": "number", "$description": ↓["spacing", "steps"], "sm": {"$value": 4}}}

                """)),
            RuleExample("extensions that are a string", files: TokenExample.files("""
                {"size": {"$type": "number", "sm": {"$value": 4, "$extensions": ↓"com.example"}}}

                """)),
        ],
        nonTriggering: [RuleExample("every property of its type", files: TokenExample.files("""
            {"size": {"$type": "number", "$description": "Spacing steps", "$deprecated": false,
               "sm": {"$value": 4, "$description": "Small", "$deprecated": "use size.md", "$extensions": {"com.example": {"figma": "S"}}},
               "md": {"$value": 8, "$deprecated": true}}}

            """))])
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
        messages: [declare(AliasMessage.notAToken), declare(AliasMessage.noMember), declare(AliasMessage.extendsNotAGroup)],
        triggering: [
            RuleExample("misspelt alias", files: TokenExample.files("""
                {"color": {"$type": "color",
                  "palette": {"blue": {"$value": {"colorSpace": "srgb", "components": [0, 0.4, 0.8]}}},
                  "primary": {"$value": ↓"{color.pallete.blue}"}}}

                """)),
            RuleExample("alias inside a composite value", files: TokenExample.files("""
                {"line": {"$type": "border", "$value": {"color": ↓"{color.nope}", "width": {"value": 1, "unit": "px"}, "style": "solid"}}}

                """)),
            RuleExample("a reference to a member the value lacks", files: TokenExample.files("""
                {"space": {"$type": "dimension", "base": {"$value": {"value": 16, "unit": "px"}}, "half": {"$ref": ↓"#/space/base/$value/nope"}}}

                """)),
            RuleExample("a group extending a token", files: TokenExample.files("""
                {"color": {"$type": "color", "ink": {"$value": {"colorSpace": "srgb", "components": [0, 0, 0]}}},
                 "text": {"$type": "color", "$extends": ↓"{color.ink}"}}

                """)),
        ],
        nonTriggering: [RuleExample("resolving alias", files: TokenExample.valid)])
}

struct AliasCycleRule: CollectedRule {
    static let description = RuleDescription(
        id: ResolveRule.aliasCycle, name: "Alias cycle", family: .branding,
        rationale: "Aliases that point at each other never reach a value; every token in the cycle is reported.",
        messages: [declare(AliasMessage.cycle), declare(AliasMessage.compositeCycle), declare(AliasMessage.extendsCycle), declare(AliasMessage.extendsContainer)],
        triggering: [RuleExample("two tokens aliasing each other", files: TokenExample.files("""
            {"color": {"$type": "color", "a": {"$value": ↓"{color.b}"}, "b": {"$value": ↓"{color.a}"}}}

            """)),
            RuleExample("a group extending a group inside it", files: TokenExample.files("""
                {"color": {"$type": "color", "ink": {"$value": {"colorSpace": "srgb", "components": [0, 0, 0]}},
                  "text": {"$extends": ↓"{color}"}}}

                """)),
            RuleExample("two groups extending each other", files: TokenExample.files("""
                {"a": {"$type": "color", "$extends": ↓"{b}"}, "b": {"$type": "color", "$extends": ↓"{a}"}}

                """)),
            RuleExample("a border whose colour is a border that refers back", files: TokenExample.files("""
                {"line": {"$type": "border", "a": {"$value": {"color": ↓"{line.a}", "width": {"value": 1, "unit": "px"}, "style": "solid"}}}}

                """)),
        ],
        nonTriggering: [RuleExample("an alias chain", files: TokenExample.files("""
            {"color": {"$type": "color", "a": {"$value": "{color.b}"}, "b": {"$value": "{color.c}"},
              "c": {"$value": {"colorSpace": "srgb", "components": [1, 1, 1]}}}}

            """))])
}

struct AliasTypeRule: CollectedRule {
    static let description = RuleDescription(
        id: ResolveRule.aliasType, name: "Alias type", family: .branding,
        rationale: "A token that aliases another must have the same type.",
        messages: [declare(AliasMessage.pointsAtOtherValue), declare(AliasMessage.resolvesToOtherType), declare(AliasMessage.partTakesOtherType), declare(AliasMessage.partPointsAtOtherValue)],
        triggering: [
            RuleExample("dimension aliasing a colour", files: TokenExample.files("""
                {"color": {"$type": "color", "blue": {"$value": {"colorSpace": "srgb", "components": [0, 0, 1]}}},
                 "space": {"$type": "dimension", "sm": {"$value": ↓"{color.blue}"}}}

                """)),
            RuleExample("a dimension taking a bare number through $ref", files: TokenExample.files("""
                {"space": {"$type": "dimension", "base": {"$value": {"value": 16, "unit": "px"}}, "half": {"$ref": ↓"#/space/base/$value/value"}}}

                """)),
            RuleExample("a border's colour aliasing a dimension", files: TokenExample.files("""
                {"space": {"$type": "dimension", "hairline": {"$value": {"value": 1, "unit": "px"}}},
                 "line": {"$type": "border", "focus": {"$value": {"color": ↓"{space.hairline}", "width": "{space.hairline}", "style": "solid"}}}}

                """)),
            RuleExample("a border's width taking a whole dimension value's unit through $ref", files: TokenExample.files("""
                {"space": {"$type": "dimension", "base": {"$value": {"value": 16, "unit": "px"}}},
                 "line": {"$type": "border", "focus": {"$value": {"color": {"colorSpace": "srgb", "components": [0, 0, 0]}, "width": ↓{"$ref": "#/space/base/$value/unit"}, "style": "solid"}}}}

                """)),
        ],
        nonTriggering: [
            RuleExample("same type", files: TokenExample.valid),
            RuleExample("references into values that bring what each place takes", files: TokenExample.files("""
                {"space": {"$type": "dimension", "base": {"$value": {"value": 16, "unit": "px"}},
                   "wide": {"$value": {"value": 32, "unit": {"$ref": "#/space/base/$value/unit"}}}},
                 "offset": {"$type": "dimension", "$ref": "#/elevation/card/$value/offsetY"},
                 "ratio": {"$type": "number", "$ref": "#/space/base/$value/value"},
                 "color": {"$type": "color", "ink": {"$value": {"colorSpace": "srgb", "components": [0, 0, 0], "hex": "#000000"}}},
                 "elevation": {"$type": "shadow", "card": {"$value": {"color": "{color.ink}", "offsetX": {"value": 0, "unit": "px"},
                   "offsetY": "{space.base}", "blur": {"value": 8, "unit": "px"}, "spread": {"value": 0, "unit": "px"}}}}}

                """)),
        ])
}

struct BrandingModeRule: Rule {
    static let description = RuleDescription(
        id: "branding.mode-override", name: "Mode overrides", family: .branding,
        rationale: "A mode file (e.g. dark) only overrides tokens of the base files; a new token there is usually a typo.",
        severity: .warning,
        messages: [declare(Message.notInBase)],
        triggering: [RuleExample("dark token missing from the base", files: TokenExample.files(
            "{\"color\": {\"$type\": \"color\", \"bg\": {\"$value\": {\"colorSpace\": \"srgb\", \"components\": [1, 1, 1]}}}}\n",
            dark: "{\"color\": {\"$type\": \"color\", ↓\"bgg\": {\"$value\": {\"colorSpace\": \"srgb\", \"components\": [0, 0, 0]}}}}\n"))],
        nonTriggering: [RuleExample("dark overrides a base token", files: TokenExample.files(
            "{\"color\": {\"$type\": \"color\", \"bg\": {\"$value\": {\"colorSpace\": \"srgb\", \"components\": [1, 1, 1]}}}}\n",
            dark: "{\"color\": {\"$type\": \"color\", \"bg\": {\"$value\": {\"colorSpace\": \"srgb\", \"components\": [0, 0, 0]}}}}\n"))])

    enum Message {
        static func notInBase(path: String, mode: String) -> DiagnosticMessage {
            DiagnosticMessage("not-in-base", "token '\(path)' of mode '\(mode)' does not exist in the base tokens")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        guard let base = context.tenant.tokens["default"] else { return [] }
        var diagnostics: [Diagnostic] = []
        for (mode, tokens) in context.tenant.tokens where mode != "default" {
            for (path, token) in tokens.tokens where base.tokens[path] == nil && token.location.file.hasPrefix(context.source.displayRoot + "/") {
                diagnostics.append(Diagnostic(.warning, Message.notInBase(path: path, mode: mode), at: token.location,
                                              rule: Self.description.id,
                                              hint: DidYouMean.hint(for: path, among: base.tokens.keys) ?? "define it in the base token files too"))
            }
        }
        return diagnostics
    }
}
