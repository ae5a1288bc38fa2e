import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import LiveryClientCore

/// The default transport: AsyncHTTPClient on SwiftNIO, with TLS from the platform (NIOSSL, or Network.framework
/// on Apple platforms). Its response delegate hands each body part to the receiver before NIO reads on, so
/// nothing piles up; redirects and decompression are off.
public final class AsyncHTTPTransport: HTTPTransport {
    let client: HTTPClient

    /// The process's shared transport (one connection pool, as `HTTPClient.shared` is): `HTTPRepository`'s default.
    public static let shared = AsyncHTTPTransport(connectTimeout: 10)

    /// `connectTimeout`: seconds for a TCP (and TLS) connection to be set up.
    public init(connectTimeout: TimeInterval) {
        let timeout = HTTPClient.Configuration.Timeout(connect: .milliseconds(Int64(connectTimeout * 1000)), read: nil)
        var pool = HTTPClient.Configuration.ConnectionPool(idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: 8)
        // A refused or unreachable connection fails the request at once. AsyncHTTPClient's default retries with
        // backoff until the connect timeout, so a device without a server waited 10–20 s before falling back to the
        // installed release; the caller (HTTPRepository) decides what to retry.
        pool.retryConnectionEstablishment = false
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: HTTPClient.Configuration(
            redirectConfiguration: .disallow, timeout: timeout, connectionPool: pool, decompression: .disabled))
    }

    deinit {
        // An `HTTPClient` must be shut down before it is released; the shared one lives as long as the process.
        client.shutdown { _ in }
    }

    public func start(_ request: HTTPExchangeRequest, receiver: any HTTPResponseReceiver) -> @Sendable () -> Void {
        let delegate = Delegate(receiver)
        var headers = HTTPHeaders()
        for field in request.headers { headers.add(name: field.name, value: field.value) }
        let prepared: HTTPClient.Request
        do {
            prepared = try HTTPClient.Request(url: request.url, method: HTTPMethod(rawValue: request.method), headers: headers,
                                              body: request.body.map { .data($0) })
        } catch {
            receiver.end(error)
            return {}
        }
        let task = client.execute(request: prepared, delegate: delegate)
        return { task.cancel() }
    }

    /// Hands the response to the receiver as NIO reads it, on the event loop: the receiver only appends to memory
    /// or writes to a file (page cache), which is quicker than a hop to another queue and back, and NIO reads no
    /// more from the socket until it returns. (With a hop per part the 538 MB media fetch measured 3.47 s best,
    /// 3.65 s median; without, 3.30 s and 3.56 s: docs/benchmarks.md.)
    final class Delegate: HTTPClientResponseDelegate, @unchecked Sendable {
        typealias Response = Void
        let receiver: any HTTPResponseReceiver

        init(_ receiver: any HTTPResponseReceiver) { self.receiver = receiver }

        func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
            receiver.head(status: Int(head.status.code), headers: head.headers.map { (name: $0.name, value: $0.value) })
            return task.eventLoop.makeSucceededVoidFuture()
        }

        func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
            receiver.body(Data(buffer: buffer))
            return task.eventLoop.makeSucceededVoidFuture()
        }

        func didFinishRequest(task: HTTPClient.Task<Void>) throws {
            receiver.end(nil)
        }

        func didReceiveError(task: HTTPClient.Task<Void>, _ error: Error) {
            receiver.end(TransportFailure(error))
        }
    }
}

/// A transport's failure in words: NIO's and AsyncHTTPClient's errors describe themselves as type names
/// (`connectTimeout`, `NIOConnectionError(…)`), which mean little in a fetch's message.
struct TransportFailure: Error, CustomStringConvertible {
    let underlying: any Error

    init(_ underlying: any Error) { self.underlying = underlying }

    var description: String {
        // AsyncHTTPClient wraps the connection attempts' errors in several types across platforms and versions;
        // their descriptions are what they share.
        let text = String(describing: underlying)
        if text.contains("connectTimeout") { return "could not connect in time" }
        if text.contains("connectionRefused") || text.contains("ECONNREFUSED") || text.contains("Connection refused") { return "connection refused" }
        return text
    }
}
