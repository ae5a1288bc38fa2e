import Foundation
import XCTest
@testable import LiveryL10n

/// Every `@integer` and `@decimal` sample CLDR gives for its own rules must select that rule's
/// category, for every locale of the group. The samples come from Fixtures/plural-samples.txt,
/// which livery-cldr writes from the same XML as the table (so the test needs no CLDR install).
final class PluralSampleTests: XCTestCase {
    struct Group {
        var kind: String
        var locales: [String]
        var rules: [(category: String, samples: String)]
    }

    static func loadGroups() throws -> (version: String, groups: [Group]) {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/plural-samples.txt")
        let text = try String(contentsOf: url, encoding: .utf8)
        var groups: [Group] = []
        var version = ""
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ", maxSplits: 1).map(String.init)
            if line.hasPrefix("# CLDR ") { version = String(line.dropFirst(7).prefix { $0 != " " }) }
            if line.hasPrefix("#") || words.isEmpty { continue }
            if words[0] == "cardinal" || words[0] == "ordinal" {
                groups.append(Group(kind: words[0], locales: words.count > 1 ? words[1].split(separator: " ").map(String.init) : [], rules: []))
            } else if !groups.isEmpty {
                groups[groups.count - 1].rules.append((words[0], words.count > 1 ? words[1] : ""))
            }
        }
        return (version, groups)
    }

    /// The numbers a sample list stands for: "0~15, 100, …" → 0…15 and 100 (the ellipsis only
    /// says that more numbers behave alike). Long ranges are thinned to their ends and a spread of
    /// the middle; decimal ranges step by their last visible digit ("0.00~0.04" → 0.00, 0.01, …).
    static func expand(_ list: String) -> [String] {
        var numbers: [String] = []
        for item in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !item.isEmpty && item != "…" && item != "..." {
            let ends = item.split(separator: "~").map(String.init)
            guard ends.count == 2 else {
                numbers.append(item)
                continue
            }
            let decimals = ends[0].split(separator: ".").dropFirst().first?.count ?? 0
            guard let low = Int(ends[0].replacingOccurrences(of: ".", with: "")),
                  let high = Int(ends[1].replacingOccurrences(of: ".", with: "")), low <= high,
                  (ends[1].split(separator: ".").dropFirst().first?.count ?? 0) == decimals else {
                numbers.append(item)  // Kept whole so that the test reports it as unreadable.
                continue
            }
            let steps = Array(low...high)
            let chosen = steps.count <= 60 ? steps : steps.prefix(20) + steps.suffix(20) + stride(from: low + 20, to: high - 20, by: max(1, (high - low) / 20))
            for value in chosen {
                let digits = String(value)
                if decimals == 0 {
                    numbers.append(digits)
                } else {
                    let padded = String(repeating: "0", count: max(0, decimals + 1 - digits.count)) + digits
                    numbers.append(padded.dropLast(decimals) + "." + padded.suffix(decimals))
                }
            }
        }
        return numbers
    }

    /// "@integer 0~15, … @decimal 0.0~1.5" → (integers, decimals).
    static func sections(_ samples: String) -> (integers: [String], decimals: [String]) {
        var integers = "", decimals = ""
        if let start = samples.range(of: "@integer") {
            integers = String(samples[start.upperBound...].prefix { $0 != "@" })
        }
        if let start = samples.range(of: "@decimal") {
            decimals = String(samples[start.upperBound...])
        }
        return (expand(integers), expand(decimals))
    }

    func testEveryCLDRSampleSelectsItsCategory() throws {
        let (version, groups) = try Self.loadGroups()
        XCTAssertEqual(version, PluralRules.cldrVersion, "the fixture and the table come from different CLDR releases: run `make cldr`")
        XCTAssertFalse(groups.isEmpty)
        var checked = 0, failures: [String] = []
        for group in groups {
            for locale in group.locales {
                guard let rules = group.kind == "cardinal" ? PluralRules.cardinal(locale) : PluralRules.ordinal(locale) else {
                    failures.append("\(group.kind) \(locale): no rules in the table")
                    continue
                }
                let expected = PluralCategory.allCases.filter { category in group.rules.contains { $0.category == category.rawValue } }
                if rules.categories != expected { failures.append("\(group.kind) \(locale): categories \(rules.categories), CLDR \(expected)") }
                for rule in group.rules {
                    let (integers, decimals) = Self.sections(rule.samples)
                    for (number, isInteger) in integers.map({ ($0, true) }) + decimals.map({ ($0, false) }) {
                        guard let operands = PluralOperands(number) else {
                            failures.append("\(group.kind) \(locale): cannot read sample '\(number)'")
                            continue
                        }
                        // An @integer sample has no visible fraction; a @decimal one has one (or a compact exponent).
                        if isInteger ? operands.v != 0 : (operands.v == 0 && operands.e == 0) {
                            failures.append("\(group.kind) \(locale): sample '\(number)' is in the wrong section")
                        }
                        let got = rules.category(operands)
                        if got.rawValue != rule.category { failures.append("\(group.kind) \(locale) \(number): \(got.rawValue), CLDR says \(rule.category)") }
                        checked += 1
                    }
                }
            }
        }
        print("CLDR \(version) samples: \(groups.count) locale groups, \(checked) (locale, sample) pairs checked, \(failures.count) failures")
        XCTAssertGreaterThan(checked, 10_000)
        XCTAssertTrue(failures.isEmpty, failures.prefix(40).joined(separator: "\n"))
    }

    func testTheFixtureCoversEveryLocaleOfTheTableAndNoMore() throws {
        let groups = try Self.loadGroups().groups
        let cardinal = groups.filter { $0.kind == "cardinal" }.flatMap(\.locales).sorted()
        let ordinal = groups.filter { $0.kind == "ordinal" }.flatMap(\.locales).sorted()
        XCTAssertEqual(cardinal, PluralRules.cardinalLocales)
        XCTAssertEqual(ordinal, PluralRules.ordinalLocales)
        XCTAssertEqual(PluralRuleStore.problems, [])
        XCTAssertFalse(PluralRuleStore.ruleSets.contains { $0 == nil })
    }

    func testSampleExpansion() {
        XCTAssertEqual(Self.expand("2~4, 17, …"), ["2", "3", "4", "17"])
        XCTAssertEqual(Self.expand("0.00~0.04"), ["0.00", "0.01", "0.02", "0.03", "0.04"])
        XCTAssertEqual(Self.expand("0.9~1.1"), ["0.9", "1.0", "1.1"])
        XCTAssertEqual(Self.expand("1c6, 1.1c6"), ["1c6", "1.1c6"])
        let long = Self.expand("1000~100000")
        XCTAssertTrue(long.contains("1000") && long.contains("100000") && long.count < 100)
        let sections = Self.sections("@integer 1, 21 @decimal 0.1~0.2, …")
        XCTAssertEqual(sections.integers, ["1", "21"])
        XCTAssertEqual(sections.decimals, ["0.1", "0.2"])
    }
}
