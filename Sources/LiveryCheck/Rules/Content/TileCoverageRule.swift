import Foundation
import LiverySQLite
import LiveryDiagnostics
import LiveryLoad

struct TileCoverageRule: Rule {
    static let description = RuleDescription(
        id: "content.tile-coverage", name: "Offline map coverage", family: .content,
        rationale: "A tour's MBTiles pack opens, names its tile format and zoom range truthfully, and has a tile under every stop and route point "
            + "at every zoom the app shows offline (offlineZoom, by default the pack's minzoom to maxzoom), or the offline map is blank where the walker stands.",
        triggering: [
            RuleExample("a pack of another city", files: TilePackExample.files(), binaryFiles: TilePackExample.media(TilePackExample.pack(covering: TilePackExample.rome))),
            RuleExample("a pack missing zoom 15", files: TilePackExample.files(),
                        binaryFiles: TilePackExample.media(TilePackExample.pack(covering: TilePackExample.walk, zooms: [14], minZoom: 14, maxZoom: 15))),
            RuleExample("PNG tiles in a pack that says jpg", files: TilePackExample.files(),
                        binaryFiles: TilePackExample.media(TilePackExample.pack(covering: TilePackExample.walk, format: "jpg"))),
            RuleExample("offline zooms the pack does not have", files: TilePackExample.files(tiles: "tiles.mbtiles", offlineZoom: "{min: ↓12, max: 15}"),
                        binaryFiles: TilePackExample.media(TilePackExample.pack(covering: TilePackExample.walk))),
        ],
        nonTriggering: [RuleExample("a pack covering the walk at zooms 14 and 15", files: TilePackExample.files(tiles: "tiles.mbtiles", offlineZoom: "{min: 14, max: 15}"),
                                    binaryFiles: TilePackExample.media(TilePackExample.pack(covering: TilePackExample.walk)))])

    func check(_ context: RuleContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for tour in context.source.manifests(.tour) {
            guard let tilesNode = tour.node["tiles"], let path = tilesNode.string,
                  case .success(let relative) = TenantPath.normalize(path, baseDirectory: tour.directory),
                  case .success(let url) = context.source.paths.regularFile(relative) else { continue }
            var check = TourTileCheck(tour: tour, tilesNode: tilesNode, display: context.source.display(relative))
            check.run(url: url, route: context.route(of: tour))
            diagnostics += check.diagnostics
        }
        return diagnostics
    }
}

/// The tile checks of one tour; every finding about the pack is located at the tour's `tiles:` value.
private struct TourTileCheck {
    let tour: Manifest
    let tilesNode: Node
    let display: String
    var diagnostics: [Diagnostic] = []

    init(tour: Manifest, tilesNode: Node, display: String) {
        self.tour = tour
        self.tilesNode = tilesNode
        self.display = display
    }

    private mutating func report(_ message: String, at location: SourceLocation? = nil, hint: String? = nil) {
        diagnostics.append(Diagnostic(.error, message, at: location ?? tilesNode.location, rule: TileCoverageRule.description.id, hint: hint))
    }

    mutating func run(url: URL, route: TourRoute?) {
        let pack: MBTilesPack
        do {
            pack = try MBTilesPack(path: url.path)
        } catch MBTilesFailure.notSQLite {
            return  // assets.file-type reports a .mbtiles file that is not SQLite
        } catch {
            report("'\(display)' is not a readable MBTiles pack: it \(error)", hint: "export the tile pack again as MBTiles 1.3")
            return
        }
        let metadata = pack.metadata
        checkFormat(pack)
        for (name, value) in [("minzoom", metadata.minZoom), ("maxzoom", metadata.maxZoom)] where value == nil {
            report("the tile pack's metadata has no \(name)", hint: "apps learn the pack's zoom range from its minzoom and maxzoom metadata rows; add both")
        }
        guard pack.firstTileHead != nil else {
            report("the tile pack '\(display)' holds no tiles", hint: "export the pack again with the tiles of the tour's area")
            return
        }
        guard let zooms = offlineZooms(metadata) else { return }
        checkCoverage(pack, zooms: zooms, route: route)
    }

    private mutating func checkFormat(_ pack: MBTilesPack) {
        guard let declared = pack.metadata.format else {
            report("the tile pack's metadata has no format", hint: "add a format row naming the tiles' format: png, jpg, webp or pbf")
            return
        }
        guard let format = TileFormat(metadata: declared) else {
            report("the tile pack's metadata format '\(declared)' is not one apps draw", hint: "MBTiles formats are png, jpg, webp and pbf")
            return
        }
        guard let head = pack.firstTileHead else { return }
        guard let sniffed = TileFormat.sniff(head) else {
            report("the tile pack's first tile is not PNG, JPEG, WebP or vector tile (pbf) data", hint: "export the pack again")
            return
        }
        if sniffed != format {
            report("the tile pack's metadata says format '\(declared)', but its tiles are \(sniffed.rawValue)",
                   hint: "set the metadata format to \(sniffed.rawValue), or export the tiles as \(format.rawValue)")
        }
    }

    /// The zooms to check: `offlineZoom`, each end defaulting to the pack's own, within the pack's range. Nil when
    /// the range is unknown or reported as wrong.
    private mutating func offlineZooms(_ metadata: MBTilesMetadata) -> ClosedRange<Int>? {
        let declared = tour.node["offlineZoom"]
        let minNode = declared?["min"], maxNode = declared?["max"]
        if let low = minNode?.int, let high = maxNode?.int, low > high {
            report("offlineZoom.min (\(low)) is above offlineZoom.max (\(high))", at: minNode!.location, hint: "swap them")
            return nil
        }
        var valid = true
        for (node, end) in [(minNode, "min"), (maxNode, "max")] {
            guard let node, let zoom = node.int, let packMin = metadata.minZoom, let packMax = metadata.maxZoom, !(packMin...packMax).contains(zoom) else { continue }
            valid = false
            report("offlineZoom.\(end) is \(zoom), outside the zooms the tile pack has (\(packMin)–\(packMax), its metadata minzoom and maxzoom)", at: node.location,
                   hint: "set offlineZoom within \(packMin)–\(packMax), or add zoom \(zoom) to the pack")
        }
        guard valid, let low = minNode?.int ?? metadata.minZoom, let high = maxNode?.int ?? metadata.maxZoom, low <= high else { return nil }
        return low...high
    }

    /// A place the offline map must show: a stop or a route point.
    private struct Place {
        var latitude: Double, longitude: Double
        var name: String
    }

    private mutating func checkCoverage(_ pack: MBTilesPack, zooms: ClosedRange<Int>, route: TourRoute?) {
        var places: [Place] = []
        for stop in tour.node["stops"]?.items ?? [] {
            guard let lat = stop["latitude"]?.number, let lon = stop["longitude"]?.number else { continue }
            places.append(Place(latitude: lat, longitude: lon, name: "stop '\(stop["id"]?.string ?? "")'"))
        }
        for point in route?.points ?? [] {
            places.append(Place(latitude: point.latitude, longitude: point.longitude, name: "the route point at \(route!.display):\(point.line)"))
        }
        for zoom in zooms {
            var present: [TileCoordinate: Bool] = [:]
            var first: (tile: TileCoordinate, place: Place)?
            for place in places {
                guard let tile = TileCoordinate(latitude: place.latitude, longitude: place.longitude, zoom: zoom) else { continue }
                if present[tile] == nil {
                    do { present[tile] = try pack.hasTile(tile) } catch {
                        report("'\(display)' is not a readable MBTiles pack: it \(error)", hint: "export the tile pack again as MBTiles 1.3")
                        return
                    }
                }
                if present[tile] == false, first == nil { first = (tile, place) }
            }
            guard let (tile, place) = first else { continue }
            let missing = present.values.filter { !$0 }.count
            var hint = "\(missing) of the \(present.count) tile\(present.count == 1 ? "" : "s") the tour needs at zoom \(zoom) \(missing == 1 ? "is" : "are") missing "
                + "(this one is MBTiles tile_row \(tile.tmsRow), which counts rows from the south)"
            // A pack written with XYZ rows in tile_row (a common export mistake) has the tile, upside down.
            let flipped = TileCoordinate(zoom: zoom, x: tile.x, y: tile.tmsRow)
            if flipped != tile, (try? pack.hasTile(flipped)) == true {
                hint += "; the pack has a tile at tile_row \(tile.y), the XYZ row: it seems to store XYZ rows where MBTiles stores TMS rows (2^z − 1 − y)"
            } else if let bounds = pack.metadata.bounds, !bounds.contains(latitude: place.latitude, longitude: place.longitude) {
                hint += "; the pack's bounds (\(bounds)) do not contain this point: is it a pack of another place?"
            } else {
                hint += "; add the missing tiles to the pack, or narrow the zooms (offlineZoom, or the pack's minzoom and maxzoom)"
            }
            report("the tile pack has no tile \(tile) (z/x/y in the XYZ scheme of web maps) for \(place.name)", hint: hint)
        }
    }
}

/// Example workspaces with a tour and an offline tile pack (`TourExample`'s walk in Florence).
enum TilePackExample {
    /// The points `TourExample` walks through (stops and route).
    static let walk: [(Double, Double)] = [(43.77, 11.25), (43.775, 11.25), (43.78, 11.25)]
    /// Stops of a walk in Rome, for a pack of the wrong city.
    static let rome: [(Double, Double)] = [(41.8923, 12.4709), (41.8857, 12.4739)]

    static func files(tiles: String = "↓tiles.mbtiles", offlineZoom: String? = nil) -> [String: String] {
        TourExample.files(languages: "[en]").mapValues {
            $0.replacingOccurrences(of: "route: route.gpx\n", with: "route: route.gpx\ntiles: \(tiles)\n" + (offlineZoom.map { "offlineZoom: \($0)\n" } ?? ""))
        }
    }

    static func media(_ pack: [UInt8]) -> [String: [UInt8]] {
        TourExample.media.merging(["example/tours/walk/tiles.mbtiles": pack]) { _, new in new }
    }

    /// The bytes of an MBTiles pack with a 1×1 PNG at each tile under `points` at each of `zooms`. Built in an
    /// in-memory SQLite database and serialised: rule descriptions (and so their examples) are made in every
    /// `livery` run, which should not write temporary files for them.
    static func pack(covering points: [(Double, Double)], zooms: [Int] = [14, 15], minZoom: Int = 14, maxZoom: Int = 15, format: String = "png") -> [UInt8] {
        do {
            let database = try SQLiteDatabase(path: ":memory:")
            try database.execute("CREATE TABLE metadata (name text, value text); CREATE UNIQUE INDEX name ON metadata (name)")
            try database.execute("CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob)")
            try database.execute("CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row)")
            let lats = points.map(\.0), lons = points.map(\.1)
            let bounds = "\(lons.min()! - 0.01),\(lats.min()! - 0.01),\(lons.max()! + 0.01),\(lats.max()! + 0.01)"
            try database.insert("INSERT INTO metadata VALUES (?, ?)", rows: [
                ("name", "Example"), ("format", format), ("minzoom", String(minZoom)), ("maxzoom", String(maxZoom)), ("bounds", bounds),
            ].map { [.text($0.0), .text($0.1)] })
            let tiles = Set(zooms.flatMap { zoom in points.compactMap { TileCoordinate(latitude: $0.0, longitude: $0.1, zoom: zoom) } })
            try database.insert("INSERT INTO tiles VALUES (?, ?, ?, ?)", rows: tiles.map {
                [.int(Int64($0.zoom)), .int(Int64($0.x)), .int(Int64($0.tmsRow)), .blob(RuleExample.pngBytes)]
            })
            return try database.serialized()
        } catch {
            return Array("cannot build the example pack: \(error)".utf8)
        }
    }
}
