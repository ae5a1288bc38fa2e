import Foundation

/// Where `AndroidFormat.export` writes the resources of a `strings.xml`, in document order.
///
/// Two writers: `AndroidResourceBytes` writes the file straight into one growing byte buffer (every
/// build), and `AndroidResourceTree` builds the same document with libxml2's tree API and lets libxml2
/// serialise it (what every build did before, kept as the oracle the tests compare the bytes against).
protocol AndroidResourceWriter {
    /// A `<!--text-->` comment in `<resources>`.
    mutating func comment(_ text: String)
    /// `<string name="…">` holding `text`, Android-escaped here; `formatted="false"` when `unformatted`.
    mutating func string(name: String, text: String, unformatted: Bool)
    /// Opens `<plurals name="…">`; its items follow, then `endPlurals`.
    mutating func beginPlurals(name: String)
    /// `<item quantity="…">` holding `text`, Android-escaped here.
    mutating func item(quantity: String, text: String)
    /// `item(quantity:text:)` with the text given as UTF-8 (a rendered plural variant).
    mutating func item(quantity: String, utf8 text: UnsafeBufferPointer<UInt8>)
    mutating func endPlurals()
    /// The document, ending with a newline; nil when it could not be made.
    mutating func finish() -> Data?
}

/// `strings.xml` written byte by byte, exactly as libxml2's `xmlDocDumpFormatMemoryEnc(…, "UTF-8", 1)`
/// writes the document `AndroidResourceTree` builds.
///
/// Why by hand instead of libxml2: a full build writes a `strings.xml` for every locale of every tenant,
/// and building a libxml2 tree (a node, a text node and attribute nodes per message, each a C string
/// copied from a Swift string) and then serialising it was a large share of that export. The document
/// is narrow enough to write directly: one root, string/plurals/item elements whose attribute values are
/// resource names (letters, digits and `_`, checked by `AndroidFormat.names`), quantity keywords and
/// `false`, and text that `AndroidResources.escape` leaves without control characters. What libxml2 does
/// to such a document is reproduced here: the XML declaration, two spaces of indentation per level
/// (elements holding text are not indented inside), `&lt;` `&gt;` `&amp;` in text, `&quot;` in attributes,
/// `<resources/>` when empty. InterchangeAndroidTests serialises the same catalogs both ways (samples and
/// hostile text) and requires identical bytes; the build tests run `xmllint` on the result.
struct AndroidResourceBytes: AndroidResourceWriter {
    private(set) var bytes: [UInt8] = []
    private var empty = true
    /// Scratch for one text, reused: the Android-escaped text before XML escaping.
    private var scratch: [UInt8] = []

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity + 64)
        bytes.append(contentsOf: Self.declaration)
    }

    private static let declaration = Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n".utf8)
    private static let open = Array("<resources>\n".utf8)

    private mutating func child() {
        if empty { bytes.append(contentsOf: Self.open); empty = false }
    }

    private mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func comment(_ text: String) {
        child()
        raw("  <!--")
        bytes.append(contentsOf: text.utf8)
        raw("-->\n")
    }

    mutating func string(name: String, text: String, unformatted: Bool) {
        child()
        raw("  <string name=\"")
        attribute(name)
        if unformatted { raw("\" formatted=\"false") }
        raw("\">")
        content(text)
        raw("</string>\n")
    }

    mutating func beginPlurals(name: String) {
        child()
        raw("  <plurals name=\"")
        attribute(name)
        raw("\">\n")
    }

    mutating func item(quantity: String, text: String) {
        var text = text
        text.withUTF8 { item(quantity: quantity, utf8: $0) }
    }

    mutating func item(quantity: String, utf8 text: UnsafeBufferPointer<UInt8>) {
        raw("    <item quantity=\"")
        attribute(quantity)
        raw("\">")
        content(text)
        raw("</item>\n")
    }

    mutating func endPlurals() { raw("  </plurals>\n") }

    mutating func finish() -> Data? {
        if empty { raw("<resources/>\n") } else { raw("</resources>\n") }
        return Data(bytes)
    }

    /// An attribute value as libxml2 escapes it (names and keywords need none; escaped all the same).
    private mutating func attribute(_ value: String) {
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "<"): raw("&lt;")
            case UInt8(ascii: ">"): raw("&gt;")
            case UInt8(ascii: "&"): raw("&amp;")
            case UInt8(ascii: "\""): raw("&quot;")
            case UInt8(ascii: "\n"): raw("&#10;")
            case UInt8(ascii: "\r"): raw("&#13;")
            case UInt8(ascii: "\t"): raw("&#9;")
            default: bytes.append(byte)
            }
        }
    }

    /// Element text: `AndroidResources.escape`, then XML's escapes as libxml2 writes them in text.
    private mutating func content(_ text: String) {
        var text = text
        text.withUTF8 { content($0) }
    }

    private mutating func content(_ text: UnsafeBufferPointer<UInt8>) {
        guard AndroidResources.needsEscape(utf8: text) else { return xmlText(text) }
        var escaped = scratch
        scratch = []  // taken while `self` is written to, given back below
        escaped.removeAll(keepingCapacity: true)
        AndroidResources.appendEscaped(utf8: text, to: &escaped)
        escaped.withUnsafeBufferPointer { xmlText($0) }
        scratch = escaped
    }

    /// Text with `<`, `>`, `&` (and a carriage return, which the Android escape never leaves) escaped as
    /// libxml2 escapes text content; runs without them are copied whole.
    private mutating func xmlText(_ text: UnsafeBufferPointer<UInt8>) {
        var start = 0
        for (index, byte) in text.enumerated() {
            let entity: StaticString
            switch byte {
            case UInt8(ascii: "<"): entity = "&lt;"
            case UInt8(ascii: ">"): entity = "&gt;"
            case UInt8(ascii: "&"): entity = "&amp;"
            case UInt8(ascii: "\r"): entity = "&#13;"
            default: continue
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[start..<index]))
            raw(entity)
            start = index + 1
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[start...]))
    }
}

/// The same document built with libxml2's tree API and serialised by libxml2: the oracle of
/// `AndroidResourceBytes` (see there), used by the tests.
struct AndroidResourceTree: AndroidResourceWriter {
    private let xml: XMLBuilder
    private var plurals: XMLBuilder.Element?

    init?() {
        guard let xml = XMLBuilder(root: "resources") else { return nil }
        self.xml = xml
    }

    mutating func comment(_ text: String) { xml.comment(text, in: xml.root) }

    mutating func string(name: String, text: String, unformatted: Bool) {
        let element = xml.add("string", to: xml.root, text: AndroidResources.escape(text))
        xml.set("name", name, on: element)
        if unformatted { xml.set("formatted", "false", on: element) }
    }

    mutating func beginPlurals(name: String) {
        let element = xml.add("plurals", to: xml.root)
        xml.set("name", name, on: element)
        plurals = element
    }

    mutating func item(quantity: String, text: String) {
        guard let plurals else { return }
        let item = xml.add("item", to: plurals, text: AndroidResources.escape(text))
        xml.set("quantity", quantity, on: item)
    }

    mutating func item(quantity: String, utf8 text: UnsafeBufferPointer<UInt8>) {
        item(quantity: quantity, text: String(decoding: text, as: UTF8.self))
    }

    mutating func endPlurals() { plurals = nil }

    mutating func finish() -> Data? { xml.serialize() }
}
