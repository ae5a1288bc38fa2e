import LiveryLoad
import LiveryMedia
import XCTest

final class FileSnifferTests: XCTestCase {
    func testRecognisesEachTypeFromItsBytes() {
        let cases: [([UInt8], FileType)] = [
            (RuleExampleBytes.png, .png),
            ([0xFF, 0xD8, 0xFF, 0xE0], .jpeg),
            (Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8), .webp),
            ([0, 0, 0, 0x18] + Array("ftypmp42".utf8), .mp4),
            (Array("ID3\u{4}".utf8), .mp3),
            ([0xFF, 0xFB, 0x90, 0x64], .mp3),
            (Array("%PDF-1.4\n".utf8), .pdf),
            (Array("SQLite format 3\u{0}".utf8), .mbtiles),
            (Array("<?xml version=\"1.0\"?>\n<!-- logo -->\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8), .svg),
            (Array("<gpx version=\"1.1\"></gpx>".utf8), .gpx),
            (Array("WEBVTT\n\n00:00.000 --> 00:01.000\nHi\n".utf8), .vtt),
            (Array("1\n00:00:00,000 --> 00:00:01,500\nCiao\n".utf8), .srt),
            (Array("# Title\n\nText.\n".utf8), .markdown),
            (Array("wOF2".utf8), .woff2),
            (Array("OTTO".utf8), .otf),
        ]
        for (bytes, expected) in cases {
            XCTAssertEqual(FileSniffer.sniff(bytes), expected, "\(expected)")
        }
    }

    func testBinaryGarbageIsNoKnownType() {
        XCTAssertNil(FileSniffer.sniff([0x00, 0x13, 0x37, 0x00, 0xFE]))
        XCTAssertNil(FileSniffer.sniff(Array("<html><body/></html>".utf8)))
    }

    func testExtensionsMapToTypes() {
        XCTAssertEqual(FileType(extensionOf: "a/b/Cover.JPG"), .jpeg)
        XCTAssertEqual(FileType(extensionOf: "route.gpx"), .gpx)
        XCTAssertNil(FileType(extensionOf: "notes.txt"))
    }
}

enum RuleExampleBytes {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D]
}
