import Foundation
import LiveryCheck
import LiveryDiagnostics
import LiveryLoad
import LiveryResolve
import LiveryTestSupport
import LiveryWorkflow
import XCTest

/// DTCG 2025.10 resolver documents: sets, modifiers with contexts and defaults, the resolution
/// order, and a tenant composing base × theme × density (the urbannest sample).
final class ResolverTests: XCTestCase {
    func parse(_ json: String) -> (ResolverDocument?, [Diagnostic]) {
        let (node, found) = ManifestParser.parse(json, format: .json, file: "r.resolver.json")
        guard let node else { return (nil, found) }
        return ResolverDocument.parse(node) { $0.hasPrefix("..") ? nil : "branding/" + $0 }
    }

    func files(_ sources: [ResolverDocument.Source]) -> [String] {
        sources.map { source in
            switch source {
            case .file(let path, _): return path
            case .inline: return "(inline)"
            }
        }
    }

    func testContextsComposeInResolutionOrder() throws {
        let (document, diagnostics) = parse("""
            {"version": "2025.10",
             "sets": {"base": {"sources": [{"$ref": "base.json"}, {"$ref": "#/sets/brand"}]}, "brand": {"sources": [{"$ref": "brand.json"}]}},
             "modifiers": {"theme": {"contexts": {"light": [], "dark": [{"$ref": "dark.json"}]}, "default": "light"},
                           "density": {"contexts": {"comfortable": [], "compact": [{"$ref": "compact.json"}, {"n": {"$type": "number", "$value": 1}}]}}},
             "resolutionOrder": [{"$ref": "#/sets/base"}, {"$ref": "#/modifiers/theme"}, {"$ref": "#/modifiers/density"},
                                 {"name": "overrides", "type": "set", "sources": [{"$ref": "last.json"}]}]}
            """)
        XCTAssertEqual(diagnostics.map(\.line), [])
        let resolver = try XCTUnwrap(document)
        XCTAssertEqual(files(try resolver.sources(for: ["density": "compact", "theme": "dark"])),
                       ["branding/base.json", "branding/brand.json", "branding/dark.json", "branding/compact.json", "(inline)", "branding/last.json"])
        // A modifier without a default needs an input; one with a default takes it.
        XCTAssertThrowsError(try resolver.sources(for: [:])) { XCTAssertTrue("\($0)".contains("modifier 'density' has no default")) }
        XCTAssertThrowsError(try resolver.sources(for: ["density": "roomy"])) { XCTAssertTrue("\($0)".contains("'roomy' is not a context")) }
        // Every combination, named by its non-default contexts (density has no default: its first context counts as one).
        XCTAssertEqual(resolver.combinations.map(\.name), ["default", "compact", "dark", "dark+compact"])
    }

    func testMistakesAreLocated() {
        let cases: [(String, String)] = [
            (##"{"version": "2024", "resolutionOrder": [{"$ref": "#/sets/a"}], "sets": {"a": {"sources": []}}}"##, "version must be"),
            (##"{"version": "2025.10", "resolutionOrder": []}"##, "non-empty resolutionOrder"),
            (##"{"version": "2025.10", "resolutionOrder": [{"$ref": "#/sets/bsae"}], "sets": {"base": {"sources": []}}}"##, "there is no set 'bsae'"),
            (##"{"version": "2025.10", "resolutionOrder": [{"$ref": "#/modifiers/t"}], "modifiers": {"t": {"contexts": {"only": []}}}}"##, "at least two contexts"),
            (##"{"version": "2025.10", "resolutionOrder": [{"$ref": "#/modifiers/t"}], "modifiers": {"t": {"contexts": {"a": [], "b": []}, "default": "c"}}}"##, "must be one of its contexts"),
            (##"{"version": "2025.10", "resolutionOrder": [{"$ref": "#/sets/a"}], "sets": {"a": {"sources": [{"$ref": "#/modifiers/t"}]}}}"##, "cannot refer to modifiers"),
            (##"{"version": "2025.10", "resolutionOrder": [{"$ref": "#/sets/a"}], "sets": {"a": {"sources": [{"$ref": "#/sets/a"}]}}}"##, "cycle"),
            (##"{"version": "2025.10", "resolutionOrder": [{"$ref": "#/sets/a"}], "sets": {"a": {"sources": [{"$ref": "../../etc/passwd"}]}}}"##, "inside the tenant folder"),
            (##"{"version": "2025.10", "resolutionOrder": [{"$ref": "#/sets/a"}, {"$ref": "#/sets/a"}], "sets": {"a": {"sources": []}}}"##, "twice"),
            (##"{"version": "2025.10", "resolutionOrder": [{"name": "x", "type": "theme", "sources": []}]}"##, "\"set\" or \"modifier\""),
        ]
        for (json, phrase) in cases {
            let (document, diagnostics) = parse(json)
            XCTAssertNil(document, json)
            XCTAssertTrue(diagnostics.contains { $0.message.contains(phrase) && $0.ruleID == ResolveRule.resolver }, "\(json): \(diagnostics.map(\.line))")
        }
    }

    /// A workspace holding a copy of the urbannest sample (a tenant composed by a resolver document), removed
    /// after the test, and the document's URL.
    private func urbannestCopy() throws -> (tenants: URL, document: URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("livery-resolver-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: root) }
        let tenants = root.appendingPathComponent("Tenants")
        try FileManager.default.createDirectory(at: tenants, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: LiveryProcess.packageRoot.appendingPathComponent("Tenants/urbannest"), to: tenants.appendingPathComponent("urbannest"))
        return (tenants, tenants.appendingPathComponent("urbannest/branding/urbannest.resolver.json"))
    }

    /// Replaces `written` (which must be there) with `replacement` in the file at `url`.
    private func edit(_ url: URL, replacing written: String, with replacement: String) throws {
        let text = try String(contentsOf: url, encoding: .utf8)
        XCTAssertTrue(text.contains(written), "\(url.lastPathComponent) has \(written)")
        try Data(text.replacingOccurrences(of: written, with: replacement).utf8).write(to: url)
    }

    /// A resolver document that does not parse leaves the tenant without tokens: its own finding is
    /// reported, not the dozens of "not a token" findings that follow (28 before the cascade knew it).
    func testABrokenResolverDocumentIsReportedWithoutItsFollowOnFindings() throws {
        let (tenants, document) = try urbannestCopy()
        try edit(document, replacing: "\"version\": \"2025.10\"", with: "\"version\": \"2024\"")

        let result = Validator.validate(workspace: tenants, displayRoot: "Tenants", rules: .all, only: ["urbannest"], strict: false)
        XCTAssertEqual(result.diagnostics.filter { $0.severity == .error }.map(\.line),
                       [#"Tenants/urbannest/branding/urbannest.resolver.json:3:14: error: version must be "2025.10", found '2024' [branding.resolver]"#])
    }

    func testAMisspeltTopLevelPropertyIsReportedAndTheDocumentStillResolves() throws {
        let (tenants, document) = try urbannestCopy()
        try edit(document, replacing: "\"version\": \"2025.10\",", with: "\"version\": \"2025.10\", \"descripton\": \"typo\",")

        let result = Validator.validate(workspace: tenants, displayRoot: "Tenants", rules: .all, only: ["urbannest"], strict: false)
        let errors = result.diagnostics.filter { $0.severity == .error }
        XCTAssertEqual(errors.map(\.ruleID), ["branding.resolver"], "\(result.diagnostics.map(\.line))")
        XCTAssertEqual(errors.first?.message, "'descripton' is not a property of a resolver document")
        XCTAssertEqual(errors.first?.hint, "did you mean 'description'?")
        let urbannest = try XCTUnwrap(result.tenants.first { $0.id == "urbannest" })
        XCTAssertEqual(urbannest.tokens.keys.sorted(), ["compact", "dark", "dark+compact", "default"], "every combination still resolves")
    }

    func testAMisspeltTokenFileIsNamedWithTheClosestOne() throws {
        let (tenants, document) = try urbannestCopy()
        try edit(document, replacing: #""dark": [{"$ref": "dark.tokens.json"}]"#, with: #""dark": [{"$ref": "drak.tokens.json"}]"#)

        let result = Validator.validate(workspace: tenants, displayRoot: "Tenants", rules: .all, only: ["urbannest"], strict: false)
        let finding = try XCTUnwrap(result.diagnostics.first { $0.ruleID == "branding.resolver" }, "\(result.diagnostics.map(\.line))")
        XCTAssertEqual(finding.message, "'branding/drak.tokens.json' is not a token file of this tenant")
        XCTAssertEqual(finding.hint, "did you mean 'dark.tokens.json'?")
    }

    func testACreatorOfABaseWhoseResolverDocumentIsBrokenGetsOneNoteInsteadOfItsFollowOnFindings() throws {
        let (tenants, document) = try urbannestCopy()
        try FileManager.default.createDirectory(at: tenants.appendingPathComponent("urban-jo"), withIntermediateDirectories: true)
        try Data("id: urban-jo\nkind: creator\nextends: urbannest\nname: Jo\nlocales:\n  default: en\n  supported: [en, hi]\n".utf8)
            .write(to: tenants.appendingPathComponent("urban-jo/tenant.yaml"))
        let clean = Validator.validate(workspace: tenants, displayRoot: "Tenants", rules: .all, strict: false)
        XCTAssertEqual(clean.diagnostics.filter { $0.severity != .note }.map(\.line), [], "the creator validates clean with its base's tokens")
        try edit(document, replacing: "\"version\": \"2025.10\"", with: "\"version\": \"2024\"")

        let result = Validator.validate(workspace: tenants, displayRoot: "Tenants", rules: .all, strict: false)
        XCTAssertEqual(result.diagnostics.filter { $0.severity != .note }.map(\.line),
                       [#"Tenants/urbannest/branding/urbannest.resolver.json:3:14: error: version must be "2025.10", found '2024' [branding.resolver]"#])
        let notes = result.diagnostics.filter { $0.severity == .note }
        XCTAssertEqual(notes.map(\.ruleID), ["structure.base-unloaded"])
        XCTAssertEqual(notes.first?.location.file, "Tenants/urban-jo/tenant.yaml")
        XCTAssertEqual(notes.first?.related.first?.location.file, "Tenants/urbannest/branding/urbannest.resolver.json")
    }

    func testTheUrbannestSampleResolvesEveryCombination() throws {
        let result = Validator.validate(workspace: LiveryProcess.packageRoot.appendingPathComponent("Tenants"), displayRoot: "Tenants", rules: .all, only: ["urbannest"], strict: true)
        XCTAssertEqual(result.diagnostics.map(\.line), [])
        let tenants = result.tenants
        let urbannest = try XCTUnwrap(tenants.first { $0.id == "urbannest" })
        XCTAssertEqual(urbannest.tokens.keys.sorted(), ["compact", "dark", "dark+compact", "default"])
        let md = "spacing.md", background = "color.background.default"
        XCTAssertEqual(urbannest.tokens["default"]?.values[md]?["value"]?.number, 12)
        XCTAssertEqual(urbannest.tokens["compact"]?.values[md]?["value"]?.number, 8)
        XCTAssertEqual(urbannest.tokens["dark+compact"]?.values[md]?["value"]?.number, 8)
        XCTAssertEqual(urbannest.tokens["dark+compact"]?.values[background], urbannest.tokens["dark"]?.values[background])
        XCTAssertNotEqual(urbannest.tokens["dark"]?.values[background], urbannest.tokens["default"]?.values[background])
    }
}
