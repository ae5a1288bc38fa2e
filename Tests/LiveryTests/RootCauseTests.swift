import Foundation
@testable import LiveryCheck
import LiveryDiagnostics
import LiveryLoad
import XCTest

/// The root cause first: a finding that only follows from another is a `related` note of its cause, not an error
/// of its own (`RootCause`, `Cascade`), for each rule family; and hints that point at the likely mistake.
final class RootCauseTests: XCTestCase {
    private func errors(_ files: [String: String], binary: [String: [UInt8]] = [:]) throws -> [Diagnostic] {
        let workspace = try ExampleWorkspace(RuleExample("root cause", files: files, binaryFiles: binary))
        return workspace.validate().diagnostics.filter { $0.severity == .error }
    }

    /// A tour whose first stop is at `latitude`, `longitude`, with an offline pack covering the walk in Florence.
    private func tour(latitude: String, longitude: String) -> (files: [String: String], binary: [String: [UInt8]]) {
        var files = TilePackExample.files(tiles: "tiles.mbtiles")
        // The first stop's coordinates are the first ones written.
        var yaml = files["example/tours/walk/tour.yaml"]!
        yaml = yaml.replacingCharacters(in: yaml.range(of: "latitude: 43.77")!, with: "latitude: \(latitude)")
        yaml = yaml.replacingCharacters(in: yaml.range(of: "longitude: 11.25")!, with: "longitude: \(longitude)")
        files["example/tours/walk/tour.yaml"] = yaml
        return (files, TilePackExample.media(TilePackExample.pack(covering: TilePackExample.walk)))
    }

    /// Content: a latitude beyond the pole is one `structure.range` error; the stop "6,000 km from the route" and the
    /// tile the pack lacks for it are notes under it, not errors before it.
    func testAnOutOfRangeLatitudeIsOneErrorWithTheRouteAndTileFindingsFoldedIntoIt() throws {
        let (files, binary) = tour(latitude: "99.77", longitude: "11.25")
        let found = try errors(files, binary: binary)
        XCTAssertEqual(found.map(\.ruleID), [ShapeRule.range], found.map(\.line).joined(separator: "\n"))
        let cause = try XCTUnwrap(found.first)
        XCTAssertTrue(cause.message.hasSuffix("latitude' is 99.77, above the maximum 90"), cause.message)
        let notes = cause.related.map(\.message)
        XCTAssertTrue(notes.contains { $0.hasPrefix("follows from this: stop 'stop-1' is ") && $0.hasSuffix("[content.route]") }, "\(notes)")
        XCTAssertTrue(notes.contains { $0.hasPrefix("follows from this: the tile pack has no tile ") && $0.contains("for stop 'stop-1'") && $0.hasSuffix("[content.tile-coverage]") },
                      "\(notes)")
        // Each note is located where its finding was.
        XCTAssertTrue(cause.related.allSatisfy { $0.location.file.hasSuffix("tours/walk/tour.yaml") }, "\(cause.related)")
    }

    /// Content: latitude and longitude written the other way round say so, and where the right place would be.
    func testSwappedLatitudeAndLongitudeAreNamedInTheHint() throws {
        let (files, binary) = tour(latitude: "11.25", longitude: "43.77")
        let route = try errors(files, binary: binary).filter { $0.ruleID == "content.route" }
        XCTAssertEqual(route.count, 1, route.map(\.line).joined(separator: "\n"))
        XCTAssertEqual(route.first?.message, "stop 'stop-1' is \(route.first?.arguments[1] ?? "?") m from the route, beyond its 150 m trigger radius; with latitude and longitude swapped it is on the route")
        XCTAssertEqual(route.first?.hint, "latitude and longitude swapped? (latitude 43.77, longitude 11.25) is on the route")
        // The tile the pack lacks for the misplaced stop follows from it: a note, not an error before it.
        XCTAssertEqual(try errors(files, binary: binary).map(\.ruleID), ["content.route"])
        XCTAssertTrue(route.first?.related.contains { $0.message.hasPrefix("follows from this: the tile pack has no tile ") } ?? false, "\(route.first?.related ?? [])")
        // A stop far away for another reason gets no such guess, and the tile its pack lacks stands as an error of its own
        // (the stop may be right and the pack wrong).
        let (far, farBinary) = tour(latitude: "43.9", longitude: "11.25")
        let other = try errors(far, binary: farBinary)
        XCTAssertEqual(other.filter { $0.ruleID == "content.route" }.count, 1)
        XCTAssertNil(other.first { $0.ruleID == "content.route" }?.hint)
        XCTAssertEqual(other.first { $0.ruleID == "content.route" }?.messageID, "stop-off-route")
        XCTAssertTrue(other.contains { $0.ruleID == "content.tile-coverage" }, other.map(\.line).joined(separator: "\n"))
    }

    /// Store (and every family worked out from the tenant manifest): a tenant.yaml that does not parse gives its
    /// syntax error alone; "store.yaml describes store listings, but the tenant has no app" follows from it.
    func testAnUnclosedQuoteInTenantYAMLHidesNoFalseStoreError() throws {
        var files = StoreExample.files()
        files["example/tenant.yaml"] = files["example/tenant.yaml"]!.replacingOccurrences(of: "displayName: Example", with: "displayName: \"Example")
        let found = try errors(files)
        XCTAssertFalse(found.contains { $0.ruleID.family == "store" }, found.map(\.line).joined(separator: "\n"))
        let cause = try XCTUnwrap(found.first { $0.location.file.hasSuffix("example/tenant.yaml") }, found.map(\.line).joined(separator: "\n"))
        XCTAssertTrue(found.allSatisfy { $0.location.file.hasSuffix("example/tenant.yaml") }, found.map(\.line).joined(separator: "\n"))
        XCTAssertTrue(cause.related.contains { $0.message.hasPrefix("follows from this: store.yaml describes store listings, but the tenant has no app") }, "\(cause.related)")
    }

    /// Every finding, errors and warnings, in report order.
    private func findings(_ files: [String: String]) throws -> [Diagnostic] {
        try ExampleWorkspace(RuleExample("root cause", files: files)).validate().diagnostics
    }

    /// Localization: a translation left empty (`profile:` with nothing after it is null, not text) is one
    /// `structure.type` error; "missing in 'ru'", which follows from it, is a note under it, not an error before it.
    func testAnEmptyTranslationIsOneErrorWithTheMissingKeyFoldedIntoIt() throws {
        let found = try findings(LocaleExample.files(russian: "nav:\n  home: Главная\n  profile:\n"))
        XCTAssertEqual(found.map(\.ruleID), [ShapeRule.type], found.map(\.line).joined(separator: "\n"))
        let cause = try XCTUnwrap(found.first)
        XCTAssertTrue(cause.location.file.hasSuffix("example/locales/ru.yaml") && cause.location.line == 3, "\(cause.location)")
        XCTAssertEqual(cause.related.map(\.message), ["follows from this: key 'nav.profile' of the default locale 'en' is missing in 'ru' [localization.missing-key]"])
    }

    /// References (and localization): a message of the default locale left empty is one error; the tab label that names
    /// it ("not in the default locale") and the translation that has it ("does not exist in the default locale") follow
    /// from it, and are notes under it.
    func testAnEmptyDefaultMessageIsOneErrorWithTheLabelAndTranslationFindingsFoldedIntoIt() throws {
        let found = try findings(LocaleExample.files(locale: "ru", text: "nav:\n  home: Главная\n  profile: Профиль\n", english: "nav:\n  home: Home\n  profile:\n"))
        XCTAssertEqual(found.map(\.ruleID), [ShapeRule.type], found.map(\.line).joined(separator: "\n"))
        let cause = try XCTUnwrap(found.first)
        XCTAssertTrue(cause.location.file.hasSuffix("example/locales/en.yaml"), "\(cause.location)")
        XCTAssertEqual(cause.related.map(\.message).sorted(), [
            "follows from this: key 'nav.profile' in 'ru' does not exist in the default locale 'en' [localization.extra-key]",
            "follows from this: key 'nav.profile' is not in the default locale 'en' [references.locale-key]",
        ])
    }

    /// Branding (and references): a token file that does not parse (a trailing comma) is its syntax error alone; the
    /// colours the launch screens and the adaptive icon need, and the tab colour naming a token, follow from it.
    func testATokenFileThatDoesNotParseIsOneErrorWithTheBrandingFindingsFoldedIntoIt() throws {
        var files = StoreExample.files()
        files["example/tenant.yaml"] = files["example/tenant.yaml"]!.replacingOccurrences(of: "label: nav.home}", with: "label: nav.home, color: \"{color.brand.primary}\"}")
        files["example/branding/tokens.json"] = IconExample.tokens.replacingOccurrences(of: "\"hex\": \"#ffffff\"}}\n", with: "\"hex\": \"#ffffff\"}},\n")
        let found = try findings(files)
        XCTAssertEqual(found.map(\.ruleID), [LoadRule.syntax], found.map(\.line).joined(separator: "\n"))
        let cause = try XCTUnwrap(found.first)
        XCTAssertTrue(cause.location.file.hasSuffix("example/branding/tokens.json"), "\(cause.location)")
        let notes = cause.related.map(\.message)
        XCTAssertEqual(notes.filter { $0.hasPrefix("follows from this: the default colour token '{color.brand.primary}' is not a colour token of this tenant") && $0.hasSuffix("[branding.launch-screen-color]") }.count,
                       1, "one finding, though two defaults (behind the icon, the adaptive icon's background) name the token: \(notes)")
        XCTAssertTrue(notes.contains("follows from this: tab 'home' uses token '{color.brand.primary}', which the tenant's branding does not define [references.token]"), "\(notes)")
    }

    /// Voice: a tenant manifest that does not parse (a colon in the name) leaves the brand's name unknown, so the voice
    /// rules would call its words in a heading capitalised by mistake; those findings are notes under the syntax error.
    func testATenantManifestThatDoesNotParseFoldsTheVoiceFindingsAboutItsName() throws {
        let files = [
            "example/tenant.yaml": RuleExample.base["example/tenant.yaml"]!.replacingOccurrences(of: "name: Example", with: "name: Acme Fitness: Coaching"),
            "example/voice.yaml": "labels:\n  sentenceCase: true\nwelcome: [welcome.title]\n",
            "example/locales/en.yaml": "nav:\n  home: Home\n  profile: Profile\nwelcome:\n  title: Welcome to Acme Fitness\n",
        ]
        let found = try findings(files)
        XCTAssertEqual(found.map(\.ruleID), [LoadRule.syntax], found.map(\.line).joined(separator: "\n"))
        let notes = try XCTUnwrap(found.first).related.map(\.message)
        XCTAssertTrue(notes.contains { $0.hasPrefix("follows from this: 'Acme' is capitalised in 'welcome.title'") && $0.hasSuffix("[voice.sentence-case]") }, "\(notes)")
    }

    // Assets: no finding of the assets family follows from another. Each is about one file as it is on disk (missing,
    // of another type than its extension, a header cut short, too many pixels), which no other mistake changes, so
    // assets findings stand whatever else is wrong (docs/diagnostics.md); a value that is not a path is a
    // `structure.type` error and is never looked up as a file.
    // Structure: structure findings are causes (the manifest's shape); none follows from another finding, so none is
    // folded (`testFoldingAppliesToEveryRuleFamily` checks a structure finding at a cause's place stands).

    /// Every family: a finding at the place of a value its field does not allow is folded into that finding; one at
    /// another place stands, and a structure finding is never folded (it is a cause of its own).
    func testFoldingAppliesToEveryRuleFamily() {
        let at = SourceLocation(file: "Tenants/x/tenant.yaml", line: 4, column: 9)
        let elsewhere = SourceLocation(file: "Tenants/x/tenant.yaml", line: 9, column: 3)
        for family in RuleFamily.allCases where family.rawValue != "structure" {
            let cause = Diagnostic(.error, "value is 7, above the maximum 5", at: at, rule: ShapeRule.range)
            let follow = Diagnostic(.error, "follows", at: at, rule: RuleID(rawValue: "\(family.rawValue).example"))
            let unrelated = Diagnostic(.warning, "stands", at: elsewhere, rule: RuleID(rawValue: "\(family.rawValue).example"))
            let viaRelated = Diagnostic(.error, "names the place", at: elsewhere, rule: RuleID(rawValue: "\(family.rawValue).other"),
                                        related: [RelatedLocation("the value", at: at)])
            let structural = Diagnostic(.error, "unknown key", at: at, rule: ShapeRule.unknownKey)
            let folded = RootCause.fold([cause, follow, unrelated, viaRelated, structural].normalized())
            XCTAssertEqual(Set(folded.map(\.message)), ["value is 7, above the maximum 5", "stands", "unknown key"], family.rawValue)
            XCTAssertEqual(folded.first { $0.ruleID == ShapeRule.range }?.related.map(\.message).sorted(),
                           ["follows from this: follows [\(family.rawValue).example]", "follows from this: names the place [\(family.rawValue).other]"], family.rawValue)
        }
    }
}
