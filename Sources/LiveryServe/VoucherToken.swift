import Crypto
import Foundation

/// An access token for one tour of one tenant on one device, until a moment: stateless, so a
/// protected download needs no lookup but the voucher's revocation.
///
/// Format: `base64url(payload) "." base64url(HMAC-SHA256(secret, payload))`, without padding. The
/// payload is JSON with sorted keys: `{"device":…,"exp":<unix seconds>,"tenant":…,"tour":…,"v":1,
/// "voucher":<voucher row id>}`. The voucher id lets the server check revocation; it says nothing
/// about the code.
public struct VoucherToken: Sendable, Equatable {
    public var tenant: String
    public var tour: String
    public var device: String
    /// The voucher's row in the database, checked for revocation on every protected download.
    public var voucher: Int64
    public var expires: Date

    public init(tenant: String, tour: String, device: String, voucher: Int64, expires: Date) {
        self.tenant = tenant
        self.tour = tour
        self.device = device
        self.voucher = voucher
        self.expires = expires
    }

    /// The token string, signed with `secret`.
    public func signed(with secret: SymmetricKey) -> String {
        let fields: [String: Any] = ["v": 1, "tenant": tenant, "tour": tour, "device": device, "voucher": voucher,
                                     "exp": Int64(expires.timeIntervalSince1970.rounded(.down))]
        // Sorted keys make the same token for the same grant; the bytes signed are the bytes sent.
        let payload = (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        let mac = HMAC<SHA256>.authenticationCode(for: payload, using: secret)
        return Self.base64url(payload) + "." + Self.base64url(Data(mac))
    }

    /// Checks the MAC first, then reads the payload; nil for anything not signed with `secret`.
    /// Expiry is the caller's check, so that it can tell "expired" from "forged" in its logs.
    public static func verify(_ token: String, secret: SymmetricKey) -> VoucherToken? {
        guard token.utf8.count <= 2048 else { return nil }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let payload = data(base64url: parts[0]), let mac = data(base64url: parts[1]),
              HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: payload, using: secret),
              let fields = try? JSONSerialization.jsonObject(with: payload) as? [String: Any],
              (fields["v"] as? NSNumber)?.intValue == 1,
              let tenant = fields["tenant"] as? String, let tour = fields["tour"] as? String, let device = fields["device"] as? String,
              let voucher = (fields["voucher"] as? NSNumber)?.int64Value, let exp = (fields["exp"] as? NSNumber)?.int64Value
        else { return nil }
        return VoucherToken(tenant: tenant, tour: tour, device: device, voucher: voucher, expires: Date(timeIntervalSince1970: TimeInterval(exp)))
    }

    static func base64url(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func data(base64url text: Substring) -> Data? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        // Only the canonical spelling: the last character's unused bits must be zero, or one token
        // would have several accepted spellings (the MAC's last character 'A' also read as 'B'…'D').
        guard let data = Data(base64Encoded: base64), base64url(data) == text else { return nil }
        return data
    }
}
