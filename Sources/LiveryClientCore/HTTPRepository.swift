import Foundation
import LiveryReleaseFormat

/// A tenant's repository on an HTTP server (`livery serve`, a CDN, object storage).
///
/// It asks nothing of the server but GET: redirects are followed (a few, never from https to http),
/// a `403` for the next root version counts as missing (object storage answers 403 for a missing key when
/// listing is not public) while any other 401 or 403 is an `AccessRefused`, a server that ignores `Range` is fine, and ETags are never read: the TUF
/// lengths and hashes decide. Every answer is held to `policy` (`TransferPolicy`): a byte budget counted
/// as the body arrives (endless-data protection), a deadline for the answer to start and a minimum
/// progress after that (slow-retrieval protection), and no content coding. Metadata stays in memory;
/// large targets stream to a file, resuming a partial download with a range request when the server
/// supports one. Requests go through `transport` (by default one shared connection pool).
public final class HTTPRepository: RepositorySource, @unchecked Sendable {
    public let base: URL
    public let policy: TransferPolicy
    /// How this repository reaches its server (the default, with `import LiveryClient`, is `AsyncHTTPTransport.shared`).
    public let transport: any HTTPTransport
    private let counter = ByteCounter()

    /// Bytes received from the server by this repository object (for delta measurements).
    public var bytesReceived: Int { counter.value }

    public init(base: URL, policy: TransferPolicy = .standard, transport: any HTTPTransport) {
        self.base = base
        self.policy = policy
        self.transport = transport
    }

    /// A file in memory, at most `maxLength` bytes. Missing (nil): a 404, or a 403 for the next root version
    /// the client probes for. Any other 401 or 403 is an `AccessRefused`: a file the client must have (the
    /// timestamp, a versioned file the snapshot names, a target) that the server will not give is refused
    /// access, whether the store hides a missing key behind the 403 or its policy does not let anyone read it,
    /// and calling it missing sends the operator looking in the wrong place.
    public func fetch(_ path: String, maxLength: Int) throws -> Data? {
        try fetch(path, maxLength: maxLength, forbiddenIsMissing: Self.isRootProbe(path))
    }

    /// `metadata/<N>.root.json`: the one file a client asks for without knowing that it exists (TUF §5.3.3).
    static func isRootProbe(_ path: String) -> Bool {
        guard path.hasPrefix("metadata/"), path.hasSuffix(".root.json") else { return false }
        let version = path.dropFirst("metadata/".count).dropLast(".root.json".count)
        return !version.isEmpty && version.allSatisfy(\.isASCII) && version.allSatisfy(\.isNumber)
    }

    /// `fetch(_:maxLength:)`, saying whether a 403 means "not there": true for TUF metadata, where the
    /// client probes for files that may not exist (`N+1.root.json`) and object storage that hides which
    /// keys exist answers 403 for them.
    public func fetch(_ path: String, maxLength: Int, forbiddenIsMissing: Bool) throws -> Data? {
        let answer = try perform(HTTPExchangeRequest(url: url(of: path)), into: .memory, rangeLimit: maxLength, wholeLimit: maxLength)
        switch answer.status {
        case 200: return answer.body
        case 404: return nil
        case 403 where forbiddenIsMissing: return nil
        case 401, 403: throw AccessRefused(status: answer.status, address: Self.shown(url(of: path)))
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
        let existing = Int(try handle.seekToEnd())
        guard existing < maxLength || maxLength == 0 else {
            if existing == maxLength { return true }
            throw TUFError(.downloadLengthMismatch, "\(path): the partial download is longer than the \(maxLength) bytes allowed")
        }
        // One request for the whole file, or for the rest of it after an interrupted attempt. The transport reads
        // no faster than the file is written (`HTTPResponseReceiver`), so memory stays small whatever the size; a
        // server without range support answers 200 with the whole file, which starts the file again.
        var request = HTTPExchangeRequest(url: address)
        if existing > 0 { request.set("Range", "bytes=\(existing)-") }
        if let bearer { request.set("Authorization", "Bearer \(bearer)") }
        progress?(existing)
        let status = try perform(request, into: .file(handle, offset: existing, progress: progress), rangeLimit: maxLength - existing,
                                 wholeLimit: maxLength).status
        switch status {
        case 401: throw VoucherAccessError(path: path, status: status, hadToken: bearer != nil || signed)
        case 403 where bearer != nil || signed: throw VoucherAccessError(path: path, status: status, hadToken: true)
        case 403: throw AccessRefused(status: status, address: Self.shown(address))
        case 404: return false
        case 200, 206: return true
        case 416: return existing > 0
        default: throw TUFError(.download, "\(path): HTTP \(status)")
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
            var request = HTTPExchangeRequest(url: url(of: path))
            request.set("Range", "bytes=\(at)-\(end - 1)")
            let answer = try perform(request, into: .memory, rangeLimit: end - at, wholeLimit: end - at)
            switch answer.status {
            case 206 where answer.body.count == end - at: try handle.write(contentsOf: answer.body)
            case 206: throw TUFError(.download, "\(path): asked for \(end - at) bytes at \(at), the server sent \(answer.body.count)")
            case 200: throw TUFError(.download, "\(path): the server ignores range requests")
            case 401, 403: throw AccessRefused(status: answer.status, address: Self.shown(request.url))
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

    /// The largest range `copyRange` asks for at once (each is held in memory).
    static let rangeLength = 4 << 20

    /// Where a response body goes.
    enum Sink {
        /// Into memory (metadata, small answers).
        case memory
        /// Into a file after its first `offset` bytes (a 200 answer starts the file again); `progress`
        /// hears the file's size after each write.
        case file(FileHandle, offset: Int, progress: (@Sendable (Int) -> Void)? = nil)
    }

    /// Sends `request`, following redirects itself (see `redirect(from:to:status:hops:policy:)`), and takes a 200 or
    /// 206 body into `sink`: a 206 answer may bring `rangeLimit` bytes, a 200 (the whole file) `wholeLimit`.
    func perform(_ request: HTTPExchangeRequest, into sink: Sink, rangeLimit: Int, wholeLimit: Int) throws -> (status: Int, body: Data) {
        var current = request
        current.set("Accept-Encoding", "identity")
        var hops = 0
        var retried = false
        while true {
            let transfer = Transfer(sink: sink, rangeLimit: rangeLimit, wholeLimit: wholeLimit, policy: policy, counter: counter,
                                    name: current.url.path, address: Self.shown(current.url))
            transfer.run(current, on: transport)
            if let error = transfer.failure {
                // A kept-alive connection that the server closed just as it was reused fails before any answer: a
                // GET is sent once more, on a new connection (nothing was received, so nothing is undone).
                if transfer.lostBeforeAnswer, !retried, current.method == "GET" {
                    retried = true
                    continue
                }
                throw error
            }
            guard [301, 302, 303, 307, 308].contains(transfer.status), let location = transfer.location else { return (transfer.status, transfer.body) }
            hops += 1
            current = try Self.redirect(from: current, to: location, status: transfer.status, hops: hops, policy: policy)
        }
    }

    /// `url` for messages: without its query, which for a signed URL is a credential.
    static func shown(_ url: URL) -> String {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url.path }
        parts.query = nil
        parts.fragment = nil
        return parts.string ?? url.path
    }

    /// The request a redirect asks for, or why it is refused: more than `maxRedirects` hops, a scheme other
    /// than http(s), or https to http (a downgrade would let anyone on the path answer instead). The access
    /// token goes only to the origin it was meant for.
    static func redirect(from request: HTTPExchangeRequest, to location: String, status: Int, hops: Int,
                         policy: TransferPolicy = .standard) throws -> HTTPExchangeRequest {
        let source = request.url
        let from = source.absoluteString
        guard hops <= policy.maxRedirects else { throw TUFError(.download, "\(from): more than \(policy.maxRedirects) redirects") }
        guard let target = URL(string: location, relativeTo: source)?.absoluteURL,
              let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https", target.host != nil else {
            throw TUFError(.download, "\(from): HTTP \(status) redirects to '\(location)', which is not an http(s) URL")
        }
        if source.scheme?.lowercased() == "https" && scheme == "http" {
            throw TUFError(.download, "\(from): refused a redirect from https to http (\(target.absoluteString))")
        }
        var next = request
        next.url = target
        if status == 303 || ((status == 301 || status == 302) && request.method == "POST") {
            next.method = "GET"
            next.body = nil
            next.set("Content-Type", nil)
        }
        func origin(_ url: URL) -> String {
            let scheme = url.scheme?.lowercased() ?? ""
            return "\(scheme)://\(url.host?.lowercased() ?? ""):\(url.port ?? (scheme == "https" ? 443 : 80))"
        }
        if origin(source) != origin(target) { next.set("Authorization", nil) }
        return next
    }

    final class ByteCounter: @unchecked Sendable {
        // Guarded by `lock`.
        private var count = 0
        private let lock = NSLock()
        var value: Int { lock.withLock { count } }
        func add(_ n: Int) { lock.withLock { count += n } }
    }

    /// One answer, taken into its sink and held to the policy: the byte limit on every piece as it
    /// arrives, the response deadline and the minimum progress on a timer, whichever comes first.
    final class Transfer: HTTPResponseReceiver, @unchecked Sendable {
        let sink: Sink
        let rangeLimit: Int, wholeLimit: Int
        let policy: TransferPolicy
        let counter: ByteCounter
        /// The path, for messages; the whole URL where the server could not be reached.
        let name: String, address: String
        let done = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        // Guarded by `lock`; read by `perform` after `done`.
        private(set) var status = 0
        private(set) var location: String?
        private(set) var body = Data()
        private(set) var failure: Error?
        /// The transport failed before any answer arrived (not a refusal of this policy's).
        private(set) var lostBeforeAnswer = false
        private var received = 0
        /// Set once the outcome is decided; later callbacks are ignored.
        private var finished = false
        private var cancel: (@Sendable () -> Void)?
        private var cancelRequested = false
        private let started = DispatchTime.now()
        private var windowStart = DispatchTime.now()
        private var windowBytes = 0

        init(sink: Sink, rangeLimit: Int, wholeLimit: Int, policy: TransferPolicy, counter: ByteCounter, name: String, address: String) {
            self.address = address
            self.sink = sink
            self.rangeLimit = rangeLimit
            self.wholeLimit = wholeLimit
            self.policy = policy
            self.counter = counter
            self.name = name
        }

        /// Sends `request` on `transport` and returns once the outcome is decided.
        func run(_ request: HTTPExchangeRequest, on transport: any HTTPTransport) {
            let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global())
            let tick = min(1.0, policy.progressWindow / 4, policy.responseTimeout / 4)
            timer.schedule(deadline: .now() + tick, repeating: tick)
            timer.setEventHandler { [self] in checkDeadlines() }
            timer.resume()
            defer { timer.cancel() }
            let stop = transport.start(request, receiver: self)
            let stopNow = lock.withLock { () -> Bool in
                cancel = stop
                return cancelRequested
            }
            if stopNow { stop() }
            done.wait()
        }

        func head(status: Int, headers: [(name: String, value: String)]) {
            lock.withLock {
                guard !finished, self.status == 0 else { return }
                self.status = status
                windowStart = .now()
                func field(_ name: String) -> String? { headers.last { $0.name.lowercased() == name }?.value }
                location = field("location")
                guard status == 200 || status == 206 else { return }
                if let coding = field("content-encoding")?.trimmingCharacters(in: .whitespaces), !coding.isEmpty, coding.lowercased() != "identity" {
                    // A coding would have to be undone before any length could be checked, and TUF's lengths and
                    // hashes are the file's own: the client asks for none and takes none (a decompression bomb
                    // is one small answer away otherwise).
                    return stop(TUFError(.download, "\(name): the server sent the file with Content-Encoding '\(coding)', which the client did not ask for (it sends Accept-Encoding: identity): serve Livery's files as they are"))
                }
                let limit = status == 206 ? rangeLimit : wholeLimit
                if let declared = field("content-length").flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }), declared > limit {
                    return stop(TUFError(.downloadLengthMismatch, "\(name): the server announces \(declared) bytes, more than the \(limit) expected"))
                }
                if case .file(let handle, let offset, _) = sink {
                    if status == 206, offset > 0, Self.rangeStart(field("content-range")) != offset {
                        return stop(TUFError(.download, "\(name): asked for the bytes from \(offset) on, the server sent '\(field("content-range") ?? "no Content-Range")'"))
                    }
                    if status == 200, offset > 0 {
                        // The server ignored the range and sends the whole file: it replaces what was there.
                        do { try handle.truncate(atOffset: 0) } catch { stop(error) }
                    }
                }
            }
        }

        func body(_ piece: Data) {
            lock.withLock {
                guard !finished else { return }
                counter.add(piece.count)
                received += piece.count
                windowBytes += piece.count
                guard status == 200 || status == 206 else {
                    // Not the file: its body is not needed, and it may not be endless either.
                    if received > policy.errorBodyLimit { stop(nil) }
                    return
                }
                let limit = status == 206 ? rangeLimit : wholeLimit
                if received > limit {
                    return stop(TUFError(.downloadLengthMismatch, "\(name) sent more than the \(limit) bytes expected (endless data)"))
                }
                switch sink {
                case .memory: body.append(piece)
                case .file(let handle, let offset, let progress):
                    do {
                        try handle.write(contentsOf: piece)
                        progress?((status == 206 ? offset : 0) + received)
                    } catch { stop(error) }
                }
            }
        }

        func end(_ error: Error?) {
            lock.withLock {
                guard !finished else { return }
                if let error {
                    failure = TUFError(.download, "\(status == 0 ? address : name): \(error)")
                    lostBeforeAnswer = status == 0
                } else if status == 0 {
                    failure = TUFError(.download, "\(name): the connection ended without an answer")
                }
                finished = true
                done.signal()
            }
        }

        /// The response deadline before the header, the minimum progress after it.
        private func checkDeadlines() {
            lock.withLock {
                guard !finished else { return }
                let now = DispatchTime.now()
                if status == 0 {
                    if seconds(from: started, to: now) >= policy.responseTimeout {
                        stop(TUFError(.download, "\(name): no answer within \(Self.shown(policy.responseTimeout)) s (slow retrieval)"))
                    }
                } else if seconds(from: windowStart, to: now) >= policy.progressWindow {
                    if windowBytes < policy.minimumBytesPerWindow {
                        stop(TUFError(.download, "\(name): \(windowBytes) bytes in \(Self.shown(policy.progressWindow)) s, fewer than the \(policy.minimumBytesPerWindow) the client requires (slow retrieval)"))
                    }
                    windowStart = now
                    windowBytes = 0
                }
            }
        }

        private func seconds(from start: DispatchTime, to end: DispatchTime) -> Double {
            Double(end.uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        }

        /// Decides the outcome at once and abandons the exchange. Called with `lock` held.
        private func stop(_ error: Error?) {
            if let error { failure = error }
            finished = true
            if let cancel { DispatchQueue.global().async(execute: cancel) } else { cancelRequested = true }
            done.signal()
        }

        /// The first byte of a `Content-Range: bytes a-b/n` value.
        static func rangeStart(_ value: String?) -> Int? {
            guard let value, let spec = value.split(separator: " ").last, let dash = spec.firstIndex(of: "-") else { return nil }
            return Int(spec[..<dash])
        }

        static func shown(_ seconds: TimeInterval) -> String {
            seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.1f", seconds)
        }
    }
}
