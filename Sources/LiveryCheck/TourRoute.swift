import Foundation
import LiveryDiagnostics
import LiveryLoad

/// A tour's route as its GPX file gives it: the track and route points (`trkpt`, `rtept`) in document order, each
/// with its line. Read once per tour and shared by the rules that need it (`content.route`, `content.tile-coverage`).
struct TourRoute: Sendable {
    struct Point: Sendable {
        var latitude: Double
        var longitude: Double
        /// Line of the point's element in the GPX file.
        var line: Int
    }

    /// The GPX file as findings show it.
    var display: String
    /// The root element's name: `gpx` for a route file.
    var rootName: String
    /// The points with a valid latitude (−90…90) and longitude (−180…<180), in document order.
    var points: [Point]
    /// Lines of the points whose lat/lon is missing or out of range.
    var invalidLines: [Int]

    init(_ gpx: XMLElement, display: String) {
        self.display = display
        rootName = gpx.name
        points = []
        invalidLines = []
        guard gpx.name == "gpx" else { return }
        for element in gpx.descendants() where element.name == "trkpt" || element.name == "rtept" {
            guard let lat = element.attribute("lat").flatMap(Double.init), let lon = element.attribute("lon").flatMap(Double.init),
                  (-90...90).contains(lat), lon >= -180, lon < 180 else {
                invalidLines.append(element.line)
                continue
            }
            points.append(Point(latitude: lat, longitude: lon, line: element.line))
        }
    }
}

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
