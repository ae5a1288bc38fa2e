import Foundation

/// Texts that stand in for files on disk while loading: an editor's unsaved documents (`livery lsp`).
///
/// Keyed by the file's real path (symbolic links resolved), so a document opened through any path
/// replaces the file the loader reads. A document that was never saved (an editor's new `locales/fr.yaml`)
/// is a file too while it is open: the loader's listings of a tenant's folders add the overlay's paths
/// that are not on disk (`names(in:)`), and reading it gives the editor's text. Once the document is
/// removed from the overlay (the editor closed it without saving), the file is gone again.
public struct SourceOverlay: Sendable {
    private var texts: [String: String] = [:]

    public init() {}

    public var isEmpty: Bool { texts.isEmpty }

    /// Sets (or with nil removes) the text that replaces the file at `path`.
    public mutating func set(_ text: String?, forFileAt path: String) {
        texts[Self.key(path)] = text
    }

    /// The text that replaces the file at `path`, if there is one.
    public func text(forFileAt path: String) -> String? {
        texts.isEmpty ? nil : texts[Self.key(path)]
    }

    /// Whether `path` is an unsaved document that does not exist on disk.
    public func isUnsavedOnly(_ path: String) -> Bool {
        text(forFileAt: path) != nil && !FileManager.default.fileExists(atPath: path)
    }

    /// The names directly in `folder` that only the overlay holds: never-saved documents in it, and the
    /// first folder of the path of those further down (`tours/new/tour.yaml` gives `new` in `tours`).
    /// Names that exist on disk are left out (the disk's listing has them).
    public func names(in folder: String) -> [String] {
        guard !texts.isEmpty else { return [] }
        let prefix = Self.key(folder) + "/"
        var names = Set<String>()
        for path in texts.keys where path.hasPrefix(prefix) {
            guard let name = path.dropFirst(prefix.count).split(separator: "/").first.map(String.init) else { continue }
            if !FileManager.default.fileExists(atPath: prefix + name) { names.insert(name) }
        }
        return names.sorted()
    }

    /// The real path of `path`: symbolic links resolved in the longest part of it that exists (a never-saved
    /// document's folder is resolved, its name appended), so every spelling of one file gives one key.
    static func key(_ path: String) -> String {
        let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
        if let real = TenantPath.realpath(standardized) { return real }
        var missing: [String] = []
        var existing = standardized
        while existing != "/" && !existing.isEmpty {
            missing.insert((existing as NSString).lastPathComponent, at: 0)
            existing = (existing as NSString).deletingLastPathComponent
            if let real = TenantPath.realpath(existing) {
                return ([real == "/" ? "" : real] + missing).joined(separator: "/")
            }
        }
        return standardized
    }
}
