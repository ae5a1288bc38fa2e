import ArgumentParser
import Foundation
import LiveryCheck
import LiveryDiagnostics
import LiveryRender
import LiveryWorkflow

struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write each tenant's platform files: SwiftUI, Jetpack Compose, Android resources, CSS, React Native and resolved DTCG JSON.",
        discussion: """
            PATH is a workspace or one tenant folder. Files go to OUTPUT/<tenant>/: the templates of \
            Templates/platform/ rendered with the tenant's resolved tokens (swiftui/Theme.swift, \
            compose/Theme.kt, android/values*/…, css/tokens.css, react-native/theme.ts) and \
            tokens/<mode>.tokens.json for every mode, the Xcode colour assets, and a brand's build \
            settings (ios/Tenant.xcconfig, ios/<locale>.lproj/InfoPlist.strings, \
            android/tenant.gradle.properties, android/values*/app_name.xml; docs/build-settings.md), the \
            brand's messages as its apps compile them (ios/Localizable.xcstrings with every locale, \
            android/values*/strings.xml; docs/l10n.md), for a brand with \
            app.icon, its app icons and launch screens (AppIcon.appiconset, LaunchLogo.imageset, ios/LaunchScreen.plist, \
            android/mipmap-*/, android/values*/splash_theme.xml, web/icons/; docs/app-icons.md), and a brand's \
            store listings in fastlane's layout (fastlane/metadata/ios/, fastlane/metadata/android/; docs/store-listings.md). The tenants are validated first; nothing is \
            written when there are errors. See docs/platform-files.md. Exit status: 0 on success, 1 \
            on errors in the tenants or templates, 2 on a usage or internal error.
            """
    )

    @Argument(help: "Workspace or tenant folder.", completion: .directory)
    var path = "Tenants"

    @Option(name: .shortAndLong, help: "The folder to write into (one subfolder per tenant).")
    var output: String

    @Option(help: "The templates folder holding platform/ (default: $LIVERY_TEMPLATES, else Templates/ beside the workspace or in the current folder).")
    var templates: String?

    func run() throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw Livery.Failure("'\(path)' is not a folder")
        }
        let target = WorkspaceTarget(path)
        let folder = try Self.templatesFolder(templates, workspace: target.workspace, containing: "platform")
        let platform = try PlatformTemplates.load(from: folder.appendingPathComponent("platform"), displayPath: WorkspaceTarget.display(folder) + "/platform")
        // A group of whole lineages at a time (memory does not grow with the workspace); the files go to a
        // staging folder beside the output and are moved into place only when every tenant generated cleanly.
        let root = URL(fileURLWithPath: output).standardizedFileURL
        let staging = root.deletingLastPathComponent().appendingPathComponent(".\(root.lastPathComponent).generating-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: staging) }
        var generated: [(tenant: String, files: [String])] = []
        let (found, checked) = try GroupedValidation.run(workspace: target.workspace, displayRoot: target.displayWorkspace,
                                                         only: target.tenant.map { Set([$0]) }) { tenants in
            var diagnostics: [Diagnostic] = []
            for tenant in tenants {
                var (files, found) = PlatformFiles.generate(tenant, templates: platform)
                // App icons and launch screens (docs/app-icons.md): drawn here only, as app build pipelines need them and bundles do not.
                let icons = AppIcons.files(tenant)
                // The String Catalog and strings.xml an app project compiles (docs/l10n.md#for-app-builds): releases carry JSON only.
                let strings = PlatformStringFiles.files(tenant)
                files = (files + icons.files + strings.files).sorted { $0.path < $1.path }
                diagnostics += found + icons.diagnostics + strings.diagnostics
                for file in files {
                    let url = staging.appendingPathComponent(tenant.id).appendingPathComponent(file.path)
                    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try file.contents.write(to: url)
                }
                generated.append((tenant.id, files.map(\.path)))
            }
            return diagnostics
        }
        guard checked > 0 else { throw Livery.Failure("no tenant folders (folders with a tenant.yaml) found in '\(path)'") }
        let diagnostics = found.normalized()
        if !diagnostics.isEmpty {
            let report = DiagnosticReport(diagnostics: diagnostics, rules: RuleSet.all.summaries, toolVersion: Livery.version)
            FileHandle.standardError.write(Data(report.text(colour: false).utf8))
        }
        if diagnostics.errorCount > 0 {
            FileHandle.standardError.write(Data("nothing was written\n".utf8))
            throw ExitCode(1)
        }
        for (tenant, files) in generated {
            for file in files {
                let url = root.appendingPathComponent(tenant).appendingPathComponent(file)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                // Each file replaces the one it updates in one step (rename), as the atomic writes before did.
                guard rename(staging.appendingPathComponent(tenant).appendingPathComponent(file).path, url.path) == 0 else {
                    throw Livery.Failure("cannot move the generated \(file) of \(tenant) into \(output): \(String(cString: strerror(errno)))")
                }
            }
            print("\(tenant): \(files.count) files in \(output)/\(tenant)")
        }
    }

    /// The templates folder: as given, or found beside the workspace (see `PlatformTemplates.locate`).
    static func templatesFolder(_ given: String?, workspace: URL, containing sub: String) throws -> URL {
        if let given {
            let url = URL(fileURLWithPath: given)
            guard FileManager.default.fileExists(atPath: url.appendingPathComponent(sub).path) else {
                throw Livery.Failure("'\(given)' has no \(sub)/ folder of templates")
            }
            return url
        }
        guard let found = PlatformTemplates.locate(workspace: workspace, containing: sub) else {
            throw Livery.Failure("no Templates/\(sub)/ folder found beside the workspace or here; pass --templates or set LIVERY_TEMPLATES")
        }
        return found
    }
}
