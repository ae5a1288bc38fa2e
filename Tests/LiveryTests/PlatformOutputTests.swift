import Foundation
import LiveryLoad
@testable import LiveryRender
import XCTest

/// Layer 2 → 3: the committed context → the rendered files (snapshots), and every sample tenant's
/// generated files checked by real compilers and parsers.
final class PlatformOutputTests: XCTestCase {
    /// Renders the templates with the committed context snapshot (not a freshly built one), so a
    /// template change shows up here alone and a token change shows up in the context snapshot.
    func testTemplatesRenderTheCommittedContextToTheCommittedOutput() throws {
        let tenant = PlatformFixtures.snapshotTenant
        let text = try String(contentsOf: PlatformFixtures.snapshots.appendingPathComponent("\(tenant)/context.json"), encoding: .utf8)
        let node = try XCTUnwrap(ManifestParser.parse(text, format: .json, file: "context.json").0)
        let context = TemplateContext.plain(node)
        for template in try PlatformFixtures.platformTemplates().templates {
            guard case .success(let parsed) = TemplateContext.parse(template.text, file: template.displayPath) else {
                return XCTFail("\(template.displayPath) does not parse")
            }
            try PlatformFixtures.assertSnapshot(parsed.render(context), "\(tenant)/output/\(template.outputPath)")
        }
    }

    func testEveryTemplateProducesAFileAndEveryModeAResolvedDocument() throws {
        let tenant = try PlatformFixtures.sample("physio-clinic")
        let (files, diagnostics) = PlatformFiles.generate(tenant, templates: try PlatformFixtures.platformTemplates())
        XCTAssertEqual(diagnostics, [])
        XCTAssertEqual(files.map(\.path).filter { !$0.hasPrefix(ColorAssets.catalog + "/") && !BuildSettings.isBuildSetting($0) && !StoreListings.isStoreListing($0) }, [
            "android/values-night/colors.xml", "android/values/colors.xml", "android/values/dimens.xml", "compose/Theme.kt",
            "css/tokens.css", "react-native/theme.ts", "swiftui/Theme.swift", "tokens/dark.tokens.json", "tokens/default.tokens.json",
        ])
        // And the build settings (BuildSettingsTests), for English and Russian.
        XCTAssertEqual(files.filter { BuildSettings.isBuildSetting($0.path) }, BuildSettings.files(tenant))
        XCTAssertEqual(BuildSettings.files(tenant).map(\.path), [
            "android/tenant.gradle.properties", "android/values-ru/app_name.xml", "android/values/app_name.xml",
            "ios/Tenant.xcconfig", "ios/en.lproj/InfoPlist.strings", "ios/ru.lproj/InfoPlist.strings",
        ])
        // And the store listings (StoreListingTests).
        XCTAssertEqual(files.filter { StoreListings.isStoreListing($0.path) }, StoreListings.files(tenant))
        // And the colour assets (ColorAssetTests): the catalog and one set per colour of Theme.swift.
        XCTAssertEqual(files.filter { $0.path.hasPrefix(ColorAssets.catalog + "/") }, ColorAssets.files(tenant))
        let theme = String(decoding: try XCTUnwrap(files.first { $0.path == "swiftui/Theme.swift" }).contents, as: UTF8.self)
        XCTAssertEqual(ColorAssets.files(tenant).count - 1, theme.components(separatedBy: ": Color = adaptive(light:").count - 1, "a set per colour of Theme.swift")
        let dark = try XCTUnwrap(files.first { $0.path == "tokens/dark.tokens.json" })
        let document = try XCTUnwrap(ManifestParser.parse(String(decoding: dark.contents, as: UTF8.self), format: .json, file: "dark").0)
        XCTAssertEqual(document["color"]?["text"]?["primary"]?["$value"]?["hex"]?.string, "#f9fafb", "dark mode's value, no reference left")
        XCTAssertEqual(document["color"]?["text"]?["primary"]?["$type"]?.string, "color")
        // Rendering twice gives the same bytes (bundles must be reproducible).
        XCTAssertEqual(PlatformFiles.generate(tenant, templates: try PlatformFixtures.platformTemplates()).files, files)
    }

    func testATemplateSyntaxErrorIsReportedAtItsLineAndColumn() {
        let broken = PlatformTemplates(templates: [.init(outputPath: "x.txt", displayPath: "Templates/platform/x.txt.mustache", text: "ok\n{{#colors}}\n")])
        guard let tenant = PlatformFixtures.samples.first else { return XCTFail("no samples") }
        let (files, diagnostics) = PlatformFiles.generate(tenant, templates: broken)
        XCTAssertFalse(files.contains { $0.path == "x.txt" })
        XCTAssertEqual(diagnostics.first?.ruleID, PlatformRule.template)
        XCTAssertEqual(diagnostics.first?.location.file, "Templates/platform/x.txt.mustache")
    }

    // MARK: Real checks of every sample tenant's files

    /// Every sample tenant's generated files, written under one temporary folder.
    private func generateSamples() throws -> (root: URL, tenants: [String]) {
        let root = try PlatformFixtures.temporaryFolder()
        addTeardownBlock { try? FileManager.default.removeItem(at: root) }
        let templates = try PlatformFixtures.platformTemplates()
        var ids: [String] = []
        for tenant in PlatformFixtures.samples {
            let (files, diagnostics) = PlatformFiles.generate(tenant, templates: templates)
            XCTAssertEqual(diagnostics.filter { $0.severity == .error }, [], tenant.id)
            for file in files {
                let url = root.appendingPathComponent(tenant.id).appendingPathComponent(file.path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try file.contents.write(to: url)
            }
            ids.append(tenant.id)
        }
        XCTAssertGreaterThanOrEqual(ids.count, 6)
        return (root, ids)
    }

    /// SwiftUI is not on Linux, so the generated code is type-checked against a stub `SwiftUI`
    /// module declaring the few SwiftUI signatures it uses, exactly as Apple's SDK spells them
    /// (Fixtures/platform/swiftui-stub/SwiftUI.swift). `canImport(SwiftUI)` is then true and the
    /// whole file is checked in Swift 6 mode; only the UIKit and AppKit branches of `adaptive` are not.
    func testGeneratedSwiftTypeChecksInSwift6Mode() throws {
        let (root, tenants) = try generateSamples()
        let stub = PlatformFixtures.snapshots.appendingPathComponent("swiftui-stub/SwiftUI.swift")
        let modules = root.appendingPathComponent("modules")
        try FileManager.default.createDirectory(at: modules, withIntermediateDirectories: true)
        let emit = try PlatformFixtures.tool(["swiftc", "-emit-module", "-parse-as-library", "-module-name", "SwiftUI", "-swift-version", "6",
                                             "-emit-module-path", modules.appendingPathComponent("SwiftUI.swiftmodule").path, stub.path])
        XCTAssertEqual(emit.status, 0, emit.stderr)
        // swiftc wants distinct file names within a module; each tenant's enum has its own name.
        var files: [String] = []
        for id in tenants {
            let copy = modules.appendingPathComponent("\(id)-Theme.swift")
            try FileManager.default.copyItem(at: root.appendingPathComponent("\(id)/swiftui/Theme.swift"), to: copy)
            files.append(copy.path)
        }
        let check = try PlatformFixtures.tool(["swiftc", "-typecheck", "-parse-as-library", "-swift-version", "6", "-module-name", "Themes",
                                              "-I", modules.path] + files)
        XCTAssertEqual(check.status, 0, check.stderr)
    }

    /// What an iOS engineer would flag in review, on every sample brand: a colour rebuilt on each access (a computed
    /// `static var`), and an enum with nothing in it (a mode that changes no colour still had `Modes.Dark.Spacing {}`).
    func testGeneratedSwiftStoresItsColoursAndDeclaresNoEmptyEnum() throws {
        let (root, tenants) = try generateSamples()
        var checkedModes = 0
        for id in tenants {
            let text = try String(contentsOf: root.appendingPathComponent("\(id)/swiftui/Theme.swift"), encoding: .utf8)
            XCTAssertNil(text.firstMatch(of: try Regex(#"static var \w+: Color\b"#)), "\(id): a colour is a computed property")
            XCTAssertGreaterThan(text.matches(of: try Regex(#"public static let \w+: Color = "#)).count, 0, id)
            XCTAssertNil(text.firstMatch(of: try Regex(#"enum \w+ \{\s*\}"#)), "\(id): an empty enum")
            checkedModes += text.matches(of: try Regex(#"public enum Modes \{"#)).count
            // Dynamic Type: every tier of Typography has a TypeTier with the text style it scales as, and a bundled
            // family's Font scales on its own (relativeTo:); nothing is a fixed-size custom font.
            let tiers = text.matches(of: try Regex(#"\n        public static let (\w+): Font = "#)).count
            XCTAssertGreaterThan(tiers, 0, id)
            XCTAssertEqual(text.matches(of: try Regex(#"public static let \w+ = TypeTier\(size: [0-9.]+, weight: \.\w+, design: \.\w+, textStyle: \.\w+, family: "#)).count,
                           tiers, "\(id): a TypeTier per tier")
            XCTAssertNil(text.firstMatch(of: try Regex(#"\.custom\("[^"]*", size: [0-9.]+\)"#)), "\(id): a custom font that ignores Dynamic Type")
            XCTAssertTrue(text.contains("@ScaledMetric private var size: CGFloat"), id)
        }
        XCTAssertGreaterThan(checkedModes, 0, "a sample brand has modes")
    }

    /// Each tier scales as the iOS text style whose default size is nearest (ties to the larger style).
    func testTypeTiersTakeTheNearestTextStyle() {
        XCTAssertEqual([34, 32, 28, 25, 22, 20, 18, 17, 16, 15, 14, 13, 12, 11, 9].map { PlatformValues.swiftTextStyle(Double($0)) },
                       ["largeTitle", "largeTitle", "title", "title", "title2", "title3", "body", "body", "callout", "subheadline", "subheadline",
                        "footnote", "caption", "caption2", "caption2"])
    }

    func testGeneratedAndroidResourcesAreWellFormedXML() throws {
        let (root, tenants) = try generateSamples()
        let files = tenants.flatMap { id in
            ["values/colors.xml", "values-night/colors.xml", "values/dimens.xml"].map { root.appendingPathComponent("\(id)/android/\($0)").path }
        }
        let result = try PlatformFixtures.tool(["xmllint", "--noout"] + files)
        XCTAssertEqual(result.status, 0, result.stderr)
    }

    /// tinycss2 (PyPI) tokenises and parses the stylesheet, the @media block and every declaration
    /// list the way CSS Syntax Level 3 says; any parse error fails.
    func testGeneratedCSSParsesWithTinycss2() throws {
        let (root, tenants) = try generateSamples()
        let script = """
            import sys, tinycss2
            def errors(nodes, where):
                return [f"{where}: {n.message} (line {n.source_line})" for n in nodes if n.type == "error"]
            found, custom = [], 0
            for path in sys.argv[1:]:
                rules = tinycss2.parse_stylesheet(open(path, encoding="utf-8").read(), skip_whitespace=True, skip_comments=True)
                found += errors(rules, path)
                blocks = []
                for rule in rules:
                    if rule.type == "qualified-rule": blocks.append(rule.content)
                    elif rule.type == "at-rule" and rule.lower_at_keyword == "media":
                        inner = tinycss2.parse_rule_list(rule.content, skip_whitespace=True, skip_comments=True)
                        found += errors(inner, path)
                        blocks += [r.content for r in inner if r.type == "qualified-rule"]
                for block in blocks:
                    declarations = tinycss2.parse_declaration_list(block, skip_whitespace=True, skip_comments=True)
                    found += errors(declarations, path)
                    for d in declarations:
                        if d.type == "declaration":
                            custom += d.name.startswith("--")
                            found += errors(d.value, path)
            print(custom)
            if found: sys.exit("\\n".join(found))
            """
        let files = tenants.map { root.appendingPathComponent("\($0)/css/tokens.css").path }
        let result = try PlatformFixtures.tool(["python3", "-c", script] + files)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertGreaterThan(Int(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0, 100, "custom properties declared")
    }

    /// Debian's node-typescript: `tsc --strict --noEmit` type-checks, not just parses.
    func testGeneratedTypeScriptTypeChecksWithTsc() throws {
        let (root, tenants) = try generateSamples()
        let files = tenants.map { root.appendingPathComponent("\($0)/react-native/theme.ts").path }
        let result = try PlatformFixtures.tool(["tsc", "--noEmit", "--strict", "--target", "es2020", "--module", "es2020"] + files)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
    }

    /// kotlinc and the Compose libraries are not installable here (Debian's kotlin is 1.3 and has no
    /// Compose); the Kotlin grammar for tree-sitter (PyPI tree-sitter-kotlin) parses the file instead,
    /// so syntax is checked, types and imports are not.
    func testGeneratedKotlinParsesWithTreeSitterKotlin() throws {
        let (root, tenants) = try generateSamples()
        let script = """
            import sys, tree_sitter_kotlin
            from tree_sitter import Language, Parser
            parser = Parser(Language(tree_sitter_kotlin.language()))
            bad = []
            for path in sys.argv[1:]:
                tree = parser.parse(open(path, "rb").read())
                stack = [tree.root_node]
                while stack:
                    node = stack.pop()
                    if node.type == "ERROR" or node.is_missing:
                        bad.append(f"{path}:{node.start_point[0] + 1}:{node.start_point[1] + 1}: {node.type} {node.text[:60]!r}")
                    stack.extend(node.children)
            if bad: sys.exit("\\n".join(bad))
            """
        let files = tenants.map { root.appendingPathComponent("\($0)/compose/Theme.kt").path }
        let result = try PlatformFixtures.tool(["python3", "-c", script] + files)
        XCTAssertEqual(result.status, 0, result.stderr)
    }
}
