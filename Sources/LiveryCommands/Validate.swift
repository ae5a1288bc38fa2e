import ArgumentParser
import Foundation
import LiveryCheck
import LiveryDiagnostics
import LiveryLoad
import LiveryMedia
import LiveryParallel
import LiveryResolve
import LiveryWorkflow

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check tenant folders and report every mistake with its file, line and column.",
        discussion: """
            PATH is a workspace (a folder of tenant folders, such as Tenants/) or one tenant folder; \
            a tenant is checked together with the tenants it extends. With --shard K/N only the tenants \
            `livery build --shard K/N` would build are checked (docs/operations.md). Exit status: 0 when there are \
            no errors, 1 when there are, 2 on a usage or internal error.
            """
    )

    @Argument(help: "Workspace or tenant folders to check (default: Tenants, or the current folder when it is a tenant).", completion: .directory)
    var paths: [String] = []

    /// The paths to check: as given, or the default.
    var targets: [String] {
        if !paths.isEmpty { return paths }
        let here = FileManager.default.currentDirectoryPath
        let isTenant = ["tenant.yaml", "tenant.yml", "tenant.json"].contains { FileManager.default.fileExists(atPath: here + "/" + $0) }
        return [isTenant && !FileManager.default.fileExists(atPath: "Tenants") ? "." : "Tenants"]
    }

    @Option(name: .shortAndLong, help: "Output format: text, json or sarif (SARIF 2.1.0).")
    var format: ReportFormat = .text

    @Flag(help: "Treat warnings as errors.")
    var strict = false

    @Flag(help: "Never colour text output (colour is used only on a terminal anyway).")
    var noColor = false

    @Option(help: ArgumentHelp("Worker threads (default: the number of cores). The output is the same for any number.", valueName: "N"))
    var jobs: Int?

    @Flag(help: "Say on standard error how many audio and video files were probed, and how many came from the probe cache.")
    var stats = false

    @Option(name: .shortAndLong, help: ArgumentHelp("The output folder `livery build` writes: when it exists, audio and video measured once are remembered in its .livery/probes.sqlite.", valueName: "folder"))
    var output = "Output"

    @Option(help: ArgumentHelp("Check only shard K of N (1 ≤ K ≤ N), the tenants `livery build --shard K/N` builds.", valueName: "K/N"),
            transform: TenantShard.init(parsing:))
    var shard: TenantShard?

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        for path in targets {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ValidationError("'\(path)' is not a folder")
            }
        }
    }

    func run() throws {
        if let jobs { ParallelMap.workers = jobs }
        var diagnostics: [Diagnostic] = []
        var checked = 0
        var results: [ValidationResult] = []
        var excerpts: [ExcerptSources] = []
        var isFolder: ObjCBool = false
        let media = FileManager.default.fileExists(atPath: output, isDirectory: &isFolder) && isFolder.boolValue
            ? MediaMeasurements(output: URL(fileURLWithPath: output)) : MediaMeasurements()
        for path in targets {
            let target = WorkspaceTarget(path)
            let only = target.tenants(in: shard)
            if let shard, only?.isEmpty == true, target.hasTenantFolders {
                FileHandle.standardError.write(Data("shard \(shard) of '\(path)': no tenants in this shard\n".utf8))
                continue
            }
            // A whole workspace is checked a group of lineages at a time, so memory does not grow with it.
            let result = Validator.validate(workspace: target.workspace, displayRoot: target.displayWorkspace, rules: .all, only: only, strict: strict, media: media,
                                            keepingTenants: false)
            results.append(result)
            excerpts.append(ExcerptSources(workspace: target.workspace, displayRoot: target.displayWorkspace))
            if result.checked.isEmpty {
                throw Livery.Failure("no tenant folders (folders with a tenant.yaml) found in '\(path)'")
            }
            checked += result.checked.count
            diagnostics += result.diagnostics
        }
        // Manifest texts are not kept in memory while checking; the few files with findings are read again for excerpts,
        // each only after the loader's own check (a link out of the tenant folder is never read to show a line of it).
        var sources: [String: String] = [:]
        if format == .text {
            let files = Set(diagnostics.map(\.location.file))
            for excerpt in excerpts { sources.merge(excerpt.texts(of: files.filter { sources[$0] == nil })) { first, _ in first } }
        }
        let report = DiagnosticReport(diagnostics: diagnostics, rules: RuleSet.all.summaries, toolVersion: Livery.version, sources: sources)
        let colour = format == .text && !noColor && isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
        var rendered = report.render(format, colour: colour)
        if format == .text {
            // The report ends with its "N errors, M warnings" line; say how much was checked before it.
            var lines = rendered.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.count >= 2 { lines[lines.count - 2] = "checked \(checked) tenant\(checked == 1 ? "" : "s"): " + lines[lines.count - 2] }
            rendered = lines.joined(separator: "\n")
        }
        FileHandle.standardOutput.write(Data(rendered.utf8))
        if stats {
            FileHandle.standardError.write(Data("media: \(media.probeCount + media.cacheHitCount) files measured: \(media.probeCount) probed, \(media.cacheHitCount) from the probe cache\n".utf8))
        }
        Livery.exit(keeping: results, status: report.diagnostics.errorCount > 0 ? 1 : 0)
    }
}

extension ReportFormat: ExpressibleByArgument {}
