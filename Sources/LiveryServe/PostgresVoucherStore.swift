import Crypto
import Foundation
import LiveryReleaseFormat
import Logging
import NIOCore
import PostgresNIO

/// Vouchers in PostgreSQL, for several `livery serve` instances sharing one database: the same
/// tables and answers as the SQLite `VoucherStore` (see `PostgresMigrations`).
///
/// Queries go through a `PostgresClient` connection pool whose background task this store owns;
/// nothing blocks an event loop. A redemption is one READ COMMITTED transaction that locks the
/// voucher's row (`SELECT … FOR UPDATE`) before counting its devices: concurrent redemptions of one
/// code, from any instance, run one after another, so a code is never spent past its limit. The
/// token secret lives in `settings`, so a token from one instance is accepted by all.
public final class PostgresVoucherStore: VoucherBackend, @unchecked Sendable {
    /// How long one operation may wait for a connection and its answer before it fails (the pool
    /// otherwise retries an unreachable server forever, and a request would hang with it).
    static let deadline: Duration = .seconds(10)

    public let postgres: PostgresLocation
    public var location: String { postgres.description }
    private let client: PostgresClient
    private let runner: Task<Void, Never>
    private let logger = Logger(label: "livery.vouchers.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    private let lock = NSLock()
    // Guarded by `lock`: read once, never changes afterwards.
    private var cachedSecret: SymmetricKey?

    /// Connects once on its own (so that a bad URL, a refused connection or a wrong password is one
    /// clear error now rather than a pool retrying in the background), applies any pending
    /// migration, then starts the pool.
    public static func connect(_ location: PostgresLocation) async throws -> PostgresVoucherStore {
        try await PostgresMigrations.migrate(location)
        return try PostgresVoucherStore(location)
    }

    private init(_ location: PostgresLocation) throws {
        postgres = location
        var configuration = try location.clientConfiguration()
        configuration.options.connectTimeout = .seconds(5)
        // A statement stuck behind a lock fails rather than holding a request forever (milliseconds).
        configuration.options.additionalStartupParameters = [("statement_timeout", "10000"), ("application_name", "livery")]
        let client = PostgresClient(configuration: configuration)
        self.client = client
        runner = Task { await client.run() }
    }

    deinit { runner.cancel() }

    public func close() async {
        runner.cancel()
        await runner.value
    }

    /// A one-line reason from PostgresNIO's error (whose description hides everything on purpose):
    /// the server's message, or the network error underneath.
    static func reason(_ error: any Error) -> String {
        if let failure = error as? VoucherFailure { return failure.description }
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                return message + (error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? "")
            }
            if let underlying = error.underlying { return reason(underlying) }
            switch error.code {
            case .sslUnsupported: return "the server does not offer TLS, which the sslmode asks for (use ?sslmode=disable or prefer for a server without it)"
            case .authMechanismRequiresPassword: return "the server asks for a password: put it in the URL or in PGPASSWORD"
            case .serverClosedConnection, .uncleanShutdown: return "the server closed the connection"
            default: return "\(error.code)"
            }
        }
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)).lowercased() }
        if let error = error as? NIOConnectionError {
            if let first = error.connectionErrors.first { return reason(first.error) }
            if let dns = error.dnsAAAAError ?? error.dnsAError { return "cannot resolve \(error.host): \(dns)" }
            return "cannot connect to \(error.host):\(error.port)"
        }
        if let error = error as? ChannelError, case .connectTimeout(let amount) = error {
            return "no answer within \(amount.nanoseconds / 1_000_000_000) s"
        }
        return "\(error)"
    }

    /// Runs `body` on a pooled connection, failing with a `VoucherFailure` naming the database if it
    /// takes longer than `deadline` (an unreachable server) or the server refuses.
    private func withConnection<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T) async throws -> T {
        let client = client, logger = logger, location = postgres
        do {
            return try await withThrowingTaskGroup(of: T?.self) { group in
                group.addTask { try await client.withConnection { connection in try await body(connection, logger) } }
                group.addTask {
                    try await Task.sleep(for: Self.deadline)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let value = first else {
                    throw VoucherFailure("the voucher database \(location) did not answer within \(Self.deadline.components.seconds) s")
                }
                return value
            }
        } catch let failure as VoucherFailure {
            // The deadline, or a refusal worded for the user inside the transaction (ambiguous prefix, unknown code).
            throw failure
        } catch {
            throw VoucherFailure("the voucher database \(location) failed: \(Self.reason(error))")
        }
    }

    private func transaction<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T) async throws -> T {
        try await withConnection { connection, logger in
            try await connection.inTransaction(logger: logger) { connection in try await body(connection, logger) }
        }
    }

    public func tokenSecret() async throws -> SymmetricKey {
        if let secret = lock.withLock({ cachedSecret }) { return secret }
        let fresh = TokenSecretText.fresh()
        // ON CONFLICT DO NOTHING: the first instance to get here writes the secret, all others read it.
        let hex = try await withConnection { connection, logger in
            try await connection.perform("INSERT INTO settings(key, value) VALUES ('token-secret', \(fresh)) ON CONFLICT (key) DO NOTHING", logger: logger)
            return try await connection.rows("SELECT value FROM settings WHERE key = 'token-secret'", as: String.self, logger: logger).first ?? ""
        }
        guard let secret = TokenSecretText.key(hex) else { throw VoucherFailure("the token secret in \(location) is damaged") }
        lock.withLock { cachedSecret = secret }
        return secret
    }

    public func issue(tenant: String, subject: VoucherSubject, count: Int, devices: Int, expires: Date?, now: Date) async throws -> [VoucherCode] {
        let codes = (0..<count).map { _ in VoucherCode.random() }
        let hashes = codes.map(\.sha256), prefixes = codes.map(\.prefix)
        let expiry = expires.map(VoucherStore.seconds), created = VoucherStore.seconds(now), places = Int64(devices), tour = subject.description
        // One statement for all codes (arrays unnested), so that 10,000 codes are one round trip.
        try await transaction { connection, logger in
            try await connection.perform("""
                INSERT INTO vouchers(code_sha256, prefix, tenant, tour, devices, expires, created)
                SELECT code, prefix, \(tenant), \(tour), \(places), \(expiry), \(created)
                FROM unnest(\(hashes)::text[], \(prefixes)::text[]) AS issued(code, prefix)
                """, logger: logger)
        }
        return codes
    }

    public func list(tenant: String) async throws -> [VoucherSummary] {
        try await withConnection { connection, logger in
            try await Self.summaries(connection.query("""
                SELECT prefix, tenant, tour, (SELECT COUNT(*) FROM redemptions WHERE voucher = vouchers.id), devices::bigint, expires, revoked, created
                FROM vouchers WHERE tenant = \(tenant) ORDER BY created, id
                """, logger: logger))
        }
    }

    public func revoke(_ typed: String, now: Date) async throws -> VoucherSummary {
        let location = location, moment = VoucherStore.seconds(now)
        return try await transaction { connection, logger in
            let ids: [Int64]
            if let code = VoucherCode(typed: typed) {
                ids = try await connection.rows("SELECT id FROM vouchers WHERE code_sha256 = \(code.sha256)", as: Int64.self, logger: logger)
            } else if let prefix = VoucherCode.prefix(typed: typed) {
                ids = try await connection.rows("SELECT id FROM vouchers WHERE prefix = \(prefix)", as: Int64.self, logger: logger)
                guard ids.count <= 1 else { throw VoucherFailure("\(ids.count) vouchers start with \(prefix): give the whole code") }
            } else {
                throw VoucherFailure("'\(typed)' is not a voucher code (20 characters such as K7QF-9XWM-2HDR-T4PB-6NZC, or the first group as `livery vouchers list` shows it)")
            }
            guard let id = ids.first else { throw VoucherFailure("no such voucher in \(location)") }
            try await connection.perform("UPDATE vouchers SET revoked = \(moment) WHERE id = \(id) AND revoked IS NULL", logger: logger)
            let rows = try await Self.summaries(connection.query("""
                SELECT prefix, tenant, tour, (SELECT COUNT(*) FROM redemptions WHERE voucher = vouchers.id), devices::bigint, expires, revoked, created
                FROM vouchers WHERE id = \(id)
                """, logger: logger))
            guard let summary = rows.first else { throw VoucherFailure("no such voucher in \(location)") }
            return summary
        }
    }

    public func redeem(tenant: String, code: VoucherCode, device: String, now: Date) async throws -> VoucherRedemption {
        let hash = code.sha256, moment = VoucherStore.seconds(now)
        return try await transaction { connection, logger in
            // FOR UPDATE: every other redemption of this code, on any instance, waits here until we commit,
            // and then (READ COMMITTED, a fresh snapshot per statement) counts the device we added.
            var found: (id: Int64, tour: String, devices: Int64, expires: Int64?, revoked: Int64?)?
            for try await row in try await connection.query("""
                SELECT id, tour, devices::bigint, expires, revoked FROM vouchers WHERE code_sha256 = \(hash) AND tenant = \(tenant) FOR UPDATE
                """, logger: logger).decode((Int64, String, Int64, Int64?, Int64?).self) {
                found = row
            }
            guard let voucher = found, voucher.revoked == nil else { return .invalid }
            if let expires = voucher.expires, moment >= expires { return .invalid }
            // After the lock, in its own statement: a count inside the locking SELECT would use that
            // statement's snapshot, taken before the redemption we waited for had committed.
            var used: Int64 = 0, known: Int64 = 0
            for try await (all, this) in try await connection.query("""
                SELECT COUNT(*), COUNT(*) FILTER (WHERE device = \(device)) FROM redemptions WHERE voucher = \(voucher.id)
                """, logger: logger).decode((Int64, Int64).self) {
                (used, known) = (all, this)
            }
            if known == 0 {
                guard used < voucher.devices else { return .exhausted }
                try await connection.perform("INSERT INTO redemptions(voucher, device, first, last) VALUES (\(voucher.id), \(device), \(moment), \(moment))", logger: logger)
            } else {
                try await connection.perform("UPDATE redemptions SET last = \(moment) WHERE voucher = \(voucher.id) AND device = \(device)", logger: logger)
            }
            return .granted(voucher: voucher.id, subject: .stored(voucher.tour), expires: voucher.expires.map { Date(timeIntervalSince1970: TimeInterval($0)) })
        }
    }

    public func isValid(voucher id: Int64, tenant: String, now: Date) async throws -> Bool {
        let moment = VoucherStore.seconds(now)
        return try await withConnection { connection, logger in
            var valid = false
            for try await (expires, revoked) in try await connection.query("SELECT expires, revoked FROM vouchers WHERE id = \(id) AND tenant = \(tenant)", logger: logger)
                .decode((Int64?, Int64?).self) {
                valid = revoked == nil && (expires.map { moment < $0 } ?? true)
            }
            return valid
        }
    }

    private static func summaries(_ rows: PostgresRowSequence) async throws -> [VoucherSummary] {
        var out: [VoucherSummary] = []
        for try await (prefix, tenant, tour, used, devices, expires, revoked, created) in rows.decode((String, String, String, Int64, Int64, Int64?, Int64?, Int64).self) {
            out.append(VoucherSummary(prefix: prefix, tenant: tenant, subject: .stored(tour), devicesUsed: Int(used), devices: Int(devices),
                                      expires: expires.map { Date(timeIntervalSince1970: TimeInterval($0)) },
                                      revoked: revoked.map { Date(timeIntervalSince1970: TimeInterval($0)) },
                                      created: Date(timeIntervalSince1970: TimeInterval(created))))
        }
        return out
    }
}
