import Foundation
import LiveryLoad
import LiverySQLite
import LiveryStorage

/// Remembers the SHA-256 of files by path, size, mtime and inode, so an unchanged file is not read
/// again on the next build. State lives in SQLite next to the content store. ctime is recorded but
/// not compared: it moves whenever the store links the file, without any change to its bytes; like
/// make and ninja, an edit that restores an old mtime goes unseen.
///
/// A stamp taken less than two seconds before it was recorded is not trusted (a write within the
/// same timestamp granularity could go unnoticed, the "racy git" problem); such files are hashed again.
public final class StatCache: Sendable {
    private let database: SQLiteDatabase
    private let pending = PendingRows()
    public static let racyWindowNanoseconds = FileStamp.racyWindowNanoseconds

    public init(path: String) throws {
        database = try SQLiteDatabase(path: path)
        try database.execute("""
            CREATE TABLE IF NOT EXISTS files (
                path TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime INTEGER NOT NULL, ctime INTEGER NOT NULL,
                inode INTEGER NOT NULL, recorded INTEGER NOT NULL, sha256 TEXT NOT NULL)
            """)
    }

    /// The digests recorded for files that still exist (what the next build will find in the store).
    public func digestsOfExistingFiles() throws -> Set<SHA256Hex> {
        var digests = Set<SHA256Hex>()
        for row in try database.query("SELECT path, sha256 FROM files") {
            guard row.count == 2, let path = row[0].text, let sha = row[1].text, FileManager.default.fileExists(atPath: path) else { continue }
            digests.insert(sha)
        }
        return digests
    }

    /// The remembered digest of `path`, if its stamp is unchanged and was safely old when recorded.
    public func digest(for path: String, stamp: FileStamp) throws -> SHA256Hex? {
        let rows = try database.query("SELECT size, mtime, ctime, inode, recorded, sha256 FROM files WHERE path = ?", [.text(path)])
        guard let row = rows.first, row.count == 6,
              row[0].int == stamp.size, row[1].int == stamp.mtimeNanoseconds, row[3].int == stamp.inode,
              let recorded = row[4].int, recorded - stamp.mtimeNanoseconds >= Self.racyWindowNanoseconds else { return nil }
        return row[5].text
    }

    /// Remembers a digest; rows are written in one transaction by `flush()` (a killed build only loses the cache).
    public func record(_ digest: SHA256Hex, for path: String, stamp: FileStamp) throws {
        let now = Int64(Date().timeIntervalSince1970 * 1_000_000_000)
        pending.append([.text(path), .int(stamp.size), .int(stamp.mtimeNanoseconds), .int(stamp.ctimeNanoseconds), .int(stamp.inode), .int(now), .text(digest)])
    }

    public func flush() throws {
        try database.insert("INSERT OR REPLACE INTO files (path, size, mtime, ctime, inode, recorded, sha256) VALUES (?, ?, ?, ?, ?, ?, ?)", rows: pending.take())
    }
}

/// Rows waiting to be written in one transaction.
final class PendingRows: @unchecked Sendable {
    // Guarded by `lock`.
    private var rows: [[SQLiteDatabase.Value]] = []
    private let lock = NSLock()

    func append(_ row: [SQLiteDatabase.Value]) { lock.withLock { rows.append(row) } }

    func take() -> [[SQLiteDatabase.Value]] {
        lock.withLock {
            defer { rows.removeAll() }
            return rows
        }
    }
}
