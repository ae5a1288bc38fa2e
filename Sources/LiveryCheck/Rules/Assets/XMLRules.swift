import Foundation
import LiveryDiagnostics
import LiveryLoad
import LiveryXML

extension RuleContext {
    /// The tenant's asset references of one file type that resolve safely to a regular file.
    func assetFiles(ofType type: FileType) -> [(reference: AssetReference, url: URL, relative: String)] {
        var seen = Set<String>()
        return source.assets.compactMap { reference in
            guard FileType(extensionOf: reference.path) == type,
                  case .success(let relative) = TenantPath.normalize(reference.path, baseDirectory: reference.baseDirectory),
                  seen.insert(relative).inserted,
                  case .success(let url) = source.paths.regularFile(relative) else { return nil }
            return (reference, url, relative)
        }
    }
}

struct XMLWellFormedRule: Rule {
    static let description = RuleDescription(
        id: XMLTree.ruleID, name: "Well-formed XML", family: .assets,
        rationale: "SVG and GPX files parse as XML without a DOCTYPE, so no entity can read files or expand without bound.",
        isSecurity: true,
        messages: [declare(XMLMessage.unreadable), declare(XMLMessage.tooLarge), declare(XMLMessage.doctype), declare(XMLMessage.noParser), declare(XMLMessage.malformed),
                   declare(XMLMessage.malformedWithoutDetail), declare(XMLMessage.noRoot)],
        triggering: [
            RuleExample("an SVG with an external entity", files: LogoExample.files("assets/logo.svg", ["example/assets/logo.svg": """
                <?xml version="1.0"?>
                ↓<!DOCTYPE svg [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
                <svg xmlns="http://www.w3.org/2000/svg"><text>&xxe;</text></svg>

                """])),
            RuleExample("an unclosed element", files: LogoExample.files("assets/logo.svg", ["example/assets/logo.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\">\n<g>\n</svg>\n"])),
        ],
        nonTriggering: [RuleExample("a plain SVG", files: LogoExample.files("assets/logo.svg", ["example/assets/logo.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 1 1\"><rect width=\"1\" height=\"1\"/></svg>\n"]))])

    func check(_ context: RuleContext) -> [Diagnostic] {
        (context.assetFiles(ofType: .svg) + context.assetFiles(ofType: .gpx)).compactMap { file in
            if case .failure(let diagnostic) = XMLTree.parse(file.url, displayPath: context.source.display(file.relative), at: file.reference.location) { return diagnostic }
            return nil
        }
    }
}

struct SVGSafetyRule: Rule {
    static let description = RuleDescription(
        id: "assets.svg-safety", name: "Safe SVG", family: .assets,
        rationale: "SVG shown in apps and web views must not run scripts, handle events or load anything from outside.",
        isSecurity: true,
        messages: [declare(Message.forbiddenElement), declare(Message.eventHandler), declare(Message.externalResource), declare(Message.externalStyle)],
        triggering: [
            RuleExample("a script element", files: LogoExample.files("assets/logo.svg", ["example/assets/logo.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\">\n  ↓<script>alert(1)</script>\n</svg>\n"])),
            RuleExample("an event handler", files: LogoExample.files("assets/logo.svg", ["example/assets/logo.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\" ↓onload=\"alert(1)\"/>\n"])),
            RuleExample("an external image", files: LogoExample.files("assets/logo.svg", ["example/assets/logo.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n<image ↓xlink:href=\"https://tracker.example/pixel.png\"/>\n</svg>\n"])),
            RuleExample("a style that loads a font from outside", files: LogoExample.files("assets/logo.svg", ["example/assets/logo.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\">\n<text ↓style=\"font-family: x; src: url(https://fonts.example/x.woff)\">A</text>\n</svg>\n"])),
        ],
        nonTriggering: [RuleExample("internal references and data images", files: LogoExample.files("assets/logo.svg", ["example/assets/logo.svg": """
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">
            <defs><circle id="dot" r="1"/></defs><use xlink:href="#dot"/><image href="data:image/png;base64,iVBORw0KGgo="/>
            </svg>

            """]))])

    enum Message {
        static func forbiddenElement(element: String) -> DiagnosticMessage {
            DiagnosticMessage("forbidden-element", "SVG contains a <\(element)> element")
        }
        static func eventHandler(attribute: String) -> DiagnosticMessage {
            DiagnosticMessage("event-handler", "SVG has an event handler attribute '\(attribute)'")
        }
        static func externalResource(value: String) -> DiagnosticMessage {
            DiagnosticMessage("external-resource", "SVG loads an external resource '\(value)'")
        }
        static func externalStyle() -> DiagnosticMessage {
            DiagnosticMessage("external-style", "SVG style loads an external resource")
        }
    }

    static let forbiddenElements: Set<String> = ["script", "foreignObject", "iframe", "embed", "object", "handler", "listener"]

    func check(_ context: RuleContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for file in context.assetFiles(ofType: .svg) {
            let display = context.source.display(file.relative)
            guard case .success(let root) = XMLTree.parse(file.url, displayPath: display, at: file.reference.location) else { continue }
            let text = (try? String(contentsOf: file.url, encoding: .utf8)) ?? ""
            func report(_ message: DiagnosticMessage, line: Int, needle: String) {
                diagnostics.append(Diagnostic(.error, message, at: SourceLocation(file: display, line: line, column: XMLTree.column(of: needle, onLine: line, in: text)),
                                              rule: Self.description.id, hint: "export the SVG again without scripts, events or external resources"))
            }
            for element in root.descendants() {
                if Self.forbiddenElements.contains(element.name) {
                    report(Message.forbiddenElement(element: element.name), line: element.line, needle: "<" + element.name)
                }
                for attribute in element.attributes {
                    let qualified = attribute.prefix.map { "\($0):\(attribute.name)" } ?? attribute.name
                    if attribute.name.lowercased().hasPrefix("on") {
                        report(Message.eventHandler(attribute: qualified), line: element.line, needle: qualified)
                    } else if attribute.name == "href" || attribute.name == "src" {
                        let value = attribute.value.trimmingCharacters(in: .whitespaces)
                        let isLocal = value.hasPrefix("#") || value.lowercased().range(of: "^data:image/(png|jpeg|webp|gif);", options: .regularExpression) != nil
                        if !isLocal { report(Message.externalResource(value: String(value.prefix(80))), line: element.line, needle: qualified) }
                    } else if attribute.name == "style", attribute.value.lowercased().contains("url(") && !attribute.value.contains("url(#") {
                        report(Message.externalStyle(), line: element.line, needle: qualified)
                    }
                }
            }
        }
        return diagnostics
    }
}
