import Foundation
import LiveryDiagnostics
import LiveryLoad

/// Great-circle geometry on WGS 84 coordinates (spherical approximation, good to ~0.5 %).
enum Geo {
    static let earthRadius = 6_371_008.8

    static func distance(_ a: (lat: Double, lon: Double), _ b: (lat: Double, lon: Double)) -> Double {
        let φ1 = a.lat * .pi / 180, φ2 = b.lat * .pi / 180
        let Δφ = φ2 - φ1, Δλ = (b.lon - a.lon) * .pi / 180
        let h = sin(Δφ / 2) * sin(Δφ / 2) + cos(φ1) * cos(φ2) * sin(Δλ / 2) * sin(Δλ / 2)
        return 2 * earthRadius * asin(min(1, sqrt(h)))
    }

    /// Distance in metres from `p` to the segment a–b, in a local equirectangular projection.
    static func distance(from p: (lat: Double, lon: Double), toSegment a: (lat: Double, lon: Double), _ b: (lat: Double, lon: Double)) -> Double {
        let scale = cos(p.lat * .pi / 180) * earthRadius * .pi / 180, metresPerDegree = earthRadius * .pi / 180
        let ax = (a.lon - p.lon) * scale, ay = (a.lat - p.lat) * metresPerDegree
        let bx = (b.lon - p.lon) * scale, by = (b.lat - p.lat) * metresPerDegree
        let dx = bx - ax, dy = by - ay
        let t = dx == 0 && dy == 0 ? 0 : max(0, min(1, -(ax * dx + ay * dy) / (dx * dx + dy * dy)))
        let x = ax + t * dx, y = ay + t * dy
        return (x * x + y * y).squareRoot()
    }
}

struct RouteRule: Rule {
    static let description = RuleDescription(
        id: "content.route", name: "Tour route", family: .content,
        rationale: "A tour's GPX route has valid points, matches the declared distance within 25 %, and passes within each stop's trigger radius.",
        messages: [declare(Message.notGPX), declare(Message.badPoint), declare(Message.tooFewPoints), declare(Message.distance), declare(Message.stopOffRoute), declare(Message.stopSwapped)],
        triggering: [
            RuleExample("declared distance far from the route's", files: TourExample.files(languages: "[en]").mapValues { $0.replacingOccurrences(of: "distanceKm: 1.2", with: "distanceKm: ↓1.2") }
                .merging(["example/tours/walk/route.gpx": TourExample.route(points: [(43.77, 11.25), (43.7705, 11.2505)])]) { _, new in new },
                binaryFiles: TourExample.media),
            RuleExample("a stop far from the route", files: TourExample.files(languages: "[en]")
                .merging(["example/tours/walk/route.gpx": TourExample.route(points: [(43.76, 11.24), (43.7605, 11.2405), (43.7688, 11.2475)])]) { _, new in new },
                binaryFiles: TourExample.media),
            RuleExample("a stop with its latitude and longitude swapped", files: TourExample.files(languages: "[en]").mapValues {
                $0.replacingOccurrences(of: "latitude: 43.77\n", with: "latitude: ↓11.25\n").replacingOccurrences(of: "longitude: 11.25\n", with: "longitude: 43.77\n")
            }, binaryFiles: TourExample.media),
            RuleExample("a track point with a latitude beyond the pole", files: TourExample.files(languages: "[en]").merging([
                "example/tours/walk/route.gpx": TourExample.route(points: [(43.77, 11.25), (95.0, 11.25), (43.775, 11.25), (43.78, 11.25)])
                    .replacingOccurrences(of: "<trkpt lat=\"95.0\"", with: "↓<trkpt lat=\"95.0\""),
            ]) { _, new in new }, binaryFiles: TourExample.media),
            RuleExample("a route of one point", files: TourExample.files(languages: "[en]").mapValues { $0.replacingOccurrences(of: "route: route.gpx", with: "route: ↓route.gpx") }
                .merging(["example/tours/walk/route.gpx": TourExample.route(points: [(43.77, 11.25)])]) { _, new in new },
                binaryFiles: TourExample.media),
            RuleExample("a route file that is not GPX", files: TourExample.files(languages: "[en]").mapValues { $0.replacingOccurrences(of: "route: route.gpx", with: "route: ↓route.gpx") }
                .merging(["example/tours/walk/route.gpx": "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<kml xmlns=\"http://www.opengis.net/kml/2.2\"/>\n"]) { _, new in new },
                binaryFiles: TourExample.media),
        ],
        nonTriggering: [RuleExample("a route through the stops", files: TourExample.files(languages: "[en]"), binaryFiles: TourExample.media)])

    enum Message {
        static func notGPX(root: String) -> DiagnosticMessage {
            DiagnosticMessage("not-gpx", "route file's root element is <\(root)>, not <gpx>")
        }
        static func badPoint() -> DiagnosticMessage {
            DiagnosticMessage("bad-point", "route point has no valid lat/lon (lat −90…90, lon −180…<180)")
        }
        static func tooFewPoints(count: Int, noun: String) -> DiagnosticMessage {
            DiagnosticMessage("too-few-points", "route has \(count) \(noun); a walk needs at least 2")
        }
        static func distance(declared: String, actual: String) -> DiagnosticMessage {
            DiagnosticMessage("distance", "distanceKm is \(declared), but the route is \(actual) km long")
        }
        static func stopOffRoute(stop: String, distance: Int, radius: Int) -> DiagnosticMessage {
            DiagnosticMessage("stop-off-route", "stop '\(stop)' is \(distance) m from the route, beyond its \(radius) m trigger radius")
        }
        /// Its own message (and id): the stop is misplaced, so what follows from its place (a tile its pack lacks) is folded under it.
        static func stopSwapped(stop: String, distance: Int, radius: Int) -> DiagnosticMessage {
            DiagnosticMessage("stop-swapped", "stop '\(stop)' is \(distance) m from the route, beyond its \(radius) m trigger radius; with latitude and longitude swapped it is on the route")
        }
    }

    /// A coordinate as written in a manifest: no trailing zeros, no exponent.
    static func degrees(_ value: Double) -> String {
        var text = String(format: "%.6f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for tour in context.source.manifests(.tour) {
            guard let routeNode = tour.node["route"], let route = context.route(of: tour) else { continue }
            guard route.rootName == "gpx" else {
                diagnostics.append(Diagnostic(.error, Message.notGPX(root: "\(route.rootName)"), at: routeNode.location, rule: Self.description.id))
                continue
            }
            for line in route.invalidLines {
                diagnostics.append(Diagnostic(.error, Message.badPoint(),
                                              at: SourceLocation(file: route.display, line: line, column: 1), rule: Self.description.id))
            }
            let points = route.points.map { (lat: $0.latitude, lon: $0.longitude) }
            guard points.count >= 2 else {
                diagnostics.append(Diagnostic(.error, Message.tooFewPoints(count: points.count, noun: points.count == 1 ? "track point" : "track points"), at: routeNode.location, rule: Self.description.id))
                continue
            }
            let length = zip(points, points.dropFirst()).reduce(0) { $0 + Geo.distance($1.0, $1.1) }
            if let declared = tour.node["distanceKm"], let km = declared.number, abs(length - km * 1000) > 0.25 * km * 1000 {
                diagnostics.append(Diagnostic(.error, Message.distance(declared: String(format: "%.2f", km), actual: String(format: "%.2f", length / 1000)), at: declared.location,
                                              rule: Self.description.id, hint: String(format: "set distanceKm to %.1f, or fix the route", length / 1000)))
            }
            for stop in tour.node["stops"]?.items ?? [] {
                guard let lat = stop["latitude"]?.number, let lon = stop["longitude"]?.number else { continue }
                func distance(_ lat: Double, _ lon: Double) -> Double {
                    zip(points, points.dropFirst()).map { Geo.distance(from: (lat, lon), toSegment: $0.0, $0.1) }.min() ?? .infinity
                }
                let nearest = distance(lat, lon)
                let radius = Double(stop["triggerRadius"]?.int ?? 100)
                if nearest > radius {
                    // The commonest way to put a stop thousands of kilometres away: latitude and longitude written the
                    // other way round (x, y order, as GeoJSON and many map tools give them). Said when swapping them puts
                    // the stop within its trigger radius.
                    let swapped = abs(lon) <= 90 && distance(lon, lat) <= radius
                    let id = stop["id"]?.string ?? ""
                    diagnostics.append(Diagnostic(.error, swapped ? Message.stopSwapped(stop: id, distance: Int(nearest), radius: Int(radius))
                                                            : Message.stopOffRoute(stop: id, distance: Int(nearest), radius: Int(radius)),
                                                  at: stop["latitude"]?.location ?? stop.location, rule: Self.description.id,
                                                  hint: swapped ? "latitude and longitude swapped? (latitude \(Self.degrees(lon)), longitude \(Self.degrees(lat))) is on the route" : nil,
                                                  related: swapped ? (stop["longitude"].map { [RelatedLocation("the longitude, which reads as a latitude", at: $0.location)] } ?? []) : []))
                }
            }
        }
        return diagnostics
    }
}
