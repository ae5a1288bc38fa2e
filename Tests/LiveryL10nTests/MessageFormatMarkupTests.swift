import XCTest
@testable import LiveryL10n

final class MessageFormatMarkupTests: XCTestCase {
    private func tags(_ text: String, includeQuoted: Bool = false) -> [String] {
        guard let message = parsed(text) else { return [] }
        return MarkupTags.find(in: message, includeQuoted: includeQuoted).map { "\($0.kind.rawValue):\($0.name)@\($0.position)" }
    }

    private func problem(_ text: String) -> String? {
        guard let message = parsed(text) else { return "parse error" }
        return MarkupTags.firstProblem(in: message).map { "\($0.kind.rawValue):\($0.tag.name)@\($0.tag.position)" }
    }

    func testFindsOpenCloseSelfClosingAndAttributeTags() throws {
        XCTAssertEqual(tags("<b>bold</b>, <br/> <a href=\"{url}\" title='x > y'>link</a><BR>"),
                       ["open:b@1:1", "close:b@1:8", "selfClosing:br@1:14", "open:a@1:20", "close:a@1:54", "selfClosing:br@1:58"])
        let link = try XCTUnwrap(MarkupTags.find(in: XCTUnwrap(parsed("<a href=\"{url}\">x</a>"))).first)
        XCTAssertEqual(link.text, "<a href=\"{…}\">")
    }

    func testComparisonsAndBrokenTagsAreNotMarkup() {
        XCTAssertEqual(tags("a < b and c > d, x<y, 3 <4>, <b.x>, <b"), [])
        XCTAssertEqual(tags("<b{x}>"), [])
    }

    func testTagsInsideQuotedICUSyntaxAreIgnoredUnlessAsked() {
        XCTAssertEqual(tags("'{<b>}' <i>"), ["open:i@1:9"])
        XCTAssertEqual(tags("'{<b>}' <i>", includeQuoted: true), ["open:b@1:3", "open:i@1:9"])
    }

    func testTagsInSubMessagesCarryTheirPositions() {
        XCTAssertEqual(tags("Ваш <b>{n, plural, one {<i>#</i>} other {#}}</b>"),
                       ["open:b@1:5", "open:i@1:25", "close:i@1:29", "close:b@1:45"])
    }

    func testBalancedMarkupHasNoProblem() {
        XCTAssertNil(problem("<b>{n, plural, one {<i>#</i>} other {#}}</b> <br> <img src=\"x\"/>"))
        XCTAssertNil(problem("<B>x</b>"))  // HTML names are case-insensitive
        XCTAssertNil(problem("no markup at all, 1 < 2"))
    }

    func testUnbalancedMarkupIsLocated() {
        XCTAssertEqual(problem("<b><i>x</b></i>"), "mismatched-close:b@1:8")
        XCTAssertEqual(problem("x</b>"), "unexpected-close:b@1:2")
        XCTAssertEqual(problem("ok <b>never closed"), "unclosed:b@1:4")
        // Each branch must balance on its own: the `other` branch forgets its `</b>`.
        XCTAssertEqual(problem("{n, plural, one {<b>#</b>} other {<b>#}}"), "unclosed:b@1:35")
        // A tag may not open outside a plural and close inside one of its branches.
        XCTAssertEqual(problem("<b>{n, plural, other {x</b>}}"), "unclosed:b@1:1")
        XCTAssertEqual(problem("</br>"), "unexpected-close:br@1:1")
    }

    func testTheEarliestProblemWins() throws {
        let message = try XCTUnwrap(parsed("{n, plural, other {</i>}} </b>"))
        let found = try XCTUnwrap(MarkupTags.firstProblem(in: message))
        XCTAssertEqual(found.tag.position.column, 20)
        XCTAssertEqual(found.description, "1:20: </i> has no matching <i> in the same message")
    }
}
