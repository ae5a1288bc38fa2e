import Crypto
import Foundation
import LiveryAssets
import LiveryStorage

/// The generated files of locale bundles one build has already made, by a digest of what they were
/// made from, so that a tenant whose strings another tenant of the build already had is not rendered
/// again (the render stage's "digest of what it used").
///
/// A locale bundle's three generated files (`locales/<locale>.json`, the String Catalog and the Android
/// `strings.xml`) depend on nothing but the tenant's merged locale bundles: their locales, keys and texts
/// (`LocaleFiles.digest`). White-label tenants share them often: creators that extend a base
/// without touching its strings, brands of one platform translated once. The first tenant renders and
/// hashes the files; a later one with the same digest gets each file's path, SHA-256 and size, which is
/// all a bundle's key needs (`BundleSpec.key`), and its bundle is then found in the bundle index. Only
/// when its archive must be written after all (another file of the bundle differs, or the first tenant's
/// archive is not indexed yet) are the bytes made again, and the builder checks them against the
/// remembered digest (`BundleEntry.Content.deferred`).
///
/// Memory stays bounded: at most `capacity` digests are kept, the oldest dropped first (about 0.4 KB
/// each), so a build of 10,000 tenants that share nothing holds no more than one of 1,024.
public final class GeneratedFileMemo: @unchecked Sendable {
    /// A generated file as a bundle's key sees it.
    struct Made: Sendable {
        var path: String
        var sha256: SHA256Hex
        var size: Int
    }

    struct Key: Hashable {
        var inputs: SHA256.Digest
        var locale: String
    }

    // Guarded by `lock`. Each key's files are packed into one byte buffer (path, NUL, size as 8 bytes,
    // 64 hex digits, for each file): as `[Made]` they were six small allocations per key.
    private var made: [Key: [UInt8]] = [:]
    private var order: [Key] = []
    private var oldest = 0
    private let lock = NSLock()
    let capacity: Int

    public init(capacity: Int = 1024) {
        self.capacity = max(1, capacity)
    }

    func files(_ key: Key) -> [Made]? {
        guard let packed = lock.withLock({ made[key] }) else { return nil }
        var files: [Made] = []
        var at = 0
        while at < packed.count, let end = packed[at...].firstIndex(of: 0), end + 9 + 64 <= packed.count {
            let path = String(decoding: packed[at..<end], as: UTF8.self)
            var size: UInt64 = 0
            for byte in packed[(end + 1)..<(end + 9)].reversed() { size = size << 8 | UInt64(byte) }
            let sha = String(decoding: packed[(end + 9)..<(end + 9 + 64)], as: UTF8.self)
            files.append(Made(path: path, sha256: sha, size: Int(size)))
            at = end + 9 + 64
        }
        return files
    }

    func remember(_ key: Key, _ files: [Made]) {
        var packed: [UInt8] = []
        packed.reserveCapacity(files.reduce(0) { $0 + $1.path.utf8.count + 1 + 8 + 64 })
        for file in files {
            guard file.sha256.utf8.count == 64, !file.path.utf8.contains(0) else { return }
            packed.append(contentsOf: file.path.utf8)
            packed.append(0)
            var size = UInt64(file.size)
            for _ in 0..<8 {
                packed.append(UInt8(size & 0xff))
                size >>= 8
            }
            packed.append(contentsOf: file.sha256.utf8)
        }
        lock.withLock {
            guard made[key] == nil else { return }
            if order.count < capacity {
                order.append(key)
            } else {
                made[order[oldest]] = nil
                order[oldest] = key
                oldest = (oldest + 1) % capacity
            }
            made[key] = packed
        }
    }

    /// How many digests are remembered (for tests).
    public var count: Int { lock.withLock { made.count } }
}
