import Foundation
import LiveryCheck
import LiveryCommands
import LiveryDiagnostics
import LiveryLoad
@testable import LiveryRender
import LiveryResolve
import XCTest

/// The Compose theme as an Android app consumes it (issue 36): Material 3's `ColorScheme` and `Typography` from the
/// tenant's tokens behind one `<Tenant>Theme { }`, API-level checks for the tenant's own minSdk, and a warning for a
/// font family Android cannot draw.
final class ComposeThemeTests: XCTestCase {
    // MARK: Material 3 colours

    /// physio-clinic, role by role: each takes the first token of the table that the tenant has, or the role's
    /// documented fallback; the dark scheme takes the same tokens' dark values.
    func testMaterialRolesTakeTheirTokenOrTheDocumentedFallback() throws {
        let (context, _) = PlatformContext.make(try PlatformFixtures.sample("physio-clinic"))
        let sources = Dictionary(uniqueKeysWithValues: context.materialLight.map { ($0.role, $0.source) })
        XCTAssertEqual(sources["primary"], "color.brand.primary")
        XCTAssertEqual(sources["onPrimary"], "color.text.on-primary")
        XCTAssertEqual(sources["primaryContainer"], "color.brand.primary-subtle")
        XCTAssertEqual(sources["onPrimaryContainer"], "no token: legible on primaryContainer, color.text.primary")
        XCTAssertEqual(sources["secondary"], "no token: as primary", "physio-clinic has no secondary brand colour")
        XCTAssertEqual(sources["background"], "color.background.default")
        XCTAssertEqual(sources["surface"], "color.surface.default")
        XCTAssertEqual(sources["surfaceVariant"], "color.surface.subtle")
        XCTAssertEqual(sources["onSurfaceVariant"], "color.text.secondary")
        XCTAssertEqual(sources["inverseOnSurface"], "color.text.inverse")
        XCTAssertEqual(sources["error"], "color.semantic.error")
        XCTAssertEqual(sources["outline"], "color.border.strong")
        XCTAssertEqual(sources["outlineVariant"], "color.border.subtle")
        XCTAssertEqual(sources["surfaceContainerHigh"], "color.surface.elevated")
        XCTAssertNil(sources["scrim"], "scrim keeps Material's baseline")
        // physio-clinic's dark file sets background.subtle and border.default but not surface.subtle or border.subtle:
        // the dark scheme takes the tokens the dark mode sets rather than light values left in it.
        let darkSources = Dictionary(uniqueKeysWithValues: context.materialDark.map { ($0.role, $0.source) })
        XCTAssertEqual(darkSources["surfaceVariant"], "color.background.subtle")
        XCTAssertEqual(darkSources["outlineVariant"], "color.border.default")
        XCTAssertEqual(darkSources["primary"], "color.brand.primary", "no token of the role changes: the first")
        // Every role of Material 3's ColorScheme but scrim, in the table's order, in both appearances.
        XCTAssertEqual(context.materialLight.map(\.role), PlatformContext.materialColorRoles.map(\.role).filter { $0 != "scrim" })
        XCTAssertEqual(context.materialDark.map(\.role), context.materialLight.map(\.role))

        func color(_ path: String) throws -> PlatformContext.ColorToken { try XCTUnwrap(context.colors.first { $0.names.path == path }, path) }
        func role(_ scheme: [PlatformContext.MaterialColor], _ name: String) throws -> PlatformContext.ColorValue {
            try XCTUnwrap(scheme.first { $0.role == name }, name).color
        }
        XCTAssertEqual(try role(context.materialLight, "primary"), try color("color.brand.primary").light)
        XCTAssertEqual(try role(context.materialDark, "primary"), try color("color.brand.primary").dark)
        XCTAssertEqual(try role(context.materialLight, "onSurface"), try color("color.text.primary").light)
        XCTAssertEqual(try role(context.materialDark, "onSurface"), try color("color.text.primary").dark)
        XCTAssertNotEqual(try role(context.materialLight, "surface"), try role(context.materialDark, "surface"))
        XCTAssertEqual(try role(context.materialLight, "secondary"), try role(context.materialLight, "primary"))
    }

    /// A tenant with only a brand colour and a background: `on` roles are black or white, whichever is more legible;
    /// the other roles follow the table's fallbacks; error has no token and keeps Material's baseline.
    func testRolesWithoutTokensAreFilledAsDocumented() throws {
        let tenant = try exampleTenant(tokens: """
            {"color": {"$type": "color",
              "brand": {"primary": {"$value": {"colorSpace": "srgb", "components": [0, 0.2, 0.6], "hex": "#003399"}}},
              "background": {"default": {"$value": {"colorSpace": "srgb", "components": [1, 1, 0.8], "hex": "#ffffcc"}}}}}
            """)
        let (context, _) = PlatformContext.make(tenant)
        let scheme = Dictionary(uniqueKeysWithValues: context.materialLight.map { ($0.role, $0) })
        XCTAssertEqual(scheme["primary"]?.color.hex, "#003399")
        XCTAssertEqual(scheme["onPrimary"]?.color.hex, "#FFFFFF")
        XCTAssertEqual(scheme["onPrimary"]?.source, "no token: legible on primary, white")
        XCTAssertEqual(scheme["surface"]?.color.hex, "#FFFFCC", "surface falls back to the background")
        XCTAssertEqual(scheme["onSurface"]?.color.hex, "#000000")
        XCTAssertEqual(scheme["tertiary"]?.source, "no token: as secondary")
        XCTAssertEqual(scheme["tertiary"]?.color.hex, "#003399")
        XCTAssertEqual(scheme["surfaceTint"]?.color.hex, "#003399")
        XCTAssertNil(scheme["error"])
        XCTAssertNil(scheme["onError"], "a role whose fallback names a baseline role is left to Material too")
        XCTAssertEqual(context.materialDark.map(\.color), context.materialLight.map(\.color), "no dark mode: one palette for both")
    }

    // MARK: Material 3 typography

    /// Each Material style takes the tier nearest in size (then in weight, then the larger): physio-clinic's nine tiers.
    func testMaterialTypographyTakesTheNearestTier() throws {
        let (context, _) = PlatformContext.make(try PlatformFixtures.sample("physio-clinic"))
        let chosen = context.materialTypography.map { "\($0.role)=\($0.names.path.replacingOccurrences(of: "typography.", with: ""))" }
        XCTAssertEqual(chosen, [
            "displayLarge=screen-hero", "displayMedium=screen-hero", "displaySmall=screen-hero",
            "headlineLarge=screen-hero", "headlineMedium=screen-title", "headlineSmall=feature-title",
            "titleLarge=feature-title", "titleMedium=input-text", "titleSmall=body",
            "bodyLarge=input-text", "bodyMedium=body", "bodySmall=caption",
            "labelLarge=body", "labelMedium=caption", "labelSmall=caption",
        ])
        // No tiers: Material's own styles.
        XCTAssertEqual(PlatformContext.materialTypography([]).count, 0)
    }

    /// Every sample's Compose theme, parsed by tree-sitter-kotlin: `lightColorScheme`/`darkColorScheme` name only
    /// Material 3's roles (listed here from androidx.compose.material3, not from Livery), once each, with the
    /// colours of the resolved token documents where a token feeds them; `Typography(…)` names only Material's text
    /// styles and refers to tiers the file declares; `<Tenant>Theme` calls `MaterialTheme` with both.
    func testEverySampleWrapsMaterialThemeWithItsSchemesAndTypography() throws {
        let root = try generateSamples()
        defer { try? FileManager.default.removeItem(at: root) }
        let script = #"""
import json, os, sys, tree_sitter_kotlin
from tree_sitter import Language, Parser
out = sys.argv[1]
parser = Parser(Language(tree_sitter_kotlin.language()))
ROLES = {"primary", "onPrimary", "primaryContainer", "onPrimaryContainer", "inversePrimary", "secondary", "onSecondary",
         "secondaryContainer", "onSecondaryContainer", "tertiary", "onTertiary", "tertiaryContainer", "onTertiaryContainer",
         "background", "onBackground", "surface", "onSurface", "surfaceVariant", "onSurfaceVariant", "surfaceTint",
         "inverseSurface", "inverseOnSurface", "error", "onError", "errorContainer", "onErrorContainer", "outline",
         "outlineVariant", "scrim", "surfaceBright", "surfaceContainer", "surfaceContainerHigh", "surfaceContainerHighest",
         "surfaceContainerLow", "surfaceContainerLowest", "surfaceDim"}
STYLES = {"displayLarge", "displayMedium", "displaySmall", "headlineLarge", "headlineMedium", "headlineSmall", "titleLarge",
          "titleMedium", "titleSmall", "bodyLarge", "bodyMedium", "bodySmall", "labelLarge", "labelMedium", "labelSmall"}
problems = []
def check(ok, message):
    if not ok: problems.append(message)
def calls(node, name, found):
    if node.type == "call_expression" and node.children[0].text.decode() == name: found.append(node)
    for child in node.children: calls(child, name, found)
    return found
def arguments(call):
    args = {}
    # Grammar versions differ: value_arguments under the call, or under its call_suffix.
    holders = [call] + [c for c in call.children if c.type == "call_suffix"]
    value_arguments = next(c for h in holders for c in h.children if c.type == "value_arguments")
    for argument in value_arguments.children:
        if argument.type != "value_argument": continue
        named = [c for c in argument.children if c.type in ("simple_identifier", "identifier")]
        name = named[0].text.decode() if named and any(c.type == "=" for c in argument.children) else None
        check(name is not None, f"a positional argument: {argument.text.decode()}")
        check(name not in args, f"{name} given twice")
        args[name] = argument.children[-1].text.decode()
    return args
def hexes(tenant, mode):
    path = f"{out}/{tenant}/tokens/{mode}.tokens.json"
    document = json.load(open(path))
    def walk(node, parts, found):
        if isinstance(node, dict):
            if "$value" in node and node.get("$type") == "color":
                value = node["$value"]
                found[".".join(parts)] = value
                return found
            for key, child in node.items():
                if not key.startswith("$"): walk(child, parts + [key], found)
        return found
    return walk(document, [], {})
def srgb_hex(value):
    if value.get("colorSpace") == "srgb" and "alpha" not in value:
        return "0xFF" + "".join(f"{round(c * 255):02X}" for c in value["components"])
    return None
checked = 0
for tenant in sorted(os.listdir(out)):
    theme = f"{out}/{tenant}/compose/Theme.kt"
    if not os.path.exists(theme): continue
    source = open(theme, "rb").read()
    tree = parser.parse(source)
    lines = source.decode().split("\n")
    type_name = next(l.split("(")[0].split()[-1] for l in lines if l.startswith("fun ") and "darkTheme: Boolean" in l)
    modes = sorted(f[:-len(".tokens.json")] for f in os.listdir(f"{out}/{tenant}/tokens"))
    for builder, mode in (("lightColorScheme", "default"), ("darkColorScheme", "dark" if "dark" in modes else "default")):
        found = calls(tree.root_node, builder, [])
        check(len(found) == 1, f"{tenant}: {len(found)} calls of {builder}")
        if not found: continue
        args = arguments(found[0])
        check(set(args) <= ROLES, f"{tenant}: {builder} names {set(args) - ROLES}, not Material 3 roles")
        check({"primary", "onPrimary", "background", "onBackground", "surface", "onSurface", "error"} <= set(args), f"{tenant}: {builder} misses core roles")
        colours = hexes(tenant, mode)
        # Each role fed by a token (its comment names it) has that token's colour in this mode.
        for line in lines[found[0].start_point[0]:found[0].end_point[0]]:
            line = line.strip()
            if "= Color(" not in line or "// color." not in line: continue
            role, literal, token = line.split(" = ")[0], line.split("Color(")[1].split(")")[0], line.split("// ")[1]
            expected = srgb_hex(colours.get(token, {}))
            if expected: check(literal == expected, f"{tenant} {builder} {role}: {literal}, {token} is {expected}")
            checked += 1
    typography = calls(tree.root_node, "Typography", [])
    check(len(typography) == 1, f"{tenant}: {len(typography)} Typography calls")
    tiers = {l.strip().split(" = ")[0][4:] for l in lines if l.startswith("    val ") and "TextStyle(" in l}
    for style, value in arguments(typography[0]).items() if typography else []:
        check(style in STYLES, f"{tenant}: Typography names {style}")
        check(value.startswith(f"{type_name}Typography.") and value.split(".", 1)[1] in tiers, f"{tenant}: {style} = {value} is not a declared tier")
    material = calls(tree.root_node, "MaterialTheme", [])
    check(len(material) == 1, f"{tenant}: {len(material)} MaterialTheme calls")
    if material:
        args = arguments(material[0])
        check(args.get("colorScheme") == f"if (darkTheme) {type_name}DarkColorScheme else {type_name}LightColorScheme", f"{tenant}: colorScheme {args.get('colorScheme')}")
        check(args.get("typography") == f"{type_name}MaterialTypography", f"{tenant}: typography {args.get('typography')}")
        check(args.get("content") == "content", f"{tenant}: content")
check(checked > 100, f"only {checked} token-fed roles checked")
if problems: sys.exit("\n".join(problems))
"""#
        let result = try PlatformFixtures.tool(["python3", "-c", script, root.path])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
    }

    // MARK: minSdk

    /// Android's API reference: the level that added every platform class, field and constant the Compose template
    /// may use (the classes it imports, `Build.VERSION.SDK_INT`, and every HapticFeedbackConstants constant), written
    /// out here rather than taken from Livery's table. For each tenant (its `app.android.minSdk`, read from its
    /// tenant.yaml, inherited through `extends`, else 21): an API above minSdk is only used behind a
    /// `Build.VERSION.SDK_INT >=` check of at least its level, with a constant minSdk has below it (what Android
    /// lint's NewApi accepts), and a check is only there for an API above minSdk. Prints the checks per tenant.
    static let apiLevelCheck = #"""
import json, os, re, sys, yaml
out, tenants = sys.argv[1], sys.argv[2]
API = {
    "android.os.Build": 1, "android.view.HapticFeedbackConstants": 3, "Build.VERSION.SDK_INT": 4,
    "LONG_PRESS": 3, "VIRTUAL_KEY": 5, "KEYBOARD_TAP": 8, "CLOCK_TICK": 21, "CONTEXT_CLICK": 23,
    "KEYBOARD_PRESS": 27, "KEYBOARD_RELEASE": 27, "TEXT_HANDLE_MOVE": 27, "VIRTUAL_KEY_RELEASE": 27,
    "GESTURE_START": 30, "GESTURE_END": 30, "CONFIRM": 30, "REJECT": 30,
    "TOGGLE_ON": 34, "TOGGLE_OFF": 34, "DRAG_START": 34, "GESTURE_THRESHOLD_ACTIVATE": 34,
    "GESTURE_THRESHOLD_DEACTIVATE": 34, "SEGMENT_TICK": 34, "SEGMENT_FREQUENT_TICK": 34, "NO_HAPTICS": 34,
}
def manifest(tenant):
    return yaml.safe_load(open(f"{tenants}/{tenant}/tenant.yaml", encoding="utf-8"))
def min_sdk(tenant):
    m = manifest(tenant)
    declared = ((m.get("app") or {}).get("android") or {}).get("minSdk")
    if declared is None and m.get("extends"): return min_sdk(m["extends"])
    return declared if declared is not None else 21
problems, report = [], {}
def check(ok, message):
    if not ok: problems.append(message)
guarded = re.compile(r"if \(Build\.VERSION\.SDK_INT >= (\d+)\) HapticFeedbackConstants\.(\w+) else HapticFeedbackConstants\.(\w+)")
for tenant in sorted(os.listdir(out)):
    path = f"{out}/{tenant}/compose/Theme.kt"
    if not os.path.exists(path): continue
    sdk = min_sdk(tenant)
    full = open(path, encoding="utf-8").read()
    # What the template says each constant's level is must be Android's.
    for constant, level in re.findall(r"HapticFeedbackConstants\.(\w+): API (\d+)\)", full):
        check(API.get(constant) == int(level), f"{tenant}: the comment gives {constant} API {level}, Android's reference {API.get(constant)}")
    # The code alone: comments may name constants.
    text = re.sub(r"/\*.*?\*/", "", re.sub(r"//[^\n]*", "", full), flags=re.S)
    for imported in re.findall(r"^import (android\.[\w.]+)$", text, flags=re.M):
        check(imported in API and API[imported] <= sdk, f"{tenant}: imports {imported} (API {API.get(imported)}) at minSdk {sdk}")
    guards, plain = [], []
    for level, newer, older in guarded.findall(text):
        guards.append(newer)
        check(newer in API and int(level) >= API[newer], f"{tenant}: {newer} (API {API.get(newer)}) behind SDK_INT >= {level}")
        check(newer in API and API[newer] > sdk, f"{tenant}: {newer} (API {API.get(newer)}) is checked although minSdk {sdk} has it")
        check(older in API and API[older] <= sdk, f"{tenant}: the fallback {older} (API {API.get(older)}) is above minSdk {sdk}")
    rest = guarded.sub("", text)
    for name in re.findall(r"HapticFeedbackConstants\.(\w+)", rest):
        plain.append(name)
        check(name in API and API[name] <= sdk, f"{tenant}: HapticFeedbackConstants.{name} (API {API.get(name)}) is used without a check at minSdk {sdk}")
    check("Build.VERSION.SDK_INT" not in rest, f"{tenant}: Build.VERSION.SDK_INT outside a haptic check")
    check(len(guards) * 2 + len(plain) == text.count("HapticFeedbackConstants."), f"{tenant}: every use is accounted for")
    report[tenant] = {"minSdk": sdk, "guarded": sorted(set(guards)), "plain": sorted(set(plain))}
print(json.dumps(report, sort_keys=True))
if problems: sys.exit("\n".join(problems))
"""#

    /// Every sample brand at its own minSdk (none declares one: 21), through `apiLevelCheck`.
    func testEveryAndroidAPINewerThanMinSdkIsCheckedOnEverySample() throws {
        let root = try generateSamples()
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try PlatformFixtures.tool(["python3", "-c", Self.apiLevelCheck, root.path, PlatformFixtures.root.appendingPathComponent("Tenants").path])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: [String: Any]])
        XCTAssertEqual(report.count, PlatformFixtures.samples.count)
        XCTAssertEqual(report["physio-clinic"]?["guarded"] as? [String], ["CONFIRM"], "physio-clinic's success haptic is API 30")
        XCTAssertEqual(report["physio-clinic"]?["minSdk"] as? Int, 21)
    }

    /// The same check on one tenant at three minSdks: 21 checks CONTEXT_CLICK (23) and CONFIRM and REJECT (30); 23
    /// only the API 30 ones; 30 none, and then `Build` is not imported for nothing.
    func testAHigherMinSdkGetsNoNeedlessCheck() throws {
        var guardedAt: [Int: [String]] = [:], plainAt: [Int: [String]] = [:]
        for minSdk in [21, 23, 30] {
            let workspace = try ExampleWorkspace(RuleExample("minSdk \(minSdk)", files: [
                "example/tenant.yaml": RuleExample.tenant(appending: """
                    app:
                      displayName: Example
                      bundleIds: {ios: com.example.app, android: com.example.app}
                      android:
                        minSdk: \(minSdk)
                    branding:
                      tokens: [branding/tokens.json]

                    """),
                "example/branding/tokens.json": """
                    {"haptics": {"$extensions": {"com.livery": {"haptics": {"tap": "light", "rigid": "rigid", "done": "success", "oops": "error"}}}},
                     "color": {"$type": "color", "brand": {"primary": {"$value": {"colorSpace": "srgb", "components": [0, 0.4, 0.8], "hex": "#0066cc"}}}}}
                    """,
            ]))
            let validation = workspace.validate()
            // The example draws no app icon (assets.app-icon-missing, a warning); nothing else is found.
            XCTAssertEqual(validation.diagnostics.filter { $0.ruleID.rawValue != "assets.app-icon-missing" }.map(\.line), [], "minSdk \(minSdk)")
            let tenant = try XCTUnwrap(validation.tenants.first { $0.id == "example" })
            let out = try PlatformFixtures.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: out) }
            let (files, _) = PlatformFiles.generate(tenant, templates: try PlatformFixtures.platformTemplates())
            try BuildSettingsTests.write(files, to: out.appendingPathComponent("example"))
            let result = try PlatformFixtures.tool(["python3", "-c", Self.apiLevelCheck, out.path, workspace.tenants.path])
            XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
            let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: [String: Any]])
            guardedAt[minSdk] = report["example"]?["guarded"] as? [String]
            plainAt[minSdk] = report["example"]?["plain"] as? [String]
            // The app's build takes the same minSdk (docs/build-settings.md).
            let properties = String(decoding: try XCTUnwrap(files.first { $0.path == BuildSettings.gradleProperties }).contents, as: UTF8.self)
            XCTAssertTrue(properties.contains("\nminSdk=\(minSdk)\n"), properties)
        }
        XCTAssertEqual(guardedAt[21], ["CONFIRM", "CONTEXT_CLICK", "REJECT"])
        XCTAssertEqual(guardedAt[23], ["CONFIRM", "REJECT"])
        XCTAssertEqual(guardedAt[30], [])
        XCTAssertEqual(plainAt[30], ["CONFIRM", "CONTEXT_CLICK", "KEYBOARD_TAP", "REJECT"])
    }

    /// `app.android.minSdk` is an API level from Compose's minimum (21) to the newest Livery knows (36): anything else
    /// is an error at the value, and `livery schema` says the same.
    func testAMinSdkOutsideTheRangeIsAnErrorAtTheValue() throws {
        for (value, rule, message) in [("19", "structure.range", "below the minimum 21"), ("99", "structure.range", "above the maximum 36"),
                                       ("twenty-one", "structure.type", "an integer")] {
            let workspace = try ExampleWorkspace(RuleExample("minSdk \(value)", files: [
                "example/tenant.yaml": RuleExample.tenant(appending: "app:\n  displayName: Example\n  android:\n    minSdk: ↓\(value)\n"),
            ]))
            let found = workspace.validate().diagnostics.filter { $0.ruleID.rawValue == rule }
            XCTAssertEqual(found.map(\.location), workspace.markers, value)
            XCTAssertTrue(found.first?.message.contains(message) == true, "\(value): \(found.map(\.message))")
            XCTAssertTrue(found.first?.message.contains("app.android.minSdk") == true, "\(value): \(found.map(\.message))")
        }
        let schema = try XCTUnwrap(ManifestParser.parse(JSONSchemaWriter.schema(for: .tenant), format: .json, file: "tenant.schema.json").0)
        let minSdk = schema["properties"]?["app"]?["properties"]?["android"]?["properties"]?["minSdk"]
        XCTAssertEqual(minSdk?["minimum"]?.int, 21)
        XCTAssertEqual(minSdk?["maximum"]?.int, 36)
    }

    // MARK: Fonts

    /// Android walks a family stack as a browser does.
    func testAndroidDrawsTheFirstFamilyOfTheStackItHas() {
        func resolve(_ families: [String], bundled: [String] = []) -> String {
            let font = AndroidFonts.resolve(families, bundled: bundled)
            return font.kotlinFamily + " " + font.drawn + (font.unavailable.map { ", not \($0)" } ?? "")
        }
        XCTAssertEqual(resolve(["SF Pro", "Roboto", "system-ui", "sans-serif"]), "FontFamily.SansSerif Roboto")
        XCTAssertEqual(resolve(["SF Pro Display", "system-ui", "sans-serif"]), "FontFamily.SansSerif Roboto, not SF Pro Display")
        XCTAssertEqual(resolve(["Menlo", "monospace"]), "FontFamily.Monospace Droid Sans Mono, not Menlo")
        XCTAssertEqual(resolve(["Inter"]), "FontFamily.Default Roboto, not Inter")
        XCTAssertEqual(resolve(["Inter", "sans-serif"], bundled: ["assets/fonts/Inter-Regular.ttf"]), "FontFamily.Default Inter")
        XCTAssertEqual(resolve(["Open Sans", "serif"], bundled: ["assets/fonts/open-sans-bold.woff2"]), "FontFamily.Default Open Sans")
        XCTAssertEqual(resolve(["Open Sans", "serif"], bundled: ["assets/fonts/inter-regular.ttf"]), "FontFamily.Serif Noto Serif, not Open Sans")
        XCTAssertEqual(resolve(["system-ui", "sans-serif"]), "FontFamily.SansSerif Roboto", "the system font, asked for by name")
        XCTAssertEqual(resolve([]), "FontFamily.Default Roboto")
    }

    /// `livery generate` says which family falls back to what, at the family's name in the token file, with a hint;
    /// the Compose file uses what the warning names. Without the rule this example generated silently.
    func testGenerateWarnsWhereAFamilyFallsBack() throws {
        let workspace = try ExampleWorkspace(RuleExample("fonts", files: tokenFiles("""
            {"font": {"family": {"$type": "fontFamily", "heading": {"$value": ["SF Pro Display", "system-ui", "sans-serif"]},
                      "body": {"$value": "{font.family.heading}"}, "brand": {"$value": ["Inter", "Roboto"]}}},
             "typography": {"$type": "typography",
               "title": {"$value": {"fontFamily": "{font.family.heading}", "fontSize": {"value": 20, "unit": "px"}, "fontWeight": 700,
                 "letterSpacing": {"value": 0, "unit": "px"}, "lineHeight": 1.2}},
               "body": {"$value": {"fontFamily": "{font.family.body}", "fontSize": {"value": 16, "unit": "px"}, "fontWeight": 400,
                 "letterSpacing": {"value": 0, "unit": "px"}, "lineHeight": 1.5}},
               "quote": {"$value": {"fontFamily": ["Playfair Display"], "fontSize": {"value": 18, "unit": "px"}, "fontWeight": 400,
                 "letterSpacing": {"value": 0, "unit": "px"}, "lineHeight": 1.5}},
               "brand": {"$value": {"fontFamily": "{font.family.brand}", "fontSize": {"value": 14, "unit": "px"}, "fontWeight": 400,
                 "letterSpacing": {"value": 0, "unit": "px"}, "lineHeight": 1.5}}}}

            """)))
        let output = try PlatformFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try LiveryProcess.run(["generate", workspace.tenants.appendingPathComponent("example").path, "--output", output.path, "--templates", PlatformFixtures.templates.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        // Two families fall back, each reported once where its name is written: SF Pro Display at its place in the
        // heading stack (both tiers reach it), Playfair Display inside the typography value. Inter is followed by Roboto.
        let warnings = result.stderr.split(separator: "\n").filter { $0.contains("[branding.font-fallback]") }
        XCTAssertEqual(warnings, [
            "\(workspace.tenants.path)/example/branding/tokens.json:1:68: warning: 'SF Pro Display' is neither bundled (assets.fonts) nor an Android system font: Compose draws it as FontFamily.SansSerif (Roboto) [branding.font-fallback]",
            "\(workspace.tenants.path)/example/branding/tokens.json:8:40: warning: 'Playfair Display' is neither bundled (assets.fonts) nor an Android system font: Compose draws it as FontFamily.Default (Roboto) [branding.font-fallback]",
        ], result.stderr)
        XCTAssertTrue(result.stderr.contains("hint: an Apple system font cannot ship with an Android app"), result.stderr)
        XCTAssertTrue(result.stderr.contains("hint: bundle the family: list its font files in assets.fonts, named after it (playfairdisplay-regular.ttf)"), result.stderr)
        let kotlin = try String(contentsOf: output.appendingPathComponent("example/compose/Theme.kt"), encoding: .utf8)
        XCTAssertTrue(kotlin.contains("    // SF Pro Display (Android: Roboto)\n    val title = TextStyle(\n        fontFamily = FontFamily.SansSerif,"), kotlin)
        XCTAssertTrue(kotlin.contains("    // Inter (Android: Roboto)\n    val brand = TextStyle(\n        fontFamily = FontFamily.SansSerif,"), kotlin)

        // A tenant may lower or silence the warning like any rule's.
        try workspace.write("example/tenant.yaml", try String(contentsOf: workspace.tenants.appendingPathComponent("example/tenant.yaml"), encoding: .utf8)
                            + "rules:\n  branding.font-fallback: off\n")
        XCTAssertEqual(workspace.validate().diagnostics.filter { $0.ruleID == PlatformRule.fontFallback }.count, 0)
    }

    // MARK: Support

    private func generateSamples() throws -> URL { try PlatformFixtures.generateSamples() }

    /// The example tenant with one token file.
    private func tokenFiles(_ tokens: String) -> [String: String] {
        ["example/tenant.yaml": RuleExample.tenant(appending: "branding:\n  tokens: [branding/tokens.json]\n"), "example/branding/tokens.json": tokens]
    }

    /// A one-tenant workspace with the given base token file.
    private func exampleTenant(tokens: String) throws -> ResolvedTenant {
        let workspace = try ExampleWorkspace(RuleExample("material", files: tokenFiles(tokens)))
        let result = workspace.validate()
        return try XCTUnwrap(result.tenants.first { $0.id == "example" })
    }
}
