import Foundation
import LiveryInterchange
import XCTest

/// The language server's "add the missing message key" edit of a JSON locale bundle: the file's own layout, and
/// JSON that Foundation's independent parser reads back with the new message in its group.
final class JSONLocaleEditingTests: XCTestCase {
    private func added(_ key: String, _ value: String, to text: String) throws -> String {
        let result = LocaleFileEditor.adding([(key, value)], to: text, file: "locales/fr.json")
        guard case .success(let edited) = result else { XCTFail("\(result)"); return text }
        return edited
    }

    /// The message at a dotted path of nested objects, as Foundation's JSONSerialization reads the text.
    private func message(_ path: [String], in text: String) throws -> String? {
        var object: Any? = try JSONSerialization.jsonObject(with: Data(text.utf8))
        for part in path { object = (object as? [String: Any])?[part] }
        return object as? String
    }

    func testNewKeyGoesLastInItsGroupIndentedLikeItsSiblings() throws {
        let text = "{\n    \"nav\": {\n        \"home\": \"Accueil\"\n    },\n    \"title\": \"Titre\"\n}\n"
        let edited = try added("nav.profile", "Profil \"à\" jour\\", to: text)
        XCTAssertEqual(edited, "{\n    \"nav\": {\n        \"home\": \"Accueil\",\n        \"profile\": \"Profil \\\"à\\\" jour\\\\\"\n    },\n    \"title\": \"Titre\"\n}\n")
        XCTAssertEqual(try message(["nav", "profile"], in: edited), "Profil \"à\" jour\\")
        // A key with no group of its own goes last at the top, dotted.
        let top = try added("actions.save", "Enregistrer", to: edited)
        XCTAssertTrue(top.hasSuffix("    \"title\": \"Titre\",\n    \"actions.save\": \"Enregistrer\"\n}\n"), top)
        XCTAssertEqual(try message(["actions.save"], in: top), "Enregistrer")
    }

    func testTabsCRLFOneLineAndEmptyObjectsKeepTheirStyle() throws {
        let tabs = try added("b", "B", to: "{\r\n\t\"a\": \"A\"\r\n}")
        XCTAssertEqual(tabs, "{\r\n\t\"a\": \"A\",\r\n\t\"b\": \"B\"\r\n}")
        let oneLine = try added("nav.b", "B", to: "{\"nav\": {\"a\": \"A\"}}")
        XCTAssertEqual(oneLine, "{\"nav\": {\"a\": \"A\", \"b\": \"B\"}}")
        let empty = try added("a", "A", to: "{}\n")
        XCTAssertEqual(empty, "{\n  \"a\": \"A\"\n}\n")
        let emptyGroup = try added("nav.a", "A", to: "{\n  \"nav\": {},\n  \"x\": \"X\"\n}\n")
        XCTAssertEqual(emptyGroup, "{\n  \"nav\": {\n    \"a\": \"A\"\n  },\n  \"x\": \"X\"\n}\n")
        XCTAssertEqual(try message(["nav", "a"], in: emptyGroup), "A")
        // Braces inside strings are not the object's end.
        let braces = try added("c", "C", to: "{\"a\": \"{count, plural, one {#} other {#}}\", \"b\": \"}\\\"{\"}")
        XCTAssertEqual(try message(["c"], in: braces), "C")
        XCTAssertEqual(try message(["b"], in: braces), "}\"{")
    }

    func testBrokenJSONIsRefusedAndLeftAlone() {
        guard case .failure = LocaleFileEditor.adding([("a", "A")], to: "{\"x\": ", file: "locales/fr.json") else { return XCTFail("broken JSON was edited") }
        guard case .failure = LocaleFileEditor.adding([("a", "A")], to: "[1]", file: "locales/fr.json") else { return XCTFail("an array was edited") }
    }
}
