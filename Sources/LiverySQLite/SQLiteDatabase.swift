import CSQLite
import Foundation
import LiveryStorage

/// A minimal, thread-safe handle on one SQLite database file.
///
/// Written against SQLite's C API rather than a wrapper library because Livery needs only a few
/// prepared statements on one table; every call is serialised by a lock.
public final class SQLiteDatabase: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    private var handle: OpaquePointer?
    private let lock = NSLock()
    /// The database file, as opened: what a `WriteFailure` names.
    public let path: String
    /// Set by `init(readingOnly:)`: how many virtual-machine steps one statement may take.
    private let budget: StepBudget?

    public init(path: String) throws {
        budget = nil
        self.path = path
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            let failure = Self.writeFailure(status, systemErrno: handle.map { sqlite3_system_errno($0) } ?? 0, message: message, path: path)
            sqlite3_close(handle)
            throw failure ?? Failure(description: "SQLite database \(path): \(message)")
        }
        // Extended result codes (SQLITE_IOERR_WRITE, SQLITE_IOERR_FSYNC…) say which write failed; `writeFailure` maps them.
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, 10_000)
        try execute("PRAGMA journal_mode=WAL")
        try execute("PRAGMA synchronous=NORMAL")
    }

    /// Opens an existing database file that is not ours (a creator's MBTiles pack) without ever writing to it or
    /// beside it: read-only, and `immutable=1`, so SQLite takes no locks and creates no journal, WAL or shared-memory
    /// file. A hostile file cannot make a query run without end or fill memory: every statement stops after
    /// `stepBudget` virtual-machine steps (a `tiles` view may hide any join), and no string or blob larger than
    /// `maximumValueBytes` is ever loaded. The schema is untrusted (`trusted_schema=OFF`), so its views and triggers
    /// call no function with side effects.
    public init(readingOnly path: String, stepBudget: Int = 20_000_000, maximumValueBytes: Int32 = 16 << 20) throws {
        budget = StepBudget(limit: max(1, stepBudget / StepBudget.interval))
        self.path = path
        let flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX
        guard sqlite3_open_v2(Self.immutableURI(path), &handle, flags, nil) == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(handle)
            handle = nil
            throw Failure(description: "SQLite database \(path): \(message)")
        }
        sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, maximumValueBytes)
        sqlite3_progress_handler(handle, Int32(StepBudget.interval), { context in
            guard let context else { return 0 }
            let budget = Unmanaged<StepBudget>.fromOpaque(context).takeUnretainedValue()
            budget.used += 1
            return budget.used > budget.limit ? 1 : 0
        }, Unmanaged.passUnretained(budget!).toOpaque())
        try execute("PRAGMA trusted_schema=OFF")
        try execute("PRAGMA query_only=ON")
    }

    /// A `file:` URI for `path` with `immutable=1`. In a URI, `%`, `?` and `#` end or escape the path, so they are
    /// percent-encoded; the path is made absolute and follows an empty authority (`file://`), so a path starting
    /// with `//` is never read as a host name.
    static func immutableURI(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var encoded = ""
        for byte in absolute.utf8 {
            switch byte {
            case UInt8(ascii: "%"), UInt8(ascii: "?"), UInt8(ascii: "#"), 0..<0x20, 0x7F...:
                encoded += String(format: "%%%02X", byte)
            default:
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return "file://" + encoded + "?mode=ro&immutable=1"
    }

    deinit { sqlite3_close(handle) }

    public func execute(_ sql: String) throws {
        try lock.withLock {
            budget?.used = 0
            var error: UnsafeMutablePointer<CChar>?
            let status = sqlite3_exec(handle, sql, nil, nil, &error)
            guard status == SQLITE_OK else {
                let message = error.map { String(cString: $0) } ?? "error"
                sqlite3_free(error)
                throw writeFailure(status, message: message) ?? Failure(description: "\(message) in: \(sql)")
            }
        }
    }

    /// The bytes of the main database as an SQLite file would hold them (`sqlite3_serialize`): how an in-memory
    /// database (`path: ":memory:"`) becomes a file's contents without touching the disk.
    public func serialized() throws -> [UInt8] {
        try lock.withLock {
            var size: sqlite3_int64 = 0
            guard let bytes = sqlite3_serialize(handle, "main", &size, 0) else {
                throw Failure(description: "cannot serialise the database: " + String(cString: sqlite3_errmsg(handle)))
            }
            defer { sqlite3_free(bytes) }
            return Array(UnsafeBufferPointer(start: bytes, count: Int(size)))
        }
    }

    /// A bindable value.
    public enum Value: Sendable {
        case int(Int64)
        case text(String)
        case blob([UInt8])
        case null
    }

    /// Runs one statement for each row of values, all in one transaction.
    public func insert(_ sql: String, rows: [[Value]]) throws {
        guard !rows.isEmpty else { return }
        try execute("BEGIN IMMEDIATE")
        do {
            for row in rows { try query(sql, row) }
            try execute("COMMIT")
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Runs `sql` with `values` bound in order and returns every row.
    @discardableResult
    public func query(_ sql: String, _ values: [Value] = []) throws -> [[Value]] {
        var rows: [[Value]] = []
        try forEachRow(sql, values) { rows.append($0) }
        return rows
    }

    /// Runs `sql` with `values` bound in order and hands each row to `body` as it is read, so a caller
    /// that keeps little of each row holds one row at a time, not the table. `body` must not use this
    /// database (its lock is held).
    public func forEachRow(_ sql: String, _ values: [Value] = [], _ body: ([Value]) throws -> Void) throws {
        try lock.withLock {
            var statement: OpaquePointer?
            let prepared = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
            guard prepared == SQLITE_OK else {
                let message = String(cString: sqlite3_errmsg(handle))
                throw writeFailure(prepared, message: message) ?? Failure(description: message + " in: \(sql)")
            }
            defer { sqlite3_finalize(statement) }
            budget?.used = 0
            for (index, value) in values.enumerated() {
                let position = Int32(index + 1)
                switch value {
                case .int(let int): sqlite3_bind_int64(statement, position, int)
                case .text(let text): sqlite3_bind_text(statement, position, text, -1, livery_sqlite_transient())
                case .blob(let bytes): _ = bytes.withUnsafeBytes { sqlite3_bind_blob(statement, position, $0.baseAddress, Int32($0.count), livery_sqlite_transient()) }
                case .null: sqlite3_bind_null(statement, position)
                }
            }
            while true {
                let step = sqlite3_step(statement)
                if step == SQLITE_DONE { break }
                guard step == SQLITE_ROW else {
                    if let budget, budget.used > budget.limit {
                        throw Failure(description: "query stopped after \(budget.limit * StepBudget.interval) steps (the file is too costly to read) in: \(sql)")
                    }
                    let message = String(cString: sqlite3_errmsg(handle))
                    throw writeFailure(step, message: message) ?? Failure(description: message + " in: \(sql)")
                }
                var row: [Value] = []
                for column in 0..<sqlite3_column_count(statement) {
                    switch sqlite3_column_type(statement, column) {
                    case SQLITE_INTEGER: row.append(.int(sqlite3_column_int64(statement, column)))
                    case SQLITE_NULL: row.append(.null)
                    case SQLITE_BLOB:
                        let count = Int(sqlite3_column_bytes(statement, column))
                        let bytes = sqlite3_column_blob(statement, column).map { UnsafeRawBufferPointer(start: $0, count: count) }
                        row.append(.blob(bytes.map(Array.init) ?? []))
                    default: row.append(.text(String(cString: sqlite3_column_text(statement, column))))
                    }
                }
                try body(row)
            }
        }
    }
}

extension SQLiteDatabase {
    /// The `WriteFailure` an SQLite result stands for, or nil when it is not about space or the device: `SQLITE_FULL`
    /// is no space; an `SQLITE_IOERR` (any extended code) is an I/O error, or no space or quota when the system error
    /// behind it (`sqlite3_system_errno`) says so: SQLite reports a full disk met while growing the WAL index or
    /// writing a page as "disk I/O error". Call with the lock held (the system error is the connection's last).
    private func writeFailure(_ status: Int32, message: String) -> WriteFailure? {
        // A read-only database (`init(readingOnly:)`) is never written: its errors are read errors.
        guard budget == nil else { return nil }
        return Self.writeFailure(status, systemErrno: handle.map { sqlite3_system_errno($0) } ?? 0, message: message, path: path)
    }

    static func writeFailure(_ status: Int32, systemErrno: Int32, message: String, path: String) -> WriteFailure? {
        let primary = status & 0xFF
        let underlying = "SQLite: \(message)"
        switch primary {
        case SQLITE_FULL:
            return WriteFailure(.noSpace, path: path, underlying: underlying)
        case SQLITE_IOERR:
            switch systemErrno {
            case ENOSPC: return WriteFailure(.noSpace, path: path, underlying: underlying)
            case EDQUOT: return WriteFailure(.quota, path: path, underlying: underlying)
            default: return WriteFailure(.io, path: path, underlying: underlying)
            }
        case SQLITE_CANTOPEN:
            // A database (or its journal) that cannot be created for want of space or quota.
            return WriteFailure.storage(errno: systemErrno, path: path).map { WriteFailure($0.kind, path: path, underlying: underlying) }
        default:
            return nil
        }
    }
}

extension SQLiteDatabase.Value {
    public var int: Int64? { if case .int(let v) = self { return v }; return nil }
    public var text: String? { if case .text(let v) = self { return v }; return nil }
    public var blob: [UInt8]? { if case .blob(let v) = self { return v }; return nil }
}

/// Counts progress-handler calls for one statement of a read-only database (`SQLiteDatabase.init(readingOnly:)`).
private final class StepBudget: @unchecked Sendable {
    /// Virtual-machine steps between two calls of the progress handler.
    static let interval = 1000
    let limit: Int
    var used = 0

    init(limit: Int) { self.limit = limit }
}
