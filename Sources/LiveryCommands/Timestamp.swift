import ArgumentParser
import Foundation
import LiveryPublish
import LiverySign
import LiveryReleaseFormat

struct TimestampCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timestamp",
        abstract: "Keep published releases fresh with only the timestamp key.",
        subcommands: [Refresh.self])

    struct Refresh: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "refresh",
            abstract: "Sign a new timestamp for every channel of the tenants' published releases (a scheduled job).",
            discussion: """
                Needs only the timestamp key: a machine that runs this holds nothing else (docs/keys.md#role-separation). When the \
                targets and snapshot keys are here too, metadata close to expiry is signed again as well; without them it is \
                kept, with a warning, while it outlives the new timestamp, and the refresh stops once it would not.
                """)

        @Argument(help: "Tenant ids (default: every tenant with a release in the output folder).")
        var tenants: [String] = []

        @Option(help: "The key store folder.")
        var keys = ".livery-keys"

        @Option(name: .shortAndLong, help: "The output folder.")
        var output = "Output"

        func run() throws {
            let output = URL(fileURLWithPath: output).standardizedFileURL
            let lock = try OutputLock(output: output) { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
            defer { withExtendedLifetime(lock) {} }
            let store = KeyStore(root: URL(fileURLWithPath: keys))
            let names = tenants.isEmpty
                ? ((try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []).filter { !$0.hasPrefix(".") && !Publisher.channels(tenant: $0, output: output).isEmpty }.sorted()
                : tenants
            if names.isEmpty { print("no published releases in \(output.path)") }
            var failures: [String] = []
            let warn: (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
            for tenant in names {
                do {
                    let channels = Publisher.channels(tenant: tenant, output: output)
                    guard !channels.isEmpty else { throw Livery.Failure("no published release in \(output.path)") }
                    let tenantKeys = try store.keys(for: tenant, create: false, warn: warn)
                    for channel in channels where Publisher.signaturesCover(tenant: tenant, channel: channel, output: output) {
                        try Publisher.amend(tenant: tenant, channel: channel, output: output) {
                            try RepositorySigner.refreshTimestamp(release: $0, keys: tenantKeys, warn: { warn("\(tenant): \($0)") })
                        }
                        let version = PublishedMetadata.read(release: Publisher.repository(tenant: tenant, channel: channel, output: output))?.timestamp.signed.version ?? 0
                        print("\(tenant)\(channel.isStable ? "" : " (\(channel.name))"): timestamp version \(version) signed")
                    }
                } catch {
                    failures.append("\(tenant): \(error)")
                }
            }
            if !failures.isEmpty { throw Livery.Failure("timestamp refresh failed:\n" + failures.joined(separator: "\n")) }
        }
    }
}
