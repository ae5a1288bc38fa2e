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
            out += Self.escape(text, poundAllowed: poundAllowed)
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
        return out + Self.escape(text, poundAllowed: poundAllowed)
    }

    /// Quotes each run of syntax characters as one `'…'` (two quoted runs side by side would read as one
    /// run holding an apostrophe), and doubles every apostrophe, which reads as one both inside and outside quotes.
    private static func escape(_ text: String, poundAllowed: Bool) -> String {
        var out = ""
        var quoting = false
        for c in text.unicodeScalars {
            let special = c == "{" || c == "}" || (c == "#" && poundAllowed)
            if special && !quoting {
                out += "'"
                quoting = true
            } else if quoting && !special && c != "'" {
                out += "'"
                quoting = false
            }
            if c == "'" { out += "''" } else { out.unicodeScalars.append(c) }
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
