import CXML2
import Foundation
import LiveryDiagnostics

/// An XML element with its text, attributes and line, read by libxml2 under the safe policy.
struct ParsedXML: Sendable {
    enum Child: Sendable {
        case element(ParsedXML)
        case text(String)
    }

    var name: String
    var namespace: String?
    /// Attributes as (local name, namespace URI or nil, value).
    var attributes: [(name: String, namespace: String?, value: String)]
    var line: Int
    var children: [Child]

    /// An attribute without a namespace.
    func attribute(_ name: String) -> String? { attributes.first { $0.name == name && $0.namespace == nil }?.value }

    var elements: [ParsedXML] { children.compactMap { if case .element(let e) = $0 { return e } else { return nil } } }

    func elements(_ name: String) -> [ParsedXML] { elements.filter { $0.name == name } }

    /// The text directly inside this element (child elements excluded).
    var text: String { children.reduce(into: "") { if case .text(let t) = $1 { $0 += t } } }
}

/// Parses interchange files with libxml2: bytes read by us, no network, no DTD, no entity substitution,
/// and any DOCTYPE refused before libxml2 sees the document (PLATFORM-NOTES: entity tricks need one).
enum XMLReading {
    static let maxBytes = 32 << 20
    private static let maxDepth = 64

    private static let initialised: Bool = {
        xmlInitParser()
        return true
    }()

    /// The root element, or a located diagnostic.
    static func parse(_ bytes: [UInt8], file: String) -> Result<ParsedXML, Diagnostic> {
        _ = initialised
        guard bytes.count <= maxBytes else {
            return .failure(Diagnostic(.error, "file is larger than \(maxBytes >> 20) MiB", at: .start(of: file), rule: InterchangeRule.unsafe))
        }
        if let doctype = find("<!DOCTYPE", in: bytes) ?? find("<!ENTITY", in: bytes) {
            return .failure(Diagnostic(.error, "XML with a DOCTYPE or entity declaration is refused (entities can read files or expand without bound)",
                                       at: SourceLocation(file: file, line: doctype.line, column: doctype.column), rule: InterchangeRule.unsafe,
                                       hint: "remove the <!DOCTYPE …> declaration; interchange files need none"))
        }
        guard !bytes.isEmpty else { return .failure(Diagnostic(.error, "file is empty", at: .start(of: file), rule: InterchangeRule.syntax)) }
        guard let context = xmlNewParserCtxt() else {
            return .failure(Diagnostic(.error, "XML parser could not start", at: .start(of: file), rule: InterchangeRule.io))
        }
        defer { xmlFreeParserCtxt(context) }
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
                            | XML_PARSE_BIG_LINES.rawValue | XML_PARSE_NOCDATA.rawValue)
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                xmlCtxtReadMemory(context, $0, Int32(buffer.count), nil, "UTF-8", options)
            }
        }
        guard let document else {
            if let error = xmlCtxtGetLastError(context) {
                let message = error.pointee.message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? "malformed XML"
                return .failure(Diagnostic(.error, "malformed XML: \(message)",
                                           at: SourceLocation(file: file, line: max(1, Int(error.pointee.line)), column: max(1, Int(error.pointee.int2))),
                                           rule: InterchangeRule.syntax))
            }
            return .failure(Diagnostic(.error, "malformed XML", at: .start(of: file), rule: InterchangeRule.syntax))
        }
        defer { xmlFreeDoc(document) }
        guard let root = xmlDocGetRootElement(document) else {
            return .failure(Diagnostic(.error, "XML document has no root element", at: .start(of: file), rule: InterchangeRule.syntax))
        }
        guard let tree = convert(root, depth: 0) else {
            return .failure(Diagnostic(.error, "elements are nested more than \(maxDepth) levels deep", at: .start(of: file), rule: InterchangeRule.unsafe))
        }
        return .success(tree)
    }

    private static func string(_ pointer: UnsafePointer<xmlChar>?) -> String? {
        pointer.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
    }

    /// Copies libxml2's tree; depth is bounded, so the recursion is too.
    private static func convert(_ node: xmlNodePtr, depth: Int) -> ParsedXML? {
        guard depth < maxDepth else { return nil }
        var attributes: [(String, String?, String)] = []
        var attribute = node.pointee.properties
        while let current = attribute {
            var value = ""
            if let content = xmlNodeGetContent(UnsafeMutableRawPointer(current).assumingMemoryBound(to: xmlNode.self)) {
                value = string(content) ?? ""
                livery_xml_free(content)
            }
            attributes.append((string(current.pointee.name) ?? "", current.pointee.ns.flatMap { string($0.pointee.href) }, value))
            attribute = current.pointee.next
        }
        var children: [ParsedXML.Child] = []
        var child = node.pointee.children
        while let current = child {
            switch current.pointee.type {
            case XML_ELEMENT_NODE:
                guard let element = convert(current, depth: depth + 1) else { return nil }
                children.append(.element(element))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                children.append(.text(string(current.pointee.content) ?? ""))
            default:
                break  // comments and processing instructions carry no content
            }
            child = current.pointee.next
        }
        return ParsedXML(name: string(node.pointee.name) ?? "", namespace: node.pointee.ns.flatMap { string($0.pointee.href) },
                         attributes: attributes, line: Int(xmlGetLineNo(node)), children: children)
    }

    /// Line and column of the first case-insensitive occurrence of `needle`.
    static func find(_ needle: String, in bytes: [UInt8]) -> (line: Int, column: Int)? {
        let pattern = Array(needle.utf8)
        var line = 1, column = 1
        var i = 0
        while i < bytes.count {
            if bytes[i] == pattern[0], i + pattern.count <= bytes.count,
               zip(bytes[i..<i + pattern.count], pattern).allSatisfy({ $0 | 0x20 == $1 | 0x20 }) {
                return (line, column)
            }
            if bytes[i] == 0x0A { line += 1; column = 1 } else if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return nil
    }
}

/// Finds the column where an element starts on its line, since libxml2 keeps only line numbers.
struct LineIndex {
    private let lines: [Substring]

    init(_ bytes: [UInt8]) {
        lines = String(decoding: bytes, as: UTF8.self).sourceLines
    }

    /// The location of the first `<name` on `line` (column 1 when not found).
    func location(of name: String, line: Int, file: String) -> SourceLocation {
        SourceLocation(file: file, line: line, column: column(of: "<" + name, line: line) ?? 1)
    }

    /// The column just after the `>` that ends the first `<name …>` tag on `line`: where its text starts.
    func contentStart(of name: String, line: Int) -> Int? {
        guard let start = column(of: "<" + name, line: line), line >= 1, line <= lines.count else { return nil }
        let rest = lines[line - 1].unicodeScalars.dropFirst(start - 1)
        guard let close = rest.firstIndex(of: ">") else { return nil }
        return start + rest.distance(from: rest.startIndex, to: close) + 1
    }

    private func column(of needle: String, line: Int) -> Int? {
        guard line >= 1, line <= lines.count, let range = lines[line - 1].range(of: needle) else { return nil }
        return lines[line - 1][..<range.lowerBound].unicodeScalars.count + 1
    }
}
