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

/// One message of a `.plural` key, flattened once for both exports: its literal text as UTF-8 with `%`
/// already doubled (a `.plural` signature always runs the text through a formatter), and where the
/// arguments, the plural's options and its `#` go. Rendering a variant from it copies bytes and
/// specifiers into the file's buffer: walking the message tree for every variant of every locale on
/// both platforms, and the reference counting that came with it, was most of the cost of the exports.
///
/// It renders exactly what `PlatformRenderer.pluralVariants` returns, in the same category order.
final class PluralTemplate: Sendable {
    enum Piece: Sendable {
        /// Literal text: `bytes[start..<end]`.
        case literal(start: Int32, end: Int32)
        /// An argument (or a selection where none is expected): the slot at this index of the key's
        /// slots, written as its specifier; -1 when the signature has no slot for it (written as nothing).
        case slot(Int32)
        /// `#` inside the plural: the plural argument's specifier.
        case pound
    }

    // A class, immutable once made: an export takes one reference per message, not one per array.
    private let bytes: [UInt8]
    private let pieces: [Piece]
    /// The pieces before the plural (every piece when the message has none) and after it.
    private let prefix: Range<Int>, suffix: Range<Int>
    /// The plural's options with a keyword selector, in source order (only keywords are looked up).
    private let options: [(keyword: String, pieces: Range<Int>)]
    private let hasPlural: Bool
    /// The slot of the plural's argument, -1 when none.
    private let poundSlot: Int32

    /// The template of `message`, whose arguments are looked up in `slots` (the key's signature slots). Builds read
    /// the flat parse (`init(_: MessagePattern, slots:)`); this one, from the tree, is its oracle in FlatParseDifferentialTests.
    init(_ message: MessageFormat, slots: [ArgumentSlot]) {
        var bytes: [UInt8] = [], pieces: [Piece] = []
        var options: [(keyword: String, pieces: Range<Int>)] = []
        bytes.reserveCapacity(message.source.utf8.count + 16)
        pieces.reserveCapacity(16)
        func slotIndex(_ name: MessageFormat.ArgumentName) -> Int32 {
            Int32(slots.firstIndex { $0.name == name } ?? -1)
        }
        func add(_ parts: ArraySlice<MessageFormat.Part>) -> Range<Int> {
            let start = pieces.count
            for part in parts {
                switch part {
                case .text(let segment):
                    let from = Int32(bytes.count)
                    var text = segment.text
                    text.withUTF8 { utf8 in
                        // Most text has no '%': copied whole.
                        guard let base = utf8.baseAddress, memchr(base, Int32(UInt8(ascii: "%")), utf8.count) != nil else {
                            return bytes.append(contentsOf: utf8)
                        }
                        for byte in utf8 {
                            bytes.append(byte)
                            if byte == UInt8(ascii: "%") { bytes.append(byte) }
                        }
                    }
                    pieces.append(.literal(start: from, end: Int32(bytes.count)))
                case .argument(let argument): pieces.append(.slot(slotIndex(argument.name)))
                case .selection(let selection): pieces.append(.slot(slotIndex(selection.name)))
                case .pound: pieces.append(.pound)
                }
            }
            return start..<pieces.count
        }
        let parts = message.root.parts
        if let plural = parts.firstIndex(where: { if case .selection = $0 { return true } else { return false } }),
           case .selection(let selection) = parts[plural] {
            hasPlural = true
            poundSlot = slotIndex(selection.name)
            prefix = add(parts[..<plural])
            suffix = add(parts[(plural + 1)...])
            for option in selection.options {
                guard case .keyword(let word) = option.selector else { continue }
                options.append((word, add(option.message.parts[...])))
            }
        } else {
            hasPlural = false
            poundSlot = -1
            prefix = add(parts[...])
            suffix = pieces.count..<pieces.count
        }
        self.bytes = bytes
        self.pieces = pieces
        self.options = options
    }

    /// The template of the message parsed as `pattern`, read from its flat parts (no tree): the same
    /// pieces as `init(_: MessageFormat, slots:)`, which a differential test holds it to.
    init(_ pattern: MessagePattern, slots: [ArgumentSlot]) {
        var reader = FlatPatternReader(pattern, slots: slots)
        var prefix = 0..<0, suffix = 0..<0, hasPlural = false, poundSlot: Int32 = -1
        pattern.withUTF8 { utf8 in
            var i = 0
            prefix = reader.add(&i, stopAtSelection: true, utf8)
            guard i < reader.parts.count else {
                suffix = reader.pieces.count..<reader.pieces.count
                return
            }
            // The first selection: its options with a keyword selector, then what follows it.
            hasPlural = true
            poundSlot = reader.slotIndex(pattern.argumentName(of: reader.parts[i + 1]))
            i += 2
            reader.addOptions(&i, utf8)
            suffix = reader.add(&i, stopAtSelection: false, utf8)
        }
        self.bytes = reader.bytes
        self.pieces = reader.pieces
        self.options = reader.options
        self.prefix = prefix
        self.suffix = suffix
        self.hasPlural = hasPlural
        self.poundSlot = poundSlot
    }

    /// Each variant under `signature` (the key's `.plural` signature) for `locale`, in `order`, rendered
    /// into `text` and handed to `body` with its category; `known` are the locale's CLDR categories in
    /// `order` (nil when CLDR does not know the locale).
    func forEachVariant(signature: PlatformSignature, locale: String, order: PlatformRenderer.CategoryOrder, known: [String]?,
                        text: inout [UInt8], _ body: (_ category: String, _ text: UnsafeBufferPointer<UInt8>) -> Void) {
        let categories: [String]
        if let known {
            categories = known
        } else {
            categories = CLDRCategories.Orders(PlatformRenderer.categories(for: locale, fallback: hasPlural ? options.map(\.keyword) : [])).of(order)
        }
        guard hasPlural else {
            // A locale that needs no plural here: every category reads the same.
            text.removeAll(keepingCapacity: true)
            append(prefix, signature: signature, pound: false, to: &text)
            for category in categories { text.withUnsafeBufferPointer { body(category, $0) } }
            return
        }
        let other = options.firstIndex { $0.keyword == "other" }
        for category in categories {
            guard let option = options.firstIndex(where: { $0.keyword == category }) ?? other else { continue }
            text.removeAll(keepingCapacity: true)
            append(prefix, signature: signature, pound: false, to: &text)
            append(options[option].pieces, signature: signature, pound: true, to: &text)
            append(suffix, signature: signature, pound: false, to: &text)
            text.withUnsafeBufferPointer { body(category, $0) }
        }
    }

    private func append(_ range: Range<Int>, signature: PlatformSignature, pound: Bool, to out: inout [UInt8]) {
        for piece in pieces[range] {
            switch piece {
            case .literal(let start, let end):
                bytes.withUnsafeBufferPointer { out.append(contentsOf: UnsafeBufferPointer(rebasing: $0[Int(start)..<Int(end)])) }
            case .slot(let index):
                if index >= 0 { out.append(contentsOf: signature.specifier(signature.slots[Int(index)]).utf8) }
            case .pound:
                if pound, poundSlot >= 0 { out.append(contentsOf: signature.specifier(signature.slots[Int(poundSlot)]).utf8) }
            }
        }
    }
}

/// The pieces of a `PluralTemplate` read from a pattern's flat parts, message level by message level.
private struct FlatPatternReader {
    let pattern: MessagePattern
    let parts: [MessagePattern.Part]
    let slots: [ArgumentSlot]
    private(set) var bytes: [UInt8] = []
    private(set) var pieces: [PluralTemplate.Piece] = []
    private(set) var options: [(keyword: String, pieces: Range<Int>)] = []

    init(_ pattern: MessagePattern, slots: [ArgumentSlot]) {
        self.pattern = pattern
        self.slots = slots
        parts = pattern.parts
        bytes.reserveCapacity(pattern.source.utf8.count + 16)
        pieces.reserveCapacity(16)
    }

    func slotIndex(_ name: MessageFormat.ArgumentName) -> Int32 {
        Int32(slots.firstIndex { $0.name == name } ?? -1)
    }

    /// The index after the argument that starts at `i` (its options and their messages included).
    func skipArgument(from i: Int) -> Int {
        var level = 0, j = i
        while j < parts.count {
            switch parts[j].kind {
            case .argumentStart: level += 1
            case .argumentEnd:
                level -= 1
                if level == 0 { return j + 1 }
            default: break
            }
            j += 1
        }
        return j
    }

    /// The pieces of one message level from part `i`: through its `messageEnd` (consumed), or to the
    /// end, or (when `stopAtSelection`) up to its first selection, left unread.
    mutating func add(_ i: inout Int, stopAtSelection: Bool, _ utf8: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        let start = pieces.count
        while i < parts.count {
            let part = parts[i]
            switch part.kind {
            case .text, .quotedText:
                addText(part, utf8)
                i += 1
            case .pound:
                pieces.append(.pound)
                i += 1
            case .argumentStart:
                if stopAtSelection, let type = pattern.argumentType(of: part), type.isSelection { return start..<pieces.count }
                pieces.append(.slot(slotIndex(pattern.argumentName(of: parts[i + 1]))))
                i = skipArgument(from: i)
            case .messageEnd:
                i += 1
                return start..<pieces.count
            case .argumentName, .argumentStyle, .offset, .selector, .messageStart, .argumentEnd:
                i += 1  // not at a message level of a parse the parser accepted
            }
        }
        return start..<pieces.count
    }

    /// A text part as a literal piece, `%` doubled and a quoted text's `''` read as one apostrophe.
    mutating func addText(_ part: MessagePattern.Part, _ utf8: UnsafeBufferPointer<UInt8>) {
        let from = Int32(bytes.count)
        var k = Int(part.start)
        let end = Int(part.end)
        if part.value == 0, k == end || memchr(utf8.baseAddress! + k, Int32(UInt8(ascii: "%")), end - k) == nil {
            // Most text has no '%' and no doubled apostrophe: copied whole.
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[k..<end]))
        } else {
            while k < end {
                let byte = utf8[k]
                bytes.append(byte)
                if byte == UInt8(ascii: "%") { bytes.append(byte) }
                // `''` reads as one apostrophe (only in a part that holds one).
                k += part.value == 1 && byte == 0x27 && k + 1 < end && utf8[k + 1] == 0x27 ? 2 : 1
            }
        }
        pieces.append(.literal(start: from, end: Int32(bytes.count)))
    }

    /// The options of the selection whose first option is at part `i`, through the selection's end (consumed): each
    /// with a keyword selector into `options`; an explicit `=N` option's pieces are read and dropped.
    mutating func addOptions(_ i: inout Int, _ utf8: UnsafeBufferPointer<UInt8>) {
        while i < parts.count {
            let part = parts[i]
            switch part.kind {
            case .selector:
                i += 2  // the selector and its message's start
                let (byteCount, pieceCount) = (bytes.count, pieces.count)
                let range = add(&i, stopAtSelection: false, utf8)
                if part.value == 1 {
                    // An explicit `=N` option is never a platform variant.
                    bytes.removeSubrange(byteCount...)
                    pieces.removeSubrange(pieceCount...)
                } else {
                    options.append((pattern.source(of: part), range))
                }
            case .argumentEnd:
                i += 1
                return
            default:
                i += 1  // the offset
            }
        }
    }
}
