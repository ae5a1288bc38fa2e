import Foundation
import LiveryCheck
import LiveryDiagnostics
import LiveryLoad
@testable import LiveryRender
import LiveryResolve
import XCTest

/// The Compose theme as an Android app consumes it (issue 36): API-level checks for the tenant's own minSdk.
final class ComposeThemeTests: XCTestCase {
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

    // MARK: Support

    private func generateSamples() throws -> URL {
        let root = try PlatformFixtures.temporaryFolder()
        let templates = try PlatformFixtures.platformTemplates()
        for tenant in PlatformFixtures.samples {
            let (files, diagnostics) = PlatformFiles.generate(tenant, templates: templates)
            XCTAssertEqual(diagnostics.filter { $0.severity == .error }, [], tenant.id)
            try BuildSettingsTests.write(files, to: root.appendingPathComponent(tenant.id))
        }
        return root
    }
}

