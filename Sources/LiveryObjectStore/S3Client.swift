import AsyncHTTPClient
import Crypto
import Foundation
import LiveryEncoding
import LiveryStorage
import NIOCore
import NIOFileSystem
import NIOFoundationCompat
import NIOHTTP1
import NIOPosix

/// What went wrong talking to an object store, worded for the operator.
public enum S3Error: Error, CustomStringConvertible, Equatable {
    case configuration(String)
    /// The store answered with an error status (after retries, for retryable ones).
    case status(Int, code: String, message: String, request: String)
    /// No answer: connection refused, reset, timed out (after retries).
    case network(String, request: String)
    /// A local file or a published object is not what it must be (a file that cannot be read at all is a `ReadFailure`).
    case integrity(String)

    public var description: String {
        switch self {
        case .configuration(let text), .integrity(let text): return text
        case .status(let status, let code, let message, let request):
            return "\(request): HTTP \(status)" + (code.isEmpty ? "" : " \(code)") + (message.isEmpty ? "" : ": \(message)")
        case .network(let text, let request): return "\(request): \(text)"
        }
    }

    /// The store's error code (`NoSuchKey`, `PreconditionFailed`, …), or "".
    public var code: String { if case .status(_, let code, _, _) = self { return code } else { return "" } }
    public var status: Int? { if case .status(let status, _, _, _) = self { return status } else { return nil } }
}

/// An object as HEAD or a listing shows it.
public struct S3Object: Sendable, Equatable {
    public var key: String
    public var size: Int64
    /// The store's ETag, quotes removed. Not a content hash in general (multipart, encryption).
    public var etag: String
    /// `x-amz-meta-*` headers, by lower-case name without the prefix (HEAD only).
    public var metadata: [String: String]
    public var cacheControl: String?
    public var contentType: String?
}

/// What a PUT carries besides its body.
public struct S3PutOptions: Sendable {
    public var contentType: String
    public var cacheControl: String?
    /// Stored as `x-amz-meta-<name>`.
    public var metadata: [String: String] = [:]
    /// `If-None-Match: *`: create only; the store answers 412 if the key exists.
    public var createOnly = false
    /// `If-Match: "<etag>"`: replace only that version; 412 otherwise.
    public var ifMatch: String?

    public init(contentType: String, cacheControl: String? = nil, metadata: [String: String] = [:], createOnly: Bool = false, ifMatch: String? = nil) {
        self.contentType = contentType
        self.cacheControl = cacheControl
        self.metadata = metadata
        self.createOnly = createOnly
        self.ifMatch = ifMatch
    }
}

/// A request body: bytes in memory (small documents), or a range of a file, read from disk in
/// chunks as it is sent, so that a part or an object never sits in memory whole.
public enum S3Body: Sendable {
    case data(Data)
    case file(URL, range: Range<Int64>)

    var count: Int64 {
        switch self {
        case .data(let data): return Int64(data.count)
        case .file(_, let range): return Int64(range.count)
        }
    }
}

/// A small S3 client: the operations publishing needs, each signed with SigV4, retried with
/// exponential backoff and full jitter on throttling (429, 503 SlowDown), server errors (5xx) and
/// lost connections. It runs on AsyncHTTPClient (SwiftNIO): request bodies stream from files in
/// 256 KiB chunks (`S3Body.file`), so memory stays small whatever is uploaded; FoundationNetworking's
/// URLSession, used before, needed each body whole in memory and cost more CPU per byte than the store.
public final class S3Client: Sendable {
    public let configuration: S3Configuration
    let signer: SigV4Signer
    /// Attempts per request, the first included.
    public let attempts: Int

    /// One connection pool for the process (an `HTTPClient` must be shut down before it is released;
    /// this one lives as long as the process, as `HTTPClient.shared` does). No redirects are followed:
    /// a store that redirects names another region or endpoint, which is a configuration error.
    static let transport = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: HTTPClient.Configuration(
        redirectConfiguration: .disallow, timeout: .init(connect: .seconds(20), read: .seconds(120)),
        connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 32), decompression: .disabled))

    /// `connections` is kept for source compatibility: the shared pool allows 32 per host, and callers bound what is in flight.
    public init(configuration: S3Configuration, attempts: Int = 6, connections: Int = 16) {
        self.configuration = configuration
        self.attempts = max(1, attempts)
        signer = SigV4Signer(credentials: configuration.credentials, region: configuration.region)
    }

    // MARK: Addressing

    /// The URL of `key` in `bucket` (nil key: the bucket) with an encoded query, and the path SigV4 signs.
    func address(bucket: String, key: String?, query: String = "") -> (url: URL, path: String, host: String) {
        let endpoint = configuration.endpoint
        let scheme = endpoint.scheme!.lowercased()
        var host = endpoint.host!
        let port = endpoint.port.map { ":\($0)" } ?? ""
        var path: String
        switch configuration.addressing {
        case .path:
            path = "/" + bucket + (key.map { "/" + $0 } ?? "")
        case .virtualHost:
            host = bucket + "." + host
            path = "/" + (key ?? "")
        }
        let url = URL(string: "\(scheme)://\(host)\(port)\(SigV4Signer.encodePath(path))" + (query.isEmpty ? "" : "?" + query))!
        return (url, path, host + port)
    }

    /// A presigned GET URL for `key`, valid for `expires` seconds from `date` (at most 7 days, S3's limit).
    public func presignedGET(bucket: String, key: String, expires: Int, date: Date = Date()) -> URL {
        let (_, path, host) = address(bucket: bucket, key: key)
        let request = SigV4Request(method: "GET", path: path, headers: [("host", host)])
        let query = signer.presignedQuery(request, date: date, expires: min(max(expires, 1), 604_800))
        return address(bucket: bucket, key: key, query: query).url
    }

    // MARK: Operations

    /// HEAD: the object, or nil when the store says there is none (404, or 403 without list permission is NOT taken as absent).
    public func head(bucket: String, key: String) async throws -> S3Object? {
        let response = try await send("HEAD", bucket: bucket, key: key, allow: [404])
        guard response.status != 404 else { return nil }
        return S3Object(key: key, size: Int64(response.header("content-length") ?? "") ?? 0, etag: Self.unquote(response.header("etag") ?? ""),
                        metadata: response.metadata, cacheControl: response.header("cache-control"), contentType: response.header("content-type"))
    }

    /// GET: the object's bytes (at most `limit`), or nil for 404.
    public func get(bucket: String, key: String, limit: Int = 16 << 20) async throws -> (data: Data, etag: String)? {
        let response = try await send("GET", bucket: bucket, key: key, allow: [404], responseLimit: limit)
        guard response.status != 404 else { return nil }
        return (response.body, Self.unquote(response.header("etag") ?? ""))
    }

    /// PUT of a whole body, with its SHA-256 as `x-amz-content-sha256` (the store checks it) and as
    /// `x-amz-checksum-sha256` (stores that keep flexible checksums check and keep it). Returns the ETag.
    @discardableResult
    public func put(bucket: String, key: String, body: Data, options: S3PutOptions) async throws -> String {
        try await put(bucket: bucket, key: key, body: .data(body), sha256: Data(SHA256.hash(data: body)), options: options)
    }

    /// PUT of a body whose SHA-256 the caller has computed (a file is then streamed from disk).
    @discardableResult
    public func put(bucket: String, key: String, body: S3Body, sha256: Data, options: S3PutOptions) async throws -> String {
        var headers = Self.headers(options)
        headers.append(("x-amz-checksum-sha256", sha256.base64EncodedString()))
        let response = try await send("PUT", bucket: bucket, key: key, headers: headers, body: body, payloadHash: Hex.encode(sha256))
        return Self.unquote(response.header("etag") ?? "")
    }

    public func delete(bucket: String, key: String) async throws {
        _ = try await send("DELETE", bucket: bucket, key: key, allow: [404])
    }

    /// Every object under `prefix` (ListObjectsV2, page by page).
    public func list(bucket: String, prefix: String) async throws -> [S3Object] {
        var objects: [S3Object] = []
        var token: String?
        repeat {
            var query: [(name: String, value: String)] = [("list-type", "2"), ("prefix", prefix), ("max-keys", "1000")]
            if let token { query.append(("continuation-token", token)) }
            let response = try await send("GET", bucket: bucket, key: nil, query: query)
            guard let xml = S3XML(response.body), xml.root == "ListBucketResult" else {
                throw S3Error.integrity("the listing of s3://\(bucket)/\(prefix) is not a ListBucketResult document")
            }
            for record in xml.records where record.name == "Contents" {
                guard let key = record.fields["Key"] else { continue }
                objects.append(S3Object(key: key, size: Int64(record.fields["Size"] ?? "") ?? 0, etag: Self.unquote(record.fields["ETag"] ?? ""),
                                        metadata: [:], cacheControl: nil, contentType: nil))
            }
            token = xml.fields["IsTruncated"] == "true" ? xml.fields["NextContinuationToken"] : nil
        } while token != nil
        return objects
    }

    /// Creates the bucket (tests and first-time setup); an existing bucket owned by the caller is fine.
    /// Outside `us-east-1` AWS wants the region named in the request (a `LocationConstraint`); other stores
    /// accept it when it names their own zone group or region.
    public func createBucket(_ bucket: String) async throws {
        do {
            if configuration.region == "us-east-1" {
                _ = try await send("PUT", bucket: bucket, key: nil)
            } else {
                let body = Data(("<CreateBucketConfiguration xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><LocationConstraint>"
                                 + configuration.region + "</LocationConstraint></CreateBucketConfiguration>").utf8)
                _ = try await send("PUT", bucket: bucket, key: nil, headers: [("content-type", "application/xml")], body: .data(body),
                                   payloadHash: Hex.encode(SHA256.hash(data: body)))
            }
        } catch let error as S3Error where error.code == "BucketAlreadyOwnedByYou" {
        }
    }

    /// HEAD of the bucket: true when it exists and these credentials may use it, false on 404. A 403 (the
    /// bucket is someone else's, or the keys are refused) is an error: creating it would not help.
    public func bucketExists(_ bucket: String) async throws -> Bool {
        try await send("HEAD", bucket: bucket, key: nil, allow: [404]).status != 404
    }

    /// Sets a bucket policy (JSON).
    public func putBucketPolicy(_ bucket: String, policy: Data) async throws {
        _ = try await send("PUT", bucket: bucket, key: nil, query: [("policy", "")], headers: [("content-type", "application/json")], body: .data(policy),
                           payloadHash: Hex.encode(SHA256.hash(data: policy)))
    }

    // MARK: Multipart

    public func createMultipartUpload(bucket: String, key: String, options: S3PutOptions) async throws -> String {
        let response = try await send("POST", bucket: bucket, key: key, query: [("uploads", "")], headers: Self.headers(options))
        guard let xml = S3XML(response.body), let id = xml.fields["UploadId"], !id.isEmpty else {
            throw S3Error.integrity("the store did not start a multipart upload of \(key)")
        }
        return id
    }

    /// Uploads one part (1-based); returns its ETag.
    public func uploadPart(bucket: String, key: String, uploadID: String, number: Int, body: Data) async throws -> String {
        try await uploadPart(bucket: bucket, key: key, uploadID: uploadID, number: number, body: .data(body), sha256: Data(SHA256.hash(data: body)))
    }

    /// Uploads one part whose SHA-256 the caller has computed (a file range is streamed from disk).
    public func uploadPart(bucket: String, key: String, uploadID: String, number: Int, body: S3Body, sha256: Data) async throws -> String {
        let response = try await send("PUT", bucket: bucket, key: key, query: [("partNumber", String(number)), ("uploadId", uploadID)], body: body,
                                      payloadHash: Hex.encode(sha256))
        guard let etag = response.header("etag") else { throw S3Error.integrity("the store gave no ETag for part \(number) of \(key)") }
        return Self.unquote(etag)
    }

    public func completeMultipartUpload(bucket: String, key: String, uploadID: String, parts: [String]) async throws {
        var xml = "<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
        for (index, etag) in parts.enumerated() { xml += "<Part><PartNumber>\(index + 1)</PartNumber><ETag>\"\(etag)\"</ETag></Part>" }
        xml += "</CompleteMultipartUpload>"
        let body = Data(xml.utf8)
        let response = try await send("POST", bucket: bucket, key: key, query: [("uploadId", uploadID)], headers: [("content-type", "application/xml")],
                                      body: .data(body), payloadHash: Hex.encode(SHA256.hash(data: body)))
        // S3 may answer 200 with an <Error> document when completion fails late.
        if let answer = S3XML(response.body), answer.root == "Error" {
            throw S3Error.status(200, code: answer.fields["Code"] ?? "", message: answer.fields["Message"] ?? "", request: "POST \(key)?uploadId")
        }
    }

    public func abortMultipartUpload(bucket: String, key: String, uploadID: String) async throws {
        _ = try await send("DELETE", bucket: bucket, key: key, query: [("uploadId", uploadID)], allow: [404])
    }

    // MARK: The wire

    struct Response {
        var status: Int
        var headers: [String: String]
        var body: Data
        func header(_ name: String) -> String? { headers[name] }
        var metadata: [String: String] {
            var out: [String: String] = [:]
            for (name, value) in headers where name.hasPrefix("x-amz-meta-") { out[String(name.dropFirst(11))] = value }
            return out
        }
    }

    static func headers(_ options: S3PutOptions) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = [("content-type", options.contentType)]
        if let cacheControl = options.cacheControl { headers.append(("cache-control", cacheControl)) }
        for (name, value) in options.metadata.sorted(by: { $0.key < $1.key }) { headers.append(("x-amz-meta-\(name.lowercased())", value)) }
        if options.createOnly { headers.append(("if-none-match", "*")) }
        // The bare ETag: Ceph RGW 16 compares a PUT's If-Match with the unquoted value (a quoted one always
        // fails with 412), and AWS S3 accepts either form.
        if let etag = options.ifMatch { headers.append(("if-match", etag)) }
        return headers
    }

    static func unquote(_ etag: String) -> String {
        var text = etag.hasPrefix("W/") ? String(etag.dropFirst(2)) : etag
        if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = String(text.dropFirst().dropLast()) }
        return text
    }

    /// Statuses worth another attempt: throttling and server-side trouble.
    static func retryable(_ status: Int) -> Bool { status == 429 || status == 500 || status == 502 || status == 503 || status == 504 }

    /// Sends one request, signed afresh for each attempt. Statuses in `allow` are answers, not errors.
    /// A response body is read up to `maximumResponse` bytes (S3's answers are small documents; GETs
    /// of metadata are bounded by their callers).
    func send(_ method: String, bucket: String, key: String?, query: [(name: String, value: String)] = [], headers: [(name: String, value: String)] = [],
              body: S3Body? = nil, payloadHash: String = SigV4Signer.emptyPayloadHash, allow: Set<Int> = [],
              responseLimit: Int = maximumResponse) async throws -> Response {
        let encodedQuery = SigV4Signer.canonicalQuery(query)
        let (url, path, host) = address(bucket: bucket, key: key, query: encodedQuery)
        let described = "\(method) s3://\(bucket)" + (key.map { "/\($0)" } ?? "")
        var attempt = 0
        while true {
            attempt += 1
            var request = HTTPClientRequest(url: url.absoluteString)
            request.method = HTTPMethod(rawValue: method)
            let signedHeaders = headers + [("host", host)]
            let added = signer.sign(SigV4Request(method: method, path: path, query: query, headers: signedHeaders), payloadHash: payloadHash, date: Date())
            for (name, value) in signedHeaders + added { request.headers.replaceOrAdd(name: name, value: value) }
            let outcome: Result<Response, Error>
            do {
                outcome = .success(try await Self.execute(&request, body: body, method: method, limit: responseLimit))
            } catch is NIOTooManyBytesError {
                // Counted as the body streamed in (never held past the limit), and not worth another attempt.
                throw S3Error.integrity("\(described) sent more than the \(responseLimit) bytes allowed")
            } catch {
                outcome = .failure(error)
            }
            switch outcome {
            case .success(let response):
                if (200..<300).contains(response.status) || allow.contains(response.status) { return response }
                let xml = S3XML(response.body)
                let error = S3Error.status(response.status, code: xml?.fields["Code"] ?? "", message: xml?.fields["Message"] ?? "", request: described)
                guard Self.retryable(response.status), attempt < attempts else { throw error }
            case .failure(let error as ReadFailure):
                throw error  // a local file that cannot be read: no attempt will do better
            case .failure(let error as S3Error):
                throw error
            case .failure(let error):
                guard attempt < attempts else { throw S3Error.network("\(error)", request: described) }
            }
            try await Task.sleep(nanoseconds: Self.backoff(attempt: attempt))
        }
    }

    /// The largest response body read (a listing page of 1,000 keys is about 300 KB; metadata GETs are bounded by their callers).
    static let maximumResponse = 64 << 20

    /// One HTTP exchange: the body attached (a file opened for this attempt and streamed), the answer read whole.
    static func execute(_ request: inout HTTPClientRequest, body: S3Body?, method: String, limit: Int = maximumResponse) async throws -> Response {
        switch body {
        case .data(let data)?:
            request.body = .bytes(ByteBuffer(data: data))
            return try await exchange(request, method: method, limit: limit)
        case .file(let file, let range)?:
            let handle: ReadFileHandle
            do {
                handle = try await FileSystem.shared.openFile(forReadingAt: FilePath(file.path))
            } catch {
                throw ReadFailure(error, path: file.path, operation: .open)
            }
            // NIOFileSystem reads up to 8 chunks ahead of the socket: 2 MiB per body in flight at 256 KiB
            // (1 MiB chunks measured no faster, and 8 MiB ahead per body took peak RSS past 100 MB).
            request.body = .stream(handle.readChunks(in: range, chunkLength: .kibibytes(256)), length: .known(Int64(range.count)))
            do {
                let response = try await exchange(request, method: method, limit: limit)
                try await handle.close()
                return response
            } catch {
                try? await handle.close()
                throw error
            }
        case nil:
            // PUT and POST without a body still say so (S3 wants a Content-Length).
            if method == "PUT" || method == "POST" { request.body = .bytes(ByteBuffer()) }
            return try await exchange(request, method: method, limit: limit)
        }
    }

    /// The answer's body is read as it streams in, up to `limit` bytes (more throws `NIOTooManyBytesError`); no
    /// content coding is asked for or undone (decompression is off), and the request as a whole has 300 s.
    static func exchange(_ request: HTTPClientRequest, method: String, limit: Int = maximumResponse) async throws -> Response {
        let response = try await transport.execute(request, timeout: .seconds(300))
        var fields: [String: String] = [:]
        for header in response.headers { fields[header.name.lowercased()] = header.value }
        let body = method == "HEAD" ? ByteBuffer() : try await response.body.collect(upTo: limit)
        return Response(status: Int(response.status.code), headers: fields, body: Data(buffer: body))
    }

    /// Full jitter: a random wait up to 100 ms × 2^(attempt−1), at most 5 s.
    static func backoff(attempt: Int) -> UInt64 {
        let ceiling = min(5.0, 0.1 * pow(2, Double(attempt - 1)))
        return UInt64(Double.random(in: 0...ceiling) * 1e9)
    }
}
