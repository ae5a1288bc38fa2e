import LiveryCheck
import LiveryDiagnostics
import XCTest

/// Runs every rule's own examples through the real pipeline: a rule cannot exist untested.
final class RuleExampleTests: XCTestCase {
    func testRuleIDsAreUniqueAndWellFormed() {
        let ids = RuleRegistry.descriptions.map(\.id)
        XCTAssertEqual(ids.count, Set(ids).count, "duplicate rule ids")
        for description in RuleRegistry.descriptions {
            XCTAssertNotNil(description.id.range(of: "^[a-z]+\\.[a-z0-9-]+$", options: .regularExpression), description.id)
            XCTAssertTrue(description.id.hasPrefix(description.family.rawValue + "."), "\(description.id) is not in family \(description.family)")
            XCTAssertFalse(description.rationale.isEmpty, description.id)
        }
    }

    func testEveryRuleHasTriggeringAndNonTriggeringExamples() {
        for description in RuleRegistry.descriptions {
            XCTAssertFalse(description.triggering.isEmpty, "\(description.id) has no triggering example")
            XCTAssertFalse(description.nonTriggering.isEmpty, "\(description.id) has no non-triggering example")
        }
    }

    func testTriggeringExamplesReportAtTheirMarker() throws {
        for description in RuleRegistry.descriptions {
            for example in description.triggering {
                let workspace = try ExampleWorkspace(example)
                let found = workspace.validate().diagnostics.filter { $0.ruleID == description.id }
                XCTAssertFalse(found.isEmpty, "\(description.id): '\(example.note)' did not trigger")
                for marker in workspace.markers {
                    XCTAssertTrue(found.contains { $0.location == marker },
                                  "\(description.id): '\(example.note)' expected at \(marker), reported at \(found.map(\.location.description))")
                }
            }
        }
    }

    func testNonTriggeringExamplesAreClean() throws {
        for description in RuleRegistry.descriptions {
            for example in description.nonTriggering {
                let workspace = try ExampleWorkspace(example)
                let diagnostics = workspace.validate().diagnostics
                XCTAssertTrue(diagnostics.isEmpty, "\(description.id): '\(example.note)' reported \(diagnostics.map(\.line))")
            }
        }
    }
}
