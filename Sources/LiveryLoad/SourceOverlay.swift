import Foundation

/// Texts that stand in for files on disk while loading: an editor's unsaved documents (`livery lsp`).
///
/// Keyed by the file's real path (symbolic links resolved), so a document opened through any path
/// replaces the file the loader reads. Only the text is replaced: which files exist is still decided
/// by the disk, so a document that was never saved is not a manifest until it is.
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

    static func key(_ path: String) -> String {
        TenantPath.realpath(path) ?? URL(fileURLWithPath: path).standardizedFileURL.path
    }
}
