import ArgumentParser
import Foundation
import LiveryCheck
import LiveryDiagnostics
import LiveryRender
import LiveryStorage
import LiveryWorkflow
import LiveryStorage

struct Preview: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Write a tenant's preview site: its brand sheet, and per locale its tabs, programs as calendars, library and tours drawn on their offline maps.",
        discussion: """
            TENANT is a tenant folder (Tenants/physio-clinic) or a tenant id in Tenants/. The site (default \
            <tenant>.preview/) has brand.html, the brand sheet: swatches for every mode, the type scale, radii, \
            shadows, springs and the declared contrast pairs with their WCAG 2.x ratio; one page per locale \
            (index.html is the default locale's) with the tabs' labels, every program as a calendar of weeks \
            and days, the library by category and the tours; and a page per tour and locale with its route, \
            stops and trigger circles drawn over the tour's own MBTiles pack, each stop's audio and its \
            subtitles. Drafts and availability windows are marked. No network, no JavaScript. -o/--output names \
            the site's folder, as it names the output folder of build and generate; with --brand-sheet only the \
            brand sheet is written, to a file or (-) standard output. Templates come from \
            Templates/preview/. See docs/preview.md. Exit status: 0 on success, 1 when the tenant has \
            errors, 2 on a usage or internal error.
            """
    )

    @Argument(help: "The tenant folder, or a tenant id in Tenants/.", completion: .directory)
    var tenant: String

    @Option(name: .shortAndLong, help: "The folder to write the site into (default: <tenant>.preview). A folder that exists is replaced only if it is an earlier preview.")
    var output: String?

    @Option(help: ArgumentHelp("Write only the brand sheet, to this HTML file (- for standard output).", valueName: "file"))
    var brandSheet: String?

    @Option(help: ArgumentHelp("Deprecated: the site's folder, now --output.", visibility: .hidden))
    var site: String?

    /// What to write where, after the deprecated forms are read: `--output FILE.html` or `--output -` (the brand
    /// sheet alone, before --output named the site's folder as it does for build and generate) and `--site DIR`.
    enum Destination: Equatable {
        case site(String?)
        case brandSheet(String)
    }

    /// The destination, and a deprecation warning when an old form was used.
    func destination() throws -> (Destination, warning: String?) {
        let given = [output, brandSheet, site].compactMap { $0 }
        guard given.count <= 1 else { throw ValidationError("--output (the site's folder) and --brand-sheet (the brand sheet alone) are one or the other: give one") }
        if let brandSheet { return (.brandSheet(brandSheet), nil) }
        if let site { return (.site(site), "warning: --site is deprecated: use --output \(site)") }
        if let output, output == "-" || output.lowercased().hasSuffix(".html") {
            return (.brandSheet(output), "warning: --output \(output) for the brand sheet alone is deprecated: use --brand-sheet \(output) (--output names the site's folder, as for build and generate)")
        }
        return (.site(output), nil)
    }

    func validate() throws { _ = try destination() }

    @Option(help: "The templates folder holding preview/ (default: $LIVERY_TEMPLATES, else Templates/ beside the workspace or in the current folder).")
    var templates: String?

    func run() throws {
        let folder = FileManager.default.fileExists(atPath: tenant) ? tenant : "Tenants/" + tenant
        let target = WorkspaceTarget(folder)
        guard let id = target.tenant else { throw Livery.Failure("'\(tenant)' is not a tenant folder (a folder with a tenant.yaml)") }
        let templatesURL = try Generate.templatesFolder(templates, workspace: target.workspace, containing: "preview")
        func template(_ name: String) throws -> ContentPreview.TemplateSource {
            let url = templatesURL.appendingPathComponent("preview/\(name)")
            let text: String
            do { text = try String(contentsOf: url, encoding: .utf8) } catch { throw ReadFailure(error, path: url.path) }
            return ContentPreview.TemplateSource(text: text, path: WorkspaceTarget.display(url))
        }
        let sheet = try template("brand-sheet.html.mustache")
        let (destination, deprecation) = try destination()
        if let deprecation { FileHandle.standardError.write(Data((deprecation + "\n").utf8)) }
        var sheetFile: String?
        var siteFolder: String?
        switch destination {
        case .brandSheet(let file): sheetFile = file
        case .site(let folder): siteFolder = folder
        }
        let pages = sheetFile == nil ? (try template("locale.html.mustache"), try template("tour.html.mustache")) : nil

        let result = Validator.validate(workspace: target.workspace, displayRoot: target.displayWorkspace, rules: .all, only: [id])
        var diagnostics = result.diagnostics
        var html: String?
        var files: [ContentPreview.File]?
        if diagnostics.errorCount == 0, let resolved = result.tenants.first(where: { $0.id == id }) {
            let rendered = BrandSheet.render(resolved, template: sheet.text, templatePath: sheet.path)
            diagnostics += rendered.diagnostics
            html = rendered.html
            if let pages, let html {
                let made = ContentPreview.site(resolved, brandSheet: html, locale: pages.0, tour: pages.1)
                diagnostics += made.diagnostics
                files = made.files
            }
        }
        if !diagnostics.isEmpty {
            let report = DiagnosticReport(diagnostics: diagnostics, rules: RuleSet.all.summaries, toolVersion: Livery.version)
            FileHandle.standardError.write(Data(report.text(colour: false).utf8))
        }
        guard diagnostics.errorCount == 0, let html else { throw ExitCode(1) }
        if let sheetFile {
            if sheetFile == "-" {
                FileHandle.standardOutput.write(Data(html.utf8))
            } else {
                try AtomicFile.write(Data(html.utf8), to: URL(fileURLWithPath: sheetFile), mode: 0o666, durable: false)
                print("wrote \(sheetFile)")
            }
            return
        }
        guard let files else { throw ExitCode(1) }
        let siteURL = URL(fileURLWithPath: siteFolder ?? "\(id).preview").standardizedFileURL
        try Self.write(files, to: siteURL)
        print("wrote \(WorkspaceTarget.display(siteURL))/ (\(files.count) files; open index.html)")
    }

    /// Writes the site into a staging folder beside `destination`, then puts it in place of an earlier
    /// preview (a folder holding brand.html and index.html); any other folder there is left alone.
    static func write(_ files: [ContentPreview.File], to destination: URL) throws {
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        let exists = manager.fileExists(atPath: destination.path, isDirectory: &isFolder)
        if exists {
            let entries = (try? manager.contentsOfDirectory(atPath: destination.path)) ?? []
            guard isFolder.boolValue, entries.isEmpty || (entries.contains("brand.html") && entries.contains("index.html")) else {
                throw Livery.Failure("'\(destination.path)' exists and is not an earlier preview: choose another --output")
            }
        }
        let staging = destination.deletingLastPathComponent().appendingPathComponent(".\(destination.lastPathComponent).writing-\(UUID().uuidString)")
        defer { try? manager.removeItem(at: staging) }
        for file in files {
            let url = staging.appendingPathComponent(file.path)
            try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            switch file.contents {
            case .data(let data): try data.write(to: url)
            case .copy(let source): try manager.copyItem(at: source, to: url)
            }
        }
        if exists { try manager.removeItem(at: destination) }
        try manager.moveItem(at: staging, to: destination)
    }
}
