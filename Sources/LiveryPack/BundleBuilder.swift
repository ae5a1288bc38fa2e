import Foundation
import LiveryAssets

/// A bundle archive in the content store.
public struct BuiltBundle: Sendable {
    public var spec: BundleSpec
    public var format: ArchiveFormat
    public var sha256: SHA256Hex
    public var size: Int
    public var object: URL
    /// Whether the archive was written by this build (false: reused from an earlier one).
    public var rebuilt: Bool

    /// The TUF target name (`core.zip`) and its consistent-snapshot file name (`<sha256>.core.zip`).
    public var targetName: String { spec.fileName(format) }
    public var targetFileName: String { "\(sha256).\(targetName)" }
}

/// Builds bundle archives into the content store, reusing any archive whose inputs are unchanged
/// (the bundle key digests every entry's path, content digest and compression, and the format).
public final class BundleBuilder: Sendable {
    private let store: ContentStore
    private let index: SQLiteDatabase

    public init(store: ContentStore) throws {
        self.store = store
        index = try SQLiteDatabase(path: store.root.appendingPathComponent("bundles.sqlite").path)
        try index.execute("CREATE TABLE IF NOT EXISTS bundles (key TEXT PRIMARY KEY, sha256 TEXT NOT NULL, size INTEGER NOT NULL)")
    }

    public func build(_ spec: BundleSpec, format: ArchiveFormat) throws -> BuiltBundle {
        let key = spec.key(format)
        if let row = try index.query("SELECT sha256, size FROM bundles WHERE key = ?", [.text(key)]).first,
           let sha = row[0].text, let size = row[1].int, FileStamp(path: store.objectURL(sha).path)?.size == size {
            return BuiltBundle(spec: spec, format: format, sha256: sha, size: Int(size), object: store.objectURL(sha), rebuilt: false)
        }
        let temporary = store.root.appendingPathComponent("tmp").appendingPathComponent(UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: temporary) }
        let writer = try ArchiveWriter(writingTo: temporary, format: format)
        for entry in spec.entries {
            switch entry.content {
            case .file(let stored): try writer.add(entry.path, file: stored.url, size: stored.size, compress: entry.compress)
            case .data(let data): try writer.add(entry.path, data: data, compress: entry.compress)
            }
        }
        let (sha, size) = try writer.finish()
        let object = try store.adopt(temporary, sha256: sha)
        try index.query("INSERT OR REPLACE INTO bundles (key, sha256, size) VALUES (?, ?, ?)", [.text(key), .text(sha), .int(Int64(size))])
        return BuiltBundle(spec: spec, format: format, sha256: sha, size: size, object: object, rebuilt: true)
    }
}
