import Foundation
import LiveryXML

/// A tour's route as its GPX file gives it: the track and route points (`trkpt`, `rtept`) in document order, each
/// with its line. Read once per tour and shared by the rules that need it (`content.route`, `content.tile-coverage`)
/// and by the content preview, which draws it.
public struct TourRoute: Sendable {
    public struct Point: Sendable {
        public var latitude: Double
        public var longitude: Double
        /// Line of the point's element in the GPX file.
        public var line: Int
    }

    /// The GPX file as findings show it.
    public var display: String
    /// The root element's name: `gpx` for a route file.
    public var rootName: String
    /// The points with a valid latitude (−90…90) and longitude (−180…<180), in document order.
    public var points: [Point]
    /// Lines of the points whose lat/lon is missing or out of range.
    public var invalidLines: [Int]

    public init(_ gpx: XMLElement, display: String) {
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

