import Foundation
import LiveryDiagnostics
import LiveryLoad
import LiveryResolve
import XCTest

/// The DTCG 2025.10 token format: value shapes of every type, `$ref` JSON Pointers, `$extends`,
/// `$root`, located errors with the reference chain, and `livery tokens check|resolve`.
final class TokenTests: XCTestCase {
    static let fixtures = LiveryProcess.packageRoot.appendingPathComponent("Tests/LiveryTests/Fixtures/tokens")

    /// Parses and resolves one JSON document given as text; `↓` marks where the one expected finding points.
    func findings(_ marked: String) -> (ResolvedTokens, [Diagnostic], SourceLocation?) {
        var marker: SourceLocation?
        var text = ""
        var line = 1, column = 1
        for scalar in marked.unicodeScalars {
            if scalar == "↓" { marker = SourceLocation(file: "t.tokens.json", line: line, column: column); continue }
            text.unicodeScalars.append(scalar)
            if scalar == "\n" { line += 1; column = 1 } else { column += 1 }
        }
        let (node, parseDiagnostics) = ManifestParser.parse(text, format: .json, file: "t.tokens.json")
        guard let node else { return (TokenResolver.resolve([]).0, parseDiagnostics, marker) }
        let parsed = TokenParser.parseFile(node)
        let (resolved, found) = TokenResolver.resolve([parsed.tokens], extends: parsed.groupExtends, groupTypes: parsed.groupTypes)
        return (resolved, (parseDiagnostics + parsed.diagnostics + found).normalized(), marker)
    }

    func assertFinding(_ marked: String, rule: RuleID, _ phrase: String, file: StaticString = #filePath, line: UInt = #line) {
        let (_, diagnostics, marker) = findings(marked)
        XCTAssertEqual(diagnostics.count, 1, "\(diagnostics.map(\.line))", file: file, line: line)
        guard let finding = diagnostics.first else { return }
        XCTAssertEqual(finding.ruleID, rule, finding.line, file: file, line: line)
        XCTAssertEqual(finding.location, marker, finding.line, file: file, line: line)
        XCTAssertTrue(finding.message.contains(phrase), finding.message, file: file, line: line)
    }

    func testEveryTypeAndReferenceFormResolves() throws {
        let (resolved, diagnostics) = TokenSet.load([Self.fixtures.appendingPathComponent("all-types.tokens.json")])
        XCTAssertEqual(diagnostics.map(\.line), [])
        XCTAssertEqual(Set(resolved.types.values), Set(TokenType.all).subtracting([]), "every type is used")
        // $root, and an alias to it.
        XCTAssertEqual(resolved.values["color.on-brand"], resolved.values["color.srgb"])
        // A $ref token to a whole value, and into a value.
        XCTAssertEqual(resolved.values["pointer.whole"], resolved.values["color.p3"])
        XCTAssertEqual(resolved.values["pointer.red"]?.number, 1)
        XCTAssertEqual(resolved.types["pointer.red"], "number")
        XCTAssertEqual(resolved.values["pointer.mixed"]?["components"]?.items?.first?.number, 0.2)
        // Composite references resolved in place; a shadow array holding a reference to a shadow.
        XCTAssertEqual(resolved.values["border.focus"]?["style"]?.string, "dashed")
        XCTAssertEqual(resolved.values["shadow.layered"]?.items?.first, resolved.values["shadow.card"])
        XCTAssertEqual(resolved.values["type.body"]?["fontFamily"]?.items?.count, 3)
        // $extends: inherited tokens, and the group's own override.
        XCTAssertEqual(resolved.values["theme.dark.text"], resolved.values["color.hsl"])
        XCTAssertEqual(resolved.values["theme.dark.surface"], resolved.values["color.lab"])
        XCTAssertEqual(resolved.types["theme.dark.text"], "color")
        // Descriptions, deprecation and extensions survive into the resolved document.
        let document = resolved.document()
        XCTAssertEqual(document["color"]?["on-brand"]?["$deprecated"]?.string, "use color.brand")
        XCTAssertNotNil(document["size"]?["md"]?["$extensions"]?["com.example"])
    }

    func testValueShapesAreCheckedAtTheOffendingPart() {
        assertFinding(#"{"s": {"$type": "dimension", "a": {"$value": {"value": 4, "unit": ↓"pt"}}}}"#, rule: ResolveRule.tokenValue, "not a dimension unit")
        assertFinding(#"{"s": {"$type": "dimension", "a": {"$value": ↓"8px"}}}"#, rule: ResolveRule.tokenValue, "is an object {value, unit}")
        assertFinding(#"{"d": {"$type": "duration", "a": {"$value": {"value": 1, "unit": ↓"sec"}}}}"#, rule: ResolveRule.tokenValue, "not a duration unit")
        assertFinding(#"{"c": {"$type": "color", "a": {"$value": {"colorSpace": "srgb", "components": [0, ↓255, 0]}}}}"#, rule: ResolveRule.tokenValue, "from 0 to 1")
        assertFinding(#"{"c": {"$type": "color", "a": {"$value": {"colorSpace": ↓"rgb", "components": [0, 0, 0]}}}}"#, rule: ResolveRule.tokenValue, "not a DTCG colour space")
        assertFinding(#"{"c": {"$type": "color", "a": {"$value": {"colorSpace": "hsl", "components": ↓[0, 0]}}}}"#, rule: ResolveRule.tokenValue, "3 components")
        assertFinding(#"{"c": {"$type": "color", "a": {"$value": {"colorSpace": "srgb", "components": [0, 0, 0], "alpha": ↓1.5}}}}"#, rule: ResolveRule.tokenValue, "alpha")
        assertFinding(##"{"c": {"$type": "color", "a": {"$value": {"colorSpace": "srgb", "components": [0, 0, 0], "hex": ↓"#00000080"}}}}"##, rule: ResolveRule.tokenValue, "6-digit")
        assertFinding(##"{"c": {"$type": "color", "a": {"$value": ↓"#ff0000"}}}"##, rule: ResolveRule.tokenValue, "colorSpace")
        assertFinding(#"{"w": {"$type": "fontWeight", "a": {"$value": ↓"semibold"}}}"#, rule: ResolveRule.tokenValue, "not a font weight name")
        assertFinding(#"{"w": {"$type": "fontWeight", "a": {"$value": ↓1200}}}"#, rule: ResolveRule.tokenValue, "from 1 to 1000")
        assertFinding(#"{"e": {"$type": "cubicBezier", "a": {"$value": [↓1.2, 0, 0.5, 1]}}}"#, rule: ResolveRule.tokenValue, "x coordinates")
        assertFinding(#"{"e": {"$type": "cubicBezier", "a": {"$value": ↓[0, 0, 1]}}}"#, rule: ResolveRule.tokenValue, "4 numbers")
        assertFinding(#"{"n": {"$type": "number", "a": {"$value": ↓"1"}}}"#, rule: ResolveRule.tokenValue, "is a number")
        assertFinding(#"{"f": {"$type": "fontFamily", "a": {"$value": ↓[]}}}"#, rule: ResolveRule.tokenValue, "non-empty array")
        assertFinding(#"{"k": {"$type": "strokeStyle", "a": {"$value": ↓"wavy"}}}"#, rule: ResolveRule.tokenValue, "not a stroke style")
        assertFinding(#"{"k": {"$type": "strokeStyle", "a": {"$value": {"dashArray": [{"value": 1, "unit": "px"}], "lineCap": ↓"flat"}}}}"#, rule: ResolveRule.tokenValue, "lineCap")
        assertFinding(#"{"b": {"$type": "border", "a": {"$value": ↓{"color": "{b.x}", "width": {"value": 1, "unit": "px"}}}, "x": {"$type": "color", "$value": {"colorSpace": "srgb", "components": [0, 0, 0]}}}}"#,
                      rule: ResolveRule.tokenValue, "needs 'style'")
        assertFinding(#"{"t": {"$type": "transition", "a": {"$value": {"duration": {"value": 1, "unit": "s"}, "delay": {"value": 0, "unit": "s"}, "timingFunction": [0, 0, 1, 1], ↓"easing": 1}}}}"#,
                      rule: ResolveRule.tokenValue, "not a member of a transition")
        assertFinding(#"{"h": {"$type": "shadow", "a": {"$value": [↓{"color": "{h.c}", "offsetX": {"value": 0, "unit": "px"}, "offsetY": {"value": 0, "unit": "px"}, "blur": {"value": 0, "unit": "px"}}]}, "c": {"$type": "color", "$value": {"colorSpace": "srgb", "components": [0, 0, 0]}}}}"#,
                      rule: ResolveRule.tokenValue, "needs 'spread'")
        assertFinding(#"{"h": {"$type": "shadow", "a": {"$value": {"color": "{h.c}", "offsetX": {"value": 0, "unit": "px"}, "offsetY": {"value": 0, "unit": "px"}, "blur": {"value": 0, "unit": "px"}, "spread": {"value": 0, "unit": "px"}, "inset": ↓"yes"}}, "c": {"$type": "color", "$value": {"colorSpace": "srgb", "components": [0, 0, 0]}}}}"#,
                      rule: ResolveRule.tokenValue, "true or false")
        assertFinding(#"{"g": {"$type": "gradient", "a": {"$value": [{"color": {"colorSpace": "srgb", "components": [0, 0, 0]}, "position": ↓2}]}}}"#, rule: ResolveRule.tokenValue, "from 0 to 1")
        assertFinding(#"{"y": {"$type": "typography", "a": {"$value": {"fontFamily": "Inter", "fontSize": {"value": 16, "unit": ↓"em"}, "fontWeight": 400, "letterSpacing": {"value": 0, "unit": "px"}, "lineHeight": 1.2}}}}"#,
                      rule: ResolveRule.tokenValue, "not a dimension unit")
        assertFinding(#"{"x": {↓"a": {"$value": 1}}}"#, rule: ResolveRule.tokenType, "no $type")
    }

    func testReferenceErrorsShowTheChain() {
        // An unknown target reached through other tokens: located at the broken reference, with the way there.
        let (_, unknown, _) = findings(#"{"c": {"$type": "color", "a": {"$value": "{c.b}"}, "b": {"$value": "{c.missing}"}}}"#)
        XCTAssertEqual(unknown.count, 1, "\(unknown)")
        XCTAssertEqual(unknown.first?.ruleID, ResolveRule.aliasUnknown)
        XCTAssertTrue(unknown.first?.message.contains("'c.b' refers to '{c.missing}', which is not a token (reached through 'c.a')") ?? false, unknown.first?.message ?? "")
        // A type mismatch names the chain.
        assertFinding(#"{"c": {"$type": "color", "v": {"$value": {"colorSpace": "srgb", "components": [0, 0, 0]}}}, "s": {"$type": "dimension", "a": {"$value": ↓"{c.v}"}}}"#,
                      rule: ResolveRule.aliasType, "(s.a → c.v)")
        // A cycle names every member, each at its own reference.
        let (_, cycle, _) = findings(#"{"c": {"$type": "color", "a": {"$value": "{c.b}"}, "b": {"$value": "{c.c}"}, "c": {"$value": "{c.a}"}}}"#)
        XCTAssertEqual(cycle.count, 3)
        XCTAssertTrue(cycle.allSatisfy { $0.ruleID == ResolveRule.aliasCycle && $0.message.contains("c.a → c.b → c.c → c.a") }, "\(cycle)")
        // A pointer into a part that does not exist.
        assertFinding(##"{"c": {"$type": "color", "v": {"$value": {"colorSpace": "srgb", "components": [0, 0, 0]}}}, "n": {"$type": "number", "a": {"$ref": ↓"#/c/v/$value/components/7"}}}"##,
                      rule: ResolveRule.aliasUnknown, "has no components/7")
        // $value and $ref together.
        assertFinding(##"{"n": {"$type": "number", "a": {"$value": 1, "$ref": ↓"#/n/b/$value"}, "b": {"$value": 2}}}"##, rule: ResolveRule.tokenStructure, "both $value and $ref")
    }

    func testGroupExtendsComposeAndReportCyclesAndUnknownGroups() {
        let (resolved, diagnostics, _) = findings("""
            {"a": {"$type": "number", "x": {"$value": 1}, "y": {"$value": 2}},
             "b": {"$extends": "{a}", "y": {"$type": "number", "$value": 20}},
             "c": {"$extends": "#/b", "z": {"$type": "number", "$value": 300}}}
            """)
        XCTAssertEqual(diagnostics.map(\.line), [])
        XCTAssertEqual(resolved.values["c.x"]?.number, 1, "extends chain: c ← b ← a")
        XCTAssertEqual(resolved.values["c.y"]?.number, 20, "b's override is inherited by c")
        XCTAssertEqual(resolved.values["c.z"]?.number, 300)
        let (_, cycle, _) = findings(#"{"a": {"$extends": "{b}", "n": {"$type": "number", "$value": 1}}, "b": {"$extends": "{a}", "m": {"$type": "number", "$value": 1}}}"#)
        XCTAssertEqual(cycle.filter { $0.ruleID == ResolveRule.aliasCycle }.count, 2, "\(cycle)")
        assertFinding(#"{"a": {"$extends": ↓"{nope}", "n": {"$type": "number", "$value": 1}}}"#, rule: ResolveRule.aliasUnknown, "not a group of tokens")
    }

    func testGroupTypeIsInheritedThroughExtends() {
        // The format's own example (Format §6.4): 'button-primary' has no $type; its tokens take 'button''s.
        let (resolved, diagnostics, _) = findings("""
            {"button": {"$type": "color",
               "background": {"$value": {"colorSpace": "srgb", "components": [0, 0.4, 0.8], "hex": "#0066cc"}},
               "states": {"$type": "dimension", "ring": {"$value": {"value": 2, "unit": "px"}}}},
             "button-primary": {"$extends": "{button}",
               "background": {"$value": {"colorSpace": "srgb", "components": [0.8, 0, 0.4], "hex": "#cc0066"}},
               "states": {"halo": {"$value": {"value": 4, "unit": "px"}}}},
             "theme": {"$type": "number", "button-ghost": {"$extends": "#/button-primary", "text": {"$value": {"colorSpace": "srgb", "components": [1, 1, 1]}}}}}
            """)
        XCTAssertEqual(diagnostics.map(\.line), [])
        XCTAssertEqual(resolved.types["button-primary.background"], "color")
        XCTAssertEqual(resolved.types["button-primary.states.halo"], "dimension", "a nested group takes the type of the group it stands for")
        XCTAssertEqual(resolved.types["theme.button-ghost.text"], "color", "the extended group's type comes before the parent's, through a chain")
        XCTAssertEqual(resolved.types["theme.button-ghost.background"], "color")
        // The inherited type checks the value, located at the offending part.
        assertFinding(#"{"a": {"$type": "dimension", "x": {"$value": {"value": 1, "unit": "px"}}}, "b": {"$extends": "{a}", "y": {"$value": {"value": 2, "unit": ↓"pt"}}}}"#,
                      rule: ResolveRule.tokenValue, "not a dimension unit")
        // No type anywhere: still reported, at the token's name.
        assertFinding(#"{"a": {"x": {"$type": "number", "$value": 1}}, "b": {"$extends": "{a}", ↓"y": {"$value": 2}}}"#, rule: ResolveRule.tokenType, "no $type")
        // The extended group may be in an earlier file (a creator extending its platform's group).
        let base = #"{"palette": {"$type": "color", "ink": {"$value": {"colorSpace": "srgb", "components": [0, 0, 0]}}}}"#
        let top = #"{"brand": {"$extends": "{palette}", "accent": {"$value": {"colorSpace": "srgb", "components": [1, 0.5, 0]}}}}"#
        let parsed = [base, top].compactMap { ManifestParser.parse($0, format: .json, file: "t.tokens.json").0 }.map(TokenParser.parseFile)
        XCTAssertEqual(parsed.flatMap(\.diagnostics).map(\.line), [])
        let (layered, found) = TokenResolver.resolve(parsed.map(\.tokens), extends: parsed.flatMap(\.groupExtends),
                                                     groupTypes: parsed.reduce(into: [:]) { $0.merge($1.groupTypes) { _, new in new } })
        XCTAssertEqual(found.map(\.line), [])
        XCTAssertEqual(layered.types["brand.accent"], "color")
    }

    func testMetadataPropertiesOfTheWrongTypeAreReportedAtTheValue() {
        assertFinding(#"{"n": {"$type": "number", "a": {"$value": 1, "$deprecated": ↓1}}}"#, rule: ResolveRule.tokenProperty, "$deprecated is true, false or a string")
        assertFinding(#"{"n": {"$type": "number", "a": {"$value": 1, "$deprecated": ↓null}}}"#, rule: ResolveRule.tokenProperty, "found null")
        assertFinding(#"{"n": {"$type": "number", "a": {"$value": 1, "$description": ↓{"en": "one"}}}}"#, rule: ResolveRule.tokenProperty, "$description is a string, found a mapping")
        assertFinding(#"{"n": {"$type": "number", "a": {"$value": 1, "$extensions": ↓["com.example"]}}}"#, rule: ResolveRule.tokenProperty, "$extensions is an object")
        // The same properties of groups, and of the file's root.
        assertFinding(#"{"m": {"$description": ↓false, "$type": "number", "b": {"$value": 2}}}"#, rule: ResolveRule.tokenProperty, "$description is a string, found a boolean")
        assertFinding(#"{"m": {"$deprecated": ↓{"since": "2.0"}, "$type": "number", "b": {"$value": 2}}}"#, rule: ResolveRule.tokenProperty, "$deprecated is true, false or a string")
        assertFinding(#"{"$extensions": ↓true, "n": {"$type": "number", "a": {"$value": 1}}}"#, rule: ResolveRule.tokenProperty, "$extensions is an object")
        // Every allowed form is clean.
        let (_, clean, _) = findings(#"{"n": {"$type": "number", "$deprecated": false, "$description": "", "$extensions": {}, "a": {"$value": 1, "$deprecated": true}, "b": {"$value": 2, "$deprecated": "use n.a"}}}"#)
        XCTAssertEqual(clean.map(\.line), [])
        // Exact text and place of one finding, as `livery tokens check` prints it.
        let (_, located, _) = findings("{\"n\": {\"$type\": \"number\",\n  \"a\": {\"$value\": 1, \"$deprecated\": 0}}}")
        XCTAssertEqual(located.map(\.line), ["t.tokens.json:2:37: error: $deprecated is true, false or a string saying why, found an integer [branding.token-property]"])
    }

    func testReferencesIntoValuesAreTypeCheckedAgainstWhatTakesThem() {
        let base = #""base": {"$type": "dimension", "space": {"$value": {"value": 16, "unit": "px"}}}, "c": {"$type": "color", "ink": {"$value": {"colorSpace": "srgb", "components": [0.2, 0, 0]}}}"#
        // A token's $ref into a value: a dimension cannot take a bare number, nor a colour's component.
        assertFinding(##"{\##(base), "s": {"$type": "dimension", "half": {"$ref": ↓"#/base/space/$value/value"}}}"##, rule: ResolveRule.aliasType,
                      "'s.half' has type dimension, but '#/base/space/$value/value' points at an integer, not a dimension value")
        assertFinding(##"{\##(base), "s": {"$type": "dimension", "red": {"$ref": ↓"#/c/ink/$value/components/0"}}}"##, rule: ResolveRule.aliasType, "points at a number")
        // A reference inside a composite value, whole token or pointer, must bring what its place takes.
        assertFinding(##"{\##(base), "b": {"$type": "border", "x": {"$value": {"color": ↓"{base.space}", "width": "{base.space}", "style": "solid"}}}}"##,
                      rule: ResolveRule.aliasType, "'b.x' takes a color at color, but '{base.space}' is a dimension token")
        assertFinding(##"{\##(base), "h": {"$type": "shadow", "x": {"$value": [{"color": "{c.ink}", "offsetX": ↓{"$ref": "#/base/space/$value/value"}, "offsetY": "{base.space}", "blur": "{base.space}", "spread": "{base.space}"}]}}}"##,
                      rule: ResolveRule.aliasType, "'h.x' takes a dimension value at 0/offsetX, but '#/base/space/$value/value' points at an integer")
        assertFinding(##"{\##(base), "d": {"$type": "dimension", "x": {"$value": {"value": ↓{"$ref": "#/base/space/$value/unit"}, "unit": "px"}}}}"##,
                      rule: ResolveRule.aliasType, "takes a number at value")
        // A pointer landing on a reference follows it, then checks what it brings, reported at the pointer.
        let (followed, chained, _) = findings(##"{\##(base), "b": {"$type": "border", "x": {"$value": {"color": "{c.ink}", "width": "{base.space}", "style": "solid"}}}, "k": {"$type": "color", "ink": {"$ref": "#/b/x/$value/color"}}, "w": {"$type": "dimension", "bad": {"$ref": "#/b/x/$value/color"}}}"##)
        XCTAssertEqual(followed.values["k.ink"], followed.values["c.ink"], "no reference left in the value")
        XCTAssertEqual(chained.map(\.ruleID), [ResolveRule.aliasType], "\(chained.map(\.line))")
        XCTAssertTrue(chained.first?.message.contains("'w.bad' takes a dimension, but '{c.ink}' is a color token") ?? false, chained.first?.message ?? "")
        XCTAssertEqual(chained.first?.location.column, 395, "at w.bad's $ref, not at the border's member")
        // What fits is clean: the format's own examples of property references.
        let (_, clean, _) = findings(##"""
            {\##(base), "l": {"$type": "dimension", "small": {"$value": {"value": {"$ref": "#/base/space/$value/value"}, "unit": "rem"}},
              "large": {"$value": {"value": 32, "unit": {"$ref": "#/base/space/$value/unit"}}}},
             "n": {"$type": "number", "hue": {"$ref": "#/c/ink/$value/components/0"}},
             "k": {"$type": "color", "mix": {"$value": {"colorSpace": "srgb", "components": [{"$ref": "#/c/ink/$value/components/0"}, 0.5, 0.7]}}}}
            """##)
        XCTAssertEqual(clean.map(\.line), [])
    }

    func testTokensCommandsCheckAndResolveFiles() throws {
        let fixture = Self.fixtures.appendingPathComponent("all-types.tokens.json").path
        let check = try LiveryProcess.run(["tokens", "check", fixture])
        XCTAssertEqual(check.status, 0, check.stdout)
        XCTAssertTrue(check.stdout.contains("0 errors, 0 warnings"), check.stdout)
        // A creator's file refers to its platform's tokens: alone it fails, layered on the base it passes.
        let lucia = "Tenants/companero-lucia/branding/tokens.json"
        let alone = try LiveryProcess.run(["tokens", "check", lucia])
        XCTAssertEqual(alone.status, 1)
        XCTAssertTrue(alone.stdout.contains("tokens.json:55:29: error: 'color.component.streak.track' refers to '{color.palette.neutral-200}'"), alone.stdout)
        XCTAssertEqual(try LiveryProcess.run(["tokens", "check", "Tenants/companero/branding/tokens.json", lucia]).status, 0)

        // `resolve` prints a DTCG document with no references left, which the official schemas accept.
        let resolve = try LiveryProcess.run(["tokens", "resolve", fixture])
        XCTAssertEqual(resolve.status, 0, resolve.stderr)
        XCTAssertFalse(resolve.stdout.contains("\"{"), "no curly references left")
        XCTAssertFalse(resolve.stdout.contains("$ref"), "no pointers left")
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("resolved-\(UUID().uuidString).tokens.json")
        defer { try? FileManager.default.removeItem(at: output) }
        try Data(resolve.stdout.utf8).write(to: output)
        // Only the output: the official schema cannot check the input file itself, where tokens take
        // their type from their group, because a bare string such as "regular" or "dashed" matches
        // both fontFamily and the group's own type, and the schema says `oneOf`.
        try Self.assertOfficialSchemaAccepts([output.path])
    }

    func testEverySamplesResolvedTokensInEveryModeFollowTheOfficialSchemas() throws {
        var files: [String] = []
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("resolved-samples-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, layers) in [("physio-light", ["physio-clinic/branding/tokens.json"]), ("physio-dark", ["physio-clinic/branding/tokens.json", "physio-clinic/branding/dark.tokens.json"]),
                               ("urbannest-dark", ["urbannest/branding/tokens.json", "urbannest/branding/dark.tokens.json"]), ("sonic", ["sonic-walkscape/branding/tokens.json"]),
                               ("travel-dark", ["travel-experiences/branding/tokens.json", "travel-experiences/branding/dark.tokens.json"]),
                               ("lucia", ["companero/branding/tokens.json", "companero-lucia/branding/tokens.json"])] {
            let result = try LiveryProcess.run(["tokens", "resolve"] + layers.map { "Tenants/" + $0 })
            XCTAssertEqual(result.status, 0, "\(name): \(result.stderr)")
            let file = folder.appendingPathComponent("\(name).tokens.json")
            try Data(result.stdout.utf8).write(to: file)
            files.append(file.path)
        }
        try Self.assertOfficialSchemaAccepts(files)
    }

    /// Validates files against the official DTCG 2025.10 format schema with python-jsonschema.
    static func assertOfficialSchemaAccepts(_ files: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        // Beside the repository on the team's machines; CI clones elsewhere (/tmp), so the team's
        // shared folder is the second place, as scripts/tuf-conformance.sh looks for its suite.
        let candidates = [LiveryProcess.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data/dtcg-2025.10"),
                          URL(fileURLWithPath: "/work/shared/data/dtcg-2025.10")]
        let dtcg = candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("format.json").path) } ?? candidates[0]
        guard FileManager.default.fileExists(atPath: dtcg.appendingPathComponent("format.json").path) else {
            throw XCTSkip("the official DTCG 2025.10 schemas are not at \(dtcg.path) (they sit beside the repository on the team's machines)")
        }
        let script = """
            import json, pathlib, sys
            import jsonschema
            from referencing import Registry, Resource
            dtcg = pathlib.Path(sys.argv[1])
            registry = Registry().with_resources([(json.loads(p.read_text())["$id"], Resource.from_contents(json.loads(p.read_text()))) for p in dtcg.rglob("*.json")])
            schema = json.loads((dtcg / "format.json").read_text())
            validator = jsonschema.validators.validator_for(schema)(schema, registry=registry)
            bad = [f"{f}: {e.json_path}: {e.message[:160]}" for f in sys.argv[2:] for e in validator.iter_errors(json.loads(pathlib.Path(f).read_text()))]
            print("\\n".join(bad) or "ok")
            sys.exit(1 if bad else 0)
            """
        let result = try LiveryProcess.tool(["python3", "-c", script, dtcg.path] + files)
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr, file: file, line: line)
    }
}
