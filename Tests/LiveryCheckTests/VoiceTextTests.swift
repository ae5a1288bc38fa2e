@testable import LiveryCheck
import LiveryDiagnostics
import LiveryLoad
import XCTest

/// The text primitives of the voice rules: readings of a message, words, emoji and exclamation counts.
final class VoiceTextTests: XCTestCase {
    private func reading(_ text: String) -> VoiceRendering {
        let readings = VoiceText.renderings(of: text)
        XCTAssertEqual(readings.count, 1, text)
        return readings.first ?? VoiceRendering()
    }

    private func words(_ text: String, splits: Bool = false) -> [String] {
        VoiceText.words(in: reading(text), splitsApostrophes: splits).map(\.text)
    }

    // MARK: Emoji

    func testCountsAZWJFamilyOnce() {
        XCTAssertEqual(VoiceText.emoji(in: reading("Plan 👨‍👩‍👧‍👦 for all")).count, 1)
    }

    func testCountsAFlagOnce() {
        XCTAssertEqual(VoiceText.emoji(in: reading("From 🇫🇷 and 🇮🇹")).count, 2)
    }

    func testCountsASkinTonedHandOnce() {
        XCTAssertEqual(VoiceText.emoji(in: reading("Nice 👍🏽")).count, 1)
    }

    func testCountsAKeycapButNotABareDigit() {
        XCTAssertEqual(VoiceText.emoji(in: reading("Step 1️⃣ of 3")).count, 1)
    }

    func testTextStyleSymbolsAreNotEmojiUnlessVariationSelected() {
        XCTAssertEqual(VoiceText.emoji(in: reading("© Example™ ❤ ✔")).count, 0)
        XCTAssertEqual(VoiceText.emoji(in: reading("With ❤️")).count, 1)
        XCTAssertEqual(VoiceText.emoji(in: reading("Text heart 🔥\u{FE0E}")).count, 0)
    }

    func testEmojiPositionsAreMessageOffsets() {
        // "🔥" is one scalar at offset 3; the family starts at offset 5.
        XCTAssertEqual(VoiceText.emoji(in: reading("Go 🔥 👨‍👩‍👧")).map { reading("Go 🔥 👨‍👩‍👧").offsets[$0] }, [3, 5])
    }

    // MARK: Readings

    func testEachPluralOptionIsItsOwnReading() {
        let readings = VoiceText.renderings(of: "{count, plural, one {# day 🔥} other {# days 🔥🔥}}")
        XCTAssertEqual(readings.map { VoiceText.emoji(in: $0).count }, [1, 2])
        XCTAssertEqual(readings[0].scalars.first, VoiceRendering.placeholder)
    }

    func testMarkupTagsAreNotCopy() {
        let readings = VoiceText.renderings(of: "<b>Save</b> now")
        XCTAssertEqual(readings.first.map { VoiceText.words(in: $0, splitsApostrophes: false).map(\.text) }, ["Save", "now"])
    }

    func testManyOptionsStillReadEachOptionOnce() {
        let options = (0..<40).map { "=\($0) {word\($0)}" }.joined(separator: " ")
        let readings = VoiceText.renderings(of: "{a, select, x {A} other {B}} {n, plural, \(options) other {rest}}")
        let seen = Set(readings.flatMap { VoiceText.words(in: $0, splitsApostrophes: false).map(\.text) })
        XCTAssertEqual(readings.count, 41, "paired up, not 2 × 41 combinations")
        for word in ["word0", "word39", "rest", "A", "B"] { XCTAssertTrue(seen.contains(word), "\(word) not read in \(seen)") }
    }

    func testInvalidMessageHasNoReadings() {
        XCTAssertTrue(VoiceText.renderings(of: "Hello {name").isEmpty)
    }

    // MARK: Words

    func testCyrillicWordBoundaries() {
        XCTAssertEqual(words("Рады тебя видеть, {name}!"), ["Рады", "тебя", "видеть"])
        // "тебя" inside a longer word is not the pronoun.
        XCTAssertEqual(words("Тебяшка"), ["Тебяшка"])
    }

    func testFrenchAndItalianApostrophesSplitWords() {
        XCTAssertEqual(words("l'app", splits: true), ["l", "app"])
        XCTAssertEqual(words("dell’app", splits: true), ["dell", "app"])
        let elided = VoiceText.words(in: reading("Je t'aide"), splitsApostrophes: true)
        XCTAssertEqual(elided.map(\.beforeApostrophe), [false, true, false])
    }

    func testEnglishApostrophesJoinWords() {
        XCTAssertEqual(words("Don’t stop, I'm here"), ["Don’t", "stop", "I'm", "here"])
    }

    func testSentenceStarts() {
        let found = VoiceText.words(in: reading("Fertig. Sie können, Sie auch"), splitsApostrophes: false)
        XCTAssertEqual(found.map(\.startsSentence), [true, true, false, false, false])
    }

    func testFormalityMatchingFollowsCaseRules() {
        let german = VoiceLanguage.german
        func formal(_ text: String) -> [String] {
            VoiceText.words(in: reading(text), splitsApostrophes: false)
                .filter { word in german.formal.contains { VoiceFormalityRule.matches($0, word) } }.map(\.text)
        }
        XCTAssertEqual(formal("Sie kennen den Weg"), [], "sentence-initial Sie may be 'they'")
        XCTAssertEqual(formal("Danke, dass Sie da sind"), ["Sie"])
        XCTAssertEqual(formal("Wir schreiben Ihnen"), ["Ihnen"])
        XCTAssertEqual(formal("Wir schreiben ihnen"), [], "lowercase is 'them'")
        let french = VoiceLanguage.french
        let elided = VoiceText.words(in: reading("a-t-il vu? Je t'aide"), splitsApostrophes: true)
            .filter { word in french.informal.contains { VoiceFormalityRule.matches($0, word) } }
        XCTAssertEqual(elided.map(\.offset), [14], "only the elided t' is the pronoun, not the t of a-t-il")
    }

    func testExclamations() {
        XCTAssertEqual(VoiceText.exclamations(in: reading("¡Hola! Wow‼")).count, 3)
    }

    // MARK: Kinds of message

    func testNamingConventionGivesKinds() {
        let settings = VoiceSettings(Node(.mapping([]), at: .start(of: "voice.yaml")))
        XCTAssertEqual(settings.kinds(of: "actions.retry"), [.button])
        XCTAssertEqual(settings.kinds(of: "bookings.empty.title"), [.emptyState, .heading])
        XCTAssertEqual(settings.kinds(of: "common.genericError"), [.error])
        XCTAssertEqual(settings.kinds(of: "flights.empty"), [.emptyState])
        XCTAssertEqual(settings.kinds(of: "list.isEmpty"), [])
        XCTAssertEqual(settings.kinds(of: "nav.home"), [])
    }
}
