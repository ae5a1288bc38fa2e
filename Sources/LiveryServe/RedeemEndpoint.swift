import Crypto
import Foundation
import LiveryReleaseFormat
import Hummingbird
import NIOCore
import NIOPosix

/// `POST /<tenant>/vouchers/redeem` with `{"code": "...", "device": "...", "deviceKey": "..."}`, and
/// `POST /<tenant>/vouchers/access` with `Authorization: Bearer <token>` and `{"deviceKey": "..."}`:
/// the only requests serve accepts a body for (at most 4 KiB of JSON). Every other path goes on to
/// the static-file guards. `deviceKey` (optional) is the device's X25519 public key, base64url: the
/// content keys of encrypted bundles come sealed for it.
///
/// Both answer 200 with a `RedemptionAnswer`: the token, the subject, its bundles, a short-lived
/// signed URL for each and the sealed content keys. `access` gives fresh URLs and keys for a token
/// the server issued, without the code (401 for a token that is forged, expired or revoked).
/// `redeem` answers 403 for a code that is unknown, revoked, expired or for another tenant (one
/// answer, so that guessing learns nothing); 409 when the code is used up on other devices; 429
/// after 10 failed attempts from one address within a minute. Both: 400, 405, 413 and 415 for
/// malformed requests; 503 when the voucher database fails (unreachable PostgreSQL server) or a
/// content secret is missing. Neither the code nor the token is logged.
struct RedeemEndpoint: RouterMiddleware {
    typealias Context = ServeContext
    static let maximumBody = 4096
    static let maximumDevice = 128

    let root: URL
    let state: VoucherState

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let path = request.uri.path.removingPercentEncoding else { return try await next(request, context) }
        let components = path.split(separator: "/")
        guard components.count == 3, components[1] == "vouchers", components[2] == "redeem" || components[2] == "access" else { return try await next(request, context) }
        let isRedeem = components[2] == "redeem"
        let tenant = String(components[0])
        guard !tenant.hasPrefix("."), !tenant.contains("\\"), !tenant.contains("\0"), path.utf8.count <= 1024 else { return Response(status: .notFound) }
        guard request.method == .post else { return Response(status: .methodNotAllowed, headers: [.allow: "POST"]) }
        if let refusal = await refusal(ofUnknownTenant: tenant) { return refusal }

        let address = context.remoteAddress?.ipAddress ?? "unknown"
        if let wait = state.failures.retryAfter(address) {
            return .json(.tooManyRequests, ["error": "too many failed attempts; try again in \(wait) s"], headers: [.retryAfter: String(wait)])
        }
        let object: [String: Any]
        switch try await jsonObject(of: request, isRedeem: isRedeem) {
        case .success(let read): object = read
        case .failure(let refused): return refused.response
        }
        let deviceKey: Curve25519.KeyAgreement.PublicKey?
        switch Self.deviceKey(in: object) {
        case .success(let key): deviceKey = key
        case .failure(let refused): return refused.response
        }
        if !isRedeem {
            return await renew(request, tenant: tenant, deviceKey: deviceKey)
        }
        return await redeem(object, tenant: tenant, address: address, deviceKey: deviceKey)
    }

    /// A request refused with this response.
    struct Refused: Error {
        var response: Response
    }

    /// The 404 for a tenant this server has no releases of, or the 503 when its releases cannot be read.
    func refusal(ofUnknownTenant tenant: String) async -> Response? {
        switch state.releases {
        case .folder:
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root.appendingPathComponent(tenant).path, isDirectory: &isFolder), isFolder.boolValue else {
                return .json(.notFound, ["error": "no tenant '\(tenant)' on this server"])
            }
        case .bucket:
            do {
                guard try await state.access(tenant: tenant) != nil else { return .json(.notFound, ["error": "no tenant '\(tenant)' in the release bucket"]) }
            } catch {
                return .json(.serviceUnavailable, ["error": "the release metadata of '\(tenant)' cannot be read"])
            }
        }
        return nil
    }

    /// The body as a JSON object, at most `maximumBody` bytes and sent as `application/json`.
    func jsonObject(of request: Request, isRedeem: Bool) async throws -> Result<[String: Any], Refused> {
        let mediaType = request.headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        guard mediaType == "application/json" else {
            return .failure(Refused(response: .json(.unsupportedMediaType, ["error": "send the body as Content-Type: application/json"])))
        }
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > Self.maximumBody {
            return .failure(Refused(response: .json(.contentTooLarge, ["error": "the body is larger than \(Self.maximumBody) bytes"])))
        }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: Self.maximumBody)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            return .failure(Refused(response: .json(.contentTooLarge, ["error": "the body is larger than \(Self.maximumBody) bytes"])))
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any] else {
            return .failure(Refused(response: .json(.badRequest, ["error": isRedeem ? "the body must be a JSON object with the strings \"code\" and \"device\"" : "the body must be a JSON object"])))
        }
        return .success(object)
    }

    /// The body's `deviceKey`, if it has one: an X25519 public key that gives a shared secret.
    static func deviceKey(in object: [String: Any]) -> Result<Curve25519.KeyAgreement.PublicKey?, Refused> {
        guard let value = object["deviceKey"] else { return .success(nil) }
        // A low-order point (all zeros, say) gives no shared secret: refused here, not failed later as a 503.
        guard let text = value as? String, let raw = Base64URL.decode(text), let key = try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: raw),
              let shared = try? Curve25519.KeyAgreement.PrivateKey().sharedSecretFromKeyAgreement(with: key),
              shared.withUnsafeBytes({ $0.contains { $0 != 0 } }) else {
            return .failure(Refused(response: .json(.badRequest, ["error": "\"deviceKey\" must be an X25519 public key (32 bytes), base64url without padding"])))
        }
        return .success(key)
    }

    /// `redeem`: a voucher code for a device, answered with a signed token and the access it grants.
    func redeem(_ object: [String: Any], tenant: String, address: String, deviceKey: Curve25519.KeyAgreement.PublicKey?) async -> Response {
        guard let typed = object["code"] as? String, let device = object["device"] as? String else {
            return .json(.badRequest, ["error": "the body must be a JSON object with the strings \"code\" and \"device\""])
        }
        guard (1...Self.maximumDevice).contains(device.count), device.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) else {
            return .json(.badRequest, ["error": "\"device\" must be 1 to \(Self.maximumDevice) printable ASCII characters without spaces"])
        }

        // The back end decides; a database that fails is a 503 (logged), never a guess either way.
        let outcome: VoucherRedemption
        var backend: (any VoucherBackend)?
        do {
            if let code = VoucherCode(typed: typed), let opened = try await state.backend() {
                backend = opened
                outcome = try await opened.redeem(tenant: tenant, code: code, device: device, now: Date())
            } else {
                outcome = .invalid
            }
        } catch {
            return state.unavailable(error)
        }
        switch outcome {
        case .invalid:
            state.failures.recordFailure(address)
            return .json(.forbidden, ["error": "this voucher code is not valid"])
        case .exhausted:
            return .json(.conflict, ["error": "this voucher has already been redeemed on as many devices as it allows"])
        case .granted(let voucher, let subject, let voucherExpiry):
            let lifetime = Date().addingTimeInterval(VoucherState.tokenLifetime)
            let expires = min(lifetime, voucherExpiry ?? lifetime)
            let token = VoucherToken(tenant: tenant, subject: subject, device: device, voucher: voucher, expires: expires)
            do {
                guard let backend else { throw VoucherFailure("a redemption was granted without a voucher database") }
                let secret = try await backend.tokenSecret()
                let answer = try await state.answer(tenant: tenant, token: token.signed(with: secret), subject: subject, expires: token.expires,
                                                    deviceKey: deviceKey, tokenSecret: secret)
                return .json(.ok, answer.json)
            } catch {
                return state.unavailable(error)
            }
        }
    }

    /// `access`: fresh signed URLs and sealed keys for a token this server (or one sharing its database) issued.
    func renew(_ request: Request, tenant: String, deviceKey: Curve25519.KeyAgreement.PublicKey?) async -> Response {
        let challenge = "Bearer realm=\"livery\""
        guard let authorization = request.headers[.authorization], authorization.count > 7, authorization.prefix(7).lowercased() == "bearer " else {
            return .json(.unauthorized, ["error": "send the access token as Authorization: Bearer <token>"], headers: [.wwwAuthenticate: challenge])
        }
        let invalid = Response.json(.unauthorized, ["error": "the token is not valid (forged, expired or revoked): redeem the voucher again"],
                                    headers: [.wwwAuthenticate: challenge + ", error=\"invalid_token\""])
        let text = authorization.dropFirst(7).trimmingCharacters(in: .whitespaces)
        do {
            let now = Date()
            guard let backend = try await state.backend() else { return invalid }
            let secret = try await backend.tokenSecret()
            guard let token = VoucherToken.verify(text, secret: secret), token.expires > now, token.tenant == tenant,
                  try await backend.isValid(voucher: token.voucher, tenant: tenant, now: now) else { return invalid }
            let answer = try await state.answer(tenant: tenant, token: text, subject: token.subject, expires: token.expires, deviceKey: deviceKey, tokenSecret: secret)
            return .json(.ok, answer.json)
        } catch {
            return state.unavailable(error)
        }
    }
}
