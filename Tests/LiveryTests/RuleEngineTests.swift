import LiveryCheck
import LiveryDiagnostics
import XCTest

/// Severity overrides under `rules:` in tenant.yaml.
final class RuleEngineTests: XCTestCase {
    private func workspace(rules: String) throws -> ExampleWorkspace {
        try ExampleWorkspace(RuleExample("override", files: [
            "example/tenant.yaml": RuleExample.base["example/tenant.yaml"]!.replacingOccurrences(of: "supported: [en]", with: "supported: [en, ru]") + rules,
            "example/locales/ru.yaml": "nav:\n  home: Главная\n  profile: Профиль\n  extra: Лишний\n",
        ]))
    }

    func testOverrideRaisesAWarningToAnError() throws {
        let diagnostics = try workspace(rules: "rules:\n  localization.extra-key: error\n").validate().diagnostics
        XCTAssertEqual(diagnostics.map(\.ruleID), ["localization.extra-key"])
        XCTAssertEqual(diagnostics.first?.severity, .error)
    }

    func testOverrideTurnsARuleOff() throws {
        XCTAssertEqual(try workspace(rules: "rules:\n  localization.extra-key: off\n").validate().diagnostics, [])
    }

    func testSecurityRuleKeepsItsSeverity() throws {
        let workspace = try workspace(rules: "rules:\n  assets.path: warning\nassets:\n  logo: ../outside.png\n")
        let diagnostics = workspace.validate().diagnostics
        XCTAssertTrue(diagnostics.contains { $0.ruleID == "assets.path" && $0.severity == .error })
        XCTAssertTrue(diagnostics.contains { $0.ruleID == "structure.rule-override" })
    }

    func testStrictTurnsWarningsIntoErrors() throws {
        let diagnostics = try workspace(rules: "").validate(strict: true).diagnostics
        XCTAssertEqual(diagnostics.map(\.severity), [.error])
    }
}
