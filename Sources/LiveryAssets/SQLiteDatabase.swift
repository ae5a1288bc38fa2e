import CSQLite
import Foundation

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

    public init(path: String) throws {
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        guard sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(handle)
            throw Failure(description: "SQLite database \(path): \(message)")
        }
        sqlite3_busy_timeout(handle, 10_000)
        try execute("PRAGMA journal_mode=WAL")
        try execute("PRAGMA synchronous=NORMAL")
    }

    deinit { sqlite3_close(handle) }

    public func execute(_ sql: String) throws {
        try lock.withLock {
            var error: UnsafeMutablePointer<CChar>?
            guard sqlite3_exec(handle, sql, nil, nil, &error) == SQLITE_OK else {
                let message = error.map { String(cString: $0) } ?? "error"
                sqlite3_free(error)
                throw Failure(description: "\(message) in: \(sql)")
            }
        }
    }

    /// A bindable value.
    public enum Value: Sendable {
        case int(Int64)
        case text(String)
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
        try lock.withLock {
            var statement: OpaquePointer?
            guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
                throw Failure(description: String(cString: sqlite3_errmsg(handle)) + " in: \(sql)")
            }
            defer { sqlite3_finalize(statement) }
            for (index, value) in values.enumerated() {
                let position = Int32(index + 1)
                switch value {
                case .int(let int): sqlite3_bind_int64(statement, position, int)
                case .text(let text): sqlite3_bind_text(statement, position, text, -1, livery_sqlite_transient())
                case .null: sqlite3_bind_null(statement, position)
                }
            }
            var rows: [[Value]] = []
            while true {
                let step = sqlite3_step(statement)
                if step == SQLITE_DONE { break }
                guard step == SQLITE_ROW else { throw Failure(description: String(cString: sqlite3_errmsg(handle)) + " in: \(sql)") }
                var row: [Value] = []
                for column in 0..<sqlite3_column_count(statement) {
                    switch sqlite3_column_type(statement, column) {
                    case SQLITE_INTEGER: row.append(.int(sqlite3_column_int64(statement, column)))
                    case SQLITE_NULL: row.append(.null)
                    default: row.append(.text(String(cString: sqlite3_column_text(statement, column))))
                    }
                }
                rows.append(row)
            }
            return rows
        }
    }
}

extension SQLiteDatabase.Value {
    public var int: Int64? { if case .int(let v) = self { return v }; return nil }
    public var text: String? { if case .text(let v) = self { return v }; return nil }
}
