import Foundation
import LiveryClient
@testable import LiveryClientCore
import LiveryReleaseFormat
import XCTest

/// What a fetch installs of a release when the app asks for what the release does not quite have: an unknown
/// tour or program is an error, a locale it does not have falls back with a note, and a tour without audio in
/// the locale comes with its audio in another language, with a note. Never a silent success.
final class BundleChoiceTests: XCTestCase {
    /// A release with core, locales it (default), en, fr and fr-CA, one tour with audio in it and en only, one program.
    static let bundles: [DownloadManifest.Bundle] = {
        func bundle(_ id: String, _ kind: BundleKind, subject: String? = nil, locale: String? = nil, policy: LoadPolicy = .onDemand,
                    dependencies: [String] = []) -> DownloadManifest.Bundle {
            DownloadManifest.Bundle(id: id, kind: kind, subject: subject, locale: locale, size: 1, sha256: String(repeating: "0", count: 64),
                                    path: "targets/x.\(id).zip", policy: policy, access: .public, dependencies: dependencies, minimumClientVersion: "1.0")
        }
        return [
            bundle("core", .core, policy: .essential),
            bundle("locale.it", .locale, locale: "it", policy: .essential),
            bundle("locale.en", .locale, locale: "en"),
            bundle("locale.fr", .locale, locale: "fr"),
            bundle("locale.fr-CA", .locale, locale: "fr-CA"),
            bundle("tour.rome", .tour, subject: "rome"),
            bundle("tour.rome.it", .tourLanguage, subject: "rome", locale: "it", dependencies: ["tour.rome"]),
            bundle("tour.rome.en", .tourLanguage, subject: "rome", locale: "en", dependencies: ["tour.rome"]),
            bundle("program.walk", .program, subject: "walk"),
        ]
    }()

    func choose(locale: String?, tours: [String] = [], programs: [String] = [], remembered: Selection = Selection()) throws -> ReleaseInstaller.BundleChoice {
        var request = FetchRequest(tenant: "t", repository: LocalRepository(root: URL(fileURLWithPath: "/nonexistent")),
                                   cache: URL(fileURLWithPath: "/nonexistent"), locale: locale)
        request.tours = tours
        request.programs = programs
        return try ReleaseInstaller.choose(Self.bundles, release: 7, request: request, remembered: remembered)
    }

    func testWhatTheReleaseHasIsInstalledAsAskedWithoutNotes() throws {
        let choice = try choose(locale: "en", tours: ["rome"], programs: ["walk"])
        XCTAssertEqual(choice.wanted, ["core", "locale.en", "locale.it", "program.walk", "tour.rome", "tour.rome.en"])
        XCTAssertEqual(choice.notes, [])
        XCTAssertEqual(try choose(locale: "fr-CA").wanted, ["core", "locale.fr-CA", "locale.it"], "an exact regional match wins")
    }

    func testAnUnknownTourOrProgramIsAnErrorThatNamesWhatTheReleaseHas() {
        XCTAssertThrowsError(try choose(locale: "en", tours: ["rome", "paris"])) {
            XCTAssertEqual("\($0)", "release 7 has no tour 'paris' (its tours: rome)")
        }
        XCTAssertThrowsError(try choose(locale: "en", programs: ["run"])) {
            XCTAssertEqual("\($0)", "release 7 has no program 'run' (its programs: walk)")
        }
    }

    func testAMissingLocaleFallsBackToItsLanguageThenToTheDefaultWithANote() throws {
        let regional = try choose(locale: "fr_BE")
        XCTAssertEqual(regional.wanted, ["core", "locale.fr", "locale.it"])
        XCTAssertEqual(regional.notes, ["locale 'fr_BE' is not in release 7: using 'fr'"])
        let unknown = try choose(locale: "de")
        XCTAssertEqual(unknown.wanted, ["core", "locale.it"])
        XCTAssertEqual(unknown.notes, ["locale 'de' is not in release 7 (it has en, fr, fr-CA, it): using 'it'"])
    }

    func testATourWithoutAudioInTheLocaleComesWithTheDefaultLocalesAudioAndANote() throws {
        let french = try choose(locale: "fr", tours: ["rome"])
        XCTAssertEqual(french.wanted, ["core", "locale.fr", "locale.it", "tour.rome", "tour.rome.it"])
        XCTAssertEqual(french.notes, ["tour 'rome' has no audio in 'fr': installing its 'it' audio"])
        // A regional locale takes its language's audio without a note about the audio.
        XCTAssertEqual(try choose(locale: "en-GB", tours: ["rome"]).wanted, ["core", "locale.en", "locale.it", "tour.rome", "tour.rome.en"])
    }

    func testARememberedTourTheReleaseNoLongerHasIsDroppedWithANote() throws {
        let choice = try choose(locale: "en", remembered: Selection(tours: ["rome", "venice"], programs: []))
        XCTAssertEqual(choice.wanted, ["core", "locale.en", "locale.it", "tour.rome", "tour.rome.en"])
        XCTAssertEqual(choice.notes, ["tour 'venice' is not in release 7 any more"])
    }
}
