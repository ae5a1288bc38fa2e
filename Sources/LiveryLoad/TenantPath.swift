import Foundation
import LiveryDiagnostics

/// Rule ids of findings about paths to files in a tenant folder.
public enum PathRule {
    public static let path: RuleID = "assets.path"
    public static let symlinkEscape: RuleID = "assets.symlink-escape"
    public static let missing: RuleID = "assets.missing"
    public static let notRegularFile: RuleID = "assets.not-regular-file"
}

/// Resolves paths written in manifests to files inside one tenant folder, refusing anything that
/// could read outside it: absolute paths, `..`, and symbolic links that lead out of the folder.
public struct TenantPath: Sendable {
    /// The tenant folder with every symbolic link resolved.
    public let realRoot: String

    public init(root: URL) {
        let path = root.standardizedFileURL.path
        realRoot = Self.realpath(path) ?? path
    }

    /// `path` with every symbolic link resolved (realpath(3)), or nil when it does not exist.
    public static func realpath(_ path: String) -> String? {
        guard let resolved = Foundation.realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Normalises `path` (relative to `baseDirectory` in the tenant) to a tenant-relative path, or explains why it is refused.
    public static func normalize(_ path: String, baseDirectory: String) -> Result<String, Failure> {
        if path.isEmpty { return .failure(.refused(rule: PathRule.path, message: PathMessage.empty(), hint: nil)) }
        if path.hasPrefix("/") || path.hasPrefix("~") {
            return .failure(.refused(rule: PathRule.path, message: PathMessage.absolute(path: path), hint: "move the file into the tenant folder and write a relative path"))
        }
        if path.contains("\\") { return .failure(.refused(rule: PathRule.path, message: PathMessage.backslash(path: path), hint: nil)) }
        if path.range(of: "^[A-Za-z][A-Za-z0-9+.-]*:", options: .regularExpression) != nil {
            return .failure(.refused(rule: PathRule.path, message: PathMessage.url(path: path), hint: nil))
        }
        var parts = baseDirectory.split(separator: "/").map(String.init)
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            if component == "." { continue }
            if component == ".." {
                return .failure(.refused(rule: PathRule.path, message: PathMessage.parent(path: path), hint: "write the path without '..'"))
            }
            parts.append(String(component))
        }
        if parts.isEmpty { return .failure(.refused(rule: PathRule.path, message: PathMessage.tenantFolder(path: path), hint: nil)) }
        return .success(parts.joined(separator: "/"))
    }

    public enum Failure: Error, Sendable {
        case refused(rule: RuleID, message: DiagnosticMessage, hint: String?)
    }

    /// The URL of the regular file at tenant-relative `relative`, after checking that every
    /// symbolic link on the way stays inside the tenant folder.
    public func regularFile(_ relative: String) -> Result<URL, Failure> {
        let full = realRoot + "/" + relative
        var info = stat()
        guard lstat(full, &info) == 0 else {
            return .failure(.refused(rule: PathRule.missing, message: PathMessage.missing(path: relative), hint: nil))
        }
        guard let resolved = Self.realpath(full) else {
            return .failure(.refused(rule: PathRule.missing, message: PathMessage.brokenLink(path: relative), hint: nil))
        }
        guard resolved.hasPrefix(realRoot + "/") else {
            return .failure(.refused(rule: PathRule.symlinkEscape, message: PathMessage.escapes(path: relative),
                                     hint: "copy the file into the tenant folder instead of linking to it"))
        }
        var target = stat()
        guard stat(resolved, &target) == 0, (target.st_mode & S_IFMT) == S_IFREG else {
            let what = (target.st_mode & S_IFMT) == S_IFDIR ? "a folder" : "not a regular file"
            return .failure(.refused(rule: PathRule.notRegularFile, message: PathMessage.notRegular(path: relative, what: what), hint: nil))
        }
        return .success(URL(fileURLWithPath: resolved))
    }
}

/// The messages of the path rules (`assets.path`, `assets.missing`, `assets.symlink-escape`,
/// `assets.not-regular-file`); each rule declares the ones it says.
public enum PathMessage {
    public static func empty() -> DiagnosticMessage { DiagnosticMessage("empty", "path is empty") }
    public static func absolute(path: String) -> DiagnosticMessage {
        DiagnosticMessage("absolute", "'\(path)' is an absolute path; asset paths are relative to the manifest")
    }
    public static func backslash(path: String) -> DiagnosticMessage { DiagnosticMessage("backslash", "'\(path)' contains a backslash; use '/' between folders") }
    public static func url(path: String) -> DiagnosticMessage { DiagnosticMessage("url", "'\(path)' is a URL; assets must be files inside the tenant folder") }
    public static func parent(path: String) -> DiagnosticMessage { DiagnosticMessage("parent", "'\(path)' contains '..'; assets must stay inside the tenant folder") }
    public static func tenantFolder(path: String) -> DiagnosticMessage { DiagnosticMessage("tenant-folder", "'\(path)' names the tenant folder itself, not a file") }
    public static func missing(path: String) -> DiagnosticMessage { DiagnosticMessage("missing", "file '\(path)' does not exist") }
    public static func brokenLink(path: String) -> DiagnosticMessage { DiagnosticMessage("broken-link", "'\(path)' is a broken symbolic link") }
    public static func escapes(path: String) -> DiagnosticMessage { DiagnosticMessage("escapes", "'\(path)' is a symbolic link that leads outside the tenant folder") }
    public static func notRegular(path: String, what: String) -> DiagnosticMessage { DiagnosticMessage("not-regular", "'\(path)' is \(what)") }
}
