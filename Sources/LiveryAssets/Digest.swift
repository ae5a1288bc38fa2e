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

/// Streams files through SHA-256 in fixed-size chunks, so memory stays flat whatever the file size.
public enum FileDigest {
    public static let chunkSize = 1 << 20

    public static func sha256(of data: Data) -> SHA256Hex {
        SHA256.hash(data: data).hex
    }

    /// Hashes the file at `url`, optionally copying every byte read to `copy` in the same pass.
    public static func sha256(of url: URL, copyingTo copy: FileHandle? = nil) throws -> (digest: SHA256Hex, size: Int) {
        let input = try FileHandle(forReadingFrom: url)
        defer { try? input.close() }
        var hasher = SHA256()
        var size = 0
        while let chunk = try input.read(upToCount: chunkSize), !chunk.isEmpty {
            hasher.update(data: chunk)
            try copy?.write(contentsOf: chunk)
            size += chunk.count
        }
        return (hasher.finalize().hex, size)
    }
}
