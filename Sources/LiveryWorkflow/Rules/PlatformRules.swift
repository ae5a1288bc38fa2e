import LiveryCheck
import LiveryDiagnostics
import LiveryRender

// The branding rules that ask the render stage what it would generate (platform names, Android's fonts): registered
// here, above the stages, so that the check stage does not depend on the render stage.

/// `branding.platform-name`: two tokens of one category whose names in the generated platform files
/// would be the same. The generator finds it (and leaves both tokens out of those files); this rule
/// reports it when the tenant is validated, so creators see it before a build.
struct PlatformNameRule: Rule {
    static let description = RuleDescription(
        id: PlatformRule.nameCollision, name: "Distinct names in platform files", family: .branding,
        rationale: "Generated Swift, Kotlin, TypeScript, CSS and Android names keep only the ASCII letters and digits of a token's path below its category's group, so 'brand-primary' and 'brandPrimary' would both be brandPrimary; the generator leaves such tokens out rather than pick one.",
        messages: [declare(PlatformNameMessage.collision)],
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

/// `branding.font-fallback`: every typography family stack names a family Android draws, or says which one it falls back to.
struct FontFallbackRule: Rule {
    static let description = RuleDescription(
        id: PlatformRule.fontFallback, name: "Fonts Android can draw", family: .branding,
        rationale: "Android draws the first family of a stack that it has or the tenant bundles (assets.fonts, a file named after the family); an Apple system font such as SF Pro, or a family such as Inter without its files, falls back to Roboto in the generated Compose theme, so the app would not look as designed. A warning: a stack may fall back on purpose, which naming an Android family after it (Roboto) makes explicit.",
        severity: .warning,
        messages: [declare(AndroidFontMessage.fallback)],
        triggering: [
            RuleExample("Apple's system font falling back to the generic family", files: TokenExample.files("""
                {"font": {"family": {"$type": "fontFamily", "body": {"$value": [↓"SF Pro Display", "system-ui", "sans-serif"]}}},
                 "typography": {"$type": "typography", "body": {"$value": {"fontFamily": "{font.family.body}", "fontSize": {"value": 16, "unit": "px"},
                   "fontWeight": 400, "letterSpacing": {"value": 0, "unit": "px"}, "lineHeight": 1.5}}}}

                """)),
            RuleExample("a named family with no font file", files: TokenExample.files("""
                {"typography": {"$type": "typography", "body": {"$value": {"fontFamily": ↓"Inter", "fontSize": {"value": 16, "unit": "px"},
                   "fontWeight": 400, "letterSpacing": {"value": 0, "unit": "px"}, "lineHeight": 1.5}}}}

                """)),
        ],
        nonTriggering: [
            RuleExample("an Android family after Apple's, and the system font by its generic name", files: TokenExample.files("""
                {"typography": {"$type": "typography",
                  "body": {"$value": {"fontFamily": ["SF Pro", "Roboto", "sans-serif"], "fontSize": {"value": 16, "unit": "px"},
                   "fontWeight": 400, "letterSpacing": {"value": 0, "unit": "px"}, "lineHeight": 1.5}},
                  "code": {"$value": {"fontFamily": ["ui-monospace", "monospace"], "fontSize": {"value": 14, "unit": "px"},
                   "fontWeight": 400, "letterSpacing": {"value": 0, "unit": "px"}, "lineHeight": 1.5}}}}

                """)),
            RuleExample("a family the tenant bundles", files: FontExample.bundled, binaryFiles: ["example/assets/fonts/Inter-Regular.ttf": FontExample.ttfHeader]),
        ])

    func check(_ context: RuleContext) -> [Diagnostic] {
        // Inherited tokens are reported with the tenant whose files hold them.
        AndroidFonts.fallbacks(context.tenant).filter { context.owns($0.location) }
    }
}

/// A tenant that bundles Inter (`assets.fonts`) and uses it.
enum FontExample {
    static var bundled: [String: String] {
        var files = TokenExample.files("""
            {"typography": {"$type": "typography", "body": {"$value": {"fontFamily": ["Inter", "sans-serif"], "fontSize": {"value": 16, "unit": "px"},
               "fontWeight": 400, "letterSpacing": {"value": 0, "unit": "px"}, "lineHeight": 1.5}}}}

            """)
        files["example/tenant.yaml"] = (files["example/tenant.yaml"] ?? "") + "assets:\n  fonts: [assets/fonts/Inter-Regular.ttf]\n"
        return files
    }

    /// The first bytes of a TrueType file (sfnt version 1.0): what the asset rules sniff.
    static let ttfHeader: [UInt8] = [0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]
}
