import Crypto
import Foundation
import Hummingbird
import LiveryReleaseFormat
import NIOPosix

/// Lets a `GET` or `HEAD` of a voucher target's bytes through only with `Authorization: Bearer
/// <token>` for that tenant and subject, from a voucher that is still valid, or by a signed URL
/// (`SignedURL`) that has not expired. Metadata, the download
/// manifest and public bundles pass untouched: TUF clients must see every target's hash.
///
/// 401 (with `WWW-Authenticate: Bearer`) for a missing, forged, expired or revoked token; 403 for a
/// good token of another tour or tenant; 503 when the tenant's metadata cannot be read (then no
/// target is served, rather than guess which are protected) or when the voucher database fails.
/// Authorised answers get `Cache-Control: private`, so that no shared cache hands them to someone else.
struct ProtectedTargetGuard: RouterMiddleware {
    typealias Context = ServeContext

    let state: VoucherState

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // The path as the request guard and the file middleware see it (decoded, empty components dropped).
        guard let path = request.uri.path.removingPercentEncoding else { return try await next(request, context) }
        let components = path.split(separator: "/").map(String.init)
        guard let (tenant, repository, file) = Self.target(components) else { return try await next(request, context) }
        let state = state
        let access: ReleaseAccess?
        do {
            access = try await state.servedAccess(tenant: repository)
        } catch {
            return .json(.serviceUnavailable, ["error": "the release metadata of '\(tenant)' cannot be read"])
        }
        guard let target = access?.target(file: file) else { return try await next(request, context) }
        let refusal: Response?
        do {
            if SignedURL.isSigned(query: request.uri.query) {
                refusal = try await Self.check(signed: path, query: request.uri.query ?? "", state: state)
            } else {
                refusal = try await Self.check(request.headers[.authorization], tenant: tenant, target: target, state: state)
            }
        } catch {
            return state.unavailable(error)
        }
        if let refusal { return refusal }
        var response = try await next(request, context)
        if response.status.code < 400 { response.headers[.cacheControl] = "private, max-age=31536000" }
        return response
    }

    /// The tenant, the repository (`<tenant>` for stable, `<tenant>/channels/<name>`) and the file
    /// name of a target path: `<repository>/targets/<file>`, or `<repository>/targets/staged/<file>` for
    /// a release being rolled out (docs/output.md#channels). nil for any other path.
    static func target(_ components: [String]) -> (tenant: String, repository: String, file: String)? {
        guard let at = components.firstIndex(of: "targets") else { return nil }
        let repository = components[..<at], rest = components[(at + 1)...]
        guard repository.count == 1 || (repository.count == 3 && repository.dropFirst().first == ReleaseChannel.folderName),
              rest.count == 1 || (rest.count == 2 && rest.first == "staged"), let file = rest.last else { return nil }
        return (repository[repository.startIndex], repository.joined(separator: "/"), file)
    }

    /// nil when `query` signs `path` and has not expired (`SignedURL`); otherwise a 403 saying which.
    static func check(signed path: String, query: String, state: VoucherState) async throws -> Response? {
        guard let backend = try await state.backend() else { return .json(.forbidden, ["error": "this signed URL is not valid"]) }
        switch SignedURL.check(path: path, query: query, tokenSecret: try await backend.tokenSecret(), now: Date()) {
        case .valid: return nil
        case .expired: return .json(.forbidden, ["error": "this signed URL has expired: ask the voucher server for a new one (POST /<tenant>/vouchers/access)"])
        case .invalid: return .json(.forbidden, ["error": "this signed URL is not valid (changed, or signed for another file)"])
        }
    }

    /// nil when `authorization` carries a valid token for `target`; otherwise the refusal.
    static func check(_ authorization: String?, tenant: String, target: ReleaseAccess.Target, state: VoucherState) async throws -> Response? {
        let challenge = "Bearer realm=\"livery\""
        guard let authorization, authorization.count > 7, authorization.prefix(7).lowercased() == "bearer " else {
            return .json(.unauthorized, ["error": "this bundle needs a voucher: redeem one with POST /\(tenant)/vouchers/redeem and send the token as Authorization: Bearer <token>"],
                         headers: [.wwwAuthenticate: challenge])
        }
        let invalid = Response.json(.unauthorized, ["error": "the token is not valid (forged, expired or revoked): redeem the voucher again"],
                                    headers: [.wwwAuthenticate: challenge + ", error=\"invalid_token\""])
        let text = authorization.dropFirst(7).trimmingCharacters(in: .whitespaces)
        guard let backend = try await state.backend(), let token = VoucherToken.verify(text, secret: try await backend.tokenSecret()) else { return invalid }
        let now = Date()
        guard token.expires > now else { return invalid }
        guard token.tenant == tenant, let subject = target.subject, token.subject == subject else {
            return .json(.forbidden, ["error": "this token does not unlock this bundle"])
        }
        guard try await backend.isValid(voucher: token.voucher, tenant: tenant, now: now) else { return invalid }
        return nil
    }
}
