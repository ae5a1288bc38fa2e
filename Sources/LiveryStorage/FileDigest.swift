import Crypto
import Foundation
import LiveryEncoding
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A SHA-256 digest as lowercase hex.
public typealias SHA256Hex = String

extension SHA256.Digest {
    /// The digest as lowercase hex (`Hex.encode`).
    public var hexString: SHA256Hex { Hex.encode(self) }
}

/// Reads a file sequentially through one reusable buffer: memory stays flat whatever the file size.
public struct FileReader: ~Copyable {
    public static let chunkSize = 1 << 20
    private let descriptor: Int32
    private let buffer: UnsafeMutableRawBufferPointer
    /// The file, for a failure's message.
    private let path: String

    /// Opens `url`; a failure is a `ReadFailure` with the system's reason (not only "no such file").
    public init(_ url: URL) throws {
        path = url.path
        descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ReadFailure(errno: errno, path: url.path, operation: .open) }
        // A buffer no larger than the file: thousands of small files would otherwise each take a
        // megabyte from the heap, which glibc's adaptive mmap threshold then keeps (measured: +50 MB
        // RSS for 5,000 images).
        var info = stat()
        let size = fstat(descriptor, &info) == 0 ? Int(info.st_size) : Self.chunkSize
        buffer = .allocate(byteCount: min(Self.chunkSize, max(4096, size + 1)), alignment: 64)
        #if os(Linux)
        // A hint only (Darwin has no posix_fadvise): read-ahead for a file read once from start to end.
        posix_fadvise(descriptor, 0, 0, POSIX_FADV_SEQUENTIAL)
        #endif
    }

    deinit {
        close(descriptor)
        buffer.deallocate()
    }

    /// Calls `body` with each chunk of the file in order, until it returns false.
    public func readChunks(while body: (UnsafeRawBufferPointer) throws -> Bool) throws {
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw ReadFailure(errno: errno, path: path)
            }
            if count == 0 { return }
            guard try body(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) else { return }
        }
    }

    /// Calls `body` with each chunk of the file in order.
    public func forEachChunk(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        try readChunks { chunk in
            try body(chunk)
            return true
        }
    }
}

/// Streams files through SHA-256: the one streaming digest of the build side and the client.
public enum FileDigest {
    public static var chunkSize: Int { FileReader.chunkSize }

    public static func sha256(of data: Data) -> SHA256Hex {
        SHA256.hash(data: data).hexString
    }

    /// Hashes the file at `url` without loading it whole.
    public static func sha256(of url: URL) throws -> (digest: SHA256Hex, size: Int) {
        try sha256(of: url, stoppingAfter: nil)
    }

    /// Hashes the file at `url` without loading it whole, and stops reading once more than `limit` bytes
    /// were read (then `size` is over `limit` and `digest` is of a prefix): a file that should have a signed
    /// length is not read to its end when it is longer.
    public static func sha256(of url: URL, stoppingAfter limit: Int?) throws -> (digest: SHA256Hex, size: Int) {
        let (digest, size) = try hash(of: url, stoppingAfter: limit)
        return (digest.hexString, size)
    }

    /// The digest of the whole file at `url` as bytes (an upload's checksum header carries them, not hex).
    public static func hash(of url: URL) throws -> SHA256.Digest {
        try hash(of: url, stoppingAfter: nil).digest
    }

    private static func hash(of url: URL, stoppingAfter limit: Int?) throws -> (digest: SHA256.Digest, size: Int) {
        let reader = try FileReader(url)
        var hasher = SHA256()
        var size = 0
        try reader.readChunks { chunk in
            hasher.update(bufferPointer: chunk)
            size += chunk.count
            return limit.map { size <= $0 } ?? true
        }
        return (hasher.finalize(), size)
    }
}
