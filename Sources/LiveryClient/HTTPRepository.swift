import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LiveryTUF

/// A tenant's repository on an HTTP server (`livery serve`, a CDN, object storage).
///
/// It asks nothing of the server but GET: redirects are followed (a few, never from https to http),
/// a `403` for a metadata file counts as missing (object storage answers 403 for a missing key when
/// listing is not public), a server that ignores `Range` is fine, and ETags are never read: the TUF
/// lengths and hashes decide. Every response is bounded: a transfer stops as soon as it passes the
/// length the caller allows (endless-data protection). Metadata stays in memory; large targets stream
/// to a file, resuming a partial download with a range request when the server supports one. All
/// requests of a repository share one `URLSession`, so its connections are reused.
public final class HTTPRepository: RepositorySource, @unchecked Sendable {
    public let base: URL
    private let session: URLSession
    private let transfers = TransferTable()
    private let counter = ByteCounter()

    /// Bytes received from the server by this repository object (for delta measurements).
    public var bytesReceived: Int { counter.value }

    /// Redirects followed for one request, at most (python-tuf's requests default is 30, curl's 50; a
    /// CDN needs one or two).
    public static let maxRedirects = 10

    /// The body of an answer that is not the file (a 404 page, a redirect) is read up to this many bytes.
    static let errorBodyLimit = 64 << 10

    public init(base: URL, timeout: TimeInterval = 30) {
        self.base = base
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        session = URLSession(configuration: configuration, delegate: SessionDelegate(transfers), delegateQueue: nil)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// A file in memory, at most `maxLength` bytes. Missing (nil): a 404, or a 403 under `metadata/`.
    /// A 403 for anything else (a target) is an error that says so: it is access refused, and a target the
    /// signed metadata lists should be there.
    public func fetch(_ path: String, maxLength: Int) throws -> Data? {
        try fetch(path, maxLength: maxLength, forbiddenIsMissing: path.hasPrefix("metadata/"))
    }

    /// `fetch(_:maxLength:)`, saying whether a 403 means "not there": true for TUF metadata, where the
    /// client probes for files that may not exist (`N+1.root.json`) and object storage that hides which
    /// keys exist answers 403 for them.
    public func fetch(_ path: String, maxLength: Int, forbiddenIsMissing: Bool) throws -> Data? {
        let answer = try perform(URLRequest(url: url(of: path)), into: .memory, rangeLimit: maxLength, wholeLimit: maxLength)
        switch answer.status {
        case 200: return answer.body
        case 404: return nil
        case 403 where forbiddenIsMissing: return nil
        case 403: throw TUFError(.download, "\(path): HTTP 403 Forbidden: the server refuses this file (access denied, or a missing object on storage that hides which keys exist)")
        default: throw TUFError(.download, "\(path): HTTP \(answer.status)")
        }
    }

    /// Downloads `path` into `file`, appending to what a previous attempt left there (HTTP range).
    /// Returns false on 404. Throws if the server sends more than `maxLength` bytes in all.
    /// `bearer` is the access token of a voucher-protected target; the server's refusal of it (or
    /// its absence) is a `VoucherAccessError`, not a missing file. A 403 without a token is an error.
    @discardableResult
    public func download(_ path: String, to file: URL, maxLength: Int, bearer: String? = nil, progress: (@Sendable (Int) -> Void)? = nil) throws -> Bool {
        try download(from: url(of: path), named: path, to: file, maxLength: maxLength, bearer: bearer, progress: progress)
    }

    /// `download(_:to:maxLength:bearer:)` from any URL (a signed URL of a protected target, which may
    /// be on another host), named `path` in errors. A 403 is a `VoucherAccessError`: the signature expired or was refused.
    @discardableResult
    /// `progress` hears the file's size after each write (on the session's queue).
    public func download(from address: URL, named path: String, to file: URL, maxLength: Int, bearer: String? = nil,
                         progress: (@Sendable (Int) -> Void)? = nil) throws -> Bool {
        let signed = address.query != nil
        if !FileManager.default.fileExists(atPath: file.path) { FileManager.default.createFile(atPath: file.path, contents: nil) }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        while true {
            let existing = Int(try handle.seekToEnd())
            guard existing < maxLength || maxLength == 0 else {
                if existing == maxLength { return true }
                throw TUFError(.downloadLengthMismatch, "\(path): the partial download is longer than the \(maxLength) bytes allowed")
            }
            // A large target is asked for in ranges of `rangeLength`: FoundationNetworking hands over received data
            // without waiting for it to be written, so one unbounded response could pile up in memory. A server
            // without range support answers 200 with the whole file, which is taken as it comes (bounded by `maxLength`).
            let rangeEnd = maxLength > Self.rangeLength ? min(existing + Self.rangeLength, maxLength) : nil
            var request = URLRequest(url: address)
            if existing > 0 || rangeEnd != nil { request.setValue("bytes=\(existing)-\(rangeEnd.map { String($0 - 1) } ?? "")", forHTTPHeaderField: "Range") }
            if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
            progress?(existing)
            let status = try perform(request, into: .file(handle, offset: existing, progress: progress), rangeLimit: (rangeEnd ?? maxLength) - existing,
                                     wholeLimit: maxLength).status
            switch status {
            case 401: throw VoucherAccessError(path: path, status: status, hadToken: bearer != nil || signed)
            case 403 where bearer != nil || signed: throw VoucherAccessError(path: path, status: status, hadToken: true)
            case 403: throw TUFError(.download, "\(path): HTTP 403 Forbidden: the server refuses this target (access denied, or a missing object on storage that hides which keys exist)")
            case 404: return false
            case 200: return true  // the whole file (the transfer started it again at offset 0)
            case 206:
                // The next range, unless this one ended the file (shorter than the range asked for).
                guard let rangeEnd, Int(try handle.seekToEnd()) == rangeEnd, rangeEnd < maxLength else { return true }
            case 416: return existing > 0
            default: throw TUFError(.download, "\(path): HTTP \(status)")
            }
        }
    }

    /// Appends exactly the bytes `range` of `path` to `handle`, asked for in ranges of at most
    /// `rangeLength` bytes (each held in memory once, so memory stays bounded). Anything but a 206 answer of
    /// exactly the bytes asked for is refused: a server that ignores ranges sends the whole file, and the
    /// client then downloads the bundle whole instead.
    public func copyRange(_ path: String, _ range: Range<Int>, to handle: FileHandle) throws {
        var at = range.lowerBound
        while at < range.upperBound {
            let end = min(at + Self.rangeLength, range.upperBound)
            var request = URLRequest(url: url(of: path))
            request.setValue("bytes=\(at)-\(end - 1)", forHTTPHeaderField: "Range")
            let answer = try perform(request, into: .memory, rangeLimit: end - at, wholeLimit: end - at)
            switch answer.status {
            case 206 where answer.body.count == end - at: try handle.write(contentsOf: answer.body)
            case 206: throw TUFError(.download, "\(path): asked for \(end - at) bytes at \(at), the server sent \(answer.body.count)")
            case 200: throw TUFError(.download, "\(path): the server ignores range requests")
            case 403: throw TUFError(.download, "\(path): HTTP 403 Forbidden: the server refuses this file")
            default: throw TUFError(.download, "\(path): HTTP \(answer.status)")
            }
            at = end
        }
    }

    /// `path` under the base URL. Paths arrive URL-ready (role names quoted by `TUFName`), so they
    /// are joined as text: `appendingPathComponent` would quote their `%` a second time.
    func url(of path: String) -> URL {
        let base = self.base.absoluteString.hasSuffix("/") ? String(self.base.absoluteString.dropLast()) : self.base.absoluteString
        return URL(string: base + "/" + path) ?? self.base.appendingPathComponent(path)
    }

    /// The largest response asked for at once (see `download`).
    static let rangeLength = 4 << 20

    /// Where a response body goes.
    enum Sink {
        /// Into memory (metadata, small answers).
        case memory
        /// Into a file after its first `offset` bytes (a 200 answer starts the file again); `progress`
        /// hears the file's size after each write.
        case file(FileHandle, offset: Int, progress: (@Sendable (Int) -> Void)? = nil)
    }

    /// Sends `request`, following redirects itself (see `redirect(from:to:status:hops:)`), and takes a 200 or
    /// 206 body into `sink`: a 206 answer may bring `rangeLimit` bytes, a 200 (the whole file) `wholeLimit`.
    func perform(_ request: URLRequest, into sink: Sink, rangeLimit: Int, wholeLimit: Int) throws -> (status: Int, body: Data) {
        var current = request
        var hops = 0
        while true {
            let transfer = Transfer(sink: sink, rangeLimit: rangeLimit, wholeLimit: wholeLimit, counter: counter)
            let task = session.dataTask(with: current)
            transfers.insert(transfer, for: task.taskIdentifier)
            defer { transfers.remove(task.taskIdentifier) }
            task.resume()
            transfer.done.wait()
            if let error = transfer.failure { throw error }
            guard [301, 302, 303, 307, 308].contains(transfer.status), let location = transfer.location else { return (transfer.status, transfer.body) }
            hops += 1
            current = try Self.redirect(from: current, to: location, status: transfer.status, hops: hops)
        }
    }

    /// The request a redirect asks for, or why it is refused: more than `maxRedirects` hops, a scheme other
    /// than http(s), or https to http (a downgrade would let anyone on the path answer instead). The access
    /// token goes only to the origin it was meant for.
    static func redirect(from request: URLRequest, to location: String, status: Int, hops: Int) throws -> URLRequest {
        let from = request.url?.absoluteString ?? "?"
        guard hops <= maxRedirects else { throw TUFError(.download, "\(from): more than \(maxRedirects) redirects") }
        guard let source = request.url, let target = URL(string: location, relativeTo: source)?.absoluteURL,
              let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https", target.host != nil else {
            throw TUFError(.download, "\(from): HTTP \(status) redirects to '\(location)', which is not an http(s) URL")
        }
        if source.scheme?.lowercased() == "https" && scheme == "http" {
            throw TUFError(.download, "\(from): refused a redirect from https to http (\(target.absoluteString))")
        }
        var next = request
        next.url = target
        if status == 303 || ((status == 301 || status == 302) && request.httpMethod == "POST") {
            next.httpMethod = "GET"
            next.httpBody = nil
        }
        func origin(_ url: URL) -> String {
            let scheme = url.scheme?.lowercased() ?? ""
            return "\(scheme)://\(url.host?.lowercased() ?? ""):\(url.port ?? (scheme == "https" ? 443 : 80))"
        }
        if origin(source) != origin(target) { next.setValue(nil, forHTTPHeaderField: "Authorization") }
        return next
    }

    final class ByteCounter: @unchecked Sendable {
        // Guarded by `lock`.
        private var count = 0
        private let lock = NSLock()
        var value: Int { lock.withLock { count } }
        func add(_ n: Int) { lock.withLock { count += n } }
    }

    /// The transfers in flight on the repository's session, by task identifier.
    final class TransferTable: @unchecked Sendable {
        // Guarded by `lock`.
        private var byTask: [Int: Transfer] = [:]
        private let lock = NSLock()
        func insert(_ transfer: Transfer, for task: Int) { lock.withLock { byTask[task] = transfer } }
        func remove(_ task: Int) { _ = lock.withLock { byTask.removeValue(forKey: task) } }
        subscript(task: Int) -> Transfer? { lock.withLock { byTask[task] } }
    }

    /// The one delegate of the repository's session: hands each callback to its task's transfer, and
    /// declines every redirect so that `perform` decides (URLSession would follow https to http, and
    /// FoundationNetworking sends the token to any host a redirect names).
    final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        let transfers: TransferTable
        init(_ transfers: TransferTable) { self.transfers = transfers }

        func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
            completionHandler(nil)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
            transfers[dataTask.taskIdentifier]?.received(response)
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            transfers[dataTask.taskIdentifier]?.received(data, task: dataTask)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
            transfers[task.taskIdentifier]?.completed(task, error: error)
        }
    }

    /// One response, taken into its sink, refusing to go past the limit.
    final class Transfer: @unchecked Sendable {
        // Touched only on the session's delegate queue, then read after `done` is signalled.
        let sink: Sink
        let rangeLimit: Int, wholeLimit: Int
        let counter: ByteCounter
        var received = 0
        var status = 0
        var location: String?
        var body = Data()
        var failure: Error?
        /// Set once the outcome is decided; later callbacks are ignored.
        var finished = false
        let done = DispatchSemaphore(value: 0)

        init(sink: Sink, rangeLimit: Int, wholeLimit: Int, counter: ByteCounter) {
            self.sink = sink
            self.rangeLimit = rangeLimit
            self.wholeLimit = wholeLimit
            self.counter = counter
        }

        func received(_ response: URLResponse) {
            guard !finished, status == 0, let http = response as? HTTPURLResponse else { return }
            status = http.statusCode
            location = http.value(forHTTPHeaderField: "Location")
            if status == 200, case .file(let handle, let offset, _) = sink, offset > 0 {
                // The server ignored the range and sends the whole file: it replaces what was there.
                do {
                    try handle.truncate(atOffset: 0)
                } catch { failure = error }
            }
        }

        func received(_ data: Data, task: URLSessionDataTask) {
            guard !finished else { return }
            if status == 0, let response = task.response { received(response) }
            counter.add(data.count)
            received += data.count
            guard status == 200 || status == 206 else {
                // Not the file: its body is not needed, and it may not be endless either.
                if received > HTTPRepository.errorBodyLimit { stop(nil, task: task) }
                return
            }
            let limit = status == 206 ? rangeLimit : wholeLimit
            if received > limit {
                stop(TUFError(.downloadLengthMismatch, "\(task.originalRequest?.url?.path ?? "download") sent more than the \(limit) bytes expected (endless data)"), task: task)
                return
            }
            switch sink {
            case .memory: body.append(data)
            case .file(let handle, let offset, let progress):
                do {
                    try handle.write(contentsOf: data)
                    progress?((status == 206 ? offset : 0) + received)
                } catch { stop(error, task: task) }
            }
        }

        /// Decides the outcome at once and gives up the task, without waiting for the cancel to land.
        private func stop(_ error: Error?, task: URLSessionTask) {
            if let error { failure = error }
            finished = true
            task.cancel()
            done.signal()
        }

        func completed(_ task: URLSessionTask, error: Error?) {
            guard !finished else { return }
            // A declined redirect may complete without a response callback on some platforms.
            if status == 0, let response = task.response { received(response) }
            finished = true
            if let error, failure == nil { failure = TUFError(.download, "\(task.originalRequest?.url?.absoluteString ?? "download"): \(error.localizedDescription)") }
            done.signal()
        }
    }
}
