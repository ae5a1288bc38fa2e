import Foundation
import LiveryDiagnostics
import LiveryEncoding
import LiveryLoad
import Mustache

/// Turns an Encodable context into what swift-mustache renders, through its JSON form: the
/// snapshot a test reads and the values a template sees are then the same thing by construction.
public enum TemplateContext {
    /// The context as pretty JSON with sorted keys (the committed snapshot's form).
    public static func json<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding plain structs of strings and numbers cannot fail; an empty object keeps it total.
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// The context as dictionaries, arrays, strings, numbers and booleans.
    public static func mustacheValue<T: Encodable>(_ value: T) -> Any {
        let (node, _) = ManifestParser.parse(json(value), format: .json, file: "context.json")
        return node.map(plain) ?? [String: Any]()
    }

    /// A JSON node as the plain values swift-mustache renders (the committed context snapshot is read this way).
    public static func plain(_ node: Node) -> Any {
        switch node.value {
        case .null: return Optional<String>.none as Any
        case .bool(let value): return value
        case .int(let value): return value
        case .float(let value): return value
        case .string(let value): return value
        case .sequence(let items): return items.map(plain)
        case .mapping(let entries):
            var object: [String: Any] = [:]
            for entry in entries { object[entry.key] = plain(entry.value) }
            return object
        }
    }

    /// Parses a template, turning a syntax error into a diagnostic at its line and column.
    public static func parse(_ text: String, file: String) -> Result<MustacheTemplate, Diagnostic> {
        do {
            return .success(try MustacheTemplate(string: text))
        } catch let error as MustacheTemplate.ParserError {
            return .failure(Diagnostic(.error, "template syntax: \(error.error)",
                                       at: SourceLocation(file: file, line: error.context.lineNumber, column: error.context.columnNumber),
                                       rule: PlatformRule.template))
        } catch {
            return .failure(Diagnostic(.error, "template syntax: \(error)", at: SourceLocation(file: file, line: 1, column: 1), rule: PlatformRule.template))
        }
    }
}

/// A resolved token document (a `Node`) as JSON text: two-space indents, members in the document's order,
/// numbers as written by the resolver. Deterministic, so bundles stay byte-identical.
public enum NodeJSON {
    public static func text(_ node: Node) -> String {
        var out = ""
        write(node, indent: "", into: &out)
        return out + "\n"
    }

    private static func write(_ node: Node, indent: String, into out: inout String) {
        switch node.value {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .int(let value): out += String(value)
        case .float(let value):
            // JSON has no NaN or infinity; integral doubles print without ".0" as JavaScript would.
            if !value.isFinite { out += "null" } else if value == value.rounded(), abs(value) < 1e15 { out += String(Int(value)) } else { out += "\(value)" }
        case .string(let value): out += JSONText.quoted(value)
        case .sequence(let items):
            guard !items.isEmpty else { out += "[]"; return }
            out += "[\n"
            for (index, item) in items.enumerated() {
                out += indent + "  "
                write(item, indent: indent + "  ", into: &out)
                out += index == items.count - 1 ? "\n" : ",\n"
            }
            out += indent + "]"
        case .mapping(let entries):
            guard !entries.isEmpty else { out += "{}"; return }
            out += "{\n"
            for (index, entry) in entries.enumerated() {
                out += indent + "  " + JSONText.quoted(entry.key) + ": "
                write(entry.value, indent: indent + "  ", into: &out)
                out += index == entries.count - 1 ? "\n" : ",\n"
            }
            out += indent + "}"
        }
    }
}
