import Crypto
import Foundation
import LiveryReleaseFormat

/// A short-lived signed URL of one protected target on `livery serve` (the redemption answer's
/// `urls` when serve itself serves the releases): `/<tenant>/targets/<file>?lv-exp=<unix seconds>&lv-sig=<base64url>`,
/// where `lv-sig = HMAC-SHA256(K, "livery-url-v1\n" + path + "\n" + lv-exp)` over the decoded path
/// and `K = HKDF-SHA256(token secret, info: "livery-signed-url-v1")`. The token secret lives in the
/// voucher database, so every server sharing one database accepts the URLs of every other.
///
/// A signed URL names one file and one moment, and carries no voucher: it is checked without a
/// database lookup, so a revoked voucher's URLs work until they expire (at most `lifetime`).
public struct SignedURL: Sendable, Equatable {
    /// How long a signed URL works (the client asks for new ones when they have expired).
    public static let lifetime: TimeInterval = 15 * 60
    static let expiresParameter = "lv-exp"
    static let signatureParameter = "lv-sig"

    /// The decoded path: `/<tenant>/targets/<file>`.
    public var path: String
    public var expires: Date

    public init(path: String, expires: Date) {
        self.path = path
        self.expires = Date(timeIntervalSince1970: expires.timeIntervalSince1970.rounded(.down))
    }

    static func key(_ tokenSecret: SymmetricKey) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: tokenSecret, info: Data("livery-signed-url-v1".utf8), outputByteCount: 32)
    }

    func signature(_ tokenSecret: SymmetricKey) -> Data {
        let message = "livery-url-v1\n\(path)\n\(Int(expires.timeIntervalSince1970))"
        return Data(HMAC<SHA256>.authenticationCode(for: Data(message.utf8), using: Self.key(tokenSecret)))
    }

    /// The path-absolute reference to give a client (resolve it against the server's address).
    public func reference(signedWith tokenSecret: SymmetricKey) -> String {
        var components = URLComponents()
        components.path = path
        components.queryItems = [URLQueryItem(name: Self.expiresParameter, value: String(Int(expires.timeIntervalSince1970))),
                                 URLQueryItem(name: Self.signatureParameter, value: Base64URL.encode(signature(tokenSecret)))]
        return components.string ?? path
    }

    /// Whether `query` (a request's raw query string) holds signature parameters at all.
    static func isSigned(query: String?) -> Bool {
        guard let query else { return false }
        return query.split(separator: "&").contains { $0.hasPrefix(signatureParameter + "=") || $0.hasPrefix(expiresParameter + "=") }
    }

    enum Check: Equatable { case valid, expired, invalid }

    /// Checks the signature parameters of a request for `path` (decoded), at `now`.
    static func check(path: String, query: String, tokenSecret: SymmetricKey, now: Date) -> Check {
        var values: [String: String] = [:]
        for item in query.split(separator: "&") {
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2 else { return .invalid }
            let name = String(pair[0])
            // Each parameter once: a second copy could be read differently by a cache in front.
            guard values[name] == nil else { return .invalid }
            values[name] = String(pair[1]).removingPercentEncoding
        }
        guard values.count == 2, let exp = values[expiresParameter].flatMap({ Int($0) }), exp > 0, String(exp) == values[expiresParameter],
              let mac = values[signatureParameter].flatMap({ Base64URL.decode($0) }) else { return .invalid }
        let url = SignedURL(path: path, expires: Date(timeIntervalSince1970: TimeInterval(exp)))
        // Constant-time comparison through the MAC check itself.
        let message = "livery-url-v1\n\(path)\n\(exp)"
        guard HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: Data(message.utf8), using: key(tokenSecret)) else { return .invalid }
        return url.expires > now ? .valid : .expired
    }
}
