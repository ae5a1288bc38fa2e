import Crypto
import Foundation
import LiveryServe
import LiveryPublish
import LiveryReleaseFormat
import XCTest

/// Vouchers on a real PostgreSQL 15 server (`PostgresServer`, started per test): the store's
/// semantics match SQLite's, migrations run once even when instances start together, and two
/// `livery serve` processes sharing one database never over-spend a code.
final class PostgresVoucherTests: XCTestCase {
    static let walk = VoucherSubject(.tour, "walk")

    private var server: PostgresServer!

    override func setUpWithError() throws {
        server = try PostgresServer()
    }

    override func tearDown() {
        server?.stop()
        server = nil
    }

    private func store(_ database: String) async throws -> PostgresVoucherStore {
        try await PostgresVoucherStore.connect(PostgresLocation(url: server.url(database: database)))
    }

    func testStoreIssuesRedeemsListsAndRevokesAsSQLiteDoes() async throws {
        let database = try server.createDatabase()
        let store = try await store(database)
        let now = Date()
        let codes = try await store.issue(tenant: "t", subject: Self.walk, count: 2, devices: 2, expires: nil, now: now)
        XCTAssertEqual(codes.count, 2)
        // Only hashes are stored.
        let stored = try server.psql("SELECT code_sha256 || prefix FROM vouchers", database: database)
        XCTAssertFalse(codes.contains { stored.contains($0.normalised) }, stored)
        XCTAssertTrue(stored.contains(codes[0].sha256))

        guard case .granted(let id, let subject, let expires) = try await store.redeem(tenant: "t", code: codes[0], device: "d1", now: now) else {
            return XCTFail("not granted")
        }
        XCTAssertEqual(subject, Self.walk)
        XCTAssertNil(expires)
        let again = try await store.redeem(tenant: "t", code: codes[0], device: "d1", now: now)
        XCTAssertEqual(again, .granted(voucher: id, subject: Self.walk, expires: nil), "re-redemption by the same device")
        let second = try await store.redeem(tenant: "t", code: codes[0], device: "d2", now: now)
        XCTAssertEqual(second, .granted(voucher: id, subject: Self.walk, expires: nil))
        let exhausted = try await store.redeem(tenant: "t", code: codes[0], device: "d3", now: now)
        XCTAssertEqual(exhausted, .exhausted)
        let stillFree = try await store.redeem(tenant: "t", code: codes[0], device: "d1", now: now)
        XCTAssertEqual(stillFree, .granted(voucher: id, subject: Self.walk, expires: nil), "a known device still gets in when the code is used up")
        let otherTenant = try await store.redeem(tenant: "u", code: codes[0], device: "d1", now: now)
        XCTAssertEqual(otherTenant, .invalid)
        let unknown = try await store.redeem(tenant: "t", code: try XCTUnwrap(VoucherCode(typed: "ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ")), device: "d1", now: now)
        XCTAssertEqual(unknown, .invalid)

        let list = try await store.list(tenant: "t")
        XCTAssertEqual(list.map(\.prefix), codes.map(\.prefix))
        XCTAssertEqual(list.map(\.devicesUsed), [2, 0])
        XCTAssertEqual(list.first?.devices, 2)
        XCTAssertEqual(list.first?.created, Date(timeIntervalSince1970: TimeInterval(Int64(now.timeIntervalSince1970))))
        let otherList = try await store.list(tenant: "u")
        XCTAssertEqual(otherList, [])

        // Expiry: valid until the moment, invalid from it on (redeeming and the token check alike).
        let end = now.addingTimeInterval(3600)
        let expiring = try await store.issue(tenant: "t", subject: Self.walk, count: 1, devices: 1, expires: end, now: now)[0]
        guard case .granted(let expiringID, _, let expiry) = try await store.redeem(tenant: "t", code: expiring, device: "d", now: now) else { return XCTFail("not granted") }
        XCTAssertEqual(expiry, Date(timeIntervalSince1970: TimeInterval(Int64(end.timeIntervalSince1970))))
        let validBefore = try await store.isValid(voucher: expiringID, tenant: "t", now: now)
        XCTAssertTrue(validBefore)
        let validAfter = try await store.isValid(voucher: expiringID, tenant: "t", now: end.addingTimeInterval(1))
        XCTAssertFalse(validAfter)
        let late = try await store.redeem(tenant: "t", code: expiring, device: "d", now: end.addingTimeInterval(1))
        XCTAssertEqual(late, .invalid)
        let wrongTenant = try await store.isValid(voucher: id, tenant: "u", now: now)
        XCTAssertFalse(wrongTenant)

        // Revocation by the first group, then the voucher is invalid everywhere.
        let revoked = try await store.revoke(codes[0].prefix.lowercased(), now: now)
        XCTAssertEqual(revoked.prefix, codes[0].prefix)
        XCTAssertEqual(revoked.devicesUsed, 2)
        XCTAssertNotNil(revoked.revoked)
        let afterRevoke = try await store.redeem(tenant: "t", code: codes[0], device: "d1", now: now)
        XCTAssertEqual(afterRevoke, .invalid)
        let validRevoked = try await store.isValid(voucher: id, tenant: "t", now: now)
        XCTAssertFalse(validRevoked)
        let byCode = try await store.revoke(codes[1].description, now: now)
        XCTAssertEqual(byCode.prefix, codes[1].prefix)

        // A prefix two vouchers share is refused; nonsense and unknown codes are named.
        try server.psql("INSERT INTO vouchers(code_sha256, prefix, tenant, tour, devices, created) VALUES ('x', '\(codes[0].prefix)', 't', 'walk', 1, 0)", database: database)
        await XCTAssertThrowsFailure(try await store.revoke(codes[0].prefix, now: now), containing: "2 vouchers start with \(codes[0].prefix): give the whole code")
        await XCTAssertThrowsFailure(try await store.revoke("not a code!", now: now), containing: "is not a voucher code")
        await XCTAssertThrowsFailure(try await store.revoke("ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ", now: now), containing: "no such voucher in postgres://postgres@127.0.0.1:")
        await store.close()
    }

    func testTheTokenSecretIsMadeOnceAndSharedByEveryInstance() async throws {
        let database = try server.createDatabase()
        let first = try await store(database), second = try await store(database)
        // Both ask at once: ON CONFLICT DO NOTHING lets exactly one write.
        async let a = first.tokenSecret()
        async let b = second.tokenSecret()
        let (secretA, secretB) = try await (a, b)
        XCTAssertEqual(secretA.withUnsafeBytes { Data($0) }, secretB.withUnsafeBytes { Data($0) })
        XCTAssertEqual(secretA.bitCount, 256)
        XCTAssertEqual(try server.psql("SELECT count(*) FROM settings", database: database), "1")
        let third = try await store(database)
        let secretC = try await third.tokenSecret()
        XCTAssertEqual(secretC.withUnsafeBytes { Data($0) }, secretA.withUnsafeBytes { Data($0) })
        for store in [first, second, third] { await store.close() }
    }

    func testMigrationsRunOnceEvenWhenInstancesStartTogether() async throws {
        let database = try server.createDatabase()
        let location = try PostgresLocation(url: server.url(database: database))
        // Eight migrators on an empty database at once, each on its own connection.
        let applied = try await withThrowingTaskGroup(of: [Int].self) { group in
            for _ in 0..<8 {
                group.addTask { try await PostgresMigrations.migrate(location) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        XCTAssertEqual(applied.filter { !$0.isEmpty }, [[1]], "exactly one migrator applied version 1: \(applied)")
        XCTAssertEqual(try server.psql("SELECT version FROM livery_schema_migrations", database: database), "1")
        XCTAssertEqual(try server.psql("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'", database: database), "4")

        // Idempotent: connecting again changes nothing.
        let store = try await PostgresVoucherStore.connect(location)
        await store.close()
        XCTAssertEqual(try server.psql("SELECT count(*) FROM livery_schema_migrations", database: database), "1")

        // A database migrated by a newer livery is refused, not used with a schema it does not know.
        try server.psql("INSERT INTO livery_schema_migrations(version) VALUES (99)", database: database)
        await XCTAssertThrowsFailure(try await PostgresVoucherStore.connect(location), containing: "voucher schema version 99, newer than this livery knows (1)")
    }

    func testURLFormsAndTheirErrorsNeverShowThePassword() throws {
        let plain = try PostgresLocation(url: "postgres://ann:s3cret@db.example:6543/vouchers?sslmode=disable", environment: [:])
        XCTAssertEqual(plain.endpoint, .tcp(host: "db.example", port: 6543))
        XCTAssertEqual(plain.user, "ann")
        XCTAssertEqual(plain.password, "s3cret")
        XCTAssertEqual(plain.database, "vouchers")
        XCTAssertEqual(plain.tls, .disable)
        XCTAssertEqual(plain.description, "postgres://ann@db.example:6543/vouchers?sslmode=disable")

        let socket = try PostgresLocation(url: "postgresql://ann@%2Ftmp%2Fpg/v", environment: ["PGPASSWORD": "fromenv"])
        XCTAssertEqual(socket.endpoint, .unixSocket(path: "/tmp/pg/.s.PGSQL.5432"))
        XCTAssertEqual(socket.password, "fromenv")
        XCTAssertEqual(socket.tls, .prefer)
        let query = try PostgresLocation(url: "postgres:///v?host=/run/pg&port=5433&user=bob&password=pw", environment: [:])
        XCTAssertEqual(query.endpoint, .unixSocket(path: "/run/pg/.s.PGSQL.5433"))
        XCTAssertEqual(query.user, "bob")
        XCTAssertEqual(query.password, "pw")
        XCTAssertEqual(query.description, "postgres:///v?host=/run/pg&port=5433&user=bob")
        let v6 = try PostgresLocation(url: "postgres://u@[::1]:5439/v", environment: [:])
        XCTAssertEqual(v6.endpoint, .tcp(host: "::1", port: 5439))
        XCTAssertEqual(try PostgresLocation(url: "postgres://u@/v", environment: [:]).endpoint, .unixSocket(path: "/var/run/postgresql/.s.PGSQL.5432"))
        XCTAssertEqual(try PostgresLocation(url: "postgres://h/v", environment: ["PGUSER": "envuser"]).user, "envuser")

        let bad: [(String, String)] = [
            ("postgres://u:pw@h:99999/v", "the port must be a number from 1 to 65535"),
            ("postgres://u:pw@h/v?sslmode=always", "sslmode must be one of disable, allow, prefer, require, verify-ca, verify-full"),
            ("postgres://u:pw@h/v?colour=blue", "unknown parameter 'colour'"),
            ("postgres://u:pw@[::1/v", "closing ]"),
        ]
        for (url, message) in bad {
            XCTAssertThrowsError(try PostgresLocation(url: url, environment: [:]), url) { error in
                let text = "\(error)"
                XCTAssertTrue(text.contains(message), text)
                XCTAssertTrue(text.hasPrefix("--vouchers postgres://u@"), text)
                XCTAssertFalse(text.contains("pw"), text)
            }
        }
    }

    /// An unreachable server, a wrong database and a bad URL: one line on standard error, naming
    /// the URL without its password, exit status 2, from `serve` and `vouchers` alike.
    func testUnreachableServersAndBadURLsAreOneClearLine() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("livery-pg-out-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: output) }
        let closed = (0..<100).lazy.map { _ in Int.random(in: 20_000..<60_000) }.first { SigningTests.isFree($0) } ?? 1
        let refused = "postgres://ann:topsecret@127.0.0.1:\(closed)/vouchers?sslmode=disable"
        let cases: [([String], String)] = [
            (["serve", "--output", output.path, "--port", "0", "--vouchers", refused],
             "cannot connect to the voucher database postgres://ann@127.0.0.1:\(closed)/vouchers?sslmode=disable: connection refused"),
            (["vouchers", "list", "t", "--output", output.path, "--vouchers", refused],
             "cannot connect to the voucher database postgres://ann@127.0.0.1:\(closed)/vouchers?sslmode=disable: connection refused"),
            (["vouchers", "list", "t", "--vouchers", server.url(database: "missing")],
             "cannot connect to the voucher database \(server.url(database: "missing")): database \"missing\" does not exist"),
            (["vouchers", "revoke", "ABCD", "--vouchers", "postgres://ann:topsecret@h:0/v"], "--vouchers postgres://ann@h:0/v: the port must be a number"),
        ]
        for (arguments, message) in cases {
            let result = try LiveryProcess.run(arguments, in: output, timeout: 60)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
            XCTAssertFalse(result.stderr.contains("topsecret") || result.stdout.contains("topsecret"), result.stderr)
        }
    }

    /// The hostile case of issue 12: two servers share one database; twenty devices redeem a
    /// one-device code at once, half through each server. Exactly one wins; the token it gets from
    /// one server opens the protected bundle on the other, until the code is revoked.
    func testTwoServersSharingOneDatabaseSpendAOneDeviceCodeExactlyOnce() throws {
        let database = try server.createDatabase()
        let url = server.url(database: database)
        let fixture = try VoucherTests.Fixture()
        let first = try SigningTests.FileServer(root: fixture.workspace.output, arguments: ["--vouchers", url])
        let second = try SigningTests.FileServer(root: fixture.workspace.output, arguments: ["--vouchers", server.socketURL(database: database)])
        let issued = try fixture.vouchers(["issue", "sonic-walkscape", "--tour", "rome-trastevere", "--devices", "1", "--vouchers", url])
        XCTAssertEqual(issued.status, 0, issued.stderr)
        XCTAssertTrue(issued.stderr.contains("in \(url)"), issued.stderr)
        let code = try XCTUnwrap(issued.stdout.split(separator: "\n").first.map(String.init))
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixture.database.path), "no SQLite file when the vouchers are in PostgreSQL")

        let bases = ["http://127.0.0.1:\(first.port)", "http://127.0.0.1:\(second.port)"]
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 20) { index in
            let answer = try? VoucherTests.Fixture.redeem(base: bases[index % 2], code, device: "device-\(index)")
            results.append(index, answer?.status ?? -1, answer?.json["token"] as? String)
        }
        XCTAssertEqual(results.statuses.filter { $0 == 200 }.count, 1, "\(results.statuses)")
        XCTAssertEqual(results.statuses.filter { $0 == 409 }.count, 19, "\(results.statuses)")
        XCTAssertEqual(try server.psql("SELECT count(*) FROM redemptions", database: database), "1")
        let list = try fixture.vouchers(["list", "sonic-walkscape", "--vouchers", server.socketURL(database: database)])
        XCTAssertTrue(list.stdout.contains("1/1"), list.stdout + list.stderr)

        // The token from the instance that granted it opens the bundle on the other one.
        let (winner, token) = try XCTUnwrap(results.winner)
        let other = bases[(winner + 1) % 2]
        let path = "sonic-walkscape/targets/\(try fixture.file("tour.rome-trastevere"))"
        let got = fixture.workspace.root.appendingPathComponent("from-other.zip")
        let download = try fixture.curl(["-o", got.path, "-w", "%{http_code}", "-H", "Authorization: Bearer \(token)", "\(other)/\(path)"])
        XCTAssertEqual(download.stdout, "200")
        XCTAssertEqual(try Data(contentsOf: got), try Data(contentsOf: fixture.workspace.output.appendingPathComponent(path)))
        // The winning device redeems again on the other server for free; revoking stops both servers at once.
        XCTAssertEqual(try VoucherTests.Fixture.redeem(base: other, code, device: "device-\(winner)").status, 200)
        let revoke = try fixture.vouchers(["revoke", code, "--vouchers", url])
        XCTAssertEqual(revoke.status, 0, revoke.stderr)
        for base in bases {
            XCTAssertEqual(try fixture.curl(["-o", "/dev/null", "-w", "%{http_code}", "-H", "Authorization: Bearer \(token)", "\(base)/\(path)"]).stdout, "401")
        }
        XCTAssertFalse(first.log.contains(token) || second.log.contains(token), "no token in the logs")
    }

    /// Issue 12's "done when": a voucher for a protected **program** (and a protected library pack),
    /// redeemed through two `livery serve` instances sharing PostgreSQL, installs with `livery fetch`.
    func testAProtectedProgramAndPackAreUnlockedThroughTwoServersOnPostgres() throws {
        let database = try server.createDatabase()
        let url = server.url(database: database)
        let program = "30-day-fitness-foundation", tenant = "companero-lucia"
        let fixture = try VoucherTests.Fixture { workspace in
            try workspace.replace("\(tenant)/programs/\(program).yaml", "difficulty: beginner\n", "difficulty: beginner\nprotected: true\n")
            try workspace.replace("\(tenant)/library/library.yaml", "  - id: foundation-essentials\n", "  - id: foundation-essentials\n    protected: true\n")
        }
        let manifest = try XCTUnwrap(Publisher.currentManifest(tenant: tenant, output: fixture.workspace.output)?.manifest)
        XCTAssertEqual(manifest.bundle("program.\(program)")?.access, .voucher)
        XCTAssertEqual(manifest.bundle("library.foundation-essentials")?.access, .voucher)
        XCTAssertEqual(manifest.bundles.filter { $0.access == .voucher }.map(\.id).sorted(), ["library.foundation-essentials", "program.\(program)"])

        let first = try SigningTests.FileServer(root: fixture.workspace.output, arguments: ["--vouchers", url])
        let second = try SigningTests.FileServer(root: fixture.workspace.output, arguments: ["--vouchers", url])
        let issued = try fixture.vouchers(["issue", tenant, "--program", program, "--devices", "2", "--vouchers", url])
        XCTAssertEqual(issued.status, 0, issued.stderr)
        XCTAssertTrue(issued.stderr.contains("for \(tenant) program \(program), 2 devices each"), issued.stderr)
        let code = try XCTUnwrap(issued.stdout.split(separator: "\n").first.map(String.init))
        let pack = try fixture.vouchers(["issue", tenant, "--pack", "foundation-essentials", "--vouchers", url])
        XCTAssertEqual(pack.status, 0, pack.stderr)
        let packCode = try XCTUnwrap(pack.stdout.split(separator: "\n").first.map(String.init))
        let wrongKind = try fixture.vouchers(["issue", tenant, "--tour", program, "--vouchers", url])
        XCTAssertEqual(wrongKind.status, 2)
        XCTAssertTrue(wrongKind.stderr.contains("'\(program)' is not a tour of \(tenant)'s current release (it has no tours)"), wrongKind.stderr)

        // One device redeems on the first server: the answer names the program and its one bundle.
        let answer = try VoucherTests.Fixture.redeem(base: "http://127.0.0.1:\(first.port)", code, device: "phone-1", tenant: tenant)
        XCTAssertEqual(answer.status, 200, "\(answer.json)")
        XCTAssertEqual(answer.json["subject"] as? String, "program:\(program)")
        XCTAssertNil(answer.json["tour"])
        XCTAssertEqual(answer.json["bundles"] as? [String], ["program.\(program)"])
        let token = try XCTUnwrap(answer.json["token"] as? String)
        let programFile = try XCTUnwrap(manifest.bundle("program.\(program)")?.path)
        let packFile = try XCTUnwrap(manifest.bundle("library.foundation-essentials")?.path)
        let other = "http://127.0.0.1:\(second.port)"
        XCTAssertEqual(try fixture.curl(["-o", "/dev/null", "-w", "%{http_code}", "\(other)/\(tenant)/\(programFile)"]).stdout, "401")
        XCTAssertEqual(try fixture.curl(["-o", "/dev/null", "-w", "%{http_code}", "-H", "Authorization: Bearer \(token)", "\(other)/\(tenant)/\(programFile)"]).stdout, "200",
                       "the first server's token opens the program on the second")
        XCTAssertEqual(try fixture.curl(["-o", "/dev/null", "-w", "%{http_code}", "-H", "Authorization: Bearer \(token)", "\(other)/\(tenant)/\(packFile)"]).stdout, "403",
                       "a program's token does not open a pack")

        // The reference client, on the second server: without a voucher it stops before downloading, naming
        // the pack the program's lessons need; with both codes it installs.
        let root = "Output/\(tenant)/metadata/1.root.json"
        let refused = try LiveryProcess.run(["fetch", tenant, "--server", other, "--cache", "cache", "--root", root, "--program", program], in: fixture.workspace.root)
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("is protected by a voucher and this device has no valid access token"), refused.stderr)
        let fetched = try LiveryProcess.run(["fetch", tenant, "--server", other, "--cache", "cache", "--root", root, "--program", program,
                                             "--voucher", code, "--voucher", packCode], in: fixture.workspace.root)
        XCTAssertEqual(fetched.status, 0, fetched.stderr)
        let installed = fixture.workspace.root.appendingPathComponent("cache/\(tenant)/current/bundles")
        XCTAssertTrue(FileManager.default.fileExists(atPath: installed.appendingPathComponent("program.\(program)").path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: installed.appendingPathComponent("library.foundation-essentials").path))
        XCTAssertEqual(try server.psql("SELECT count(*) FROM redemptions", database: database), "3", "phone-1, and this cache's device for each code")
    }

    /// Statuses and tokens of parallel redemptions, by request index.
    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [(index: Int, status: Int, token: String?)] = []
        func append(_ index: Int, _ status: Int, _ token: String?) { lock.withLock { entries.append((index, status, token)) } }
        var statuses: [Int] { lock.withLock { entries.map(\.status) } }
        var winner: (Int, String)? { lock.withLock { entries.first { $0.status == 200 }.flatMap { entry in entry.token.map { (entry.index, $0) } } } }
    }
}

/// Fails unless `expression` throws an error whose description contains `message`.
func XCTAssertThrowsFailure<T>(_ expression: @autoclosure () async throws -> T, containing message: String, file: StaticString = #filePath, line: UInt = #line) async {
    do {
        _ = try await expression()
        XCTFail("no error (expected one containing \(message))", file: file, line: line)
    } catch {
        XCTAssertTrue("\(error)".contains(message), "\(error)", file: file, line: line)
    }
}
