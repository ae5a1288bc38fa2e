import Foundation
import Crypto
import LiveryStorage
import LiveryReleaseFormat

/// The server refused a voucher-protected download: no token, or one it does not accept.
public struct VoucherAccessError: Error, CustomStringConvertible {
    public var path: String
    public var status: Int
    public var hadToken: Bool

    public var description: String {
        hadToken
            ? "the server refused the access token for \(path) (HTTP \(status)): it was revoked, has expired or is for something else; redeem the voucher again"
            : "\(path) is protected by a voucher (HTTP \(status)): redeem a voucher code first"
    }
}

/// A tour, program, library item or pack this device may download: the token the server gave for
/// a voucher, until `expires`.
public struct AccessGrant: Codable, Sendable, Equatable {
    public var subject: VoucherSubject
    public var token: String
    public var expires: Date
    /// The bundles the server said the token unlocks (a tour and its languages, or the one bundle, at redemption).
    public var bundles: [String]
    /// The code, kept to renew the token when it expires (same device: no use is spent).
    public var code: String?
    /// Short-lived signed URLs of the bundles' targets, by bundle (see `RedemptionAnswer.urls`), until `urlsExpire`.
    public var urls: [String: String] = [:]
    public var urlsExpire: Date?
    /// Content keys of the encrypted bundles, sealed for this device's key.
    public var keys: [WrappedContentKey] = []

    public init(subject: VoucherSubject, token: String, expires: Date, bundles: [String], code: String?) {
        (self.subject, self.token, self.expires, self.bundles, self.code) = (subject, token, expires, bundles, code)
    }

    /// The grant a server's answer makes (the code kept when it was redeemed with one).
    public init(_ answer: RedemptionAnswer, code: String?) {
        self.init(subject: answer.subject, token: answer.token, expires: answer.expires, bundles: answer.bundles, code: code)
        urls = answer.urls
        urlsExpire = answer.urlsExpire
        keys = answer.keys
    }

    /// The signed URL of `bundle`'s target `file` (`<sha256>.<name>`), when the grant has one for that
    /// file (not an older release's) that works at least until `now` plus a minute.
    public func url(of bundle: String, file: String, now: Date) -> String? {
        guard let expiry = urlsExpire, expiry > now.addingTimeInterval(60), let text = urls[bundle],
              let path = URLComponents(string: text)?.path, path.split(separator: "/").last.map(String.init) == file else { return nil }
        return text
    }

    enum CodingKeys: String, CodingKey { case subject, tour, token, expires, bundles, code, urls, urlsExpire, keys }

    /// `subject` as `<kind>:<id>`; a grant saved before other kinds could be protected has `tour`.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let text = try c.decodeIfPresent(String.self, forKey: .subject) {
            guard let subject = VoucherSubject(text) else { throw DecodingError.dataCorruptedError(forKey: .subject, in: c, debugDescription: "not <kind>:<id>") }
            self.subject = subject
        } else {
            subject = VoucherSubject(.tour, try c.decode(String.self, forKey: .tour))
        }
        token = try c.decode(String.self, forKey: .token)
        expires = try c.decode(Date.self, forKey: .expires)
        bundles = try c.decode([String].self, forKey: .bundles)
        code = try c.decodeIfPresent(String.self, forKey: .code)
        urls = try c.decodeIfPresent([String: String].self, forKey: .urls) ?? [:]
        urlsExpire = try c.decodeIfPresent(Date.self, forKey: .urlsExpire)
        keys = try (c.decodeIfPresent([Data].self, forKey: .keys) ?? []).map { try WrappedContentKey(json: JSONValue.parse($0), what: "a stored key") }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(subject.description, forKey: .subject)
        try c.encode(token, forKey: .token)
        try c.encode(expires, forKey: .expires)
        try c.encode(bundles, forKey: .bundles)
        try c.encodeIfPresent(code, forKey: .code)
        if !urls.isEmpty { try c.encode(urls, forKey: .urls) }
        try c.encodeIfPresent(urlsExpire, forKey: .urlsExpire)
        // Each key as its JSON document's bytes (base64 in the file): one reader of the format, `WrappedContentKey`.
        if !keys.isEmpty { try c.encode(keys.map(\.json.bytes), forKey: .keys) }
    }
}

/// Why a redemption failed, worded for the person who typed the code.
public struct VoucherRedemptionError: Error, CustomStringConvertible {
    public var description: String
}

extension HTTPRepository {
    /// Redeems `code` for `device` at `<base>/vouchers/redeem` (base = `<server>/<tenant>`); `deviceKey`
    /// (this device's X25519 public key) gets the content keys of encrypted bundles sealed for it.
    public func redeem(code: String, device: String, deviceKey: Curve25519.KeyAgreement.PublicKey? = nil) throws -> AccessGrant {
        let shown = Self.shown(code)
        var request = HTTPExchangeRequest(url: base.appendingPathComponent("vouchers/redeem"), method: "POST")
        request.set("Content-Type", "application/json")
        var fields = ["code": code, "device": device]
        if let deviceKey { fields["deviceKey"] = Base64URL.encode(deviceKey.rawRepresentation) }
        request.body = try JSONSerialization.data(withJSONObject: fields)
        // The answer stays in memory, bounded: it holds the token, which is not left in a temporary file.
        let (status, body) = try perform(request, into: .memory, rangeLimit: 64 << 10, wholeLimit: 64 << 10)
        switch status {
        case 200: break
        case 403: throw VoucherRedemptionError(description: "voucher \(shown) is not valid: unknown, revoked or expired (check the code)")
        case 409: throw VoucherRedemptionError(description: "voucher \(shown) has already been redeemed on as many devices as it allows")
        case 429: throw VoucherRedemptionError(description: "voucher \(shown): too many failed attempts from this address; try again in a minute")
        case 404: throw VoucherRedemptionError(description: "voucher \(shown): the server has no voucher redemption for this tenant (\(base.absoluteString)/vouchers/redeem answered 404)")
        default: throw VoucherRedemptionError(description: "voucher \(shown): the server answered HTTP \(status)")
        }
        guard let answer = try? RedemptionAnswer(data: body) else {
            throw VoucherRedemptionError(description: "voucher \(shown): the server's answer is not a grant")
        }
        return AccessGrant(answer, code: code)
    }

    /// Fresh signed URLs and sealed keys for a grant, with its token (`<base>/vouchers/access`): no code
    /// needed. Throws `VoucherAccessError` when the server no longer accepts the token.
    public func renew(_ grant: AccessGrant, deviceKey: Curve25519.KeyAgreement.PublicKey?) throws -> AccessGrant {
        var request = HTTPExchangeRequest(url: base.appendingPathComponent("vouchers/access"), method: "POST")
        request.set("Content-Type", "application/json")
        request.set("Authorization", "Bearer \(grant.token)")
        request.body = try JSONSerialization.data(withJSONObject: deviceKey.map { ["deviceKey": Base64URL.encode($0.rawRepresentation)] } ?? [:])
        let (status, body) = try perform(request, into: .memory, rangeLimit: 64 << 10, wholeLimit: 64 << 10)
        switch status {
        case 200: break
        case 401, 403: throw VoucherAccessError(path: "vouchers/access", status: status, hadToken: true)
        default: throw VoucherRedemptionError(description: "the voucher server answered HTTP \(status) when asked for fresh download URLs")
        }
        guard let answer = try? RedemptionAnswer(data: body) else { throw VoucherRedemptionError(description: "the voucher server's answer is not a grant") }
        return AccessGrant(answer, code: grant.code)
    }

    /// A code as messages show it: its first group only, so that logs of a CI run do not leak it.
    static func shown(_ code: String) -> String {
        let digits = code.uppercased().filter { $0.isLetter || $0.isNumber }
        return digits.count > 4 ? "\(digits.prefix(4))-…" : "'\(code)'"
    }
}

/// The access tokens of one tenant's cache (`access-tokens.json`) and this device's id
/// (`device-id`), both mode 0600: whoever reads them can download the tours they unlock.
public struct AccessTokenStore: Sendable {
    public let cache: URL

    public init(cache: URL) {
        self.cache = cache
    }

    var tokensFile: URL { cache.appendingPathComponent("access-tokens.json") }

    /// This device's X25519 key (`device-key`, mode 0600), made on first use: content keys are sealed for its public half.
    public func deviceKey() throws -> Curve25519.KeyAgreement.PrivateKey {
        let file = cache.appendingPathComponent("device-key")
        if let text = try? String(contentsOf: file, encoding: .utf8), let raw = Data(hex: text.trimmingCharacters(in: .whitespacesAndNewlines)),
           let key = try? Curve25519.KeyAgreement.PrivateKey(rawRepresentation: raw) {
            return key
        }
        let key = Curve25519.KeyAgreement.PrivateKey()
        try Self.writePrivate(Data(key.rawRepresentation.hexString.utf8), to: file)
        return key
    }

    /// A random id made on first use and kept: redeeming again from this cache spends no new device.
    public func deviceID() throws -> String {
        let file = cache.appendingPathComponent("device-id")
        if let text = try? String(contentsOf: file, encoding: .utf8), !text.isEmpty, text.count <= 128 { return text }
        var generator = SystemRandomNumberGenerator()
        let id = (0..<4).map { _ in String(format: "%08x", UInt32.random(in: .min ... .max, using: &generator)) }.joined()
        try Self.writePrivate(Data(id.utf8), to: file)
        return id
    }

    /// Grants by subject; an unreadable file counts as none. (The file keys them by the subject's
    /// text; older files by tour id, read as tours.)
    public func grants() -> [VoucherSubject: AccessGrant] {
        guard let data = try? Data(contentsOf: tokensFile) else { return [:] }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let stored = (try? decoder.decode([String: AccessGrant].self, from: data)) ?? [:]
        return Dictionary(stored.values.map { ($0.subject, $0) }, uniquingKeysWith: { a, b in a.expires >= b.expires ? a : b })
    }

    /// Adds or replaces the grant for its subject.
    public func save(_ grant: AccessGrant) throws {
        var all = grants()
        all[grant.subject] = grant
        try write(all)
    }

    /// Forgets the grant of `subject` (the server refused its token).
    public func remove(_ subject: VoucherSubject) throws {
        var all = grants()
        guard all.removeValue(forKey: subject) != nil else { return }
        try write(all)
    }

    private func write(_ grants: [VoucherSubject: AccessGrant]) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try Self.writePrivate(try encoder.encode(Dictionary(uniqueKeysWithValues: grants.map { ($0.key.description, $0.value) })), to: tokensFile)
    }

    /// Writes a file readable by its owner only, replacing the old one in one rename.
    static func writePrivate(_ data: Data, to file: URL) throws {
        try AtomicFile.write(data, to: file, mode: 0o600, durable: false)
    }
}
