import CYAML
import LiveryDiagnostics

/// Builds a located `Node` tree from libyaml's event stream.
///
/// libyaml (Debian's `libyaml-dev`) does the tokenising and parsing; this composer replaces a
/// YAML library's composer because Livery needs three things those do not give: a duplicate key
/// reported at the duplicate's own position, limits on depth and alias expansion checked while
/// composing (alias bombs and deep nesting never allocate), and no recursion on untrusted input.
/// Plain scalars resolve with the YAML 1.2 core schema, so `no`, `on` and `NO` stay strings.
struct YAMLComposer {
    private let file: String
    private let limits: LoadLimits
    private var diagnostics: [Diagnostic] = []
    private var nodeCount = 0
    private var anchors: [String: (node: Node, weight: Int)] = [:]

    // Frames are classes so that appending to the collection being composed mutates it in place;
    // value-type frames popped and pushed back copied the whole array on every append (quadratic).
    private enum Frame {
        case sequence(SequenceFrame)
        case mapping(MappingFrame)
    }

    private final class SequenceFrame {
        let start: SourceLocation
        let anchor: String?
        var items: [Node] = []
        init(start: SourceLocation, anchor: String?) { self.start = start; self.anchor = anchor }
    }

    /// A mapping being composed; `index` finds a key's entry in constant time (manifests can hold thousands of keys).
    private final class MappingFrame {
        let start: SourceLocation
        let anchor: String?
        var entries: [Node.Entry] = []
        var index: [String: Int] = [:]
        var key: (String, SourceLocation)?
        /// Keys brought in by a `<<` merge, which an explicit key may override.
        var merged: Set<String> = []
        init(start: SourceLocation, anchor: String?) { self.start = start; self.anchor = anchor }
    }
    private var stack: [Frame] = []
    private var root: Node?
    /// A place in the input as libyaml counts it (`mark.index`, in Unicode scalars) and as a byte offset.
    /// Scalars arrive in document order, so slicing their source only ever moves this forward.
    private var cursor = (scalars: 0, byte: 0)
    /// The last event, when it was a quoted scalar that ran over several lines: where it opened and where its
    /// closing quote is. A parse error right after it on that line is most likely a quote left open at its start
    /// and closed by the next quote in the file (the opening quote of a later value).
    private var quotedAcrossLines: (opened: SourceLocation, closed: SourceLocation)?

    struct Stop: Error { let diagnostic: Diagnostic }

    static func parse(_ text: String, file: String, limits: LoadLimits = .default) -> (Node?, [Diagnostic]) {
        var composer = YAMLComposer(file: file, limits: limits)
        do {
            try composer.run(text)
            guard let root = composer.root else {
                return (nil, composer.diagnostics + [Diagnostic(.error, "file is empty; expected a YAML mapping", at: .start(of: file), rule: LoadRule.syntax)])
            }
            return (root, composer.diagnostics)
        } catch let stop as Stop {
            return (nil, composer.diagnostics + [stop.diagnostic])
        } catch {
            return (nil, composer.diagnostics)
        }
    }

    private init(file: String, limits: LoadLimits) {
        self.file = file
        self.limits = limits
    }

    private func location(_ mark: yaml_mark_t) -> SourceLocation { Self.location(mark, in: file) }

    // The helpers called for every event are static: a method of `self` called from inside the closure
    // that holds the input buffer made a copy of the whole composer each time.
    private static func location(_ mark: yaml_mark_t, in file: String) -> SourceLocation {
        SourceLocation(file: file, line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        guard let pointer else { return nil }
        return String(cString: UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self))
    }

    private mutating func run(_ text: String) throws {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            throw Stop(diagnostic: Diagnostic(.error, "YAML parser could not start (out of memory)", at: .start(of: file), rule: LoadRule.syntax))
        }
        defer { yaml_parser_delete(&parser) }
        var text = text.isEmpty ? "\n" : text  // libyaml needs a non-null buffer
        try text.withUTF8 { buffer in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            var documents = 0
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else {
                    throw Stop(diagnostic: parserError(parser))
                }
                defer { yaml_event_delete(&event) }
                let start = Self.location(event.start_mark, in: file)
                quotedAcrossLines = nil
                switch event.type {
                case YAML_STREAM_END_EVENT:
                    return
                case YAML_DOCUMENT_START_EVENT:
                    documents += 1
                    if documents > 1 {
                        throw Stop(diagnostic: Diagnostic(.error, "a manifest holds one YAML document, but a second one starts here",
                                                          at: start, rule: LoadRule.syntax, hint: "remove the '---' line or split the file"))
                    }
                case YAML_SCALAR_EVENT:
                    let scalar = event.data.scalar
                    let text = String(decoding: UnsafeBufferPointer(start: scalar.value, count: Int(scalar.length)), as: UTF8.self)
                    let tag = Self.string(scalar.tag)
                    let value = try Self.resolve(text, tag: tag, plain: scalar.style == YAML_PLAIN_SCALAR_STYLE, at: start)
                    try count(1, at: start)
                    var node = Node(value, at: start)
                    if case .string = value { node.scalar = source(of: event, in: buffer) }
                    if scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE || scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE,
                       event.end_mark.line > event.start_mark.line, event.end_mark.column > 0 {
                        // end_mark is just after the closing quote.
                        quotedAcrossLines = (start, SourceLocation(file: file, line: Int(event.end_mark.line) + 1, column: Int(event.end_mark.column)))
                    }
                    register(Self.string(scalar.anchor), node, weight: 1)
                    try complete(node, keyText: text)
                case YAML_ALIAS_EVENT:
                    let name = Self.string(event.data.alias.anchor) ?? ""
                    guard let anchored = anchors[name] else {
                        throw Stop(diagnostic: Diagnostic(.error, "alias *\(name) refers to an anchor that is not defined before it", at: start, rule: LoadRule.syntax))
                    }
                    try count(anchored.weight, at: start)
                    try complete(anchored.node, keyText: anchored.node.string)
                case YAML_SEQUENCE_START_EVENT:
                    try Self.checkCollectionTag(Self.string(event.data.sequence_start.tag), expected: "tag:yaml.org,2002:seq", at: start)
                    try push(.sequence(SequenceFrame(start: start, anchor: Self.string(event.data.sequence_start.anchor))), at: start)
                case YAML_MAPPING_START_EVENT:
                    try Self.checkCollectionTag(Self.string(event.data.mapping_start.tag), expected: "tag:yaml.org,2002:map", at: start)
                    try push(.mapping(MappingFrame(start: start, anchor: Self.string(event.data.mapping_start.anchor))), at: start)
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    guard let frame = stack.popLast() else { break }
                    let node: Node, anchor: String?
                    switch frame {
                    case .sequence(let frame): node = Node(.sequence(frame.items), at: frame.start); anchor = frame.anchor
                    case .mapping(let frame): node = Node(.mapping(frame.entries), at: frame.start); anchor = frame.anchor
                    }
                    if let anchor { register(anchor, node, weight: Self.weight(of: node)) }
                    try complete(node, keyText: nil)
                default:
                    break
                }
            }
        }
    }

    /// How a text scalar was written; its source text is kept only when the value does not map one to one
    /// onto one line of the file (see `ScalarSource`).
    private mutating func source(of event: yaml_event_t, in bytes: UnsafeBufferPointer<UInt8>) -> ScalarSource {
        let style: ScalarSource.Style
        switch event.data.scalar.style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: style = .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: style = .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: style = .literal
        case YAML_FOLDED_SCALAR_STYLE: style = .folded
        default: style = .plain
        }
        let start = event.start_mark, end = event.end_mark
        var oneToOne = false
        if start.line == end.line {
            switch style {
            case .plain: oneToOne = true
            // Every escape and every `''` is longer than the character it stands for.
            case .singleQuoted, .doubleQuoted:
                let scalar = event.data.scalar
                oneToOne = Int(end.index) - Int(start.index) - 2 == Self.scalarCount(UnsafeBufferPointer(start: scalar.value, count: Int(scalar.length)))
            case .literal, .folded: oneToOne = false
            }
        }
        let raw = oneToOne ? nil : slice(from: Int(start.index), to: Int(end.index), of: bytes)
        return ScalarSource(style: style, endLine: Int(end.line) + 1, endColumn: Int(end.column) + 1, raw: raw)
    }

    /// The Unicode scalars in UTF-8 bytes: the bytes that are not continuation bytes.
    private static func scalarCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        // An index loop without branches or overflow checks, which the compiler turns into vector code
        // (continuation bytes are 0x80...0xBF, -128...-65 as signed bytes).
        guard let base = bytes.baseAddress else { return 0 }
        var count = 0
        for i in 0..<bytes.count { count &+= Int8(bitPattern: base[i]) >= -64 ? 1 : 0 }
        return count
    }

    /// The input between two libyaml indexes (counted in Unicode scalars).
    private mutating func slice(from start: Int, to end: Int, of bytes: UnsafeBufferPointer<UInt8>) -> String? {
        func advance(to target: Int) {
            if target < cursor.scalars { cursor = (0, 0) }
            while cursor.scalars < target, cursor.byte < bytes.count {
                let lead = bytes[cursor.byte]
                cursor.byte += lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
                cursor.scalars += 1
            }
        }
        advance(to: start)
        let from = min(cursor.byte, bytes.count)
        advance(to: end)
        let to = min(cursor.byte, bytes.count)
        guard from <= to else { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<to]), as: UTF8.self)
    }

    /// libyaml reports two marks: where the construct it was reading began (`context_mark`) and where
    /// it gave up (`problem_mark`). An unclosed `[`, `{` or quote is fixed where it began, so the finding
    /// points there and names where parsing stopped; for other constructs the finding stays where
    /// parsing stopped and names where the construct began. Both places are in `related`.
    private func parserError(_ parser: yaml_parser_t) -> Diagnostic {
        let problem = Self.string(UnsafeMutablePointer(mutating: parser.problem.map { UnsafeRawPointer($0).assumingMemoryBound(to: yaml_char_t.self) })) ?? "invalid YAML"
        let context = parser.context.map { String(cString: $0) }
        var message = problem + (context.map { " \($0)" } ?? "")
        var mark = parser.problem_mark
        if parser.problem == nil { mark = parser.context_mark }
        var hint: String?
        if message.contains("tab") { hint = "indent with spaces; YAML does not allow tabs for indentation" }
        else if message.contains("mapping values are not allowed") { hint = "quote a value that contains ': ', or fix the indentation" }
        else if message.contains("could not find expected ':'") { hint = "a key needs ': ' after it, or a multi-line string needs quotes or '|'" }
        let stopped = location(parser.problem_mark), began = location(parser.context_mark)
        if let quoted = quotedAcrossLines, parser.problem != nil, stopped.line == quoted.closed.line, stopped.column > quoted.closed.column {
            // `displayName: "Acme` with no closing quote: the string runs on to the next quote in the file, and the parser
            // gives up after that one, lines below the mistake. The mistake is at the opening quote.
            return Diagnostic(.error, "this quoted string is not closed on its line: it runs on to the quote at line \(quoted.closed.line), column \(quoted.closed.column), "
                              + "and the parser gave up after it (\(message))", at: quoted.opened, rule: LoadRule.syntax,
                              hint: "end the string with the quote it starts with (a ' inside '…' is written ''), or write a long text as a '|' block",
                              related: [RelatedLocation("the parser gave up here", at: stopped)])
        }
        guard let context, parser.problem != nil, began != stopped, began.line >= 1 else {
            return Diagnostic(.error, message, at: location(mark), rule: LoadRule.syntax, hint: hint)
        }
        let construct = context.hasPrefix("while parsing ") ? String(context.dropFirst("while parsing ".count))
            : context.hasPrefix("while scanning ") ? String(context.dropFirst("while scanning ".count)) : context
        let opener: String?
        switch construct {
        case "a flow sequence": opener = "["
        case "a flow mapping": opener = "{"
        case "a quoted scalar": opener = "quote"
        default: opener = nil
        }
        if let opener {
            let what = opener == "quote" ? "this quoted string" : "this '\(opener)'"
            message = "\(what) is not closed: \(problem) at line \(stopped.line), column \(stopped.column)"
            hint = opener == "[" ? "close the list with ']', and separate its items with ','"
                : opener == "{" ? "close the mapping with '}', and separate its entries with ','"
                : "end the string with the quote it starts with (a ' inside '…' is written '')"
            return Diagnostic(.error, message, at: began, rule: LoadRule.syntax, hint: hint,
                              related: [RelatedLocation("the parser gave up here", at: stopped)])
        }
        return Diagnostic(.error, message, at: stopped, rule: LoadRule.syntax, hint: hint,
                          related: [RelatedLocation("\(construct) began here", at: began)])
    }

    private mutating func count(_ n: Int, at location: SourceLocation) throws {
        nodeCount += n
        if nodeCount > limits.maxNodes {
            throw Stop(diagnostic: Diagnostic(.error, LoadMessage.expandsTooFar(limit: limits.maxNodes), at: location,
                                              rule: LoadRule.limits, hint: "use fewer nested aliases"))
        }
    }

    private mutating func push(_ frame: Frame, at location: SourceLocation) throws {
        guard stack.count < limits.maxDepth else {
            throw Stop(diagnostic: Diagnostic(.error, LoadMessage.tooDeep(limit: limits.maxDepth), at: location, rule: LoadRule.limits))
        }
        try count(1, at: location)
        stack.append(frame)
    }

    private mutating func register(_ anchor: String?, _ node: Node, weight: Int) {
        if let anchor { anchors[anchor] = (node, weight) }
    }

    private static func weight(of node: Node) -> Int {
        var total = 0
        node.walk { _ in total += 1 }
        return total
    }

    /// Attaches a finished node to its parent collection, or makes it the document root.
    private mutating func complete(_ node: consuming Node, keyText: String?) throws {
        guard let top = stack.last else {
            root = node
            return
        }
        switch top {
        case .sequence(let frame):
            frame.items.append(node)
        case .mapping(let frame):
            if let (keyName, keyLocation) = frame.key {
                frame.key = nil
                if keyName == "<<" {
                    try merge(node, into: frame)
                } else if let index = frame.index.updateValue(frame.entries.count, forKey: keyName) {
                    // Seen before (rare): the first entry keeps its place. A new key costs one hash.
                    frame.index[keyName] = index
                    if frame.merged.contains(keyName) {
                        // An explicit key overrides one brought in by a `<<` merge.
                        frame.entries[index] = Node.Entry(key: keyName, keyLocation: keyLocation, value: node)
                        frame.merged.remove(keyName)
                    } else {
                        let first = frame.entries[index].keyLocation
                        diagnostics.append(Diagnostic(.error, ShapeMessage.duplicateYAMLKey(key: keyName, line: first.line, column: first.column),
                                                      at: keyLocation, rule: LoadRule.duplicateKey, hint: "remove one of the two; only the first is used"))
                    }
                } else {
                    frame.entries.append(Node.Entry(key: keyName, keyLocation: keyLocation, value: node))
                }
            } else {
                guard let keyText, node.entries == nil, node.items == nil else {
                    throw Stop(diagnostic: Diagnostic(.error, "mapping keys must be plain text, not \(node.typeDescription)", at: node.location, rule: LoadRule.syntax))
                }
                frame.key = (keyText, node.location)
            }
        }
    }

    /// YAML's merge key: `<<: *base` copies the entries of `base` that the mapping does not set itself.
    private func merge(_ node: Node, into frame: MappingFrame) throws {
        let sources: [Node]
        if node.entries != nil { sources = [node] }
        else if let items = node.items, items.allSatisfy({ $0.entries != nil }) { sources = items }
        else { throw Stop(diagnostic: Diagnostic(.error, "'<<' merges a mapping or a list of mappings, not \(node.typeDescription)", at: node.location, rule: LoadRule.syntax)) }
        for source in sources {
            for entry in source.entries ?? [] where frame.index[entry.key] == nil {
                frame.index[entry.key] = frame.entries.count
                frame.entries.append(entry)
                frame.merged.insert(entry.key)
            }
        }
    }

    private static func checkCollectionTag(_ tag: String?, expected: String, at location: SourceLocation) throws {
        guard let tag, tag != expected, tag != "!" else { return }
        throw Stop(diagnostic: Diagnostic(.error, "unsupported YAML tag '\(tag)'", at: location, rule: LoadRule.syntax))
    }

    /// YAML 1.2 core schema resolution of a scalar.
    private static func resolve(_ text: String, tag: String?, plain: Bool, at location: SourceLocation) throws -> Node.Value {
        if let tag, tag != "!" {
            switch tag {
            case "tag:yaml.org,2002:str": return .string(text)
            case "tag:yaml.org,2002:null": return .null
            case "tag:yaml.org,2002:bool", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float":
                let value = Self.core(text)
                let ok: Bool
                switch (tag, value) {
                case ("tag:yaml.org,2002:bool", .bool), ("tag:yaml.org,2002:int", .int), ("tag:yaml.org,2002:float", .float): ok = true
                case ("tag:yaml.org,2002:float", .int(let i)): return .float(Double(i))
                default: ok = false
                }
                if ok { return value }
                throw Stop(diagnostic: Diagnostic(.error, "'\(text)' is not a valid \(tag.split(separator: ":").last ?? "")", at: location, rule: LoadRule.syntax))
            default:
                throw Stop(diagnostic: Diagnostic(.error, "unsupported YAML tag '\(tag)'", at: location, rule: LoadRule.syntax))
            }
        }
        return plain ? Self.core(text) : .string(text)
    }

    static func core(_ text: String) -> Node.Value {
        // Only text starting with a digit, a sign, '.', '~' or the first letter of null/true/false can be anything but a string.
        if let first = text.utf8.first {
            switch first {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "~"),
                 UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "t"), UInt8(ascii: "T"), UInt8(ascii: "f"), UInt8(ascii: "F"): break
            default: return .string(text)
            }
        }
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .float(.infinity)
        case "-.inf", "-.Inf", "-.INF": return .float(-.infinity)
        case ".nan", ".NaN", ".NAN": return .float(.nan)
        default: break
        }
        let scalars = Array(text.utf8)
        func digits(_ s: ArraySlice<UInt8>, _ ok: (UInt8) -> Bool) -> Bool { !s.isEmpty && s.allSatisfy(ok) }
        let isDecimal = { (b: UInt8) in b >= 0x30 && b <= 0x39 }
        var body = scalars[...]
        if body.first == UInt8(ascii: "-") || body.first == UInt8(ascii: "+") { body = body.dropFirst() }
        if digits(body, isDecimal), let value = Int(text.hasPrefix("+") ? String(text.dropFirst()) : text) { return .int(value) }
        if text.hasPrefix("0o"), digits(scalars.dropFirst(2), { $0 >= 0x30 && $0 <= 0x37 }), let v = Int(text.dropFirst(2), radix: 8) { return .int(v) }
        if text.hasPrefix("0x"), digits(scalars.dropFirst(2), { isDecimal($0) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) }), let v = Int(text.dropFirst(2), radix: 16) { return .int(v) }
        // [-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?
        var i = body.startIndex
        var mantissaDigits = 0
        while i < body.endIndex, isDecimal(body[i]) { i += 1; mantissaDigits += 1 }
        if i < body.endIndex, body[i] == UInt8(ascii: ".") {
            i += 1
            while i < body.endIndex, isDecimal(body[i]) { i += 1; mantissaDigits += 1 }
        }
        guard mantissaDigits > 0 else { return .string(text) }
        if i < body.endIndex, body[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            if i < body.endIndex, body[i] == UInt8(ascii: "-") || body[i] == UInt8(ascii: "+") { i += 1 }
            let exponentStart = i
            while i < body.endIndex, isDecimal(body[i]) { i += 1 }
            if i == exponentStart { return .string(text) }
        }
        guard i == body.endIndex, let value = Double(text) else { return .string(text) }
        return .float(value)
    }
}
