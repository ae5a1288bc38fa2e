import CXML2
import Foundation

/// One `<pluralRules locales="…">` group of a CLDR file.
struct CLDRRuleGroup {
    var locales: [String]
    /// (category, condition, samples) in file order; the condition has no sample section.
    var rules: [(category: String, condition: String, samples: String)]
}

/// The plural rules of one CLDR supplemental file (plurals.xml or ordinals.xml).
struct CLDRPluralFile {
    var kind: String
    var groups: [CLDRRuleGroup]
    var cldrVersion: String
}

struct GeneratorError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Reads CLDR's plural files with libxml2.
///
/// The files carry a DOCTYPE naming a DTD on disk. They are parsed with `XML_PARSE_NONET` and
/// without `XML_PARSE_DTDLOAD`/`XML_PARSE_NOENT`, so libxml2 records the DOCTYPE but never
/// reads the DTD or substitutes entities; the DTD is then read as plain text, only to find the
/// CLDR version that it fixes for `<version cldrVersion>`.
/// Not `LiveryXML.XMLTree`, the reader of everything else: it refuses any DOCTYPE outright (its inputs are
/// untrusted), and CLDR's files, which a maintainer fetches on purpose, all carry one.
enum CLDRPluralReader {
    static func read(_ url: URL, expectedType: String) throws -> CLDRPluralFile {
        let bytes = try Data(contentsOf: url)
        guard let context = xmlNewParserCtxt() else { throw GeneratorError("libxml2 could not start") }
        defer { xmlFreeParserCtxt(context) }
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        let parsed = bytes.withUnsafeBytes { buffer in
            xmlCtxtReadMemory(context, buffer.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(buffer.count), nil, "UTF-8", options)
        }
        guard let document = parsed else {
            let message = xmlCtxtGetLastError(context).flatMap { $0.pointee.message }.map { String(cString: $0) } ?? "malformed XML"
            throw GeneratorError("\(url.path): \(message.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        defer { xmlFreeDoc(document) }
        guard let root = xmlDocGetRootElement(document), name(root) == "supplementalData" else {
            throw GeneratorError("\(url.path): the root element is not <supplementalData>")
        }
        var groups: [CLDRRuleGroup] = []
        var explicitVersion: String?
        for section in children(root) {
            if name(section) == "version" { explicitVersion = attribute(section, "cldrVersion") }
            guard name(section) == "plurals" else { continue }
            guard attribute(section, "type") == expectedType else {
                throw GeneratorError("\(url.path): expected <plurals type=\"\(expectedType)\">, found type \"\(attribute(section, "type") ?? "")\"")
            }
            for element in children(section) where name(element) == "pluralRules" {
                let locales = (attribute(element, "locales") ?? "").split(separator: " ").map(String.init)
                guard !locales.isEmpty else { throw GeneratorError("\(url.path):\(xmlGetLineNo(element)): <pluralRules> without locales") }
                var rules: [(String, String, String)] = []
                for rule in children(element) where name(rule) == "pluralRule" {
                    guard let count = attribute(rule, "count") else {
                        throw GeneratorError("\(url.path):\(xmlGetLineNo(rule)): <pluralRule> without count")
                    }
                    let text = content(rule)
                    let split = text.firstIndex(of: "@") ?? text.endIndex
                    rules.append((count, text[..<split].trimmingCharacters(in: .whitespacesAndNewlines),
                                  text[split...].trimmingCharacters(in: .whitespacesAndNewlines)))
                }
                groups.append(CLDRRuleGroup(locales: locales, rules: rules))
            }
        }
        guard !groups.isEmpty else { throw GeneratorError("\(url.path): no <plurals type=\"\(expectedType)\"> rules") }
        guard let version = explicitVersion ?? versionFromDTD(document, relativeTo: url) else {
            throw GeneratorError("\(url.path): cannot tell the CLDR version (no <version cldrVersion>, no readable DTD); pass --cldr-version")
        }
        return CLDRPluralFile(kind: expectedType, groups: groups, cldrVersion: version)
    }

    /// The `#FIXED` value of `cldrVersion` in the DTD the DOCTYPE names, read as text.
    private static func versionFromDTD(_ document: xmlDocPtr, relativeTo url: URL) -> String? {
        guard let systemID = document.pointee.intSubset?.pointee.SystemID.map({ string($0) }),
              !systemID.contains("://") else { return nil }
        let dtd = URL(fileURLWithPath: systemID, relativeTo: url.deletingLastPathComponent())
        guard let text = try? String(contentsOf: dtd, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.contains("<!ATTLIST") && line.contains(" version ") && line.contains("cldrVersion") {
            let words = line.split(separator: " ")
            guard let fixed = words.firstIndex(of: "#FIXED"), fixed + 1 < words.count else { continue }
            let value = words[fixed + 1].trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            if !value.isEmpty { return value }
        }
        return nil
    }

    // MARK: libxml2 helpers

    private static func string(_ pointer: UnsafePointer<xmlChar>) -> String {
        String(cString: UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self))
    }

    private static func name(_ node: xmlNodePtr) -> String {
        node.pointee.name.map { string($0) } ?? ""
    }

    private static func attribute(_ node: xmlNodePtr, _ attributeName: String) -> String? {
        guard let value = xmlGetProp(node, attributeName) else { return nil }
        defer { livery_xml_free(value) }
        return string(value)
    }

    private static func content(_ node: xmlNodePtr) -> String {
        guard let value = xmlNodeGetContent(node) else { return "" }
        defer { livery_xml_free(value) }
        return string(value)
    }

    private static func children(_ node: xmlNodePtr) -> [xmlNodePtr] {
        var result: [xmlNodePtr] = []
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE { result.append(current) }
            child = current.pointee.next
        }
        return result
    }
}
