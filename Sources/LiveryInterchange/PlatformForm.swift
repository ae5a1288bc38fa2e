import Foundation
import LiveryL10n
import LiveryLoad

/// A message as a platform file holds it: format strings, per plural category where needed.
public enum PlatformForm: Sendable, Equatable {
    /// One string: a format string, or ICU text for a verbatim key.
    case text(String)
    /// One format string per plural category (`one`, `few`, …).
    case plural([String: String])
    /// Xcode's `%#@name@` main string with one plural substitution per name.
    case substituted(String, [String: Substitution])

    /// One Xcode substitution: the argument it counts and its per-category strings (`%arg` stands for the count).
    public struct Substitution: Sendable, Equatable {
        public var argumentNumber: Int
        public var formatSpecifier: String
        public var variants: [String: String]
    }
}

/// Writes ICU messages as platform format strings (`PlatformForm`).
public enum PlatformRenderer {
    /// The plural categories written for `locale`: CLDR's, or the message's own when CLDR does not know the locale.
    public static func categories(for locale: String, fallback: @autoclosure () -> [String]) -> [String] {
        if let known = CLDRCategories.shared.categories(of: locale) { return known }
        let fallback = fallback()
        let known = PluralCategory.allCases.filter { fallback.contains($0.rawValue) || $0 == .other }
        return known.map(\.rawValue)
    }

    /// The form of `text` under `signature` for `locale`; nil when the text is not valid ICU (verbatim keys never are nil).
    public static func render(_ text: String, signature: PlatformSignature, locale: String) -> PlatformForm? {
        if signature.shape == .verbatim { return .text(text) }
        guard case .success(let message) = MessageFormat.parse(text) else { return nil }
        return render(message, signature: signature, locale: locale)
    }

    /// The form of a parsed message under `signature` for `locale`.
    public static func render(_ message: MessageFormat, signature: PlatformSignature, locale: String) -> PlatformForm {
        let parts = message.root.parts
        switch signature.shape {
        case .verbatim:
            return .text(message.source)
        case .simple:
            return .text(render(parts, signature: signature, pound: nil))
        case .plural:
            var items: [String: String] = [:]
            for variant in pluralVariants(message, signature: signature, locale: locale, order: .cldr) { items[variant.category] = variant.text }
            return .plural(items)
        case .substituted:
            var main = ""
            var substitutions: [String: PlatformForm.Substitution] = [:]
            for part in parts {
                guard case .selection(let selection) = part, let slot = signature.slot(selection.name) else {
                    main += render([part], signature: signature, pound: nil)
                    continue
                }
                let name = substitutionName(slot.name)
                main += "%#@\(name)@"
                var variants: [String: String] = [:]
                for category in categories(for: locale, fallback: selection.keywords) {
                    guard let option = selection.option(for: .keyword(category)) ?? selection.option(for: .keyword("other")) else { continue }
                    variants[category] = render(option.message.parts, signature: signature, pound: "%arg")
                }
                substitutions[name] = PlatformForm.Substitution(argumentNumber: slot.number, formatSpecifier: "lld", variants: variants)
            }
            return .substituted(main, substitutions)
        }
    }

    /// The order in which a platform file lists plural categories.
    public enum CategoryOrder: Sendable {
        /// CLDR's order for the locale (`PlatformForm.plural` is keyed, so its order does not show).
        case cldr
        /// By Unicode scalar value, as Xcode writes String Catalog keys.
        case xcode
        /// `zero, one, two, few, many, other`, as Android's `<plurals>` lists its items.
        case android
    }

    /// The format string of each plural category of a `.plural`-shaped message for `locale`, in `order`:
    /// what `render` puts in `PlatformForm.plural`, without building and sorting a dictionary per message
    /// (the exports of a full build ask for every plural key of every locale).
    public static func pluralVariants(_ message: MessageFormat, signature: PlatformSignature, locale: String,
                                      order: CategoryOrder) -> [(category: String, text: String)] {
        pluralVariants(message, signature: signature, locale: locale, order: order, known: CLDRCategories.shared.orders(of: locale))
    }

    /// `pluralVariants` with the locale's CLDR categories already looked up (an export looks them up once per locale).
    static func pluralVariants(_ message: MessageFormat, signature: PlatformSignature, locale: String, order: CategoryOrder,
                               known: CLDRCategories.Orders?) -> [(category: String, text: String)] {
        func categories(fallback: @autoclosure () -> [String]) -> [String] {
            if let known { return known.of(order) }
            return CLDRCategories.Orders(Self.categories(for: locale, fallback: fallback())).of(order)
        }
        let parts = message.root.parts
        let plural = parts.firstIndex { if case .selection = $0 { return true } else { return false } }
        guard let plural, case .selection(let selection) = parts[plural] else {
            // A locale that needs no plural here: every category reads the same.
            let same = render(parts[...], signature: signature, pound: nil)
            return categories(fallback: []).map { ($0, same) }
        }
        let pound = signature.slot(selection.name).map { signature.specifier($0) }
        let prefix = render(parts[..<plural], signature: signature, pound: nil)
        let suffix = render(parts[(plural + 1)...], signature: signature, pound: nil)
        // Category selectors are words, so a word comparison finds the option `option(for:)` would.
        func option(_ category: String) -> MessageFormat.Option? {
            for option in selection.options { if case .keyword(let word) = option.selector, word == category { return option } }
            return nil
        }
        let other = option("other")
        var variants: [(category: String, text: String)] = []
        for category in categories(fallback: selection.keywords) {
            guard let option = option(category) ?? other else { continue }
            var text = prefix
            append(option.message.parts[...], signature: signature, pound: pound, to: &text)
            text += suffix
            variants.append((category, text))
        }
        return variants
    }

    /// Reused buffers of `forEachPluralVariant`: an export renders every plural message of a locale
    /// through one of these, so no variant allocates a String.
    struct VariantBuffers {
        var prefix: [UInt8] = [], suffix: [UInt8] = [], text: [UInt8] = []
    }

    /// `pluralVariants`, each variant rendered as UTF-8 into `buffers.text` and handed to `body` with its
    /// category, in `order`: the same texts, in the same order, without a String or an array per variant.
    static func forEachPluralVariant(_ message: MessageFormat, signature: PlatformSignature, locale: String, order: CategoryOrder,
                                     known: CLDRCategories.Orders?, buffers: inout VariantBuffers,
                                     _ body: (_ category: String, _ text: UnsafeBufferPointer<UInt8>) -> Void) {
        func categories(fallback: @autoclosure () -> [String]) -> [String] {
            if let known { return known.of(order) }
            return CLDRCategories.Orders(Self.categories(for: locale, fallback: fallback())).of(order)
        }
        let parts = message.root.parts
        let plural = parts.firstIndex { if case .selection = $0 { return true } else { return false } }
        guard let plural, case .selection(let selection) = parts[plural] else {
            // A locale that needs no plural here: every category reads the same.
            buffers.text.removeAll(keepingCapacity: true)
            appendUTF8(parts[...], signature: signature, pound: nil, to: &buffers.text)
            for category in categories(fallback: []) { buffers.text.withUnsafeBufferPointer { body(category, $0) } }
            return
        }
        let pound = signature.slot(selection.name).map { signature.specifier($0) }
        buffers.prefix.removeAll(keepingCapacity: true)
        buffers.suffix.removeAll(keepingCapacity: true)
        appendUTF8(parts[..<plural], signature: signature, pound: nil, to: &buffers.prefix)
        appendUTF8(parts[(plural + 1)...], signature: signature, pound: nil, to: &buffers.suffix)
        // Category selectors are words, so a word comparison finds the option `option(for:)` would.
        func option(_ category: String) -> Int? {
            for i in selection.options.indices { if case .keyword(let word) = selection.options[i].selector, word == category { return i } }
            return nil
        }
        let other = option("other")
        for category in categories(fallback: selection.keywords) {
            guard let option = option(category) ?? other else { continue }
            buffers.text.removeAll(keepingCapacity: true)
            buffers.text.append(contentsOf: buffers.prefix)
            appendUTF8(selection.options[option].message.parts[...], signature: signature, pound: pound, to: &buffers.text)
            buffers.text.append(contentsOf: buffers.suffix)
            buffers.text.withUnsafeBufferPointer { body(category, $0) }
        }
    }

    /// `append` as UTF-8 bytes: the same text (a `%` doubled byte by byte is the same as doubled in the String).
    static func appendUTF8(_ parts: ArraySlice<MessageFormat.Part>, signature: PlatformSignature, pound: String?, to out: inout [UInt8]) {
        for part in parts {
            switch part {
            case .text(let segment):
                var text = segment.text
                text.withUTF8 { bytes in
                    guard signature.formatsText, let base = bytes.baseAddress, memchr(base, Int32(UInt8(ascii: "%")), bytes.count) != nil else {
                        out.append(contentsOf: bytes)
                        return
                    }
                    for byte in bytes {
                        out.append(byte)
                        if byte == UInt8(ascii: "%") { out.append(byte) }
                    }
                }
            case .argument(let argument):
                if let slot = signature.slot(argument.name) { out.append(contentsOf: signature.specifier(slot).utf8) }
            case .pound:
                if let pound { out.append(contentsOf: pound.utf8) }
            case .selection(let selection):
                // Only reached for shapes that allow no selection here; the signature made such keys verbatim.
                if let slot = signature.slot(selection.name) { out.append(contentsOf: signature.specifier(slot).utf8) }
            }
        }
    }

    /// The name of an argument's substitution: its ICU name (`arg0` for a numbered argument).
    static func substitutionName(_ name: MessageFormat.ArgumentName) -> String {
        switch name {
        case .named(let text): return text
        case .indexed(let number): return "arg\(number)"
        }
    }

    /// Literal text with `%` doubled where a formatter reads it, arguments as specifiers, `#` as `pound`.
    static func render(_ parts: [MessageFormat.Part], signature: PlatformSignature, pound: String?) -> String {
        render(parts[...], signature: signature, pound: pound)
    }

    static func render(_ parts: ArraySlice<MessageFormat.Part>, signature: PlatformSignature, pound: String?) -> String {
        var out = ""
        append(parts, signature: signature, pound: pound, to: &out)
        return out
    }

    /// `render`, appended to `out`.
    static func append(_ parts: ArraySlice<MessageFormat.Part>, signature: PlatformSignature, pound: String?, to out: inout String) {
        for part in parts {
            switch part {
            case .text(let segment):
                // Foundation's replace is slow on every message of every locale; most have no '%'.
                let escape = signature.formatsText && segment.text.utf8.contains(UInt8(ascii: "%"))
                out += escape ? segment.text.replacingOccurrences(of: "%", with: "%%") : segment.text
            case .argument(let argument):
                out += signature.slot(argument.name).map { signature.specifier($0) } ?? ""
            case .pound:
                out += pound ?? ""
            case .selection(let selection):
                // Only reached for shapes that allow no selection here; the signature made such keys verbatim.
                out += signature.slot(selection.name).map { signature.specifier($0) } ?? ""
            }
        }
    }
}

/// Each locale's CLDR plural categories, looked up once: every plural message of every locale asks.
final class CLDRCategories: @unchecked Sendable {
    static let shared = CLDRCategories()
    // The lock guards `known`; a locale CLDR does not know is stored as nil too.
    private let lock = NSLock()
    private var known: [String: Orders?] = [:]

    func categories(of locale: String) -> [String]? { orders(of: locale)?.cldr }

    /// A locale's categories in each order a platform file writes them.
    struct Orders: Sendable {
        var cldr: [String]
        var xcode: [String]
        var android: [String]

        init(_ cldr: [String]) {
            self.cldr = cldr
            xcode = XcodeJSONWriter.sorted(cldr)
            android = PluralCategory.allCases.map(\.rawValue).filter { cldr.contains($0) }
        }

        func of(_ order: PlatformRenderer.CategoryOrder) -> [String] {
            switch order {
            case .cldr: return cldr
            case .xcode: return xcode
            case .android: return android
            }
        }
    }

    func orders(of locale: String) -> Orders? {
        if let found = lock.withLock({ known[locale] }) { return found }
        let made = PluralRules.cardinal(locale).map { Orders($0.categories.map(\.rawValue)) }
        lock.withLock { known[locale] = .some(made) }
        return made
    }
}
