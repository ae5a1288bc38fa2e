import Foundation
import LiveryL10n
import LiveryResolve
import Mustache
import LiveryStorage

/// Creates a new tenant or creator folder from the logic-less templates under `Templates/init/`.
public enum Scaffold {
    public enum Kind: String, Sendable {
        case tenant, creator
    }

    /// Why a scaffold was not made (a folder that cannot be listed is a `ReadFailure`).
    public enum Failure: Error, CustomStringConvertible {
        /// No templates folder at this path.
        case noTemplates(folder: String)
        /// The new tenant's folder exists already.
        case exists(path: String)
        /// The display name has a line break or a control character.
        case nameNotOneLine
        /// A template (its path under the templates folder) that does not render.
        case template(String, problem: String)

        public var description: String {
            switch self {
            case .noTemplates(let folder): return "no templates at \(folder)"
            case .exists(let path): return "'\(path)' already exists"
            case .nameNotOneLine: return "the name must be one line of text (no line breaks or control characters)"
            case .template(let relative, let problem): return "template \(relative): \(problem)"
            }
        }
    }

    /// Renders every file of `Templates/init/<kind>/` into `workspace/<id>/`.
    ///
    /// The folder is assembled in a hidden staging folder next to it and renamed into place in one
    /// step, so a failure leaves nothing behind and an existing folder is never touched.
    @discardableResult
    public static func create(_ kind: Kind, id: String, name: String, context extra: [String: Any] = [:],
                              templates: URL, workspace: URL) throws -> URL {
        let fm = FileManager.default
        let source = templates.appendingPathComponent("init").appendingPathComponent(kind.rawValue)
        guard fm.fileExists(atPath: source.path) else { throw Failure.noTemplates(folder: source.path) }
        let destination = workspace.appendingPathComponent(id)
        guard !fm.fileExists(atPath: destination.path) else { throw Failure.exists(path: destination.path) }
        let staging = workspace.appendingPathComponent(".\(id).init-\(UUID().uuidString)")
        defer { try? fm.removeItem(at: staging) }

        // Android application id segments take letters, digits and `_` and start with a letter; tenant ids are slugs.
        var segment = id.replacingOccurrences(of: "-", with: "_")
        if let first = segment.first, !first.isLetter { segment = "app_" + segment }
        // The name goes into YAML, JSON and ICU message text (store.* text too): it must be one line, and each
        // use is escaped for its syntax (`name` itself only where any text is fine: comments, Markdown).
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty,
              !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}" }) else {
            throw Failure.nameNotOneLine
        }
        var context: [String: Any] = ["id": id, "name": name, "androidSegment": segment, "nameYAML": yamlScalar(name),
                                      "nameJSON": quotedContent(name), "nameInMessage": quotedContent(MessageFormat.literal(name, poundIsSyntax: false)), "nameInText": MessageFormat.literal(name, poundIsSyntax: false)]
        if let storeName = storeName(for: name) {
            context["storeName"] = storeName
            context["storeNameYAML"] = yamlScalar(MessageFormat.literal(storeName, poundIsSyntax: false))
        }
        context.merge(extra) { _, new in new }
        guard let files = fm.enumerator(at: source, includingPropertiesForKeys: [.isRegularFileKey]) else {
            throw ReadFailure(path: source.path, operation: .list)
        }
        for case let file as URL in files {
            guard (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let relative = String(file.standardizedFileURL.path.dropFirst(source.standardizedFileURL.path.count + 1))
            let outputPath = relative.hasSuffix(".mustache") ? String(relative.dropLast(".mustache".count)) : relative
            let text = try String(contentsOf: file, encoding: .utf8)
            let rendered: String
            do {
                rendered = try MustacheTemplate(string: text).render(context)
            } catch {
                throw Failure.template(relative, problem: "\(error)")
            }
            let target = staging.appendingPathComponent(outputPath)
            try fm.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(rendered.utf8).write(to: target)
        }
        try fm.moveItem(at: staging, to: destination)
        return destination
    }

    /// `text` as a YAML scalar: plain when it starts with a letter and holds only letters, digits, spaces
    /// and `.-_'()&!?,+/` (and is not a word YAML 1.1 reads as a boolean or null), else double-quoted.
    static func yamlScalar(_ text: String) -> String {
        let plain = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: " .-_'()&!?,+/"))
        let special: Set<String> = ["y", "n", "yes", "no", "true", "false", "on", "off", "null"]
        if let first = text.unicodeScalars.first, CharacterSet.letters.contains(first), text.unicodeScalars.allSatisfy(plain.contains),
           !text.hasSuffix(" "), !special.contains(text.lowercased()) {
            return text
        }
        return "\"" + quotedContent(text) + "\""
    }

    /// `text` escaped to stand between double quotes, in YAML and in JSON alike (`\` and `"`; the name has
    /// no control characters).
    static func quotedContent(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }

    /// The `store.name` a brand scaffold writes: nil when the display name fits the stores' name limit
    /// (the display name then stands in for it), else the name cut to fit, so that a fresh tenant with a
    /// long `--name` still validates clean (`store.text-length`) and its creator sees what to shorten.
    static func storeName(for name: String) -> String? {
        guard let field = StoreField.all.first(where: { $0.keys == ["store.name"] }), StoreListing.length(name, of: field) > field.limit else { return nil }
        var cut = ""
        for character in name {
            guard StoreListing.length(cut + String(character), of: field) <= field.limit else { break }
            cut.append(character)
        }
        return cut.trimmingCharacters(in: .whitespaces)
    }
}
