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

    static func realpath(_ path: String) -> String? {
        guard let resolved = Foundation.realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Normalises `path` (relative to `baseDirectory` in the tenant) to a tenant-relative path, or explains why it is refused.
    public static func normalize(_ path: String, baseDirectory: String) -> Result<String, Failure> {
        if path.isEmpty { return .failure(.refused(rule: PathRule.path, message: "path is empty", hint: nil)) }
        if path.hasPrefix("/") || path.hasPrefix("~") {
            return .failure(.refused(rule: PathRule.path, message: "'\(path)' is an absolute path; asset paths are relative to the manifest", hint: "move the file into the tenant folder and write a relative path"))
        }
        if path.contains("\\") { return .failure(.refused(rule: PathRule.path, message: "'\(path)' contains a backslash; use '/' between folders", hint: nil)) }
        if path.range(of: "^[A-Za-z][A-Za-z0-9+.-]*:", options: .regularExpression) != nil {
            return .failure(.refused(rule: PathRule.path, message: "'\(path)' is a URL; assets must be files inside the tenant folder", hint: nil))
        }
        var parts = baseDirectory.split(separator: "/").map(String.init)
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            if component == "." { continue }
            if component == ".." {
                return .failure(.refused(rule: PathRule.path, message: "'\(path)' contains '..'; assets must stay inside the tenant folder", hint: "write the path without '..'"))
            }
            parts.append(String(component))
        }
        if parts.isEmpty { return .failure(.refused(rule: PathRule.path, message: "'\(path)' names the tenant folder itself, not a file", hint: nil)) }
        return .success(parts.joined(separator: "/"))
    }

    public enum Failure: Error, Sendable {
        case refused(rule: RuleID, message: String, hint: String?)
    }

    /// The URL of the regular file at tenant-relative `relative`, after checking that every
    /// symbolic link on the way stays inside the tenant folder.
    public func regularFile(_ relative: String) -> Result<URL, Failure> {
        let full = realRoot + "/" + relative
        var info = stat()
        guard lstat(full, &info) == 0 else {
            return .failure(.refused(rule: PathRule.missing, message: "file '\(relative)' does not exist", hint: nil))
        }
        guard let resolved = Self.realpath(full) else {
            return .failure(.refused(rule: PathRule.missing, message: "'\(relative)' is a broken symbolic link", hint: nil))
        }
        guard resolved.hasPrefix(realRoot + "/") else {
            return .failure(.refused(rule: PathRule.symlinkEscape, message: "'\(relative)' is a symbolic link that leads outside the tenant folder",
                                     hint: "copy the file into the tenant folder instead of linking to it"))
        }
        var target = stat()
        guard stat(resolved, &target) == 0, (target.st_mode & S_IFMT) == S_IFREG else {
            let what = (target.st_mode & S_IFMT) == S_IFDIR ? "a folder" : "not a regular file"
            return .failure(.refused(rule: PathRule.notRegularFile, message: "'\(relative)' is \(what)", hint: nil))
        }
        return .success(URL(fileURLWithPath: resolved))
    }
}
