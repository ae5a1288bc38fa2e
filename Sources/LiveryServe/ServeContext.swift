import Foundation
import LiveryReleaseFormat
import Hummingbird
import NIOCore
import NIOPosix

/// The request context of `livery serve`: Hummingbird's basics plus the client's address, which
/// the redemption rate limit counts by.
public struct ServeContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}

/// The voucher side of a running server: the back end, the published access rules and the
/// failed-attempt counter.
///
/// A SQLite database is opened when it first exists, so that serving never creates it, and opened
/// again when it is deleted or replaced (one `stat` per call, on the thread pool). A PostgreSQL
/// back end is connected (and migrated) before the server listens, and shared by every request.
final class VoucherState: @unchecked Sendable {
    /// How long a token lasts (at most: never past its voucher's expiry).
    static let tokenLifetime: TimeInterval = 30 * 86_400

    enum Source {
        case sqlite(path: String)
        case shared(any VoucherBackend)
    }

    let source: Source
    let releases: ReleaseStore
    let contentSecrets: ContentSecrets
    private let folderAccess: ReleaseAccessCache
    private let bucketAccess: BucketReleaseAccess?
    let failures = FailureRateLimiter(limit: 10, window: 60)
    let log: @Sendable (String) -> Void
    private let lock = NSLock()
    // Guarded by `lock`: nil until the SQLite file exists; with the inode it was opened at.
    private var opened: (backend: SQLiteVoucherBackend, inode: UInt64)?

    init(root: URL, source: Source, releases: ReleaseStore = .folder, contentKeys: URL? = nil, log: @escaping @Sendable (String) -> Void) {
        self.source = source
        self.releases = releases
        self.log = log
        contentSecrets = ContentSecrets(folder: contentKeys)
        folderAccess = ReleaseAccessCache(root: root)
        if case .bucket(let client, let location) = releases {
            bucketAccess = BucketReleaseAccess(client: client, location: location)
        } else {
            bucketAccess = nil
        }
    }

    /// The tenant's current access rules, from the served folder or the bucket; nil when it has no release.
    func access(tenant: String) async throws -> ReleaseAccess? {
        if let bucketAccess { return try await bucketAccess.access(tenant: tenant) }
        let folderAccess = folderAccess
        return try await NIOThreadPool.singleton.runIfActive { try folderAccess.access(tenant: tenant) }
    }

    /// The access rules of a file the server itself serves (always the served folder's).
    func servedAccess(tenant: String) async throws -> ReleaseAccess? {
        let folderAccess = folderAccess
        return try await NIOThreadPool.singleton.runIfActive { try folderAccess.access(tenant: tenant) }
    }

    /// The back end, or nil while there is no SQLite file (no code can be valid then).
    func backend() async throws -> (any VoucherBackend)? {
        switch source {
        case .shared(let backend): return backend
        case .sqlite(let path): return try await NIOThreadPool.singleton.runIfActive { try self.openSQLite(path) }
        }
    }

    private func openSQLite(_ path: String) throws -> SQLiteVoucherBackend? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let inode = UInt64(info.st_ino)
        return try lock.withLock {
            if let opened, opened.inode == inode { return opened.backend }
            let backend = SQLiteVoucherBackend(store: try VoucherStore(path: path))
            opened = (backend, inode)
            return backend
        }
    }

    /// The answer when the database fails (unreachable, timed out): the reason goes to the log, the
    /// client learns only that it may try again.
    func unavailable(_ error: any Error) -> Response {
        log("vouchers: \(error)")
        return .json(.serviceUnavailable, ["error": "the voucher database is not available; try again later"], headers: [.retryAfter: "5"])
    }
}

extension Response {
    /// A small JSON answer (`{"error": "..."}` or a grant), never cached by anyone.
    static func json(_ status: HTTPResponse.Status, _ object: [String: Any], headers extra: HTTPFields = [:]) -> Response {
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return json(status, body: body, headers: extra)
    }

    /// A document of the release format, written by its own deterministic writer.
    static func json(_ status: HTTPResponse.Status, _ value: JSONValue, headers extra: HTTPFields = [:]) -> Response {
        json(status, body: value.bytes, headers: extra)
    }

    private static func json(_ status: HTTPResponse.Status, body: Data, headers extra: HTTPFields) -> Response {
        var headers: HTTPFields = [.contentType: "application/json", .contentLength: String(body.count), .cacheControl: "no-store"]
        headers.append(contentsOf: extra)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
