import Foundation
import LiveryCheck
import LiveryDiagnostics
import LiveryLoad
import LiveryRender
import LiveryWorkflow
import XCTest

final class CommandLineTests: XCTestCase {
    func testBrokenTenantExitsOneWithTheExactLine() throws {
        let workspace = try ExampleWorkspace(RuleExample("unknown key", files: ["example/tenant.yaml": RuleExample.tenant(appending: "featurs:\n  chat: true\n")]))
        let output = try LiveryProcess.run(["validate", "Tenants"], in: workspace.root)
        XCTAssertEqual(output.status, 1)
        XCTAssertTrue(output.stdout.contains("Tenants/example/tenant.yaml:11:1: error: unknown key 'featurs' in the manifest [structure.unknown-key]"), output.stdout)
        XCTAssertTrue(output.stdout.contains("hint: did you mean 'features'?"), output.stdout)
    }

    func testCleanTenantExitsZeroAndWarningsFailOnlyWhenStrict() throws {
        let workspace = try ExampleWorkspace(RuleExample("extra key", files: [
            "example/tenant.yaml": RuleExample.base["example/tenant.yaml"]!.replacingOccurrences(of: "supported: [en]", with: "supported: [en, ru]"),
            "example/locales/ru.yaml": "nav:\n  home: Главная\n  profile: Профиль\n  extra: Лишний\n",
        ]))
        let lenient = try LiveryProcess.run(["validate", "Tenants/example"], in: workspace.root)
        XCTAssertEqual(lenient.status, 0, lenient.stdout)
        XCTAssertTrue(lenient.stdout.contains("warning: key 'nav.extra'"), lenient.stdout)
        let strict = try LiveryProcess.run(["validate", "--strict", "Tenants/example"], in: workspace.root)
        XCTAssertEqual(strict.status, 1)
    }

    func testUsageErrorsExitTwo() throws {
        XCTAssertEqual(try LiveryProcess.run(["validate", "--format", "xml"]).status, 2)
        XCTAssertEqual(try LiveryProcess.run(["validate", "/nonexistent-folder"]).status, 2)
        XCTAssertEqual(try LiveryProcess.run(["no-such-command"]).status, 2)
        XCTAssertEqual(try LiveryProcess.run(["--help"]).status, 0)
    }

    /// `livery help TOPIC` shows the topic's help (exit 0); a topic that names no command is a usage error (exit 2)
    /// naming it and the commands there are, not the top-level help with exit 0.
    func testAnUnknownHelpTopicIsAUsageError() throws {
        let unknown = try LiveryProcess.run(["help", "nosuch"])
        XCTAssertEqual(unknown.status, 2, unknown.stdout)
        XCTAssertEqual(unknown.stdout, "")
        XCTAssertTrue(unknown.stderr.hasPrefix("Error: no help topic 'nosuch': the commands of 'livery' are validate, tokens, build, publish, "), unknown.stderr)
        let nested = try LiveryProcess.run(["help", "keys", "nosuch"])
        XCTAssertEqual(nested.status, 2, nested.stdout)
        XCTAssertTrue(nested.stderr.hasPrefix("Error: no help topic 'nosuch': the commands of 'livery keys' are "), nested.stderr)
        let known = try LiveryProcess.run(["help", "keys", "list"])
        XCTAssertEqual(known.status, 0, known.stderr)
        XCTAssertTrue(known.stdout.contains("USAGE: livery keys list"), known.stdout)
    }

    func testAnyWayOfNamingATenantFolderWorks() throws {
        let workspace = try ExampleWorkspace(RuleExample("unknown key", files: ["example/tenant.yaml": RuleExample.tenant(appending: "featurs: {}\n")]))
        let inside = workspace.tenants.appendingPathComponent("example")
        let cases: [([String], URL, String)] = [
            (["validate", "."], inside, "../example/tenant.yaml:11:1:"),
            (["validate"], inside, "../example/tenant.yaml:11:1:"),
            (["validate", "Tenants/../Tenants/example/."], workspace.root, "Tenants/example/tenant.yaml:11:1:"),
            (["validate", "Tenants/example/"], workspace.root, "Tenants/example/tenant.yaml:11:1:"),
            (["validate", "."], workspace.tenants, "./example/tenant.yaml:11:1:"),
            (["validate", inside.path], workspace.root, "Tenants/example/tenant.yaml:11:1:"),
        ]
        for (arguments, directory, expected) in cases {
            let output = try LiveryProcess.run(arguments, in: directory)
            XCTAssertEqual(output.status, 1, "\(arguments) in \(directory.lastPathComponent): \(output.stderr)")
            XCTAssertTrue(output.stdout.hasPrefix(expected), "\(arguments) in \(directory.lastPathComponent): \(output.stdout)")
        }
    }

    func testJSONOutputParses() throws {
        let workspace = try ExampleWorkspace(RuleExample("duplicate", files: ["example/voice.yaml": "emoji: none\nemoji: liberal\n"]))
        let output = try LiveryProcess.run(["validate", "--format", "json", "Tenants"], in: workspace.root)
        XCTAssertEqual(output.status, 1)
        let object = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any]
        let diagnostics = try XCTUnwrap(object?["diagnostics"] as? [[String: Any]])
        XCTAssertEqual(diagnostics.first?["rule"] as? String, "structure.duplicate-key")
        XCTAssertEqual(diagnostics.first?["line"] as? Int, 2)
        XCTAssertEqual(diagnostics.first?["column"] as? Int, 1)
        XCTAssertEqual((object?["summary"] as? [String: Int])?["errors"], 1)
    }

    func testSARIFIsReadByAnIndependentSARIFTool() throws {
        let workspace = try ExampleWorkspace(RuleExample("two findings", files: [
            "example/voice.yaml": "emoji: none\nemoji: liberal\n",
            "example/tenant.yaml": RuleExample.tenant(appending: "featurs: {}\n"),
        ]))
        let output = try LiveryProcess.run(["validate", "--format", "sarif", "Tenants"], in: workspace.root)
        XCTAssertEqual(output.status, 1)
        let file = workspace.root.appendingPathComponent("report.sarif")
        try Data(output.stdout.utf8).write(to: file)
        // Structural facts of SARIF 2.1.0 that every consumer relies on.
        let log = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(log["version"] as? String, "2.1.0")
        let run = try XCTUnwrap((log["runs"] as? [[String: Any]])?.first)
        let driver = try XCTUnwrap((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        let rules = try XCTUnwrap(driver["rules"] as? [[String: Any]])
        let results = try XCTUnwrap(run["results"] as? [[String: Any]])
        XCTAssertEqual(results.count, 2)
        for result in results {
            let index = try XCTUnwrap(result["ruleIndex"] as? Int)
            XCTAssertEqual(rules[index]["id"] as? String, result["ruleId"] as? String)
            XCTAssertTrue(["error", "warning", "note", "none"].contains(result["level"] as? String ?? ""))
        }
        // sarif-tools (PyPI), an independent SARIF reader, must see the same two findings.
        let summary = try LiveryProcess.tool(["sarif", "summary", file.path])
        XCTAssertEqual(summary.status, 0, summary.stderr)
        XCTAssertTrue(summary.stdout.lowercased().contains("error: 2"), summary.stdout)
    }

    /// SARIF's message-string model (2.1.0 §3.11.10, §3.11.11, §3.49.11): each result names its rule's
    /// message by id with the arguments, and the template in the rule's `messageStrings` filled with them
    /// is the result's text (before the appended hint).
    func testSARIFResultsNameTheirRulesMessageStrings() throws {
        let example = try XCTUnwrap(RuleSet.all.descriptions.first { $0.id == "voice.sentence-case" }?.triggering.first)
        let workspace = try ExampleWorkspace(example)
        let output = try LiveryProcess.run(["validate", "--format", "sarif", "Tenants"], in: workspace.root)
        let log = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let run = try XCTUnwrap((log["runs"] as? [[String: Any]])?.first)
        let rules = try XCTUnwrap(((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]])
        let all = try XCTUnwrap(run["results"] as? [[String: Any]])
        let results = all.filter { $0["ruleId"] as? String == "voice.sentence-case" }
        XCTAssertFalse(results.isEmpty, output.stdout)
        for result in results {
            let message = try XCTUnwrap(result["message"] as? [String: Any])
            let id = try XCTUnwrap(message["id"] as? String, "\(message)")
            let arguments = try XCTUnwrap(message["arguments"] as? [String])
            let rule = rules[try XCTUnwrap(result["ruleIndex"] as? Int)]
            let strings = try XCTUnwrap(rule["messageStrings"] as? [String: [String: String]])
            let template = try XCTUnwrap(strings[id]?["text"], "\(id) is not in \(strings.keys)")
            let filled = try XCTUnwrap(MessageTemplate(id: id, text: template).filled(with: arguments))
            XCTAssertTrue((message["text"] as? String ?? "").hasPrefix(filled), "\(message) vs \(filled)")
        }
        // sarif-tools (PyPI), an independent SARIF reader, still reads the log.
        let file = workspace.root.appendingPathComponent("report.sarif")
        try Data(output.stdout.utf8).write(to: file)
        let summary = try LiveryProcess.tool(["sarif", "summary", file.path])
        XCTAssertEqual(summary.status, 0, summary.stderr)
        XCTAssertTrue(summary.stdout.lowercased().contains("warning: \(all.filter { $0["level"] as? String == "warning" }.count)"), summary.stdout)
    }

    func testGeneratedSchemasAndRuleReferenceAreCurrent() throws {
        let root = LiveryProcess.packageRoot
        for kind in ["tenant", "branding", "voice", "program", "library", "tour", "locale"] {
            let printed = try LiveryProcess.run(["schema", kind])
            XCTAssertEqual(printed.status, 0)
            let committed = try String(contentsOf: root.appendingPathComponent("schemas/\(kind).schema.json"), encoding: .utf8)
            XCTAssertEqual(printed.stdout, committed, "schemas/\(kind).schema.json is stale: run `make generated`")
        }
        let reference = try LiveryProcess.run(["rules", "--markdown"])
        let committed = try String(contentsOf: root.appendingPathComponent("docs/rules.md"), encoding: .utf8)
        XCTAssertEqual(reference.stdout, committed, "docs/rules.md is stale: run `make generated`")
    }

    func testInitScaffoldsValidateClean() throws {
        let workspace = try ExampleWorkspace(RuleExample("base"))
        let templates = LiveryProcess.packageRoot.appendingPathComponent("Templates").path
        let brand = try LiveryProcess.run(["init", "tenant", "acme", "--templates", templates], in: workspace.root)
        XCTAssertEqual(brand.status, 0, brand.stdout + brand.stderr)
        let creator = try LiveryProcess.run(["init", "creator", "acme-jo", "--extends", "acme", "--templates", templates], in: workspace.root)
        XCTAssertEqual(creator.status, 0, creator.stdout + creator.stderr)
        // A brand name longer than the stores' 30 characters: store.name holds it cut to fit.
        let long = try LiveryProcess.run(["init", "tenant", "longname", "--name", "The Remarkably Long Brand Name Company", "--templates", templates], in: workspace.root)
        XCTAssertEqual(long.status, 0, long.stdout + long.stderr)
        // A name with YAML, JSON and ICU syntax in it is written escaped for each file, and reads back as typed.
        let oddName = #"O'Neil "Rehab": #1 \ {Go}"#
        let odd = try LiveryProcess.run(["init", "tenant", "odd", "--name", oddName, "--templates", templates], in: workspace.root)
        XCTAssertEqual(odd.status, 0, odd.stdout + odd.stderr)
        let oddManifest = ManifestParser.load(workspace.tenants.appendingPathComponent("odd/tenant.yaml"), displayPath: "tenant.yaml").node
        XCTAssertEqual(oddManifest?["name"]?.string, oddName)
        XCTAssertEqual(oddManifest?["app"]?["displayName"]?.string, oddName)
        let tokens = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: workspace.tenants.appendingPathComponent("odd/branding/tokens.json"))) as? [String: Any])
        XCTAssertEqual(tokens["$description"] as? String, "Design tokens of \(oddName) (DTCG 2025.10). docs/branding.md explains the groups.")
        let twoLines = try LiveryProcess.run(["init", "tenant", "two", "--name", "two\nlines", "--templates", templates], in: workspace.root)
        XCTAssertEqual(twoLines.status, 2)
        XCTAssertTrue(twoLines.stderr.contains("the name must be one line of text"), twoLines.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: workspace.tenants.appendingPathComponent("two").path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: workspace.tenants.appendingPathComponent("acme/store.yaml").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: workspace.tenants.appendingPathComponent("acme-jo/store.yaml").path), "a creator is listed in its platform's app")
        let all = try LiveryProcess.run(["validate", "--strict", "Tenants"], in: workspace.root)
        XCTAssertEqual(all.status, 0, all.stdout)
        // The first generate already writes the new brand's listings, for both stores, from the placeholders.
        let output = workspace.root.appendingPathComponent("generated")
        let generate = try LiveryProcess.run(["generate", "Tenants", "-o", output.path, "--templates", templates], in: workspace.root)
        XCTAssertEqual(generate.status, 0, generate.stdout + generate.stderr)
        func listing(_ tenant: String, _ path: String) -> String? {
            FileManager.default.contents(atPath: output.appendingPathComponent("\(tenant)/\(StoreListings.folder)/\(path)").path).map { String(decoding: $0, as: UTF8.self) }
        }
        XCTAssertEqual(listing("acme", "ios/en-US/name.txt"), "Acme", "the display name stands in for the store name")
        XCTAssertEqual(listing("acme", "android/en-US/title.txt"), "Acme")
        XCTAssertEqual(listing("acme", "ios/en-US/privacy_url.txt"), "https://example.com/acme/privacy")
        XCTAssertEqual(listing("acme", "ios/en-US/support_url.txt"), "https://example.com/acme/support")
        XCTAssertEqual(listing("acme", "ios/en-US/keywords.txt"), "keyword one,keyword two")
        XCTAssertEqual(listing("acme", "android/en-US/short_description.txt"), "A short summary of the app for Google Play.")
        let description = try XCTUnwrap(listing("acme", "ios/en-US/description.txt"))
        XCTAssertTrue(description.hasPrefix("Acme is a new app."), description)
        XCTAssertEqual(listing("acme", "android/en-US/full_description.txt"), description)
        XCTAssertEqual(listing("longname", "ios/en-US/name.txt"), "The Remarkably Long Brand Name")
        XCTAssertEqual(listing("odd", "ios/en-US/name.txt"), oddName)
        XCTAssertEqual(listing("odd", "ios/en-US/description.txt")?.hasPrefix(oddName + " is a new app."), true, "the ICU quoting is undone in the listing")
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.appendingPathComponent("acme-jo/\(StoreListings.folder)").path), "creators have no listing")
        let again = try LiveryProcess.run(["init", "tenant", "acme", "--templates", templates], in: workspace.root)
        XCTAssertEqual(again.status, 2, "an existing folder must not be overwritten")
        let badID = try LiveryProcess.run(["init", "tenant", "Bad_Id", "--templates", templates], in: workspace.root)
        XCTAssertEqual(badID.status, 2)
        XCTAssertFalse(FileManager.default.fileExists(atPath: workspace.tenants.appendingPathComponent("Bad_Id").path))
        // Without --templates, init finds them as generate does (here: the checkout's, as nothing is beside the workspace).
        let found = try LiveryProcess.run(["init", "tenant", "found"], in: workspace.root)
        XCTAssertEqual(found.status, 0, found.stdout + found.stderr)
        XCTAssertTrue(found.stdout.contains("validates clean"), found.stdout)
        let missing = try LiveryProcess.run(["init", "tenant", "lost", "--templates", workspace.root.appendingPathComponent("nowhere").path], in: workspace.root)
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertTrue(missing.stderr.contains("has no init/ folder of templates"), missing.stderr)
    }
}
