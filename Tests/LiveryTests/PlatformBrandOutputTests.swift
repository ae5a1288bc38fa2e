import Foundation
import LiveryCheck
import LiveryRender
import XCTest

/// The whole brand in the generated theme files (issue 15, item 6): opacity, gradients, glass, tab
/// identities and haptics, and every mode (density, contrast…), checked by parsing each output with
/// an independent parser and comparing with the tenants' own token files, read by Python's json.
final class PlatformBrandOutputTests: XCTestCase {
    private func generateSamples() throws -> URL { try PlatformFixtures.generateSamples() }

    /// tinycss2 parses every stylesheet; the custom properties carry the token files' opacity values,
    /// every haptics entry, each tab's tint at its opacity and header colour, the glass values and
    /// the gradients' stops; every mode has a block (and a media query when it follows a system
    /// preference) changing what that mode's token file changes.
    func testCSSCarriesExtensionsAndEveryMode() throws {
        let root = try generateSamples()
        defer { try? FileManager.default.removeItem(at: root) }
        let script = #"""
import json, sys, tinycss2
out, tenants = sys.argv[1], sys.argv[2]
problems = []
def sheet(tenant):
    rules = tinycss2.parse_stylesheet(open(f"{out}/{tenant}/css/tokens.css", encoding="utf-8").read(), skip_whitespace=True, skip_comments=True)
    blocks = {}
    def add(prelude, content, media=None):
        decls = tinycss2.parse_declaration_list(content, skip_whitespace=True, skip_comments=True)
        for d in decls:
            if d.type == "error": problems.append(f"{tenant}: {d.message}")
        blocks[(media, tinycss2.serialize(prelude).strip())] = {d.name: tinycss2.serialize(d.value).strip() for d in decls if d.type == "declaration"}
    for rule in rules:
        if rule.type == "error": problems.append(f"{tenant}: {rule.message}")
        elif rule.type == "qualified-rule": add(rule.prelude, rule.content)
        elif rule.type == "at-rule" and rule.lower_at_keyword == "media":
            for inner in tinycss2.parse_rule_list(rule.content, skip_whitespace=True, skip_comments=True):
                add(inner.prelude, inner.content, tinycss2.serialize(rule.prelude).strip())
    return blocks
def check(condition, message):
    if not condition: problems.append(message)

physio = sheet("physio-clinic")
root = physio[(None, ":root")]
tokens = json.load(open(f"{tenants}/physio-clinic/branding/tokens.json"))
for name, token in tokens["opacity"].items():
    if name.startswith("$"): continue
    check(float(root.get(f"--opacity-{name}", "nan")) == token["$value"], f"opacity {name}: {root.get(f'--opacity-{name}')}")
haptics = tokens["haptics"]["$extensions"]["com.livery"]["haptics"]
for interaction, style in haptics.items():
    check(root.get(f"--haptic-{interaction}") == style, f"haptic {interaction}: {root.get(f'--haptic-{interaction}')}")
palette = {k: v for k, v in tokens["color"]["palette"].items() if not k.startswith("$")}
for tab, token in tokens["color"]["tab"].items():
    if tab.startswith("$"): continue
    ext = token["$extensions"]["com.livery"]["tab"]
    color = root[f"--color-tab-{tab}"]
    tint = root.get(f"--color-tab-{tab}-tab-tint", "")
    check(tint[:7].upper() == color[:7].upper() and int(tint[7:9], 16) == round(ext["tint"] * 255), f"tab {tab} tint {tint} from {color}")
    header = palette[ext["header"].strip("{}").split(".")[-1]]["$value"]
    check(root.get(f"--color-tab-{tab}-tab-header", "").upper() == header["hex"].upper(), f"tab {tab} header")
check(any(media == "(prefers-color-scheme: dark)" for media, _ in physio), "physio: no dark media block")
import math
for name, token in tokens["motion"]["spring"].items():
    if name.startswith("$"): continue
    spring = token["$extensions"]["com.livery"]["spring"]
    zeta = spring["damping"] / (2 * math.sqrt(spring["stiffness"] * spring.get("mass", 1)))
    overshoot = math.exp(-zeta * math.pi / math.sqrt(1 - zeta * zeta)) if zeta < 1 else 0
    easing = tinycss2.parse_component_value_list(root.get(f"--spring-{name}-easing", ""))
    functions = [v for v in easing if v.type == "function" and v.lower_name == "linear"]
    points = [a.value for a in functions[0].arguments if a.type == "number"] if functions else []
    check(points and points[0] == 0 and points[-1] == 1 and abs(max(points) - 1 - overshoot) < 0.03, f"spring {name}: peak {max(points or [0])} for overshoot {overshoot}")
    check(root.get(f"--spring-{name}-duration", "").endswith("ms"), f"spring {name} duration")
touch = tokens["component"]["touch-target"]["min"]["$value"]
check(root.get("--size-button-height-compact-hit-area") == f"{touch['value']}{touch['unit']}", f"hit area: {root.get('--size-button-height-compact-hit-area')}")

walk = sheet("sonic-walkscape")[(None, ":root")]
walk_tokens = json.load(open(f"{tenants}/sonic-walkscape/branding/tokens.json"))
for name, token in walk_tokens["gradient"].items():
    if name.startswith("$"): continue
    value = tinycss2.parse_component_value_list(walk[f"--gradient-{name}"])
    functions = [v for v in value if v.type == "function"]
    check(len(functions) == 1 and functions[0].lower_name == "linear-gradient", f"gradient {name}")
    stops = [a for a in functions[0].arguments if a.type == "percentage"]
    check([s.value / 100 for s in stops] == [s["position"] for s in token["$value"]], f"gradient {name} stops")
for name, token in walk_tokens["color"]["component"]["glass"].items():
    if name.startswith("$"): continue
    ext = token["$extensions"]["com.livery"]["glass"]
    check(walk.get(f"--color-component-glass-{name}-glass-blur") == f"{ext['blur']}px", f"glass {name} blur")
    fill = walk.get(f"--color-component-glass-{name}-glass-fill", "")
    check(int(fill[7:9], 16) == round(ext["fillOpacity"] * 255), f"glass {name} fill {fill}")

urban = sheet("urbannest")
compact_tokens = json.load(open(f"{tenants}/urbannest/branding/compact.tokens.json"))
compact = urban.get((None, ':root[data-mode~="compact"]'), {})
for name, token in compact_tokens.get("spacing", {}).items():
    if name.startswith("$"): continue
    v = token["$value"]
    check(compact.get(f"--spacing-{name}") == f"{v['value']}{v['unit']}", f"compact spacing {name}: {compact.get(f'--spacing-{name}')}")
check(bool(compact), "urbannest: no compact block")
check(':root[data-mode~="dark"][data-mode~="compact"]' in [s for _, s in urban], "urbannest: no dark+compact block")
check(("(prefers-color-scheme: dark)", ':root[data-mode~="compact"]') in urban, "urbannest: dark+compact does not follow the dark preference")
check(not any(m and "compact" in m for m, _ in urban), "density is not a media feature")
if problems: sys.exit("\n".join(problems))
"""#
        let result = try PlatformFixtures.tool(["python3", "-c", script, root.path, PlatformFixtures.root.appendingPathComponent("Tenants").path])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
    }

    /// tsc (Debian's node-typescript) type-checks the React Native themes with --strict, so every mode's
    /// overrides must name a token of the default mode with a value of its type; then Node runs the
    /// compiled files and compares `themeFor(mode)` and the extensions with the token files.
    func testReactNativeCarriesExtensionsAndEveryMode() throws {
        let root = try generateSamples()
        defer { try? FileManager.default.removeItem(at: root) }
        let tenants = ["physio-clinic", "sonic-walkscape", "urbannest"]
        let compiled = root.appendingPathComponent("js")
        let tsc = try PlatformFixtures.tool(["tsc", "--strict", "--target", "es2020", "--module", "commonjs", "--outDir", compiled.path]
                                            + tenants.map { root.appendingPathComponent("\($0)/react-native/theme.ts").path })
        XCTAssertEqual(tsc.status, 0, tsc.stdout + tsc.stderr)
        let script = #"""
const fs = require('fs'), [js, tenants] = process.argv.slice(-2);
const problems = [];
const check = (ok, message) => { if (!ok) problems.push(message); };
const load = (t) => require(`${js}/${t}/react-native/theme.js`);
const tokens = (t, f) => JSON.parse(fs.readFileSync(`${tenants}/${t}/branding/${f}`, 'utf8'));
const camel = (s) => s.replace(/-([a-z0-9])/g, (_, c) => c.toUpperCase());

const physio = load('physio-clinic'), physioTokens = tokens('physio-clinic', 'tokens.json');
for (const [name, token] of Object.entries(physioTokens.opacity)) if (!name.startsWith('$')) check(physio.opacity[camel(name)] === token.$value, `opacity ${name}`);
for (const [interaction, style] of Object.entries(physioTokens.haptics.$extensions['com.livery'].haptics)) check(physio.haptics[camel(interaction)] === style, `haptic ${interaction}`);
for (const [tab, token] of Object.entries(physioTokens.color.tab)) {
  if (tab.startsWith('$')) continue;
  const carried = physio.tabs[camel('tab-' + tab)];
  check(carried && carried.tint === token.$extensions['com.livery'].tab.tint, `tab ${tab}`);
}
check(physio.hitAreas.buttonHeightCompact === physioTokens.component['touch-target'].min.$value.value, 'hit area');
const dark = physio.themeFor('dark'), light = physio.themeFor();
check(dark.colors.textPrimary === physio.colors.dark.textPrimary && light.colors.textPrimary === physio.colors.light.textPrimary, 'physio dark colours');

const walk = load('sonic-walkscape'), walkTokens = tokens('sonic-walkscape', 'tokens.json');
for (const [name, token] of Object.entries(walkTokens.gradient)) {
  if (name.startsWith('$')) continue;
  check(JSON.stringify(walk.gradients[camel(name)].locations) === JSON.stringify(token.$value.map((s) => s.position)), `gradient ${name}`);
}
for (const [name, token] of Object.entries(walkTokens.color.component.glass)) {
  if (name.startsWith('$')) continue;
  check(walk.glass[camel('component-glass-' + name)].blur === token.$extensions['com.livery'].glass.blur, `glass ${name}`);
}

const urban = load('urbannest'), compact = tokens('urbannest', 'compact.tokens.json');
for (const [name, token] of Object.entries(compact.spacing)) {
  if (name.startsWith('$')) continue;
  const key = /^[0-9]/.test(name) ? '_' + name : camel(name);
  check(urban.themeFor('compact').spacing[key] === token.$value.value, `compact spacing ${name}`);
  check(urban.themeFor('dark+compact').spacing[key] === token.$value.value, `dark+compact spacing ${name}`);
  check(urban.themeFor('dark').spacing[key] === urban.spacing[key], `dark keeps spacing ${name}`);
}
check(urban.themeFor('dark+compact').colors.textPrimary === urban.colors.dark.textPrimary, 'dark+compact colours');
check(JSON.stringify(Object.keys(urban.modes)) === JSON.stringify(['compact', 'dark', 'dark+compact']), 'urbannest modes');
if (problems.length) { console.error(problems.join('\n')); process.exit(1); }
"""#
        let node = try PlatformFixtures.tool(["node", "-e", script, compiled.path, PlatformFixtures.root.appendingPathComponent("Tenants").path])
        XCTAssertEqual(node.status, 0, node.stdout + node.stderr)
    }

    /// The SwiftUI themes compiled with the SwiftUI stub (Fixtures/platform/swiftui-stub, Apple's
    /// signatures: `Gradient.Stop`, `SensoryFeedback`) into a program that prints the carried values;
    /// they must be the token files' (read with Foundation's JSONSerialization), every mode included.
    func testSwiftUICarriesExtensionsAndEveryMode() throws {
        let root = try generateSamples()
        defer { try? FileManager.default.removeItem(at: root) }
        let build = root.appendingPathComponent("swift")
        try FileManager.default.createDirectory(at: build, withIntermediateDirectories: true)
        let stub = PlatformFixtures.snapshots.appendingPathComponent("swiftui-stub/SwiftUI.swift")
        let library = try PlatformFixtures.tool(["swiftc", "-emit-library", "-emit-module", "-parse-as-library", "-module-name", "SwiftUI", "-swift-version", "6",
                                                 "-emit-module-path", build.appendingPathComponent("SwiftUI.swiftmodule").path,
                                                 "-o", build.appendingPathComponent("libSwiftUI.so").path, stub.path])
        XCTAssertEqual(library.status, 0, library.stderr)
        var sources: [String] = []
        for id in ["physio-clinic", "sonic-walkscape", "urbannest"] {
            let copy = build.appendingPathComponent("\(id)-Theme.swift")
            try FileManager.default.copyItem(at: root.appendingPathComponent("\(id)/swiftui/Theme.swift"), to: copy)
            sources.append(copy.path)
        }
        let main = build.appendingPathComponent("main.swift")
        try Data("""
            import SwiftUI
            print("opacity.disabled=\\(PhysioClinicTheme.Opacity.disabled)")
            print("tab.emerald.tint=\\(PhysioClinicTheme.Tabs.tabEmerald.tint)")
            print("tab.emerald.tintColor.opacity=\\(PhysioClinicTheme.Tabs.tabEmerald.tintColor.opacity)")
            print("glass.default.blur=\\(SonicWalkscapeTheme.Glass.componentGlassDefault.blur)")
            print("glass.default.fill.opacity=\\(SonicWalkscapeTheme.Glass.componentGlassDefault.fill.opacity)")
            print("gradient.background.locations=\\(SonicWalkscapeTheme.Gradients.background.map(\\.location))")
            print("compact.spacing.md=\\(UrbannestTheme.Modes.Compact.Spacing.md)")
            print("darkCompact.spacing.md=\\(UrbannestTheme.Modes.DarkCompact.Spacing.md)")
            print("default.spacing.md=\\(UrbannestTheme.Spacing.md)")
            print("hitArea.buttonHeightCompact=\\(PhysioClinicTheme.HitArea.buttonHeightCompact)")
            if #available(macOS 14.0, iOS 17.0, *) { print("haptics.tap=\\(PhysioClinicTheme.Haptics.tap == .impact(weight: .light))") }

            """.utf8).write(to: main)
        let program = build.appendingPathComponent("themes")
        let compile = try PlatformFixtures.tool(["swiftc", "-swift-version", "6", "-I", build.path, "-L", build.path, "-lSwiftUI",
                                                 "-Xlinker", "-rpath", "-Xlinker", build.path, "-o", program.path] + sources + [main.path])
        XCTAssertEqual(compile.status, 0, compile.stderr)
        let run = try PlatformFixtures.tool([program.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        var printed: [String: String] = [:]
        for line in run.stdout.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { printed[parts[0]] = parts[1] }
        }
        func json(_ tenant: String, _ file: String) throws -> [String: Any] {
            let url = PlatformFixtures.root.appendingPathComponent("Tenants/\(tenant)/branding/\(file)")
            return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        }
        func at(_ object: Any?, _ path: String) -> Any? {
            path.split(separator: ".").reduce(object) { ($0 as? [String: Any])?[String($1)] }
        }
        let physio = try json("physio-clinic", "tokens.json"), walk = try json("sonic-walkscape", "tokens.json"), compact = try json("urbannest", "compact.tokens.json")
        XCTAssertEqual(printed["opacity.disabled"].flatMap(Double.init), at(physio, "opacity.disabled.$value") as? Double)
        let tab = (at(physio, "color.tab.emerald.$extensions") as? [String: Any])?["com.livery"] as? [String: Any]
        XCTAssertEqual(printed["tab.emerald.tint"].flatMap(Double.init), (tab?["tab"] as? [String: Any])?["tint"] as? Double)
        XCTAssertEqual(printed["tab.emerald.tintColor.opacity"].flatMap(Double.init), (tab?["tab"] as? [String: Any])?["tint"] as? Double)
        let glass = (at(walk, "color.component.glass.default.$extensions") as? [String: Any])?["com.livery"] as? [String: Any]
        XCTAssertEqual(printed["glass.default.blur"].flatMap(Double.init), (glass?["glass"] as? [String: Any])?["blur"] as? Double)
        XCTAssertEqual(printed["glass.default.fill.opacity"].flatMap(Double.init), (glass?["glass"] as? [String: Any])?["fillOpacity"] as? Double)
        let stops = (at(walk, "gradient.background.$value") as? [[String: Any]])?.compactMap { $0["position"] as? Double } ?? []
        XCTAssertEqual(printed["gradient.background.locations"], "[" + stops.map { String(format: "%.1f", $0) }.joined(separator: ", ") + "]")
        let md = (at(compact, "spacing.md.$value") as? [String: Any])?["value"] as? Double
        XCTAssertEqual(printed["compact.spacing.md"].flatMap(Double.init), md)
        XCTAssertEqual(printed["darkCompact.spacing.md"].flatMap(Double.init), md)
        XCTAssertNotEqual(printed["default.spacing.md"].flatMap(Double.init), md, "the default mode keeps its own spacing")
        XCTAssertEqual(printed["haptics.tap"], "true")
        let touch = (at(physio, "component.touch-target.min.$value") as? [String: Any])?["value"] as? Double
        XCTAssertEqual(printed["hitArea.buttonHeightCompact"].flatMap(Double.init), touch)
    }

    /// kotlinc and Compose are not installable here (see PlatformOutputTests): tree-sitter-kotlin parses
    /// the Compose themes, and the values of the properties found in its syntax tree, by object path,
    /// must be the token files' (opacity, haptics, tabs, gradients, glass, every mode's changes).
    func testComposeCarriesExtensionsAndEveryMode() throws {
        let root = try generateSamples()
        defer { try? FileManager.default.removeItem(at: root) }
        let script = #"""
import json, sys, tree_sitter_kotlin
from tree_sitter import Language, Parser
out, tenants = sys.argv[1], sys.argv[2]
parser = Parser(Language(tree_sitter_kotlin.language()))
problems = []
def check(ok, message):
    if not ok: problems.append(message)
def properties(tenant):
    tree = parser.parse(open(f"{out}/{tenant}/compose/Theme.kt", "rb").read())
    found = {}
    def walk(node, path):
        if node.type == "ERROR" or node.is_missing: problems.append(f"{tenant}: parse error at {node.start_point}")
        if node.type == "object_declaration":
            name = next(c.text.decode() for c in node.children if c.type in ("identifier", "type_identifier", "simple_identifier"))
            path = path + [name]
        if node.type == "property_declaration":
            declaration = next(c for c in node.children if c.type == "variable_declaration")
            name = declaration.children[0].text.decode()
            equals = [i for i, c in enumerate(node.children) if c.type == "="]
            getter = [c for c in node.children if c.type == "getter"]
            value = node.children[equals[0] + 1] if equals else (getter[0].children[-1] if getter else None)
            found[".".join(path + [name])] = value.text.decode() if value is not None else ""
            return
        for child in node.children: walk(child, path)
    walk(tree.root_node, [])
    return found
camel = lambda s: s.split("-")[0] + "".join(w.capitalize() for w in s.split("-")[1:])

physio = properties("physio-clinic")
tokens = json.load(open(f"{tenants}/physio-clinic/branding/tokens.json"))
for name, token in tokens["opacity"].items():
    if name.startswith("$"): continue
    check(physio.get(f"PhysioClinicThemeOpacity.{camel(name)}") == f"{token['$value']}f", f"opacity {name}: {physio.get(f'PhysioClinicThemeOpacity.{camel(name)}')}")
for interaction in tokens["haptics"]["$extensions"]["com.livery"]["haptics"]:
    check("HapticFeedbackConstants." in physio.get(f"PhysioClinicThemeHaptics.{camel(interaction)}", ""), f"haptic {interaction}")

# API levels and minSdk: ComposeThemeTests.apiLevelCheck.
for tab, token in tokens["color"]["tab"].items():
    if tab.startswith("$"): continue
    value = physio.get(f"PhysioClinicThemeTabs.tab{tab.capitalize()}", "")
    check(f"tint = {token['$extensions']['com.livery']['tab']['tint']}f" in value, f"tab {tab}: {value}")

check(physio.get("PhysioClinicThemeHitAreas.buttonHeightCompact") == f"{tokens['component']['touch-target']['min']['$value']['value']}.dp", "hit area")
walk = properties("sonic-walkscape")
walk_tokens = json.load(open(f"{tenants}/sonic-walkscape/branding/tokens.json"))
for name, token in walk_tokens["gradient"].items():
    if name.startswith("$"): continue
    value = walk.get(f"SonicWalkscapeThemeGradients.{camel(name)}", "")
    positions = [float(p.split("f to")[0].strip(" (,")) for p in value.split("verticalGradient(")[1].split("), ") if "f to" in p] if "verticalGradient(" in value else []
    check(positions == [s["position"] for s in token["$value"]], f"gradient {name}: {value}")
for name, token in walk_tokens["color"]["component"]["glass"].items():
    if name.startswith("$"): continue
    value = walk.get(f"SonicWalkscapeThemeGlass.{camel('component-glass-' + name)}", "")
    check(f"blur = {token['$extensions']['com.livery']['glass']['blur']}.dp" in value, f"glass {name}: {value}")

urban = properties("urbannest")
compact = json.load(open(f"{tenants}/urbannest/branding/compact.tokens.json"))
for name, token in compact["spacing"].items():
    if name.startswith("$"): continue
    key = "_" + name if name[0].isdigit() else camel(name)
    expected = f"{token['$value']['value']}.dp"
    check(urban.get(f"UrbannestThemeModes.Compact.Spacing.{key}") == expected, f"compact {name}")
    check(urban.get(f"UrbannestThemeModes.DarkCompact.Spacing.{key}") == expected, f"dark+compact {name}")
    check(f"UrbannestThemeModes.Dark.Spacing.{key}" not in urban, f"dark changes no spacing ({name})")
check(urban.get("UrbannestThemeModes.Dark.Colors.textPrimary", "").startswith("Color(0x"), "dark colours")
if problems: sys.exit("\n".join(problems))
"""#
        let result = try PlatformFixtures.tool(["python3", "-c", script, root.path, PlatformFixtures.root.appendingPathComponent("Tenants").path])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
    }

    /// Contrast modes (no sample has one): a tenant with dark, high-contrast and dark-high-contrast
    /// modes gets a CSS block for each, applied by `prefers-contrast` (and `prefers-color-scheme`)
    /// as tinycss2 reads them, and React Native modes tsc accepts.
    func testContrastModesFollowThePreferenceInCSSAndAreModesInReactNative() throws {
        let color = { (hex: String, components: String) in
            ##"{"color": {"$type": "color", "plain": {"$value": {"colorSpace": "srgb", "components": [\##(components)], "hex": "\##(hex)"}}}}"##
        }
        let workspace = try ExampleWorkspace(RuleExample("contrast modes", files: [
            "example/branding/tokens.json": color("#0066cc", "0, 0.4, 0.8"), "example/branding/dark.tokens.json": color("#3399ff", "0.2, 0.6, 1"),
            "example/branding/high.tokens.json": color("#003366", "0, 0.2, 0.4"), "example/branding/dark-high.tokens.json": color("#99ccff", "0.6, 0.8, 1"),
            "example/tenant.yaml": RuleExample.tenant(appending: """
                branding:
                  tokens: [branding/tokens.json]
                  modes:
                    dark: [branding/dark.tokens.json]
                    high-contrast: [branding/high.tokens.json]
                    dark-high-contrast: [branding/dark-high.tokens.json]

                """),
        ]))
        let validation = workspace.validate()
        XCTAssertEqual(validation.diagnostics.filter { $0.severity == .error }.map(\.line), [])
        let tenant = try XCTUnwrap(validation.tenants.first { $0.id == "example" })
        let (files, _) = PlatformFiles.generate(tenant, templates: try PlatformFixtures.platformTemplates())
        let root = try PlatformFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        try BuildSettingsTests.write(files, to: root)
        let script = #"""
import sys, tinycss2
rules = tinycss2.parse_stylesheet(open(sys.argv[1], encoding="utf-8").read(), skip_whitespace=True, skip_comments=True)
found = {}
for rule in rules:
    if rule.type == "at-rule" and rule.lower_at_keyword == "media":
        for inner in tinycss2.parse_rule_list(rule.content, skip_whitespace=True, skip_comments=True):
            decls = tinycss2.parse_declaration_list(inner.content, skip_whitespace=True, skip_comments=True)
            found[tinycss2.serialize(rule.prelude).strip()] = {d.name: tinycss2.serialize(d.value).strip() for d in decls if d.type == "declaration"}
    elif rule.type == "error":
        sys.exit(rule.message)
expected = {"(prefers-color-scheme: dark)": "#3399FF", "(prefers-contrast: more)": "#003366",
            "(prefers-color-scheme: dark) and (prefers-contrast: more)": "#99CCFF"}
for media, value in expected.items():
    if found.get(media, {}).get("--color-plain") != value: sys.exit(f"{media}: {found.get(media)}")
"""#
        let css = try PlatformFixtures.tool(["python3", "-c", script, root.appendingPathComponent("css/tokens.css").path])
        XCTAssertEqual(css.status, 0, css.stdout + css.stderr)
        let theme = root.appendingPathComponent("react-native/theme.ts")
        let tsc = try PlatformFixtures.tool(["tsc", "--noEmit", "--strict", "--target", "es2020", "--module", "es2020", theme.path])
        XCTAssertEqual(tsc.status, 0, tsc.stdout + tsc.stderr)
        XCTAssertTrue(try String(contentsOf: theme, encoding: .utf8).contains("export type ModeName = 'dark' | 'dark-high-contrast' | 'high-contrast' | never;"))
    }
}
