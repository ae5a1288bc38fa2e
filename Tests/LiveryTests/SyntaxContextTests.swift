import Foundation
import LiveryCheck
import LiveryDiagnostics
import LiveryLoad
import LiveryWorkflow
import XCTest

/// Diagnostics a creator can act on at once (issue 16, item 3): a syntax error names where the broken
/// construct began as well as where the parser gave up, and findings that only follow from a manifest
/// that did not load are replaced by one note.
final class SyntaxContextTests: XCTestCase {
    private func only(_ text: String, _ format: ManifestFormat, file: String = "t.yaml") throws -> Diagnostic {
        let (node, diagnostics) = ManifestParser.parse(text, format: format, file: file)
        XCTAssertNil(node, text)
        XCTAssertEqual(diagnostics.count, 1, "\(diagnostics.map(\.line))")
        return try XCTUnwrap(diagnostics.first)
    }

    private func at(_ line: Int, _ column: Int, _ file: String = "t.yaml") -> SourceLocation { SourceLocation(file: file, line: line, column: column) }

    func testAnUnclosedYAMLOpenerIsReportedWhereItOpens() throws {
        let cases: [(text: String, opener: SourceLocation, gaveUp: SourceLocation, what: String)] = [
            ("emoji: [a, b\nmax: 1\n", at(1, 8), at(2, 4), "this '['"),
            ("labels:\n  tones: {a: 1, b: 2\nmax: 1\n", at(2, 10), at(3, 4), "this '{'"),
            ("emoji: \"abc\nmax: 1\n", at(1, 8), at(3, 1), "this quoted string"),
            ("emoji: 'it''s\n", at(1, 8), at(2, 1), "this quoted string"),
            // A multi-byte first line: columns count characters, as elsewhere.
            ("title: «Привет»\nemoji: [a, b\nmax: 1\n", at(2, 8), at(3, 4), "this '['"),
        ]
        for (text, opener, gaveUp, what) in cases {
            let diagnostic = try only(text, .yaml)
            XCTAssertEqual(diagnostic.location, opener, text)
            XCTAssertTrue(diagnostic.message.hasPrefix("\(what) is not closed: "), diagnostic.message)
            XCTAssertTrue(diagnostic.message.hasSuffix("at line \(gaveUp.line), column \(gaveUp.column)"), diagnostic.message)
            XCTAssertEqual(diagnostic.related, [RelatedLocation("the parser gave up here", at: gaveUp)], text)
            XCTAssertEqual(diagnostic.ruleID, LoadRule.syntax)
        }
    }

    /// A quote left open is closed by the next quote in the file, often the opening quote of a value lines below, and
    /// the parser gives up just after that one: the finding is at the quote left open, naming both places.
    func testAQuoteClosedByALaterValuesQuoteIsReportedWhereItOpens() throws {
        let text = """
            app:
              displayName: "Acme Fitness
              bundleIds:
                ios: com.example.acme
            navigation:
              tabs:
                - {id: home, color: "{color.brand.primary}"}

            """
        let diagnostic = try only(text, .yaml)
        XCTAssertEqual(diagnostic.location, at(2, 16))
        XCTAssertEqual(diagnostic.message, "this quoted string is not closed on its line: it runs on to the quote at line 7, column 25, "
                       + "and the parser gave up after it (did not find expected key while parsing a block mapping)")
        XCTAssertEqual(diagnostic.related, [RelatedLocation("the parser gave up here", at: at(7, 26))])
        // A string that rightly runs over two lines, followed by an error elsewhere, keeps that error where it is.
        let fine = try only("title: \"one\n  two\"\nemoji: [a, b\nmax: 1\n", .yaml)
        XCTAssertEqual(fine.location, at(3, 8))
        XCTAssertTrue(fine.message.hasPrefix("this '[' is not closed: "), fine.message)
    }

    func testOtherYAMLErrorsStayWhereParsingStoppedAndNameWhereTheConstructBegan() throws {
        let diagnostic = try only("labels:\n  maxWords: 3\n tones: 2\n", .yaml)
        XCTAssertEqual(diagnostic.location, at(3, 2))
        XCTAssertEqual(diagnostic.message, "did not find expected key while parsing a block mapping")
        XCTAssertEqual(diagnostic.related, [RelatedLocation("a block mapping began here", at: at(1, 1))])
        // An error with no separate start keeps its single location.
        let plain = try only("a: b: c\n", .yaml)
        XCTAssertEqual(plain.location, at(1, 5))
        XCTAssertEqual(plain.related, [])
    }

    func testAnUnclosedJSONOpenerIsReportedWhereItOpens() throws {
        let cases: [(text: String, opener: SourceLocation, end: SourceLocation, what: String)] = [
            ("{\"a\": [1, 2", at(1, 7, "t.json"), at(1, 12, "t.json"), "this '['"),
            ("{\"a\": [1, 2,\n", at(1, 7, "t.json"), at(2, 1, "t.json"), "this '['"),
            ("{\"a\": {\"b\": 1", at(1, 7, "t.json"), at(1, 14, "t.json"), "this '{'"),
            ("{\"a\": 1,\n  ", at(1, 1, "t.json"), at(2, 3, "t.json"), "this '{'"),
            ("{\"a\": \"abc", at(1, 7, "t.json"), at(1, 11, "t.json"), "this string"),
            ("{\"a\": \"ab\\u00e9", at(1, 7, "t.json"), at(1, 16, "t.json"), "this string"),
            // The innermost unclosed construct is the one reported.
            ("{\"a\": [1, {\"x\": 2}", at(1, 7, "t.json"), at(1, 19, "t.json"), "this '['"),
            ("{\"é\": [\"ü\", {\"x\": 2", at(1, 13, "t.json"), at(1, 20, "t.json"), "this '{'"),
        ]
        for (text, opener, end, what) in cases {
            let diagnostic = try only(text, .json, file: "t.json")
            XCTAssertEqual(diagnostic.location, opener, text)
            XCTAssertEqual(diagnostic.message, "\(what) is not closed: the file ends at line \(end.line), column \(end.column)", text)
            XCTAssertEqual(diagnostic.related, [RelatedLocation("the file ends here", at: end)], text)
        }
        // Not at the end of the file: the error stays where it is, with no second place.
        let missingComma = try only("{\"a\": [1 2]}", .json, file: "t.json")
        XCTAssertEqual(missingComma.location, at(1, 10, "t.json"))
        XCTAssertEqual(missingComma.related, [])
    }

    func testRelatedLocationsReachTextJSONAndSARIF() throws {
        let diagnostic = try only("emoji: [a, b\nmax: 1\n", .yaml, file: "Tenants/x/voice.yaml")
        let report = DiagnosticReport(diagnostics: [diagnostic], rules: RuleSet.all.summaries, toolVersion: "test")
        XCTAssertTrue(report.render(.text).contains("    note: Tenants/x/voice.yaml:2:4: the parser gave up here\n"), report.render(.text))
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(report.render(.json).utf8)) as? [String: Any])
        let item = try XCTUnwrap((json["diagnostics"] as? [[String: Any]])?.first)
        let related = try XCTUnwrap(item["related"] as? [[String: Any]])
        XCTAssertEqual(related.first?["line"] as? Int, 2)
        XCTAssertEqual(related.first?["column"] as? Int, 4)
        XCTAssertEqual(related.first?["message"] as? String, "the parser gave up here")
        // SARIF 2.1.0 §3.27.22: relatedLocations are location objects with an id unique in the result and a message.
        let sarif = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(report.render(.sarif).utf8)) as? [String: Any])
        let result = try XCTUnwrap(((sarif["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])?.first)
        let location = try XCTUnwrap((result["relatedLocations"] as? [[String: Any]])?.first)
        XCTAssertEqual(location["id"] as? Int, 0)
        XCTAssertEqual((location["message"] as? [String: Any])?["text"] as? String, "the parser gave up here")
        let region = (location["physicalLocation"] as? [String: Any])?["region"] as? [String: Any]
        XCTAssertEqual(region?["startLine"] as? Int, 2)
        XCTAssertEqual(region?["startColumn"] as? Int, 4)
        let primary = ((result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["region"] as? [String: Any]
        XCTAssertEqual(primary?["startColumn"] as? Int, 8)
    }

    /// A declared fix reaches SARIF as `fixes` (§3.55) with the replacement's region and text, and JSON and text output.
    func testFixesReachSARIFJSONAndText() throws {
        let workspace = try ExampleWorkspace(RuleExample("misspelt lesson", files: [
            "example/tenant.yaml": RuleExample.tenant(appending: "rules:\n  voice.emojj: off\n"),
        ]))
        let output = try LiveryProcess.run(["validate", "--format", "sarif", "Tenants"], in: workspace.root)
        let log = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let result = try XCTUnwrap(((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])?.first { $0["ruleId"] as? String == "structure.rule-override" })
        let fix = try XCTUnwrap((result["fixes"] as? [[String: Any]])?.first)
        XCTAssertEqual((fix["description"] as? [String: Any])?["text"] as? String, "Rename 'voice.emojj' to 'voice.emoji'")
        let change = try XCTUnwrap((fix["artifactChanges"] as? [[String: Any]])?.first)
        XCTAssertEqual((change["artifactLocation"] as? [String: Any])?["uri"] as? String, "Tenants/example/tenant.yaml")
        let replacement = try XCTUnwrap((change["replacements"] as? [[String: Any]])?.first)
        let region = try XCTUnwrap(replacement["deletedRegion"] as? [String: Int])
        XCTAssertEqual(region, ["startLine": 12, "startColumn": 3, "endLine": 12, "endColumn": 14])
        XCTAssertEqual((replacement["insertedContent"] as? [String: Any])?["text"] as? String, "voice.emoji")
        let text = try LiveryProcess.run(["validate", "Tenants"], in: workspace.root)
        XCTAssertTrue(text.stdout.contains("    fix: Rename 'voice.emojj' to 'voice.emoji'\n"), text.stdout)
        let json = try LiveryProcess.run(["validate", "--format", "json", "Tenants"], in: workspace.root)
        XCTAssertTrue(json.stdout.contains("\"title\" : \"Rename 'voice.emojj' to 'voice.emoji'\""), json.stdout)
    }

    /// The samples, with the platform base's tokens broken: the creator gets one note, not a cascade.
    func testACreatorOfABaseThatDoesNotLoadGetsOneNote() throws {
        let workspace = try BuildTests.Workspace()
        let tokens = workspace.tenants.appendingPathComponent("companero/branding/tokens.json")
        var text = try String(contentsOf: tokens, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"$type\": \"color\"", with: "\"$type\": \"color\" \"oops\"")
        try text.write(to: tokens, atomically: true, encoding: .utf8)
        let result = Validator.validate(workspace: workspace.tenants, displayRoot: "Tenants", rules: .all)
        let lucia = result.diagnostics.filter { $0.location.file.hasPrefix("Tenants/companero-lucia/") }
        XCTAssertEqual(lucia.map(\.ruleID), ["structure.base-unloaded"], lucia.map(\.line).joined(separator: "\n"))
        let note = try XCTUnwrap(lucia.first)
        XCTAssertEqual(note.severity, .note)
        XCTAssertEqual(note.location.line, 6, "at the creator's extends")
        let base = result.diagnostics.filter { $0.location.file.hasPrefix("Tenants/companero/") }
        XCTAssertEqual(base.map(\.ruleID), ["structure.syntax"], "the base's own cascade (tab tokens it no longer has) is left out too: \(base.map(\.line))")
        XCTAssertEqual(note.related.map(\.location), base.map(\.location))
        // Other tenants are untouched, and the whole run still fails on the one real error.
        XCTAssertEqual(result.diagnostics.errorCount, 1)
        XCTAssertEqual(result.diagnostics.filter { !$0.location.file.hasPrefix("Tenants/companero") }, [])
        // --strict does not make a note an error.
        XCTAssertEqual(Validator.validate(workspace: workspace.tenants, displayRoot: "Tenants", rules: .all, strict: true).diagnostics.filter { $0.severity == .note }.count, 1)
    }

    /// A finding that does not follow from the unloaded manifest still stands.
    func testFindingsIndependentOfTheUnloadedManifestStillStand() throws {
        let workspace = try BuildTests.Workspace()
        try workspace.replace("companero/voice.yaml", "emoji: sparing", "emoji: [sparing")
        try workspace.replace("companero-lucia/programs/30-day-fitness-foundation.yaml", "      - day: 2\n", "      - day: 3\n")
        let result = Validator.validate(workspace: workspace.tenants, displayRoot: "Tenants", rules: .all)
        let lucia = result.diagnostics.filter { $0.location.file.hasPrefix("Tenants/companero-lucia/") }.map(\.ruleID)
        XCTAssertEqual(Set(lucia), ["content.program-days", "structure.base-unloaded"], "\(lucia)")
    }
}
