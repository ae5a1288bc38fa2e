import CVips
import Foundation

/// A decoded image in memory: 8-bit sRGB with an alpha band (or without one, once flattened). A thin
/// wrapper over libvips (Debian's `libvips-dev`): the one place Livery calls it. libvips resizes with
/// premultiplied alpha and little memory, decodes PNG with libpng and renders SVG with librsvg. It is
/// loaded (CVips, dlopen) the first time an image is made, not when the process starts.
///
/// Every image is decoded into memory when it is made (`vips_image_copy_memory`): images here are
/// small (app icons), and a decode error then surfaces where the image is loaded, not later.
public final class RasterImage: @unchecked Sendable {
    /// An image that could not be decoded or processed, with libvips' own message.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(_ description: String) { self.description = description }
    }

    /// The formats Livery decodes: app icons are PNG or SVG.
    public enum Format: String, Sendable {
        case png, svg
    }

    // Immutable once made; libvips images are reference counted and safe to read from any thread.
    let pointer: OpaquePointer

    fileprivate init(_ pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit { livery_vips_unref(pointer) }

    public var width: Int { Int(livery_vips_width(pointer)) }
    public var height: Int { Int(livery_vips_height(pointer)) }
    public var hasAlpha: Bool { livery_vips_hasalpha(pointer) != 0 }

    /// The libvips this process runs on, e.g. `8.14.1`.
    public static var libraryVersion: String {
        Vips.started
        return String(cString: livery_vips_version())
    }

    // MARK: Making images

    /// Decodes `bytes` as `format`. An SVG is rendered at `scale` (1 renders it at its declared size);
    /// it is read from memory, so librsvg has no base location and loads no file or URL the SVG names.
    public static func decode(_ bytes: Data, as format: Format, scale: Double = 1) throws -> RasterImage {
        try Vips.run("cannot decode the \(format.rawValue.uppercased())") {
            var loaded: OpaquePointer?
            let status = bytes.withUnsafeBytes { raw -> Int32 in
                switch format {
                case .png: return livery_vips_pngload(raw.baseAddress, raw.count, &loaded)
                case .svg: return livery_vips_svgload(raw.baseAddress, raw.count, scale, &loaded)
                }
            }
            guard status == 0, let loaded else { return nil }
            defer { livery_vips_unref(loaded) }
            // Decoded now, while the bytes are alive: the loader reads its buffer lazily.
            var standard: OpaquePointer?
            guard livery_vips_srgba(loaded, &standard) == 0, let standard else { return nil }
            defer { livery_vips_unref(standard) }
            var decoded: OpaquePointer?
            guard livery_vips_materialise(standard, &decoded) == 0 else { return nil }
            return decoded
        }
    }

    /// A `width` × `height` image of one colour (components 0…255).
    public static func solid(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255, width: Int, height: Int) throws -> RasterImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for index in stride(from: 0, to: pixels.count, by: 4) {
            pixels[index] = red
            pixels[index + 1] = green
            pixels[index + 2] = blue
            pixels[index + 3] = alpha
        }
        return try Vips.run("cannot make a \(width) × \(height) image") {
            var made: OpaquePointer?
            let status = pixels.withUnsafeBytes { livery_vips_image_new_rgba($0.baseAddress, $0.count, Int32(width), Int32(height), &made) }
            return status == 0 ? made : nil
        }
    }

    // MARK: Operations (each returns a new image)

    /// Exactly `width` × `height`.
    public func resized(width: Int, height: Int) throws -> RasterImage {
        if width == self.width && height == self.height { return self }
        return try derive("cannot resize to \(width) × \(height)") { livery_vips_resize(pointer, Int32(width), Int32(height), &$0) }
    }

    /// Without its alpha band (composed over black: call it on images that are opaque).
    public func flattened() throws -> RasterImage {
        guard hasAlpha else { return self }
        return try derive("cannot flatten") { livery_vips_flatten(pointer, &$0) }
    }

    /// On a transparent `width` × `height` canvas, its top left corner at (`left`, `top`).
    public func embedded(left: Int, top: Int, width: Int, height: Int) throws -> RasterImage {
        try derive("cannot place the image on a \(width) × \(height) canvas") {
            livery_vips_embed(pointer, Int32(left), Int32(top), Int32(width), Int32(height), &$0)
        }
    }

    /// `overlay` drawn over this image (both the same size).
    public func overlaid(with overlay: RasterImage) throws -> RasterImage {
        try derive("cannot compose two images") { livery_vips_over(pointer, overlay.pointer, &$0) }
    }

    /// Cut to the circle inscribed in it (the whole width and height): transparent outside, the edge
    /// anti-aliased. librsvg draws the circle (an SVG mask), libvips keeps this image where it is. The
    /// image needs its alpha band (call it before `flattened()`).
    public func circled() throws -> RasterImage {
        guard hasAlpha else { throw Failure("cannot cut an image without an alpha band to a circle") }
        let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\">"
            + "<ellipse cx=\"\(Double(width) / 2)\" cy=\"\(Double(height) / 2)\" rx=\"\(Double(width) / 2)\" ry=\"\(Double(height) / 2)\" fill=\"#ffffff\"/></svg>"
        let mask = try RasterImage.decode(Data(svg.utf8), as: .svg)
        return try derive("cannot cut the image to a circle") { livery_vips_dest_in(pointer, mask.pointer, &$0) }
    }

    private func derive(_ what: String, _ operation: (inout OpaquePointer?) -> Int32) throws -> RasterImage {
        try Vips.run(what) {
            var result: OpaquePointer?
            guard operation(&result) == 0, let result else { return nil }
            defer { livery_vips_unref(result) }
            var decoded: OpaquePointer?
            guard livery_vips_materialise(result, &decoded) == 0 else { return nil }
            return decoded
        }
    }

    // MARK: Reading

    /// PNG bytes, the same for the same pixels on every run: no metadata chunks, no timestamps.
    public func pngData() throws -> Data {
        try Vips.locked("cannot write the PNG") {
            var buffer: UnsafeMutableRawPointer?
            var length = 0
            guard livery_vips_pngsave(pointer, &buffer, &length) == 0, let buffer else { return nil }
            defer { livery_vips_free(buffer) }
            return Data(bytes: buffer, count: length)
        }
    }

    /// The pixels, row by row: four bytes (RGBA) per pixel, or three when the image has no alpha.
    public func pixels() throws -> [UInt8] {
        try Vips.locked("cannot read the pixels") {
            var length = 0
            guard let memory = livery_vips_write_to_memory(pointer, &length) else { return nil }
            defer { livery_vips_free(memory) }
            return [UInt8](UnsafeRawBufferPointer(start: memory, count: length))
        }
    }

    /// The smallest alpha value of any pixel (255 for an image without alpha).
    public func minimumAlpha() throws -> UInt8 {
        guard hasAlpha else { return 255 }
        let data = try pixels()
        var lowest: UInt8 = 255
        for index in stride(from: 3, to: data.count, by: 4) where data[index] < lowest { lowest = data[index] }
        return lowest
    }

    /// A rectangle of pixels: left, top, width, height.
    public struct Box: Sendable, Equatable {
        public var left, top, width, height: Int
        public init(left: Int, top: Int, width: Int, height: Int) {
            self.left = left
            self.top = top
            self.width = width
            self.height = height
        }
    }

    /// The bounding box of the pixels whose alpha is above `threshold`; nil when there is none.
    public func alphaBoundingBox(threshold: UInt8 = 0) throws -> Box? {
        guard hasAlpha else { return Box(left: 0, top: 0, width: width, height: height) }
        let data = try pixels()
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<height {
            for x in 0..<width where data[(y * width + x) * 4 + 3] > threshold {
                minX = min(minX, x); maxX = max(maxX, x)
                minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        return maxX < 0 ? nil : Box(left: minX, top: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }
}

/// libvips, started once per process.
enum Vips {
    /// `vips_init` runs once, on first use, whichever thread asks first (a `static let` is initialised
    /// exactly once, thread-safely).
    static let started: Void = {
        if livery_vips_start() != 0 {
            // Without libvips (missing, or its initialisation failed) no image can be made: every call
            // then fails with the reason, which stays in the error buffer.
        }
    }()

    /// libvips keeps its error messages in one process-wide buffer: operations run one at a time, so
    /// the message read after a failure is the one that failure wrote. Icons are small; the lock costs
    /// little next to the decoding.
    private static let lock = NSLock()

    static func run(_ what: String, _ body: () -> OpaquePointer?) throws -> RasterImage {
        try RasterImage(locked(what, body))
    }

    static func locked<T>(_ what: String, _ body: () -> T?) throws -> T {
        _ = started
        lock.lock()
        defer { lock.unlock() }
        if let result = body() { return result }
        let message = String(cString: livery_vips_error_buffer()).trimmingCharacters(in: .whitespacesAndNewlines)
        livery_vips_error_clear()
        let first = message.split(separator: "\n").first.map(String.init) ?? "libvips gave no reason"
        throw RasterImage.Failure("\(what): \(first)")
    }
}
