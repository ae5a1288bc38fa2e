import Foundation
import LiveryCheck
import LiveryDiagnostics
import LiveryLoad
import LiveryMedia
import LiveryResolve

/// Hovers and go to definition.
extension LanguageServer {
    func hover(_ position: Position, in document: OpenDocument) -> Hover? {
        var sections: [String] = []
        var range: Range?
        for (diagnostic, found) in findings(in: document) where found.contains(position) {
            guard let rule = RuleDocumentation.descriptions[diagnostic.ruleID.rawValue] else { continue }
            sections.append("**\(rule.id)** — \(rule.name) (\(rule.severity.rawValue))\n\n\(rule.rationale)\n\n[Rule reference](\(documentation.href(for: rule.id.rawValue)))")
            range = range ?? found
        }
        let cursor = TextAtCursor(document.source, position)
        if let tenant = tenant(of: document) {
            if let (path, found) = cursor.tokenReference, let text = Self.tokenHover(path, in: tenant) {
                sections.append(text)
                range = range ?? found
            } else if let (word, found) = cursor.word, let text = Self.messageHover(word, in: tenant) {
                sections.append(text)
                range = range ?? found
            } else if document.path.contains("/locales/"), let key = cursor.localeKey, let text = Self.messageHover(key, in: tenant) {
                sections.append(text)
            } else if let path = cursor.path, let file = Self.assetFile(path, from: document.path, in: tenant) {
                sections.append(assetHover(file, written: path))
            }
        }
        guard !sections.isEmpty else { return nil }
        return Hover(contents: MarkupContent(value: sections.joined(separator: "\n\n---\n\n")), range: range)
    }

    /// A token's resolved value in every mode.
    static func tokenHover(_ path: String, in tenant: ResolvedTenant) -> String? {
        let modes = tenant.tokens.keys.sorted { ($0 == "default" ? "" : $0) < ($1 == "default" ? "" : $1) }
        var rows: [String] = []
        for mode in modes {
            guard let value = tenant.tokens[mode]?.values[path] else { continue }
            rows.append("| \(mode) | `\(render(value))` |")
        }
        guard !rows.isEmpty else { return nil }
        let type = modes.lazy.compactMap { tenant.tokens[$0]?.types[path] }.first.map { " (\($0))" } ?? ""
        return "**{\(path)}**\(type)\n\n| mode | value |\n|---|---|\n" + rows.joined(separator: "\n") + contrastHover(path, in: tenant)
    }

    /// A colour's contrast against the colours it is declared in pairs with (`com.livery.contrast`), per mode.
    static func contrastHover(_ path: String, in tenant: ResolvedTenant) -> String {
        let measured = ContrastAudit.measure(tenant).filter { $0.pair.foreground.path == path || $0.pair.background.path == path }
        guard !measured.isEmpty else { return "" }
        var lines: [String] = []
        for (_, group) in Dictionary(grouping: measured, by: \.pair.key).sorted(by: { $0.key < $1.key }) {
            guard let pair = group.first?.pair else { continue }
            let other = pair.foreground.path == path ? "on {\(pair.background.path)}" : "under {\(pair.foreground.path)}"
            let ratios = group.map { "\($0.mode) \(String(format: "%.2f", $0.result.ratio)):1\($0.meetsRequired ? "" : " ✗")" }
            lines.append("- \(other) (\(pair.usage.rawValue), needs \(String(format: "%g", pair.usage.required.minimumRatio)):1): " + ratios.joined(separator: ", "))
        }
        return "\n\n**Contrast**\n\n" + lines.joined(separator: "\n")
    }

    /// An asset file's type and size, and for audio and video what the media probe measured.
    func assetHover(_ file: String, written path: String) -> String {
        let url = URL(fileURLWithPath: file)
        let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? nil
        let type = FileSniffer.sniff(fileAt: url)
        var text = "**\(path)**: \(type?.rawValue ?? "unknown type")" + (size.map { ", \($0) bytes" } ?? "")
        if let type, let outcome = media.measure(url, as: type) {
            switch outcome {
            case .success(let facts):
                var parts = ["\(facts.codec)", String(format: "%.2f s", facts.duration)]
                if let rate = facts.sampleRate { parts.append("\(rate) Hz") }
                if let channels = facts.channels { parts.append(channels == 1 ? "mono" : "\(channels) channels") }
                if let bitrate = facts.bitrate { parts.append("\(bitrate / 1000) kbit/s" + (facts.bitrateMode.map { " \($0.rawValue)" } ?? "")) }
                if let width = facts.width, let height = facts.height { parts.append("\(width)×\(height)") }
                if let streamable = facts.streamable { parts.append(streamable ? "streamable" : "not streamable (moov after mdat)") }
                text += "\n\n" + parts.joined(separator: ", ")
            case .failure(let failure):
                text += "\n\nthe media probe could not read it: \(failure)"
            }
        }
        return text
    }

    /// A message key's text in every locale.
    static func messageHover(_ key: String, in tenant: ResolvedTenant) -> String? {
        let rows = tenant.locales.keys.sorted().compactMap { locale -> String? in
            guard let message = tenant.locales[locale]?.message(key) else { return nil }
            return "| \(locale) | \(message.text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")) |"
        }
        guard !rows.isEmpty else { return nil }
        let missing = tenant.supportedLocales.filter { tenant.locales[$0]?.message(key) == nil }
        return "**\(key)**\n\n| locale | text |\n|---|---|\n" + rows.joined(separator: "\n") + (missing.isEmpty ? "" : "\n\nmissing in: " + missing.joined(separator: ", "))
    }

    /// A resolved token value in one line: a colour by its hex, other values compactly.
    ///
    /// Written with loops and an inout buffer: the first form (a `switch` over the value binding the mapping's
    /// entries, with `map(render)` recursion) crashed Swift 6.3.1's optimizer in release builds (SIL ownership
    /// verification in CopyPropagation).
    static func render(_ node: Node) -> String {
        var out = ""
        render(node, into: &out)
        return out
    }

    private static func render(_ node: Node, into out: inout String) {
        if let items = node.items {
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += ", " }
                render(item, into: &out)
            }
            out += "]"
        } else if let entries = node.entries {
            if let hex = node["hex"]?.string {
                out += hex
                if let alpha = node["alpha"]?.number { out += " α \(alpha)" }
            } else if let value = node["value"], let unit = node["unit"]?.string {
                render(value, into: &out)
                out += unit
            } else {
                out += "{"
                for (index, entry) in entries.enumerated() {
                    if index > 0 { out += ", " }
                    out += entry.key + ": "
                    render(entry.value, into: &out)
                }
                out += "}"
            }
        } else if let text = node.string {
            out += text
        } else if let int = node.int {
            out += String(int)
        } else if let number = node.number {
            out += String(number)
        } else if let bool = node.bool {
            out += String(bool)
        } else {
            out += "null"
        }
    }

    func definition(_ position: Position, in document: OpenDocument) -> [Location] {
        guard let tenant = tenant(of: document) else { return [] }
        let cursor = TextAtCursor(document.source, position)
        var targets: [SourceLocation] = []
        if let (path, _) = cursor.tokenReference {
            // Each mode may take the token from another file: every distinct definition.
            for mode in tenant.tokens.keys.sorted() {
                if let token = tenant.tokens[mode]?.tokens[path] { targets.append(token.location) }
            }
        } else if let (word, _) = cursor.word {
            for locale in tenant.locales.keys.sorted() {
                if let message = tenant.locales[locale]?.message(word) { targets.append(message.keyLocation) }
            }
            if targets.isEmpty { targets = Self.libraryItems(word, in: tenant) }
        }
        // In a locale bundle, a message's key goes to the same message in the other locales.
        if targets.isEmpty, document.path.contains("/locales/"), let key = cursor.localeKey {
            for locale in tenant.locales.keys.sorted() {
                if let message = tenant.locales[locale]?.message(key), message.keyLocation.file != document.path { targets.append(message.keyLocation) }
            }
        }
        if targets.isEmpty, let path = cursor.path, let file = Self.assetFile(path, from: document.path, in: tenant) {
            targets.append(.start(of: file))
        }
        var seen = Set<SourceLocation>()
        return targets.filter { seen.insert($0).inserted }.map { location in
            let source = self.source(of: location.file) ?? SourceDocument("")
            return Location(uri: uri(for: location.file), range: source.range(at: location))
        }
    }

    /// Where library items with id `id` are declared, in the tenant's library and its ancestors'.
    static func libraryItems(_ id: String, in tenant: ResolvedTenant) -> [SourceLocation] {
        (tenant.ancestors + [tenant.source]).reversed().flatMap { member in
            member.manifests(.library).flatMap { library in
                (library.node["items"]?.items ?? []).compactMap { item in item.entry("id").flatMap { $0.value.string == id ? $0.value.location : nil } }
            }
        }
    }

    /// The file an asset path written in a manifest names (relative to the manifest's folder, or the tenant's), if it is a
    /// file of the tenant: checked as the loader checks it (`TenantPath`), so a link out of the tenant folder is neither
    /// probed for a hover nor offered as a definition.
    static func assetFile(_ path: String, from manifest: String, in tenant: ResolvedTenant) -> String? {
        let root = tenant.source.root.standardizedFileURL
        let standardized = URL(fileURLWithPath: manifest).standardizedFileURL.path
        guard standardized.hasPrefix(root.path + "/") else { return nil }
        let directory = String(standardized.dropFirst(root.path.count + 1)).split(separator: "/").dropLast().joined(separator: "/")
        for base in [directory, ""] {
            guard case .success(let relative) = TenantPath.normalize(path, baseDirectory: base),
                  case .success = tenant.source.paths.regularFile(relative) else { continue }
            return root.appendingPathComponent(relative).path
        }
        return nil
    }
}
