import Foundation
import Logging
import PostgresNIO

/// The PostgreSQL voucher schema, as numbered migrations recorded in `livery_schema_migrations(version, applied)`.
///
/// Each migration runs in its own transaction that first takes a transaction-scoped advisory lock
/// (`pg_advisory_xact_lock`), so that two instances starting at once against an empty database
/// queue up instead of both creating the tables: the second finds the version recorded and does
/// nothing. Migrations are append-only; a database recorded at a newer version than this livery
/// knows is refused rather than used with a schema it does not understand.
public enum PostgresMigrations {
    public struct Migration: Sendable {
        public let version: Int
        public let summary: String
        /// One statement each: the extended query protocol takes one statement per query.
        public let statements: [String]
    }

    /// The advisory lock key every livery migrator takes ("LIVERY" and 1 in ASCII hex), so that
    /// other applications' advisory locks in the same database are unlikely to collide with it.
    static let lockKey: Int64 = 0x4C49_5645_5259_0001

    /// The same tables and columns as the SQLite store (times are Unix seconds), so that both back
    /// ends read alike; `id` is an identity column, the voucher number tokens carry.
    public static let all: [Migration] = [
        Migration(version: 1, summary: "vouchers, redemptions and settings", statements: [
            """
            CREATE TABLE vouchers(
                id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                code_sha256 TEXT NOT NULL UNIQUE,
                prefix TEXT NOT NULL,
                tenant TEXT NOT NULL,
                tour TEXT NOT NULL,
                devices INTEGER NOT NULL CHECK (devices > 0),
                expires BIGINT,
                created BIGINT NOT NULL,
                revoked BIGINT)
            """,
            "CREATE INDEX vouchers_by_tenant ON vouchers(tenant, prefix)",
            "CREATE INDEX vouchers_by_prefix ON vouchers(prefix)",
            """
            CREATE TABLE redemptions(
                voucher BIGINT NOT NULL REFERENCES vouchers(id),
                device TEXT NOT NULL,
                first BIGINT NOT NULL,
                last BIGINT NOT NULL,
                PRIMARY KEY (voucher, device))
            """,
            "CREATE TABLE settings(key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        ]),
    ]

    /// Connects once on its own (so that a bad URL, a refused connection or a wrong password is one
    /// clear error now, not a pool retrying in the background), migrates, and disconnects.
    @discardableResult
    public static func migrate(_ location: PostgresLocation) async throws -> [Int] {
        let logger = Logger(label: "livery.vouchers.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(configuration: try location.connectionConfiguration(), id: 1, logger: logger)
        } catch {
            throw VoucherFailure("cannot connect to the voucher database \(location): \(PostgresVoucherStore.reason(error))")
        }
        do {
            let applied = try await migrate(connection, logger: logger)
            try? await connection.close()
            return applied
        } catch {
            try? await connection.close()
            throw error as? VoucherFailure ?? VoucherFailure("cannot prepare the voucher tables in \(location): \(PostgresVoucherStore.reason(error))")
        }
    }

    /// Brings the database up to the newest migration; returns the versions applied by this call
    /// (empty when another instance, or an earlier start, had applied them).
    @discardableResult
    static func migrate(_ connection: PostgresConnection, migrations: [Migration] = all, logger: Logger) async throws -> [Int] {
        var applied: [Int] = []
        for migration in migrations {
            let didApply = try await connection.inTransaction(logger: logger) { connection in
                try await connection.perform("SELECT pg_advisory_xact_lock(\(lockKey))", logger: logger)
                try await connection.perform("""
                    CREATE TABLE IF NOT EXISTS livery_schema_migrations(
                        version INTEGER PRIMARY KEY,
                        applied TIMESTAMPTZ NOT NULL DEFAULT now())
                    """, logger: logger)
                let newest = try await connection.rows("SELECT COALESCE(MAX(version), 0)::bigint FROM livery_schema_migrations", as: Int64.self, logger: logger).first ?? 0
                let known = migrations.map(\.version).max() ?? 0
                guard newest <= known else {
                    throw VoucherFailure("the database is at voucher schema version \(newest), newer than this livery knows (\(known)): upgrade livery")
                }
                let done = try await connection.rows("SELECT 1::bigint FROM livery_schema_migrations WHERE version = \(migration.version)", as: Int64.self, logger: logger)
                guard done.isEmpty else { return false }
                for statement in migration.statements {
                    try await connection.perform(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.perform("INSERT INTO livery_schema_migrations(version) VALUES (\(migration.version))", logger: logger)
                return true
            }
            if didApply { applied.append(migration.version) }
        }
        return applied
    }
}

extension PostgresConnection {
    /// Runs `body` between BEGIN and COMMIT, rolling back if it throws. Unlike PostgresNIO's
    /// `withTransaction`, the body's own error comes out unwrapped (a `VoucherFailure` stays one).
    func inTransaction<Result: Sendable>(logger: Logger, _ body: (PostgresConnection) async throws -> Result) async throws -> Result {
        try await perform("BEGIN", logger: logger)
        do {
            let result = try await body(self)
            try await perform("COMMIT", logger: logger)
            return result
        } catch {
            // A failed ROLLBACK leaves nothing to undo: the server aborts the transaction when the connection drops.
            try? await perform("ROLLBACK", logger: logger)
            throw error
        }
    }

    /// Runs a statement and reads its rows to the end (the connection is free for the next one).
    func perform(_ query: PostgresQuery, logger: Logger) async throws {
        for try await _ in try await self.query(query, logger: logger) {}
    }

    /// All rows of a one-column query.
    func rows<Value: PostgresDecodable>(_ query: PostgresQuery, as: Value.Type, logger: Logger) async throws -> [Value] {
        var values: [Value] = []
        for try await value in try await self.query(query, logger: logger).decode(Value.self) { values.append(value) }
        return values
    }
}
