import LiveryLoad

/// How `extends` combines a parent's manifest with a child's (documented in docs/extends.md):
/// mappings merge key by key, recursively; anything else the child writes (text, numbers, lists)
/// replaces the parent's value whole. Keys the child does not write are inherited.
public enum ManifestMerge {
    /// Keys that describe the tenant itself and are never inherited.
    public static let identityKeys: Set<String> = ["id", "kind", "extends", "$schema"]

    public static func merge(parent: Node, child: Node, skipping skipped: Set<String> = []) -> Node {
        guard let parentEntries = parent.entries, let childEntries = child.entries else { return child }
        var merged: [Node.Entry] = []
        for entry in parentEntries where !skipped.contains(entry.key) {
            if let override = childEntries.first(where: { $0.key == entry.key }) {
                merged.append(Node.Entry(key: entry.key, keyLocation: override.keyLocation,
                                         value: merge(parent: entry.value, child: override.value)))
            } else {
                merged.append(entry)
            }
        }
        for entry in childEntries where !parentEntries.contains(where: { $0.key == entry.key && !skipped.contains(entry.key) }) {
            merged.append(entry)
        }
        return Node(.mapping(merged), at: child.location)
    }
}
