import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LiveryTUF

/// A tenant's repository on an HTTP server (`livery serve`, a CDN, object storage).
///
/// Every response is bounded: the delegate cancels a transfer as soon as it passes the length the
/// caller allows (endless-data protection), and large targets stream to a file, resuming a partial
/// download with an HTTP range request.
public final class HTTPRepository: RepositorySource, @unchecked Sendable {
    public let base: URL
    private let session: URLSession
    private let counter = ByteCounter()

    /// Bytes received from the server by this repository object (for delta measurements).
    public var bytesReceived: Int { counter.value }

    public init(base: URL, timeout: TimeInterval = 30) {
        self.base = base
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration)
    }

    public func fetch(_ path: String, maxLength: Int) throws -> Data? {
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("livery-fetch-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: temporary) }
        guard try download(path, to: temporary, maxLength: maxLength) else { return nil }
        return try Data(contentsOf: temporary)
    }

    /// Downloads `path` into `file`, appending to what a previous attempt left there (HTTP range).
    /// Returns false on 404. Throws if the server sends more than `maxLength` bytes in all.
    /// `bearer` is the access token of a voucher-protected target; the server's refusal of it (or
    /// its absence) is a `VoucherAccessError`, not a missing file.
    @discardableResult
    public func download(_ path: String, to file: URL, maxLength: Int, bearer: String? = nil) throws -> Bool {
        if !FileManager.default.fileExists(atPath: file.path) { FileManager.default.createFile(atPath: file.path, contents: nil) }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        while true {
            let existing = Int(try handle.seekToEnd())
            guard existing < maxLength || maxLength == 0 else {
                if existing == maxLength { return true }
                throw TUFError(.downloadLengthMismatch, "\(path): the partial download is longer than the \(maxLength) bytes allowed")
            }
            // A large target comes in ranges of `rangeLength`: FoundationNetworking hands over received data
            // without waiting for it to be written, so one unbounded response could pile up in memory.
            let rangeEnd = maxLength > Self.rangeLength ? min(existing + Self.rangeLength, maxLength) : nil
            var request = URLRequest(url: url(of: path))
            if existing > 0 || rangeEnd != nil { request.setValue("bytes=\(existing)-\(rangeEnd.map { String($0 - 1) } ?? "")", forHTTPHeaderField: "Range") }
            if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
            let status = try perform(request, into: handle, rangeLimit: (rangeEnd ?? maxLength) - existing, wholeLimit: maxLength)
            switch status {
            case 401: throw VoucherAccessError(path: path, status: status, hadToken: bearer != nil)
            case 403 where bearer != nil: throw VoucherAccessError(path: path, status: status, hadToken: true)
            case 404, 403: return false  // object stores answer 403 for a missing key
            case 200:
                if existing > 0 {
                    // The server ignored the range and sent the whole file after what was there: start again.
                    try handle.truncate(atOffset: 0)
                    return try download(path, to: file, maxLength: maxLength, bearer: bearer)
                }
                return true
            case 206:
                // The next range, unless this one ended the file (shorter than the range asked for).
                guard let rangeEnd, Int(try handle.seekToEnd()) == rangeEnd, rangeEnd < maxLength else { return true }
            case 416: return existing > 0
            default: throw TUFError(.download, "\(path): HTTP \(status)")
            }
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

    /// Sends `request` and streams a 200 or 206 body into `handle`, at most `limit` bytes; returns the status.
    /// A 206 answer may bring `rangeLimit` bytes, a 200 (the whole file) `wholeLimit`.
    func perform(_ request: URLRequest, into handle: FileHandle, rangeLimit: Int, wholeLimit: Int) throws -> Int {
        let transfer = Transfer(handle: handle, rangeLimit: rangeLimit, wholeLimit: wholeLimit, counter: counter)
        let delegateSession = URLSession(configuration: session.configuration, delegate: transfer, delegateQueue: nil)
        defer { delegateSession.finishTasksAndInvalidate() }
        let task = delegateSession.dataTask(with: request)
        task.resume()
        transfer.done.wait()
        if let error = transfer.failure { throw error }
        return transfer.status
    }

    final class ByteCounter: @unchecked Sendable {
        // Guarded by `lock`.
        private var count = 0
        private let lock = NSLock()
        var value: Int { lock.withLock { count } }
        func add(_ n: Int) { lock.withLock { count += n } }
    }

    /// Streams one response into a file, refusing to go past the limit.
    final class Transfer: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        // Touched only on the session's delegate queue, then read after `done` is signalled.
        let handle: FileHandle
        let rangeLimit: Int, wholeLimit: Int
        let counter: ByteCounter
        var received = 0
        var status = 0
        var failure: Error?
        /// Set once the outcome is decided; later callbacks are ignored.
        var finished = false
        let done = DispatchSemaphore(value: 0)

        init(handle: FileHandle, rangeLimit: Int, wholeLimit: Int, counter: ByteCounter) {
            self.handle = handle
            self.rangeLimit = rangeLimit
            self.wholeLimit = wholeLimit
            self.counter = counter
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
            status = (response as? HTTPURLResponse)?.statusCode ?? 0
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            guard !finished else { return }
            counter.add(data.count)
            guard status == 200 || status == 206 else { return }
            received += data.count
            let limit = status == 206 ? rangeLimit : wholeLimit
            if received > limit {
                // Stop at once: give up the transfer and the session, without waiting for the cancel to land.
                stop(TUFError(.downloadLengthMismatch, "\(dataTask.originalRequest?.url?.path ?? "download") sent more than the \(limit) bytes expected (endless data)"), session: session, task: dataTask)
                return
            }
            do { try handle.write(contentsOf: data) } catch { stop(error, session: session, task: dataTask); return }
        }

        private func stop(_ error: Error, session: URLSession, task: URLSessionTask) {
            failure = error
            finished = true
            task.cancel()
            session.invalidateAndCancel()
            done.signal()
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
            guard !finished else { return }
            finished = true
            if let error, failure == nil { failure = TUFError(.download, "\(task.originalRequest?.url?.absoluteString ?? "download"): \(error.localizedDescription)") }
            done.signal()
        }
    }
}
