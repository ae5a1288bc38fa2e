import Crypto
import Foundation
import LiveryStorage
import LiverySQLite
import LiveryReleaseFormat

/// The default voucher back end of `livery serve` and `livery vouchers`: one SQLite database (WAL),
/// by default `Output/.livery/vouchers.sqlite`. Its calls block (SQLite may wait for another
/// writer): servers reach it through `SQLiteVoucherBackend`, which runs them on NIO's thread pool.
///
/// Tables: `vouchers` (one row per code: the SHA-256 of the code, never the code; its first group;
/// tenant, tour, device limit, expiry, revocation), `redemptions` (one row per voucher and device)
/// and `settings` (the token secret). Every write runs in a `BEGIN IMMEDIATE` transaction, which
/// takes SQLite's write lock at once: two servers, or a server and `livery vouchers revoke`, never
/// interleave a redemption's read and write. Within one process, `lock` keeps a transaction's
/// statements together on the shared connection.
public final class VoucherStore: @unchecked Sendable {
    // The shared value types of both back ends (see VoucherBackend), under their old names too.
    public typealias Failure = VoucherFailure
    public typealias Summary = VoucherSummary
    public typealias Redemption = VoucherRedemption

    public let path: String
    private let database: SQLiteDatabase
    private let lock = NSLock()
    // Read once; guarded by `lock`.
    private var cachedSecret: SymmetricKey?

    /// Opens (and creates, with its folder) the database at `path`.
    public init(path: String) throws {
        self.path = path
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        try WriteFailure.writing(folder.path) { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        database = try SQLiteDatabase(path: path)
        try transaction {
            try database.execute("""
                CREATE TABLE IF NOT EXISTS vouchers(
                    id INTEGER PRIMARY KEY,
                    code_sha256 TEXT NOT NULL UNIQUE,
                    prefix TEXT NOT NULL,
                    tenant TEXT NOT NULL,
                    tour TEXT NOT NULL,
                    devices INTEGER NOT NULL CHECK (devices > 0),
                    expires INTEGER,
                    created INTEGER NOT NULL,
                    revoked INTEGER);
                CREATE INDEX IF NOT EXISTS vouchers_by_tenant ON vouchers(tenant, prefix);
                CREATE TABLE IF NOT EXISTS redemptions(
                    voucher INTEGER NOT NULL REFERENCES vouchers(id),
                    device TEXT NOT NULL,
                    first INTEGER NOT NULL,
                    last INTEGER NOT NULL,
                    PRIMARY KEY (voucher, device));
                CREATE TABLE IF NOT EXISTS settings(key TEXT PRIMARY KEY, value TEXT NOT NULL);
                """)
        }
    }

    /// Runs `body` as one write transaction; rolls back if it throws.
    private func transaction<T>(_ body: () throws -> T) throws -> T {
        try lock.withLock {
            try database.execute("BEGIN IMMEDIATE")
            do {
                let result = try body()
                try database.execute("COMMIT")
                return result
            } catch {
                try? database.execute("ROLLBACK")
                throw error
            }
        }
    }

    /// The token secret if this store has read it already (no I/O, so callable on an event loop).
    public var knownTokenSecret: SymmetricKey? { lock.withLock { cachedSecret } }

    /// The HMAC key for tokens: 32 random bytes, made on first use and kept in `settings`.
    public func tokenSecret() throws -> SymmetricKey {
        if let secret = lock.withLock({ cachedSecret }) { return secret }
        let hex = try transaction { () -> String in
            try database.query("INSERT OR IGNORE INTO settings(key, value) VALUES ('token-secret', ?)", [.text(TokenSecretText.fresh())])
            return try database.query("SELECT value FROM settings WHERE key = 'token-secret'").first?.first?.text ?? ""
        }
        guard let secret = TokenSecretText.key(hex) else { throw Failure("the token secret in \(path) is damaged") }
        lock.withLock { cachedSecret = secret }
        return secret
    }

    /// Creates `count` codes for one tour, all in one transaction, and returns them (the only time
    /// they exist in clear).
    public func issue(tenant: String, subject: VoucherSubject, count: Int, devices: Int, expires: Date?, now: Date = Date()) throws -> [VoucherCode] {
        let codes = (0..<count).map { _ in VoucherCode.random() }
        try transaction {
            for code in codes {
                try database.query("INSERT INTO vouchers(code_sha256, prefix, tenant, tour, devices, expires, created) VALUES (?, ?, ?, ?, ?, ?, ?)",
                                   [.text(code.sha256), .text(code.prefix), .text(tenant), .text(subject.description), .int(Int64(devices)),
                                    expires.map { .int(Self.seconds($0)) } ?? .null, .int(Self.seconds(now))])
            }
        }
        return codes
    }

    /// Every voucher of `tenant`, oldest first.
    public func list(tenant: String) throws -> [Summary] {
        try lock.withLock {
            try database.query("""
                SELECT prefix, tenant, tour, (SELECT COUNT(*) FROM redemptions WHERE voucher = vouchers.id), devices, expires, revoked, created
                FROM vouchers WHERE tenant = ? ORDER BY created, id
                """, [.text(tenant)]).map(Self.summary)
        }
    }

    /// Revokes the voucher with this code, or with this first group if exactly one voucher has it.
    /// Returns it (revoked before, or now).
    public func revoke(_ typed: String, now: Date = Date()) throws -> Summary {
        try transaction {
            let rows: [[SQLiteDatabase.Value]]
            if let code = VoucherCode(typed: typed) {
                rows = try database.query("SELECT id FROM vouchers WHERE code_sha256 = ?", [.text(code.sha256)])
            } else if let prefix = VoucherCode.prefix(typed: typed) {
                rows = try database.query("SELECT id FROM vouchers WHERE prefix = ?", [.text(prefix)])
                guard rows.count <= 1 else { throw Failure("\(rows.count) vouchers start with \(prefix): give the whole code") }
            } else {
                throw Failure("'\(typed)' is not a voucher code (20 characters such as K7QF-9XWM-2HDR-T4PB-6NZC, or the first group as `livery vouchers list` shows it)")
            }
            guard let id = rows.first?.first?.int else { throw Failure("no such voucher in \(path)") }
            try database.query("UPDATE vouchers SET revoked = ? WHERE id = ? AND revoked IS NULL", [.int(Self.seconds(now)), .int(id)])
            let row = try database.query("""
                SELECT prefix, tenant, tour, (SELECT COUNT(*) FROM redemptions WHERE voucher = vouchers.id), devices, expires, revoked, created
                FROM vouchers WHERE id = ?
                """, [.int(id)])
            return Self.summary(row[0])
        }
    }

    /// Redeems `code` for `device` on `tenant`: a device that redeemed it before is always let in
    /// again (its row is refreshed, no use is spent); a new device takes one of the free places.
    /// The read and the insert are one transaction, so parallel requests never over-spend a code.
    public func redeem(tenant: String, code: VoucherCode, device: String, now: Date = Date()) throws -> Redemption {
        try transaction {
            let rows = try database.query("SELECT id, tour, devices, expires, revoked FROM vouchers WHERE code_sha256 = ? AND tenant = ?",
                                          [.text(code.sha256), .text(tenant)])
            guard let row = rows.first, let id = row[0].int, let tour = row[1].text, let devices = row[2].int else { return .invalid }
            let expires = row[3].int.map { Date(timeIntervalSince1970: TimeInterval($0)) }
            if row[4].int != nil { return .invalid }
            if let expires, now >= expires { return .invalid }
            let moment = Self.seconds(now)
            let known = try database.query("SELECT 1 FROM redemptions WHERE voucher = ? AND device = ?", [.int(id), .text(device)])
            if known.isEmpty {
                let used = try database.query("SELECT COUNT(*) FROM redemptions WHERE voucher = ?", [.int(id)]).first?.first?.int ?? 0
                guard used < devices else { return .exhausted }
                try database.query("INSERT INTO redemptions(voucher, device, first, last) VALUES (?, ?, ?, ?)", [.int(id), .text(device), .int(moment), .int(moment)])
            } else {
                try database.query("UPDATE redemptions SET last = ? WHERE voucher = ? AND device = ?", [.int(moment), .int(id), .text(device)])
            }
            return .granted(voucher: id, subject: .stored(tour), expires: expires)
        }
    }

    /// Whether voucher `id` of `tenant` still grants access: not revoked, not expired (one lookup by
    /// primary key, made for every protected download).
    public func isValid(voucher id: Int64, tenant: String, now: Date = Date()) throws -> Bool {
        let rows = try lock.withLock { try database.query("SELECT expires, revoked FROM vouchers WHERE id = ? AND tenant = ?", [.int(id), .text(tenant)]) }
        guard let row = rows.first, row[1].int == nil else { return false }
        if let expires = row[0].int, Self.seconds(now) >= expires { return false }
        return true
    }

    static func seconds(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded(.down)) }

    private static func summary(_ row: [SQLiteDatabase.Value]) -> Summary {
        Summary(prefix: row[0].text ?? "", tenant: row[1].text ?? "", subject: .stored(row[2].text ?? ""), devicesUsed: Int(row[3].int ?? 0), devices: Int(row[4].int ?? 0),
                expires: row[5].int.map { Date(timeIntervalSince1970: TimeInterval($0)) },
                revoked: row[6].int.map { Date(timeIntervalSince1970: TimeInterval($0)) },
                created: Date(timeIntervalSince1970: TimeInterval(row[7].int ?? 0)))
    }
}
