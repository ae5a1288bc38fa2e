import LiveryCheck
import LiveryLoad
import LiveryResolve
import LiveryWorkflow

/// Completions: token references inside `{…}`, rule ids under `rules:`, message keys and library item ids in values.
extension LanguageServer {
    func completion(_ position: Position, in document: OpenDocument) -> CompletionList {
        let cursor = TextAtCursor(document.source, position)
        let tenant = tenant(of: document)
        if let (typed, range) = cursor.openReference {
            var types: [String: String] = [:]
            for tokens in tenant?.tokens.values.map({ $0 }) ?? [] {
                for path in tokens.values.keys where path.hasPrefix(typed) { types[path] = tokens.types[path] ?? types[path] }
            }
            let values = tenant?.tokens["default"]?.values ?? [:]
            return CompletionList(items: types.keys.sorted().map { path in
                CompletionItem(label: path, kind: types[path] == "color" ? .color : .reference,
                               detail: values[path].map(Self.render) ?? types[path], textEdit: TextEdit(range: range, newText: path))
            })
        }
        let (typed, range) = cursor.typedWord
        guard let tenant, !document.path.contains("/locales/") else { return CompletionList(items: []) }
        // Where the cursor is in the manifest's tree (the loader's parse of the editor's text, see `CursorInTree`).
        let relative = String(document.path.dropFirst(tenant.source.root.standardizedFileURL.path.count + 1))
        let kind = ManifestKind.kind(ofRelativePath: relative)
        let place = ManifestFormat(path: document.path).flatMap { CursorInTree.locate(document.source, position, format: $0) }
        if kind == .tenant, case .key(parent: ["rules"])? = place {
            return CompletionList(items: RuleSet.all.descriptions.filter { $0.id.rawValue.hasPrefix(typed) }.map {
                CompletionItem(label: $0.id.rawValue, kind: .enumMember, detail: $0.name, textEdit: TextEdit(range: range, newText: $0.id.rawValue))
            })
        }
        // A key: the fields the manifest's shape declares for this mapping.
        if let kind, case .key(let parent)? = place, case .object(let object)? = Self.shape(at: parent, in: kind.shape) {
            return CompletionList(items: object.fields.filter { $0.name.hasPrefix(typed) }.map {
                CompletionItem(label: $0.name, kind: .property, detail: String($0.description.prefix(80)), textEdit: TextEdit(range: range, newText: $0.name))
            })
        }
        // In a value; where no repair of the line makes the text parse (an error elsewhere in the file), message keys and
        // library items are still offered after a `key:` or `- ` on the line.
        switch place {
        case .value?: break
        case .key?: return CompletionList(items: [])
        case nil: guard cursor.inValue else { return CompletionList(items: []) }
        }
        var items: [CompletionItem] = []
        // A value the manifest's shape limits to a set of words (an enum): those words first.
        if let kind, case .value(let path)? = place, case .choice(let values)? = Self.shape(at: path, in: kind.shape) {
            items += values.filter { $0.hasPrefix(typed) }.map { CompletionItem(label: $0, kind: .enumMember, detail: path.joined(separator: "."), textEdit: TextEdit(range: range, newText: $0)) }
        }
        if let locale = tenant.defaultLocale, let bundle = tenant.locales[locale] {
            items += bundle.messages.filter { $0.key.hasPrefix(typed) }.sorted { $0.key < $1.key }.map {
                CompletionItem(label: $0.key, kind: .text, detail: String($0.text.prefix(80)), textEdit: TextEdit(range: range, newText: $0.key))
            }
        }
        if document.path.contains("/programs/") {
            for member in tenant.ancestors + [tenant.source] {
                for library in member.manifests(.library) {
                    for item in library.node["items"]?.items ?? [] {
                        guard let id = item["id"]?.string, id.hasPrefix(typed) else { continue }
                        items.append(CompletionItem(label: id, kind: .value, detail: "library item", textEdit: TextEdit(range: range, newText: id)))
                    }
                }
            }
        }
        return CompletionList(items: items)
    }

    /// The shape of the value at `path` (keys; lists are stepped through), or nil where the shape does not say.
    static func shape(at path: [String], in root: Shape) -> Shape? {
        var shape = root
        func unwrapped(_ shape: Shape) -> Shape {
            if case .list(let inner, _) = shape { return unwrapped(inner) }
            return shape
        }
        for key in path {
            switch unwrapped(shape) {
            case .object(let object):
                guard let field = object.field(key) else { return nil }
                shape = field.shape
            case .dictionary(_, let value):
                shape = value
            default:
                return nil
            }
        }
        return unwrapped(shape)
    }
}
