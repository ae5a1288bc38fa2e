import CYAML

/// Where each message value and each group of a locale YAML file is written, for editing the text in place.
///
/// libyaml's event marks give line and column (in Unicode scalars) of every scalar's start and end;
/// Livery's composer keeps only starts, so the editor reads the events itself.
struct YAMLSpans {
    enum Style { case plain, singleQuoted, doubleQuoted, block }

    /// A scalar value: byte range in the file and how it was quoted.
    struct Scalar {
        var start: Int
        var end: Int
        var style: Style
    }

    /// A mapping: flow or block, the column its keys start at, and the byte offset where its last value ends.
    struct Group {
        var block: Bool
        var indent: Int
        var end: Int
    }

    var scalars: [String: Scalar] = [:]
    /// Groups by flattened prefix ("" is the top-level mapping).
    var groups: [String: Group] = [:]
    /// Message keys whose value is an alias or otherwise not a plain scalar span.
    var unmovable: Set<String> = []

    private final class Frame {
        let prefix: String
        let block: Bool
        var indent: Int?
        var key: String?
        var end = 0
        init(prefix: String, block: Bool) { self.prefix = prefix; self.block = block }
    }

    /// Reads the spans of `text`; nil when libyaml cannot parse it (the loader reported why).
    static func read(_ text: String) -> YAMLSpans? {
        let bytes = Array(text.utf8)
        var reader = EventReader(bytes)
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return nil }
        defer { yaml_parser_delete(&parser) }
        let input = bytes.isEmpty ? [0x0A] : bytes
        return input.withUnsafeBufferPointer { buffer -> YAMLSpans? in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else { return nil }
                defer { yaml_event_delete(&event) }
                switch event.type {
                case YAML_STREAM_END_EVENT:
                    return reader.spans
                case YAML_SCALAR_EVENT, YAML_ALIAS_EVENT:
                    reader.scalarOrAlias(event)
                case YAML_MAPPING_START_EVENT:
                    reader.mappingStart(event)
                case YAML_SEQUENCE_START_EVENT:
                    reader.sequenceStart()
                case YAML_MAPPING_END_EVENT, YAML_SEQUENCE_END_EVENT:
                    reader.end(event)
                default:
                    continue
                }
            }
        }
    }

    /// The spans read from libyaml's events, one event at a time, with the mappings open around the current one.
    private struct EventReader {
        let bytes: [UInt8]
        /// Byte offset of each line start, to turn libyaml's (line, column) into byte offsets.
        let lineStarts: [Int]
        var spans = YAMLSpans()
        var stack: [Frame?] = []  // nil marks a sequence, whose contents are not messages

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
            var lineStarts = [0]
            for (offset, byte) in bytes.enumerated() where byte == 0x0A { lineStarts.append(offset + 1) }
            self.lineStarts = lineStarts
        }

        func offset(_ mark: yaml_mark_t) -> Int {
            let line = Int(mark.line)
            guard line < lineStarts.count else { return bytes.count }
            var position = lineStarts[line]
            var column = Int(mark.column)
            while column > 0, position < bytes.count {
                position += 1
                while position < bytes.count, bytes[position] & 0xC0 == 0x80 { position += 1 }
                column -= 1
            }
            return position
        }

        /// A key of the innermost mapping, or its value: a scalar's span, or an alias (unmovable).
        mutating func scalarOrAlias(_ event: yaml_event_t) {
            guard let top = stack.last, let frame = top else { return }
            if let key = frame.key {
                let full = frame.prefix.isEmpty ? key : frame.prefix + "." + key
                if event.type == YAML_SCALAR_EVENT {
                    let style: Style
                    switch event.data.scalar.style {
                    case YAML_PLAIN_SCALAR_STYLE: style = .plain
                    case YAML_SINGLE_QUOTED_SCALAR_STYLE: style = .singleQuoted
                    case YAML_DOUBLE_QUOTED_SCALAR_STYLE: style = .doubleQuoted
                    default: style = .block
                    }
                    spans.scalars[full] = Scalar(start: offset(event.start_mark), end: offset(event.end_mark), style: style)
                } else {
                    spans.unmovable.insert(full)
                }
                frame.key = nil
                frame.end = offset(event.end_mark)
            } else if event.type == YAML_SCALAR_EVENT {
                let scalar = event.data.scalar
                frame.key = String(decoding: UnsafeBufferPointer(start: scalar.value, count: Int(scalar.length)), as: UTF8.self)
                if frame.indent == nil { frame.indent = Int(event.start_mark.column) }
            }
        }

        /// A mapping: a group when it is the top-level one or a mapping's value, otherwise (in a sequence) not messages.
        mutating func mappingStart(_ event: yaml_event_t) {
            let block = event.data.mapping_start.style != YAML_FLOW_MAPPING_STYLE
            if let top = stack.last, let parent = top, let key = parent.key {
                stack.append(Frame(prefix: parent.prefix.isEmpty ? key : parent.prefix + "." + key, block: block))
                parent.key = nil
            } else if stack.isEmpty {
                stack.append(Frame(prefix: "", block: block))
            } else {
                stack.append(nil)
            }
        }

        mutating func sequenceStart() {
            if let top = stack.last, let parent = top { parent.key = nil }
            stack.append(nil)
        }

        /// The end of a mapping (its group's span) or of a sequence; either ends its parent's value.
        mutating func end(_ event: yaml_event_t) {
            guard let popped = stack.popLast() else { return }
            let end = offset(event.end_mark)
            if let frame = popped {
                let last = frame.block ? frame.end : end
                spans.groups[frame.prefix] = Group(block: frame.block, indent: frame.indent ?? 0, end: last)
                if let top = stack.last, let parent = top { parent.end = last }
            } else if let top = stack.last, let parent = top {
                parent.end = end
            }
        }
    }
}
