import Foundation
import LiveryLoad
import LiveryResolve
import LiveryReleaseFormat

/// A program, library item or tour as a release sees it: shipped or a draft, and when apps show it
/// (docs/schedules.md). `livery build --as-of DATE` prints these for a date.
public struct ScheduledContent: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case program
        case libraryItem = "library item"
        case tour
    }

    public var kind: Kind
    public var id: String
    public var status: PublicationStatus
    public var availability: Availability

    /// What an app shows at `date`, in words: `shown`, `hidden until …`, `ended …`, or that a draft is not in the release.
    public func describe(at date: Date) -> String {
        guard status == .published else { return "draft: not in the release" }
        switch availability.state(at: date) {
        case .live: return availability.until.map { "shown, until \(TUFDate.string($0))" } ?? "shown"
        case .upcoming: return "in the release, hidden until \(TUFDate.string(availability.from!))"
        case .ended: return "in the release, hidden since \(TUFDate.string(availability.until!))"
        }
    }
}

public enum ReleaseSchedule {
    /// The tenant's programs and tours, and the library items its release carries (its own and its
    /// ancestors', a nearer tenant's published item replacing one of the same id), with the tenant's own
    /// drafts; in kind and id order. The same reading of `status` and windows as `BundlePlanner`.
    public static func contents(of tenant: ResolvedTenant) -> [ScheduledContent] {
        var contents: [ScheduledContent] = []
        for program in tenant.source.manifests(.program) {
            guard let id = program.node["id"]?.string else { continue }
            contents.append(ScheduledContent(kind: .program, id: id, status: program.node.publicationStatus, availability: program.node.availability))
        }
        for tour in tenant.source.manifests(.tour) {
            guard let id = tour.node["id"]?.string else { continue }
            contents.append(ScheduledContent(kind: .tour, id: id, status: tour.node.publicationStatus, availability: tour.node.availability))
        }
        var items: [String: ScheduledContent] = [:]
        for source in tenant.ancestors + [tenant.source] {
            for library in source.manifests(.library) {
                for item in library.node["items"]?.items ?? [] {
                    guard let id = item["id"]?.string else { continue }
                    let status = item.publicationStatus
                    // A draft never replaces a published item (drafts are not packed); an ancestor's draft is not this tenant's to list.
                    if status == .draft && (items[id]?.status == .published || source.root != tenant.source.root) { continue }
                    items[id] = ScheduledContent(kind: .libraryItem, id: id, status: status, availability: item.availability)
                }
            }
        }
        contents += items.values
        let order: [ScheduledContent.Kind: Int] = [.program: 0, .libraryItem: 1, .tour: 2]
        return contents.sorted { (order[$0.kind]!, $0.id) < (order[$1.kind]!, $1.id) }
    }
}
