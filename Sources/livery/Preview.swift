import ArgumentParser
import Foundation
import LiveryCheck
import LiveryDiagnostics
import LiveryRender

struct Preview: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Write a tenant's brand sheet: one self-contained HTML page of its palette, type, spacing, radii, shadows, springs and contrast.",
        discussion: """
            TENANT is a tenant folder (Tenants/physio-clinic) or a tenant id in Tenants/. The page has \
            swatches for every mode, the type scale set in its fonts, radii and shadows drawn, springs \
            described (damping ratio, overshoot, settle time) and the declared contrast pairs \
            ($extensions.com.livery.contrast) with their WCAG 2.x ratio and AA/AAA result. It is made \
            from Templates/preview/brand-sheet.html.mustache, needs no network and no JavaScript. \
            Exit status: 0 on success, 1 when the tenant has errors, 2 on a usage or internal error.
            """
    )

    @Argument(help: "The tenant folder, or a tenant id in Tenants/.", completion: .directory)
    var tenant: String

    @Option(name: .shortAndLong, help: "The HTML file to write (default: <tenant>.brand-sheet.html; - for standard output).")
    var output: String?

    @Option(help: "The templates folder holding preview/ (default: $LIVERY_TEMPLATES, else Templates/ beside the workspace or in the current folder).")
    var templates: String?

    func run() throws {
        let folder = FileManager.default.fileExists(atPath: tenant) ? tenant : "Tenants/" + tenant
        let target = WorkspaceTarget(folder)
        guard let id = target.tenant else { throw Livery.Failure("'\(tenant)' is not a tenant folder (a folder with a tenant.yaml)") }
        let templatesURL = try Generate.templatesFolder(templates, workspace: target.workspace, containing: "preview")
        let templateURL = templatesURL.appendingPathComponent("preview/brand-sheet.html.mustache")
        guard let template = try? String(contentsOf: templateURL, encoding: .utf8) else { throw Livery.Failure("cannot read \(templateURL.path)") }

        let result = Validator.validate(workspace: target.workspace, displayRoot: target.displayWorkspace, only: [id])
        var diagnostics = result.diagnostics
        var html: String?
        if diagnostics.errorCount == 0, let resolved = result.tenants.first(where: { $0.id == id }) {
            let rendered = BrandSheet.render(resolved, template: template, templatePath: WorkspaceTarget.display(templateURL))
            diagnostics += rendered.diagnostics
            html = rendered.html
        }
        if !diagnostics.isEmpty {
            let report = DiagnosticReport(diagnostics: diagnostics, rules: RuleRegistry.summaries, toolVersion: Livery.version)
            FileHandle.standardError.write(Data(report.text(colour: false).utf8))
        }
        guard diagnostics.errorCount == 0, let html else { throw ExitCode(1) }
        let destination = output ?? "\(id).brand-sheet.html"
        if destination == "-" {
            FileHandle.standardOutput.write(Data(html.utf8))
        } else {
            try Data(html.utf8).write(to: URL(fileURLWithPath: destination), options: .atomic)
            print("wrote \(destination)")
        }
    }
}
