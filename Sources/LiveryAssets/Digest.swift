import Crypto
import Foundation

/// A SHA-256 digest as lowercase hex.
public typealias SHA256Hex = String

extension SHA256.Digest {
    public var hex: SHA256Hex {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for byte in self {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// Reads a file sequentially through one reusable buffer: memory stays flat whatever the file size.
public struct FileReader: ~Copyable {
    public static let chunkSize = 1 << 20
    private let descriptor: Int32
    private let buffer: UnsafeMutableRawBufferPointer

    public init(_ url: URL) throws {
        descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: url.path]) }
        // A buffer no larger than the file: thousands of small files would otherwise each take a
        // megabyte from the heap, which glibc's adaptive mmap threshold then keeps (measured: +50 MB
        // RSS for 5,000 images).
        var info = stat()
        let size = fstat(descriptor, &info) == 0 ? Int(info.st_size) : Self.chunkSize
        buffer = .allocate(byteCount: min(Self.chunkSize, max(4096, size + 1)), alignment: 64)
        posix_fadvise(descriptor, 0, 0, POSIX_FADV_SEQUENTIAL)
    }

    deinit {
        close(descriptor)
        buffer.deallocate()
    }

    /// Calls `body` with each chunk of the file in order.
    public func forEachChunk(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw CocoaError(.fileReadUnknown, userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(errno))])
            }
            if count == 0 { return }
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }
}

/// Streams files through SHA-256.
public enum FileDigest {
    public static var chunkSize: Int { FileReader.chunkSize }

    public static func sha256(of data: Data) -> SHA256Hex {
        SHA256.hash(data: data).hex
    }

    /// Hashes the file at `url` without loading it whole.
    public static func sha256(of url: URL) throws -> (digest: SHA256Hex, size: Int) {
        let reader = try FileReader(url)
        var hasher = SHA256()
        var size = 0
        try reader.forEachChunk { chunk in
            hasher.update(bufferPointer: chunk)
            size += chunk.count
        }
        return (hasher.finalize().hex, size)
    }
}
