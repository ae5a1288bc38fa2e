import Crypto
import Foundation
import LiveryReleaseFormat

/// An access token for one subject (tour, program, library item or pack) of one tenant on one
/// device, until a moment: stateless, so a protected download needs no lookup but the voucher's
/// revocation.
///
/// Format: `base64url(payload) "." base64url(HMAC-SHA256(secret, payload))`, without padding. The
/// payload is canonical JSON (sorted keys): `{"device":…,"exp":<unix seconds>,"subject":"<kind>:<id>",
/// "tenant":…,"v":2,"voucher":<voucher row id>}`. Version 1 tokens (`"tour":<id>` instead of
/// `"subject"`, made before other kinds could be protected) are still read, as tours. The voucher id
/// lets the server check revocation; it says nothing about the code.
public struct VoucherToken: Sendable, Equatable {
    public var tenant: String
    public var subject: VoucherSubject
    public var device: String
    /// The voucher's row in the database, checked for revocation on every protected download.
    public var voucher: Int64
    public var expires: Date

    public init(tenant: String, subject: VoucherSubject, device: String, voucher: Int64, expires: Date) {
        self.tenant = tenant
        self.subject = subject
        self.device = device
        self.voucher = voucher
        self.expires = expires
    }

    /// The token string, signed with `secret`.
    public func signed(with secret: SymmetricKey) -> String {
        let fields: JSONValue = .object(["v": .int(2), "tenant": .string(tenant), "subject": .string(subject.description), "device": .string(device),
                                         "voucher": .int(Int(voucher)), "exp": .int(Int(expires.timeIntervalSince1970.rounded(.down)))])
        // Canonical JSON makes the same token for the same grant; the bytes signed are the bytes sent.
        let payload = (try? CanonicalJSON.encode(fields)) ?? Data()
        let mac = HMAC<SHA256>.authenticationCode(for: payload, using: secret)
        return Base64URL.encode(payload) + "." + Base64URL.encode(Data(mac))
    }

    /// Checks the MAC first, then reads the payload strictly; nil for anything not signed with
    /// `secret` or not a token. Expiry is the caller's check, so that it can tell "expired" from
    /// "forged" in its logs.
    public static func verify(_ token: String, secret: SymmetricKey) -> VoucherToken? {
        guard token.utf8.count <= 2048 else { return nil }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let payload = Base64URL.decode(parts[0]), let mac = Base64URL.decode(parts[1]),
              HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: payload, using: secret),
              let fields = try? JSONValue.parse(payload),
              let version = fields["v"]?.intValue, let tenant = fields["tenant"]?.stringValue, let device = fields["device"]?.stringValue,
              let voucher = fields["voucher"]?.intValue, let exp = fields["exp"]?.intValue
        else { return nil }
        let subject: VoucherSubject?
        switch version {
        case 1: subject = fields["tour"]?.stringValue.map { VoucherSubject(.tour, $0) }
        case 2: subject = fields["subject"]?.stringValue.flatMap(VoucherSubject.init)
        default: subject = nil
        }
        guard let subject else { return nil }
        return VoucherToken(tenant: tenant, subject: subject, device: device, voucher: Int64(voucher), expires: Date(timeIntervalSince1970: TimeInterval(exp)))
    }
}
