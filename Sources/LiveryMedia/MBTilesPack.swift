import Foundation
import LiverySQLite

/// The tile formats MBTiles 1.3 names, and how each is recognised from a tile's first bytes.
public enum TileFormat: String, Sendable, CaseIterable {
    case png, jpg, webp, pbf

    /// The format a `metadata` row names: one of MBTiles' four words, or the IETF media type of one of them.
    public init?(metadata value: String) {
        switch value.trimmingCharacters(in: .whitespaces).lowercased() {
        case "png", "image/png": self = .png
        case "jpg", "image/jpeg": self = .jpg
        case "webp", "image/webp": self = .webp
        case "pbf", "application/x-protobuf", "application/vnd.mapbox-vector-tile": self = .pbf
        default: return nil
        }
    }

    /// The media type a browser draws the tile as; nil for vector tiles, which need a style to draw.
    public var imageMediaType: String? {
        switch self {
        case .png: return "image/png"
        case .jpg: return "image/jpeg"
        case .webp: return "image/webp"
        case .pbf: return nil
        }
    }

    /// The format of a tile from its first bytes. A vector tile (pbf) is usually gzip-compressed (`1f 8b`), sometimes
    /// zlib (`78 01/5e/9c/da`), or raw protobuf, whose first field is a layer (field 3, length-delimited: `1a`).
    public static func sniff(_ bytes: [UInt8]) -> TileFormat? {
        func starts(_ prefix: [UInt8]) -> Bool { bytes.starts(with: prefix) }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpg }
        if bytes.count >= 12, starts(Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) { return .webp }
        if starts([0x1F, 0x8B]) || starts([0x1A]) { return .pbf }
        if bytes.count >= 2, bytes[0] == 0x78, [0x01, 0x5E, 0x9C, 0xDA].contains(bytes[1]) { return .pbf }
        return nil
    }
}

/// A pack's extent as its `bounds` row says: west, south, east, north in WGS 84 degrees.
public struct TileBounds: Sendable, Equatable, CustomStringConvertible {
    public var west: Double, south: Double, east: Double, north: Double

    public init(west: Double, south: Double, east: Double, north: Double) {
        (self.west, self.south, self.east, self.north) = (west, south, east, north)
    }

    /// Whether the point lies inside (a pack crossing longitude 180 has west > east).
    public func contains(latitude: Double, longitude: Double) -> Bool {
        guard (south...north).contains(latitude) else { return false }
        return west <= east ? (west...east).contains(longitude) : longitude >= west || longitude <= east
    }

    public var description: String { "\(west),\(south),\(east),\(north)" }
}

/// What an MBTiles pack's `metadata` table says about it. A row that is absent is nil; a row that is present
/// but malformed makes opening the pack fail, except `center`, which apps do not need and is nil when malformed.
public struct MBTilesMetadata: Sendable, Equatable {
    public var name: String?
    /// The `format` row as written.
    public var format: String?
    public var minZoom: Int?
    public var maxZoom: Int?
    public var bounds: TileBounds?
    /// The view an app opens on.
    public var center: MapCenter?

    public init(name: String? = nil, format: String? = nil, minZoom: Int? = nil, maxZoom: Int? = nil, bounds: TileBounds? = nil, center: MapCenter? = nil) {
        self.name = name
        self.format = format
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.bounds = bounds
        self.center = center
    }
}

/// A pack's `center` row: longitude, latitude and, when given, zoom.
public struct MapCenter: Sendable, Equatable {
    public var longitude: Double, latitude: Double, zoom: Int?

    public init(longitude: Double, latitude: Double, zoom: Int?) {
        (self.longitude, self.latitude, self.zoom) = (longitude, latitude, zoom)
    }
}

/// Why a file could not be read as an MBTiles pack; the description reads after "the file": "has no tiles table".
public enum MBTilesFailure: Error, Equatable, CustomStringConvertible {
    /// The file does not start with SQLite's header (the asset type check reports such a file).
    case notSQLite
    /// SQLite could not open or read it (corrupt, cut short, too costly to query).
    case unreadable(String)
    /// No `metadata` or `tiles` table or view, or one without MBTiles' columns.
    case missingTable(String)
    /// A `metadata` row that is present but malformed.
    case badMetadata(name: String, value: String, expected: String)

    public var description: String {
        switch self {
        case .notSQLite: return "is not an SQLite database"
        case .unreadable(let reason): return "cannot be read by SQLite: \(reason)"
        case .missingTable(let reason): return reason
        case .badMetadata(let name, let value, let expected): return "has metadata \(name) '\(value)', which is not \(expected)"
        }
    }
}

/// An MBTiles 1.3 pack (offline map tiles in SQLite), opened read-only: its metadata, the format of its tiles, and
/// whether it holds a given tile. Every question is one indexed query, whatever the pack's size: nothing here
/// counts or walks the tiles.
public final class MBTilesPack: @unchecked Sendable {
    public let metadata: MBTilesMetadata
    /// The first bytes of the first tile SQLite returns; nil when the pack holds no tiles.
    public let firstTileHead: [UInt8]?
    private let database: SQLiteDatabase

    /// The format sniffed from the first tile's bytes (nil for an empty pack or unknown bytes).
    public var sniffedFormat: TileFormat? { firstTileHead.flatMap(TileFormat.sniff) }

    public init(path: String) throws(MBTilesFailure) {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw .unreadable("cannot open the file") }
        let header = (try? handle.read(upToCount: 16)) ?? nil
        try? handle.close()
        guard let header, Array(header) == Array("SQLite format 3\0".utf8) else { throw .notSQLite }
        do {
            database = try SQLiteDatabase(readingOnly: path)
            let tables = try database.query("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name IN ('metadata', 'tiles')")
            let names = Set(tables.compactMap { $0.first?.text })
            for required in ["metadata", "tiles"] where !names.contains(required) {
                throw MBTilesFailure.missingTable("has no \(required) table")
            }
        } catch let failure as MBTilesFailure {
            throw failure
        } catch {
            throw .unreadable(Self.reason(error))
        }
        // A statement over missing columns fails to prepare; LIMIT 0 reads nothing.
        for (table, columns) in [("metadata", "name, value"), ("tiles", "zoom_level, tile_column, tile_row, tile_data")] {
            do { try database.query("SELECT \(columns) FROM \(table) LIMIT 0") } catch {
                throw .missingTable("has a \(table) table without MBTiles' columns (\(columns)): \(Self.reason(error))")
            }
        }
        do {
            // Only the rows Livery reads: a pack's metadata may also hold a large `json` row.
            let rows = try database.query("SELECT name, value FROM metadata WHERE name IN ('name', 'format', 'bounds', 'center', 'minzoom', 'maxzoom')")
            var values: [String: String] = [:]
            for row in rows where row.count == 2 {
                guard let name = row[0].text, values[name] == nil else { continue }
                switch row[1] {
                case .text(let text): values[name] = text
                case .int(let int): values[name] = String(int)
                case .blob(let bytes): values[name] = String(decoding: bytes, as: UTF8.self)
                case .null: continue
                }
            }
            metadata = try Self.parse(values)
            let first = try database.query("SELECT substr(CAST(tile_data AS BLOB), 1, 16) FROM tiles LIMIT 1")
            firstTileHead = first.first.map { $0.first?.blob ?? [] }
        } catch let failure as MBTilesFailure {
            throw failure
        } catch {
            throw .unreadable(Self.reason(error))
        }
    }

    /// Whether the pack holds the tile (XYZ; MBTiles stores TMS rows, converted here).
    public func hasTile(_ tile: TileCoordinate) throws(MBTilesFailure) -> Bool {
        do {
            let rows = try database.query("SELECT 1 FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ? LIMIT 1",
                                          [.int(Int64(tile.zoom)), .int(Int64(tile.x)), .int(Int64(tile.tmsRow))])
            return !rows.isEmpty
        } catch {
            throw .unreadable(Self.reason(error))
        }
    }

    /// The bytes of a tile (XYZ), or nil when the pack does not hold it.
    public func tile(_ tile: TileCoordinate) throws(MBTilesFailure) -> [UInt8]? {
        do {
            let rows = try database.query("SELECT CAST(tile_data AS BLOB) FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ? LIMIT 1",
                                          [.int(Int64(tile.zoom)), .int(Int64(tile.x)), .int(Int64(tile.tmsRow))])
            return rows.first.map { $0.first?.blob ?? [] }
        } catch {
            throw .unreadable(Self.reason(error))
        }
    }

    private static func reason(_ error: Error) -> String {
        // SQLite's message without the statement it came from: the creator did not write our SQL.
        let text = (error as? SQLiteDatabase.Failure)?.description ?? "\(error)"
        return text.components(separatedBy: " in: ").first ?? text
    }

    static func parse(_ values: [String: String]) throws(MBTilesFailure) -> MBTilesMetadata {
        func zoom(_ name: String) throws(MBTilesFailure) -> Int? {
            guard let text = values[name] else { return nil }
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            // Some writers store the zoom as a real ("14.0"); any other fraction is not a zoom.
            let value = Int(trimmed) ?? Double(trimmed).flatMap { $0.isFinite && $0 == $0.rounded() && abs($0) < 1e6 ? Int($0) : nil }
            guard let value, (0...TileCoordinate.maximumZoom).contains(value) else {
                throw .badMetadata(name: name, value: text, expected: "a zoom level 0–\(TileCoordinate.maximumZoom)")
            }
            return value
        }
        func numbers(_ text: String) -> [Double]? {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.allSatisfy({ $0?.isFinite == true }) else { return nil }
            return parts.map { $0! }
        }
        var metadata = MBTilesMetadata(name: values["name"], format: values["format"], minZoom: try zoom("minzoom"), maxZoom: try zoom("maxzoom"))
        if let min = metadata.minZoom, let max = metadata.maxZoom, min > max {
            throw .badMetadata(name: "minzoom", value: String(min), expected: "at most maxzoom (\(max))")
        }
        if let text = values["bounds"] {
            guard let n = numbers(text), n.count == 4, (-180...180).contains(n[0]), (-180...180).contains(n[2]),
                  (-90...90).contains(n[1]), (-90...90).contains(n[3]), n[1] <= n[3] else {
                throw .badMetadata(name: "bounds", value: text, expected: "west,south,east,north in degrees (longitudes −180…180, latitudes −90…90, south ≤ north)")
            }
            metadata.bounds = TileBounds(west: n[0], south: n[1], east: n[2], north: n[3])
        }
        if let text = values["center"], let n = numbers(text), n.count == 2 || n.count == 3 {
            metadata.center = MapCenter(longitude: n[0], latitude: n[1], zoom: n.count == 3 && n[2] == n[2].rounded() && abs(n[2]) < 1e6 ? Int(n[2]) : nil)
        }
        return metadata
    }
}
