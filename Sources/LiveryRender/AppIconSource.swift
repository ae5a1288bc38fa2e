import Foundation
import LiveryImage
import LiveryLoad
import LiveryMedia
import LiveryResolve

/// One declared icon image, read once and drawn at any square size: an SVG is rendered by librsvg at
/// the size asked for (sharp at every density), a PNG is decoded once and resized.
///
/// The bytes are read with a cap and the header checked before any decoder runs, so a hostile file
/// (a 30,000-pixel PNG in a few bytes, a 100 MB file) is refused without decoding it.
public final class AppIconSource: @unchecked Sendable {
    /// Why an image cannot be used, worded to follow its path ("'icon.png' …").
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        /// True when the header or size is at fault (other rules report those); false when decoding failed.
        public var isHeader: Bool
    }

    /// The largest icon file read (a 1024 × 1024 PNG is rarely above 2 MB).
    public static let maximumBytes = 16 << 20
    /// The most pixels an icon may declare (a 4096 × 4096 master is plenty).
    public static let maximumPixels = 4096 * 4096

    public let isSVG: Bool
    /// The size the header declares (PNG IHDR, SVG width/height or viewBox).
    public let width: Int
    public let height: Int
    let bytes: Data
    private var decoded: RasterImage?
    private let lock = NSLock()

    /// Reads and checks the image at `url`; throws when it cannot be read or its header is unusable.
    public init(url: URL, isSVG: Bool) throws {
        self.isSVG = isSVG
        guard let handle = try? FileHandle(forReadingFrom: url) else { throw Failure(description: "cannot be read", isHeader: true) }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: Self.maximumBytes + 1)) ?? Data()
        guard data.count <= Self.maximumBytes else {
            throw Failure(description: "is larger than \(Self.maximumBytes >> 20) MB", isHeader: true)
        }
        bytes = data
        let facts: ImageFacts?
        do {
            facts = try ImageProbe.probe(Array(data.prefix(ImageProbe.maximumScan)), as: isSVG ? .svg : .png)
        } catch {
            throw Failure(description: "is not a readable \(isSVG ? "SVG" : "PNG"): it \(error)", isHeader: true)
        }
        guard let facts else { throw Failure(description: "declares no size (give the svg element width and height, or a viewBox)", isHeader: true) }
        guard facts.pixels <= Self.maximumPixels else {
            throw Failure(description: "declares \(facts.width) × \(facts.height) pixels; an icon needs at most \(Self.maximumPixels / 1_000_000) megapixels", isHeader: true)
        }
        width = facts.width
        height = facts.height
    }

    /// The image decoded at its declared size (an SVG rendered at 1:1).
    public func natural() throws -> RasterImage {
        lock.lock()
        defer { lock.unlock() }
        if let decoded { return decoded }
        do {
            let image = try RasterImage.decode(bytes, as: isSVG ? .svg : .png)
            decoded = image
            return image
        } catch let failure as RasterImage.Failure {
            throw Failure(description: "cannot be decoded: \(failure.description)", isHeader: false)
        }
    }

    /// The image drawn at exactly `side` × `side` pixels.
    public func render(side: Int) throws -> RasterImage {
        do {
            if isSVG {
                let scale = Double(side) / Double(max(width, height))
                return try RasterImage.decode(bytes, as: .svg, scale: scale).resized(width: side, height: side)
            }
            return try natural().resized(width: side, height: side)
        } catch let failure as RasterImage.Failure {
            throw Failure(description: "cannot be decoded: \(failure.description)", isHeader: false)
        }
    }
}
