import ArgumentParser
import Foundation
import LiveryCheck
import LiveryDiagnostics
import LiveryLoad
import LiveryPack
import LiveryParallel
import LiveryPublish
import LiveryResolve
import LiverySign
import LiveryStorage
import LiveryReleaseFormat
import LiveryWorkflow

struct Build: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Validate tenants, build their bundles and publish each changed release into Output/.",
        discussion: """
            Each tenant's release lands in Output/<tenant>/: targets/<sha256>.<bundle> for every bundle and \
            for the download manifest, and release.json pointing at the manifest. Publishing is atomic and \
            incremental: unchanged bundles are reused, an unchanged tenant publishes nothing, and a build \
            that fails validation publishes nothing. With --shard K/N only the K-th of N stable shares of the \
            tenants is built (a base and every tenant extending it always share a shard; see \
            docs/operations.md), and other folders in the output are left alone. Exit status: 0 on success, \
            1 when validation finds errors, 2 on a usage or internal error.
            """
    )

    @Argument(help: "Workspace or tenant folders to build (default: Tenants).", completion: .directory)
    var paths: [String] = []

    @Option(name: .shortAndLong, help: "The output folder.")
    var output = "Output"

    @Option(help: "Bundle archive format: zip or tar.zst.")
    var archiveFormat: ArchiveFormat = .zip

    @Flag(help: "Treat validation warnings as errors.")
    var strict = false

    @Option(name: .shortAndLong, help: "How validation findings are shown: text, json or sarif.")
    var format: ReportFormat = .text

    @Option(help: "The signing key store (one folder per tenant; default: .livery-keys beside the workspace folder, so ./.livery-keys for ./Tenants wherever the command runs). Development keys are created there on first use, with a warning.")
    var keys: String?

    @Flag(help: "Publish unsigned releases (no TUF metadata).")
    var unsigned = false

    @Flag(help: "Re-sign the timestamp of every unchanged release, and of every release kept live because its new one failed (new version and expiry), so it does not expire.")
    var refreshTimestamp = false

    @Option(help: ArgumentHelp("Publish to this channel instead of each tenant's release.channel (stable, or a channel the tenant declares in release.channels).", valueName: "NAME"),
            transform: ChannelArgument.parse)
    var channel: ReleaseChannel?

    @Option(help: ArgumentHelp("Give each new release to this share of the channel's devices only (e.g. 10%); the rest keep the current release. Change it with `livery rollout`.", valueName: "PERCENT"),
            transform: ChannelArgument.parseShare)
    var rollout: RolloutStage?

    @Flag(help: "After building, publish every built tenant to the object store named by --to (as `livery publish` does).")
    var publish = false

    @OptionGroup var store: ObjectStoreOptions

    @Option(help: ArgumentHelp("Build only shard K of N (1 ≤ K ≤ N): the lineages whose root tenant id's SHA-256, modulo N, is K - 1. Each CI runner builds one shard into its own output.", valueName: "K/N"),
            transform: TenantShard.init(parsing:))
    var shard: TenantShard?

    @Flag(help: "Print the ids of the tenants this build would build (with --shard, the shard's), one per line, and build nothing.")
    var list = false

    @Option(help: ArgumentHelp("Worker threads (default: the number of cores). The output is the same for any number.", valueName: "N"))
    var jobs: Int?

    @Option(name: .customLong("as-of"),
            help: ArgumentHelp("Show what a release built now contains and what apps show from it at DATE (RFC 3339 with its offset, e.g. 2027-01-04T06:00:00+01:00): drafts, and content hidden until or since its window. Validates, and builds and publishes nothing.", valueName: "DATE"),
            transform: { text in
                guard let date = ScheduleDate.parse(text) else {
                    throw ValidationError("--as-of needs a date and time with its offset, such as 2027-01-04T06:00:00+01:00 or 2027-01-04T05:00:00Z")
                }
                return date
            })
    var asOf: Date?

    func validate() throws {
        if rollout != nil && unsigned { throw ValidationError("--rollout needs signing (the share of devices is signed metadata); drop --unsigned") }
        if refreshTimestamp && unsigned { throw ValidationError("--refresh-timestamp needs signing; drop --unsigned") }
        if publish && store.destination == nil { throw ValidationError("--publish needs --to s3://bucket/prefix") }
        if !publish && store.destination != nil { throw ValidationError("--to is for --publish: add --publish, or run `livery publish --to …` after the build") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    func run() async throws {
        if let jobs { ParallelMap.workers = jobs }
        var built: [String] = []
        let outputURL = URL(fileURLWithPath: output).standardizedFileURL
        var failed = false
        for path in paths.isEmpty ? ["Tenants"] : paths {
            guard let (target, only) = try selection(path) else { continue }
            if list {
                let names = only ?? Set(TenantLoader.discover(in: target.workspace).folders.map(\.lastPathComponent))
                for name in names.sorted() { print(name) }
            } else if let asOf {
                failed = try !Self.showSchedule(target, only: only, at: asOf, strict: strict, format: format) || failed
            } else if let result = try build(target, named: path, only: only, output: outputURL) {
                built += result.tenants.map(\.tenant)
            } else {
                failed = true
            }
        }
        if failed { throw ExitCode(1) }
        if publish {
            guard let publishStep = Livery.publishStep else { throw Livery.Failure("--publish is run by livery-network") }
            try await publishStep(built, outputURL, store, format)
        }
    }

    /// The workspace `path` names and the tenants of it to build (nil: all), or nil when `--shard` leaves none of it
    /// (said on standard error: normal when there are more runners than lineages).
    func selection(_ path: String) throws -> (WorkspaceTarget, Set<String>?)? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw Livery.Failure("'\(path)' is not a folder")
        }
        let target = WorkspaceTarget(path)
        let only = target.tenants(in: shard)
        if let shard, only?.isEmpty == true {
            guard target.hasTenantFolders else { throw Livery.Failure("no tenant folders (folders with a tenant.yaml) found in '\(path)'") }
            FileHandle.standardError.write(Data("shard \(shard) of '\(path)': no tenants in this shard; nothing to build\n".utf8))
            return nil
        }
        return (target, only)
    }

    /// Builds one workspace (its tenants in `only`, nil: all) and prints what each tenant's release became; nil when
    /// validation failed (nothing was published).
    func build(_ target: WorkspaceTarget, named path: String, only: Set<String>?, output: URL) throws -> BuildResult? {
        var options = BuildOptions(format: archiveFormat, only: only, strict: strict,
                                   keys: unsigned ? nil : KeyStore(root: keyStore(for: target)), refreshTimestamp: refreshTimestamp)
        options.channel = channel
        options.rollout = rollout
        options.steps = StepReporter.make(verbose: store.verbose)
        let result: BuildResult
        do {
            result = try ReleaseBuilder.build(
                workspace: target.workspace, displayRoot: target.displayWorkspace, output: output,
                options: options,
                progress: { message in
                    // Waiting for the lock is always said; progress only on a terminal, so CI logs stay quiet.
                    if message.hasPrefix("another livery build") || message.hasPrefix("WARNING") {
                        FileHandle.standardError.write(Data((message + "\n").utf8))
                    } else if isatty(STDERR_FILENO) == 1 {
                        FileHandle.standardError.write(Data(("\r\u{1B}[K" + message).utf8))
                    }
                })
        } catch let failure as WriteFailure {
            // A write the whole build needs (the output's lock, the build store) failed before any tenant's own step:
            // said in the documented form, naming the tenant when only one was asked for.
            if isatty(STDERR_FILENO) == 1 { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            throw Livery.Failure("build failed: " + (target.tenant.map { "\($0): " } ?? "") + "\(failure); nothing was published")
        }
        if isatty(STDERR_FILENO) == 1 { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        if result.validationFailed || !result.validation.diagnostics.isEmpty || format != .text {
            let report = DiagnosticReport(diagnostics: result.validation.diagnostics, rules: RuleSet.all.summaries, toolVersion: Livery.version)
            FileHandle.standardOutput.write(Data(report.render(format).utf8))
        }
        if result.tenants.isEmpty && !result.validationFailed && result.failures.isEmpty {
            throw Livery.Failure("no tenant folders (folders with a tenant.yaml) found in '\(path)'")
        }
        if result.validationFailed {
            FileHandle.standardError.write(Data("validation failed: nothing was published\n".utf8))
            return nil
        }
        for tenant in result.tenants {
            // With --format json or sarif, stdout carries only the report.
            let line = "\(tenant.tenant): \(Self.describe(tenant))\n"
            (format == .text ? FileHandle.standardOutput : FileHandle.standardError).write(Data(line.utf8))
        }
        if !result.failures.isEmpty {
            throw Livery.Failure("build failed:\n" + result.failures.joined(separator: "\n"))
        }
        return result
    }

    /// What a tenant's build did, as its line says it.
    static func describe(_ tenant: TenantBuildReport) -> String {
        let on = tenant.channel.isStable ? "" : " on \(tenant.channel.name)"
        let share = tenant.rollout.map { " to \($0.percentText) of devices" } ?? ""
        guard tenant.published else {
            return "unchanged (release \(tenant.release)\(on)\(tenant.untouched ? ", inputs untouched" : "")\(tenant.timestampRefreshed ? ", timestamp re-signed" : ""))"
        }
        return "published release \(tenant.release)\(on)\(share): \(tenant.bundles) bundles, \(tenant.rebuilt.count) rebuilt"
            + (tenant.updateDelta.map { delta in
                "; an update from the previous release downloads \(ByteCount.text(delta))"
                    + (delta < (tenant.updateWhole ?? 0) ? " by delta (\(ByteCount.text(tenant.updateWhole ?? 0)) whole)" : "")
            } ?? "")
    }
}

extension Livery {
    /// What `build --publish` does after the build: upload `tenants` from the output folder to the store `ObjectStoreOptions`
    /// name, reporting on standard output (standard error when the report format is not text). livery-network sets
    /// it before parsing; `livery` hands `build --publish` to livery-network (NetworkCommand), so never calls it.
    package typealias PublishStep = @Sendable (_ tenants: [String], _ output: URL, _ store: ObjectStoreOptions, _ format: ReportFormat) async throws -> Void
    package nonisolated(unsafe) static var publishStep: PublishStep?
}

extension Build {
    /// `--keys`, else `.livery-keys` beside the workspace folder: the store belongs to the workspace it signs, so a
    /// build of `/path/to/Tenants/x` run from another folder never makes a second store (of new keys) there.
    func keyStore(for target: WorkspaceTarget) -> URL {
        keys.map { URL(fileURLWithPath: $0).standardizedFileURL }
            ?? target.workspace.deletingLastPathComponent().appendingPathComponent(".livery-keys", isDirectory: true)
    }

    /// `--as-of`: validates a group of lineages at a time and prints each clean tenant's schedule at `date`;
    /// false when validation found errors (then nothing is printed for the workspace).
    static func showSchedule(_ target: WorkspaceTarget, only: Set<String>?, at date: Date, strict: Bool, format: ReportFormat) throws -> Bool {
        var lines: [String] = []
        let (diagnostics, checked) = GroupedValidation.run(workspace: target.workspace, displayRoot: target.displayWorkspace, only: only, strict: strict) { tenants in
            for tenant in tenants.sorted(by: { $0.id < $1.id }) {
                let contents = ReleaseSchedule.contents(of: tenant)
                lines.append("\(tenant.id) as of \(TUFDate.string(date)):" + (contents.isEmpty ? " no programs, library items or tours" : ""))
                let width = contents.map { $0.kind.rawValue.count + 1 + $0.id.count }.max() ?? 0
                for content in contents {
                    let name = "\(content.kind.rawValue) \(content.id)"
                    lines.append("  " + name + String(repeating: " ", count: width - name.count) + "  " + content.describe(at: date))
                }
            }
            return []
        }
        guard checked > 0 else { throw Livery.Failure("no tenant folders (folders with a tenant.yaml) found in '\(target.displayWorkspace)'") }
        let failed = diagnostics.errorCount > 0 || (strict && !diagnostics.isEmpty)
        if !diagnostics.isEmpty || format != .text {
            let report = DiagnosticReport(diagnostics: diagnostics.normalized(), rules: RuleSet.all.summaries, toolVersion: Livery.version)
            FileHandle.standardOutput.write(Data(report.render(format).utf8))
        }
        if failed {
            FileHandle.standardError.write(Data("validation failed: no schedule shown\n".utf8))
            return false
        }
        let text = lines.joined(separator: "\n") + "\n"
        (format == .text ? FileHandle.standardOutput : FileHandle.standardError).write(Data(text.utf8))
        return true
    }
}

extension ArchiveFormat: ExpressibleByArgument {}
