import ArgumentParser
import Foundation
import LiveryCheck
import LiveryDiagnostics
import LiveryLoad
import LiveryPublish
import LiverySign
import LiveryWorkflow

struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Check a workspace, then check again on every save and print only the findings that appeared or disappeared.",
        discussion: """
            PATH is a workspace or one tenant folder. After a first full check, each change re-checks only \
            the tenants whose folders changed and the tenants that extend them, and prints `+` before a \
            finding that appeared and `-` before one that went away, then one status line. With --build, \
            the changed tenants are built and published into --output after each check that leaves them \
            without errors. Stop it with Ctrl-C. See docs/watch.md.
            """
    )

    @Argument(help: "Workspace or tenant folder.", completion: .directory)
    var path = "Tenants"

    @Flag(help: "After each check without errors, build and publish the changed tenants (as `livery build` does).")
    var build = false

    @Option(name: .shortAndLong, help: "The output folder for --build, whose probe cache the checks also use.")
    var output = "Output"

    @Option(help: "The signing key store for --build.")
    var keys = ".livery-keys"

    @Flag(help: "With --build, publish unsigned releases.")
    var unsigned = false

    @Option(name: .shortAndLong, help: "How changes are printed: text, or json (one object per line for tools).")
    var format: WatchFormat = .text

    @Flag(help: "Treat warnings as errors.")
    var strict = false

    enum WatchFormat: String, ExpressibleByArgument { case text, json }

    func run() throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw Livery.Failure("'\(path)' is not a folder")
        }
        let target = WorkspaceTarget(path)
        let watcher = try FileWatcher(root: target.workspace)
        var isFolder: ObjCBool = false
        let media = FileManager.default.fileExists(atPath: output, isDirectory: &isFolder) && isFolder.boolValue
            ? MediaMeasurements(output: URL(fileURLWithPath: output)) : MediaMeasurements()
        var ledger = FindingsLedger(displayRoot: target.displayWorkspace)
        let discovered = WorkspaceFolders(discovering: target.workspace)
        var dependents = TenantDependents(workspace: target.workspace, folders: discovered.folders)
        // A tenant folder argument watches that tenant (and reports its ancestors' files only as its own findings would).
        let scope = target.tenant.map { Set([$0]) }

        let start = DispatchTime.now()
        let first = Validator.validate(workspace: target.workspace, displayRoot: target.displayWorkspace, rules: .all, only: scope, strict: strict, media: media,
                                       discovered: discovered)
        let everyone = Set(discovered.names).union(discovered.refused.map(\.name))
        let initial = ledger.replace(scope ?? everyone, with: first.diagnostics)
        report(initial, checked: first.checked.count, changed: [], since: start, ledger: ledger, initial: true)
        if build { publish(scope ?? Set(discovered.names), ledger: ledger, target: target) }

        while true {
            let paths = watcher.next()
            let start = DispatchTime.now()
            // "" (events were lost) or a change at the top level: check every tenant again.
            var changed = Set(paths.compactMap(TenantDependents.tenant(ofRelativePath:)))
            if paths.contains("") { changed = Set(WorkspaceFolders(discovering: target.workspace).names).union(ledger.all.compactMap(ledger.tenant(of:))) }
            var affected = dependents.affected(by: changed)
            if let scope { affected.formIntersection(scope) }
            guard !affected.isEmpty else { continue }
            let now = WorkspaceFolders(discovering: target.workspace)
            let present = affected.intersection(now.names.union(now.refused.map(\.name)))
            let result = present.isEmpty ? nil
                : Validator.validate(workspace: target.workspace, displayRoot: target.displayWorkspace, rules: .all, only: present, strict: strict, media: media, discovered: now)
            // A tenant folder that was removed takes its findings with it.
            let change = ledger.replace(affected, with: result?.diagnostics ?? [])
            report(change, checked: present.count, changed: paths.filter { !$0.isEmpty }.sorted(), since: start, ledger: ledger, initial: false)
            if build && !present.isEmpty { publish(present, ledger: ledger, target: target) }
        }
    }

    private func report(_ change: FindingsLedger.Change, checked: Int, changed: [String], since start: DispatchTime, ledger: FindingsLedger, initial: Bool) {
        let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
        let all = ledger.all
        switch format {
        case .text:
            var out = ""
            for diagnostic in change.disappeared { out += "- \(diagnostic.line)\n" }
            for diagnostic in change.appeared { out += "+ \(diagnostic.line)\n" }
            let counts = "\(all.errorCount) error\(all.errorCount == 1 ? "" : "s"), \(all.warningCount) warning\(all.warningCount == 1 ? "" : "s")"
            let what = initial ? "watching \(ledger.displayRoot): checked \(checked) tenant\(checked == 1 ? "" : "s")"
                : "\(changed.prefix(3).joined(separator: ", "))\(changed.count > 3 ? " and \(changed.count - 3) more" : ""): checked \(checked) tenant\(checked == 1 ? "" : "s")"
            out += "\(what) in \(String(format: "%.0f", milliseconds)) ms: \(change.isEmpty && !initial ? "no change, " : "")\(counts)\n"
            FileHandle.standardOutput.write(Data(out.utf8))
        case .json:
            let event = WatchEvent(changed: changed, checked: checked, milliseconds: milliseconds, change: change,
                                   errors: all.errorCount, warnings: all.warningCount)
            // Every field is a string, a number or an array of them: encoding cannot fail.
            if let line = try? event.line() { FileHandle.standardOutput.write(line) }
        }
    }

    /// Builds and publishes `tenants` when none of them has an error (a tenant's ancestors are checked with it).
    private func publish(_ tenants: Set<String>, ledger: FindingsLedger, target: WorkspaceTarget) {
        let blocking = ledger.all.filter { ($0.severity == .error || (strict && $0.severity == .warning)) && ledger.tenant(of: $0).map(tenants.contains) == true }
        guard blocking.isEmpty else {
            FileHandle.standardError.write(Data("not built: \(blocking.count) error\(blocking.count == 1 ? "" : "s") in \(tenants.sorted().joined(separator: ", "))\n".utf8))
            return
        }
        let options = BuildOptions(only: tenants, strict: strict, keys: unsigned ? nil : KeyStore(root: URL(fileURLWithPath: keys)))
        do {
            let result = try ReleaseBuilder.build(workspace: target.workspace, displayRoot: target.displayWorkspace,
                                                  output: URL(fileURLWithPath: output).standardizedFileURL, options: options,
                                                  progress: { message in
                                                      if message.hasPrefix("another livery build") || message.hasPrefix("WARNING") {
                                                          FileHandle.standardError.write(Data((message + "\n").utf8))
                                                      }
                                                  })
            var out = ""
            for tenant in result.tenants {
                out += "\(tenant.tenant): " + (tenant.published ? "published release \(tenant.release): \(tenant.bundles) bundles, \(tenant.rebuilt.count) rebuilt"
                                                  : "unchanged (release \(tenant.release))") + "\n"
            }
            for failure in result.failures { out += "build failed: \(failure)\n" }
            (format == .text ? FileHandle.standardOutput : FileHandle.standardError).write(Data(out.utf8))
        } catch {
            FileHandle.standardError.write(Data("build failed: \(error)\n".utf8))
        }
    }
}
