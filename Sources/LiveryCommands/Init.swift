import ArgumentParser
import Foundation
import LiveryCheck
import LiveryDiagnostics
import LiveryLoad
import LiveryRender
import LiveryWorkflow

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a tenant or a creator folder from Templates/init/.",
        discussion: """
            `livery init tenant <id>` creates a brand; `livery init creator <id> --extends <base>` \
            creates a creator that inherits from an existing tenant. The new folder validates clean.
            """
    )

    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case tenant, creator
    }

    @Argument(help: "What to create: tenant or creator.")
    var kind: Kind

    @Argument(help: "The new tenant's id: a slug, which is also its folder name.")
    var id: String

    @Option(help: "Human name (defaults to the id in title case).")
    var name: String?

    @Option(help: "For a creator: the tenant it extends.")
    var extends: String?

    @Option(help: "The workspace folder holding tenant folders.")
    var workspace = "Tenants"

    @Option(help: "The templates folder (default: found as `livery generate` finds it: $LIVERY_TEMPLATES, Templates/ beside the workspace or here).")
    var templates: String?

    func validate() throws {
        guard StringFormat.slug.matches(id) else { throw ValidationError("'\(id)' is not a slug: use lowercase letters, digits and single hyphens") }
        if kind == .creator && extends == nil { throw ValidationError("a creator needs --extends <base tenant id>") }
        if kind == .tenant && extends != nil { throw ValidationError("--extends is for creators; use `livery init creator`") }
    }

    func run() throws {
        let workspaceURL = URL(fileURLWithPath: workspace)
        let displayName = name ?? id.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
        var context: [String: Any] = [:]
        if let extends {
            let baseFolder = workspaceURL.appendingPathComponent(extends)
            let base = TenantLoader.load(baseFolder, displayRoot: workspace + "/" + extends)
            guard let tenant = base.tenant else { throw Livery.Failure("'\(extends)' is not a tenant in \(workspace)") }
            let locales = tenant.node["locales"]
            context["extends"] = extends
            context["defaultLocale"] = locales?["default"]?.string ?? "en"
            context["supported"] = (locales?["supported"]?.items?.compactMap(\.string) ?? ["en"]).joined(separator: ", ")
        }
        let templatesFolder = try Generate.templatesFolder(templates, workspace: workspaceURL.standardizedFileURL, containing: "init")
        let folder = try Scaffold.create(kind == .tenant ? .tenant : .creator, id: id, name: displayName, context: context,
                                         templates: templatesFolder, workspace: workspaceURL)
        print("created \(workspace)/\(id) (\(folder.path))")
        let result = Validator.validate(workspace: workspaceURL, displayRoot: workspace, rules: .all, only: [id])
        let own = result.diagnostics.filter { $0.location.file.hasPrefix(workspace + "/" + id + "/") }
        if !own.isEmpty {
            print(DiagnosticReport(diagnostics: own, rules: RuleSet.all.summaries, toolVersion: Livery.version).text(colour: false), terminator: "")
            throw ExitCode(1)
        }
        print("\(workspace)/\(id) validates clean; next: edit its manifests and run `livery validate \(workspace)/\(id)`")
    }
}
