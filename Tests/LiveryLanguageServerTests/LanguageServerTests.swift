import Foundation
import LiveryCheck
import LiveryDiagnostics
import LiveryJSONRPC
import LiveryLanguageServer
import LiveryLoad
import LiveryTestSupport
import LiveryWorkflow
import XCTest

/// `livery lsp` in process: the server fed message bodies (sans-I/O), on a copy of sample tenants.
final class LanguageServerTests: XCTestCase {
    private var workspace: URL!

    override func setUpWithError() throws {
        workspace = FileManager.default.temporaryDirectory.appendingPathComponent("livery-lsp-\(UUID().uuidString)/Tenants")
        try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
        for tenant in ["urbannest", "companero", "companero-lucia", "sonic-walkscape"] {
            try FileManager.default.copyItem(at: LiveryProcess.packageRoot.appendingPathComponent("Tenants/\(tenant)"), to: workspace.appendingPathComponent(tenant))
        }
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: workspace.deletingLastPathComponent())
    }

    // MARK: Helpers

    private var nextID = 0

    /// One decoded message the server sent.
    private struct Sent {
        var json: [String: Any]
        var method: String? { json["method"] as? String }
        var params: [String: Any]? { json["params"] as? [String: Any] }
        var result: Any? { json["result"] }
        var error: [String: Any]? { json["error"] as? [String: Any] }
    }

    private func send(_ server: LanguageServer, _ method: String, _ params: Any, request: Bool = true) throws -> [Sent] {
        var message: [String: Any] = ["jsonrpc": "2.0", "method": method, "params": params]
        if request { nextID += 1; message["id"] = nextID }
        let body = try JSONSerialization.data(withJSONObject: message)
        // As the transport does when no more input is waiting: check what changed.
        return try (server.handle(Array(body)) + server.flush()).map { Sent(json: try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0)) as? [String: Any])) }
    }

    private func started() throws -> LanguageServer {
        let server = LanguageServer(version: "test")
        let reply = try send(server, "initialize", ["processId": NSNull(), "rootUri": workspace.absoluteString, "capabilities": [String: Any]()])
        let capabilities = try XCTUnwrap((reply.first?.result as? [String: Any])?["capabilities"] as? [String: Any])
        XCTAssertEqual(capabilities["positionEncoding"] as? String, "utf-16")
        XCTAssertEqual((capabilities["textDocumentSync"] as? [String: Any])?["change"] as? Int, 1)
        return server
    }

    private func uri(_ relative: String) -> String { workspace.appendingPathComponent(relative).absoluteString }

    private func text(_ relative: String) throws -> String { try String(contentsOf: workspace.appendingPathComponent(relative), encoding: .utf8) }

    private func open(_ server: LanguageServer, _ relative: String, text: String? = nil) throws -> [Sent] {
        try send(server, "textDocument/didOpen", ["textDocument": ["uri": uri(relative), "languageId": "yaml", "version": 1, "text": text ?? self.text(relative)]], request: false)
    }

    private func change(_ server: LanguageServer, _ relative: String, _ text: String, version: Int) throws -> [Sent] {
        try send(server, "textDocument/didChange", ["textDocument": ["uri": uri(relative), "version": version], "contentChanges": [["text": text]]], request: false)
    }

    private func diagnostics(_ sent: [Sent], for relative: String) -> [[String: Any]]? {
        sent.last { $0.method == "textDocument/publishDiagnostics" && ($0.params?["uri"] as? String) == uri(relative) }?.params?["diagnostics"] as? [[String: Any]]
    }

    private func range(_ diagnostic: [String: Any]) -> [Int] {
        let range = diagnostic["range"] as? [String: [String: Int]] ?? [:]
        return [range["start"]?["line"] ?? -1, range["start"]?["character"] ?? -1, range["end"]?["line"] ?? -1, range["end"]?["character"] ?? -1]
    }

    private func position(_ line: Int, _ character: Int, in relative: String) -> [String: Any] {
        ["textDocument": ["uri": uri(relative)], "position": ["line": line, "character": character]]
    }

    // MARK: Tests

    func testUnsavedTextIsValidatedAtUTF16RangesAndClearsWhenFixed() throws {
        let server = try started()
        let original = try text("urbannest/tenant.yaml")
        let clean = try open(server, "urbannest/tenant.yaml")
        XCTAssertEqual(diagnostics(clean, for: "urbannest/tenant.yaml")?.filter { $0["severity"] as? Int == 1 }.count, 0, "the sample is clean")

        // An unknown key after an emoji (one scalar, two UTF-16 code units) on the same line.
        let home = #"    - {id: home, icon: house, label: nav.home, color: "{color.component.tab-bar.active}"}"#
        let brokenLine = home.replacingOccurrences(of: "label: nav.home, color:", with: "label: nav.home, \"\u{1F3E0}\": 1, colour:")
        let broken = original.replacingOccurrences(of: home, with: brokenLine)
        let line = try XCTUnwrap(broken.components(separatedBy: "\n").firstIndex(of: brokenLine))
        let sent = try change(server, "urbannest/tenant.yaml", broken, version: 2)
        let found = try XCTUnwrap(diagnostics(sent, for: "urbannest/tenant.yaml")?.first { ($0["message"] as? String)?.contains("'colour'") == true })
        let start = brokenLine[..<brokenLine.range(of: "colour")!.lowerBound].utf16.count
        XCTAssertEqual(range(found), [line, start, line, start + 6])
        XCTAssertNotEqual(start, brokenLine[..<brokenLine.range(of: "colour")!.lowerBound].unicodeScalars.count, "the line needs a scalar beyond the BMP to test the conversion")
        XCTAssertEqual(found["code"] as? String, "structure.unknown-key")
        XCTAssertEqual(found["severity"] as? Int, 1)
        XCTAssertTrue(((found["codeDescription"] as? [String: String])?["href"] ?? "").hasSuffix("docs/rules.md#structureunknown-key"))
        XCTAssertEqual(sent.last { $0.method == "textDocument/publishDiagnostics" && ($0.params?["uri"] as? String) == uri("urbannest/tenant.yaml") }?.params?["version"] as? Int, 2)
        XCTAssertEqual(try String(contentsOf: workspace.appendingPathComponent("urbannest/tenant.yaml"), encoding: .utf8), original, "nothing is written to disk")

        // The quick fix replaces exactly the misspelt key.
        let actions = try send(server, "textDocument/codeAction", ["textDocument": ["uri": uri("urbannest/tenant.yaml")], "range": found["range"]!, "context": ["diagnostics": [found]]])
        let fix = try XCTUnwrap((actions.first?.result as? [[String: Any]])?.first { $0["title"] as? String == "Rename 'colour' to 'color'" })
        let edits = try XCTUnwrap(((fix["edit"] as? [String: Any])?["changes"] as? [String: [[String: Any]]])?[uri("urbannest/tenant.yaml")])
        XCTAssertEqual(edits.count, 1)
        XCTAssertEqual(edits.first?["newText"] as? String, "color")
        XCTAssertEqual(range(edits[0]), [line, start, line, start + 6])

        // Saved back as it was: the finding is cleared.
        let fixed = try change(server, "urbannest/tenant.yaml", original, version: 3)
        XCTAssertEqual(diagnostics(fixed, for: "urbannest/tenant.yaml")?.filter { $0["severity"] as? Int == 1 }.count, 0)
    }

    func testChangeToBaseRechecksTenantsThatExtendIt() throws {
        let server = try started()
        // The creator's manifest is open: it is published whenever its tenant is checked, findings or not.
        _ = try open(server, "companero-lucia/tenant.yaml")
        _ = try open(server, "urbannest/tenant.yaml")
        let base = try text("companero/locales/en.yaml")
        var lines = base.components(separatedBy: "\n")
        let index = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("nav:") })
        lines.insert("nav.extra-lsp-key: Extra", at: index)
        let sent = try open(server, "companero/locales/en.yaml", text: lines.joined(separator: "\n"))
        let files = Set(sent.compactMap { $0.params?["uri"] as? String })
        XCTAssertTrue(files.contains(uri("companero/locales/en.yaml")))
        XCTAssertTrue(files.contains(uri("companero-lucia/tenant.yaml")), "the creator that extends companero is checked again: \(files.sorted())")
        XCTAssertFalse(files.contains { $0.hasPrefix(uri("urbannest/")) }, "an unrelated tenant is not")
    }

    func testHoverDefinitionAndCompletionOnSamples() throws {
        let server = try started()
        let tenantText = try text("urbannest/tenant.yaml")
        _ = try open(server, "urbannest/tenant.yaml")
        let lines = tenantText.components(separatedBy: "\n")
        let line = try XCTUnwrap(lines.firstIndex { $0.contains("label: nav.home") })
        let keyColumn = lines[line].utf16.distance(from: lines[line].utf16.startIndex, to: lines[line].range(of: "nav.home")!.lowerBound.samePosition(in: lines[line].utf16)!)
        let hover = try send(server, "textDocument/hover", position(line, keyColumn + 1, in: "urbannest/tenant.yaml"))
        let hoverText = try XCTUnwrap(((hover.first?.result as? [String: Any])?["contents"] as? [String: String])?["value"])
        XCTAssertTrue(hoverText.contains("| en | Home") && hoverText.contains("| hi | होम"), hoverText)

        // A program's lesson goes to its library item.
        let program = "companero-lucia/programs/30-day-fitness-foundation.yaml"
        let programText = try text(program)
        _ = try open(server, program)
        let programLines = programText.components(separatedBy: "\n")
        let lessonLine = try XCTUnwrap(programLines.firstIndex { $0.contains("lesson: morning-routine") })
        let column = programLines[lessonLine].range(of: "lesson: morning-routine")!.upperBound.utf16Offset(in: programLines[lessonLine]) - 3
        let definition = try send(server, "textDocument/definition", position(lessonLine, column, in: program))
        let target = try XCTUnwrap((definition.first?.result as? [[String: Any]])?.first)
        XCTAssertEqual(target["uri"] as? String, uri("companero-lucia/library/library.yaml"))
        let targetLine = try text("companero-lucia/library/library.yaml").components(separatedBy: "\n")[range(target)[0]]
        XCTAssertTrue(targetLine.contains("id: morning-routine"), targetLine)

        // Rule ids complete under `rules:`.
        let withRules = tenantText + "\nrules:\n  localization.unt"
        let lastLine = withRules.components(separatedBy: "\n").count - 1
        _ = try change(server, "urbannest/tenant.yaml", withRules, version: 2)
        let completion = try send(server, "textDocument/completion", position(lastLine, "  localization.unt".utf16.count, in: "urbannest/tenant.yaml"))
        let labels = ((completion.first?.result as? [String: Any])?["items"] as? [[String: Any]] ?? []).compactMap { $0["label"] as? String }
        XCTAssertEqual(labels, ["localization.untranslated"])
    }

    func testAddsMissingMessageKeyToEveryLocaleMarkedUntranslated() throws {
        let server = try started()
        let original = try text("urbannest/tenant.yaml")
        let broken = original.replacingOccurrences(of: "label: nav.home,", with: "label: nav.welcome-lsp,")
        let sent = try open(server, "urbannest/tenant.yaml", text: broken)
        let found = try XCTUnwrap(diagnostics(sent, for: "urbannest/tenant.yaml")?.first { $0["code"] as? String == "references.locale-key" })
        let actions = try send(server, "textDocument/codeAction", ["textDocument": ["uri": uri("urbannest/tenant.yaml")], "range": found["range"]!, "context": ["diagnostics": [found]]])
        let add = try XCTUnwrap((actions.first?.result as? [[String: Any]])?.first { ($0["title"] as? String)?.hasPrefix("Add 'nav.welcome-lsp'") == true })
        let changes = try XCTUnwrap((add["edit"] as? [String: Any])?["changes"] as? [String: [[String: Any]]])
        XCTAssertEqual(Set(changes.keys), [uri("urbannest/locales/en.yaml"), uri("urbannest/locales/hi.yaml")])
        // Applied (each edit replaces its whole file), the locale files hold the key and the tenant is clean of the finding.
        for (fileURI, edits) in changes {
            let path = try XCTUnwrap(URL(string: fileURI)).path
            try XCTUnwrap(edits.first?["newText"] as? String).write(toFile: path, atomically: true, encoding: .utf8)
        }
        let en = try text("urbannest/locales/en.yaml"), hi = try text("urbannest/locales/hi.yaml")
        XCTAssertTrue(en.contains("welcome-lsp: nav.welcome-lsp"), en)
        XCTAssertTrue(hi.contains("welcome-lsp: nav.welcome-lsp"), hi)
        let after = try change(server, "urbannest/tenant.yaml", broken, version: 2)
        let remaining = diagnostics(after, for: "urbannest/tenant.yaml") ?? []
        XCTAssertFalse(remaining.contains { $0["code"] as? String == "references.locale-key" }, "\(remaining)")
        // The Hindi copy equals the English text: marked untranslated by localization.untranslated.
        let hindi = diagnostics(after, for: "urbannest/locales/hi.yaml") ?? []
        XCTAssertTrue(hindi.contains { $0["code"] as? String == "localization.untranslated" && ($0["message"] as? String)?.contains("nav.welcome-lsp") == true }, "\(hindi)")
    }

    /// The same fix in a JSON locale bundle: the key goes into its group, indented like its siblings, and the file stays JSON.
    func testAddsMissingMessageKeyToAJSONLocaleBundle() throws {
        try FileManager.default.removeItem(at: workspace.appendingPathComponent("urbannest/locales/hi.yaml"))
        let json = "{\n    \"nav\": {\n        \"home\": \"होम\",\n        \"bookings\": \"बुकिंग\"\n    },\n    \"roles.customer\": \"ग्राहक\"\n}\n"
        try json.write(to: workspace.appendingPathComponent("urbannest/locales/hi.json"), atomically: true, encoding: .utf8)
        let server = try started()
        let original = try text("urbannest/tenant.yaml")
        let broken = original.replacingOccurrences(of: "label: nav.home,", with: "label: nav.welcome-lsp,")
        let sent = try open(server, "urbannest/tenant.yaml", text: broken)
        let found = try XCTUnwrap(diagnostics(sent, for: "urbannest/tenant.yaml")?.first { $0["code"] as? String == "references.locale-key" })
        let actions = try send(server, "textDocument/codeAction", ["textDocument": ["uri": uri("urbannest/tenant.yaml")], "range": found["range"]!, "context": ["diagnostics": [found]]])
        let add = try XCTUnwrap((actions.first?.result as? [[String: Any]])?.first { ($0["title"] as? String)?.hasPrefix("Add 'nav.welcome-lsp'") == true })
        let changes = try XCTUnwrap((add["edit"] as? [String: Any])?["changes"] as? [String: [[String: Any]]])
        XCTAssertEqual(Set(changes.keys), [uri("urbannest/locales/en.yaml"), uri("urbannest/locales/hi.json")])
        for (fileURI, edits) in changes {
            try XCTUnwrap(edits.first?["newText"] as? String).write(toFile: try XCTUnwrap(URL(string: fileURI)).path, atomically: true, encoding: .utf8)
        }
        let hi = try text("urbannest/locales/hi.json")
        XCTAssertEqual(hi, json.replacingOccurrences(of: "\"बुकिंग\"\n", with: "\"बुकिंग\",\n        \"welcome-lsp\": \"nav.welcome-lsp\"\n"))
        let parsed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(hi.utf8)) as? [String: Any], "Foundation's parser reads the edited file")
        XCTAssertEqual((parsed["nav"] as? [String: Any])?["welcome-lsp"] as? String, "nav.welcome-lsp")
        // Reloaded: the reference resolves.
        let after = try change(server, "urbannest/tenant.yaml", broken, version: 2)
        XCTAssertFalse((diagnostics(after, for: "urbannest/tenant.yaml") ?? []).contains { $0["code"] as? String == "references.locale-key" })
        XCTAssertFalse((diagnostics(after, for: "urbannest/locales/hi.json") ?? []).contains { $0["code"] as? String == "structure.syntax" })
    }

    func testAddsMissingTypeToAJSONToken() throws {
        let server = try started()
        let file = "companero-lucia/branding/tokens.json"
        let original = try text(file)
        XCTAssertTrue(original.hasPrefix("{\n"))
        let broken = "{\n  \"lsp-gap\": {\"$value\": {\"value\": 16, \"unit\": \"px\"}},\n" + original.dropFirst(2)
        let sent = try open(server, file, text: broken)
        let found = try XCTUnwrap(diagnostics(sent, for: file)?.first { $0["code"] as? String == "branding.token-type" }, "\(diagnostics(sent, for: file) ?? [])")
        XCTAssertEqual(range(found), [1, 2, 1, 11], "the token's quoted name")
        let actions = try send(server, "textDocument/codeAction", ["textDocument": ["uri": uri(file)], "range": found["range"]!, "context": ["diagnostics": [found]]])
        let add = try XCTUnwrap((actions.first?.result as? [[String: Any]])?.first { ($0["title"] as? String)?.contains("$type") == true })
        let edit = try XCTUnwrap(((add["edit"] as? [String: Any])?["changes"] as? [String: [[String: Any]]])?[uri(file)]?.first)
        XCTAssertEqual(edit["newText"] as? String, #""$type": "dimension", "#)
        XCTAssertEqual(range(edit), [1, 14, 1, 14], "just after the token's opening brace")
        let fixed = broken.replacingOccurrences(of: #""lsp-gap": {"#, with: #""lsp-gap": {"$type": "dimension", "#)
        let after = try change(server, file, fixed, version: 2)
        XCTAssertFalse((diagnostics(after, for: file) ?? []).contains { $0["code"] as? String == "branding.token-type" })
    }

    func testCompletesMessageKeysInValues() throws {
        let server = try started()
        let file = "urbannest/tenant.yaml"
        let edited = try text(file).replacingOccurrences(of: "label: nav.home,", with: "label: nav.bo,")
        _ = try open(server, file, text: edited)
        let lines = edited.components(separatedBy: "\n")
        let line = try XCTUnwrap(lines.firstIndex { $0.contains("label: nav.bo,") })
        let column = lines[line].range(of: "nav.bo")!.upperBound.utf16Offset(in: lines[line])
        let completion = try send(server, "textDocument/completion", position(line, column, in: file))
        let items = (completion.first?.result as? [String: Any])?["items"] as? [[String: Any]] ?? []
        XCTAssertEqual(items.compactMap { $0["label"] as? String }, ["nav.bookings"])
        XCTAssertEqual(range(try XCTUnwrap(items.first?["textEdit"] as? [String: Any])), [line, column - 6, line, column])
    }

    func testTokenHoverShowsContrastAndAssetPathsGoToTheirFile() throws {
        let server = try started()
        let file = "companero-lucia/tenant.yaml"
        let tenantText = try text(file)
        _ = try open(server, file)
        // Hover on a colour declared in a contrast pair, written in a manifest as a reference.
        let edited = tenantText + "\n# {color.text.link}\n"
        _ = try change(server, file, edited, version: 2)
        let line = edited.components(separatedBy: "\n").count - 2
        let hover = try send(server, "textDocument/hover", position(line, 5, in: file))
        let value = try XCTUnwrap(((hover.first?.result as? [String: Any])?["contents"] as? [String: String])?["value"])
        XCTAssertTrue(value.contains("**Contrast**") && value.contains("on {color.background.default} (body, needs 4.5:1): default "), value)

        let lines = tenantText.components(separatedBy: "\n")
        let assetLine = try XCTUnwrap(lines.firstIndex { $0.contains("assets/logo.png") })
        let column = lines[assetLine].range(of: "assets/logo.png")!.lowerBound.utf16Offset(in: lines[assetLine]) + 3
        let definition = try send(server, "textDocument/definition", position(assetLine, column, in: file))
        XCTAssertEqual((definition.first?.result as? [[String: Any]])?.first?["uri"] as? String, uri("companero-lucia/assets/logo.png"))
    }

    func testCompletesEnumValuesFromTheManifestShapes() throws {
        let server = try started()
        let program = "companero-lucia/programs/30-day-fitness-foundation.yaml"
        let original = try text(program)
        let item = "          - {type: lesson, id: d01-morning-routine, lesson: morning-routine}"
        XCTAssertTrue(original.contains(item))
        let edited = original.replacingOccurrences(of: item, with: "          - {type: l, id: d01-morning-routine, lesson: morning-routine}")
        _ = try open(server, program, text: edited)
        let line = try XCTUnwrap(edited.components(separatedBy: "\n").firstIndex { $0.hasPrefix("          - {type: l,") })
        func labels(_ line: Int, _ column: Int, _ file: String) throws -> [String] {
            let completion = try send(server, "textDocument/completion", position(line, column, in: file))
            return ((completion.first?.result as? [String: Any])?["items"] as? [[String: Any]] ?? []).compactMap { $0["label"] as? String }
        }
        XCTAssertEqual(try labels(line, "          - {type: l".utf16.count, program).first, "lesson", "weeks.days.items.type is a choice")
        XCTAssertEqual(try labels(line, "          - {type: ".utf16.count, program).prefix(3), ["habit", "lesson", "check-in"])

        let tenant = "urbannest/tenant.yaml"
        let withRules = try text(tenant) + "\nrules:\n  localization.untranslated: w"
        _ = try open(server, tenant, text: withRules)
        let last = withRules.components(separatedBy: "\n").count - 1
        XCTAssertEqual(try labels(last, "  localization.untranslated: w".utf16.count, tenant), ["warning"])
    }

    /// Enum values and keys are completed from where the cursor is in the parsed manifest, JSON as well as YAML.
    func testCompletesEnumValuesAndKeysFromTheParsedTree() throws {
        let server = try started()
        func labels(_ line: Int, _ column: Int, _ file: String) throws -> [String] {
            let completion = try send(server, "textDocument/completion", position(line, column, in: file))
            return ((completion.first?.result as? [String: Any])?["items"] as? [[String: Any]] ?? []).compactMap { $0["label"] as? String }
        }
        // A JSON program (opened, never saved): the item's "type" is three objects and two lists deep.
        let json = "companero-lucia/programs/json-program.json"
        let lines = ["{", "  \"id\": \"json-program\",", "  \"weeks\": [", "    {", "      \"week\": 1,", "      \"days\": [", "        {",
                     "          \"day\": 1,", "          \"items\": [", "            {", "              \"type\": \"l\",", "              \"id\": \"x\"",
                     "            }", "          ]", "        }", "      ]", "    }", "  ]", "}", ""]
        _ = try open(server, json, text: lines.joined(separator: "\n"))
        XCTAssertEqual(try labels(10, "              \"type\": \"l".utf16.count, json).first, "lesson")
        // A YAML item written as a flow mapping over two lines.
        let program = "companero-lucia/programs/30-day-fitness-foundation.yaml"
        let item = "          - {type: lesson, id: d01-morning-routine, lesson: morning-routine}"
        let split = "          - {id: d01-morning-routine,\n             type: l, lesson: morning-routine}"
        let edited = try text(program).replacingOccurrences(of: item, with: split)
        _ = try open(server, program, text: edited)
        let line = try XCTUnwrap(edited.components(separatedBy: "\n").firstIndex { $0.hasPrefix("             type: l,") })
        XCTAssertEqual(try labels(line, "             type: l".utf16.count, program).first, "lesson")
        // A key being typed at the top of the program: the program's fields.
        let withKey = edited.replacingOccurrences(of: "durationDays: 30\n", with: "durationDays: 30\nratin\n")
        _ = try change(server, program, withKey, version: 2)
        let keyLine = try XCTUnwrap(withKey.components(separatedBy: "\n").firstIndex(of: "ratin"))
        XCTAssertEqual(try labels(keyLine, 5, program), ["rating"])
    }

    func testHoverOnAMediaPathShowsWhatTheProbeMeasured() throws {
        let server = try started()
        let tour = "sonic-walkscape/tours/florence-renaissance/tour.yaml"
        let lines = try text(tour).components(separatedBy: "\n")
        _ = try open(server, tour)
        let line = try XCTUnwrap(lines.firstIndex { $0.contains("en: audio/en/01-duomo.mp3") })
        let column = lines[line].range(of: "audio/en/01-duomo.mp3")!.lowerBound.utf16Offset(in: lines[line]) + 4
        let hover = try send(server, "textDocument/hover", position(line, column, in: tour))
        let value = try XCTUnwrap(((hover.first?.result as? [String: Any])?["contents"] as? [String: String])?["value"])
        XCTAssertTrue(value.hasPrefix("**audio/en/01-duomo.mp3**: mp3"), value)
        // ffprobe, an independent reader, agrees on the duration to a hundredth of a second.
        let probed = try PlatformFixtures.tool(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0",
                                                workspace.appendingPathComponent("sonic-walkscape/tours/florence-renaissance/audio/en/01-duomo.mp3").path])
        let seconds = try XCTUnwrap(Double(probed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), probed.stderr)
        XCTAssertTrue(value.contains(String(format: "%.2f s", seconds)) || value.contains(String(format: "%.2f s", seconds - 0.01)) || value.contains(String(format: "%.2f s", seconds + 0.01)),
                      "\(value) against ffprobe's \(seconds) s")
    }

    func testDeclaredFixOfAMisspeltTokenReferenceIsAQuickFix() throws {
        let server = try started()
        let file = "urbannest/tenant.yaml"
        let original = try text(file)
        let home = #"    - {id: home, icon: house, label: nav.home, color: "{color.component.tab-bar.active}"}"#
        let brokenLine = home.replacingOccurrences(of: "tab-bar.active}", with: "tab-bar.activ}")
        let broken = original.replacingOccurrences(of: home, with: brokenLine)
        let sent = try open(server, file, text: broken)
        let found = try XCTUnwrap(diagnostics(sent, for: file)?.first { $0["code"] as? String == "references.token" }, "\(diagnostics(sent, for: file) ?? [])")
        let actions = try send(server, "textDocument/codeAction", ["textDocument": ["uri": uri(file)], "range": found["range"]!, "context": ["diagnostics": [found]]])
        let fix = try XCTUnwrap((actions.first?.result as? [[String: Any]])?.first)
        // The rule declares the fix (Diagnostic.fixes); the server converts its positions to UTF-16.
        XCTAssertEqual(fix["title"] as? String, "Replace '{color.component.tab-bar.activ}' with '{color.component.tab-bar.active}'")
        let edit = try XCTUnwrap(((fix["edit"] as? [String: Any])?["changes"] as? [String: [[String: Any]]])?[uri(file)]?.first)
        let line = try XCTUnwrap(broken.components(separatedBy: "\n").firstIndex(of: brokenLine))
        let start = brokenLine.range(of: "\"{color.component.tab-bar.activ}\"")!.lowerBound.utf16Offset(in: brokenLine)
        XCTAssertEqual(range(edit), [line, start, line, start + "\"{color.component.tab-bar.activ}\"".utf16.count])
        XCTAssertEqual(edit["newText"] as? String, "\"{color.component.tab-bar.active}\"")
        let after = try change(server, file, broken.replacingOccurrences(of: "tab-bar.activ}", with: "tab-bar.active}"), version: 2)
        XCTAssertFalse((diagnostics(after, for: file) ?? []).contains { $0["code"] as? String == "references.token" })
    }

    func testInALocaleBundleAMessageKeyHoversAndGoesToItsTranslations() throws {
        let server = try started()
        let file = "urbannest/locales/hi.yaml"
        let lines = try text(file).components(separatedBy: "\n")
        _ = try open(server, file)
        let line = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("  bookings:") }, "nav.bookings, nested under nav:")
        let hover = try send(server, "textDocument/hover", position(line, 4, in: file))
        let value = try XCTUnwrap(((hover.first?.result as? [String: Any])?["contents"] as? [String: String])?["value"])
        XCTAssertTrue(value.hasPrefix("**nav.bookings**") && value.contains("| hi | बुकिंग"), value)
        let definition = try send(server, "textDocument/definition", position(line, 4, in: file))
        let targets = try XCTUnwrap(definition.first?.result as? [[String: Any]])
        XCTAssertEqual(targets.compactMap { $0["uri"] as? String }, [uri("urbannest/locales/en.yaml")])
        let enLine = try text("urbannest/locales/en.yaml").components(separatedBy: "\n")[range(targets[0])[0]]
        XCTAssertTrue(enLine.trimmingCharacters(in: .whitespaces).hasPrefix("bookings:"), enLine)
    }

    func testABurstOfChangesIsCheckedOnceWithTheLastText() throws {
        let server = try started()
        let file = "urbannest/tenant.yaml"
        let original = try text(file)
        func body(_ version: Int, _ text: String) throws -> [UInt8] {
            Array(try JSONSerialization.data(withJSONObject: ["jsonrpc": "2.0", "method": "textDocument/didChange",
                                                              "params": ["textDocument": ["uri": uri(file), "version": version], "contentChanges": [["text": text]]]]))
        }
        _ = try open(server, file)
        // Three changes arrive before the server looks for more input: none is checked on its own.
        for (version, text) in [(2, original + "\nbogus1: 1\n"), (3, original + "\nbogus2: 1\n"), (4, original + "\nbogus3: 1\n")] {
            XCTAssertEqual(server.handle(try body(version, text)).count, 0)
        }
        let published = try server.flush().map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0)) as? [String: Any]) }
        let own = published.filter { (($0["params"] as? [String: Any])?["uri"] as? String) == uri(file) }
        XCTAssertEqual(own.count, 1)
        let params = try XCTUnwrap(own.first?["params"] as? [String: Any])
        XCTAssertEqual(params["version"] as? Int, 4)
        let messages = (params["diagnostics"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
        XCTAssertTrue(messages.contains { $0.contains("'bogus3'") } && !messages.contains { $0.contains("'bogus1'") }, "\(messages)")
        XCTAssertTrue(server.flush().isEmpty, "nothing left to check")
    }

    func testRelatedLocationsAndNotesReachTheEditor() throws {
        let server = try started()
        // A base that does not load: its syntax error names where the list began and where parsing stopped, and
        // the creator extending it gets a note (information) naming the base's error.
        _ = try open(server, "companero-lucia/tenant.yaml")
        let base = try text("companero/tenant.yaml")
        let broken = base.replacingOccurrences(of: "supported: [en, es]", with: "supported: [en, es")
        XCTAssertNotEqual(broken, base)
        let sent = try open(server, "companero/tenant.yaml", text: broken)
        let syntax = try XCTUnwrap(diagnostics(sent, for: "companero/tenant.yaml")?.first { $0["code"] as? String == "structure.syntax" })
        let related = try XCTUnwrap(syntax["relatedInformation"] as? [[String: Any]], "\(syntax)")
        // The parser's own places are in the file; what follows from the file not loading (a listing "with no app") is
        // folded in as notes at those findings' own places (RootCause), not reported as errors of its own.
        let (folded, own) = (related.filter { (($0["message"] as? String) ?? "").hasPrefix("follows from this: ") },
                             related.filter { !(($0["message"] as? String) ?? "").hasPrefix("follows from this: ") })
        XCTAssertFalse(own.isEmpty, "\(related)")
        XCTAssertTrue(own.allSatisfy { ($0["location"] as? [String: Any])?["uri"] as? String == uri("companero/tenant.yaml") && !(($0["message"] as? String) ?? "").isEmpty }, "\(related)")
        XCTAssertTrue(folded.contains { (($0["message"] as? String) ?? "").contains("[store.required-text]") }, "\(related)")
        let creator = diagnostics(sent, for: "companero-lucia/tenant.yaml") ?? []
        XCTAssertTrue(creator.contains { $0["severity"] as? Int == 3 && ($0["relatedInformation"] as? [[String: Any]])?.isEmpty == false }, "\(creator)")
    }

    func testLifecycleErrors() throws {
        let server = LanguageServer(version: "test")
        let early = try send(server, "textDocument/hover", position(0, 0, in: "urbannest/tenant.yaml"))
        XCTAssertEqual(early.first?.error?["code"] as? Int, -32002)
        _ = try send(server, "initialize", ["processId": NSNull(), "rootUri": NSNull(), "capabilities": [String: Any]()])
        let unknown = try send(server, "workspace/frobnicate", [String: Any]())
        XCTAssertEqual(unknown.first?.error?["code"] as? Int, -32601)
        let notOpen = try send(server, "textDocument/hover", position(0, 0, in: "urbannest/tenant.yaml"))
        XCTAssertEqual(notOpen.first?.error?["code"] as? Int, -32803)
        let badParams = try send(server, "textDocument/hover", ["textDocument": 5])
        XCTAssertEqual(badParams.first?.error?["code"] as? Int, -32602)
        XCTAssertNil(server.exitStatus)
        let shutdown = try send(server, "shutdown", NSNull())
        XCTAssertTrue(shutdown.first?.json.keys.contains("result") == true && shutdown.first?.result is NSNull)
        _ = try send(server, "exit", NSNull(), request: false)
        XCTAssertEqual(server.exitStatus, 0)
    }

    /// A new locale bundle the editor opened and never saved is checked as if it existed; closed unsaved, it is gone again.
    func testNeverSavedNewFileIsCheckedUntilClosed() throws {
        let server = try started()
        let file = "urbannest/locales/fr.yaml"
        XCTAssertFalse(FileManager.default.fileExists(atPath: workspace.appendingPathComponent(file).path))
        // The creator adds French to the tenant (unsaved too): its bundle is missing.
        let tenant = try text("urbannest/tenant.yaml").replacingOccurrences(of: "supported: [en, hi]", with: "supported: [en, hi, fr]")
        let before = try open(server, "urbannest/tenant.yaml", text: tenant)
        XCTAssertTrue((diagnostics(before, for: "urbannest/tenant.yaml") ?? []).contains { $0["code"] as? String == "references.locale-bundle" })
        // Then creates the bundle in the editor, without saving it.
        let opened = try open(server, file, text: "nav:\n  home: Accueil\n")
        XCTAssertFalse((diagnostics(opened, for: "urbannest/tenant.yaml") ?? []).contains { $0["code"] as? String == "references.locale-bundle" },
                       "the tenant has its French bundle")
        let found = try XCTUnwrap(diagnostics(opened, for: file), "the new file is published")
        XCTAssertTrue(found.contains { ($0["code"] as? String)?.hasPrefix("localization.") == true && ($0["message"] as? String)?.contains("nav.bookings") == true },
                      "the bundle lacks the default locale's keys: \(found)")
        // A key edited in is checked with the rest of the tenant (a reference to a missing argument, a syntax error).
        let broken = try change(server, file, "nav:\n  home: [Accueil\n", version: 2)
        XCTAssertTrue((diagnostics(broken, for: file) ?? []).contains { $0["code"] as? String == "structure.syntax" }, "\(diagnostics(broken, for: file) ?? [])")
        // Closed without saving: nothing is on disk, and the file's findings are cleared.
        let closed = try send(server, "textDocument/didClose", ["textDocument": ["uri": uri(file)]], request: false)
        XCTAssertEqual(diagnostics(closed, for: file)?.count, 0, "the closed file's findings are cleared")
        XCTAssertTrue((diagnostics(closed, for: "urbannest/tenant.yaml") ?? []).contains { $0["code"] as? String == "references.locale-bundle" }, "the bundle is gone again")
        XCTAssertFalse(FileManager.default.fileExists(atPath: workspace.appendingPathComponent(file).path), "nothing is written to disk")
        // And the tenant is checked without it: a new program opened unsaved is loaded as a program.
        let program = "urbannest/programs/new-lsp.yaml"
        let programFound = try open(server, program, text: "id: new-lsp\ntitle: x\nbogus-key: 1\n")
        XCTAssertTrue((diagnostics(programFound, for: program) ?? []).contains { $0["code"] as? String == "structure.unknown-key" || $0["code"] as? String == "structure.required" },
                      "\(diagnostics(programFound, for: program) ?? [])")
        XCTAssertNil(diagnostics(programFound, for: file), "the closed bundle is not published again")
    }

    func testOverlayListsNeverSavedFilesInTheirFolders() throws {
        var overlay = SourceOverlay()
        let folder = workspace.appendingPathComponent("urbannest")
        overlay.set("x: y\n", forFileAt: folder.appendingPathComponent("locales/fr.yaml").path)
        overlay.set("id: t\n", forFileAt: folder.appendingPathComponent("tours/new/tour.yaml").path)
        overlay.set("changed: text\n", forFileAt: folder.appendingPathComponent("locales/en.yaml").path)
        XCTAssertEqual(overlay.names(in: folder.appendingPathComponent("locales").path), ["fr.yaml"], "a file on disk is not listed twice")
        XCTAssertEqual(overlay.names(in: folder.appendingPathComponent("tours").path), ["new"])
        XCTAssertEqual(overlay.names(in: folder.appendingPathComponent("tours/new").path), ["tour.yaml"])
        // Through a symbolic link to the tenant, the same never-saved file.
        let link = workspace.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: folder)
        XCTAssertEqual(overlay.text(forFileAt: link.appendingPathComponent("locales/fr.yaml").path), "x: y\n")
        overlay.set(nil, forFileAt: folder.appendingPathComponent("locales/fr.yaml").path)
        XCTAssertEqual(overlay.names(in: folder.appendingPathComponent("locales").path), [])
    }

    // MARK: Cancellation and stale checks (the threaded transport's inbox, filled here in a known order)

    private func body(_ method: String, _ params: Any, id: Int? = nil) throws -> [UInt8] {
        var message: [String: Any] = ["jsonrpc": "2.0", "method": method, "params": params]
        if let id { message["id"] = id }
        return Array(try JSONSerialization.data(withJSONObject: message))
    }

    /// Serves `inbox` to its end; the decoded messages sent.
    private func serve(_ server: LanguageServer, _ inbox: Inbox) throws -> (status: Int32, sent: [Sent]) {
        var sent: [[UInt8]] = []
        let status = StdioTransport.serve(server, inbox: inbox) { sent.append($0) }
        return (status, try sent.map { Sent(json: try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0)) as? [String: Any])) })
    }

    private func opening(_ inbox: Inbox, _ relative: String, text: String) throws {
        inbox.post(try body("initialize", ["processId": NSNull(), "rootUri": workspace.absoluteString, "capabilities": [String: Any]()], id: 1))
        inbox.post(try body("initialized", [String: Any]()))
        inbox.post(try body("textDocument/didOpen", ["textDocument": ["uri": uri(relative), "languageId": "yaml", "version": 1, "text": text]]))
    }

    private func ending(_ inbox: Inbox) throws {
        inbox.post(try body("shutdown", NSNull(), id: 99))
        inbox.post(try body("exit", NSNull()))
    }

    private func reply(_ sent: [Sent], id: Int) -> Sent? { sent.first { $0.json["id"] as? Int == id && $0.method == nil } }

    func testARequestCancelledWhileItWaitsIsAnsweredRequestCancelled() throws {
        let server = LanguageServer(version: "test"), inbox = Inbox()
        try opening(inbox, "urbannest/tenant.yaml", text: try text("urbannest/tenant.yaml"))
        inbox.post(try body("textDocument/hover", position(0, 0, in: "urbannest/tenant.yaml"), id: 7))
        inbox.post(try body("$/cancelRequest", ["id": 7]))
        inbox.post(try body("textDocument/hover", position(0, 0, in: "urbannest/tenant.yaml"), id: 8))
        // A cancellation of a request never made changes nothing.
        inbox.post(try body("$/cancelRequest", ["id": 42]))
        try ending(inbox)
        let (status, sent) = try serve(server, inbox)
        XCTAssertEqual(status, 0)
        XCTAssertEqual(reply(sent, id: 7)?.error?["code"] as? Int, -32800, "\(sent.map(\.json))")
        XCTAssertNil(reply(sent, id: 7)?.json["result"])
        XCTAssertNil(reply(sent, id: 8)?.error, "the next request is answered")
        XCTAssertNotNil(reply(sent, id: 1)?.result)
        XCTAssertEqual(sent.filter { $0.json["id"] as? Int == 7 }.count, 1, "answered once")
    }

    func testARequestCancelledWhileItIsWorkedOnIsAnsweredRequestCancelled() throws {
        let server = LanguageServer(version: "test"), inbox = Inbox()
        try opening(inbox, "urbannest/tenant.yaml", text: try text("urbannest/tenant.yaml"))
        // The hover first waits for the check of the change before it; the cancellation arrives during that check.
        inbox.post(try body("textDocument/didChange", ["textDocument": ["uri": uri("urbannest/tenant.yaml"), "version": 2],
                                                       "contentChanges": [["text": try text("urbannest/tenant.yaml") + "\n"]]]))
        inbox.post(try body("textDocument/hover", position(0, 0, in: "urbannest/tenant.yaml"), id: 7))
        var arrived = false
        server.checkFinished = { [unowned self] in
            guard !arrived else { return }
            arrived = true
            inbox.post(try! self.body("$/cancelRequest", ["id": 7]))
            try! self.ending(inbox)
        }
        let (status, sent) = try serve(server, inbox)
        XCTAssertTrue(arrived, "the request waited for a check")
        XCTAssertEqual(status, 0)
        XCTAssertEqual(reply(sent, id: 7)?.error?["code"] as? Int, -32800, "\(sent.map(\.json))")
    }

    func testACheckSupersededByANewerChangeIsDroppedNotPublished() throws {
        let server = LanguageServer(version: "test"), inbox = Inbox()
        let original = try text("urbannest/tenant.yaml")
        let broken = original.replacingOccurrences(of: "label: nav.home,", with: "label: nav.home, colour: x,")
        XCTAssertNotEqual(broken, original)
        try opening(inbox, "urbannest/tenant.yaml", text: broken)
        // While the broken text is checked, the editor sends the fixed one.
        var arrived = false
        server.checkFinished = { [unowned self] in
            guard !arrived else { return }
            arrived = true
            inbox.post(try! self.body("textDocument/didChange", ["textDocument": ["uri": self.uri("urbannest/tenant.yaml"), "version": 2],
                                                                 "contentChanges": [["text": original]]]))
            try! self.ending(inbox)
        }
        let (status, sent) = try serve(server, inbox)
        XCTAssertTrue(arrived)
        XCTAssertEqual(status, 0)
        let published = sent.filter { $0.method == "textDocument/publishDiagnostics" && ($0.params?["uri"] as? String) == uri("urbannest/tenant.yaml") }
        XCTAssertEqual(published.map { $0.params?["version"] as? Int }, [2], "the stale check of version 1 is not published")
        let findings = published.last?.params?["diagnostics"] as? [[String: Any]] ?? []
        XCTAssertFalse(findings.contains { ($0["message"] as? String)?.contains("colour") == true }, "\(findings)")
    }

    /// The transport's reader: framed bytes from a pipe become the inbox's messages, then its end.
    func testReaderFramesInputIntoTheInbox() throws {
        let pipe = Pipe(), inbox = Inbox()
        let first = try body("initialized", [String: Any]()), second = try body("exit", NSNull())
        try pipe.fileHandleForWriting.write(contentsOf: Data(MessageFramer.frame(first) + MessageFramer.frame(second) + Array("Content-Length: x\r\n\r\n".utf8)))
        try pipe.fileHandleForWriting.close()
        StdioTransport.read(pipe.fileHandleForReading.fileDescriptor, into: inbox)
        guard case .message(let a)? = inbox.next(wait: false), case .message(let b)? = inbox.next(wait: false), case .end(let error?)? = inbox.next(wait: false) else {
            return XCTFail("expected two messages, then the framing error")
        }
        XCTAssertEqual(a, first)
        XCTAssertEqual(b, second)
        XCTAssertEqual(error, .invalidContentLength("x"))
        XCTAssertNil(inbox.next(wait: false))
    }

    func testOverlayReplacesFileTextWhileLoading() throws {
        let path = workspace.appendingPathComponent("urbannest/voice.yaml").path
        var limits = LoadLimits.default
        limits.overlay.set("tone: [unclosed\n", forFileAt: path)
        let result = Validator.validate(workspace: workspace, displayRoot: "Tenants", rules: .all, only: ["urbannest"], limits: limits)
        XCTAssertTrue(result.diagnostics.contains { $0.location.file == "Tenants/urbannest/voice.yaml" && $0.ruleID == "structure.syntax" }, "\(result.diagnostics.map(\.line))")
        let clean = Validator.validate(workspace: workspace, displayRoot: "Tenants", rules: .all, only: ["urbannest"])
        XCTAssertFalse(clean.diagnostics.contains { $0.ruleID == "structure.syntax" })
    }

    func testColumnsConvertBetweenScalarsAndUTF16() {
        let document = SourceDocument("a: x\r\nb: \"😀é\" y\n")
        // "y" is scalar column 9 (1-based) on line 2; before it: b : space " 😀 é " space = 8 scalars, 9 UTF-16 units.
        XCTAssertEqual(document.position(line: 2, column: 9), Position(line: 1, character: 9))
        XCTAssertEqual(document.column(Position(line: 1, character: 9)), 9)
        XCTAssertEqual(document.column(Position(line: 1, character: 5)), 5, "inside the surrogate pair: the emoji's column")
        XCTAssertEqual(document.range(at: SourceLocation(file: "f", line: 2, column: 4)), Range(start: Position(line: 1, character: 3), end: Position(line: 1, character: 8)))
        XCTAssertEqual(document.lineText(0), "a: x", "the carriage return is not part of the line")
    }
}
