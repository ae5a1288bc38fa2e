import ArgumentParser
import Foundation
import LiveryAssets
import LiveryPublish
import LiverySign
import LiveryWorkflow

struct StoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Check and repair the output folder's content store and published targets.",
        subcommands: [Verify.self, Repair.self]
    )

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Re-hash every object of Output/.livery/store and every file in each channel's targets/.",
            discussion: """
                A damaged object or target (bytes that are not the SHA-256 it is named by) is listed and the exit \
                status is 1. A stale object (a tenant file edited in place after it was stored, never used again) is \
                listed but is not damage. The signed metadata is checked by `livery verify`.
                """
        )

        @Option(name: .shortAndLong, help: "The output folder.")
        var output = "Output"

        func run() throws {
            let report = try StoreDoctor.verify(output: URL(fileURLWithPath: output).standardizedFileURL)
            FileHandle.standardOutput.write(Data(report.text.utf8))
            if !report.damaged.isEmpty { throw ExitCode(1) }
        }
    }

    struct Repair: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "repair",
            abstract: "Remove damaged store objects, re-create them from the tenants' sources, and replace damaged targets.",
            discussion: """
                Damaged and stale objects are removed from the store. A damaged published target is replaced from an \
                intact copy (the store, or another channel's target with the same SHA-256); when there is none, its \
                tenant is built again from WORKSPACE (the same bytes: builds are deterministic) and the target is \
                replaced from the result. Each channel is switched atomically, as a build does. Exit status 1 when \
                something could not be repaired.
                """
        )

        @Argument(help: "The workspace the tenants are built from.", completion: .directory)
        var workspace = "Tenants"

        @Option(name: .shortAndLong, help: "The output folder.")
        var output = "Output"

        @Option(help: "The signing key store.")
        var keys = ".livery-keys"

        func run() throws {
            let outputURL = URL(fileURLWithPath: output).standardizedFileURL
            // The rebuild is a build (the composition layer's), so the command hands it in.
            let checkup = try StoreDoctor.verifyAndRepair(output: outputURL) { tenants in
                let store = try ContentStore(root: outputURL.appendingPathComponent(".livery/store"))
                let records = try BuildRecords(store: store)
                for tenant in tenants { try records.forget(tenant) }
                var options = BuildOptions(only: tenants, keys: KeyStore(root: URL(fileURLWithPath: keys)))
                options.format = Publisher.currentManifest(tenant: tenants.sorted()[0], output: outputURL)?.manifest.format ?? .zip
                let target = WorkspaceTarget(workspace)
                let built = try ReleaseBuilder.build(workspace: target.workspace, displayRoot: target.displayWorkspace, output: outputURL, options: options)
                if built.validationFailed || !built.failures.isEmpty {
                    throw Livery.Failure("cannot rebuild \(tenants.sorted().joined(separator: ", ")) from \(workspace): "
                                         + (built.failures.isEmpty ? "validation failed (run `livery validate`)" : built.failures.joined(separator: "; ")))
                }
            }
            FileHandle.standardOutput.write(Data(checkup.text.utf8))
            if checkup.failed { throw ExitCode(1) }
        }
    }
}
