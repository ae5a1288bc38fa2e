import Foundation

/// A Windows icon file (`.ico`) holding PNG images, such as a site's `favicon.ico`.
///
/// Written by hand: libvips has no ICO writer, and no library in Debian writes ICO from Swift without
/// ImageMagick (a large dependency with a long record of decoder vulnerabilities, for 22 bytes of header).
/// Since Windows Vista an icon's image may be a complete PNG stream, so the container is only a directory
/// in front of PNGs that libvips made. The layout (ICONDIR and ICONDIRENTRY of Microsoft's "Icons"
/// technical article, John Hornick, MSDN 1995; all fields little-endian):
///
/// - header, 6 bytes: reserved (0), type (1: icon), image count;
/// - one 16-byte entry per image: width, height (1 byte each; 0 means 256), colour count (0: no palette),
///   reserved (0), colour planes (1), bits per pixel (32), the image's byte count, its offset from the start;
/// - the images, in entry order.
public enum IconContainer {
    /// An image that cannot go into an icon file.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The largest side an entry can state (256 is written as 0).
    public static let maximumSide = 256

    /// The `.ico` bytes holding `images`, in the order given, each as a PNG stream. Each image is square,
    /// at most 256 pixels, and has an alpha band (the entries say 32 bits per pixel, as the PNGs are).
    public static func ico(_ images: [RasterImage]) throws -> Data {
        guard !images.isEmpty, images.count <= Int(UInt16.max) else { throw Failure(description: "an icon file holds 1 to 65,535 images, not \(images.count)") }
        var pngs: [Data] = []
        for image in images {
            guard image.width == image.height, (1...maximumSide).contains(image.width) else {
                throw Failure(description: "an icon image is square and 1 to \(maximumSide) pixels wide, not \(image.width) × \(image.height)")
            }
            guard image.hasAlpha else { throw Failure(description: "an icon image has an alpha band (32 bits per pixel)") }
            pngs.append(try image.pngData())
        }
        var data = Data()
        func append16(_ value: Int) { data.append(contentsOf: [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)]) }
        func append32(_ value: Int) { data.append(contentsOf: (0..<4).map { UInt8(value >> ($0 * 8) & 0xFF) }) }
        append16(0)
        append16(1)
        append16(images.count)
        var offset = 6 + 16 * images.count
        for (image, png) in zip(images, pngs) {
            guard offset + png.count <= Int(UInt32.max) else { throw Failure(description: "an icon file cannot exceed 4 GB") }
            let side = UInt8(image.width == maximumSide ? 0 : image.width)
            data.append(contentsOf: [side, side, 0, 0])
            append16(1)
            append16(32)
            append32(png.count)
            append32(offset)
            offset += png.count
        }
        for png in pngs { data.append(png) }
        return data
    }
}
