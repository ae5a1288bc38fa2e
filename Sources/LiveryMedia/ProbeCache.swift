import Foundation
import LiveryLoad
import LiverySQLite

/// Remembers what a probe measured in a file (as an opaque encoded record), by path, size, mtime and
/// inode, so an unchanged file is never probed twice: across validations, and between `validate`
/// and `build`, which share `<output>/.livery/probes.sqlite`. Rows of another probe version are
/// ignored. Every row is read once when the cache opens; new rows are written in one transaction
/// by `flush()`. As in `StatCache`, a stamp taken within two seconds of its mtime is not trusted.
public final class ProbeCache: @unchecked Sendable {
    struct Row {
        var size: Int64, mtime: Int64, inode: Int64, recorded: Int64, record: String
    }

    private let database: SQLiteDatabase
    private let version: Int
    // Guarded by `lock`.
    private var rows: [String: Row] = [:]
    private var pending: [String: Row] = [:]
    private let lock = NSLock()

    /// Opens (creating) the cache at `path` for records made by probe `version`.
    public init(path: String, version: Int) throws {
        database = try SQLiteDatabase(path: path)
        self.version = version
        try database.execute("""
            CREATE TABLE IF NOT EXISTS probes (
                path TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime INTEGER NOT NULL, inode INTEGER NOT NULL,
                recorded INTEGER NOT NULL, version INTEGER NOT NULL, record TEXT NOT NULL)
            """)
        for row in try database.query("SELECT path, size, mtime, inode, recorded, record FROM probes WHERE version = ?", [.int(Int64(version))]) {
            guard row.count == 6, let path = row[0].text, let size = row[1].int, let mtime = row[2].int, let inode = row[3].int,
                  let recorded = row[4].int, let record = row[5].text else { continue }
            rows[path] = Row(size: size, mtime: mtime, inode: inode, recorded: recorded, record: record)
        }
    }

    /// The record kept for `path` if the file is unchanged since (and was safely old when) it was made.
    public func record(for path: String, stamp: FileStamp) -> String? {
        lock.withLock {
            guard let row = pending[path] ?? rows[path], row.size == stamp.size, row.mtime == stamp.mtimeNanoseconds, row.inode == stamp.inode,
                  row.recorded - stamp.mtimeNanoseconds >= FileStamp.racyWindowNanoseconds else { return nil }
            return row.record
        }
    }

    /// Keeps `record` for `path` until `flush()`.
    public func remember(_ record: String, for path: String, stamp: FileStamp) {
        let now = Int64(Date().timeIntervalSince1970 * 1_000_000_000)
        lock.withLock { pending[path] = Row(size: stamp.size, mtime: stamp.mtimeNanoseconds, inode: stamp.inode, recorded: now, record: record) }
    }

    /// Writes the records made since the last flush (a killed run only loses them).
    public func flush() throws {
        let taken: [String: Row] = lock.withLock {
            defer {
                rows.merge(pending) { _, new in new }
                pending.removeAll()
            }
            return pending
        }
        try database.insert("INSERT OR REPLACE INTO probes (path, size, mtime, inode, recorded, version, record) VALUES (?, ?, ?, ?, ?, ?, ?)",
                            rows: taken.sorted { $0.key < $1.key }.map { path, row in
                                [.text(path), .int(row.size), .int(row.mtime), .int(row.inode), .int(row.recorded), .int(Int64(version)), .text(row.record)]
                            })
    }
}
