import Foundation
import XCTest
@testable import LiveryL10n

/// Our table and evaluator against an independent implementation: Python's babel, which has its
/// own CLDR import and its own rule evaluator. `make test-deps` installs babel system-wide.
///
/// Babel bundles a newer CLDR than Debian's, so a few locales changed rules in between; those
/// (locale, kind) pairs are listed below with the change, checked against both rule texts.
final class PluralBabelOracleTests: XCTestCase {
    /// (locale, kind) pairs allowed to disagree, each because CLDR changed the rules after our release.
    /// Each value is the change, checked by comparing CLDR 41's plurals.xml with babel's `plural_form.rules`.
    static let allowedDisagreements: [String: String] = [
        "ca cardinal": "CLDR 41 has only one (i = 1 and v = 0); later CLDR adds many for exact millions (e = 0 and i % 1000000 = 0 …)",
        "scn cardinal": "CLDR 41 has only one (i = 1 and v = 0); later CLDR adds many for exact millions, as for ca",
        "he cardinal": "CLDR 41 has many (v = 0 and n != 0..10 and n % 10 = 0: 20, 30, …); later CLDR drops it and adds i = 0 and v != 0 to one",
        "is cardinal": "CLDR 41 one ends `or t != 0` (every visible fraction); later `or t % 10 = 1 and t % 100 != 11`",
        "mt cardinal": "CLDR 41 few is n = 0 or n % 100 = 2..10 (no two); later two is n = 2 and few is n = 0 or n % 100 = 3..10",
        "ro cardinal": "CLDR 41 few is v != 0 or n = 0 or n % 100 = 2..19; later it adds n != 1 and n % 100 = 1..19 (101 becomes few)",
    ]

    /// Integers around every boundary the rules use (mod 10, 100, 1000000) and decimals with
    /// visible trailing zeros, which select differently from the plain integers in many languages.
    static let numbers: [String] = {
        var numbers = (0...200).map(String.init)
        numbers += ["1000", "1001", "1011", "10000", "100000", "1000000", "1000001", "1000002", "2000000", "10000000", "100000000"]
        numbers += ["0.0", "0.1", "0.2", "0.5", "0.01", "0.010", "0.00", "1.0", "1.00", "1.1", "1.5", "1.50", "1.25",
                    "2.0", "2.1", "2.5", "3.0", "3.5", "4.0", "5.0", "6.4", "7.0", "10.0", "10.00", "10.1", "11.0", "11.1",
                    "12.0", "12.5", "20.0", "21.0", "21.1", "22.0", "100.0", "101.1", "111.0", "1000.0", "1000000.0", "0.11"]
        return numbers
    }()

    static let script = """
    import json, sys
    try:
        import babel
        from babel import Locale, localedata
        from babel.core import get_cldr_version
    except ImportError as error:
        print(json.dumps({"error": str(error)}))
        sys.exit(0)
    from decimal import Decimal
    with open(sys.argv[1]) as request_file:
        request = json.load(request_file)
    numbers = [Decimal(text) for text in request["numbers"]]
    answer = {"babel": babel.__version__, "cldr": str(get_cldr_version()), "results": {}, "rules": {}}
    for kind in ("cardinal", "ordinal"):
        answer["results"][kind] = {}
        for name in request[kind]:
            if not localedata.exists(name):
                continue
            locale = Locale.parse(name)
            form = locale.plural_form if kind == "cardinal" else locale.ordinal_form
            answer["results"][kind][name] = [form(number) for number in numbers]
            answer["rules"][kind + " " + name] = form.rules
    print(json.dumps(answer))
    """

    struct Answer: Decodable {
        var error: String?
        var babel: String?
        var cldr: String?
        var results: [String: [String: [String]]]?
        var rules: [String: [String: String]]?
    }

    func testCategoriesAgreeWithBabel() throws {
        let request: [String: [String]] = ["numbers": Self.numbers, "cardinal": PluralRules.cardinalLocales, "ordinal": PluralRules.ordinalLocales]
        let answer = try runPython(request)
        if let error = answer.error {
            return XCTFail("babel is not installed (\(error)): run `make test-deps`")
        }
        let results = try XCTUnwrap(answer.results)
        var compared = Set<String>(), cases = 0
        var disagreements: [String: [String]] = [:]
        for (kind, byLocale) in results {
            for (locale, categories) in byLocale {
                let rules = try XCTUnwrap(kind == "cardinal" ? PluralRules.cardinal(locale) : PluralRules.ordinal(locale), locale)
                XCTAssertEqual(categories.count, Self.numbers.count)
                compared.insert(locale)
                for (number, theirs) in zip(Self.numbers, categories) {
                    cases += 1
                    let ours = rules.category(number)?.rawValue ?? "unreadable"
                    if ours != theirs { disagreements["\(locale) \(kind)", default: []].append("\(number): ours \(ours), babel \(theirs)") }
                }
            }
        }
        let unexpected = disagreements.keys.filter { Self.allowedDisagreements[$0] == nil }.sorted()
        let stale = Self.allowedDisagreements.keys.filter { disagreements[$0] == nil }.sorted()
        let total = disagreements.values.reduce(0) { $0 + $1.count }
        print("babel \(answer.babel ?? "?") (CLDR \(answer.cldr ?? "?")) vs our table (CLDR \(PluralRules.cldrVersion)): "
              + "\(compared.count) locales, \(cases) cases compared, \(total) disagreements in \(disagreements.count) (locale, kind) pairs, "
              + "\(unexpected.count) not allow-listed")
        for key in disagreements.keys.sorted() {
            print("  \(key)\(Self.allowedDisagreements[key].map { " (allowed: \($0))" } ?? ""): \(disagreements[key]!.prefix(4).joined(separator: "; "))")
        }
        let report = unexpected.map { key in
            "\(key): \(disagreements[key]!.prefix(6).joined(separator: "; ")) — babel's rules: \(answer.rules?[key.split(separator: " ").reversed().joined(separator: " ")] ?? [:])"
        }
        XCTAssertTrue(unexpected.isEmpty, "disagreements with babel:\n" + report.joined(separator: "\n"))
        XCTAssertTrue(stale.isEmpty, "allow-listed but agreeing now, remove from the list: \(stale)")
        XCTAssertGreaterThan(compared.count, 150)
    }

    /// Runs the script once with the whole batch; the request goes through a file so that a
    /// large request and answer cannot fill both pipes at once.
    private func runPython(_ request: [String: [String]]) throws -> Answer {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livery-babel-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let requestURL = folder.appendingPathComponent("request.json")
        let errorURL = folder.appendingPathComponent("stderr.txt")
        try JSONEncoder().encode(request).write(to: requestURL)
        try Data().write(to: errorURL)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.script, requestURL.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errors = (try? String(contentsOf: errorURL, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0 else {
            throw OracleError("python3 failed (status \(process.terminationStatus)): \(errors)")
        }
        do {
            return try JSONDecoder().decode(Answer.self, from: data)
        } catch {
            throw OracleError("unreadable answer from python3: \(error)\n\(errors)")
        }
    }

    struct OracleError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
