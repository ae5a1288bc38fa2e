import Crypto
import Foundation
import LiveryEncoding
import LiveryReleaseFormat

/// Where vouchers are kept, as far as redemption, the protected-target guard and `livery vouchers`
/// are concerned: one SQLite file (`VoucherStore`, the default) or a PostgreSQL database shared by
/// several `livery serve` instances (`PostgresVoucherStore`). Both keep the same tables and give the
/// same answers; the callers never ask which one they hold.
public protocol VoucherBackend: Sendable {
    /// The database for messages: a file path, or a PostgreSQL URL without its password.
    var location: String { get }

    /// The HMAC key for tokens: made once and kept in the database, so that every server sharing
    /// the database accepts the tokens of every other.
    func tokenSecret() async throws -> SymmetricKey

    /// Creates `count` codes for one subject (tour, program, library item or pack) in one transaction and returns them (the only time they exist in clear).
    func issue(tenant: String, subject: VoucherSubject, count: Int, devices: Int, expires: Date?, now: Date) async throws -> [VoucherCode]

    /// Every voucher of `tenant`, oldest first.
    func list(tenant: String) async throws -> [VoucherSummary]

    /// Revokes the voucher with this code, or with this first group if exactly one voucher has it.
    func revoke(_ typed: String, now: Date) async throws -> VoucherSummary

    /// Redeems `code` for `device`: a device that redeemed it before is let in again without spending
    /// a place; a new device takes a free place. Atomic against every other redemption of the code.
    func redeem(tenant: String, code: VoucherCode, device: String, now: Date) async throws -> VoucherRedemption

    /// Whether voucher `id` of `tenant` still grants access (not revoked, not expired).
    func isValid(voucher id: Int64, tenant: String, now: Date) async throws -> Bool

    /// Releases connections; the backend is not used afterwards.
    func close() async
}

/// A voucher database problem (unknown code, ambiguous prefix, unreachable server), worded for the user.
public struct VoucherFailure: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// One voucher as `livery vouchers list` shows it.
public struct VoucherSummary: Sendable, Equatable {
    public var prefix: String
    public var tenant: String
    /// What the voucher unlocks. The database's `tour` column holds its text form (a bare id is a tour).
    public var subject: VoucherSubject
    public var devicesUsed: Int
    public var devices: Int
    /// The first moment the code no longer works (the day after `--expires`, 00:00 UTC); nil: never.
    public var expires: Date?
    public var revoked: Date?
    public var created: Date
}

/// What a redemption attempt came to.
public enum VoucherRedemption: Sendable, Equatable {
    /// The device may have a token; `expires` is the voucher's own expiry, if any.
    case granted(voucher: Int64, subject: VoucherSubject, expires: Date?)
    /// Unknown, revoked or expired: one answer for all three, so that guessing learns nothing.
    case invalid
    /// A valid code already redeemed on as many devices as it allows.
    case exhausted
}

/// The `--vouchers` option of `livery serve` and `livery vouchers`: a SQLite file, or a PostgreSQL URL.
public enum VoucherDatabase: Sendable, CustomStringConvertible {
    case sqlite(URL)
    case postgres(PostgresLocation)

    /// `--vouchers`: a PostgreSQL URL, a file path, or (nil) the file inside the output's hidden `.livery/`. A path
    /// inside the output folder must be under a hidden folder, or `serve` would hand it out.
    public init(option: String?, output: URL) throws {
        guard let option else {
            self = .sqlite(ReleaseServer.defaultVoucherDatabase(root: output))
            return
        }
        if Self.isPostgresURL(option) {
            self = .postgres(try PostgresLocation(url: option))
            return
        }
        let url = URL(fileURLWithPath: option).standardizedFileURL
        let root = output.standardizedFileURL.path + "/"
        if url.path.hasPrefix(root), !url.path.dropFirst(root.count).split(separator: "/").dropLast().contains(where: { $0.hasPrefix(".") }) {
            throw VoucherFailure("--vouchers \(option) is inside the served folder \(output.path) and would be downloadable: "
                                 + "put it under a hidden folder such as \(output.path)/.livery/, or outside")
        }
        self = .sqlite(url)
    }

    /// `postgres://…` and `postgresql://…` are PostgreSQL; anything else is a file path (relative to
    /// the working folder).
    public static func isPostgresURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://")
    }

    public var description: String {
        switch self {
        case .sqlite(let url): url.path
        case .postgres(let location): location.description
        }
    }

    /// Opens the database for `livery vouchers`. With `create: false` a missing SQLite file is nil
    /// (listing never creates one); PostgreSQL is always connected to and migrated.
    public func open(create: Bool) async throws -> (any VoucherBackend)? {
        switch self {
        case .sqlite(let url):
            guard create || FileManager.default.fileExists(atPath: url.path) else { return nil }
            return SQLiteVoucherBackend(store: try VoucherStore(path: url.path))
        case .postgres(let location):
            return try await PostgresVoucherStore.connect(location)
        }
    }

    /// Runs `body` with the open back end (nil, nothing opened, for a missing SQLite file unless `create`), closing it
    /// afterwards however `body` ends.
    public func withBackend<T>(create: Bool, _ body: ((any VoucherBackend)?) async throws -> T) async throws -> T {
        let backend = try await open(create: create)
        do {
            let result = try await body(backend)
            await backend?.close()
            return result
        } catch {
            await backend?.close()
            throw error
        }
    }
}

/// The token secret as both back ends keep it in `settings` (key `token-secret`): 64 hex digits.
enum TokenSecretText {
    /// 32 fresh random bytes, in hex.
    static func fresh() -> String {
        SymmetricKey(size: .bits256).withUnsafeBytes { Hex.encode($0) }
    }

    /// The key, or nil unless `hex` is exactly 32 bytes of hex.
    static func key(_ hex: String) -> SymmetricKey? {
        guard let bytes = Hex.decode(hex), bytes.count == 32 else { return nil }
        return SymmetricKey(data: bytes)
    }
}

extension VoucherSubject {
    /// A subject as the database's `tour` column holds it; text that is no subject (a damaged row)
    /// reads as a tour of that name, which no release has.
    static func stored(_ text: String) -> VoucherSubject { VoucherSubject(text) ?? VoucherSubject(.tour, text) }
}
