import Foundation
import LiveryEncoding
import LiveryDiagnostics
@testable import LiveryInterchange
@testable import LiveryLoad
import XCTest

/// The String Catalog writer streams bytes (issue 18); these pin the exact layout Xcode writes and the
/// escaping, so the streaming writer cannot drift from the tree-and-print writer it replaced.
final class StringCatalogLayoutTests: XCTestCase {
    func testAppendQuotedWritesTheBytesQuotedReturns() throws {
        var samples = ["", "plain", "quote \" and backslash \\", "tab\tnew\nline\r\nend", "/slash/ stays", "naïve café", "emoji 🇪🇸 👩🏽‍💻",
                       "\u{0}\u{1}\u{1F}\u{7F}", "%1$@ and %%", "\u{2028}line separator"]
        samples += (0..<0x20).map { "a\(Character(Unicode.Scalar($0)!))b" }
        for sample in samples {
            var bytes: [UInt8] = [1, 2]
            JSONText.appendQuoted(sample, to: &bytes)
            XCTAssertEqual(bytes, [1, 2] + Array(JSONText.quoted(sample).utf8), "sample \(sample.debugDescription)")
            // And it is JSON: Foundation's parser reads back the same text.
            let parsed = try JSONSerialization.jsonObject(with: Data(bytes.dropFirst(2)), options: .fragmentsAllowed) as? String
            XCTAssertEqual(parsed, sample)
        }
    }

    func testWriterLaysOutObjectsAsXcodeDoes() {
        var writer = XcodeJSONWriter()
        writer.beginObject()
        writer.member("a", "x")
        writer.key("b")
        writer.beginObject()
        writer.endObject()
        writer.key("c")
        writer.beginObject()
        writer.key("n")
        writer.int(3)
        writer.endObject()
        writer.endObject()
        XCTAssertEqual(String(decoding: writer.bytes, as: UTF8.self), "{\n  \"a\" : \"x\",\n  \"b\" : {\n\n  },\n  \"c\" : {\n    \"n\" : 3\n  }\n}")
        XCTAssertEqual(XcodeJSONWriter.sorted(["é", "z", "Z", "a", "other", "one", "few"]), ["Z", "a", "few", "one", "other", "z", "é"])
    }

    /// Every shape a key can take, in two locales, written exactly as Xcode lays it out.
    func testCatalogOfEveryShapeHasTheExactBytes() throws {
        func bundle(_ locale: String, _ messages: [(String, String)]) -> LocaleBundle {
            var bundle = LocaleBundle(locale: locale, file: "t/locales/\(locale).yaml", location: .start(of: "t/locales/\(locale).yaml"), messages: [])
            bundle.messages = messages.map { LocaleBundle.Message(key: $0.0, keyLocation: .start(of: bundle.file), text: $0.1, location: .start(of: bundle.file)) }
            return bundle
        }
        let en = bundle("en", [("title", "Hello \"you\""), ("count", "{n, plural, one {# step} other {# steps}}"),
                               ("two", "{a, plural, one {# a} other {# as}} and {b, plural, one {# b} other {# bs}}"),
                               ("pick", "{g, select, f {she} other {they}}"), ("enOnly", "only")])
        let ru = bundle("ru", [("title", "Привет"), ("count", "{n, plural, one {# шаг} few {# шага} many {# шагов} other {# шага}}")])
        let catalog = LocaleCatalog(tenantID: "t", defaultLocale: "en", locales: ["en", "ru"], bundles: ["en": en, "ru": ru])
        let exported = StringCatalogFormat.export(catalog)
        let text = String(decoding: try XCTUnwrap(exported.value), as: UTF8.self)
        let unit = { (indent: String, value: String) in
            "{\n\(indent)  \"stringUnit\" : {\n\(indent)    \"state\" : \"translated\",\n\(indent)    \"value\" : \"\(value)\"\n\(indent)  }\n\(indent)}"
        }
        let expected = """
        {
          "sourceLanguage" : "en",
          "strings" : {
            "count" : {
              "extractionState" : "manual",
              "localizations" : {
                "en" : {
                  "variations" : {
                    "plural" : {
                      "one" : \(unit("              ", "%lld step")),
                      "other" : \(unit("              ", "%lld steps"))
                    }
                  }
                },
                "ru" : {
                  "variations" : {
                    "plural" : {
                      "few" : \(unit("              ", "%lld шага")),
                      "many" : \(unit("              ", "%lld шагов")),
                      "one" : \(unit("              ", "%lld шаг")),
                      "other" : \(unit("              ", "%lld шага"))
                    }
                  }
                }
              }
            },
            "enOnly" : {
              "extractionState" : "manual",
              "localizations" : {
                "en" : \(unit("        ", "only"))
              }
            },
            "pick" : {
              "comment" : "\(StringCatalogFormat.verbatimComment)",
              "extractionState" : "manual",
              "localizations" : {
                "en" : \(unit("        ", "{g, select, f {she} other {they}}"))
              }
            },
            "title" : {
              "extractionState" : "manual",
              "localizations" : {
                "en" : \(unit("        ", "Hello \\\"you\\\"")),
                "ru" : \(unit("        ", "Привет"))
              }
            },
            "two" : {
              "extractionState" : "manual",
              "localizations" : {
                "en" : {
                  "stringUnit" : {
                    "state" : "translated",
                    "value" : "%#@a@ and %#@b@"
                  },
                  "substitutions" : {
                    "a" : {
                      "argNum" : 1,
                      "formatSpecifier" : "lld",
                      "variations" : {
                        "plural" : {
                          "one" : \(unit("                  ", "%arg a")),
                          "other" : \(unit("                  ", "%arg as"))
                        }
                      }
                    },
                    "b" : {
                      "argNum" : 2,
                      "formatSpecifier" : "lld",
                      "variations" : {
                        "plural" : {
                          "one" : \(unit("                  ", "%arg b")),
                          "other" : \(unit("                  ", "%arg bs"))
                        }
                      }
                    }
                  }
                }
              }
            }
          },
          "version" : "1.0"
        }
        """
        XCTAssertEqual(text, expected)
        // One locale's catalog (what a locale bundle carries) holds only that locale.
        let ruOnly = String(decoding: try XCTUnwrap(StringCatalogFormat.export(catalog, locales: ["ru"]).value), as: UTF8.self)
        XCTAssertFalse(ruOnly.contains("\"en\" : {"))
        XCTAssertFalse(ruOnly.contains("enOnly"))
        XCTAssertTrue(ruOnly.contains("\"ru\" : {"))
    }
}
