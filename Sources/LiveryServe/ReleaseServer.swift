import Foundation
import Hummingbird
import Logging
import NIOCore

/// `livery serve`: every tenant's release in `Output/` over HTTP, as a CDN would serve it.
///
/// Files are served by Hummingbird's file middleware (range requests, ETag and If-None-Match,
/// If-Modified-Since, content types). In front of it: voucher redemption (`POST
/// /<tenant>/vouchers/redeem`, the only request with a body), then only GET and HEAD, no request
/// bodies, no path with `..` or a hidden component (`Output/.livery/` holds the store, caches and
/// voucher database), bounded header sizes, and a bearer token for voucher-protected targets;
/// one log line per request. SIGINT and SIGTERM shut down gracefully.
public struct ReleaseServer: Sendable {
    public var root: URL
    public var host: String
    public var port: Int
    /// The voucher database: a SQLite file (default `<root>/.livery/vouchers.sqlite`, which serve
    /// never creates) or PostgreSQL (connected to and migrated before listening).
    public var vouchers: VoucherDatabase
    /// Where the releases that redemptions grant access to live (`.folder`: `root` itself).
    public var releases: ReleaseStore = .folder
    /// The key store folder holding each tenant's `content.key` (needed to unlock encrypted bundles).
    public var contentKeys: URL?
    public var log: @Sendable (String) -> Void

    public init(root: URL, host: String = "127.0.0.1", port: Int = 8080, vouchers: VoucherDatabase? = nil, log: @escaping @Sendable (String) -> Void) {
        self.root = root
        self.host = host
        self.port = port
        self.vouchers = vouchers ?? .sqlite(Self.defaultVoucherDatabase(root: root))
        self.log = log
    }

    /// `<output>/.livery/vouchers.sqlite`: inside a hidden folder, which is never served.
    public static func defaultVoucherDatabase(root: URL) -> URL {
        root.appendingPathComponent(".livery/vouchers.sqlite")
    }

    /// Runs until SIGINT or SIGTERM; `onListening` receives the bound port (useful with port 0).
    /// A PostgreSQL voucher database that cannot be reached fails here, before listening.
    public func run(onListening: @escaping @Sendable (Int) -> Void = { _ in }) async throws {
        let source: VoucherState.Source
        var shared: (any VoucherBackend)?
        switch vouchers {
        case .sqlite(let url): source = .sqlite(path: url.path)
        case .postgres(let location):
            let store = try await PostgresVoucherStore.connect(location)
            shared = store
            source = .shared(store)
        }
        do {
            try await serve(VoucherState(root: root, source: source, releases: releases, contentKeys: contentKeys, log: log), onListening: onListening)
        } catch {
            await shared?.close()
            throw error
        }
        await shared?.close()
    }

    private func serve(_ state: VoucherState, onListening: @escaping @Sendable (Int) -> Void) async throws {
        try await application(state, onListening: onListening).runService()
    }

    /// The server as an application value, without running it: what tests drive in process
    /// (HummingbirdTesting), with the SQLite voucher database (PostgreSQL needs `run`, which connects first).
    public func application() throws -> some ApplicationProtocol {
        guard case .sqlite(let url) = vouchers else { throw VoucherFailure("an in-process server takes a SQLite voucher database") }
        return application(VoucherState(root: root, source: .sqlite(path: url.path), releases: releases, contentKeys: contentKeys, log: log), onListening: { _ in })
    }

    private func application(_ state: VoucherState, onListening: @escaping @Sendable (Int) -> Void) -> some ApplicationProtocol {
        let router = Router(context: ServeContext.self)
        router.add(middleware: RequestLog(log: log))
        router.add(middleware: RedeemEndpoint(root: root, state: state))
        router.add(middleware: RequestGuard(root: root.path))
        router.add(middleware: ProtectedTargetGuard(state: state))
        router.add(middleware: FileMiddleware(root.path, cacheControl: .init([
            (MediaType(type: .application, subType: "json"), [.noCache]),
            (MediaType(type: .application, subType: "zip"), [.public, .maxAge(31_536_000)]),
            (MediaType(type: .application, subType: "zstd"), [.public, .maxAge(31_536_000)]),
        ]), logger: Logger(label: "livery.serve.files", factory: { _ in SwiftLogNoOpLogHandler() })).withAdditionalMediaTypes(forFileExtensions: ["zst": MediaType(type: .application, subType: "zstd")]))
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(host, port: port), serverName: "livery"),
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? 0) },
            logger: Logger(label: "livery.serve", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        return app
    }
}

/// Refuses what a static release server never needs before any file is looked at.
struct RequestGuard<Context: RequestContext>: RouterMiddleware {
    let root: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .get || request.method == .head else {
            return Response(status: .methodNotAllowed, headers: [.allow: "GET, HEAD"])
        }
        if let length = request.headers[.contentLength], length != "0" {
            return Response(status: .contentTooLarge)
        }
        if request.headers[.transferEncoding] != nil {
            return Response(status: .contentTooLarge)
        }
        guard let path = request.uri.path.removingPercentEncoding, path.utf8.count <= 1024 else { return Response(status: .badRequest) }
        // No parent folders, and nothing hidden: Output/.livery holds the content store and caches.
        let components = path.split(separator: "/")
        if components.contains(where: { $0 == ".." || $0.hasPrefix(".") }) || path.contains("\\") || path.contains("\0") {
            return Response(status: .notFound)
        }
        // Ranges are normalised here (RFC 9110 §14) before the file middleware sees them: a suffix
        // range becomes an explicit one, an end past the file is clamped, a start at or past the end
        // is 416, and several ranges get the whole file (allowed, and simpler for clients).
        if let range = request.headers[.range] {
            var head = request.head
            var size: Int64 = -1
            var info = stat()
            if stat(root + path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG { size = Int64(info.st_size) }
            switch Self.normalise(range, size: size) {
            case .whole: head.headerFields[.range] = nil
            case .range(let first, let last): head.headerFields[.range] = "bytes=\(first)-\(last)"
            case .unsatisfiable: return Response(status: .rangeNotSatisfiable, headers: [.contentRange: "bytes */\(max(size, 0))"])
            }
            return try await next(Request(head: head, body: request.body), context)
        }
        return try await next(request, context)
    }

    enum RangeDecision: Equatable { case whole, range(Int64, Int64), unsatisfiable }

    static func normalise(_ header: String, size: Int64) -> RangeDecision {
        guard size >= 0, header.hasPrefix("bytes="), !header.contains(",") else { return .whole }
        let spec = header.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return .whole }
        if parts[0].isEmpty {
            guard let suffix = Int64(parts[1]), suffix > 0 else { return .unsatisfiable }
            return size == 0 ? .unsatisfiable : .range(max(0, size - suffix), size - 1)
        }
        guard let first = Int64(parts[0]) else { return .whole }
        guard first < size else { return .unsatisfiable }
        let last = parts[1].isEmpty ? size - 1 : (Int64(parts[1]).map { min($0, size - 1) } ?? -1)
        return last >= first ? .range(first, last) : .whole
    }
}

/// One line per request: method, path, status, bytes and time.
struct RequestLog<Context: RequestContext>: RouterMiddleware {
    let log: @Sendable (String) -> Void

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            // Bytes of body actually sent: none for HEAD, 304 or 204, whatever Content-Length says.
            let bodyless = request.method == .head || response.status.code == 304 || response.status.code == 204
            let length = bodyless ? "0" : (response.headers[.contentLength] ?? "-")
            log("\(request.method) \(request.uri.path) \(response.status.code) \(length) \(Self.milliseconds(since: start))")
            return response
        } catch let error as HTTPError {
            log("\(request.method) \(request.uri.path) \(error.status.code) - \(Self.milliseconds(since: start))")
            throw error
        } catch {
            log("\(request.method) \(request.uri.path) 500 - \(Self.milliseconds(since: start))")
            throw error
        }
    }

    static func milliseconds(since start: ContinuousClock.Instant) -> String {
        let elapsed = ContinuousClock.now - start
        let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        return String(format: "%.1fms", ms)
    }
}
