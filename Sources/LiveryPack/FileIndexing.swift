import Foundation
import LiveryAssets
import LiveryStorage
import LiveryReleaseFormat

/// Writes a bundle's file index (docs/deltas.md) from the archive just written: the archive's own
/// central directory says where each file's data is, the bundle's plan says each file's digest.
public enum FileIndexing {
    /// Smaller archives are always downloaded whole: an index and a few requests would cost about as
    /// much as the archive, and the manifest would carry a reference for nothing.
    public static let minimumArchiveSize = 64 << 10

    /// Whether a bundle gets an index: a public zip of at least two files and `minimumArchiveSize`
    /// bytes. Voucher bundles do not (their archive is encrypted as one stream in a signed release,
    /// and a public index would name their files; docs/deltas.md says what that costs), nor tar.zst
    /// bundles (one zstd stream: a file's bytes cannot be fetched alone).
    public static func eligible(_ spec: BundleSpec, format: ArchiveFormat, size: Int) -> Bool {
        format == .zip && spec.access == .public && spec.entries.count >= 2 && size >= minimumArchiveSize
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The index of `archive` (a zip this build wrote from `spec`, whose entries it holds in order).
    public static func index(archive: URL, sha256: SHA256Hex, size: Int, spec: BundleSpec) throws -> FileIndex {
        let descriptor = open(archive.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ReadFailure(errno: errno, path: archive.path, operation: .open) }
        defer { close(descriptor) }
        let directory = try ZipCentralDirectory(descriptor: descriptor, fileSize: UInt64(size), name: spec.fileName(.zip), maxEntries: 1_000_000)
        guard directory.records.count == spec.entries.count else {
            throw Failure(description: "internal error: \(spec.id)'s archive has \(directory.records.count) entries, its plan \(spec.entries.count)")
        }
        var located: [(entry: FileIndexEntry, header: Int)] = []
        located.reserveCapacity(spec.entries.count)
        for (record, entry) in zip(directory.records, spec.entries) {
            guard record.name == Data(entry.path.utf8), record.uncompressedSize == UInt64(entry.size), record.method == 0 || record.method == 8 else {
                throw Failure(description: "internal error: \(spec.id)'s archive does not hold '\(entry.path)' as planned")
            }
            let data = try directory.dataOffset(of: record)
            located.append((FileIndexEntry(path: entry.path, sha256: entry.sha256, size: entry.size, offset: Int(data), length: Int(record.compressedSize),
                                           method: record.method == 8 ? .deflate : .stored), Int(record.localHeaderOffset)))
        }
        return FileIndex.paginate(bundle: spec.id, archiveSHA256: sha256, archiveSize: size, entries: located)
    }
}
