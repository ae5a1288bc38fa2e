import LiveryCheck
import LiveryDiagnostics
import LiveryWorkflow
import XCTest

/// Runs every rule's own examples through the real pipeline: a rule cannot exist untested.
final class RuleExampleTests: XCTestCase {
    func testRuleIDsAreUniqueAndWellFormed() {
        let ids = RuleSet.all.descriptions.map(\.id)
        XCTAssertEqual(ids.count, Set(ids).count, "duplicate rule ids")
        for description in RuleSet.all.descriptions {
            XCTAssertNotNil(description.id.rawValue.range(of: "^[a-z]+\\.[a-z0-9-]+$", options: .regularExpression), description.id.rawValue)
            XCTAssertTrue(description.id.rawValue.hasPrefix(description.family.rawValue + "."), "\(description.id) is not in family \(description.family)")
            XCTAssertFalse(description.rationale.isEmpty, description.id.rawValue)
        }
    }

    func testEveryRuleHasTriggeringAndNonTriggeringExamples() {
        for description in RuleSet.all.descriptions {
            XCTAssertFalse(description.triggering.isEmpty, "\(description.id) has no triggering example")
            XCTAssertFalse(description.nonTriggering.isEmpty, "\(description.id) has no non-triggering example")
        }
    }

    /// Every triggering example reports exactly at its markers: none missing and none extra (an example
    /// without a marker must report at least once). A failure points at the example in the rule's source.
    func testTriggeringExamplesReportExactlyAtTheirMarkers() throws {
        for description in RuleSet.all.descriptions {
            for example in description.triggering {
                let workspace = try ExampleWorkspace(example)
                let found = workspace.validate().diagnostics.filter { $0.ruleID == description.id }
                check(description, example, found: found, markers: workspace.markers, form: .written)
            }
        }
    }

    /// Every finding carries a registered id (a rule's, or one of the tool findings `livery rules` lists).
    func testEveryFindingOfEveryExampleHasARegisteredRuleID() throws {
        for description in RuleSet.all.descriptions {
            for example in description.triggering + description.nonTriggering {
                for diagnostic in try ExampleWorkspace(example).validate().diagnostics where !RuleSet.all.isKnown(diagnostic.ruleID) {
                    XCTFail("\(diagnostic.line): '\(diagnostic.ruleID)' is not a registered rule", file: example.sourceFile, line: example.sourceLine)
                }
            }
        }
        XCTAssertTrue(RuleSet.all.isKnown("render.template"))
        XCTAssertTrue(RuleSet.all.isKnown("interchange.placeholder"))
        XCTAssertFalse(RuleSet.all.isKnown("structure.no-such-rule"))
    }

    func testNonTriggeringExamplesAreClean() throws {
        for description in RuleSet.all.descriptions {
            for example in description.nonTriggering {
                let workspace = try ExampleWorkspace(example)
                let diagnostics = workspace.validate().diagnostics
                XCTAssertTrue(diagnostics.isEmpty, "\(description.id): '\(example.note)' reported \(diagnostics.map(\.line))",
                              file: example.sourceFile, line: example.sourceLine)
            }
        }
    }

    /// Every example again with a multi-byte first line, with CRLF line ends, and with its YAML
    /// manifests written as JSON: what a rule finds must not depend on any of them. (With JSON the
    /// positions change, so the findings are counted instead.)
    func testExamplesFindTheSameInAlteredForms() throws {
        for description in RuleSet.all.descriptions {
            for form in ExampleWorkspace.Form.allCases where form != .written && !Self.formExempt(description.id, form) {
                for example in description.triggering {
                    let written = try ExampleWorkspace(example).validate().diagnostics.filter { $0.ruleID == description.id }
                    guard let workspace = try? ExampleWorkspace(example, form: form) else { continue }
                    let found = workspace.validate().diagnostics.filter { $0.ruleID == description.id }
                    if form == .json {
                        XCTAssertEqual(found.count, written.count, "\(description.id): '\(example.note)' as JSON found \(found.map(\.line)), written as YAML \(written.map(\.line))",
                                       file: example.sourceFile, line: example.sourceLine)
                    } else {
                        check(description, example, found: found, markers: workspace.markers, form: form)
                    }
                }
                for example in description.nonTriggering {
                    guard let workspace = try? ExampleWorkspace(example, form: form) else { continue }
                    let diagnostics = workspace.validate().diagnostics
                    XCTAssertTrue(diagnostics.isEmpty, "\(description.id): '\(example.note)' (\(form.rawValue)) reported \(diagnostics.map(\.line))",
                                  file: example.sourceFile, line: example.sourceLine)
                }
            }
        }
    }

    /// Rules whose findings are still built from free text, not yet from declared messages (issue 16):
    /// this list only shrinks.
    static let rulesWithoutDeclaredMessages: Set<RuleID> = [
        "structure.syntax",
        "branding.token-value", "branding.extensions",
    ]

    /// Declared messages no example workspace can make, with the reason; message coverage skips only these.
    static let messagesNoExampleCanSay: [RuleID: [String: String]] = [
        // Discovery only takes folders that have a tenant.yaml, so a workspace example never has a tenant without one.
        "structure.required": ["no-tenant-manifest": "said for a folder without tenant.yaml, which a workspace's discovery never takes"],
        // Tests run as root, who can read every file an example writes.
        "structure.encoding": ["unreadable": "said for a manifest that cannot be opened for reading"],
        "assets.xml": [
            "unreadable": "said for an XML file that cannot be opened for reading",
            "too-large": "said for an XML file above 32 MiB, too large to write for every run of the examples",
            "no-parser": "said when libxml2 cannot allocate a parser",
            "malformed-without-detail": "said when libxml2 refuses a document without reporting an error",
            "no-root": "libxml2 reports a document without a root element as malformed before Livery looks for the root",
        ],
    ]

    /// Every rule declares the messages it can say: ids unique within the rule and kebab-case, templates
    /// whose placeholders and braces are well formed (SARIF 2.1.0 §3.11.5).
    func testEveryRuleDeclaresItsMessages() {
        for description in RuleSet.all.descriptions where !Self.rulesWithoutDeclaredMessages.contains(description.id) {
            XCTAssertFalse(description.messages.isEmpty, "\(description.id) declares no messages")
            let ids = description.messages.map(\.id)
            XCTAssertEqual(ids.count, Set(ids).count, "\(description.id) declares a message id twice: \(ids)")
            for message in description.messages {
                XCTAssertNotNil(message.id.range(of: "^[a-z0-9]+(-[a-z0-9]+)*$", options: .regularExpression), "\(description.id): message id '\(message.id)'")
                let arguments = (0..<message.placeholderCount).map { "<\($0)>" }
                XCTAssertNotNil(message.filled(with: arguments), "\(description.id): template of '\(message.id)' is malformed: \(message.text)")
            }
        }
        for finding in RuleSet.all.toolFindings {
            XCTAssertEqual(finding.messages.count, Set(finding.messages.map(\.id)).count, "\(finding.id) declares a message id twice")
        }
    }

    /// Every finding of every example says a message its rule declared, and its text is that message's
    /// template filled with the finding's arguments; and every declared message is said by at least one
    /// of the rule's own triggering examples (message coverage).
    func testFindingsSayDeclaredMessagesAndEveryMessageIsExercised() throws {
        let declared = Dictionary(uniqueKeysWithValues: RuleSet.all.summaries.map { (RuleID($0.id), $0.messages) })
        var said: [RuleID: Set<String>] = [:]
        for description in RuleSet.all.descriptions {
            for (triggering, examples) in [(true, description.triggering), (false, description.nonTriggering)] {
                for example in examples {
                    for diagnostic in try ExampleWorkspace(example).validate().diagnostics {
                        if Self.rulesWithoutDeclaredMessages.contains(diagnostic.ruleID) { continue }
                        guard let id = diagnostic.messageID else {
                            XCTFail("\(diagnostic.line): built from free text, not from a message \(diagnostic.ruleID) declares", file: example.sourceFile, line: example.sourceLine)
                            continue
                        }
                        guard let template = declared[diagnostic.ruleID]?.first(where: { $0.id == id }) else {
                            XCTFail("\(diagnostic.line): says message '\(id)', which \(diagnostic.ruleID) does not declare", file: example.sourceFile, line: example.sourceLine)
                            continue
                        }
                        XCTAssertEqual(template.filled(with: diagnostic.arguments), diagnostic.message,
                                       "\(diagnostic.ruleID) '\(id)': the text is not the template '\(template.text)' filled with \(diagnostic.arguments)",
                                       file: example.sourceFile, line: example.sourceLine)
                        if triggering && diagnostic.ruleID == description.id { said[description.id, default: []].insert(id) }
                    }
                }
            }
        }
        for description in RuleSet.all.descriptions where !Self.rulesWithoutDeclaredMessages.contains(description.id) {
            let missing = Set(description.messages.map(\.id)).subtracting(said[description.id] ?? [])
                .subtracting(Self.messagesNoExampleCanSay[description.id]?.keys ?? [:].keys)
            XCTAssertTrue(missing.isEmpty, "\(description.id): no triggering example says \(missing.sorted())")
            // The exemptions name declared messages, and none an example does say.
            let exempt = Set(Self.messagesNoExampleCanSay[description.id]?.keys ?? [:].keys)
            XCTAssertTrue(exempt.isSubset(of: description.messages.map(\.id)), "\(description.id): exempts undeclared \(exempt.subtracting(description.messages.map(\.id)))")
            XCTAssertTrue(exempt.isDisjoint(with: said[description.id] ?? []), "\(description.id): an example says \(exempt.intersection(said[description.id] ?? [])); remove it from messagesNoExampleCanSay")
        }
    }

    /// A finding that declares a fix is fixed by it: applying the fixes of a rule's findings in its triggering
    /// examples leaves none of those findings (and the quick fix of `livery lsp` and SARIF's `fixes` are these).
    func testDeclaredFixesFixTheirFindings() throws {
        var fixed = 0
        for description in RuleSet.all.descriptions {
            for example in description.triggering {
                let workspace = try ExampleWorkspace(example)
                let found = workspace.validate().diagnostics.filter { $0.ruleID == description.id && !$0.fixes.isEmpty }
                guard !found.isEmpty else { continue }
                var byFile: [String: [TextEdit]] = [:]
                for diagnostic in found { for edit in diagnostic.fixes[0].edits { byFile[edit.start.file, default: []].append(edit) } }
                for (file, edits) in byFile {
                    let url = workspace.root.appendingPathComponent(file)
                    let text = try String(contentsOf: url, encoding: .utf8)
                    try Self.applying(edits, to: text).write(to: url, atomically: true, encoding: .utf8)
                }
                let after = workspace.validate().diagnostics.filter { $0.ruleID == description.id }
                XCTAssertTrue(after.isEmpty, "\(description.id): '\(example.note)' still reports \(after.map(\.line)) after its fixes \(found.flatMap(\.fixes).map(\.title))",
                              file: example.sourceFile, line: example.sourceLine)
                fixed += 1
            }
        }
        XCTAssertGreaterThanOrEqual(fixed, 7, "the did-you-mean rules declare fixes (seven triggering examples have one)")
    }

    /// `edits` applied to `text`, from the last to the first (lines and columns count code points from 1).
    static func applying(_ edits: [TextEdit], to text: String) -> String {
        var scalars = Array(text.unicodeScalars)
        func offset(_ location: SourceLocation) -> Int {
            var line = 1, index = 0
            while line < location.line, index < scalars.count { if scalars[index] == "\n" { line += 1 }; index += 1 }
            return min(index + location.column - 1, scalars.count)
        }
        for edit in edits.sorted(by: { ($0.start.line, $0.start.column) > ($1.start.line, $1.start.column) }) {
            scalars.replaceSubrange(offset(edit.start)..<offset(edit.end), with: Array(edit.replacement.unicodeScalars))
        }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: scalars)
        return String(out)
    }

    /// Forms that change what a rule is about, so its examples cannot hold in them.
    static func formExempt(_ rule: RuleID, _ form: ExampleWorkspace.Form) -> Bool {
        switch (rule.rawValue, form) {
        // YAML's own syntax, duplicate keys and limits have no JSON form (their examples are YAML that does not parse).
        case ("structure.syntax", .json), ("structure.duplicate-key", .json), ("structure.limits", .json), ("structure.encoding", .json): return true
        // Its example is a voice.yaml beside a voice.json: as JSON they would be one file, and the finding is at the
        // second file's first byte, which a comment line moves.
        case ("structure.duplicate-manifest", .json), ("structure.duplicate-manifest", .multibyteFirstLine): return true
        default: return false
        }
    }

    private func check(_ description: RuleDescription, _ example: RuleExample, found: [Diagnostic], markers: [SourceLocation], form: ExampleWorkspace.Form) {
        let what = "\(description.id): '\(example.note)'" + (form == .written ? "" : " (\(form.rawValue))")
        guard !markers.isEmpty else {
            XCTAssertFalse(found.isEmpty, "\(what) did not trigger", file: example.sourceFile, line: example.sourceLine)
            return
        }
        let expected = Set(markers), reported = Set(found.map(\.location))
        let missing = expected.subtracting(reported).sorted(), extra = reported.subtracting(expected).sorted()
        XCTAssertTrue(missing.isEmpty && extra.isEmpty,
                      "\(what): expected at \(markers.map(\.description)); missing \(missing.map(\.description)), extra \(found.filter { extra.contains($0.location) }.map(\.line))",
                      file: example.sourceFile, line: example.sourceLine)
    }
}
