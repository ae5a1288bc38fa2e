import Foundation
import LiveryDiagnostics

/// One parsed manifest file of a tenant.
public struct Manifest: Sendable {
    public var kind: ManifestKind
    /// Path inside the tenant folder, e.g. `programs/30-day.yaml`.
    public var relativePath: String
    /// Path as diagnostics show it, e.g. `Tenants/companero/programs/30-day.yaml`.
    public var displayPath: String
    /// The parsed file. For a locale bundle only its top-level location is kept: the messages are in
    /// `localeBundle`, flattened, which is what every later stage reads (keeping both trees doubled
    /// the memory of a large workspace).
    public var node: Node
    /// The messages of a locale bundle (`kind == .locale`), nil for other manifests.
    public var localeBundle: LocaleBundle?

    /// The folder of the manifest inside the tenant ("" for the root).
    public var directory: String {
        let parts = relativePath.split(separator: "/")
        return parts.dropLast().joined(separator: "/")
    }

    /// The file name without its extension (`ru` for `locales/ru.yaml`).
    public var stem: String {
        (String(relativePath.split(separator: "/").last ?? "") as NSString).deletingPathExtension
    }
}

/// A manifest that could not be read, and the finding that says why.
public struct UnloadedManifest: Sendable {
    public var kind: ManifestKind
    public var displayPath: String
    public var reason: Diagnostic

    public init(kind: ManifestKind, displayPath: String, reason: Diagnostic) {
        self.kind = kind
        self.displayPath = displayPath
        self.reason = reason
    }
}

/// A tenant folder as loaded from disk: parsed manifests, asset references and load-time findings.
public struct TenantSource: Sendable {
    /// The folder name, which is the tenant id.
    public var id: String
    public var root: URL
    /// The folder as diagnostics show it, e.g. `Tenants/companero`.
    public var displayRoot: String
    public var paths: TenantPath
    public var manifests: [Manifest] = []
    public var assets: [AssetReference] = []
    public var diagnostics: [Diagnostic] = []
    /// Manifests that exist but could not be read (a syntax error, a bad encoding, a refused path): what
    /// they would have declared is missing, so findings that follow from that are not reported as their own.
    public var unloaded: [UnloadedManifest] = []

    public var tenant: Manifest? { manifests.first { $0.kind == .tenant } }

    public func manifests(_ kind: ManifestKind) -> [Manifest] { manifests.filter { $0.kind == kind } }

    /// The display path of a tenant-relative path.
    public func display(_ relative: String) -> String { displayRoot + "/" + relative }
}

/// Finds and parses the manifests of tenant folders.
public enum TenantLoader {
    /// The tenant folders directly under `root` (folders holding a tenant manifest), sorted by name.
    /// A tenant folder that is a symbolic link leading out of the workspace is refused, not loaded.
    public static func discover(in root: URL) -> (folders: [URL], refused: [(name: String, diagnostic: Diagnostic)]) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        let realRoot = TenantPath(root: root).realRoot
        var folders: [URL] = [], refused: [(String, Diagnostic)] = []
        for name in names.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) where !name.hasPrefix(".") {
            let folder = root.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
            let hasManifest = ["tenant.yaml", "tenant.yml", "tenant.json"].contains { FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path) }
            guard hasManifest else { continue }
            if let real = TenantPath.realpath(folder.path), !real.hasPrefix(realRoot + "/") {
                refused.append((name, Diagnostic(.error, "tenant folder '\(name)' is a symbolic link that leads outside the workspace", at: .start(of: name),
                                                 rule: PathRule.symlinkEscape, hint: "move the tenant folder into the workspace")))
                continue
            }
            folders.append(folder)
        }
        return (folders, refused)
    }

    /// The `extends` of the tenant manifest in `folder`, if it can be read (errors are reported by a full load).
    public static func parentID(of folder: URL, limits: LoadLimits = .default) -> String? {
        for name in ["tenant.yaml", "tenant.yml", "tenant.json"] {
            let url = folder.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.path), case .success = TenantPath(root: folder).regularFile(name) else { continue }
            return ManifestParser.load(url, displayPath: name, limits: limits).node?["extends"]?.string
        }
        return nil
    }

    /// Loads every manifest of the tenant folder at `folder`.
    public static func load(_ folder: URL, displayRoot: String, limits: LoadLimits = .default) -> TenantSource {
        var source = TenantSource(id: folder.lastPathComponent, root: folder, displayRoot: displayRoot, paths: TenantPath(root: folder))
        for relative in conventionalManifestPaths(in: folder, paths: source.paths, diagnostics: &source.diagnostics, displayRoot: displayRoot, overlay: limits.overlay) {
            guard let kind = ManifestKind.kind(ofRelativePath: relative) else { continue }
            load(relative, as: kind, into: &source, limits: limits)
        }
        // Two files for one manifest (voice.yaml and voice.json): only one would be used.
        var firstOf: [String: Manifest] = [:]
        var unique: [Manifest] = []
        for manifest in source.manifests {
            let key = "\(manifest.kind.rawValue)|\(manifest.directory)|\(manifest.stem)"
            if let first = firstOf[key] {
                source.diagnostics.append(Diagnostic(.error, LoadMessage.secondManifest(path: manifest.relativePath, first: first.relativePath),
                                                     at: .start(of: manifest.displayPath), rule: LoadRule.duplicateManifest, hint: "keep one of them; this one is ignored"))
            } else {
                firstOf[key] = manifest
                unique.append(manifest)
            }
        }
        source.manifests = unique
        if source.tenant == nil, !source.diagnostics.contains(where: { $0.location.file.hasPrefix(displayRoot + "/tenant.") }) {
            source.diagnostics.append(Diagnostic(.error, ShapeMessage.noTenantManifest(),
                                                 at: .start(of: displayRoot + "/tenant.yaml"), rule: ShapeRule.required))
        }
        loadTokenFiles(into: &source, limits: limits)
        return source
    }

    /// Candidate manifest paths: the places the conventions of `ManifestKind` name, and nothing deeper.
    /// An editor's never-saved documents (`overlay`) are listed with the files of their folder.
    static func conventionalManifestPaths(in folder: URL, paths: TenantPath, diagnostics: inout [Diagnostic], displayRoot: String,
                                          overlay: SourceOverlay = SourceOverlay()) -> [String] {
        let fm = FileManager.default
        var refused: [Diagnostic] = []
        func list(_ relative: String) -> [String] {
            let path = relative.isEmpty ? folder.path : folder.appendingPathComponent(relative).path
            // Never list a folder outside the tenant: a symlinked `locales/` could point anywhere.
            if !relative.isEmpty, let real = TenantPath.realpath(path), !real.hasPrefix(paths.realRoot + "/") {
                refused.append(Diagnostic(.error, "'\(relative)' is a symbolic link that leads outside the tenant folder", at: .start(of: displayRoot + "/" + relative),
                                          rule: PathRule.symlinkEscape, hint: "copy the folder into the tenant instead of linking to it"))
                return []
            }
            let names = ((try? fm.contentsOfDirectory(atPath: path)) ?? []) + overlay.names(in: path)
            return names.filter { !$0.hasPrefix(".") }
                .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
                .map { relative.isEmpty ? $0 : relative + "/" + $0 }
        }
        var found = list("")
        found += list("programs") + list("locales") + list("library")
        for tour in list("tours") { found += list(tour) }
        diagnostics += refused
        return found.filter { ManifestKind.kind(ofRelativePath: $0) != nil }
    }

    /// Parses one manifest and checks its shape.
    static func load(_ relative: String, as kind: ManifestKind, into source: inout TenantSource, limits: LoadLimits) {
        let display = source.display(relative)
        let url: URL
        switch file(relative, of: source, limits: limits) {
        case .success(let resolved): url = resolved
        case .failure(.refused(let rule, let message, let hint)):
            let reason = Diagnostic(.error, message, at: .start(of: display), rule: rule, hint: hint)
            source.diagnostics.append(reason)
            source.unloaded.append(UnloadedManifest(kind: kind, displayPath: display, reason: reason))
            return
        }
        let (node, _, diagnostics) = ManifestParser.load(url, displayPath: display, limits: limits)
        source.diagnostics += diagnostics
        guard let node else {
            if let reason = diagnostics.first(where: { $0.severity == .error }) {
                source.unloaded.append(UnloadedManifest(kind: kind, displayPath: display, reason: reason))
            }
            return
        }
        var manifest = Manifest(kind: kind, relativePath: relative, displayPath: display, node: node)
        // Token files have their own checks; a locale bundle's keys and texts are checked, at every depth,
        // as it is flattened (checking its top-level keys here too reported each bad key twice).
        if kind != .branding && kind != .locale {
            let (shapeDiagnostics, assets) = ShapeValidator.validate(node, against: kind.shape, baseDirectory: manifest.directory)
            source.diagnostics += shapeDiagnostics
            source.assets += assets
        }
        if kind == .locale {
            let (bundle, found) = LocaleBundle.parse(manifest)
            source.diagnostics += found
            manifest.localeBundle = bundle
            manifest.node = Node(.mapping([]), at: node.location)
        }
        source.manifests.append(manifest)
    }

    /// The manifest file at tenant-relative `relative`: a regular file inside the tenant, or an editor's
    /// never-saved document (in `limits.overlay`) in a folder inside the tenant.
    static func file(_ relative: String, of source: TenantSource, limits: LoadLimits) -> Result<URL, TenantPath.Failure> {
        let full = source.paths.realRoot + "/" + relative
        if limits.overlay.isUnsavedOnly(full) {
            guard SourceOverlay.key(full).hasPrefix(source.paths.realRoot + "/") else {
                return .failure(.refused(rule: PathRule.symlinkEscape, message: PathMessage.escapes(path: relative),
                                         hint: "copy the file into the tenant folder instead of linking to it"))
            }
            return .success(URL(fileURLWithPath: full))
        }
        return source.paths.regularFile(relative)
    }

    /// Loads the DTCG token files the tenant manifest lists under `branding`.
    static func loadTokenFiles(into source: inout TenantSource, limits: LoadLimits) {
        guard let tenant = source.tenant, let branding = tenant.node["branding"] else { return }
        var listed: [Node] = branding["tokens"]?.items ?? []
        for mode in branding["modes"]?.entries ?? [] { listed += mode.value.items ?? [] }
        var seen = Set<String>()
        func loadListed(_ path: String, from directory: String) -> Manifest? {
            guard case .success(let relative) = TenantPath.normalize(path, baseDirectory: directory), seen.insert(relative).inserted else { return nil }
            // Missing or unsafe paths are reported by the asset rules; only load what is really there.
            guard case .success = file(relative, of: source, limits: limits) else { return nil }
            load(relative, as: .branding, into: &source, limits: limits)
            return source.manifests.last { $0.relativePath == relative }
        }
        for entry in listed {
            if let path = entry.string { _ = loadListed(path, from: tenant.directory) }
        }
        // A resolver document, and every token file its sources name (`{"$ref": "file.json"}`,
        // relative to the document; `#/…` references stay inside it).
        if let path = branding["resolver"]?.string, let resolver = loadListed(path, from: tenant.directory) {
            let folder = resolver.relativePath.split(separator: "/").dropLast().joined(separator: "/")
            var stack = [resolver.node]
            while let node = stack.popLast() {
                if let reference = node["$ref"]?.string, !reference.hasPrefix("#") { _ = loadListed(reference, from: folder) }
                stack += (node.entries ?? []).map(\.value) + (node.items ?? [])
            }
        }
    }
}

/// Messages the loader says for its rules; each rule declares the ones it says.
public enum LoadMessage {
    /// `structure.duplicate-manifest`.
    public static func secondManifest(path: String, first: String) -> DiagnosticMessage {
        DiagnosticMessage("second-manifest", "'\(path)' is a second file for the same manifest as '\(first)'")
    }
    /// `structure.encoding`.
    public static func unreadable() -> DiagnosticMessage { DiagnosticMessage("unreadable", "cannot read file") }
    public static func utf16() -> DiagnosticMessage { DiagnosticMessage("utf-16", "file is UTF-16 encoded; manifests must be UTF-8") }
    public static func nulByte() -> DiagnosticMessage { DiagnosticMessage("nul-byte", "file contains a NUL byte; it looks binary, not a text manifest") }
    public static func invalidByte(byte: String) -> DiagnosticMessage { DiagnosticMessage("invalid-byte", "invalid UTF-8 byte \(byte)") }
    /// `structure.limits`.
    public static func tooDeep(limit: Int) -> DiagnosticMessage { DiagnosticMessage("too-deep", "values are nested more than \(limit) levels deep") }
    public static func expandsTooFar(limit: Int) -> DiagnosticMessage { DiagnosticMessage("expands-too-far", "file expands to more than \(limit) values (an alias bomb?)") }
    public static func tooManyValues(limit: Int) -> DiagnosticMessage { DiagnosticMessage("too-many-values", "file has more than \(limit) values") }
    /// `structure.file-size`.
    public static func tooLarge(mebibytes: Int) -> DiagnosticMessage {
        DiagnosticMessage("too-large", "file is larger than \(mebibytes) MiB; manifests must be small text files")
    }
}
