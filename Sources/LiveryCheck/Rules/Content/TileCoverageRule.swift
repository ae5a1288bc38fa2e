import Foundation
import LiveryMedia
import LiverySQLite
import LiveryDiagnostics
import LiveryLoad

struct TileCoverageRule: Rule {
    static let description = RuleDescription(
        id: "content.tile-coverage", name: "Offline map coverage", family: .content,
        rationale: "A tour's MBTiles pack opens, names its tile format and zoom range truthfully, and has a tile under every stop and route point "
            + "at every zoom the app shows offline (offlineZoom, by default the pack's minzoom to maxzoom), or the offline map is blank where the walker stands.",
        messages: [declare(Message.unreadable), declare(Message.noZoom), declare(Message.empty), declare(Message.noFormat), declare(Message.unknownFormat), declare(Message.unknownTileData), declare(Message.formatMismatch), declare(Message.zoomsSwapped), declare(Message.zoomOutsidePack), declare(Message.missingTile)],
        triggering: [
            RuleExample("a pack of another city", files: TilePackExample.files(), binaryFiles: TilePackExample.media(TilePackExample.pack(covering: TilePackExample.rome))),
            RuleExample("a pack missing zoom 15", files: TilePackExample.files(),
                        binaryFiles: TilePackExample.media(TilePackExample.pack(covering: TilePackExample.walk, zooms: [14], minZoom: 14, maxZoom: 15))),
            RuleExample("PNG tiles in a pack that says jpg", files: TilePackExample.files(),
                        binaryFiles: TilePackExample.media(TilePackExample.pack(covering: TilePackExample.walk, format: "jpg"))),
            RuleExample("offline zooms the pack does not have", files: TilePackExample.files(tiles: "tiles.mbtiles", offlineZoom: "{min: ↓12, max: 15}"),
                        binaryFiles: TilePackExample.media(TilePackExample.pack(covering: TilePackExample.walk))),
            RuleExample("offline zooms in the wrong order", files: TilePackExample.files(tiles: "tiles.mbtiles", offlineZoom: "{min: ↓15, max: 14}"),
                        binaryFiles: TilePackExample.media(TilePackExample.pack(covering: TilePackExample.walk))),
            RuleExample("a pack whose metadata has no minzoom", files: TilePackExample.files(),
                        binaryFiles: TilePackExample.media(TilePackExample.pack(covering: TilePackExample.walk, minZoom: nil))),
            RuleExample("a pack without tiles", files: TilePackExample.files(), binaryFiles: TilePackExample.media(TilePackExample.pack(covering: []))),
            RuleExample("a pack whose metadata names no format", files: TilePackExample.files(),
                        binaryFiles: TilePackExample.media(TilePackExample.pack(covering: TilePackExample.walk, format: nil))),
            RuleExample("a pack of GIF tiles", files: TilePackExample.files(),
                        binaryFiles: TilePackExample.media(TilePackExample.pack(covering: TilePackExample.walk, format: "gif"))),
            RuleExample("a pack whose tiles are not images", files: TilePackExample.files(),
                        binaryFiles: TilePackExample.media(TilePackExample.pack(covering: TilePackExample.walk, tileData: Array("not a tile".utf8)))),
            RuleExample("an SQLite file without the MBTiles tiles table", files: TilePackExample.files(),
                        binaryFiles: TilePackExample.media(TilePackExample.pack(covering: TilePackExample.walk, tilesTable: false))),
        ],
        nonTriggering: [RuleExample("a pack covering the walk at zooms 14 and 15", files: TilePackExample.files(tiles: "tiles.mbtiles", offlineZoom: "{min: 14, max: 15}"),
                                    binaryFiles: TilePackExample.media(TilePackExample.pack(covering: TilePackExample.walk)))])

    enum Message {
        static func unreadable(pack: String, error: String) -> DiagnosticMessage {
            DiagnosticMessage("unreadable", "'\(pack)' is not a readable MBTiles pack: it \(error)")
        }
        static func noZoom(name: String) -> DiagnosticMessage {
            DiagnosticMessage("no-zoom", "the tile pack's metadata has no \(name)")
        }
        static func empty(pack: String) -> DiagnosticMessage {
            DiagnosticMessage("empty", "the tile pack '\(pack)' holds no tiles")
        }
        static func noFormat() -> DiagnosticMessage {
            DiagnosticMessage("no-format", "the tile pack's metadata has no format")
        }
        static func unknownFormat(format: String) -> DiagnosticMessage {
            DiagnosticMessage("unknown-format", "the tile pack's metadata format '\(format)' is not one apps draw")
        }
        static func unknownTileData() -> DiagnosticMessage {
            DiagnosticMessage("unknown-tile-data", "the tile pack's first tile is not PNG, JPEG, WebP or vector tile (pbf) data")
        }
        static func formatMismatch(declared: String, actual: String) -> DiagnosticMessage {
            DiagnosticMessage("format-mismatch", "the tile pack's metadata says format '\(declared)', but its tiles are \(actual)")
        }
        static func zoomsSwapped(low: Int, high: Int) -> DiagnosticMessage {
            DiagnosticMessage("zooms-swapped", "offlineZoom.min (\(low)) is above offlineZoom.max (\(high))")
        }
        static func zoomOutsidePack(end: String, zoom: Int, packMin: Int, packMax: Int) -> DiagnosticMessage {
            DiagnosticMessage("zoom-outside-pack", "offlineZoom.\(end) is \(zoom), outside the zooms the tile pack has (\(packMin)–\(packMax), its metadata minzoom and maxzoom)")
        }
        static func missingTile(tile: String, place: String) -> DiagnosticMessage {
            DiagnosticMessage("missing-tile", "the tile pack has no tile \(tile) (z/x/y in the XYZ scheme of web maps) for \(place)")
        }
    }

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

    private mutating func report(_ message: DiagnosticMessage, at location: SourceLocation? = nil, hint: String? = nil, related: [RelatedLocation] = []) {
        diagnostics.append(Diagnostic(.error, message, at: location ?? tilesNode.location, rule: TileCoverageRule.description.id, hint: hint, related: related))
    }

    mutating func run(url: URL, route: TourRoute?) {
        let pack: MBTilesPack
        do {
            pack = try MBTilesPack(path: url.path)
        } catch MBTilesFailure.notSQLite {
            return  // assets.file-type reports a .mbtiles file that is not SQLite
        } catch {
            report(TileCoverageRule.Message.unreadable(pack: display, error: "\(error)"), hint: "export the tile pack again as MBTiles 1.3")
            return
        }
        let metadata = pack.metadata
        checkFormat(pack)
        for (name, value) in [("minzoom", metadata.minZoom), ("maxzoom", metadata.maxZoom)] where value == nil {
            report(TileCoverageRule.Message.noZoom(name: name), hint: "apps learn the pack's zoom range from its minzoom and maxzoom metadata rows; add both")
        }
        guard pack.firstTileHead != nil else {
            report(TileCoverageRule.Message.empty(pack: display), hint: "export the pack again with the tiles of the tour's area")
            return
        }
        guard let zooms = offlineZooms(metadata) else { return }
        checkCoverage(pack, zooms: zooms, route: route)
    }

    private mutating func checkFormat(_ pack: MBTilesPack) {
        guard let declared = pack.metadata.format else {
            report(TileCoverageRule.Message.noFormat(), hint: "add a format row naming the tiles' format: png, jpg, webp or pbf")
            return
        }
        guard let format = TileFormat(metadata: declared) else {
            report(TileCoverageRule.Message.unknownFormat(format: declared), hint: "MBTiles formats are png, jpg, webp and pbf")
            return
        }
        guard let head = pack.firstTileHead else { return }
        guard let sniffed = TileFormat.sniff(head) else {
            report(TileCoverageRule.Message.unknownTileData(), hint: "export the pack again")
            return
        }
        if sniffed != format {
            report(TileCoverageRule.Message.formatMismatch(declared: declared, actual: sniffed.rawValue),
                   hint: "set the metadata format to \(sniffed.rawValue), or export the tiles as \(format.rawValue)")
        }
    }

    /// The zooms to check: `offlineZoom`, each end defaulting to the pack's own, within the pack's range. Nil when
    /// the range is unknown or reported as wrong.
    private mutating func offlineZooms(_ metadata: MBTilesMetadata) -> ClosedRange<Int>? {
        let declared = tour.node["offlineZoom"]
        let minNode = declared?["min"], maxNode = declared?["max"]
        if let low = minNode?.int, let high = maxNode?.int, low > high {
            report(TileCoverageRule.Message.zoomsSwapped(low: low, high: high), at: minNode!.location, hint: "swap them")
            return nil
        }
        var valid = true
        for (node, end) in [(minNode, "min"), (maxNode, "max")] {
            guard let node, let zoom = node.int, let packMin = metadata.minZoom, let packMax = metadata.maxZoom, !(packMin...packMax).contains(zoom) else { continue }
            valid = false
            report(TileCoverageRule.Message.zoomOutsidePack(end: end, zoom: zoom, packMin: packMin, packMax: packMax), at: node.location,
                   hint: "set offlineZoom within \(packMin)–\(packMax), or add zoom \(zoom) to the pack")
        }
        guard valid, let low = minNode?.int ?? metadata.minZoom, let high = maxNode?.int ?? metadata.maxZoom, low <= high else { return nil }
        return low...high
    }

    /// A place the offline map must show: a stop or a route point.
    private struct Place {
        var latitude: Double, longitude: Double
        var name: String
        /// Where a stop's latitude is written: a finding about the stop names it, so that one that follows from a
        /// latitude out of range is folded into that finding (`RootCause`).
        var location: SourceLocation?
    }

    private mutating func checkCoverage(_ pack: MBTilesPack, zooms: ClosedRange<Int>, route: TourRoute?) {
        var places: [Place] = []
        for stop in tour.node["stops"]?.items ?? [] {
            guard let lat = stop["latitude"]?.number, let lon = stop["longitude"]?.number else { continue }
            places.append(Place(latitude: lat, longitude: lon, name: "stop '\(stop["id"]?.string ?? "")'", location: stop["latitude"]?.location))
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
                        report(TileCoverageRule.Message.unreadable(pack: display, error: "\(error)"), hint: "export the tile pack again as MBTiles 1.3")
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
            report(TileCoverageRule.Message.missingTile(tile: "\(tile)", place: place.name), hint: hint,
                   related: place.location.map { [RelatedLocation("\(place.name) is here", at: $0)] } ?? [])
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
    static func pack(covering points: [(Double, Double)], zooms: [Int] = [14, 15], minZoom: Int? = 14, maxZoom: Int = 15, format: String? = "png",
                     tileData: [UInt8] = RuleExample.pngBytes, tilesTable: Bool = true) -> [UInt8] {
        do {
            let database = try SQLiteDatabase(path: ":memory:")
            try database.execute("CREATE TABLE metadata (name text, value text); CREATE UNIQUE INDEX name ON metadata (name)")
            guard tilesTable else { return try database.serialized() }
            try database.execute("CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob)")
            try database.execute("CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row)")
            let lats = points.map(\.0), lons = points.map(\.1)
            var rows = [("name", "Example"), ("maxzoom", String(maxZoom))]
            if let format { rows.append(("format", format)) }
            if let minZoom { rows.append(("minzoom", String(minZoom))) }
            if let south = lats.min(), let north = lats.max(), let west = lons.min(), let east = lons.max() {
                rows.append(("bounds", "\(west - 0.01),\(south - 0.01),\(east + 0.01),\(north + 0.01)"))
            }
            try database.insert("INSERT INTO metadata VALUES (?, ?)", rows: rows.map { [.text($0.0), .text($0.1)] })
            let tiles = Set(zooms.flatMap { zoom in points.compactMap { TileCoordinate(latitude: $0.0, longitude: $0.1, zoom: zoom) } })
            try database.insert("INSERT INTO tiles VALUES (?, ?, ?, ?)", rows: tiles.map {
                [.int(Int64($0.zoom)), .int(Int64($0.x)), .int(Int64($0.tmsRow)), .blob(tileData)]
            })
            return try database.serialized()
        } catch {
            return Array("cannot build the example pack: \(error)".utf8)
        }
    }
}
