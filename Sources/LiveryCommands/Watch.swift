import ArgumentParser
import Foundation
import LiveryCheck
import LiveryDiagnostics
import LiveryLoad
import LiveryMedia
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
        var isFolder: ObjCBool = false
        let media = FileManager.default.fileExists(atPath: output, isDirectory: &isFolder) && isFolder.boolValue
            ? MediaMeasurements(output: URL(fileURLWithPath: output)) : MediaMeasurements()
        let publishing = build ? WatchSession.Publishing(output: URL(fileURLWithPath: output).standardizedFileURL,
                                                         keys: unsigned ? nil : KeyStore(root: URL(fileURLWithPath: keys))) : nil
        let session = try WatchSession(workspace: target.workspace, displayRoot: target.displayWorkspace, tenant: target.tenant, strict: strict,
                                       media: media, publishing: publishing)
        let (displayRoot, format) = (session.displayRoot, format)
        session.run { Self.show($0, displayRoot: displayRoot, format: format) }
    }

    private static func show(_ event: WatchSession.Event, displayRoot: String, format: WatchFormat) {
        switch event {
        case .checked(let check):
            show(check, displayRoot: displayRoot, format: format)
        case .notBuilt(let errors, let tenants):
            FileHandle.standardError.write(Data("not built: \(errors) error\(errors == 1 ? "" : "s") in \(tenants.joined(separator: ", "))\n".utf8))
        case .buildProgress(let message):
            // Only what a watcher must see: a build waiting for another, and warnings (development keys).
            if message.hasPrefix("another livery build") || message.hasPrefix("WARNING") {
                FileHandle.standardError.write(Data((message + "\n").utf8))
            }
        case .built(let result):
            var out = ""
            for tenant in result.tenants {
                out += "\(tenant.tenant): " + (tenant.published ? "published release \(tenant.release): \(tenant.bundles) bundles, \(tenant.rebuilt.count) rebuilt"
                                                  : "unchanged (release \(tenant.release))") + "\n"
            }
            for failure in result.failures { out += "build failed: \(failure)\n" }
            (format == .text ? FileHandle.standardOutput : FileHandle.standardError).write(Data(out.utf8))
        case .buildFailed(let error):
            FileHandle.standardError.write(Data("build failed: \(error)\n".utf8))
        }
    }

    private static func show(_ check: WatchSession.Check, displayRoot: String, format: WatchFormat) {
        let change = check.change
        switch format {
        case .text:
            var out = ""
            for diagnostic in change.disappeared { out += "- \(diagnostic.line)\n" }
            for diagnostic in change.appeared { out += "+ \(diagnostic.line)\n" }
            let counts = "\(check.errors) error\(check.errors == 1 ? "" : "s"), \(check.warnings) warning\(check.warnings == 1 ? "" : "s")"
            let (changed, checked) = (check.changed, check.checked)
            let what = check.initial ? "watching \(displayRoot): checked \(checked) tenant\(checked == 1 ? "" : "s")"
                : "\(changed.prefix(3).joined(separator: ", "))\(changed.count > 3 ? " and \(changed.count - 3) more" : ""): checked \(checked) tenant\(checked == 1 ? "" : "s")"
            out += "\(what) in \(String(format: "%.0f", check.milliseconds)) ms: \(change.isEmpty && !check.initial ? "no change, " : "")\(counts)\n"
            FileHandle.standardOutput.write(Data(out.utf8))
        case .json:
            let event = WatchEvent(changed: check.changed, checked: check.checked, milliseconds: check.milliseconds, change: change,
                                   errors: check.errors, warnings: check.warnings)
            // Every field is a string, a number or an array of them: encoding cannot fail.
            if let line = try? event.line() { FileHandle.standardOutput.write(line) }
        }
    }
}
