// What localization rules ask of a parsed message: which arguments it uses and how, its plural and
// select arguments, and its literal text with positions.

extension MessageFormat {
    /// One use of an argument: `{n}`, `{n, number}` or the `n` of `{n, plural, …}`.
    public struct ArgumentUse: Hashable, Sendable {
        public var name: ArgumentName
        /// Nil for a simple `{n}`.
        public var type: ArgumentType?
        /// Position of the argument's `{`.
        public var position: MessagePosition
        /// Position of the name's first character.
        public var namePosition: MessagePosition
    }

    /// Every argument use, in source order (outer arguments before the ones in their sub-messages).
    public var argumentUses: [ArgumentUse] {
        var uses: [ArgumentUse] = []
        root.visit { part in
            switch part {
            case .argument(let a): uses.append(ArgumentUse(name: a.name, type: a.type, position: a.position, namePosition: a.namePosition))
            case .selection(let s): uses.append(ArgumentUse(name: s.name, type: s.type, position: s.position, namePosition: s.namePosition))
            case .text, .pound: break
            }
        }
        return uses
    }

    /// The uses of each argument, by name, in source order; a name used as `{n}` and `{n, number}` has both.
    public var arguments: [ArgumentName: [ArgumentUse]] {
        Dictionary(grouping: argumentUses, by: \.name)
    }

    /// All plural, selectordinal and select arguments, outer before inner, in source order.
    public var selections: [Selection] {
        var found: [Selection] = []
        root.visit { part in
            if case .selection(let s) = part { found.append(s) }
        }
        return found
    }

    /// True when the message has a `plural` or `selectordinal` argument at any depth (a `select` alone is not plural-like).
    public var isPluralLike: Bool { selections.contains { $0.type.isPlural } }

    /// The literal text runs at every depth, in source order.
    public var textSegments: [TextSegment] {
        var found: [TextSegment] = []
        root.visit { part in
            if case .text(let t) = part { found.append(t) }
        }
        return found
    }

    /// The positions of every `#` that stands for a plural number.
    public var poundPositions: [MessagePosition] {
        var found: [MessagePosition] = []
        root.visit { part in
            if case .pound(let p) = part { found.append(p) }
        }
        return found
    }
}

extension MessageFormat.Message {
    /// Calls `body` on every part at every depth, in source order, a selection before its sub-messages.
    /// The parser bounds the depth, so this recursion is bounded too.
    public func visit(_ body: (MessageFormat.Part) -> Void) {
        for part in parts {
            body(part)
            if case .selection(let s) = part {
                for option in s.options { option.message.visit(body) }
            }
        }
    }

    /// The literal text of this message alone (sub-messages of nested selections are not included).
    public var plainText: String {
        parts.reduce(into: "") { text, part in
            if case .text(let t) = part { text += t.text }
        }
    }
}

extension MessageFormat.Selection {
    /// The option for `selector`, if there is one (`=1` finds `=1.0` too).
    public func option(for selector: MessageFormat.Selector) -> MessageFormat.Option? {
        options.first { $0.selector.matchesSameValue(as: selector) }
    }

    /// True when there is an `other` option, which ICU requires and rules check.
    public var hasOther: Bool { option(for: .keyword("other")) != nil }

    /// The keyword selectors, in source order.
    public var keywords: [String] {
        options.compactMap { if case .keyword(let word) = $0.selector { return word } else { return nil } }
    }
}

extension MessageFormat.TextSegment {
    /// Each scalar of `text` with its position in the message (a `''` maps to its first apostrophe).
    public var scalarPositions: [(scalar: Unicode.Scalar, position: MessagePosition)] {
        var result: [(scalar: Unicode.Scalar, position: MessagePosition)] = []
        var position = start
        let raw = Array(self.raw.unicodeScalars)
        var i = 0
        while i < raw.count {
            result.append((raw[i], position))
            let width = raw[i] == "'" && i + 1 < raw.count && raw[i + 1] == "'" ? 2 : 1
            for k in i..<(i + width) {
                position.offset += 1
                if raw[k] == "\n" { position.line += 1; position.column = 1 } else { position.column += 1 }
            }
            i += width
        }
        return result
    }

    /// The position of the scalar at `index` in `text`, or nil when out of range.
    public func position(ofScalarAt index: Int) -> MessagePosition? {
        let all = scalarPositions
        return all.indices.contains(index) ? all[index].position : nil
    }
}
