// The canonical pattern for a tree: one space after each comma, one space between options, every
// apostrophe doubled, and each run of braces (and `#` where it would be a number) quoted.
// Parsing the output gives the same tree apart from positions and where quoting splits literal text,
// which tests use as a round-trip check.

extension MessageFormat {
    /// The message in canonical ICU syntax.
    public var formatted: String { root.formatted(poundAllowed: false) }
}

extension MessageFormat.Message {
    /// This message in canonical ICU syntax; `poundAllowed` says whether a literal `#` must be quoted.
    func formatted(poundAllowed: Bool) -> String {
        var out = ""
        var text = ""  // adjacent text segments are escaped together, so quotes never abut
        for part in parts {
            if case .text(let segment) = part {
                text += segment.text
                continue
            }
            out += MessageFormat.literal(text, poundIsSyntax: poundAllowed)
            text = ""
            switch part {
            case .text: break
            case .pound: out += "#"
            case .argument(let argument): out += argument.formatted
            case .selection(let selection):
                out += "{\(selection.name), \(selection.type.rawValue),"
                if selection.offsetPosition != nil { out += " offset:\(selection.offset)" }
                for option in selection.options {
                    let nested = option.message.formatted(poundAllowed: selection.type.isPlural || poundAllowed)
                    out += " \(option.selector) {\(nested)}"
                }
                out += "}"
            }
        }
        return out + MessageFormat.literal(text, poundIsSyntax: poundAllowed)
    }
}

extension MessageFormat {
    /// How `literal(_:poundIsSyntax:apostrophes:)` writes an apostrophe outside quotes.
    public enum LiteralApostrophes: Sendable {
        /// Every apostrophe doubled, which reads as one both inside and outside quotes: the canonical form.
        case doubled
        /// Doubled only where a single one would start quoting (before an apostrophe, a syntax character or
        /// the end of the text); `don't` stays `don't`, as translators write it.
        case asNeeded
    }

    /// `text` as literal ICU MessageFormat text, the one escaper of every writer of messages (the printer,
    /// imported translations, scaffolds): each run of syntax characters (braces, and `#` where `poundIsSyntax`,
    /// inside a plural branch) quoted as one `'…'` (two quoted runs side by side would read as one run holding
    /// an apostrophe), and apostrophes doubled inside quotes and as `apostrophes` says outside them.
    public static func literal(_ text: String, poundIsSyntax: Bool, apostrophes: LiteralApostrophes = .doubled) -> String {
        let scalars = Array(text.unicodeScalars)
        func special(_ c: Unicode.Scalar) -> Bool { c == "{" || c == "}" || (c == "#" && poundIsSyntax) }
        var out = ""
        var quoting = false
        for (index, c) in scalars.enumerated() {
            let isSpecial = special(c)
            if isSpecial && !quoting {
                out += "'"
                quoting = true
            } else if quoting && !isSpecial && c != "'" {
                out += "'"
                quoting = false
            }
            guard c == "'" else {
                out.unicodeScalars.append(c)
                continue
            }
            let next = index + 1 < scalars.count ? scalars[index + 1] : nil
            let single = apostrophes == .asNeeded && !quoting && next.map { $0 != "'" && !special($0) } == true
            out += single ? "'" : "''"
        }
        return quoting ? out + "'" : out
    }
}

extension MessageFormat.Argument {
    /// `{name}`, `{name, type}` or `{name, type, style}`.
    var formatted: String { Self.formatted(name: name, type: type, style: style) }

    /// An argument as ICU writes it, from its parts: `{name}`, `{n, number}`, `{d, date, medium}`.
    public static func formatted(name: MessageFormat.ArgumentName, type: MessageFormat.ArgumentType?, style: MessageFormat.ArgumentStyle) -> String {
        guard let type else { return "{\(name)}" }
        switch style {
        case .none: return "{\(name), \(type.rawValue)}"
        case .keyword(let word): return "{\(name), \(type.rawValue), \(word)}"
        case .skeleton(let skeleton): return "{\(name), \(type.rawValue), ::\(skeleton)}"
        case .pattern(let pattern): return "{\(name), \(type.rawValue), \(pattern)}"
        }
    }
}
