import CXML2
import Foundation

/// The few XML documents S3 answers with (errors, listings, multipart uploads), read with libxml2:
/// no network, no DTD loading, no entity substitution. Each is shallow, so it is kept as the
/// elements under the root: text children as fields, and a record (child name → text) for each
/// element that has element children (`Contents`, `Part`, …), in document order.
struct S3XML {
    var root = ""
    /// Text children of the root (`Code`, `Message`, `UploadId`, `IsTruncated`, …).
    var fields: [String: String] = [:]
    /// Elements of the root that have element children, in order.
    var records: [(name: String, fields: [String: String])] = []

    static let maximumBytes = 64 << 20

    init?(_ data: Data) {
        guard !data.isEmpty, data.count <= Self.maximumBytes else { return nil }
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NOCDATA.rawValue)
        let document = data.withUnsafeBytes { raw -> xmlDocPtr? in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: CChar.self) else { return nil }
            return xmlReadMemory(base, Int32(raw.count), nil, nil, options)
        }
        guard let document else { return nil }
        defer { xmlFreeDoc(document) }
        guard let top = xmlDocGetRootElement(document) else { return nil }
        root = Self.name(top)
        for child in Self.elements(top) {
            let grandchildren = Self.elements(child)
            if grandchildren.isEmpty {
                fields[Self.name(child)] = Self.text(child)
            } else {
                var record: [String: String] = [:]
                for element in grandchildren { record[Self.name(element)] = Self.text(element) }
                records.append((Self.name(child), record))
            }
        }
    }

    private static func name(_ node: xmlNodePtr) -> String { node.pointee.name.map { String(cString: $0) } ?? "" }

    private static func elements(_ node: xmlNodePtr) -> [xmlNodePtr] {
        var out: [xmlNodePtr] = []
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE { out.append(current) }
            child = current.pointee.next
        }
        return out
    }

    /// The text directly inside `node`.
    private static func text(_ node: xmlNodePtr) -> String {
        var out = ""
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_TEXT_NODE || current.pointee.type == XML_CDATA_SECTION_NODE, let content = current.pointee.content {
                out += String(cString: content)
            }
            child = current.pointee.next
        }
        return out
    }
}
