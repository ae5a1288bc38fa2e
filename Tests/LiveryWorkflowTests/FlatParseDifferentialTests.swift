import XCTest

@testable import LiveryCheck
@testable import LiveryInterchange
@testable import LiveryL10n
@testable import LiveryLoad
import LiveryWorkflow

/// The platform exports read each key's signature and plural templates from the messages' flat parses
/// (`MessagePattern`), not from trees. The tree versions are kept as the oracle: for every key of the
/// sample tenants and for hostile messages, both must give the same signatures on both platforms and the
/// same rendered variants in every category order.
final class FlatParseDifferentialTests: XCTestCase {
    /// Keys as their texts in a few locales: every argument form, every selection kind, quoting, `%` and `#`.
    static let hostileKeys: [[String]] = [
        ["Hello"], [""], ["50% off"], ["100%% sure, 5 % left"],
        ["It''s {name}''s turn", "C''est le tour de {name}"],
        ["'{literal}' and '#' and '''quoted'''", "x"],
        ["{n, number}", "{n, number, integer}", "{n, number, ::currency/EUR}"],
        ["{n, number, #,##0.00} on {d, date, medium} at {t, time, short}"],
        ["{0} and {1}", "{1} und {0}"],
        ["{count, plural, one {# item} other {# items}}", "{count, plural, one {# objet} many {# objets} other {# objets}}"],
        ["{count, plural, =0 {none} one {# item} other {# items}}"],
        ["{count, plural, offset:1 one {you} other {you and # others}}"],
        ["{count, plural, one {# item in {place}} other {# items in {place}}}"],
        ["{place}: {count, plural, one {# item, 50%} other {# items, 100%}}", "{count, plural, other {# à {place}}}"],
        ["{a, plural, one {#} other {#}} and {b, plural, one {#} other {#}}"],
        ["{a, plural, one {{b, plural, one {x} other {y}}} other {z}}"],
        ["{g, select, female {she} male {he} other {they}}"],
        ["{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}"],
        ["{n, plural, one {1} other {2}} {n, plural, one {3} other {4}}"],
        ["{n, plural, zero {z} one {o} two {t} few {f} many {m} other {#}}"],
        ["{n, plural, one {# '{'braces'}'} other {# it''s}}"],
        ["{n, plural, one {# 📦 élan} other {# ünïcödé}}", "{n, plural, other {# 中文}}"],
        ["before {n, plural, one {#} other {#}} after {x} end"],
        ["{n, plural, one {a} other {b}}", "{m, plural, one {a} other {b}}"],
        ["{n, plural, foo {a} other {b}}"],
        ["{n} {n, plural, one {#} other {#}}"],
        ["{n, plural, one {#} other {#}}", "not { valid"],
    ]

    func testFlatSignaturesAndTemplatesMatchTheTreeVersionsOnHostileMessages() {
        for texts in Self.hostileKeys { compare(texts) }
    }

    func testFlatSignaturesAndTemplatesMatchTheTreeVersionsOnEveryKeyOfTheSamples() throws {
        let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tenants")
        let validation = Validator.validate(workspace: samples, displayRoot: "Tenants", rules: .all)
        var compared = 0
        for tenant in validation.tenants {
            let bundles = tenant.locales.keys.sorted().compactMap { tenant.locales[$0] }
            let keys = Set(bundles.flatMap { $0.messages.map(\.key) })
            for key in keys.sorted() {
                compare(bundles.compactMap { $0.message(key)?.text })
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, 200, "the samples' keys were read")
    }

    private func compare(_ texts: [String], file: StaticString = #filePath, line: UInt = #line) {
        let trees = texts.compactMap { try? MessageFormat(parsing: $0) }
        let patterns = texts.compactMap { try? MessagePattern(parsing: $0) }
        XCTAssertEqual(trees.count, patterns.count, "\(texts)", file: file, line: line)
        let unparsable = trees.count != texts.count
        let tree = PlatformSignature.computedForBothFlavors(trees, unparsable: unparsable)
        let flat = PlatformSignature.computedForBothFlavors(patterns, unparsable: unparsable)
        for (a, b) in [(tree.apple, flat.apple), (tree.android, flat.android)] {
            XCTAssertEqual(a.shape, b.shape, "\(texts)", file: file, line: line)
            XCTAssertEqual(a.slots, b.slots, "\(texts)", file: file, line: line)
            XCTAssertEqual(a.pluralArgument, b.pluralArgument, "\(texts)", file: file, line: line)
            XCTAssertEqual(a.flavor, b.flavor, "\(texts)", file: file, line: line)
        }
        // Templates are compared under a signature with every slot (the apple one, unless it is verbatim).
        let signature = tree.apple.slots.isEmpty ? tree.android : tree.apple
        for (message, pattern) in zip(trees, patterns) {
            let fromTree = PluralTemplate(message, slots: signature.slots), fromParts = PluralTemplate(pattern, slots: signature.slots)
            for locale in ["en", "fr", "ru", "ar", "ja", "xx"] {
                let orders = CLDRCategories.shared.orders(of: locale)
                for (order, known) in [(PlatformRenderer.CategoryOrder.xcode, orders?.xcode), (.android, orders?.android)] {
                    XCTAssertEqual(variants(fromTree, signature, locale, order, known), variants(fromParts, signature, locale, order, known),
                                   "\(message.source) in \(locale)", file: file, line: line)
                }
            }
        }
    }

    private func variants(_ template: PluralTemplate, _ signature: PlatformSignature, _ locale: String, _ order: PlatformRenderer.CategoryOrder,
                          _ known: [String]?) -> [String] {
        var text: [UInt8] = [], out: [String] = []
        template.forEachVariant(signature: signature, locale: locale, order: order, known: known, text: &text) { category, bytes in
            out.append(category + "=" + String(decoding: bytes, as: UTF8.self))
        }
        return out
    }
}
