import ArgumentParser
import Foundation
import LiveryCheck
import LiveryDiagnostics

package struct Livery: AsyncParsableCommand {
    package static let version = LiveryVersion.current

    package init() {}

    /// The commands, in the order `livery --help` lists them: those of `livery` itself, and those of livery-network
    /// (NetworkCommand) as each executable has them, the real ones in livery-network, forwarders in livery. Set by
    /// each executable's main before anything is parsed, and never after.
    package nonisolated(unsafe) static var commands: [any ParsableCommand.Type] = []

    /// The list of `commands` with `network`'s types in their places.
    package static func commands(network: [NetworkCommand: any ParsableCommand.Type]) -> [any ParsableCommand.Type] {
        func the(_ command: NetworkCommand) -> any ParsableCommand.Type { network[command]! }
        return [Validate.self, Tokens.self, Build.self, the(.publish), Promote.self, Rollback.self, Rollout.self, Releases.self, Diff.self, StoreCommand.self,
                the(.gc), L10n.self, Verify.self, Inspect.self, Keys.self, TimestampCommand.self, the(.serve), the(.vouchers), the(.fetch), Embed.self,
                the(.tufClient), Vectors.self, Rules.self, Schema.self, Init.self, Generate.self, Preview.self, Watch.self, LSP.self, Version.self, CLIReference.self]
    }

    // Every command names itself: without a `commandName`, ArgumentParser derives the name from
    // the type's name by reflection, which scans every protocol conformance in the binary, once
    // per command, at every launch (about 2 ms of each start).
    package static var configuration: CommandConfiguration { CommandConfiguration(
        commandName: "livery",
        abstract: "Validate, build and publish multi-tenant white-label app content.",
        discussion: """
            Each tenant (a branded app or a creator) is a folder under Tenants/ holding manifests: \
            tenant.yaml, branding tokens, voice.yaml, programs/, library/, tours/ and locales/. \
            Start with `livery validate`; `livery rules` lists every check.
            """,
        version: version,
        subcommands: commands
    ) }

    /// A failure found while running a command (not a mistake in its arguments): printed without the usage text.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
        package init(_ description: String) { self.description = description }
    }

    /// Ends the process with `status`, leaving `value` (a checked workspace, a resolved token set) to the
    /// system, which takes the memory back at once: released value by value it took longer to free than
    /// to check (3.5 ms of 47 for 9,000 tokens; a visible share of validating a million messages).
    /// Compilers do the same (clang's -disable-free).
    static func exit(keeping value: some Any, status: Int32) -> Never {
        withExtendedLifetime(value) { Foundation.exit(status) }
    }

    /// Runs the command line and ends the process with the status of docs/diagnostics.md#exit-codes-and---strict that
    /// `ErrorReport` gives a failure.
    package static func runCommandLine() async {
        do {
            try checkHelpTopic(Array(CommandLine.arguments.dropFirst()))
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let report = ErrorReport(error)
            if report.isCleanExit { exit(withError: error) }
            if let message = report.message { FileHandle.standardError.write(Data((message + "\n").utf8)) }
            Foundation.exit(report.status)
        }
    }
}

extension Livery {
    /// `livery help TOPIC…`: ArgumentParser's help command shows the top-level help, and succeeds, for a topic that
    /// names no command; a usage error instead (exit 2, as for any unknown subcommand), naming the topic and the
    /// commands there are. Options after `help` (such as `--help`) are left to ArgumentParser.
    static func checkHelpTopic(_ arguments: [String]) throws {
        guard arguments.first == "help" else { return }
        var path = ["livery"]
        var children: [any ParsableCommand.Type] = Livery.configuration.subcommands
        for topic in arguments.dropFirst() where !topic.hasPrefix("-") {
            var names: [String] = []
            var found: (any ParsableCommand.Type)?
            for child in children {
                let configuration = child.configuration
                // Every Livery command names itself (see `configuration` above).
                let name = configuration.commandName ?? ""
                names.append(name)
                if found == nil && (name == topic || configuration.aliases.contains(topic)) { found = child }
            }
            guard let found else {
                throw ValidationError("no help topic '\(topic)': "
                                      + (names.isEmpty ? "'\(path.joined(separator: " "))' has no subcommands"
                                         : "the commands of '\(path.joined(separator: " "))' are \(names.joined(separator: ", "))"))
            }
            path.append(topic)
            children = found.configuration.subcommands
        }
    }
}
