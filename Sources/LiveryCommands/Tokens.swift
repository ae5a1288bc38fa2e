import ArgumentParser
import Foundation
import LiveryCheck
import LiveryDiagnostics
import LiveryLoad
import LiveryPack
import LiveryResolve
import LiveryReleaseFormat
import LiveryWorkflow

struct Tokens: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tokens",
        abstract: "Check or resolve standalone DTCG 2025.10 design token files.",
        subcommands: [Check.self, Resolve.self]
    )

    struct Files: ParsableArguments {
        @Argument(help: "Token files (.tokens.json), layered in the order given: a later file overrides an earlier one's tokens.", completion: .file())
        var files: [String]

        func validate() throws {
            guard !files.isEmpty else { throw ValidationError("give at least one token file") }
            for file in files where !FileManager.default.fileExists(atPath: file) { throw ValidationError("'\(file)' does not exist") }
        }

        func load() -> (ResolvedTokens, [Diagnostic]) { TokenSet.load(files.map { URL(fileURLWithPath: $0) }, displayPaths: files) }
    }

    /// Prints findings like `livery validate` and fails on errors.
    static func report(_ diagnostics: [Diagnostic], format: ReportFormat, to handle: FileHandle) throws {
        var sources: [String: String] = [:]
        if format == .text {
            for file in Set(diagnostics.map(\.location.file)) {
                if case .success(let text) = SourceText.read(URL(fileURLWithPath: file), displayPath: file) { sources[file] = text }
            }
        }
        // Rule summaries (built from every rule's description and examples) matter only to JSON and SARIF.
        let report = DiagnosticReport(diagnostics: diagnostics, rules: format == .text ? [] : RuleSet.all.summaries, toolVersion: Livery.version, sources: sources)
        handle.write(Data(report.render(format, colour: false).utf8))
        if report.diagnostics.errorCount > 0 { throw ExitCode(1) }
    }


    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Validate token files: structure, types, every value's shape, references, cycles and $extends.",
            discussion: "Exit status: 0 when there are no errors, 1 when there are, 2 on a usage error.")

        @OptionGroup var input: Files

        @Option(name: .shortAndLong, help: "Output format: text, json or sarif.")
        var format: ReportFormat = .text

        func run() throws {
            let (resolved, diagnostics) = input.load()
            try Tokens.report(diagnostics, format: format, to: .standardOutput)
            if format == .text { print("\(resolved.values.count) tokens resolved") }
            Livery.exit(keeping: resolved, status: 0)
        }
    }

    struct Resolve: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "resolve",
            abstract: "Print the resolved tokens as a DTCG document: every reference replaced by its value, every $type explicit.",
            discussion: "Findings go to standard error; nothing is printed when there are errors (exit 1).")

        @OptionGroup var input: Files

        func run() throws {
            let (resolved, diagnostics) = input.load()
            if !diagnostics.isEmpty { try Tokens.report(diagnostics, format: .text, to: .standardError) }
            let compact = JSONValue(resolved.document()).bytes
            let object = try JSONSerialization.jsonObject(with: compact)
            var pretty = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            pretty.append(0x0A)
            FileHandle.standardOutput.write(pretty)
            Livery.exit(keeping: resolved, status: 0)
        }
    }
}
