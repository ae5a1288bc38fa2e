import LiveryDiagnostics
import LiveryResolve

/// Example workspaces whose branding is a DTCG resolver document (`branding.resolver`).
enum ResolverExample {
    static let path = "example/branding/example.resolver.json"

    /// A base set and a theme modifier whose dark context adds its own file.
    static let document = """
        {
          "version": "2025.10",
          "sets": {"base": {"sources": [{"$ref": "tokens.json"}]}},
          "modifiers": {"theme": {"contexts": {"light": [], "dark": [{"$ref": "dark.tokens.json"}]}, "default": "light"}},
          "resolutionOrder": [{"$ref": "#/sets/base"}, {"$ref": "#/modifiers/theme"}]
        }

        """

    /// The workspace with `document` as the resolver document and `branding` as tenant.yaml's branding lines.
    static func files(_ document: String = document, branding: String = "branding:\n  resolver: branding/example.resolver.json\n") -> [String: String] {
        [
            "example/tenant.yaml": RuleExample.tenant(appending: branding),
            path: document,
            "example/branding/tokens.json": """
                {"color": {"$type": "color",
                  "palette": {"blue": {"$value": {"colorSpace": "srgb", "components": [0, 0.4, 0.8], "hex": "#0066cc"}}},
                  "primary": {"$value": "{color.palette.blue}"}}}

                """,
            "example/branding/dark.tokens.json": """
                {"color": {"$type": "color",
                  "palette": {"blue": {"$value": {"colorSpace": "srgb", "components": [0.4, 0.7, 1], "hex": "#66b3ff"}}}}}

                """,
        ]
    }

    /// `document` with one piece of it replaced (the example's change, with its `↓`).
    static func files(replacing old: String, with new: String) -> [String: String] {
        precondition(document.contains(old), "the example document has no '\(old)'")
        return files(document.replacingOccurrences(of: old, with: new))
    }
}

/// `branding.resolver`: the resolver document a tenant names instead of token files is well formed,
/// and every set, modifier, context and file it names exists. Found while resolving (`ResolverDocument`,
/// `TenantResolver`); the messages are `ResolverMessage`'s.
struct ResolverRule: CollectedRule {
    static let description = RuleDescription(
        id: ResolveRule.resolver, name: "Resolver document", family: .branding,
        rationale: "A DTCG 2025.10 resolver document names the sets, modifiers and token files a tenant's modes are layered from; a mistake in it leaves every mode without the tokens it should have, so it is reported where it is, not as the missing tokens it causes.",
        messages: [
            declare(ResolverMessage.notAnObject), declare(ResolverMessage.unknownProperty), declare(ResolverMessage.wrongVersion),
            declare(ResolverMessage.noVersion), declare(ResolverMessage.noResolutionOrder), declare(ResolverMessage.referenceNotString),
            declare(ResolverMessage.noSet), declare(ResolverMessage.noModifier), declare(ResolverMessage.orderedTwice),
            declare(ResolverMessage.orderReference), declare(ResolverMessage.inlineItem), declare(ResolverMessage.itemType),
            declare(ResolverMessage.noContexts), declare(ResolverMessage.oneContext), declare(ResolverMessage.defaultNotContext),
            declare(ResolverMessage.sourcesNotArray), declare(ResolverMessage.sourceShape), declare(ResolverMessage.sourceNotASet),
            declare(ResolverMessage.setCycle), declare(ResolverMessage.pointerIntoFile), declare(ResolverMessage.outsideTenant),
            declare(ResolverMessage.notATokenFile), declare(ResolverMessage.resolverAndTokens), declare(ResolverMessage.resolverNotFound),
            declare(ResolverMessage.noTokens),
        ],
        triggering: [
            // The document.
            RuleExample("a resolver document that is a list", files: ResolverExample.files("↓[]\n")),
            RuleExample("a misspelt property", files: ResolverExample.files(replacing: "\"version\": \"2025.10\",", with: "\"version\": \"2025.10\", ↓\"descripton\": \"Example's tokens\",")),
            RuleExample("an older version", files: ResolverExample.files(replacing: "\"version\": \"2025.10\"", with: "\"version\": ↓\"2025.05\"")),
            RuleExample("the version as a number", files: ResolverExample.files(replacing: "\"version\": \"2025.10\"", with: "\"version\": ↓2025.10")),
            RuleExample("no version", files: ResolverExample.files("""
                ↓{"sets": {"base": {"sources": [{"$ref": "tokens.json"}]}}, "resolutionOrder": [{"$ref": "#/sets/base"}]}

                """)),
            RuleExample("no resolution order", files: ResolverExample.files("""
                ↓{"version": "2025.10", "sets": {"base": {"sources": [{"$ref": "tokens.json"}]}}}

                """)),
            RuleExample("an empty resolution order", files: ResolverExample.files(
                replacing: "\"resolutionOrder\": [{\"$ref\": \"#/sets/base\"}, {\"$ref\": \"#/modifiers/theme\"}]", with: "\"resolutionOrder\": ↓[]")),
            RuleExample("a $ref that is not a string", files: ResolverExample.files(replacing: "{\"$ref\": \"#/modifiers/theme\"}", with: "{\"$ref\": ↓2}")),
            // The resolution order.
            RuleExample("a misspelt set", files: ResolverExample.files(replacing: "\"#/sets/base\"", with: "↓\"#/sets/bsae\"")),
            RuleExample("a misspelt modifier", files: ResolverExample.files(replacing: "\"#/modifiers/theme\"", with: "↓\"#/modifiers/theem\"")),
            RuleExample("a set layered twice", files: ResolverExample.files(replacing: "{\"$ref\": \"#/modifiers/theme\"}]", with: "{\"$ref\": \"#/modifiers/theme\"}, {\"$ref\": ↓\"#/sets/base\"}]")),
            RuleExample("a token file in the resolution order", files: ResolverExample.files(replacing: "[{\"$ref\": \"#/sets/base\"}", with: "[{\"$ref\": ↓\"tokens.json\"}")),
            RuleExample("an inline set without a name and type", files: ResolverExample.files(
                replacing: "[{\"$ref\": \"#/sets/base\"}", with: "[↓{\"sources\": [{\"$ref\": \"tokens.json\"}]}")),
            RuleExample("an inline item of an unknown type", files: ResolverExample.files(
                replacing: "[{\"$ref\": \"#/sets/base\"}", with: "[{\"name\": \"base\", \"type\": ↓\"theme\", \"sources\": [{\"$ref\": \"tokens.json\"}]}")),
            // Modifiers.
            RuleExample("a modifier without contexts", files: ResolverExample.files(
                replacing: "\"theme\": {\"contexts\": {\"light\": [], \"dark\": [{\"$ref\": \"dark.tokens.json\"}]}, \"default\": \"light\"}",
                with: "\"theme\": ↓{\"light\": [], \"dark\": [{\"$ref\": \"dark.tokens.json\"}], \"default\": \"light\"}")),
            RuleExample("a modifier with one context", files: ResolverExample.files(
                replacing: "\"contexts\": {\"light\": [], \"dark\": [{\"$ref\": \"dark.tokens.json\"}]}, \"default\": \"light\"",
                with: "\"contexts\": ↓{\"dark\": [{\"$ref\": \"dark.tokens.json\"}]}")),
            RuleExample("a default that is not a context", files: ResolverExample.files(replacing: "\"default\": \"light\"", with: "\"default\": ↓\"lite\"")),
            // Sources.
            RuleExample("sources that are one reference, not a list", files: ResolverExample.files(
                replacing: "\"sources\": [{\"$ref\": \"tokens.json\"}]", with: "\"sources\": ↓{\"$ref\": \"tokens.json\"}")),
            RuleExample("a source written as a bare path", files: ResolverExample.files(replacing: "[{\"$ref\": \"tokens.json\"}]", with: "[↓\"tokens.json\"]")),
            RuleExample("a set whose sources name a modifier", files: ResolverExample.files(
                replacing: "[{\"$ref\": \"tokens.json\"}]", with: "[{\"$ref\": \"tokens.json\"}, {\"$ref\": ↓\"#/modifiers/theme\"}]")),
            RuleExample("two sets naming each other", files: ResolverExample.files("""
                {"version": "2025.10",
                 "sets": {"a": {"sources": [{"$ref": "#/sets/b"}]}, "b": {"sources": [{"$ref": "tokens.json"}, {"$ref": ↓"#/sets/a"}]}},
                 "resolutionOrder": [{"$ref": "#/sets/a"}]}

                """)),
            RuleExample("a pointer into a token file", files: ResolverExample.files(replacing: "{\"$ref\": \"dark.tokens.json\"}", with: "{\"$ref\": ↓\"dark.tokens.json#/color\"}")),
            RuleExample("a token file outside the tenant", files: ResolverExample.files(replacing: "{\"$ref\": \"dark.tokens.json\"}", with: "{\"$ref\": ↓\"../../shared/dark.tokens.json\"}")),
            RuleExample("a token file that is not there", files: ResolverExample.files(replacing: "{\"$ref\": \"dark.tokens.json\"}", with: "{\"$ref\": ↓\"drak.tokens.json\"}")),
            // How tenant.yaml names the document.
            RuleExample("both a resolver and token files", files: ResolverExample.files(
                branding: "branding:\n  tokens: [branding/tokens.json]\n  resolver: ↓branding/example.resolver.json\n")),
            RuleExample("a resolver document that is not there", files: ResolverExample.files(branding: "branding:\n  resolver: ↓branding/exmaple.resolver.json\n")),
            RuleExample("branding with neither token files nor a resolver", files: ResolverExample.files(branding: "branding:\n  ↓modes:\n    dark: [branding/dark.tokens.json]\n")),
        ],
        nonTriggering: [
            RuleExample("a base set and a theme modifier", files: ResolverExample.files()),
            RuleExample("inline sets and modifiers in the resolution order", files: ResolverExample.files("""
                {"name": "Example", "version": "2025.10",
                 "resolutionOrder": [
                   {"name": "base", "type": "set", "sources": [{"$ref": "tokens.json"}]},
                   {"name": "theme", "type": "modifier", "contexts": {"light": [], "dark": [{"$ref": "dark.tokens.json"}]}, "default": "light"}
                 ]}

                """)),
        ])
}
