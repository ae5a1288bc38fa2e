import Foundation

/// A map tile in the XYZ scheme of web maps (`z/x/y`, row 0 at the north edge), and the standard Web Mercator
/// (EPSG:3857) maths that finds the tile holding a point. Written out because it is four lines of arithmetic
/// that every slippy-map library shares; no Swift package of the mirror offers it on its own.
public struct TileCoordinate: Hashable, Sendable, CustomStringConvertible {
    public var zoom: Int
    public var x: Int
    /// XYZ row: 0 at the north edge of the map.
    public var y: Int

    /// The highest zoom a tile coordinate may have here: 2^30 tiles a side still fit comfortably in Int.
    public static let maximumZoom = 30
    /// Web Mercator's latitude limit, where the square world map ends: atan(sinh(π)) in degrees.
    public static let maximumLatitude = 85.0511287798066

    public init(zoom: Int, x: Int, y: Int) {
        self.zoom = zoom
        self.x = x
        self.y = y
    }

    /// The tile at `zoom` that holds the point. Latitude is clamped to ±85.0511° (the map's edge) and the result
    /// to the tiles that exist, so the poles and longitude 180 land in the edge tiles. Nil for a coordinate that is
    /// not a finite number or a zoom outside 0…30.
    public init?(latitude: Double, longitude: Double, zoom: Int) {
        guard latitude.isFinite, longitude.isFinite, (0...Self.maximumZoom).contains(zoom) else { return nil }
        let n = Double(1 << zoom)
        let lat = min(max(latitude, -Self.maximumLatitude), Self.maximumLatitude) * .pi / 180
        let column = ((longitude + 180) / 360 * n).rounded(.down)
        let row = ((1 - log(tan(lat) + 1 / cos(lat)) / .pi) / 2 * n).rounded(.down)
        let last = (1 << zoom) - 1
        self.init(zoom: zoom, x: Int(min(max(column, 0), Double(last))), y: Int(min(max(row, 0), Double(last))))
    }

    /// The point's position in Web Mercator pixels at `zoom` for 256-pixel tiles: x from the antimeridian
    /// eastward, y from the map's north edge southward (latitude clamped to the map's edge).
    public static func pixel(latitude: Double, longitude: Double, zoom: Int) -> (x: Double, y: Double) {
        let size = 256 * Double(1 << max(0, min(zoom, maximumZoom)))
        let lat = min(max(latitude, -maximumLatitude), maximumLatitude) * .pi / 180
        return ((longitude + 180) / 360 * size, (1 - log(tan(lat) + 1 / cos(lat)) / .pi) / 2 * size)
    }

    /// Metres on the ground per Web Mercator pixel at `latitude` and `zoom` (256-pixel tiles, WGS 84 equator).
    public static func metresPerPixel(latitude: Double, zoom: Int) -> Double {
        40_075_016.686 * cos(latitude * .pi / 180) / (256 * Double(1 << max(0, min(zoom, maximumZoom))))
    }

    /// The row as MBTiles stores it: the TMS scheme counts rows from the south edge, `2^z − 1 − y`.
    public var tmsRow: Int { (1 << zoom) - 1 - y }

    /// `z/x/y`, as in a web map's tile URL.
    public var description: String { "\(zoom)/\(x)/\(y)" }
}
