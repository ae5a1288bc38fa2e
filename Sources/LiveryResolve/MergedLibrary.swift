import LiveryLoad

/// The library a tenant's apps see: its ancestors' and its own `library.yaml` merged, a nearer tenant's
/// item, category or pack replacing one with the same id, each kept in the order it first appeared.
/// One reading for the packer, the preview and the schedule (docs/library.md).
public struct MergedLibrary: Sendable {
    public struct Item: Sendable {
        public var id: String
        public var node: Node
        /// The tenant whose folder the item was written in (its media paths are relative to it).
        public var owner: TenantSource
        /// The library manifest's folder inside `owner`.
        public var directory: String
    }

    public var items: [Item]
    public var categories: [(id: String, node: Node)]
    public var packs: [(id: String, node: Node)]

    /// `includingDrafts` false reads the library as a release does: a draft item is not there, and a
    /// creator's draft of an inherited item leaves the ancestor's published one in place.
    public init(_ tenant: ResolvedTenant, includingDrafts: Bool) {
        var items: [String: Item] = [:], categories: [String: Node] = [:], packs: [String: Node] = [:]
        var itemOrder: [String] = [], categoryOrder: [String] = [], packOrder: [String] = []
        for owner in tenant.ancestors + [tenant.source] {
            for library in owner.manifests(.library) {
                for item in library.node["items"]?.items ?? [] {
                    guard let id = item["id"]?.string, includingDrafts || item.publicationStatus == .published else { continue }
                    if items[id] == nil { itemOrder.append(id) }
                    items[id] = Item(id: id, node: item, owner: owner, directory: library.directory)
                }
                for category in library.node["categories"]?.items ?? [] {
                    guard let id = category["id"]?.string else { continue }
                    if categories[id] == nil { categoryOrder.append(id) }
                    categories[id] = category
                }
                for pack in library.node["packs"]?.items ?? [] {
                    guard let id = pack["id"]?.string else { continue }
                    if packs[id] == nil { packOrder.append(id) }
                    packs[id] = pack
                }
            }
        }
        self.items = itemOrder.compactMap { items[$0] }
        self.categories = categoryOrder.compactMap { id in categories[id].map { (id, $0) } }
        self.packs = packOrder.compactMap { id in packs[id].map { (id, $0) } }
    }

    public func item(_ id: String) -> Item? { items.first { $0.id == id } }
}
