// HTML-like tags in a message's literal text, for rules that check translations keep `<b>…</b>` intact.
// Each message and sub-message is scanned on its own, with its arguments standing in as placeholders,
// so `<a href="{url}">` is one tag and every plural branch must balance its own tags.

/// An HTML-like tag found in a message's literal text.
public struct MarkupTag: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable {
        /// `<b>` or `<a href="…">`.
        case open
        /// `</b>`.
        case close
        /// `<br/>`, or a void element such as `<br>` or `<img …>` that never has a closing tag.
        case selfClosing
    }

    public var kind: Kind
    /// The element name, lower-cased (HTML names are case-insensitive).
    public var name: String
    /// The tag as written after ICU unquoting, with each argument shown as `{…}`.
    public var text: String
    /// Position of the `<`.
    public var position: MessagePosition
}

/// A tag that does not pair up: a close without an open, a close that skips an open tag, or an open never closed.
public struct MarkupProblem: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable {
        case unexpectedClose = "unexpected-close"
        case mismatchedClose = "mismatched-close"
        case unclosed
    }

    public var kind: Kind
    public var message: String
    /// The tag at fault.
    public var tag: MarkupTag

    public var description: String { "\(tag.position): \(message)" }
}

/// Finds and checks HTML-like tags in the literal text of a parsed message.
public enum MarkupTags {
    /// Longer "tags" are taken for plain text; real ones with a URL attribute are far shorter.
    static let maximumTagLength = 2048

    /// Elements HTML defines as having no end tag.
    static let voidElements: Set<String> = ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]

    /// All tags, in source order. A tag must start in unquoted text unless `includeQuoted`: text such as
    /// `'{<b>}'` quotes ICU syntax and is not taken for markup.
    public static func find(in message: MessageFormat, includeQuoted: Bool = false) -> [MarkupTag] {
        scopes(of: message.root, includeQuoted: includeQuoted).flatMap { $0 }.sorted { $0.position < $1.position }
    }

    /// The first problem in source order, or nil when every message and sub-message balances its tags.
    public static func firstProblem(in message: MessageFormat, includeQuoted: Bool = false) -> MarkupProblem? {
        scopes(of: message.root, includeQuoted: includeQuoted).compactMap(firstProblem(in:)).min { $0.tag.position < $1.tag.position }
    }

    /// The first problem among the tags of one message, checking them like an HTML parser with a stack.
    public static func firstProblem(in tags: [MarkupTag]) -> MarkupProblem? {
        var open: [MarkupTag] = []
        for tag in tags {
            switch tag.kind {
            case .selfClosing: continue
            case .open: open.append(tag)
            case .close:
                if open.last?.name == tag.name {
                    open.removeLast()
                } else if let inner = open.last, open.contains(where: { $0.name == tag.name }) {
                    return MarkupProblem(kind: .mismatchedClose, message: "</\(tag.name)> closes <\(tag.name)> while <\(inner.name)> (at \(inner.position)) is still open", tag: tag)
                } else {
                    return MarkupProblem(kind: .unexpectedClose, message: "</\(tag.name)> has no matching <\(tag.name)> in the same message", tag: tag)
                }
            }
        }
        if let first = open.first {
            return MarkupProblem(kind: .unclosed, message: "<\(first.name)> is never closed in the same message", tag: first)
        }
        return nil
    }

    /// The tags of each message and sub-message of a pattern, each list in source order.
    public static func scopes(of pattern: MessagePattern, includeQuoted: Bool = false) -> [[MarkupTag]] {
        pattern.withUTF8 { bytes in
            // Items carry their UTF-8 offset in `position.offset` while scanning; only the tags found
            // get real positions, at the end (most characters are not part of a tag).
            func item(_ scalar: Unicode.Scalar, at offset: Int32, quoted: Bool, placeholder: Bool) -> StreamItem {
                StreamItem(scalar: scalar, position: MessagePosition(offset: Int(offset), line: 0, column: 0), quoted: quoted, placeholder: placeholder)
            }
            var open: [[StreamItem]] = [[]]
            open[0].reserveCapacity(bytes.count)
            var found: [[MarkupTag]] = []
            for part in pattern.parts {
                switch part.kind {
                case .text, .quotedText:
                    var i = Int(part.start)
                    while i < Int(part.end) {
                        let (scalar, width) = MessagePositions.scalar(in: bytes, at: i)
                        open[open.count - 1].append(item(scalar, at: Int32(i), quoted: part.kind == .quotedText, placeholder: false))
                        i += scalar == "'" && i + 1 < Int(part.end) && bytes[i + 1] == 0x27 ? 2 : width  // '' is one apostrophe
                    }
                case .pound, .argumentStart: open[open.count - 1].append(item("\u{FFFC}", at: part.start, quoted: false, placeholder: true))
                case .messageStart: open.append([])
                case .messageEnd: found.append(tags(in: open.removeLast(), includeQuoted: includeQuoted))
                case .argumentName, .argumentStyle, .offset, .selector, .argumentEnd: break
                }
            }
            found.insert(tags(in: open[0], includeQuoted: includeQuoted), at: 0)
            guard found.contains(where: { !$0.isEmpty }) else { return found }
            var positions = MessagePositions(bytes)
            // Positions are found walking forward: convert in source order, then put each tag back.
            var located = found.enumerated().flatMap { scope, tags in tags.indices.map { (scope, $0, tags[$0].position.offset) } }
            located.sort { $0.2 < $1.2 }
            for (scope, index, offset) in located { found[scope][index].position = positions.position(offset) }
            return found
        }
    }

    /// The tags of each message and sub-message separately, outer first.
    static func scopes(of message: MessageFormat.Message, includeQuoted: Bool) -> [[MarkupTag]] {
        var stream: [StreamItem] = []
        var nested: [[MarkupTag]] = []
        for part in message.parts {
            switch part {
            case .text(let segment):
                for (scalar, position) in segment.scalarPositions {
                    stream.append(StreamItem(scalar: scalar, position: position, quoted: segment.isQuoted, placeholder: false))
                }
            case .argument(let a): stream.append(StreamItem(scalar: "\u{FFFC}", position: a.position, quoted: false, placeholder: true))
            case .pound(let p): stream.append(StreamItem(scalar: "\u{FFFC}", position: p, quoted: false, placeholder: true))
            case .selection(let s):
                stream.append(StreamItem(scalar: "\u{FFFC}", position: s.position, quoted: false, placeholder: true))
                for option in s.options { nested += scopes(of: option.message, includeQuoted: includeQuoted) }
            }
        }
        return [tags(in: stream, includeQuoted: includeQuoted)] + nested
    }

    struct StreamItem {
        var scalar: Unicode.Scalar
        var position: MessagePosition
        var quoted: Bool
        var placeholder: Bool
    }

    private static func isASCIILetter(_ c: Unicode.Scalar) -> Bool { ("a"..."z").contains(c) || ("A"..."Z").contains(c) }

    /// Unicode White_Space, answered without a property lookup for ASCII.
    private static func isWhitespace(_ c: Unicode.Scalar) -> Bool {
        c.isASCII ? c == " " || (c.value >= 0x09 && c.value <= 0x0D) : c.properties.isWhitespace
    }

    /// Scans for `<name …>`, `</name>` and `<name …/>`. A `<` not followed by a letter (as in `a < b`) or never
    /// closed by `>` is plain text.
    static func tags(in stream: [StreamItem], includeQuoted: Bool) -> [MarkupTag] {
        var found: [MarkupTag] = []
        var i = 0
        while i < stream.count {
            guard stream[i].scalar == "<", !stream[i].placeholder, includeQuoted || !stream[i].quoted,
                  let (tag, end) = tag(in: stream, at: i) else {
                i += 1
                continue
            }
            found.append(tag)
            i = end
        }
        return found
    }

    /// The tag starting at the `<` at `start`, and the index just after its `>`.
    private static func tag(in stream: [StreamItem], at start: Int) -> (MarkupTag, Int)? {
        func isLetter(_ i: Int) -> Bool { i < stream.count && !stream[i].placeholder && isASCIILetter(stream[i].scalar) }
        var i = start + 1
        let closing = i < stream.count && stream[i].scalar == "/" && !stream[i].placeholder
        if closing { i += 1 }
        guard isLetter(i) else { return nil }
        var name = ""
        while i < stream.count, !stream[i].placeholder,
              isASCIILetter(stream[i].scalar) || ("0"..."9").contains(stream[i].scalar) || stream[i].scalar == "-" || stream[i].scalar == ":" {
            name.unicodeScalars.append(stream[i].scalar)
            i += 1
        }
        // After the name comes `>`, `/>`, or whitespace and attributes; anything else (`<b.`, `<b{x}>`) is not a tag.
        func isSpace(_ i: Int) -> Bool { i < stream.count && !stream[i].placeholder && isWhitespace(stream[i].scalar) }
        func isScalar(_ i: Int, _ c: Unicode.Scalar) -> Bool { i < stream.count && !stream[i].placeholder && stream[i].scalar == c }
        var selfClosing = false
        if closing {
            while isSpace(i) { i += 1 }
            guard isScalar(i, ">") else { return nil }
        } else if isScalar(i, "/") {
            i += 1
            guard isScalar(i, ">") else { return nil }
            selfClosing = true
        } else if isSpace(i) {
            // Attributes: quoted values may hold `>` and arguments; a `<` outside quotes means this was not a tag.
            // The scan is capped so text full of unclosed `<a ` stays linear.
            var quote: Unicode.Scalar?
            var lastNonSpace: Unicode.Scalar = " "
            let limit = min(stream.count, i + maximumTagLength)
            while i < limit {
                let item = stream[i]
                if item.placeholder {
                    lastNonSpace = "\u{FFFC}"
                } else if let open = quote {
                    if item.scalar == open { quote = nil }
                    lastNonSpace = item.scalar
                } else if item.scalar == ">" {
                    break
                } else if item.scalar == "<" {
                    return nil
                } else if item.scalar == "\"" || item.scalar == "'" {
                    quote = item.scalar
                    lastNonSpace = item.scalar
                } else if !isWhitespace(item.scalar) {
                    lastNonSpace = item.scalar
                }
                i += 1
            }
            guard i < limit else { return nil }
            selfClosing = lastNonSpace == "/"
        } else {
            guard isScalar(i, ">") else { return nil }
        }
        name = name.lowercased()
        let kind: MarkupTag.Kind = closing ? .close : (selfClosing || voidElements.contains(name) ? .selfClosing : .open)
        var text = String.UnicodeScalarView()
        for item in stream[start...i] {
            if item.placeholder { text.append(contentsOf: "{…}".unicodeScalars) } else { text.append(item.scalar) }
        }
        return (MarkupTag(kind: kind, name: name, text: String(text), position: stream[start].position), i + 1)
    }
}
