import Foundation
import LiveryCheck
import LiveryDiagnostics
import LiveryLoad
@testable import LiveryRender
import LiveryResolve
import XCTest

/// Layer 1 → 2: token files → the context the platform templates see, plus the formatting rules
/// that make it (names, colours, contrast, springs).
final class PlatformContextTests: XCTestCase {
    func testContextOfTheSnapshotTenantMatchesItsReadableSnapshot() throws {
        let tenant = try PlatformFixtures.sample(PlatformFixtures.snapshotTenant)
        let (context, diagnostics) = PlatformContext.make(tenant)
        XCTAssertEqual(diagnostics, [])
        try PlatformFixtures.assertSnapshot(TemplateContext.json(context), "\(PlatformFixtures.snapshotTenant)/context.json")
    }

    func testContextKeepsColoursOfBothModesAndListsOnlyChangedOnesForNight() throws {
        let (context, _) = PlatformContext.make(try PlatformFixtures.sample("physio-clinic"))
        XCTAssertEqual(context.modes, ["default", "dark"])
        XCTAssertEqual(context.darkMode, "dark")
        let text = try XCTUnwrap(context.colors.first { $0.names.path == "color.text.primary" })
        XCTAssertEqual(text.names.swiftName, "textPrimary")
        XCTAssertEqual(text.names.cssName, "--color-text-primary")
        XCTAssertEqual(text.names.androidName, "color_text_primary")
        XCTAssertEqual(text.light.hex, "#111827")
        XCTAssertEqual(text.dark.hex, "#F9FAFB")
        XCTAssertTrue(context.nightColors.contains { $0.names.path == "color.text.primary" })
        XCTAssertFalse(context.nightColors.contains { $0.names.path == "color.palette.primary" }, "unchanged colours stay in values/ only")
        // Scales read small to large; type reads large to small.
        XCTAssertEqual(context.spacing.map(\.names.tsName).prefix(4), ["none", "xxs", "xs", "sm"])
        XCTAssertEqual(context.spacing.first { $0.names.path == "spacing.2xl" }?.names.swiftName, "_2xl")
        XCTAssertEqual(context.typography.first?.names.path, "typography.screen-hero")
        XCTAssertEqual(context.springs.first { $0.names.path == "motion.spring.smooth-slide" }?.names.swiftName, "smoothSlide")
    }

    func testATenantWithoutDarkModeUsesItsColoursForBothAppearances() throws {
        let (context, _) = PlatformContext.make(try PlatformFixtures.sample("sonic-walkscape"))
        XCTAssertEqual(context.darkMode, "default")
        XCTAssertEqual(context.nightColors.count, 0)
        XCTAssertTrue(context.colors.allSatisfy { $0.light == $0.dark })
    }

    func testNamesAreIdentifiersInEveryLanguage() {
        XCTAssertEqual(PlatformNames.words("button.primary.background-pressed"), ["button", "primary", "background", "pressed"])
        XCTAssertEqual(PlatformNames.words("brandPrimary"), ["brand", "primary"])
        XCTAssertEqual(PlatformNames.words("año_nuevo 2"), ["a", "o", "nuevo", "2"])
        XCTAssertEqual(PlatformNames.swift(["default"]), "`default`")
        XCTAssertEqual(PlatformNames.kotlin(["object"]), "`object`")
        XCTAssertEqual(PlatformNames.kotlin(["default"]), "default")
        XCTAssertEqual(PlatformNames.swift(["2xl"]), "_2xl")
        XCTAssertEqual(PlatformNames.typeScript(["default"]), "default")
        XCTAssertEqual(PlatformNames.css(category: "spacing", ["2xl"]), "--spacing-2xl")
        XCTAssertEqual(PlatformNames.android(category: "spacing", ["2xl"]), "spacing_2xl")
        XCTAssertEqual(PlatformNames.pascalCase(["physio", "clinic"]), "PhysioClinic")
    }

    func testTokensThatWouldShareANameAreReportedAtEachTokenAndLeftOut() throws {
        let tenant = try tenant(tokens: """
            {"color": {"$type": "color",
              "brand-primary": {"$value": {"colorSpace": "srgb", "components": [0, 0, 0], "hex": "#000000"}},
              "brandPrimary": {"$value": {"colorSpace": "srgb", "components": [1, 1, 1], "hex": "#ffffff"}},
              "other": {"$value": {"colorSpace": "srgb", "components": [1, 0, 0], "hex": "#ff0000"}}}}
            """)
        let (context, diagnostics) = PlatformContext.make(tenant)
        XCTAssertEqual(diagnostics.count, 2, "\(diagnostics.map(\.line))")
        XCTAssertEqual(diagnostics.map(\.ruleID), [PlatformRule.nameCollision, PlatformRule.nameCollision])
        XCTAssertEqual(diagnostics.map(\.location.line), [2, 3], "each clashing token is reported where it is written")
        XCTAssertTrue(diagnostics[0].message.hasPrefix("'color.brand-primary' and 'color.brandPrimary' would both be named"), diagnostics[0].message)
        XCTAssertEqual(context.colors.map(\.names.path), ["color.other"])
    }

    /// Validation reports the clash (`branding.platform-name`), with the tenant's severity; the generator
    /// then leaves the two tokens out without failing, so a tenant that lowers the rule still builds.
    func testAClashIsValidationsToReportAndTheFilesLeaveItOut() throws {
        let tokens = """
            {"color": {"$type": "color",
              "brand-primary": {"$value": {"colorSpace": "srgb", "components": [0, 0, 0], "hex": "#000000"}},
              "brandPrimary": {"$value": {"colorSpace": "srgb", "components": [1, 1, 1], "hex": "#ffffff"}},
              "other": {"$value": {"colorSpace": "srgb", "components": [1, 0, 0], "hex": "#ff0000"}}}}
            """
        func validated(_ branding: String) throws -> ValidationResult {
            try ExampleWorkspace(RuleExample("platform", files: [
                "example/tenant.yaml": RuleExample.tenant(appending: branding),
                "example/branding/tokens.json": tokens,
            ])).validate()
        }
        let strict = try validated("branding:\n  tokens: [branding/tokens.json]\n")
        let clashes = strict.diagnostics.filter { $0.ruleID == PlatformRule.nameCollision }
        XCTAssertEqual(clashes.map(\.severity), [.error, .error])
        XCTAssertEqual(clashes.map(\.location.description), ["Tenants/example/branding/tokens.json:2:3", "Tenants/example/branding/tokens.json:3:3"])

        let lowered = try validated("branding:\n  tokens: [branding/tokens.json]\nrules:\n  branding.platform-name: warning\n")
        XCTAssertEqual(lowered.diagnostics.filter { $0.ruleID == PlatformRule.nameCollision }.map(\.severity), [.warning, .warning])
        let tenant = try XCTUnwrap(lowered.tenants.first { $0.id == "example" })
        let (files, diagnostics) = PlatformFiles.generate(tenant, templates: try PlatformFixtures.platformTemplates())
        XCTAssertEqual(diagnostics.map(\.line), [])
        let css = try XCTUnwrap(files.first { $0.path.hasSuffix(".css") }).contents
        XCTAssertTrue(String(decoding: css, as: UTF8.self).contains("other"))
        XCTAssertFalse(String(decoding: css, as: UTF8.self).lowercased().contains("brand-primary"))
    }

    func testColourValuesBecomeSRGBThroughOneFunction() throws {
        func node(_ json: String) throws -> Node { try XCTUnwrap(ManifestParser.parse(json, format: .json, file: "t.json").0) }
        let srgb = try XCTUnwrap(SRGBColor(tokenValue: try node(##"{"colorSpace": "srgb", "components": [0, 0.4, 0.8], "alpha": 0.5, "hex": "#ffffff"}"##)))
        let value = PlatformValues.color(srgb)
        XCTAssertEqual(value.hex, "#0066CC", "srgb uses its components, not the hex")
        XCTAssertEqual(value.css, "#0066CC80")
        XCTAssertEqual(value.android, "#800066CC")
        XCTAssertEqual(value.kotlin, "0x800066CC")
        XCTAssertEqual(value.swift, "red: 0, green: 0.4, blue: 0.8, opacity: 0.5")
        // Other spaces are converted (and gamut-mapped) by DTCGColor, not read from their hex.
        let hsl = try XCTUnwrap(SRGBColor(tokenValue: try node(##"{"colorSpace": "hsl", "components": [120, 100, 25], "hex": "#ffffff"}"##)))
        XCTAssertEqual(hsl.hex(alpha: .omitted), "#008000")
        let p3 = try XCTUnwrap(SRGBColor(tokenValue: try node(##"{"colorSpace": "display-p3", "components": [1, 0, 0]}"##)))
        XCTAssertEqual(p3.bytes.red, 255, "P3 red is outside sRGB and is mapped into it")
        // A space Livery does not know falls back to the hex member, and without one there is no colour.
        XCTAssertEqual(SRGBColor(tokenValue: try node(##"{"colorSpace": "mystery", "components": [0, 0, 0], "hex": "#3a6ea5"}"##))?.hex(alpha: .omitted), "#3A6EA5")
        XCTAssertNil(SRGBColor(tokenValue: try node(##"{"colorSpace": "mystery", "components": [0, 0, 0]}"##)))
    }

    func testContrastRatiosFollowWCAG2() throws {
        func ratio(_ foreground: SRGBColor, on background: SRGBColor) -> Double { Contrast.ratio(foreground: foreground, background: background).ratio }
        let black = SRGBColor.black, white = SRGBColor.white
        XCTAssertEqual(ratio(black, on: white), 21, accuracy: 0.001)
        XCTAssertEqual(ratio(white, on: white), 1, accuracy: 0.001)
        // #767676 on white is the well-known smallest grey that passes AA for body text.
        XCTAssertEqual(ratio(try XCTUnwrap(SRGBColor(hex: "#767676")), on: white), 4.54, accuracy: 0.01)
        // Half-transparent black over white is seen as mid grey.
        XCTAssertEqual(ratio(SRGBColor(red: 0, green: 0, blue: 0, alpha: 0.5), on: white),
                       ratio(try XCTUnwrap(SRGBColor(hex: "#808080")), on: white), accuracy: 0.05)
    }

    func testSpringsAreDescribedByDampingRatioOvershootAndSettleTime() {
        let spring = SpringConfig(damping: 15, stiffness: 150, mass: 1)
        XCTAssertEqual(spring.dampingRatio, 0.612, accuracy: 0.001)
        XCTAssertEqual(spring.overshoot, 0.088, accuracy: 0.002)
        XCTAssertEqual(spring.settleTime, 0.522, accuracy: 0.002)
        XCTAssertEqual(spring.summary, "Lively: overshoots 9 % and settles in about 0.52 s")
        // The step response really is within 2 % from the settle time on, and not just before it.
        XCTAssertLessThan(abs(spring.position(at: spring.settleTime * 1.05) - 1), 0.02)
        let critical = SpringConfig(damping: 20, stiffness: 100, mass: 1)
        XCTAssertEqual(critical.dampingRatio, 1)
        XCTAssertEqual(critical.position(at: critical.settleTime) , 0.98, accuracy: 0.0001)
        let slow = SpringConfig(damping: 60, stiffness: 100, mass: 1)
        XCTAssertEqual(slow.position(at: slow.settleTime), 0.98, accuracy: 0.01)
        XCTAssertTrue(slow.summary.hasPrefix("Overdamped: no overshoot"), slow.summary)
    }

    /// A one-tenant workspace with the given base token file.
    private func tenant(tokens: String) throws -> ResolvedTenant {
        let workspace = try ExampleWorkspace(RuleExample("platform", files: [
            "example/tenant.yaml": RuleExample.tenant(appending: "branding:\n  tokens: [branding/tokens.json]\n"),
            "example/branding/tokens.json": tokens,
        ]))
        let result = workspace.validate()
        return try XCTUnwrap(result.tenants.first { $0.id == "example" })
    }
}
