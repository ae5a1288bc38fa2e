import LiveryMedia
import XCTest

/// The XYZ tile maths (Web Mercator) that the tile-coverage rule and the content preview share.
final class TileCoordinateTests: XCTestCase {
    func testTileMathsAtTheEdgesOfTheMap() {
        XCTAssertEqual(TileCoordinate(latitude: 0, longitude: 0, zoom: 0), TileCoordinate(zoom: 0, x: 0, y: 0))
        XCTAssertEqual(TileCoordinate(latitude: 43.7731, longitude: 11.256, zoom: 14), TileCoordinate(zoom: 14, x: 8704, y: 5971))
        XCTAssertEqual(TileCoordinate(latitude: 90, longitude: 180, zoom: 3), TileCoordinate(zoom: 3, x: 7, y: 0), "clamped to the last column and first row")
        XCTAssertEqual(TileCoordinate(latitude: -90, longitude: -180, zoom: 3), TileCoordinate(zoom: 3, x: 0, y: 7))
        XCTAssertEqual(TileCoordinate(zoom: 3, x: 2, y: 1).tmsRow, 6)
        XCTAssertNil(TileCoordinate(latitude: .nan, longitude: 0, zoom: 3))
        XCTAssertNil(TileCoordinate(latitude: 0, longitude: 0, zoom: 31))
    }
}
