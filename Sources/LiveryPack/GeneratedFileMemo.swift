import Crypto
import Foundation
import LiveryAssets

/// The generated files of locale bundles one build has already made, by a digest of what they were
/// made from, so that a tenant whose strings another tenant of the build already had is not rendered
/// again (the render stage's "digest of what it used").
///
/// A locale bundle's three generated files (`locales/<locale>.json`, the String Catalog and the Android
/// `strings.xml`) depend on nothing but the tenant's merged locale bundles: their locales, keys and texts
/// (`PlatformStrings.inputDigest`). White-label tenants share them often: creators that extend a base
/// without touching its strings, brands of one platform translated once. The first tenant renders and
/// hashes the files; a later one with the same digest gets each file's path, SHA-256 and size, which is
/// all a bundle's key needs (`BundleSpec.key`), and its bundle is then found in the bundle index. Only
/// when its archive must be written after all (another file of the bundle differs, or the first tenant's
/// archive is not indexed yet) are the bytes made again, and the builder checks them against the
/// remembered digest (`BundleEntry.Content.deferred`).
///
/// Memory stays bounded: at most `capacity` digests are kept, the oldest dropped first (about 0.5 KB
/// each), so a build of 10,000 tenants that share nothing holds no more than one of 200.
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

    // Guarded by `lock`.
    private var made: [Key: [Made]] = [:]
    private var order: [Key] = []
    private var oldest = 0
    private let lock = NSLock()
    let capacity: Int

    public init(capacity: Int = 1024) {
        self.capacity = max(1, capacity)
    }

    func files(_ key: Key) -> [Made]? {
        lock.withLock { made[key] }
    }

    func remember(_ key: Key, _ files: [Made]) {
        lock.withLock {
            guard made[key] == nil else { return }
            if order.count < capacity {
                order.append(key)
            } else {
                made[order[oldest]] = nil
                order[oldest] = key
                oldest = (oldest + 1) % capacity
            }
            made[key] = files
        }
    }

    /// How many digests are remembered (for tests).
    public var count: Int { lock.withLock { made.count } }
}
