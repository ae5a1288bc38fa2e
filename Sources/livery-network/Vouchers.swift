import ArgumentParser
import Foundation
import LiveryCommands
import LiveryReleaseFormat
import LiveryServe

/// `livery vouchers issue|list|revoke`: codes that unlock a protected tour through `livery serve`.
struct Vouchers: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vouchers",
        abstract: NetworkCommand.vouchers.abstract,
        discussion: """
            Codes are random (100 bits), shown as five groups of four Crockford base32 characters; only their \
            SHA-256 is stored, in the voucher database (default <output>/.livery/vouchers.sqlite, never served; \
            or a PostgreSQL database shared by several `livery serve` instances, --vouchers postgres://user@host:port/database). \
            A tour, program, library item or pack takes vouchers when it is `protected: true` in the tenant's current published release.
            """,
        subcommands: [Issue.self, List.self, Revoke.self]
    )

    struct Options: ParsableArguments {
        @Option(name: .shortAndLong, help: "The output folder with the published releases.")
        var output = "Output"

        @Option(help: "The voucher database: a SQLite file (default: <output>/.livery/vouchers.sqlite) or postgres://user@host:port/database (password from the URL or PGPASSWORD).")
        var vouchers: String?

        var outputURL: URL { URL(fileURLWithPath: output).standardizedFileURL }

        func database() throws -> VoucherDatabase { try Vouchers.database(vouchers, output: outputURL) }
    }

    /// `--vouchers` (`VoucherDatabase(option:output:)`), its refusal one line for the user.
    static func database(_ option: String?, output: URL) throws -> VoucherDatabase {
        do {
            return try VoucherDatabase(option: option, output: output)
        } catch let failure as VoucherFailure {
            throw Livery.Failure(failure.description)
        }
    }

    /// Runs `body` with the open back end (`VoucherDatabase.withBackend`); database failures become one line for the user.
    static func withBackend<T>(_ database: VoucherDatabase, create: Bool, _ body: ((any VoucherBackend)?) async throws -> T) async throws -> T {
        do {
            return try await database.withBackend(create: create, body)
        } catch let failure as VoucherFailure {
            throw Livery.Failure(failure.description)
        }
    }

    static func checkTenant(_ tenant: String) throws {
        guard tenant.range(of: "^[a-z0-9]+(-[a-z0-9]+)*$", options: .regularExpression) != nil else { throw ValidationError("'\(tenant)' is not a tenant id (a slug)") }
    }

    struct Issue: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "issue",
            abstract: "Create voucher codes for a protected tour, program, library item or pack and print them, one per line (nothing else on standard output).")

        @Argument(help: "The tenant id.")
        var tenant: String

        @Option(help: "The protected tour the codes unlock.")
        var tour: String?

        @Option(help: "The protected program the codes unlock.")
        var program: String?

        @Option(help: "The protected library item (one not in a pack) the codes unlock.")
        var libraryItem: String?

        @Option(help: "The protected library pack the codes unlock.")
        var pack: String?

        /// Exactly one of --tour, --program, --library-item, --pack.
        var subject: VoucherSubject? {
            let given = [(VoucherSubject.Kind.tour, tour), (.program, program), (.libraryItem, libraryItem), (.pack, pack)].compactMap { kind, id in id.map { VoucherSubject(kind, $0) } }
            return given.count == 1 ? given[0] : nil
        }

        @Option(help: "How many codes to create (1–10000).")
        var count = 1

        @Option(help: "On how many devices each code may be redeemed (1–10000).")
        var devices = 1

        @Option(help: "The last day (UTC) a code can be redeemed, YYYY-MM-DD; tokens never outlive it. Default: no expiry.")
        var expires: String?

        @OptionGroup var options: Options

        func validate() throws {
            try Vouchers.checkTenant(tenant)
            guard subject != nil else { throw ValidationError("say what the codes unlock: exactly one of --tour, --program, --library-item or --pack") }
            guard (1...10_000).contains(count) else { throw ValidationError("--count must be between 1 and 10000") }
            guard (1...10_000).contains(devices) else { throw ValidationError("--devices must be between 1 and 10000") }
        }

        func run() async throws {
            var expiry: Date?
            if let expires {
                guard let parsed = VoucherExpiry.parse(expires) else { throw Livery.Failure("--expires must be a date such as 2026-12-31, not '\(expires)'") }
                guard parsed > Date() else { throw Livery.Failure("--expires \(expires) is in the past: the codes could never be redeemed") }
                expiry = parsed
            }
            let access: ReleaseAccess?
            do {
                access = try ReleaseAccess.read(tenant: options.outputURL.appendingPathComponent(tenant))
            } catch {
                throw Livery.Failure("cannot read the published release of \(tenant) in \(options.output): \(error)")
            }
            guard let access else { throw Livery.Failure("\(tenant) has no published release in \(options.output) (run `livery build` first)") }
            let subject = subject!
            let noun = subject.kind.noun
            guard let found = access.subjects[subject] else {
                let known = access.subjects(subject.kind).keys.sorted()
                throw Livery.Failure("'\(subject.id)' is not a \(noun) of \(tenant)'s current release (\(known.isEmpty ? "it has no \(noun)s" : "its \(noun)s: " + known.joined(separator: ", ")))")
            }
            guard found.isProtected else {
                throw Livery.Failure("\(noun) '\(subject.id)' of \(tenant) is public: only \(noun)s with `protected: true` take vouchers")
            }
            let database = try options.database()
            let count = count, devices = devices
            let codes = try await Vouchers.withBackend(database, create: true) { backend in
                try await backend?.issue(tenant: tenant, subject: subject, count: count, devices: devices, expires: expiry, now: Date()) ?? []
            }
            print(codes.map(\.description).joined(separator: "\n"))
            let until = expiry.map { ", valid through \(VoucherExpiry.lastDay($0)) (UTC)" } ?? ""
            FileHandle.standardError.write(Data("issued \(count) voucher\(count == 1 ? "" : "s") for \(tenant) \(noun) \(subject.id), \(devices) device\(devices == 1 ? "" : "s") each\(until), in \(database)\n".utf8))
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List a tenant's vouchers: code prefix, what each unlocks, devices used, expiry, revocation.")

        @Argument(help: "The tenant id.")
        var tenant: String

        @OptionGroup var options: Options

        func validate() throws { try Vouchers.checkTenant(tenant) }

        func run() async throws {
            let database = try options.database()
            // Listing never creates a SQLite file.
            let tenant = tenant
            let vouchers = try await Vouchers.withBackend(database, create: false) { backend in try await backend?.list(tenant: tenant) ?? [] }
            guard !vouchers.isEmpty else {
                print("\(tenant): no vouchers")
                return
            }
            let rows = [["CODE", "UNLOCKS", "DEVICES", "EXPIRES", "REVOKED"]] + vouchers.map { voucher in
                ["\(voucher.prefix)-…", voucher.subject.description, "\(voucher.devicesUsed)/\(voucher.devices)",
                 voucher.expires.map(VoucherExpiry.lastDay) ?? "never", voucher.revoked.map(VoucherExpiry.day) ?? "no"]
            }
            let widths = (0..<5).map { column in rows.map { $0[column].count }.max() ?? 0 }
            for row in rows {
                print(row.enumerated().map { column, text in column == 4 ? text : text.padding(toLength: widths[column], withPad: " ", startingAt: 0) }.joined(separator: "  "))
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke",
            abstract: "Revoke a voucher: it can no longer be redeemed, and the tokens it gave stop working at once.")

        @Argument(help: "The code, or its first group as `list` shows it when no other voucher shares it.")
        var code: String

        @OptionGroup var options: Options

        func run() async throws {
            let database = try options.database()
            let code = code
            let voucher = try await Vouchers.withBackend(database, create: false) { backend in
                guard let backend else { throw Livery.Failure("no voucher database at \(database): no voucher was issued") }
                return try await backend.revoke(code, now: Date())
            }
            print("revoked \(voucher.prefix)-… (\(voucher.tenant), \(voucher.subject.kind.noun) \(voucher.subject.id); used on \(voucher.devicesUsed) of \(voucher.devices) device\(voucher.devices == 1 ? "" : "s"))")
        }
    }
}
