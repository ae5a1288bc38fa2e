import Foundation
import LiveryTUF
import Hummingbird
import NIOCore

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

/// The voucher side of a running server: the database (opened when it first exists, so that
/// serving never creates it), the published access rules and the failed-attempt counter.
final class VoucherState: @unchecked Sendable {
    /// How long a token lasts (at most: never past its voucher's expiry).
    static let tokenLifetime: TimeInterval = 30 * 86_400

    let databasePath: String
    let access: ReleaseAccessCache
    let failures = FailureRateLimiter(limit: 10, window: 60)
    private let lock = NSLock()
    // Guarded by `lock`: nil until the database file exists; with the inode it was opened at.
    private var opened: (store: VoucherStore, inode: UInt64)?

    init(root: URL, databasePath: String) {
        self.databasePath = databasePath
        access = ReleaseAccessCache(root: root)
    }

    /// The store, or nil while there is no database file (no code can be valid then). A database
    /// deleted or replaced while serving is noticed (one `stat`) and opened again.
    func store() throws -> VoucherStore? {
        var info = stat()
        guard stat(databasePath, &info) == 0 else { return nil }
        let inode = UInt64(info.st_ino)
        return try lock.withLock {
            if let opened, opened.inode == inode { return opened.store }
            let store = try VoucherStore(path: databasePath)
            opened = (store, inode)
            return store
        }
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
