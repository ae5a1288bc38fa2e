import LiveryL10n

/// Which platform's format strings a conversion writes: Android (`%1$d`) or Apple (`%lld`, `%@`).
public enum PlatformFlavor: Sendable {
    case android, apple
}

/// How one key is written on a platform, decided across all of the tenant's locales.
///
/// A key has one shape everywhere, because app code calls `getQuantityString` or `getString`
/// (and Xcode shows a plural or a plain string) per key, not per language.
public enum PlatformShape: Int, Sendable, Comparable {
    /// No plural: one format string.
    case simple
    /// One plural argument: one format string per CLDR category (Android `<plurals>`, Xcode `variations.plural`).
    case plural
    /// Several plurals, or a plural among other arguments (Xcode only): `%#@name@` with `substitutions`.
    case substituted
    /// Not representable (select, selectordinal, offset, `=N`, nesting): the ICU text is carried verbatim.
    case verbatim

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One argument of a key as a positional format argument.
public struct ArgumentSlot: Sendable, Hashable {
    public var name: MessageFormat.ArgumentName
    /// 1-based position (`%1$…`).
    public var number: Int
    /// True for plural counts and `{n, number, integer}`: written `%d`/`%lld`; everything else is a string (`%s`/`%@`).
    public var isInteger: Bool
    /// How the argument is written in ICU outside a plural branch (`{km, number}`, `{name}`).
    public var icu: String
}

/// The shape and positional arguments of one key on one platform.
public struct PlatformSignature: Sendable {
    public var shape: PlatformShape
    public var slots: [ArgumentSlot]
    /// The plural argument of the `.plural` shape.
    public var pluralArgument: MessageFormat.ArgumentName?
    public var flavor: PlatformFlavor

    public func slot(_ name: MessageFormat.ArgumentName) -> ArgumentSlot? { slots.first { $0.name == name } }
    public func slot(number: Int) -> ArgumentSlot? { slots.first { $0.number == number } }

    /// Apple writes `%@` for a lone argument and `%1$@` when there are several; Android is always positional.
    public var positional: Bool { flavor == .android || slots.count > 1 }

    /// Whether `%` in literal text must be doubled: whenever the platform runs the text through a formatter.
    public var formatsText: Bool { shape == .plural || shape == .substituted || !slots.isEmpty }

    /// The specifier of an argument: `%1$d`, `%s`, `%lld`, `%2$@`.
    public func specifier(_ slot: ArgumentSlot) -> String {
        let conversion: Int
        switch flavor {
        case .android: conversion = slot.isInteger ? 0 : 1
        case .apple: conversion = slot.isInteger ? 2 : 3
        }
        guard positional else { return Self.plainSpecifiers[conversion] }
        // The first few positions are made once: a full build writes a specifier into most messages of every locale.
        if slot.number < Self.positionalSpecifiers.count { return Self.positionalSpecifiers[slot.number][conversion] }
        return "%\(slot.number)$\(Self.conversions[conversion])"
    }

    private static let conversions = ["d", "s", "lld", "@"]
    private static let plainSpecifiers = conversions.map { "%" + $0 }
    private static let positionalSpecifiers = (0..<10).map { number in conversions.map { "%\(number)$\($0)" } }

    /// The signature of `key` from its message in every locale of `catalog` (unparsable messages make it verbatim).
    public static func of(_ key: String, in catalog: LocaleCatalog, flavor: PlatformFlavor) -> PlatformSignature {
        if let entry = catalog.parsed.entry(key, of: catalog) { return entry.signature(flavor) }
        let none = computedForBothFlavors([MessagePattern](), unparsable: false)
        return flavor == .apple ? none.apple : none.android
    }

    /// What both walks over a key's messages gather (the tree walk and the flat one): each argument gets
    /// its slot at its first use, in source order, and the first plain use (default locale first) says how
    /// it is written outside a plural; each message's own shapes raise the key's.
    private struct KeyWalk {
        var apple: PlatformShape, android: PlatformShape
        var pluralNames = Set<MessageFormat.ArgumentName>()
        var slots: [ArgumentSlot] = []
        /// The message being walked: how many selections it has at any depth, and the arguments it uses.
        var selectionCount = 0
        var names: [MessageFormat.ArgumentName] = []

        init(unparsable: Bool) {
            apple = unparsable ? .verbatim : .simple
            android = apple
        }

        mutating func slot(_ name: MessageFormat.ArgumentName) -> Int {
            if !names.contains(name) { names.append(name) }
            if let index = slots.firstIndex(where: { $0.name == name }) { return index }
            slots.append(ArgumentSlot(name: name, number: slots.count + 1, isInteger: false, icu: ""))
            return slots.count - 1
        }

        mutating func argument(_ name: MessageFormat.ArgumentName, icu: () -> String, integer: Bool) {
            let index = slot(name)
            if slots[index].icu.isEmpty { slots[index].icu = icu() }
            if integer { slots[index].isInteger = true }
        }

        mutating func selection(_ name: MessageFormat.ArgumentName, type: MessageFormat.ArgumentType) {
            selectionCount += 1
            if type.isPlural { pluralNames.insert(name) }
            _ = slot(name)
        }

        mutating func endMessage(_ own: (apple: PlatformShape, android: PlatformShape)) {
            apple = max(apple, own.apple)
            android = max(android, own.android)
            selectionCount = 0
            names.removeAll(keepingCapacity: true)
        }
    }

    /// Both platforms' signatures of a key, from one walk over its messages' trees: what the platforms share
    /// (arguments, plural names, each message's selections) is computed once. The oracle of the flat walk below.
    static func computedForBothFlavors(_ messages: [MessageFormat], unparsable: Bool) -> (apple: PlatformSignature, android: PlatformSignature) {
        var walk = KeyWalk(unparsable: unparsable)
        for message in messages {
            message.root.visit { part in
                switch part {
                case .argument(let argument):
                    var integer = false
                    if argument.type == .number, case .keyword("integer") = argument.style { integer = true }
                    walk.argument(argument.name, icu: { Self.icu(argument) }, integer: integer)
                case .selection(let selection):
                    walk.selection(selection.name, type: selection.type)
                case .text, .pound:
                    break
                }
            }
            walk.endMessage(shapes(of: message, selectionCount: walk.selectionCount, argumentCount: walk.names.count))
        }
        return finished(apple: walk.apple, android: walk.android, slots: walk.slots, pluralNames: walk.pluralNames)
    }

    /// Both platforms' signatures of a key from its messages' flat parses, without a tree per message:
    /// the same walk as `computedForBothFlavors(_: [MessageFormat], …)` (kept as the oracle of a
    /// differential test), over the parts in source order, which is the tree's visiting order.
    static func computedForBothFlavors(_ patterns: [MessagePattern], unparsable: Bool) -> (apple: PlatformSignature, android: PlatformSignature) {
        var walk = KeyWalk(unparsable: unparsable)
        for pattern in patterns {
            // The selections outside any option (`depth` 0), and whether one of them rules out a platform
            // plural: not a cardinal plural, an offset, a name taken twice, or an option that is not a category.
            var topNames: [MessageFormat.ArgumentName] = []
            var topVerbatim = false
            var depth = 0
            let parts = pattern.parts
            var i = 0
            while i < parts.count {
                let part = parts[i]
                switch part.kind {
                case .messageStart: depth += 1
                case .messageEnd: depth -= 1
                case .argumentStart:
                    let name = pattern.argumentName(of: parts[i + 1])
                    let type = pattern.argumentType(of: part)
                    if let type, type.isSelection {
                        walk.selection(name, type: type)
                        if depth == 0 {
                            if type != .plural || topNames.contains(name) { topVerbatim = true }
                            topNames.append(name)
                        }
                    } else {
                        let style = i + 2 < parts.count && parts[i + 2].kind == .argumentStyle
                            ? pattern.argumentStyle(of: parts[i + 2], type: type) : .none
                        var integer = false
                        if type == .number, case .keyword("integer") = style { integer = true }
                        walk.argument(name, icu: { MessageFormat.Argument.formatted(name: name, type: type, style: style) }, integer: integer)
                    }
                    i += 1  // the name
                case .offset:
                    if depth == 0 { topVerbatim = true }
                case .selector:
                    if depth == 0 && (part.value == 1 || PluralCategory(rawValue: pattern.source(of: part)) == nil) { topVerbatim = true }
                case .text, .quotedText, .pound, .argumentName, .argumentStyle, .argumentEnd:
                    break
                }
                i += 1
            }
            let own: (apple: PlatformShape, android: PlatformShape)
            if walk.selectionCount == 0 {
                own = (.simple, .simple)
            } else if topVerbatim || topNames.count != walk.selectionCount {
                own = (.verbatim, .verbatim)
            } else {
                own = (topNames.count == 1 && walk.names.count == 1 ? .plural : .substituted, topNames.count == 1 ? .plural : .verbatim)
            }
            walk.endMessage(own)
        }
        return finished(apple: walk.apple, android: walk.android, slots: walk.slots, pluralNames: walk.pluralNames)
    }

    /// The signatures once every message was walked: plural arguments are integers, an argument used only
    /// in plurals is written `{name, number}` outside them, and the shapes the platforms cannot take are raised.
    private static func finished(apple: PlatformShape, android: PlatformShape, slots: [ArgumentSlot],
                                 pluralNames: Set<MessageFormat.ArgumentName>) -> (apple: PlatformSignature, android: PlatformSignature) {
        var apple = apple, android = android, slots = slots
        for index in slots.indices {
            if pluralNames.contains(slots[index].name) { slots[index].isInteger = true }
            if slots[index].icu.isEmpty { slots[index].icu = "{\(slots[index].name), number}" }
        }
        if apple == .plural && (pluralNames.count > 1 || slots.count > 1) { apple = .substituted }
        if android == .plural && pluralNames.count > 1 { android = .verbatim }
        func signature(_ shape: PlatformShape, _ flavor: PlatformFlavor) -> PlatformSignature {
            PlatformSignature(shape: shape, slots: shape == .verbatim ? [] : slots, pluralArgument: shape == .plural ? pluralNames.first : nil, flavor: flavor)
        }
        return (signature(apple, .apple), signature(android, .android))
    }

    /// The shape one message needs on its own on each platform, given how many selections it has at any
    /// depth and how many distinct arguments it uses.
    private static func shapes(of message: MessageFormat, selectionCount: Int, argumentCount: Int) -> (apple: PlatformShape, android: PlatformShape) {
        if selectionCount == 0 { return (.simple, .simple) }
        var topCount = 0
        // A message has a selection or two at the top: a list is cheaper than a set to look them up in.
        var names: [MessageFormat.ArgumentName] = []
        for part in message.root.parts {
            guard case .selection(let selection) = part else { continue }
            topCount += 1
            // Every selection must be a top-level cardinal plural with category selectors and flat branches.
            guard selection.type == .plural, selection.offsetPosition == nil, !names.contains(selection.name) else { return (.verbatim, .verbatim) }
            names.append(selection.name)
            for option in selection.options {
                guard case .keyword(let word) = option.selector, PluralCategory(rawValue: word) != nil else { return (.verbatim, .verbatim) }
            }
        }
        guard topCount == selectionCount else { return (.verbatim, .verbatim) }
        return (topCount == 1 && argumentCount == 1 ? .plural : .substituted, topCount == 1 ? .plural : .verbatim)
    }

    /// An argument as ICU writes it: `{name}`, `{n, number}`, `{d, date, medium}`.
    static func icu(_ argument: MessageFormat.Argument) -> String {
        MessageFormat.Argument.formatted(name: argument.name, type: argument.type, style: argument.style)
    }
}
