import Foundation
import LiveryAssets
import LiveryCheck
import LiveryDiagnostics
import LiveryLoad
import LiveryMedia
import LiveryWorkflow
import XCTest

/// The MBTiles reader and `content.tile-coverage` against an independent oracle (Fixtures/mbtiles/coverage_oracle.py:
/// Python's sqlite3 writes the packs, its own tile maths says what must be found), and hostile packs that must fail
/// clearly, quickly and without a crash.
final class MBTilesCoverageTests: XCTestCase {
    static let rule: RuleID = "content.tile-coverage"
    static let oracle = LiveryProcess.packageRoot.appendingPathComponent("Tests/LiveryTests/Fixtures/mbtiles/coverage_oracle.py").path

    private func oracle(_ mode: String, into folder: URL) throws -> Any {
        let result = try LiveryProcess.tool(["python3", Self.oracle, mode, folder.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    }

    /// A workspace with the minimal tenant; tours go under `tours`.
    private func workspace() throws -> (ExampleWorkspace, tours: URL) {
        let workspace = try ExampleWorkspace(RuleExample("tile packs"))
        return (workspace, workspace.tenants.appendingPathComponent("example/tours"))
    }

    private func addMedia(to tour: URL) throws {
        try Data(RuleExample.pngBytes).write(to: tour.appendingPathComponent("cover.png"))
        try Data([0x49, 0x44, 0x33, 0x04, 0, 0, 0, 0, 0, 0]).write(to: tour.appendingPathComponent("en.mp3"))
    }

    func testReaderAndRuleAgreeWithPythonOnGeneratedTours() throws {
        let (workspace, tours) = try workspace()
        let cases = try XCTUnwrap(try oracle("tours", into: tours) as? [[String: Any]])
        XCTAssertEqual(cases.count, 24)
        var probes = 0, findings = 0
        for item in cases {
            let name = try XCTUnwrap(item["case"] as? String)
            let folder = tours.appendingPathComponent(name)
            try addMedia(to: folder)
            // The reader: metadata as written, and every probe answered as the oracle's set of stored rows says.
            let pack = try MBTilesPack(path: folder.appendingPathComponent("tiles.mbtiles").path)
            let metadata = try XCTUnwrap(item["metadata"] as? [String: Any])
            let bounds = try XCTUnwrap(metadata["bounds"] as? [Double])
            let center = try XCTUnwrap(metadata["center"] as? [Double])
            XCTAssertEqual(pack.metadata, MBTilesMetadata(name: metadata["name"] as? String, format: "png", minZoom: metadata["minzoom"] as? Int, maxZoom: metadata["maxzoom"] as? Int,
                                                          bounds: TileBounds(west: bounds[0], south: bounds[1], east: bounds[2], north: bounds[3]),
                                                          center: MapCenter(longitude: center[0], latitude: center[1], zoom: Int(center[2]))), name)
            XCTAssertEqual(pack.sniffedFormat, .png, name)
            for probe in try XCTUnwrap(item["probes"] as? [[Any]]) {
                let tile = TileCoordinate(zoom: probe[0] as! Int, x: probe[1] as! Int, y: probe[2] as! Int)
                XCTAssertEqual(try pack.hasTile(tile), probe[3] as? Bool, "\(name) \(tile)")
                probes += 1
            }
        }
        // The rule, through the whole validator: one finding per tour and zoom with a gap, at the first missing tile.
        let started = Date()
        let found = workspace.validate().diagnostics.filter { $0.ruleID == Self.rule }
        let elapsed = Date().timeIntervalSince(started)
        for item in cases {
            let name = item["case"] as! String
            let file = "Tenants/example/tours/\(name)/tour.yaml"
            let mine = found.filter { $0.location.file == file }
            let expected = try XCTUnwrap(item["findings"] as? [[String: Any]])
            XCTAssertEqual(mine.count, expected.count, "\(name): \(mine.map(\.message))")
            for finding in expected {
                let (zoom, x, y) = (finding["zoom"] as! Int, finding["x"] as! Int, finding["y"] as! Int)
                let place = finding["place"] as! String
                let match = mine.first { $0.message.contains("no tile \(zoom)/\(x)/\(y) (z/x/y") }
                XCTAssertNotNil(match, "\(name): no finding for \(zoom)/\(x)/\(y) among \(mine.map(\.message))")
                guard let match else { continue }
                XCTAssertTrue(match.message.hasSuffix(place.hasPrefix("stop") ? "for \(place)" : "for the route point at Tenants/example/tours/\(name)/\(place)"), "\(name): \(match.message) ≠ \(place)")
                let needed = finding["needed"] as! Int
                XCTAssertTrue(match.hint?.hasPrefix("\(finding["missing"] as! Int) of the \(needed) tile\(needed == 1 ? "" : "s") the tour needs at zoom \(zoom) ") == true,
                              "\(name): \(match.hint ?? "") ≠ \(finding)")
                XCTAssertEqual(match.location, SourceLocation(file: file, line: item["tilesLine"] as! Int, column: 8), name)
                if item["xyzRows"] as? Bool == true {
                    XCTAssertTrue(match.hint?.contains("it seems to store XYZ rows where MBTiles stores TMS rows") == true, "\(name): \(match.hint ?? "")")
                }
                findings += 1
            }
        }
        XCTAssertGreaterThan(findings, 20, "the corpus exercises gaps")
        print("MBTiles cross-check: \(cases.count) tours, \(probes) reader probes, \(findings) first-missing findings agree with Python; validate took \(String(format: "%.2f", elapsed)) s")
    }

    func testHostilePacksFailClearlyAndQuickly() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livery-mbtiles-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let made = try XCTUnwrap(try oracle("hostile", into: folder) as? [String: Any])
        func open(_ name: String) -> Result<MBTilesPack, MBTilesFailure> {
            Result { () throws(MBTilesFailure) in try MBTilesPack(path: folder.appendingPathComponent(name + ".mbtiles").path) }
        }
        func failure(_ name: String) -> MBTilesFailure? {
            if case .failure(let failure) = open(name) { return failure }
            return nil
        }
        XCTAssertEqual(failure("zip"), .notSQLite)
        XCTAssertEqual(failure("garbage"), .unreadable("file is not a database"))
        XCTAssertEqual(failure("no-tiles-table"), .missingTable("has no tiles table"))
        XCTAssertEqual(failure("no-metadata-table"), .missingTable("has no metadata table"))
        XCTAssertEqual(failure("tiles-without-row"), .missingTable("has a tiles table without MBTiles' columns (zoom_level, tile_column, tile_row, tile_data): no such column: tile_row"))
        XCTAssertEqual(failure("minzoom-abc"), .badMetadata(name: "minzoom", value: "abc", expected: "a zoom level 0–30"))
        XCTAssertEqual(failure("bounds-three"), .badMetadata(name: "bounds", value: "11.2,43.7,11.3",
                                                             expected: "west,south,east,north in degrees (longitudes −180…180, latitudes −90…90, south ≤ north)"))
        XCTAssertEqual(failure("missing"), .unreadable("cannot open the file"))
        // A `tiles` view that recurses without end: stopped by the step budget, in well under a second.
        let started = Date()
        XCTAssertEqual(failure("endless-view"), .unreadable("query stopped after 20000000 steps (the file is too costly to read)"))
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)

        // A pack claiming the whole world at zooms 0–22 (about 10^9 tiles at zoom 15 alone) costs one query per tile
        // the tour needs, never a walk of what the bounds claim: exactly one finding, at zoom 22.
        let world = try open("world-claim").get()
        XCTAssertEqual(world.metadata.bounds, TileBounds(west: -180, south: -85.0511, east: 180, north: 85.0511))
        XCTAssertEqual(world.metadata.center, MapCenter(longitude: 11.256, latitude: 43.7731, zoom: 14))
        let (workspace, tours) = try workspace()
        let tour = tours.appendingPathComponent("walk")
        try FileManager.default.createDirectory(at: tour, withIntermediateDirectories: true)
        try addMedia(to: tour)
        try FileManager.default.copyItem(at: folder.appendingPathComponent("world-claim.mbtiles"), to: tour.appendingPathComponent("tiles.mbtiles"))
        try workspace.write("example/tours/walk/route.gpx", """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
            <trkpt lat="43.7731" lon="11.256"/><trkpt lat="43.7731" lon="11.256"/>
            </trkseg></trk></gpx>

            """)
        try workspace.write("example/tours/walk/tour.yaml", """
            id: walk
            slug: walk
            title: {en: Walk}
            city: Florence
            durationMinutes: 60
            distanceKm: 1
            languages: [en]
            cover: cover.png
            route: route.gpx
            tiles: tiles.mbtiles
            stops:
              - {id: duomo, order: 1, title: {en: Duomo}, latitude: 43.7731, longitude: 11.256, triggerRadius: 150, audio: {en: en.mp3}}

            """)
        let validated = Date()
        let found = workspace.validate().diagnostics.filter { $0.ruleID == Self.rule }
        XCTAssertLessThan(Date().timeIntervalSince(validated), 5)
        XCTAssertEqual(found.map(\.message), ["the tile pack has no tile \(made["worldClaimZoom22"] as! String) (z/x/y in the XYZ scheme of web maps) for stop 'duomo'"])
        XCTAssertTrue(found.first?.hint?.hasPrefix("1 of the 1 tile the tour needs at zoom 22 is missing") == true, found.first?.hint ?? "")

        // Each unreadable pack is one finding at the tour's tiles line; a file that is not SQLite is left to assets.file-type.
        for (name, message) in [("minzoom-abc", "it has metadata minzoom 'abc', which is not a zoom level 0–30"), ("no-tiles-table", "it has no tiles table"),
                                ("endless-view", "it cannot be read by SQLite: query stopped after 20000000 steps (the file is too costly to read)"),
                                ("zip", nil)] {
            try FileManager.default.removeItem(at: tour.appendingPathComponent("tiles.mbtiles"))
            try FileManager.default.copyItem(at: folder.appendingPathComponent(name + ".mbtiles"), to: tour.appendingPathComponent("tiles.mbtiles"))
            let result = workspace.validate().diagnostics
            let mine = result.filter { $0.ruleID == Self.rule }
            XCTAssertEqual(mine.map(\.message), message.map { ["'Tenants/example/tours/walk/tiles.mbtiles' is not a readable MBTiles pack: \($0)"] } ?? [], name)
            XCTAssertEqual(mine.first.map(\.location), message.map { _ in SourceLocation(file: "Tenants/example/tours/walk/tour.yaml", line: 10, column: 8) }, name)
            if message == nil { XCTAssertTrue(result.contains { $0.ruleID == "assets.file-type" }, name) }
        }
    }

    func testOpeningNeverWritesToOrBesideThePack() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livery-mbtiles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A pack left in WAL mode, the case where an ordinary read-only open would create -wal and -shm files.
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1]); db.execute("PRAGMA journal_mode=WAL")
            db.executescript("CREATE TABLE metadata (name text, value text); INSERT INTO metadata VALUES ('format', 'png'), ('minzoom', '1'), ('maxzoom', '1');"
                             "CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob);")
            db.execute("INSERT INTO tiles VALUES (1, 0, 1, x'89504e470d0a1a0a')"); db.commit(); db.close()
            """
        let path = folder.appendingPathComponent("odd #name?.mbtiles").path
        XCTAssertEqual(try LiveryProcess.tool(["python3", "-c", script, path]).status, 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let modified = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        do {
            let pack = try MBTilesPack(path: path)
            XCTAssertEqual(pack.metadata.minZoom, 1)
            XCTAssertEqual(pack.sniffedFormat, .png)
            XCTAssertTrue(try pack.hasTile(TileCoordinate(zoom: 1, x: 0, y: 0)), "XYZ row 0 is TMS row 1 at zoom 1")
            XCTAssertFalse(try pack.hasTile(TileCoordinate(zoom: 1, x: 0, y: 1)))
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["odd #name?.mbtiles"], "no journal, WAL or shm file while open")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["odd #name?.mbtiles"])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date, modified)
    }

    /// Each triggering example of the rule fails for the reason its note gives, not for another.
    func testRuleExamplesFailForTheirOwnReason() throws {
        let description = try XCTUnwrap(RuleSet.all.descriptions.first { $0.id == Self.rule })
        let expected = [
            "a pack of another city": ["no tile 14/", "no tile 15/"],
            "a pack missing zoom 15": ["no tile 15/"],
            "PNG tiles in a pack that says jpg": ["the tile pack's metadata says format 'jpg', but its tiles are png"],
            "offline zooms the pack does not have": ["offlineZoom.min is 12, outside the zooms the tile pack has (14–15"],
            "offline zooms in the wrong order": ["offlineZoom.min (15) is above offlineZoom.max (14)"],
            "a pack whose metadata has no minzoom": ["the tile pack's metadata has no minzoom"],
            "a pack without tiles": ["holds no tiles"],
            "a pack whose metadata names no format": ["the tile pack's metadata has no format"],
            "a pack of GIF tiles": ["the tile pack's metadata format 'gif' is not one apps draw"],
            "a pack whose tiles are not images": ["the tile pack's first tile is not PNG, JPEG, WebP or vector tile (pbf) data"],
            "an SQLite file without the MBTiles tiles table": ["is not a readable MBTiles pack"],
        ]
        for example in description.triggering {
            let found = try ExampleWorkspace(example).validate().diagnostics.filter { $0.ruleID == Self.rule }
            let wanted = try XCTUnwrap(expected[example.note], example.note)
            XCTAssertEqual(found.count, wanted.count, "\(example.note): \(found.map(\.message))")
            for (finding, text) in zip(found, wanted) { XCTAssertTrue(finding.message.contains(text), "\(example.note): \(finding.message)") }
            if example.note == "a pack of another city" { XCTAssertTrue(found.allSatisfy { $0.hint?.contains("is it a pack of another place?") == true }) }
        }
    }
}
