import Foundation
import LiveryLoad
import LiveryMedia
import LiveryTestSupport
import XCTest

/// The image probe against Pillow (an independent reader) on a generated corpus: every format and
/// variant a creator's tools write, and hostile headers that must be refused without a crash.
final class ImageProbeTests: XCTestCase {
    func testDimensionsAndTransparencyAgreeWithPillow() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livery-images-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Pillow writes the corpus and says what each file is: name, width, height, whether it has alpha.
        let script = """
            import os, sys, json
            from PIL import Image
            out = sys.argv[1]
            cases = []
            def save(name, image, **options):
                image.save(os.path.join(out, name), **options)
                back = Image.open(os.path.join(out, name))
                alpha = back.mode in ("RGBA", "LA", "PA") or "transparency" in back.info
                cases.append({"name": name, "width": back.size[0], "height": back.size[1], "alpha": alpha})
            save("rgb.png", Image.new("RGB", (1024, 768), (200, 10, 10)))
            save("rgba.png", Image.new("RGBA", (513, 1025), (0, 0, 0, 0)))
            save("grey.png", Image.new("L", (1, 1)))
            palette = Image.new("P", (300, 200)); palette.info["transparency"] = 0
            save("palette-transparent.png", palette, transparency=0)
            save("palette.png", Image.new("P", (300, 200)))
            save("baseline.jpg", Image.new("RGB", (4000, 3000)), quality=80)
            save("progressive.jpg", Image.new("RGB", (641, 479)), progressive=True)
            exif = Image.Exif(); exif[0x010E] = "x" * 60000
            save("exif.jpg", Image.new("RGB", (123, 45)), exif=exif.tobytes())
            save("grey.jpg", Image.new("L", (17, 9)))
            save("lossy.webp", Image.new("RGB", (1600, 900)), quality=50)
            save("lossless.webp", Image.new("RGB", (333, 222)), lossless=True)
            save("alpha-lossless.webp", Image.new("RGBA", (16383, 2), (0, 0, 0, 0)), lossless=True)
            save("alpha-lossy.webp", Image.new("RGBA", (64, 48), (0, 0, 0, 10)), quality=50)
            save("plain.gif", Image.new("P", (320, 240)))
            save("transparent.gif", Image.new("P", (77, 1033)), transparency=0)
            frames = [Image.new("P", (40, 30), i) for i in range(3)]
            frames[0].save(os.path.join(out, "animated.gif"), save_all=True, append_images=frames[1:], duration=100, loop=0, transparency=2)
            back = Image.open(os.path.join(out, "animated.gif"))
            cases.append({"name": "animated.gif", "width": 40, "height": 30, "alpha": "transparency" in back.info})
            print(json.dumps(cases))
            """
        let result = try LiveryProcess.tool(["python3", "-c", script, folder.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let cases = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(cases.count, 16)
        for item in cases {
            let name = try XCTUnwrap(item["name"] as? String)
            let url = folder.appendingPathComponent(name)
            let type = try XCTUnwrap(FileSniffer.sniff(fileAt: url), name)
            let facts = try XCTUnwrap(try ImageProbe.probe(fileAt: url, as: type)?.get(), name)
            XCTAssertEqual(facts.width, item["width"] as? Int, name)
            XCTAssertEqual(facts.height, item["height"] as? Int, name)
            if type != .jpeg, let alpha = item["alpha"] as? Bool {
                // Pillow reports alpha from the decoded mode; the header flag is what the probe reads. Lossy
                // WebP with alpha is VP8X with the alpha flag, as is lossless with transparent pixels.
                XCTAssertEqual(facts.hasAlpha, alpha, name)
            } else {
                XCTAssertEqual(facts.hasAlpha, false, name)
            }
        }
    }

    func testSVGSizes() throws {
        func probe(_ svg: String) throws -> ImageFacts? { try ImageProbe.probe(Array(svg.utf8), as: .svg) }
        XCTAssertEqual(try probe(#"<svg xmlns="http://www.w3.org/2000/svg" width="512" height="256px"/>"#), ImageFacts(width: 512, height: 256, hasAlpha: nil))
        XCTAssertEqual(try probe(#"<svg xmlns="http://www.w3.org/2000/svg" width="100%" viewBox="0 0 48 24.5"/>"#), ImageFacts(width: 48, height: 25, hasAlpha: nil))
        XCTAssertNil(try probe(#"<svg xmlns="http://www.w3.org/2000/svg"/>"#), "no size: a vector image scales")
        XCTAssertThrowsError(try probe(#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 -1 5"/>"#))
        XCTAssertThrowsError(try probe(#"<svg xmlns="http://www.w3.org/2000/svg" width="1e300" height="1e300" viewBox="0 0 1e300 1e300"/>"#), "no trap on huge numbers")
    }

    func testHostileHeadersAreRefusedOrBoundedWithoutACrash() throws {
        // GIF: an extension block whose sub-blocks run past the end, and a block of no known type.
        let screen: [UInt8] = Array("GIF89a".utf8) + [0x40, 0x01, 0xF0, 0x00, 0x00, 0, 0]
        XCTAssertEqual((try? ImageProbe.probe(screen + [0x21, 0xF9, 0x04, 0x01], as: .gif)) ?? nil, nil)
        XCTAssertThrowsError(try ImageProbe.probe(screen + [0x21, 0xF9, 0x04, 0x01], as: .gif)) { error in
            XCTAssertEqual(error as? ProbeFailure, ProbeFailure("has an extension block cut short", offset: 20))
        }
        XCTAssertThrowsError(try ImageProbe.probe(screen + [0x99], as: .gif)) { error in
            XCTAssertEqual(error as? ProbeFailure, ProbeFailure("has a block of unknown type 0x99", offset: 13))
        }
        XCTAssertEqual(try ImageProbe.probe(screen + [0x2C], as: .gif), ImageFacts(width: 320, height: 240, hasAlpha: false))
        // JPEG: a segment length that runs past the end, a scan before any frame, a frame cut short.
        for bytes: [UInt8] in [[0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF, 0x00], [0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02], [0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08],
                               [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01], [0xFF, 0xD8, 0x00]] {
            XCTAssertThrowsError(try ImageProbe.probe(bytes, as: .jpeg), "\(bytes)")
        }
        // A JPEG whose height is left to a DNL marker, and one with many APP segments before its frame (bounded scan).
        XCTAssertThrowsError(try ImageProbe.probe([0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0x00, 0x00, 0x10, 0x03] + [UInt8](repeating: 0, count: 9), as: .jpeg))
        let padded: [UInt8] = [0xFF, 0xD8] + Array(repeating: [0xFF, 0xE2, 0xFF, 0xFF] + [UInt8](repeating: 0, count: 0xFFFD), count: 20).joined()
        XCTAssertThrowsError(try ImageProbe.probe(Array(padded.prefix(ImageProbe.maximumScan)), as: .jpeg)) { error in
            XCTAssertTrue("\(error)".contains("no frame header in its first 1024 KiB"), "\(error)")
        }
        // PNG with an impossible colour type, or a chunk that is not IHDR first; WebP with an unknown first chunk.
        var png = [UInt8](repeating: 0, count: 40)
        png.replaceSubrange(0..<8, with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        XCTAssertThrowsError(try ImageProbe.probe(png, as: .png))
        var webp = Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPJUNK".utf8) + [UInt8](repeating: 0, count: 20)
        XCTAssertThrowsError(try ImageProbe.probe(webp, as: .webp))
        webp.replaceSubrange(12..<16, with: Array("VP8 ".utf8))
        XCTAssertThrowsError(try ImageProbe.probe(webp, as: .webp), "no start code")
    }
}
