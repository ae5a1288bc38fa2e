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
        let conversion: String
        switch flavor {
        case .android: conversion = slot.isInteger ? "d" : "s"
        case .apple: conversion = slot.isInteger ? "lld" : "@"
        }
        return positional ? "%\(slot.number)$\(conversion)" : "%\(conversion)"
    }

    /// The signature of `key` from its message in every locale of `catalog` (unparsable messages make it verbatim).
    public static func of(_ key: String, in catalog: LocaleCatalog, flavor: PlatformFlavor) -> PlatformSignature {
        catalog.parsed.entry(key, of: catalog)?.signature(flavor) ?? computed([], unparsable: false, flavor: flavor)
    }

    /// The signature of a key from its parsed messages in locale order (default locale first); `unparsable`
    /// when one of its locales' messages is not valid ICU.
    static func computed(_ messages: [MessageFormat], unparsable: Bool, flavor: PlatformFlavor) -> PlatformSignature {
        var shape = unparsable ? PlatformShape.verbatim : .simple
        var pluralNames = Set<MessageFormat.ArgumentName>()
        var slots: [ArgumentSlot] = []
        for message in messages {
            shape = max(shape, Self.shape(of: message, flavor: flavor))
            for selection in message.selections where selection.type.isPlural { pluralNames.insert(selection.name) }
            for use in message.argumentUses where !slots.contains(where: { $0.name == use.name }) {
                slots.append(ArgumentSlot(name: use.name, number: slots.count + 1, isInteger: false, icu: ""))
            }
            // The first plain use of an argument (default locale first) says how it is written outside a plural.
            message.root.visit { part in
                guard case .argument(let argument) = part, let index = slots.firstIndex(where: { $0.name == argument.name }) else { return }
                if slots[index].icu.isEmpty { slots[index].icu = Self.icu(argument) }
                if argument.type == .number, case .keyword("integer") = argument.style { slots[index].isInteger = true }
            }
        }
        for index in slots.indices {
            if pluralNames.contains(slots[index].name) { slots[index].isInteger = true }
            if slots[index].icu.isEmpty { slots[index].icu = "{\(slots[index].name), number}" }
        }
        if shape == .plural && (pluralNames.count > 1 || (flavor == .apple && slots.count > 1)) {
            shape = flavor == .apple ? .substituted : .verbatim
        }
        return PlatformSignature(shape: shape, slots: shape == .verbatim ? [] : slots,
                                 pluralArgument: shape == .plural ? pluralNames.first : nil, flavor: flavor)
    }

    /// The shape one message needs on its own.
    static func shape(of message: MessageFormat, flavor: PlatformFlavor) -> PlatformShape {
        let selections = message.selections
        if selections.isEmpty { return .simple }
        let top = message.root.parts.compactMap { part -> MessageFormat.Selection? in
            if case .selection(let s) = part { return s } else { return nil }
        }
        // Every selection must be a top-level cardinal plural with category selectors and flat branches.
        guard top.count == selections.count else { return .verbatim }
        var names = Set<MessageFormat.ArgumentName>()
        for selection in top {
            guard selection.type == .plural, selection.offsetPosition == nil, names.insert(selection.name).inserted else { return .verbatim }
            for option in selection.options {
                guard case .keyword(let word) = option.selector, PluralCategory(rawValue: word) != nil else { return .verbatim }
            }
        }
        let argumentNames = Set(message.argumentUses.map(\.name))
        switch flavor {
        case .android: return top.count == 1 ? .plural : .verbatim
        case .apple: return top.count == 1 && argumentNames.count == 1 ? .plural : .substituted
        }
    }

    /// An argument as ICU writes it: `{name}`, `{n, number}`, `{d, date, medium}`.
    static func icu(_ argument: MessageFormat.Argument) -> String {
        guard let type = argument.type else { return "{\(argument.name)}" }
        switch argument.style {
        case .none: return "{\(argument.name), \(type.rawValue)}"
        case .keyword(let word): return "{\(argument.name), \(type.rawValue), \(word)}"
        case .skeleton(let skeleton): return "{\(argument.name), \(type.rawValue), ::\(skeleton)}"
        case .pattern(let pattern): return "{\(argument.name), \(type.rawValue), \(pattern)}"
        }
    }
}
