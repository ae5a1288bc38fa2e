import Foundation

/// One HTTP request as the client sends it. Livery asks nothing of a server but GET (and POST for
/// vouchers), and never asks for a content coding: `Accept-Encoding: identity` goes with every request.
public struct HTTPExchangeRequest: Sendable {
    public var url: URL
    public var method: String
    public var headers: [(name: String, value: String)]
    public var body: Data?

    public init(url: URL, method: String = "GET", headers: [(name: String, value: String)] = [], body: Data? = nil) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
    }

    /// The value of header `name` (case-insensitive), if set.
    public func value(of name: String) -> String? {
        headers.last { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Sets (or, with nil, removes) header `name`.
    public mutating func set(_ name: String, _ value: String?) {
        headers.removeAll { $0.name.lowercased() == name.lowercased() }
        if let value { headers.append((name, value)) }
    }
}

/// What receives a response as it arrives. The transport calls it from one thread at a time, in order:
/// `head` once, `body` for each piece, then `end` once (or `end` alone when the exchange failed first).
public protocol HTTPResponseReceiver: AnyObject, Sendable {
    /// The status and header fields.
    func head(status: Int, headers: [(name: String, value: String)])
    /// A piece of the body as the server sent it (no content coding is undone). A transport must not read
    /// the next piece from the network before this returns: that is what keeps the client's memory bounded
    /// whatever a server sends.
    func body(_ piece: Data)
    /// The end: nil when the whole response arrived, or why it stopped.
    func end(_ error: Error?)
}

/// How `HTTPRepository` talks to servers. The client's byte budgets and deadlines
/// (`TransferPolicy`) are enforced above this protocol, on what `receiver` is handed, so any transport
/// is held to the same bounds; what a transport must give is the back-pressure `HTTPResponseReceiver.body`
/// describes, and it must neither follow redirects nor decode content codings itself.
///
/// The default is `AsyncHTTPTransport` (SwiftNIO). FoundationNetworking's `URLSession` on Linux cannot
/// be one: it hands received data to its delegate queue without waiting for it to be taken, so a fast
/// server piles its body up in memory before any limit can act (measured: about 3 GB for an endless
/// timestamp, about 590 MB for a 0.5 MB gzip body that libcurl inflates before the delegate sees it).
public protocol HTTPTransport: Sendable {
    /// Starts `request`. Returns a function that abandons the exchange; `receiver` then hears `end` at most
    /// once more, and nothing else.
    func start(_ request: HTTPExchangeRequest, receiver: any HTTPResponseReceiver) -> @Sendable () -> Void
}
