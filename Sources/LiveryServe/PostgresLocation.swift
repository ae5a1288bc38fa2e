import Foundation
import NIOSSL
import PostgresNIO

/// A PostgreSQL connection URL as libpq reads it, for `--vouchers`:
/// `postgres[ql]://[user[:password]@][host][:port][/database][?param=value&…]`.
///
/// The host may be a unix-socket folder, percent-encoded (`postgres://u@%2Ftmp%2Fpg/db`) or as
/// `?host=/tmp/pg`; no host at all means Debian's socket folder `/var/run/postgresql`. Parameters:
/// `host`, `port`, `user`, `password`, `dbname` and `sslmode` (`disable`, `allow`/`prefer` —
/// the default —, `require`, `verify-ca`, `verify-full`, with libpq's meaning: only the `verify-`
/// modes check the certificate). The password comes from the URL or else `PGPASSWORD`; the user
/// from the URL, else `PGUSER`, else the login name. `description` never shows the password.
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    public enum Endpoint: Sendable, Equatable {
        case tcp(host: String, port: Int)
        /// The socket file, `<folder>/.s.PGSQL.<port>` as libpq names it.
        case unixSocket(path: String)
    }

    public enum TLSMode: String, Sendable, Equatable, CaseIterable {
        case disable, allow, prefer, require, verifyCA = "verify-ca", verifyFull = "verify-full"
    }

    public var endpoint: Endpoint
    public var user: String
    public var password: String?
    /// nil: the server's default (a database named like the user).
    public var database: String?
    public var tls: TLSMode
    /// The URL as given, with any password removed: what every message names.
    public let description: String

    /// Debian's libpq looks for the server's socket here when a URL names no host.
    static let defaultSocketFolder = "/var/run/postgresql"

    /// Reads `text`; throws a one-line `VoucherFailure` naming the URL (without its password) and what is wrong.
    public init(url text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        description = Self.redacted(text)
        func failure(_ reason: String) -> VoucherFailure { VoucherFailure("--vouchers \(Self.redacted(text)): \(reason)") }

        guard let schemeEnd = text.range(of: "://"), ["postgres", "postgresql"].contains(text[..<schemeEnd.lowerBound].lowercased()) else {
            throw failure("not a PostgreSQL URL (postgres://user@host:port/database)")
        }
        var rest = Substring(text[schemeEnd.upperBound...])
        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<slash]
        let path = slash < rest.endIndex ? rest[rest.index(after: slash)...] : ""

        var user: String?, password: String?, hostText = Substring(authority), portText: Substring?
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            hostText = authority[authority.index(after: at)...]
            if let colon = userInfo.firstIndex(of: ":") {
                user = try Self.decode(userInfo[..<colon], failure)
                password = try Self.decode(userInfo[userInfo.index(after: colon)...], failure)
            } else {
                user = try Self.decode(userInfo, failure)
            }
        }
        if hostText.hasPrefix("[") {
            // An IPv6 literal: [::1] or [::1]:5432.
            guard let close = hostText.firstIndex(of: "]") else { throw failure("an IPv6 host needs its closing ]") }
            let after = hostText[hostText.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty { throw failure("unexpected '\(after)' after the host") }
            hostText = hostText[hostText.index(after: hostText.startIndex)..<close]
        } else if let colon = hostText.lastIndex(of: ":") {
            portText = hostText[hostText.index(after: colon)...]
            hostText = hostText[..<colon]
        }
        var host = try Self.decode(hostText, failure)
        var database = path.isEmpty ? nil : try Self.decode(path, failure)
        var mode: TLSMode?

        for pair in query.split(separator: "&") where !pair.isEmpty {
            guard let equals = pair.firstIndex(of: "=") else { throw failure("the parameter '\(pair)' has no value") }
            let key = pair[..<equals], value = try Self.decode(pair[pair.index(after: equals)...], failure)
            switch key {
            case "host": host = value
            case "port": portText = Substring(value)
            case "user": user = value
            case "password": password = value
            case "dbname": database = value
            case "sslmode":
                guard let parsed = TLSMode(rawValue: value) else {
                    throw failure("sslmode must be one of \(TLSMode.allCases.map(\.rawValue).joined(separator: ", ")), not '\(value)'")
                }
                mode = parsed
            default:
                throw failure("unknown parameter '\(key)' (known: host, port, user, password, dbname, sslmode)")
            }
        }

        var port = 5432
        if let portText, !portText.isEmpty {
            guard let number = Int(portText), (1...65_535).contains(number) else { throw failure("the port must be a number from 1 to 65535, not '\(portText)'") }
            port = number
        }
        if host.isEmpty { host = Self.defaultSocketFolder }
        endpoint = host.hasPrefix("/") ? .unixSocket(path: host + "/.s.PGSQL.\(port)") : .tcp(host: host, port: port)
        guard let resolvedUser = [user, environment["PGUSER"], environment["USER"]].compactMap({ $0 }).first(where: { !$0.isEmpty }) else {
            throw failure("no user: put one in the URL (postgres://user@host/database) or set PGUSER")
        }
        self.user = resolvedUser
        self.password = password ?? environment["PGPASSWORD"]
        self.database = database.flatMap { $0.isEmpty ? nil : $0 }
        tls = mode ?? .prefer
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.endpoint == rhs.endpoint && lhs.user == rhs.user && lhs.password == rhs.password && lhs.database == rhs.database && lhs.tls == rhs.tls
    }

    /// The URL without a password in its user part or its `password=` parameter.
    static func redacted(_ text: String) -> String {
        var out = text
        if let schemeEnd = out.range(of: "://") {
            let authorityEnd = out[schemeEnd.upperBound...].firstIndex { $0 == "/" || $0 == "?" } ?? out.endIndex
            if let at = out[schemeEnd.upperBound..<authorityEnd].lastIndex(of: "@"),
               let colon = out[schemeEnd.upperBound..<at].firstIndex(of: ":") {
                out.removeSubrange(colon..<at)
            }
        }
        if let mark = out.firstIndex(of: "?") {
            let kept = out[out.index(after: mark)...].split(separator: "&").filter { !$0.hasPrefix("password=") }
            out = String(out[..<mark]) + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
        }
        return out
    }

    private static func decode(_ text: Substring, _ failure: (String) -> VoucherFailure) throws -> String {
        guard let decoded = String(text).removingPercentEncoding else { throw failure("bad percent-encoding in '\(text)'") }
        return decoded
    }

    /// libpq's `prefer` and `require` encrypt without checking the certificate, `verify-ca` checks
    /// the chain and `verify-full` the host name too (system trust roots).
    private func tlsConfiguration() -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch tls {
        case .verifyFull: configuration.certificateVerification = .fullVerification
        case .verifyCA: configuration.certificateVerification = .noHostnameVerification
        default: configuration.certificateVerification = .none
        }
        return configuration
    }

    /// The pool's configuration (`PostgresClient`).
    func clientConfiguration() throws -> PostgresClient.Configuration {
        switch endpoint {
        case .unixSocket(let path):
            return .init(unixSocketPath: path, username: user, password: password, database: database)
        case .tcp(let host, let port):
            let mode: PostgresClient.Configuration.TLS = switch tls {
            case .disable: .disable
            case .allow, .prefer: .prefer(tlsConfiguration())
            case .require, .verifyCA, .verifyFull: .require(tlsConfiguration())
            }
            return .init(host: host, port: port, username: user, password: password, database: database, tls: mode)
        }
    }

    /// A single connection's configuration (migrations, which must not queue behind the pool's retries).
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        switch endpoint {
        case .unixSocket(let path):
            return .init(unixSocketPath: path, username: user, password: password, database: database)
        case .tcp(let host, let port):
            let mode: PostgresConnection.Configuration.TLS = switch tls {
            case .disable: .disable
            case .allow, .prefer: .prefer(try NIOSSLContext(configuration: tlsConfiguration()))
            case .require, .verifyCA, .verifyFull: .require(try NIOSSLContext(configuration: tlsConfiguration()))
            }
            return .init(host: host, port: port, username: user, password: password, database: database, tls: mode)
        }
    }
}
