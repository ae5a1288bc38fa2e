import ArgumentParser
import Foundation
import LiveryClientCore
import LiveryPublish
import LiveryReleaseFormat

struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Verify published releases exactly as a client would, and explain any failure.",
        discussion: """
            Checks each release's TUF metadata from its root (signatures and thresholds, versions, expiry, \
            lengths and hashes), every target file, and that the download manifest lists exactly the signed \
            bundles. TARGET is a tenant id (its folder in the output folder) or a release folder; with none, \
            every release in the output folder is verified. Exit status: 0 all valid, 1 a release failed, 2 usage.
            """
    )

    @Argument(help: "Tenant ids or release folders (default: every release in the output folder).")
    var targets: [String] = []

    @Option(name: .shortAndLong, help: "The output folder.")
    var output = "Output"

    @Option(help: "A trusted root metadata file to start from, instead of the release's own 1.root.json.")
    var root: String?

    func run() throws {
        var folders: [(String, URL)] = []
        if targets.isEmpty {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []
            for name in names.sorted() where !name.hasPrefix(".") {
                let tenant = URL(fileURLWithPath: output).appendingPathComponent(name)
                // Every channel is a repository of its own (docs/output.md#channels).
                for channel in Publisher.channels(tenant: name, output: URL(fileURLWithPath: output)) {
                    folders.append((channel.isStable ? name : "\(name) (\(channel.name))", channel.repository(in: tenant)))
                }
            }
            if folders.isEmpty { throw Livery.Failure("no releases in '\(output)' (run `livery build` first)") }
        } else {
            for target in targets {
                let direct = URL(fileURLWithPath: target)
                let folder = FileManager.default.fileExists(atPath: direct.appendingPathComponent("metadata").path) ? direct : URL(fileURLWithPath: output).appendingPathComponent(target)
                guard FileManager.default.fileExists(atPath: folder.path) else { throw Livery.Failure("no release '\(target)' in '\(output)'") }
                folders.append((target, folder))
            }
        }
        let pinned = try root.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        var failed = false
        for (name, folder) in folders {
            let report = ReleaseVerifier.verify(LocalRepository(root: folder), trustedRoot: pinned)
            if report.isValid {
                let versions = ["root", "targets", "snapshot", "timestamp"].map { "\($0) v\(report.versions[$0] ?? 0)" }.joined(separator: ", ")
                let expires = report.timestampExpires.map { ", timestamp expires \(TUFDate.string($0))" } ?? ""
                let staged = report.staged.map { " (release \($0) staged)" } ?? ""
                print("\(name): release \(report.release ?? 0)\(staged) verified: \(report.targets) targets\(report.indexes > 0 ? ", \(report.indexes) file index\(report.indexes == 1 ? "" : "es")" : ""); \(versions)\(expires)")
            } else {
                failed = true
                print("\(name): NOT VALID")
                for problem in report.problems { print("    \(problem)") }
            }
        }
        if failed { throw ExitCode(1) }
    }
}
