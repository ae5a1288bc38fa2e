import Foundation
import Hummingbird
import Logging
import NIOCore

/// `livery serve`: every tenant's release in `Output/` over HTTP, as a CDN would serve it.
///
/// Files are served by Hummingbird's file middleware (range requests, ETag and If-None-Match,
/// If-Modified-Since, content types). In front of it: only GET and HEAD, no request bodies, no
/// path with `..` or a hidden component (`Output/.livery/` holds the store and caches), bounded
/// header sizes; one log line per request. SIGINT and SIGTERM shut down gracefully.
public struct ReleaseServer: Sendable {
    public var root: URL
    public var host: String
    public var port: Int
    public var log: @Sendable (String) -> Void

    public init(root: URL, host: String = "127.0.0.1", port: Int = 8080, log: @escaping @Sendable (String) -> Void) {
        self.root = root
        self.host = host
        self.port = port
        self.log = log
    }

    /// Runs until SIGINT or SIGTERM; `onListening` receives the bound port (useful with port 0).
    public func run(onListening: @escaping @Sendable (Int) -> Void = { _ in }) async throws {
        let router = Router()
        router.add(middleware: RequestLog(log: log))
        router.add(middleware: RequestGuard())
        router.add(middleware: FileMiddleware(root.path, cacheControl: .init([
            (MediaType(type: .application, subType: "json"), [.noCache]),
            (MediaType(type: .application, subType: "zip"), [.public, .maxAge(31_536_000)]),
        ]), logger: Logger(label: "livery.serve.files", factory: { _ in SwiftLogNoOpLogHandler() })).withAdditionalMediaTypes(forFileExtensions: ["zst": MediaType(type: .application, subType: "zstd")]))
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(host, port: port), serverName: "livery"),
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? 0) },
            logger: Logger(label: "livery.serve", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        try await app.runService()
    }
}

/// Refuses what a static release server never needs before any file is looked at.
struct RequestGuard<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .get || request.method == .head else {
            return Response(status: .methodNotAllowed, headers: [.allow: "GET, HEAD"])
        }
        if let length = request.headers[.contentLength], length != "0" {
            return Response(status: .contentTooLarge)
        }
        guard let path = request.uri.path.removingPercentEncoding, path.utf8.count <= 1024 else { return Response(status: .badRequest) }
        // No parent folders, and nothing hidden: Output/.livery holds the content store and caches.
        let components = path.split(separator: "/")
        if components.contains(where: { $0 == ".." || $0.hasPrefix(".") }) || path.contains("\\") || path.contains("\0") {
            return Response(status: .notFound)
        }
        return try await next(request, context)
    }
}

/// One line per request: method, path, status, bytes and time.
struct RequestLog<Context: RequestContext>: RouterMiddleware {
    let log: @Sendable (String) -> Void

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            let length = response.headers[.contentLength] ?? "-"
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
