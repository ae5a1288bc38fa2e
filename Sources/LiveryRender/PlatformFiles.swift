import Foundation
import LiveryDiagnostics
import LiveryLoad
import LiveryResolve
import Mustache
import LiveryStorage

/// A generated file: its path relative to the output folder and its bytes.
public struct GeneratedFile: Sendable, Hashable {
    public var path: String
    public var contents: Data

    public init(path: String, contents: Data) {
        self.path = path
        self.contents = contents
    }
}

/// The templates of `Templates/platform/`: each `<target>/<file>.mustache` renders to `<target>/<file>`.
public struct PlatformTemplates: Sendable {
    public struct Template: Sendable {
        /// Where the rendered file goes, e.g. `swiftui/Theme.swift`.
        public var outputPath: String
        /// The template as diagnostics name it, e.g. `Templates/platform/swiftui/Theme.swift.mustache`.
        public var displayPath: String
        public var text: String { didSet { parsed = TemplateContext.parse(text, file: displayPath) } }
        /// The template parsed once, when it is read: every tenant of a build renders it.
        public private(set) var parsed: Result<MustacheTemplate, Diagnostic>

        public init(outputPath: String, displayPath: String, text: String) {
            self.outputPath = outputPath
            self.displayPath = displayPath
            self.text = text
            parsed = TemplateContext.parse(text, file: displayPath)
        }
    }

    public var templates: [Template]

    public init(templates: [Template]) {
        self.templates = templates
    }

    /// Reads every `*.mustache` file below `folder` (a `Templates/platform` folder), sorted by path.
    public static func load(from folder: URL, displayPath: String) throws -> PlatformTemplates {
        let fm = FileManager.default
        guard let files = fm.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else {
            throw ReadFailure(path: folder.path, operation: .list)
        }
        let base = folder.standardizedFileURL.path
        var found: [Template] = []
        for case let file as URL in files where file.pathExtension == "mustache" {
            guard (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let relative = String(file.standardizedFileURL.path.dropFirst(base.count + 1))
            let text = try String(contentsOf: file, encoding: .utf8)
            found.append(Template(outputPath: String(relative.dropLast(".mustache".count)), displayPath: displayPath + "/" + relative, text: text))
        }
        guard !found.isEmpty else { throw PlatformFiles.Failure(folder: folder.path) }
        return PlatformTemplates(templates: found.sorted { $0.outputPath < $1.outputPath })
    }

    /// The `Templates` folder to use for a workspace: `$LIVERY_TEMPLATES`, else `Templates/` beside
    /// the workspace folder, else `Templates/` in the current folder, else the one of the source
    /// checkout this livery was built from. Nil when none exists.
    public static func locate(workspace: URL?, containing folder: String = "platform") -> URL? {
        var candidates: [URL] = []
        if let configured = ProcessInfo.processInfo.environment["LIVERY_TEMPLATES"], !configured.isEmpty {
            // An explicit setting wins or fails; it never falls through to another folder.
            return URL(fileURLWithPath: configured)
        }
        if let workspace { candidates.append(workspace.standardizedFileURL.deletingLastPathComponent().appendingPathComponent("Templates")) }
        candidates.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("Templates"))
        // Sources/LiveryRender/PlatformFiles.swift → the checkout's Templates/ (developer builds and the test suite).
        candidates.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Templates"))
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent(folder).path) }
    }
}

/// Renders a tenant's platform files: every template of `Templates/platform/`, the resolved
/// DTCG document of every mode (`tokens/<mode>.tokens.json`), the Xcode colour assets
/// (`swiftui/Assets.xcassets/`, `ColorAssets`) and a brand's build settings (`BuildSettings`);
/// data files are written by Swift: they are data, not a view.
public enum PlatformFiles {
    /// A templates folder with no `*.mustache` template in it (one that cannot be listed is a `ReadFailure`).
    public struct Failure: Error, CustomStringConvertible {
        public var folder: String
        public var description: String { "no *.mustache templates in \(folder)" }
    }

    /// Everything generated for one tenant, in path order. Files are left out only when the
    /// diagnostics hold errors (a template that does not parse). Tokens whose names collide are left
    /// out of the files; validation reports them (`branding.platform-name`, with the tenant's severity).
    public static func generate(_ tenant: ResolvedTenant, templates: PlatformTemplates) -> (files: [GeneratedFile], diagnostics: [Diagnostic]) {
        let context = PlatformContext.make(tenant).context
        var diagnostics: [Diagnostic] = []
        var files = tokenDocuments(tenant) + ColorAssets.files(tenant) + BuildSettings.files(tenant)
        files += StoreListings.files(tenant)
        let value = TemplateContext.mustacheValue(context)
        for template in templates.templates {
            switch template.parsed {
            case .success(let parsed):
                // Code and XML templates opt out of HTML escaping with triple braces; values are
                // already escaped for their language by PlatformValues.
                files.append(GeneratedFile(path: template.outputPath, contents: Data(parsed.render(value).utf8)))
            case .failure(let diagnostic):
                diagnostics.append(diagnostic)
            }
        }
        return (files.sorted { $0.path < $1.path }, diagnostics)
    }

    /// `tokens/<mode>.tokens.json` for every mode: the resolved DTCG document.
    public static func tokenDocuments(_ tenant: ResolvedTenant) -> [GeneratedFile] {
        tenant.tokens.keys.sorted().compactMap { mode in
            tenant.tokens[mode].map { GeneratedFile(path: "tokens/\(mode).tokens.json", contents: Data(NodeJSON.text($0.document()).utf8)) }
        }
    }
}
