import Foundation
import LiveryLoad
import LiveryXML

/// What an image file's header says about it: its pixel size and whether it can be transparent.
public struct ImageFacts: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// Whether the format and header allow transparency (PNG colour types 4 and 6 or a `tRNS`
    /// chunk, WebP's alpha flag); false for JPEG; nil for SVG.
    public var hasAlpha: Bool?

    public init(width: Int, height: Int, hasAlpha: Bool?) {
        self.width = width
        self.height = height
        self.hasAlpha = hasAlpha
    }

    public var pixels: Int { width * height }
    public var shortSide: Int { min(width, height) }
}

/// Reads an image's dimensions from its header, never decoding pixels: PNG (`IHDR`), JPEG (the
/// first frame header, `SOF0`–`SOF15`), WebP (`VP8 `, `VP8L`, `VP8X`), GIF (the logical screen) and SVG (`width`/`height`,
/// else `viewBox`). Bounded: at most `maximumScan` bytes are read, whatever the file claims, so a
/// hostile file costs no more than a normal one. Hand-written because what is needed is a few
/// header fields before any decoder runs (the point is to refuse decompression bombs before one
/// does); Debian's libvips or ImageMagick would decode or map the whole file to answer the same.
public enum ImageProbe {
    public typealias Failure = ProbeFailure

    /// The most bytes read from one file: enough for JPEG headers behind large EXIF and ICC segments.
    public static let maximumScan = 1 << 20
    /// The largest side any format here can declare (JPEG: 65,535; WebP VP8X: 16,777,216).
    static let maximumSide = 1 << 24

    /// The facts of the image at `url`, read as `type` (`.success(nil)`: an SVG that declares no
    /// size, which is fine for a vector image); nil for a type that is not an image. `head` is the
    /// file's first bytes when the caller has read them already (to sniff its type): most headers
    /// are in the first few KiB, and the file is read again, up to `maximumScan`, only when they are not.
    public static func probe(fileAt url: URL, as type: FileType, head: [UInt8]? = nil) -> Result<ImageFacts?, Failure>? {
        guard FileType.images.contains(type) else { return nil }
        if let head, let facts = try? probe(head, as: type) { return .success(facts) }
        guard let handle = try? FileHandle(forReadingFrom: url) else { return .failure(Failure("cannot be read")) }
        defer { try? handle.close() }
        let bytes = Array((try? handle.read(upToCount: maximumScan)) ?? Data())
        return Result { try probe(bytes, as: type) }.mapError { $0 as? Failure ?? Failure("\($0)") }
    }

    /// The facts of an image whose first bytes (up to `maximumScan`) are `bytes`; nil for an SVG
    /// without a size.
    public static func probe(_ bytes: [UInt8], as type: FileType) throws -> ImageFacts? {
        let facts: ImageFacts
        switch type {
        case .png: facts = try png(bytes)
        case .jpeg: facts = try jpeg(bytes)
        case .webp: facts = try webp(bytes)
        case .gif: facts = try gif(bytes)
        case .svg:
            guard let declared = try svg(bytes) else { return nil }
            facts = declared
        default: throw Failure("not an image type")
        }
        guard facts.width > 0, facts.height > 0 else { throw Failure("declares a size of \(facts.width) × \(facts.height) pixels") }
        guard facts.width <= maximumSide, facts.height <= maximumSide else { throw Failure("declares a side longer than \(maximumSide) pixels") }
        return facts
    }

    static func bigEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int {
        var value = 0
        for i in 0..<count { value = value << 8 | Int(bytes[offset + i]) }
        return value
    }

    static func littleEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int {
        var value = 0
        for i in (0..<count).reversed() { value = value << 8 | Int(bytes[offset + i]) }
        return value
    }

    // MARK: PNG

    static func png(_ b: [UInt8]) throws -> ImageFacts {
        guard b.count >= 33, b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { throw Failure("is too short for a PNG header") }
        guard bigEndian(b, 8, 4) == 13, Array(b[12..<16]) == Array("IHDR".utf8) else { throw Failure("does not start with an IHDR chunk", offset: 8) }
        let width = bigEndian(b, 16, 4), height = bigEndian(b, 20, 4)
        let colorType = b[25]
        guard [0, 2, 3, 4, 6].contains(colorType) else { throw Failure("has PNG colour type \(colorType), which does not exist", offset: 25) }
        var alpha = colorType == 4 || colorType == 6
        // A tRNS chunk before the image data makes a palette or grey/RGB image transparent.
        var offset = 33
        while !alpha, offset + 8 <= b.count {
            let length = bigEndian(b, offset, 4)
            let name = String(decoding: b[(offset + 4)..<(offset + 8)], as: UTF8.self)
            if name == "tRNS" { alpha = true }
            if name == "IDAT" || name == "IEND" || length > b.count { break }
            offset += 12 + length
        }
        return ImageFacts(width: width, height: height, hasAlpha: alpha)
    }

    // MARK: JPEG

    static func jpeg(_ b: [UInt8]) throws -> ImageFacts {
        guard b.count >= 4, b[0] == 0xFF, b[1] == 0xD8 else { throw Failure("does not start with a JPEG start-of-image marker") }
        var offset = 2
        while offset + 4 <= b.count {
            guard b[offset] == 0xFF else { throw Failure("has no JPEG marker where a segment should start", offset: offset) }
            let marker = b[offset + 1]
            if marker == 0xFF { offset += 1; continue }  // fill byte
            if (0xD0...0xD7).contains(marker) || marker == 0x01 { offset += 2; continue }  // no length
            if marker == 0xD9 { throw Failure("ends before any frame header", offset: offset) }
            let length = bigEndian(b, offset + 2, 2)
            guard length >= 2 else { throw Failure("has a JPEG segment of length \(length)", offset: offset + 2) }
            // SOF0–SOF15, except DHT (C4), JPG (C8) and DAC (CC).
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard offset + 9 <= b.count, length >= 8 else { throw Failure("has a frame header cut short", offset: offset) }
                let height = bigEndian(b, offset + 5, 2), width = bigEndian(b, offset + 7, 2)
                // A height of 0 means "given later, by a DNL segment": rare, and not a size a phone can plan for.
                guard height > 0 else { throw Failure("leaves its height to a DNL marker after the scan", offset: offset + 5) }
                return ImageFacts(width: width, height: height, hasAlpha: false)
            }
            if marker == 0xDA { throw Failure("starts its image data before any frame header", offset: offset) }
            offset += 2 + length
        }
        throw Failure(b.count >= maximumScan ? "has no frame header in its first \(maximumScan / 1024) KiB" : "ends before any frame header", offset: min(offset, b.count))
    }

    // MARK: WebP

    /// GIF: the logical screen size (little-endian, bytes 6–9); transparency from a graphic control
    /// extension with its transparent-colour flag, among the blocks before the first image.
    static func gif(_ b: [UInt8]) throws -> ImageFacts {
        guard b.count >= 13, b.starts(with: Array("GIF87a".utf8)) || b.starts(with: Array("GIF89a".utf8)) else { throw Failure("is too short for a GIF header") }
        let width = Int(b[6]) | Int(b[7]) << 8, height = Int(b[8]) | Int(b[9]) << 8
        var offset = 13
        if b[10] & 0x80 != 0 { offset += 3 << (Int(b[10] & 0x07) + 1) }
        var alpha = false
        scan: while offset < b.count {
            switch b[offset] {
            case 0x21:
                guard offset + 2 < b.count else { throw Failure("has an extension block cut short", offset: offset) }
                if b[offset + 1] == 0xF9, offset + 3 < b.count, b[offset + 2] >= 4, b[offset + 3] & 0x01 != 0 { alpha = true }
                offset += 2
                // Sub-blocks: a length byte and that many bytes, until a zero length.
                while true {
                    guard offset < b.count else { throw Failure("has an extension block cut short", offset: offset) }
                    let length = Int(b[offset])
                    offset += 1 + length
                    if length == 0 { break }
                }
            case 0x2C, 0x3B:
                break scan
            default:
                throw Failure("has a block of unknown type 0x\(String(b[offset], radix: 16))", offset: offset)
            }
        }
        return ImageFacts(width: width, height: height, hasAlpha: alpha)
    }

    static func webp(_ b: [UInt8]) throws -> ImageFacts {
        guard b.count >= 30, Array(b[0..<4]) == Array("RIFF".utf8), Array(b[8..<12]) == Array("WEBP".utf8) else { throw Failure("is too short for a WebP header") }
        let chunk = String(decoding: b[12..<16], as: UTF8.self)
        switch chunk {
        case "VP8 ":
            // The key frame's tag (3 bytes), start code 9D 01 2A, then 14-bit width and height.
            guard b[23] == 0x9D, b[24] == 0x01, b[25] == 0x2A else { throw Failure("has a VP8 frame without its start code", offset: 23) }
            guard b[20] & 1 == 0 else { throw Failure("starts with a VP8 frame that is not a key frame", offset: 20) }
            return ImageFacts(width: littleEndian(b, 26, 2) & 0x3FFF, height: littleEndian(b, 28, 2) & 0x3FFF, hasAlpha: false)
        case "VP8L":
            guard b[20] == 0x2F else { throw Failure("has a VP8L stream without its signature", offset: 20) }
            let bits = littleEndian(b, 21, 4)
            return ImageFacts(width: (bits & 0x3FFF) + 1, height: ((bits >> 14) & 0x3FFF) + 1, hasAlpha: (bits >> 28) & 1 == 1)
        case "VP8X":
            return ImageFacts(width: littleEndian(b, 24, 3) + 1, height: littleEndian(b, 27, 3) + 1, hasAlpha: b[20] & 0x10 != 0)
        default:
            throw Failure("has a first WebP chunk '\(chunk.filter { $0.isASCII && !$0.isWhitespace })', not VP8, VP8L or VP8X", offset: 12)
        }
    }

    // MARK: SVG

    /// The SVG's size in CSS pixels: `width` and `height` when they are plain numbers or `px`,
    /// otherwise the `viewBox`'s; nil when it declares neither (it scales to whatever it is drawn in).
    static func svg(_ b: [UInt8]) throws -> ImageFacts? {
        guard case .success(let root) = XMLTree.parse(b, file: "image.svg"), root.name == "svg" else { throw Failure("is not an SVG document") }
        func pixels(_ text: String?) -> Double? {
            guard var text = text?.trimmingCharacters(in: .whitespaces) else { return nil }
            if text.hasSuffix("px") { text.removeLast(2) }
            return Double(text).flatMap { $0.isFinite && $0 > 0 && $0 <= Double(maximumSide) ? $0 : nil }
        }
        if let width = pixels(root.attribute("width")), let height = pixels(root.attribute("height")) {
            return ImageFacts(width: Int(width.rounded(.up)), height: Int(height.rounded(.up)), hasAlpha: nil)
        }
        let box = (root.attribute("viewBox") ?? "").split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { Double($0) }
        guard !box.isEmpty || root.attribute("viewBox") != nil else { return nil }
        guard box.count == 4, box[2] > 0, box[3] > 0, box[2] <= Double(maximumSide), box[3] <= Double(maximumSide) else {
            throw Failure("has a viewBox that is not four numbers with a positive width and height")
        }
        return ImageFacts(width: Int(box[2].rounded(.up)), height: Int(box[3].rounded(.up)), hasAlpha: nil)
    }
}
