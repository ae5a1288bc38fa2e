import LiveryDiagnostics
import XCTest
@testable import LiveryL10n

// Shared helpers for the MessageFormat*Tests files.

/// Parses `text`, failing the test (and returning nil) on a syntax error.
func parsed(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> MessageFormat? {
    do {
        return try MessageFormat(parsing: text)
    } catch {
        XCTFail("unexpected error for \(text.debugDescription): \(error)", file: file, line: line)
        return nil
    }
}

/// Asserts that `text` fails with `code` at `line:column` (and at `offset`, when given).
func assertError(_ text: String, _ code: MessageFormatError.Code, line: Int, column: Int, offset: Int? = nil,
                 file: StaticString = #filePath, sourceLine: UInt = #line) {
    switch MessageFormat.parse(text) {
    case .success:
        XCTFail("expected \(code.rawValue) for \(text.debugDescription), but it parsed", file: file, line: sourceLine)
    case .failure(let error):
        XCTAssertEqual(error.code, code, "\(text.debugDescription): \(error)", file: file, line: sourceLine)
        XCTAssertEqual(error.position.line, line, "line for \(text.debugDescription): \(error)", file: file, line: sourceLine)
        XCTAssertEqual(error.position.column, column, "column for \(text.debugDescription): \(error)", file: file, line: sourceLine)
        if let offset {
            XCTAssertEqual(error.position.offset, offset, "offset for \(text.debugDescription): \(error)", file: file, line: sourceLine)
        }
    }
}

/// A compact picture of a tree that shows what tests care about: `"text"` for literal text, `'text'` for
/// quoted text, `{name:type:style}` for arguments, `#`, and `[name type offset:N sel(…) …]` for selections.
func sketch(_ message: MessageFormat.Message) -> String {
    message.parts.map { part -> String in
        switch part {
        case .text(let t): return t.isQuoted ? "'\(t.text)'" : "\"\(t.text)\""
        case .pound: return "#"
        case .argument(let a):
            guard let type = a.type else { return "{\(a.name)}" }
            switch a.style {
            case .none: return "{\(a.name):\(type.rawValue)}"
            case .keyword(let k): return "{\(a.name):\(type.rawValue):kw=\(k)}"
            case .skeleton(let k): return "{\(a.name):\(type.rawValue):sk=\(k)}"
            case .pattern(let k): return "{\(a.name):\(type.rawValue):pat=\(k)}"
            }
        case .selection(let s):
            var out = "[\(s.name) \(s.type.rawValue)"
            if s.offsetPosition != nil { out += " offset:\(s.offset)" }
            for option in s.options { out += " \(option.selector)(\(sketch(option.message)))" }
            return out + "]"
        }
    }.joined()
}

/// `sketch` with adjacent literal text merged and quoting ignored: what a message means rather than how
/// it was spelled, for round-trip checks.
func contentSketch(_ message: MessageFormat.Message) -> String {
    var merged: [MessageFormat.Part] = []
    for part in message.parts {
        switch part {
        case .text(let t):
            if case .text(var previous) = merged.last {
                previous.text += t.text
                merged[merged.count - 1] = .text(previous)
            } else {
                merged.append(.text(MessageFormat.TextSegment(text: t.text, raw: "", start: .start, isQuoted: false)))
            }
        case .selection(var s):
            for i in s.options.indices {
                let inner = contentSketch(s.options[i].message)
                s.options[i].message = MessageFormat.Message(parts: [.text(MessageFormat.TextSegment(text: inner, raw: "", start: .start, isQuoted: false))], start: .start)
            }
            merged.append(.selection(s))
        default:
            merged.append(part)
        }
    }
    return sketch(MessageFormat.Message(parts: merged, start: .start))
}

func sketch(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> String? {
    parsed(text, file: file, line: line).map { sketch($0.root) }
}

/// A small deterministic generator (SplitMix64), so fuzz failures reproduce.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

// MARK: - Parsing

final class MessageFormatTests: XCTestCase {
    func testLiteralTextAndEmptyMessage() throws {
        let message = try XCTUnwrap(parsed("Hello, world!"))
        XCTAssertEqual(sketch(message.root), "\"Hello, world!\"")
        XCTAssertEqual(message.textSegments.first?.start, MessagePosition(offset: 0, line: 1, column: 1))
        XCTAssertEqual(try XCTUnwrap(parsed("")).root.parts, [])
    }

    func testSimpleArguments() throws {
        let message = try XCTUnwrap(parsed("Hi {name}, {0} and {  spaced\t} {42}"))
        XCTAssertEqual(sketch(message.root), "\"Hi \"{name}\", \"{0}\" and \"{spaced}\" \"{42}")
        let uses = message.argumentUses
        XCTAssertEqual(uses.map(\.name), [.named("name"), .indexed(0), .named("spaced"), .indexed(42)])
        XCTAssertEqual(uses.map(\.position.column), [4, 12, 20, 32])
        XCTAssertEqual(uses[2].namePosition.column, 23)
        XCTAssertTrue(uses.allSatisfy { $0.type == nil })
    }

    func testArgumentNamesAreICUIdentifiers() {
        // ICU: a name made only of ASCII digits is a number; any other run of non-syntax, non-space
        // characters is a name, even one starting with a digit.
        XCTAssertEqual(sketch("{1a}{user_name}{имя}{0}"), "{1a}{user_name}{имя}{0}")
        let names = parsed("{1a}{0}")?.argumentUses.map(\.name)
        XCTAssertEqual(names, [.named("1a"), .indexed(0)])
    }

    func testTypedArgumentsRecordTheirStyle() {
        let cases: [(String, String)] = [
            ("{n, number}", "{n:number}"),
            ("{n,number,integer}", "{n:number:kw=integer}"),
            ("{n, number, PERCENT}", "{n:number:kw=percent}"),  // ICU matches style keywords case-insensitively
            ("{n, number, currency}", "{n:number:kw=currency}"),
            ("{n, number, ::currency/EUR unit-width-narrow}", "{n:number:sk=currency/EUR unit-width-narrow}"),
            ("{n, number, :: percent }", "{n:number:sk=percent}"),
            ("{n, number, #,##0.00}", "{n:number:pat=#,##0.00}"),
            ("{n, number, '{'#'}'}", "{n:number:pat='{'#'}'}"),  // quotes and braces stay in the pattern verbatim
            ("{n, number, {a}b}", "{n:number:pat={a}b}"),  // braces nest inside a style
            ("{n, number, short}", "{n:number:pat=short}"),  // `short` is a date keyword, not a number one
            ("{d, date, short}", "{d:date:kw=short}"),
            ("{d, date, medium}", "{d:date:kw=medium}"),
            ("{d, date, long}", "{d:date:kw=long}"),
            ("{d, date, full}", "{d:date:kw=full}"),
            ("{d, date, ::yMMMd}", "{d:date:sk=yMMMd}"),
            ("{t, time, HH:mm}", "{t:time:pat=HH:mm}"),
            ("{t, time , short }", "{t:time:kw=short}"),
            ("{n, spellout}", "{n:spellout}"),
            ("{n, spellout, %spellout-ordinal}", "{n:spellout:pat=%spellout-ordinal}"),
            ("{n, ordinal}", "{n:ordinal}"),
            ("{n, duration}", "{n:duration}"),
            ("{n, NUMBER}", "{n:number}"),  // ICU matches type names case-insensitively
            ("{n, number, }", "{n:number}"),  // an empty style is no style
        ]
        for (text, expected) in cases {
            XCTAssertEqual(sketch(text), expected, text)
        }
    }

    func testPluralWithOffsetExplicitAndKeywordSelectors() throws {
        let text = "{n, plural, offset:1 =0 {nobody} =1 {just {host}} one {{host} and # other} other {{host} and # others}}"
        let message = try XCTUnwrap(parsed(text))
        XCTAssertEqual(sketch(message.root),
                       "[n plural offset:1 =0(\"nobody\") =1(\"just \"{host}) one({host}\" and \"#\" other\") other({host}\" and \"#\" others\")]")
        let plural = try XCTUnwrap(message.selections.first)
        XCTAssertEqual(plural.offset, 1)
        XCTAssertEqual(plural.offsetPosition?.column, 13)
        XCTAssertEqual(plural.options.map(\.selector), [.explicit(0, "0"), .explicit(1, "1"), .keyword("one"), .keyword("other")])
        XCTAssertEqual(plural.options.map(\.position.column), [22, 34, 51, 76])
        XCTAssertEqual(plural.options[0].message.start.column, 26)
        XCTAssertEqual(message.poundPositions.map(\.column), [67, 94])
        XCTAssertTrue(plural.hasOther)
        XCTAssertEqual(plural.keywords, ["one", "other"])
        XCTAssertNotNil(plural.option(for: .explicit(1, "1.0")))
        XCTAssertTrue(message.isPluralLike)
    }

    func testExplicitSelectorsMayBeDecimalOrSigned() throws {
        // ICU parses `=N` as a double, so `=1.5` and `=-1` are valid.
        let plural = try XCTUnwrap(parsed("{n, plural, =1.5 {a} =-1 {b} other {c}}")?.selections.first)
        XCTAssertEqual(plural.options.map(\.selector), [.explicit(1.5, "1.5"), .explicit(-1, "-1"), .keyword("other")])
    }

    func testSelectOrdinalUsesPound() {
        XCTAssertEqual(sketch("{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}"),
                       "[n selectordinal one(#\"st\") two(#\"nd\") few(#\"rd\") other(#\"th\")]")
    }

    func testSelectKeywordsAndLiteralPoundOutsidePlural() throws {
        let message = try XCTUnwrap(parsed("# {g, select, female {she #} male {he} other {they}}"))
        XCTAssertEqual(sketch(message.root), "\"# \"[g select female(\"she #\") male(\"he\") other(\"they\")]")
        XCTAssertEqual(message.poundPositions, [])
        XCTAssertFalse(message.isPluralLike)
        XCTAssertEqual(message.selections.first?.keywords, ["female", "male", "other"])
    }

    func testPluralWithoutOtherIsNotAParseError() throws {
        // ICU's parser demands `other`; Livery leaves that to a rule so it can explain the fix.
        let plural = try XCTUnwrap(parsed("{n, plural, one {a}}")?.selections.first)
        XCTAssertFalse(plural.hasOther)
    }

    func testPoundInSelectNestedInPluralRefersToThePlural() throws {
        // Livery's choice, as in FormatJS: ICU4J's MessagePattern would keep this `#` literal.
        let message = try XCTUnwrap(parsed("{n, plural, other {{g, select, female {# for her} other {# for them}}}}"))
        XCTAssertEqual(sketch(message.root), "[n plural other([g select female(#\" for her\") other(#\" for them\")])]")
        XCTAssertEqual(message.poundPositions.map(\.column), [40, 58])
    }

    func testPluralInsideSelectInsidePlural() throws {
        let text = "{a, plural, one {{g, select, other {{b, plural, other {# b} =0 {'#'}} # a}}} other {# a}}"
        let message = try XCTUnwrap(parsed(text))
        XCTAssertEqual(sketch(message.root),
                       "[a plural one([g select other([b plural other(#\" b\") =0('#')]\" \"#\" a\")]) other(#\" a\")]")
        XCTAssertEqual(message.selections.map(\.name), [.named("a"), .named("g"), .named("b")])
        XCTAssertEqual(message.poundPositions.map(\.column), [56, 71, 85])
        XCTAssertEqual(message.arguments.keys.sorted(), [.named("a"), .named("b"), .named("g")])
        XCTAssertTrue(message.isPluralLike)
    }

    func testNestedSelectOrdinalMakesAMessagePluralLike() {
        XCTAssertEqual(parsed("{g, select, other {{n, selectordinal, other {#}}}}")?.isPluralLike, true)
        XCTAssertEqual(parsed("{g, select, other {{n, number}}}")?.isPluralLike, false)
    }

    func testArgumentsGroupUsesByName() throws {
        let message = try XCTUnwrap(parsed("{n} {n, number} {n, plural, other {{when, date, short}}} {0}"))
        let uses = try XCTUnwrap(message.arguments[.named("n")])
        XCTAssertEqual(uses.map(\.type), [nil, .number, .plural])
        XCTAssertEqual(uses.map(\.position.column), [1, 5, 17])
        XCTAssertEqual(message.arguments[.named("when")]?.first?.type, .date)
        XCTAssertEqual(message.arguments[.indexed(0)]?.count, 1)
        XCTAssertEqual(message.arguments.count, 3)
    }

    func testWhitespaceInsideBracesIsPatternWhiteSpaceOnly() {
        XCTAssertEqual(sketch("{\n n \n,\n plural \n, \n one \n {a} \n other \n {b} \n}"), "[n plural one(\"a\") other(\"b\")]")
        // NO-BREAK SPACE is not Pattern_White_Space, so it is part of the name here, which then meets a space.
        assertError("{n\u{00A0}x y}", .invalidArgumentName, line: 1, column: 6)
    }

    func testTextSegmentsWalkEveryDepthWithPositions() throws {
        let text = "Привет, {name}!\n{n, plural, one {Одно} other {Много ''новых''}}"
        let message = try XCTUnwrap(parsed(text))
        let segments = message.textSegments
        XCTAssertEqual(segments.map(\.text), ["Привет, ", "!\n", "Одно", "Много 'новых'"])
        XCTAssertEqual(segments.map(\.start.line), [1, 1, 2, 2])
        XCTAssertEqual(segments.map(\.start.column), [1, 15, 18, 31])
        XCTAssertEqual(segments[3].raw, "Много ''новых''")
        // The scalar after `''` sits two columns further on.
        XCTAssertEqual(segments[3].position(ofScalarAt: 6)?.column, 37)
        XCTAssertEqual(segments[3].position(ofScalarAt: 7)?.column, 39)
        XCTAssertEqual(segments[1].position(ofScalarAt: 1), MessagePosition(offset: 15, line: 1, column: 16))
        XCTAssertNil(segments[1].position(ofScalarAt: 2))
        XCTAssertEqual(message.root.plainText, "Привет, !\n")
    }

    func testPositionsCountUnicodeScalarsNotGraphemes() throws {
        // The family emoji is one grapheme but five scalars (three people joined by two ZWJs).
        let message = try XCTUnwrap(parsed("👨‍👩‍👧 {who}"))
        XCTAssertEqual(message.argumentUses.first?.position, MessagePosition(offset: 6, line: 1, column: 7))
    }

    func testFileLocationOfAPosition() {
        let start = SourceLocation(file: "strings.yaml", line: 10, column: 8)
        XCTAssertEqual(MessagePosition(offset: 3, line: 1, column: 4).location(in: start), SourceLocation(file: "strings.yaml", line: 10, column: 11))
        XCTAssertEqual(MessagePosition(offset: 9, line: 2, column: 3).location(in: start), SourceLocation(file: "strings.yaml", line: 11, column: 3))
    }
}
