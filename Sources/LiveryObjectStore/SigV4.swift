import Crypto
import Foundation
import LiveryEncoding

// AWS Signature Version 4, written here with swift-crypto because no maintained S3 client library
// resolves on this project's package mirror (Soto and the AWS SDK for Swift are not on it). The
// algorithm is small and fully specified; `SigV4Tests` checks it against AWS's published SigV4
// test-suite vectors (canonical request, string to sign, signature, for header and query signing)
// and against botocore's signer on generated S3 requests.

/// The credentials a request is signed with.
public struct AWSCredentials: Sendable, Equatable {
    public var accessKeyID: String
    public var secretAccessKey: String
    /// A session token from temporary credentials (sent as `X-Amz-Security-Token`), if any.
    public var sessionToken: String?

    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }
}

/// One request as SigV4 sees it: method, path (not yet percent-encoded), query and headers.
public struct SigV4Request: Sendable {
    public var method: String
    /// The path as the service names the resource, e.g. `/bucket/tenant/targets/1.root.json`;
    /// each byte but the unreserved ones and `/` is percent-encoded once (S3's rule: no
    /// normalisation, no double encoding).
    public var path: String
    /// Query parameters, not yet encoded; order does not matter.
    public var query: [(name: String, value: String)]
    /// Headers to sign (with `host`); names in any case.
    public var headers: [(name: String, value: String)]

    public init(method: String, path: String, query: [(name: String, value: String)] = [], headers: [(name: String, value: String)]) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
    }
}

/// The signer for one credential, region and service.
public struct SigV4Signer: Sendable {
    public static let algorithm = "AWS4-HMAC-SHA256"
    /// The payload hash of a presigned URL and of a request whose body is not hashed.
    public static let unsignedPayload = "UNSIGNED-PAYLOAD"
    public static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    public var credentials: AWSCredentials
    public var region: String
    public var service: String

    public init(credentials: AWSCredentials, region: String, service: String = "s3") {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    // MARK: The three steps, public so that tests can compare each with the published vectors.

    /// Step 1: the canonical request.
    public func canonicalRequest(_ request: SigV4Request, payloadHash: String) -> String {
        let headers = Self.canonicalHeaders(request.headers)
        return [request.method.uppercased(),
                Self.encodePath(request.path),
                Self.canonicalQuery(request.query),
                headers.map { "\($0.name):\($0.value)\n" }.joined(),
                headers.map(\.name).joined(separator: ";"),
                payloadHash].joined(separator: "\n")
    }

    /// Step 2: the string to sign.
    public func stringToSign(canonicalRequest: String, date: Date) -> String {
        [Self.algorithm, Self.timestamp(date), scope(date), Hex.encode(SHA256.hash(data: Data(canonicalRequest.utf8)))].joined(separator: "\n")
    }

    /// Step 3: the signature (hex).
    public func signature(stringToSign: String, date: Date) -> String {
        Hex.encode(HMAC<SHA256>.authenticationCode(for: Data(stringToSign.utf8), using: signingKey(date)))
    }

    /// `yyyymmdd/region/service/aws4_request`.
    public func scope(_ date: Date) -> String { "\(Self.day(date))/\(region)/\(service)/aws4_request" }

    // MARK: Signing

    /// Header signing: returns the headers to add (`x-amz-date`, `x-amz-content-sha256` when
    /// `addContentHash`, `x-amz-security-token` for temporary credentials, and `Authorization`).
    /// `request.headers` must already hold every other header to sign, `host` included.
    public func sign(_ request: SigV4Request, payloadHash: String, date: Date, addContentHash: Bool = true) -> [(name: String, value: String)] {
        var added: [(name: String, value: String)] = [("x-amz-date", Self.timestamp(date))]
        if addContentHash { added.append(("x-amz-content-sha256", payloadHash)) }
        if let token = credentials.sessionToken { added.append(("x-amz-security-token", token)) }
        var signed = request
        signed.headers += added
        let canonical = canonicalRequest(signed, payloadHash: payloadHash)
        let signature = signature(stringToSign: stringToSign(canonicalRequest: canonical, date: date), date: date)
        let names = Self.canonicalHeaders(signed.headers).map(\.name).joined(separator: ";")
        added.append(("Authorization", "\(Self.algorithm) Credential=\(credentials.accessKeyID)/\(scope(date)), SignedHeaders=\(names), Signature=\(signature)"))
        return added
    }

    /// Query signing (a presigned URL): returns the whole query, the request's own parameters plus
    /// `X-Amz-*` and `X-Amz-Signature`, encoded and in canonical order, ready to follow `?`.
    /// Only the headers in `request.headers` (at least `host`) are signed; the payload is not.
    public func presignedQuery(_ request: SigV4Request, date: Date, expires: Int, payloadHash: String = unsignedPayload) -> String {
        var query = request.query
        query.append(("X-Amz-Algorithm", Self.algorithm))
        query.append(("X-Amz-Credential", "\(credentials.accessKeyID)/\(scope(date))"))
        query.append(("X-Amz-Date", Self.timestamp(date)))
        query.append(("X-Amz-Expires", String(expires)))
        if let token = credentials.sessionToken { query.append(("X-Amz-Security-Token", token)) }
        query.append(("X-Amz-SignedHeaders", Self.canonicalHeaders(request.headers).map(\.name).joined(separator: ";")))
        var signed = request
        signed.query = query
        let canonical = canonicalRequest(signed, payloadHash: payloadHash)
        let signature = signature(stringToSign: stringToSign(canonicalRequest: canonical, date: date), date: date)
        return Self.canonicalQuery(query) + "&X-Amz-Signature=" + signature
    }

    func signingKey(_ date: Date) -> SymmetricKey {
        var key = SymmetricKey(data: Data("AWS4\(credentials.secretAccessKey)".utf8))
        for part in [Self.day(date), region, service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        return key
    }

    // MARK: Canonical forms

    /// Lower-case names, values trimmed with inner runs of spaces collapsed, sorted by name;
    /// repeated names joined with commas in the order given.
    static func canonicalHeaders(_ headers: [(name: String, value: String)]) -> [(name: String, value: String)] {
        var merged: [String: [String]] = [:]
        for header in headers {
            let value = header.value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
                .trimmingCharacters(in: .whitespaces)
            merged[header.name.lowercased(), default: []].append(value)
        }
        return merged.keys.sorted().map { ($0, merged[$0]!.joined(separator: ",")) }
    }

    /// Parameters encoded (RFC 3986 unreserved characters kept, everything else `%XX`), sorted by
    /// encoded name, then encoded value.
    static func canonicalQuery(_ query: [(name: String, value: String)]) -> String {
        query.map { (encode($0.name, keepSlash: false), encode($0.value, keepSlash: false)) }
            .sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
            .map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    /// The canonical URI: S3 encodes each byte once and keeps `/`.
    public static func encodePath(_ path: String) -> String {
        path.isEmpty ? "/" : encode(path, keepSlash: true)
    }

    /// Percent-encodes every byte but `A–Z a–z 0–9 - _ . ~` (and `/` when `keepSlash`), upper-case hex.
    public static func encode(_ text: String, keepSlash: Bool) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: "/") where keepSlash:
                out.append("/")
            default:
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }

    /// `yyyyMMdd'T'HHmmss'Z'` in UTC.
    public static func timestamp(_ date: Date) -> String {
        let c = utc.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d%02d%02dT%02d%02d%02dZ", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
    }

    static func day(_ date: Date) -> String { String(timestamp(date).prefix(8)) }

    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
}

extension String {
    func leftPadded(to width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
