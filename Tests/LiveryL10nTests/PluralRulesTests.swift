import XCTest
@testable import LiveryL10n

/// Operands, the rule parser, locale lookup and a few facts about well-known languages.
final class PluralRulesTests: XCTestCase {
    private func operands(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> PluralOperands {
        try XCTUnwrap(PluralOperands(text), "'\(text)' should parse", file: file, line: line)
    }

    // MARK: Operands (UTS #35 Part 3, "Plural Operand Meanings")

    func testOperandsOfDecimals() throws {
        let a = try operands("1.50")
        XCTAssertEqual([a.i, a.f, a.t], [1, 50, 5])
        XCTAssertEqual([a.v, a.w, a.e, a.c], [2, 1, 0, 0])
        XCTAssertEqual(a.n, 1.5)

        let b = try operands("1.2e3")
        XCTAssertEqual([b.i, b.f, b.t], [1200, 0, 0])
        XCTAssertEqual([b.v, b.w, b.e, b.c], [0, 0, 3, 3])
        XCTAssertEqual(b.n, 1200)
        XCTAssertEqual(try operands("1.2c3"), b)

        let c = try operands("-3")
        XCTAssertEqual([c.i, c.f, c.t], [3, 0, 0])
        XCTAssertEqual([c.v, c.w, c.e], [0, 0, 0])
        XCTAssertEqual(c.n, 3)
        XCTAssertEqual(c, PluralOperands(-3))

        let d = try operands("0.010")
        XCTAssertEqual([d.i, d.f, d.t], [0, 10, 1])
        XCTAssertEqual([d.v, d.w, d.e], [3, 2, 0])
        XCTAssertEqual(d.n, 0.01)
    }

    func testCompactExponentKeepsTheFractionThatIsLeft() throws {
        let a = try operands("1.20050c3")  // 1200.50
        XCTAssertEqual([a.i, a.f, a.t], [1200, 50, 5])
        XCTAssertEqual([a.v, a.w, a.e], [2, 1, 3])
        let b = try operands("1.0000001c6")  // 1000000.1
        XCTAssertEqual([b.i, b.f], [1_000_000, 1])
        XCTAssertEqual([b.v, b.e], [1, 6])
        XCTAssertEqual(try operands("5c0").e, 0)
        XCTAssertEqual(try operands("1.0").description, "1.0")
        XCTAssertEqual(try operands("007.10").description, "7.10")
    }

    func testOperandsOfIntegers() {
        XCTAssertEqual(PluralOperands(0).i, 0)
        XCTAssertEqual(PluralOperands(0).description, "0")
        XCTAssertEqual(PluralOperands(Int.min).i, UInt64(Int.min.magnitude))
        XCTAssertEqual(PluralOperands(42), PluralOperands("42"))
    }

    func testMalformedNumbersAreRefused() {
        for text in ["", "-", "1.", ".5", "1,5", "1e", "1e-3", "1.2.3", "+1", "1 000", "1e1000", "0x10", "١"] {
            XCTAssertNil(PluralOperands(text), "'\(text)' should not parse")
        }
    }

    func testHugeNumbersAreExact() throws {
        // 10^30 + 21: i does not fit in 64 bits, but remainders are exact.
        let rules = try PluralRules([(.one, "i % 10 = 1 and i % 100 != 11"), (.few, "i = 21")])
        XCTAssertEqual(rules.category("1000000000000000000000000000021"), .one)
        XCTAssertEqual(try operands("1000000000000000000000000000021").i, .max)
        XCTAssertEqual(PluralRules.cardinal("ru")?.category("1000000000000000000000000000022"), .few)
    }

    // MARK: Parser

    func testAndBindsTighterThanOr() throws {
        // UTS #35: `a or b and c` is `a or (b and c)`; read as `(a or b) and c`, plain 1 would be `other`.
        let rules = try PluralRules([(.one, "i = 1 or i = 2 and v = 1")])
        XCTAssertEqual(rules.category(1), .one)
        XCTAssertEqual(rules.category("1.5"), .one)
        XCTAssertEqual(rules.category("2.5"), .one)
        XCTAssertEqual(rules.category(2), .other)
        let other = try PluralRules([(.one, "v = 0 or i = 5 and v = 2")])
        XCTAssertEqual(other.category(7), .one)
        XCTAssertEqual(other.category("5.00"), .one)
        XCTAssertEqual(other.category("5.0"), .other)
    }

    func testModulusRangesAndLists() throws {
        let rules = try PluralRules([(.few, "n % 10 = 2..4,9 and n % 100 != 12..14"), (.many, "n mod 100 in 11..19")])
        XCTAssertEqual([2, 3, 4, 9, 22, 109, 12, 13, 14, 5, 11, 19, 111].map { rules.category($0) },
                       [.few, .few, .few, .few, .few, .few, .many, .many, .many, .other, .many, .few, .many])
        // n keeps its fraction through the modulus: 22.5 % 10 = 2.5, in no integer range.
        XCTAssertEqual(rules.category("22.5"), .other)
        XCTAssertEqual(rules.category("22.0"), .few)
    }

    func testIsNotInAndWithin() throws {
        let rules = try PluralRules([(.zero, "n is 0"), (.one, "n within 0..2 and n is not 2"), (.two, "n not in 0..5"), (.few, "n not within 0..3")])
        XCTAssertEqual(rules.category(0), .zero)
        XCTAssertEqual(rules.category("1.5"), .one)  // within accepts a fraction, in does not
        XCTAssertEqual(rules.category(2), .other)  // n not within 0..3 is false for 2
        XCTAssertEqual(rules.category("3.5"), .two)  // not in 0..5: 3.5 is no integer of the range
        XCTAssertEqual(rules.category("2.5"), .two)
        XCTAssertEqual(rules.category(4), .few)
        XCTAssertEqual(rules.category(7), .two)
        XCTAssertEqual(try PluralRules([(.one, "n within 1..2")]).category("2.5"), .other)
    }

    func testEveryOperandIsAccepted() throws {
        for operand in ["n", "i", "v", "w", "f", "t", "c", "e"] {
            XCTAssertNoThrow(try PluralCondition("\(operand) = 0"), operand)
        }
        let rules = try PluralRules([(.one, "f = 50"), (.two, "t = 5 and w = 1"), (.many, "c = 3"), (.few, "e = 6")])
        XCTAssertEqual(rules.category("1.50"), .one)
        XCTAssertEqual(rules.category("1.5"), .two)
        XCTAssertEqual(rules.category("1c3"), .many)
        XCTAssertEqual(rules.category("1e6"), .few)
    }

    func testSamplesAndSpacingAreIgnored() throws {
        let condition = try PluralCondition("  i=1   and v=0 @integer 1 @decimal 1.0, …")
        XCTAssertTrue(condition.matches(PluralOperands(1)))
        XCTAssertFalse(condition.matches(try operands("1.0")))
        XCTAssertTrue(try PluralCondition(" @integer 0~15, …").matches(PluralOperands(7)))
        XCTAssertTrue(try PluralCondition("").matches(PluralOperands(7)))
    }

    func testMalformedRulesAreErrors() {
        let malformed = ["n", "n =", "n = 1 and", "or n = 1", "x = 1", "n == 1", "n = 1..", "n = ..2", "n = 3..1",
                         "n % 0 = 1", "n % = 1", "n = 1,", "n = 1 n = 2", "n not = 1", "n is 1..2", "n in", "N = 1",
                         "n = 1 or", "n = 99999999999999999999", "n = -1", "n = 1 xor n = 2", "(n = 1)"]
        for text in malformed {
            XCTAssertThrowsError(try PluralCondition(text), "'\(text)' should be refused") { error in
                XCTAssertTrue(error is PluralRuleError)
            }
        }
        XCTAssertThrowsError(try PluralRules([(.other, "n = 1")]))
        XCTAssertThrowsError(try PluralRules([(.one, "n = 1"), (.one, "n = 2")]))
        do {
            _ = try PluralCondition("n = 1 and q = 2")
            XCTFail("should throw")
        } catch {
            XCTAssertEqual(error.offset, 10)
        }
    }

    // MARK: Locales and known facts

    func testKnownLanguages() throws {
        func cardinal(_ locale: String) throws -> PluralRules { try XCTUnwrap(PluralRules.cardinal(locale), locale) }
        XCTAssertEqual(try cardinal("ru").categories, [.one, .few, .many, .other])
        XCTAssertEqual(try cardinal("en").categories, [.one, .other])
        XCTAssertEqual(try cardinal("it").categories, [.one, .many, .other])
        XCTAssertEqual(try cardinal("fr").categories, [.one, .many, .other])
        XCTAssertEqual(try cardinal("pl").categories, [.one, .few, .many, .other])
        XCTAssertEqual(try cardinal("ar").categories, [.zero, .one, .two, .few, .many, .other])
        XCTAssertEqual(PluralRules.ordinal("en")?.categories, [.one, .two, .few, .other])
        XCTAssertEqual(PluralRules.cardinal("ja")?.categories, [.other])

        let ru = try cardinal("ru")
        XCTAssertEqual([1, 2, 5, 11, 21, 22, 25, 111, 112].map { ru.category($0) }, [.one, .few, .many, .many, .one, .few, .many, .many, .many])
        XCTAssertEqual(ru.category("1.5"), .other)
        let en = try cardinal("en")
        XCTAssertEqual([en.category(1), en.category("1.0"), en.category(0)], [.one, .other, .other])
        let fr = try cardinal("fr")
        XCTAssertEqual([fr.category(0), fr.category("1.5"), fr.category(2), fr.category(1_000_000), fr.category("1c6")], [.one, .one, .other, .many, .many])
        let enOrdinal = try XCTUnwrap(PluralRules.ordinal("en"))
        XCTAssertEqual([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101].map { enOrdinal.category($0) },
                       [.one, .two, .few, .other, .other, .other, .other, .one, .two, .few, .one])
    }

    func testLocaleLookup() throws {
        // pt_PT has rules of its own; pt makes 0 and 1 `one`, pt_PT only 1.
        XCTAssertEqual(PluralRules.cardinal("pt")?.category(0), .one)
        for name in ["pt-PT", "pt_PT", "PT-pt", "pt_pt"] {
            XCTAssertEqual(PluralRules.cardinal(name)?.category(0), .other, name)
        }
        XCTAssertEqual(PluralRules.cardinal("pt-BR")?.category(0), .one)
        XCTAssertEqual(PluralRules.cardinal("ru-RU")?.categories, [.one, .few, .many, .other])
        XCTAssertEqual(PluralRules.cardinal("zh-Hant-TW")?.categories, [.other])
        XCTAssertEqual(PluralRules.cardinal("EN_us.UTF-8")?.categories, [.one, .other])
        XCTAssertEqual(PluralRules.cardinal("de-u-nu-latn")?.categories, [.one, .other])
        XCTAssertNotNil(PluralRules.cardinal("root"))
        for unknown in ["", "xx", "xx-RU", "-", "_", "qqq"] {
            XCTAssertNil(PluralRules.cardinal(unknown), unknown)
            XCTAssertNil(PluralRules.ordinal(unknown), unknown)
        }
        XCTAssertTrue(PluralRules.cardinalLocales.contains("pt_PT"))
        XCTAssertFalse(PluralRules.cldrVersion.isEmpty)
    }

    func testRulesAreSafeToShareAcrossTasks() async {
        let results = await withTaskGroup(of: PluralCategory?.self) { group in
            for n in 0..<50 { group.addTask { PluralRules.cardinal(n % 2 == 0 ? "ru" : "pl")?.category(n) } }
            var all: [PluralCategory?] = []
            for await result in group { all.append(result) }
            return all
        }
        XCTAssertEqual(results.count, 50)
        XCTAssertFalse(results.contains(nil))
    }
}
