import Foundation
import LiveryDiagnostics
import LiveryLoad
import LiveryMedia
import LiveryXML

extension RuleContext {
    /// The route of one of the tenant's tours; nil when the tour names none or its file cannot be read or parsed
    /// (the asset and XML rules report those).
    func route(of tour: Manifest) -> TourRoute? {
        if let made = cache.tourRoutes[tour.relativePath] { return made }
        var route: TourRoute?
        if let node = tour.node["route"], let path = node.string,
           case .success(let relative) = TenantPath.normalize(path, baseDirectory: tour.directory),
           case .success(let url) = source.paths.regularFile(relative),
           case .success(let gpx) = XMLTree.parse(url, displayPath: source.display(relative), at: node.location) {
            route = TourRoute(gpx, display: source.display(relative))
        }
        cache.tourRoutes[tour.relativePath] = .some(route)
        return route
    }
}
