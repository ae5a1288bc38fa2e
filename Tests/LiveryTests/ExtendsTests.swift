import LiveryCheck
import LiveryDiagnostics
import LiveryLoad
import LiveryResolve
import XCTest

/// Pins the merge semantics of `extends` documented in docs/extends.md.
final class ExtendsTests: XCTestCase {
    private func node(_ yaml: String) throws -> Node {
        let (node, diagnostics) = ManifestParser.parse(yaml, format: .yaml, file: "t.yaml")
        XCTAssertEqual(diagnostics, [])
        return try XCTUnwrap(node)
    }

    func testMappingsMergeKeyByKeyAndEverythingElseIsReplaced() throws {
        let parent = try node("""
            name: Base
            features: {chat: true, video: false}
            modules: [a, b]
            app: {displayName: Base, bundleIds: {ios: com.base.app}}
            """)
        let child = try node("""
            features: {video: true}
            modules: [c]
            app: {bundleIds: {android: com.child.app}}
            """)
        let merged = ManifestMerge.merge(parent: parent, child: child)
        XCTAssertEqual(merged["name"]?.string, "Base")
        XCTAssertEqual(merged["features"]?["chat"]?.bool, true)
        XCTAssertEqual(merged["features"]?["video"]?.bool, true)
        XCTAssertEqual(merged["modules"]?.items?.compactMap(\.string), ["c"], "lists are replaced, not concatenated")
        XCTAssertEqual(merged["app"]?["displayName"]?.string, "Base")
        XCTAssertEqual(merged["app"]?["bundleIds"]?["ios"]?.string, "com.base.app")
        XCTAssertEqual(merged["app"]?["bundleIds"]?["android"]?.string, "com.child.app")
        // Inherited values keep the parent's location, so findings point at the file that wrote them.
        XCTAssertEqual(merged["name"]?.location.line, 1)
    }

    func testIdentityKeysAreNeverInherited() throws {
        let parent = try node("id: base\nkind: brand\nextends: root\nname: Base\n")
        let child = try node("name: Child\n")
        let merged = ManifestMerge.merge(parent: parent, child: child, skipping: ManifestMerge.identityKeys)
        XCTAssertNil(merged["id"])
        XCTAssertNil(merged["kind"])
        XCTAssertNil(merged["extends"])
        XCTAssertEqual(merged["name"]?.string, "Child")
    }

    private func threeGenerations() throws -> ExampleWorkspace {
        try ExampleWorkspace(files: [
            "root/tenant.yaml": """
                id: root
                kind: brand
                name: Root
                locales: {default: en, supported: [en, es]}
                features: {chat: true, video: false}
                navigation:
                  tabs:
                    - {id: home, icon: house, label: nav.home}
                    - {id: me, icon: person, label: nav.me}
                branding:
                  tokens: [tokens.json]
                  modes: {dark: [dark.tokens.json]}

                """,
            "root/tokens.json": """
                {"color": {"$type": "color",
                  "white": {"$value": {"colorSpace": "srgb", "components": [1, 1, 1]}},
                  "black": {"$value": {"colorSpace": "srgb", "components": [0, 0, 0]}},
                  "background": {"$value": "{color.white}"},
                  "text": {"$value": "{color.black}"}}}

                """,
            "root/dark.tokens.json": "{\"color\": {\"$type\": \"color\", \"background\": {\"$value\": \"{color.black}\"}}}\n",
            "root/locales/en.yaml": "nav: {home: Home, me: Me}\ngreeting: Hello\n",
            "root/locales/es.yaml": "nav: {home: Inicio, me: Yo}\ngreeting: Hola\n",
            "brand/tenant.yaml": """
                id: brand
                kind: brand
                extends: root
                name: Brand
                locales: {default: en, supported: [en, es]}
                features: {video: true}
                branding:
                  tokens: [tokens.json]

                """,
            "brand/tokens.json": "{\"color\": {\"$type\": \"color\", \"text\": {\"$value\": {\"colorSpace\": \"srgb\", \"components\": [0.1, 0.1, 0.1]}}}}\n",
            "brand/locales/en.yaml": "greeting: Welcome\n",
            "brand/locales/es.yaml": "greeting: Bienvenida\n",
            "coach/tenant.yaml": "id: coach\nkind: creator\nextends: brand\nname: Coach\nlocales: {default: en, supported: [en]}\n",
            "coach/locales/en.yaml": "bio: I coach.\n",
        ])
    }

    func testChainsMergeRootFirst() throws {
        let workspace = try threeGenerations()
        let result = workspace.validate()
        XCTAssertEqual(result.diagnostics.map(\.line), [])
        let coach = try XCTUnwrap(result.tenants.first { $0.id == "coach" })
        XCTAssertEqual(coach.ancestors.map(\.id), ["root", "brand"])
        XCTAssertEqual(coach.tenant?["features"]?["chat"]?.bool, true)
        XCTAssertEqual(coach.tenant?["features"]?["video"]?.bool, true)
        XCTAssertEqual(coach.tenant?["kind"]?.string, "creator")
        XCTAssertEqual(coach.tenant?["navigation"]?["tabs"]?.items?.count, 2)
        // Locale bundles merge key by key; the nearest tenant's message wins.
        let english = try XCTUnwrap(coach.locales["en"])
        XCTAssertEqual(english.message("greeting")?.text, "Welcome")
        XCTAssertEqual(english.message("nav.home")?.text, "Home")
        XCTAssertEqual(english.message("bio")?.text, "I coach.")
        XCTAssertTrue(english.message("greeting")?.location.file.hasPrefix("Tenants/brand/") == true)
    }

    func testTokenLayersApplyParentThenChildThenModes() throws {
        let result = try threeGenerations().validate()
        let brand = try XCTUnwrap(result.tenants.first { $0.id == "brand" })
        let light = try XCTUnwrap(brand.tokens["default"])
        XCTAssertEqual(light.values["color.text"]?["components"]?.items?.first?.number, 0.1, "the child's token overrides the parent's")
        XCTAssertEqual(light.values["color.background"]?["components"]?.items?.first?.number, 1)
        let dark = try XCTUnwrap(brand.tokens["dark"], "modes declared by an ancestor apply to descendants")
        XCTAssertEqual(dark.values["color.background"]?["components"]?.items?.first?.number, 0)
    }

    func testThreeTenantCycleIsReportedOnce() throws {
        let locale = "locales: {default: en, supported: [en]}\n"
        let workspace = try ExampleWorkspace(files: [
            "a/tenant.yaml": "id: a\nkind: brand\nname: A\nextends: b\n" + locale,
            "b/tenant.yaml": "id: b\nkind: brand\nname: B\nextends: c\n" + locale,
            "c/tenant.yaml": "id: c\nkind: brand\nname: C\nextends: a\n" + locale,
        ])
        let cycles = workspace.validate().diagnostics.filter { $0.ruleID == "structure.extends-cycle" }
        XCTAssertEqual(cycles.count, 1)
        XCTAssertEqual(cycles.first?.location, SourceLocation(file: "Tenants/a/tenant.yaml", line: 4, column: 10))
        XCTAssertTrue(cycles.first?.message.contains("a → b → c → a") == true, cycles.first?.message ?? "")
    }

    func testValidatingOneTenantAlsoChecksItsAncestors() throws {
        let workspace = try threeGenerations()
        try workspace.write("root/locales/es.yaml", "nav: {home: Inicio}\ngreeting: Hola\n")
        let result = workspace.validate(only: ["coach"])
        XCTAssertEqual(Set(result.checked), ["root", "brand", "coach"])
        XCTAssertTrue(result.diagnostics.contains { $0.ruleID == "localization.missing-key" && $0.location.file == "Tenants/root/locales/es.yaml" })
    }
}
