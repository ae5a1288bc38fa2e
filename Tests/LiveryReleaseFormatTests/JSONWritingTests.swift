import Foundation
import LiveryReleaseFormat
import XCTest

/// The fast paths of Livery's deterministic JSON: key order by UTF-8 bytes, and a locale's messages
/// written without a dictionary. Each is held to the general writer, and the bytes are parsed back.
final class JSONWritingTests: XCTestCase {
    static let hostileKeys = ["b", "a", "", "ab", "a\u{0}", "é", "e\u{301}", "\u{FFFF}", "\u{10000}", "Z", "z", "quote\"", "back\\slash",
                              "tab\t", "new\nline", "😀", "a.b", "a-b", "A", "10", "9"]

    func testUTF8OrderIsByteOrderAndKeepsEqualKeysInTheirOrder() {
        let keys = Self.hostileKeys + ["b", "a"]
        let order = JSONValue.utf8Order(keys)
        XCTAssertEqual(order.count, keys.count)
        let expected = keys.indices.sorted { a, b in
            Array(keys[a].utf8).lexicographicallyPrecedes(Array(keys[b].utf8)) || (Array(keys[a].utf8) == Array(keys[b].utf8) && a < b)
        }
        XCTAssertEqual(order, expected)
        // U+FFFF (EF BF BF) before U+10000 (F0 ...): UTF-16 order would swap them.
        XCTAssertLessThan(order.firstIndex(of: keys.firstIndex(of: "\u{FFFF}")!)!, order.firstIndex(of: keys.firstIndex(of: "\u{10000}")!)!)
    }

    func testStringObjectBytesEqualTheGeneralWriterWithTheLastOfEqualKeysWinning() throws {
        let keys = Self.hostileKeys + ["b", "a", "b"]
        let values = keys.indices.map { "value \($0): \"q\" \\ \n\t\u{1} é 😀 " + keys[$0] }
        var dictionary: [String: JSONValue] = [:]
        for (key, value) in zip(keys, values) { dictionary[key] = .string(value) }
        let fast = JSONValue.stringObjectBytes(keys: keys, values: values)
        XCTAssertEqual(fast, JSONValue.object(dictionary).bytes)
        let parsed = try XCTUnwrap(JSONSerialization.jsonObject(with: fast) as? [String: String])
        XCTAssertEqual(parsed["b"], values[keys.count - 1])
        XCTAssertEqual(parsed.count, Set(keys).count, "é and e + U+0301 are one member, as in a dictionary")
        XCTAssertEqual(JSONValue.stringObjectBytes(keys: [], values: []), JSONValue.object([:]).bytes)
    }
}
