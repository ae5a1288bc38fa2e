import LiveryCheck
import LiveryLoad
import LiveryResolve

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
        let isTenantManifest = ["tenant.yaml", "tenant.yml"].contains(document.path.split(separator: "/").last.map(String.init) ?? "")
        if isTenantManifest, cursor.parentKey == "rules", !cursor.inValue {
            return CompletionList(items: RuleRegistry.descriptions.filter { $0.id.rawValue.hasPrefix(typed) }.map {
                CompletionItem(label: $0.id.rawValue, kind: .enumMember, detail: $0.name, textEdit: TextEdit(range: range, newText: $0.id.rawValue))
            })
        }
        guard let tenant, cursor.inValue, !document.path.contains("/locales/") else { return CompletionList(items: []) }
        var items: [CompletionItem] = []
        // A value the manifest's shape limits to a set of words (an enum): those words first.
        let relative = String(document.path.dropFirst(tenant.source.root.standardizedFileURL.path.count + 1))
        if let kind = ManifestKind.kind(ofRelativePath: relative), let path = cursor.keyPath, case .choice(let values)? = Self.shape(at: path, in: kind.shape) {
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
