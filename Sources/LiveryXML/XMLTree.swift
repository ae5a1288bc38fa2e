import CXML2
import Foundation
import LiveryDiagnostics

/// A parsed XML element with its line, read with libxml2 under a safe policy.
public struct XMLElement: Sendable {
    public var name: String
    public var namespace: String?
    public var attributes: [(name: String, prefix: String?, value: String)]
    public var line: Int
    public var children: [XMLElement]
    /// The text directly inside this element (text and CDATA children, in order; child elements' text excluded).
    public var text: String = ""

    public func attribute(_ name: String) -> String? { attributes.first { $0.name == name }?.value }

    /// This element and every element below it, in document order.
    public func descendants() -> [XMLElement] {
        var out: [XMLElement] = []
        var stack = [self]
        while let element = stack.popLast() {
            out.append(element)
            stack.append(contentsOf: element.children.reversed())
        }
        return out
    }
}

/// Reads XML content files (SVG, GPX) with libxml2.
///
/// Policy (PLATFORM-NOTES): the bytes are read by us and parsed from memory with `XML_PARSE_NONET`,
/// never with entity substitution, DTD loading or XInclude; a document with a DOCTYPE is refused
/// outright, so no entity trick (external file, billion laughs) can reach the parser.
public enum XMLTree {
    public static let ruleID: RuleID = "assets.xml"

    private static let initialised: Bool = {
        xmlInitParser()
        return true
    }()

    public static func parse(_ url: URL, displayPath: String, at reference: SourceLocation, maxBytes: Int = 32 << 20) -> Result<XMLElement, Diagnostic> {
        guard let handle = try? FileHandle(forReadingFrom: url) else {
            return .failure(Diagnostic(.error, XMLMessage.unreadable(file: displayPath), at: reference, rule: ruleID))
        }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: maxBytes + 1)) ?? Data()
        guard data.count <= maxBytes else {
            return .failure(Diagnostic(.error, XMLMessage.tooLarge(file: displayPath, mebibytes: maxBytes >> 20), at: reference, rule: ruleID))
        }
        return parse(Array(data), file: displayPath)
    }

    /// Parses XML bytes; failures are located in the XML file itself.
    public static func parse(_ bytes: [UInt8], file: String) -> Result<XMLElement, Diagnostic> {
        _ = initialised
        if let doctype = findDoctype(bytes) {
            return .failure(Diagnostic(.error, XMLMessage.doctype(),
                                       at: SourceLocation(file: file, line: doctype.line, column: doctype.column), rule: ruleID,
                                       hint: "remove the <!DOCTYPE …> declaration"))
        }
        guard let context = xmlNewParserCtxt() else {
            return .failure(Diagnostic(.error, XMLMessage.noParser(), at: .start(of: file), rule: ruleID))
        }
        defer { xmlFreeParserCtxt(context) }
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue | XML_PARSE_BIG_LINES.rawValue)
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: max(1, buffer.count)) {
                xmlCtxtReadMemory(context, $0, Int32(buffer.count), nil, "UTF-8", options)
            }
        }
        guard let document else {
            if let error = xmlCtxtGetLastError(context) {
                let message = error.pointee.message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? "malformed XML"
                return .failure(Diagnostic(.error, XMLMessage.malformed(detail: "\(message)"),
                                           at: SourceLocation(file: file, line: max(1, Int(error.pointee.line)), column: max(1, Int(error.pointee.int2))), rule: ruleID))
            }
            return .failure(Diagnostic(.error, XMLMessage.malformedWithoutDetail(), at: .start(of: file), rule: ruleID))
        }
        defer { xmlFreeDoc(document) }
        guard let root = xmlDocGetRootElement(document) else {
            return .failure(Diagnostic(.error, XMLMessage.noRoot(), at: .start(of: file), rule: ruleID))
        }
        return .success(convert(root))
    }

    private static func string(_ pointer: UnsafePointer<xmlChar>?) -> String? {
        pointer.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
    }

    /// Converts libxml2's tree without recursion (documents may be deep).
    private static func convert(_ root: xmlNodePtr) -> XMLElement {
        func shallow(_ node: xmlNodePtr) -> XMLElement {
            var attributes: [(String, String?, String)] = []
            var attribute = node.pointee.properties
            while let current = attribute {
                let name = string(current.pointee.name) ?? ""
                var value = ""
                if let content = xmlNodeGetContent(UnsafeMutableRawPointer(current).assumingMemoryBound(to: xmlNode.self)) {
                    value = string(content) ?? ""
                    livery_xml_free(content)
                }
                attributes.append((name, current.pointee.ns.flatMap { string($0.pointee.prefix) }, value))
                attribute = current.pointee.next
            }
            var text = ""
            var child = node.pointee.children
            while let current = child {
                if current.pointee.type == XML_TEXT_NODE || current.pointee.type == XML_CDATA_SECTION_NODE { text += string(current.pointee.content) ?? "" }
                child = current.pointee.next
            }
            return XMLElement(name: string(node.pointee.name) ?? "", namespace: node.pointee.ns.flatMap { string($0.pointee.href) },
                              attributes: attributes, line: Int(xmlGetLineNo(node)), children: [], text: text)
        }
        // Build children lists bottom-up with an explicit stack of (node, element, child cursor).
        var stack: [(xmlNodePtr, XMLElement)] = [(root, shallow(root))]
        var pendingChildren: [[xmlNodePtr]] = [elementChildren(root)]
        var result: XMLElement?
        while !stack.isEmpty {
            if let next = pendingChildren[pendingChildren.count - 1].first {
                pendingChildren[pendingChildren.count - 1].removeFirst()
                stack.append((next, shallow(next)))
                pendingChildren.append(elementChildren(next))
            } else {
                let (_, finished) = stack.removeLast()
                pendingChildren.removeLast()
                if stack.isEmpty { result = finished } else { stack[stack.count - 1].1.children.append(finished) }
            }
        }
        return result!
    }

    private static func elementChildren(_ node: xmlNodePtr) -> [xmlNodePtr] {
        var children: [xmlNodePtr] = []
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE { children.append(current) }
            child = current.pointee.next
        }
        return children
    }

    private static func findDoctype(_ bytes: [UInt8]) -> (line: Int, column: Int)? {
        let needle = Array("<!DOCTYPE".utf8)
        var line = 1, column = 1
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "<"), i + needle.count <= bytes.count,
               zip(bytes[i..<i + needle.count], needle).allSatisfy({ $0 | 0x20 == $1 | 0x20 }) {
                return (line, column)
            }
            if bytes[i] == 0x0A { line += 1; column = 1 } else if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return nil
    }

    /// The column of `needle` on `line` of `bytes` (1-based), or 1 when not found.
    public static func column(of needle: String, onLine line: Int, in text: String) -> Int {
        let lines = text.sourceLines
        guard line >= 1, line <= lines.count, let range = lines[line - 1].range(of: needle) else { return 1 }
        return lines[line - 1][..<range.lowerBound].unicodeScalars.count + 1
    }
}

/// The messages of `assets.xml`.
public enum XMLMessage {
    public static func unreadable(file: String) -> DiagnosticMessage { DiagnosticMessage("unreadable", "cannot read '\(file)'") }
    public static func tooLarge(file: String, mebibytes: Int) -> DiagnosticMessage { DiagnosticMessage("too-large", "'\(file)' is larger than \(mebibytes) MiB") }
    public static func doctype() -> DiagnosticMessage {
        DiagnosticMessage("doctype", "XML files with a DOCTYPE are refused (entities could read files or expand without bound)")
    }
    public static func noParser() -> DiagnosticMessage { DiagnosticMessage("no-parser", "XML parser could not start") }
    public static func malformed(detail: String) -> DiagnosticMessage { DiagnosticMessage("malformed", "malformed XML: \(detail)") }
    public static func malformedWithoutDetail() -> DiagnosticMessage { DiagnosticMessage("malformed-without-detail", "malformed XML") }
    public static func noRoot() -> DiagnosticMessage { DiagnosticMessage("no-root", "XML document has no root element") }
}
