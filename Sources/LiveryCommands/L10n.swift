import ArgumentParser
import Foundation
import LiveryDiagnostics
import LiveryInterchange
import LiveryStorage
import LiveryWorkflow

extension InterchangeFormat: ExpressibleByArgument {}

/// `livery l10n`: locale bundles to and from XLIFF 2.0, Apple String Catalogs and Android strings.xml.
struct L10n: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "l10n",
        abstract: "Export locale bundles for translators and platforms, and import their files back.",
        discussion: """
            Formats: xliff (XLIFF 2.0, one file per target locale), xcstrings (Apple String Catalog, every \
            locale in one file) and android (res/values*/strings.xml, one file per locale). Exporting and \
            importing without edits changes no byte of the locale files. See docs/l10n.md.
            """,
        subcommands: [Export.self, Import.self]
    )

    /// Prints findings to standard error; throws exit code 1 when one is an error.
    static func report(_ diagnostics: [Diagnostic]) throws {
        guard !diagnostics.isEmpty else { return }
        let report = DiagnosticReport(diagnostics: diagnostics, rules: [], toolVersion: Livery.version)
        FileHandle.standardError.write(Data(report.text(colour: false).utf8))
        if report.diagnostics.errorCount > 0 { throw ExitCode(1) }
    }

    static func catalog(_ folder: String) throws -> LocaleCatalog {
        let target = WorkspaceTarget(folder)
        guard let tenant = target.tenant else { throw ValidationError("'\(folder)' is not a tenant folder (a folder with a tenant.yaml)") }
        let loaded = LocaleCatalog.load(target.workspace.appendingPathComponent(tenant), displayRoot: target.displayWorkspace + "/" + tenant)
        try report(loaded.diagnostics)
        guard let catalog = loaded.value else { throw ExitCode(1) }
        return catalog
    }

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write a tenant's locale bundles as XLIFF 2.0, a String Catalog or Android strings.xml.",
            discussion: """
                XLIFF holds the default locale as source and --locale as target. A String Catalog holds every \
                supported locale (or the default and --locale). Android writes the strings.xml of --locale \
                (default: the default locale, which goes to res/values/). Keys that a platform cannot express \
                (select, selectordinal, offset, =N) are carried as ICU text; see docs/l10n.md.
                """
        )

        @Argument(help: "The tenant folder, such as Tenants/physio-clinic.", completion: .directory)
        var tenant: String

        @Option(name: .shortAndLong, help: "xliff, xcstrings or android.")
        var format: InterchangeFormat

        @Option(name: .shortAndLong, help: "The target locale (required for xliff).")
        var locale: String?

        @Option(name: .shortAndLong, help: "Write to this file instead of standard output.", completion: .file())
        var out: String?

        func validate() throws {
            if format == .xliff && locale == nil { throw ValidationError("xliff needs --locale: the target locale of the translation") }
        }

        func run() throws {
            let catalog = try L10n.catalog(tenant)
            let result = Interchange.export(catalog, format: format, locale: locale)
            try L10n.report(result.diagnostics)
            guard let data = result.value else { throw ExitCode(1) }
            if let out {
                let url = URL(fileURLWithPath: out)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try AtomicFile.write(data, to: url, mode: 0o666, durable: false)
            } else {
                FileHandle.standardOutput.write(data)
            }
        }
    }

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Read a translated file back into a tenant's locale YAML files.",
            discussion: """
                Every value is checked first (languages, keys, ICU syntax, placeholders, plural categories); \
                with any error nothing is written. Only changed values are rewritten, in place, so comments, \
                key order and grouping stay; new keys go at the end of their group. Exit status: 0 on success, \
                1 when the file has problems, 2 on a usage error.
                """
        )

        @Argument(help: "The tenant folder, such as Tenants/physio-clinic.", completion: .directory)
        var tenant: String

        @Argument(help: "The file to import (.xlf/.xliff, .xcstrings or strings.xml).", completion: .file())
        var file: String

        @Option(name: .shortAndLong, help: "xliff, xcstrings or android (default: from the file name).")
        var format: InterchangeFormat?

        @Option(name: .shortAndLong, help: "For android: the file's locale (default: from its values-… folder).")
        var locale: String?

        @Flag(help: "Check the file and report what would change, without writing.")
        var dryRun = false

        func validate() throws {
            if format == nil && InterchangeFormat(path: file) == nil { throw ValidationError("cannot tell the format of '\(file)'; pass --format") }
        }

        func run() throws {
            let catalog = try L10n.catalog(tenant)
            let chosen = format ?? InterchangeFormat(path: file) ?? .xliff
            let result = Interchange.importFile(URL(fileURLWithPath: file), displayPath: file, format: chosen, locale: locale, into: catalog, dryRun: dryRun)
            try L10n.report(result.diagnostics)
            guard let summary = result.value else { throw ExitCode(1) }
            let verb = dryRun ? "would change" : "changed"
            print("\(verb) \(summary.changed.count) message\(summary.changed.count == 1 ? "" : "s") in \(summary.filesWritten.count) file\(summary.filesWritten.count == 1 ? "" : "s")")
            for path in summary.filesWritten { print("  \(path)") }
        }
    }
}
