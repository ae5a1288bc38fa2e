import Foundation
import LiveryDiagnostics

/// The texts of the files findings point at, for the line a text report shows under each finding.
///
/// A finding may point at a file the loader refused unread: a manifest, locale bundle or token file that is a
/// symbolic link to a file outside the tenant folder (`assets.symlink-escape`). Reading it again for its line
/// would print a line of that outside file (`root:x:0:0:…` for a link to `/etc/passwd`) into a public CI log.
/// So a file is read here only through the check the loader makes before it reads a byte: the file must be in
/// a tenant folder the workspace accepts (not a link out of the workspace, `TenantLoader.discover`) and be a
/// regular file whose every link stays inside that folder (`TenantPath.regularFile`). Any other finding is
/// shown without a line.
public struct ExcerptSources: Sendable {
    /// The workspace folder and how findings show it (`Tenants`, `.`).
    public var workspace: URL
    public var displayRoot: String
    /// The tenant folders of the workspace the loader accepts, by folder name.
    public var tenants: [String: URL]

    public init(workspace: URL, displayRoot: String, tenantFolders: [URL]) {
        self.workspace = workspace
        self.displayRoot = displayRoot
        tenants = Dictionary(tenantFolders.map { ($0.lastPathComponent, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Discovers the tenant folders of `workspace` itself.
    public init(workspace: URL, displayRoot: String) {
        self.init(workspace: workspace, displayRoot: displayRoot, tenantFolders: TenantLoader.discover(in: workspace).folders)
    }

    /// The file a finding's path names, if it may be read: inside an accepted tenant folder, through links that
    /// stay inside it, and a regular file. Nil for anything else (a refused link, a folder, a path outside every tenant).
    public func file(displayedAs path: String) -> URL? {
        let prefix = displayRoot.hasSuffix("/") ? displayRoot : displayRoot + "/"
        guard path.hasPrefix(prefix) else { return nil }
        let rest = path.dropFirst(prefix.count)
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        let tenant = String(rest[..<slash]), relative = String(rest[rest.index(after: slash)...])
        guard let folder = tenants[tenant], case .success(let relative) = TenantPath.normalize(relative, baseDirectory: ""),
              case .success(let url) = TenantPath(root: folder).regularFile(relative) else { return nil }
        return url
    }

    /// The text of every file in `paths` that may be read (see `file(displayedAs:)`) and decodes as text, by path.
    public func texts(of paths: some Sequence<String>, limits: LoadLimits = .default) -> [String: String] {
        var texts: [String: String] = [:]
        for path in Set(paths) {
            guard let url = file(displayedAs: path), case .success(let text) = SourceText.read(url, displayPath: path, limits: limits) else { continue }
            texts[path] = text
        }
        return texts
    }
}
