import CXML2
import Foundation

/// Builds an XML document with libxml2's tree API and serialises it (libxml2 does all escaping).
///
/// Nodes are owned by the document, which `serialize()` frees; a builder is used once, on one thread.
final class XMLBuilder {
    /// An element of the document being built.
    struct Element {
        fileprivate let node: xmlNodePtr
    }

    private let document: xmlDocPtr
    private var finished = false
    let root: Element

    /// A document whose root element is `name`, in namespace `namespace` when given.
    init?(root name: String, namespace: String? = nil) {
        guard let document = xmlNewDoc("1.0") else { return nil }
        self.document = document
        guard let node = xmlNewDocNode(document, nil, name, nil) else {
            xmlFreeDoc(document)
            return nil
        }
        xmlDocSetRootElement(document, node)
        if let namespace, let ns = xmlNewNs(node, namespace, nil) { xmlSetNs(node, ns) }
        root = Element(node: node)
    }

    deinit {
        if !finished { xmlFreeDoc(document) }
    }

    /// Adds a document type declaration (`<!DOCTYPE name PUBLIC "…" "…">`), as property lists carry.
    func doctype(_ name: String, publicID: String, systemID: String) {
        _ = xmlCreateIntSubset(document, name, publicID, systemID)
    }

    /// Declares a prefixed namespace on the root, for attributes such as `xml:space` or `tools:…`.
    func declare(prefix: String, uri: String) {
        _ = xmlNewNs(root.node, uri, prefix)
    }

    /// Appends a child element (in the parent's namespace), with text content when given.
    @discardableResult
    func add(_ name: String, to parent: Element, text: String? = nil) -> Element {
        // xmlNewTextChild escapes `<`, `&` and `>`; xmlNewChild would read the text as markup.
        let node = xmlNewTextChild(parent.node, parent.node.pointee.ns, name, text)!
        return Element(node: node)
    }

    func set(_ name: String, _ value: String, on element: Element) {
        xmlSetProp(element.node, name, value)
    }

    /// Sets `xml:space` and other attributes of a declared prefix.
    func set(_ name: String, _ value: String, prefix: String, on element: Element) {
        guard let ns = xmlSearchNs(document, element.node, prefix) else { return }
        xmlSetNsProp(element.node, ns, name, value)
    }

    /// Adds a comment as the last child of `parent`.
    func comment(_ text: String, in parent: Element) {
        if let node = xmlNewDocComment(document, text) { xmlAddChild(parent.node, node) }
    }

    /// The document as indented UTF-8, with an XML declaration, ending with a newline.
    func serialize() -> Data {
        finished = true
        defer { xmlFreeDoc(document) }
        var memory: UnsafeMutablePointer<xmlChar>?
        var size: Int32 = 0
        xmlDocDumpFormatMemoryEnc(document, &memory, &size, "UTF-8", 1)
        guard let memory else { return Data() }
        defer { livery_xml_free(memory) }
        return Data(bytes: memory, count: Int(size))
    }
}
