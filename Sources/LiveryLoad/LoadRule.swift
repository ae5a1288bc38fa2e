import LiveryDiagnostics
/// Rule ids of findings the loader itself reports (syntax, encoding, limits, duplicate keys).
///
/// Their descriptions and examples live with the other rules in `LiveryCheck`.
public enum LoadRule {
    public static let syntax: RuleID = "structure.syntax"
    public static let encoding: RuleID = "structure.encoding"
    public static let fileSize: RuleID = "structure.file-size"
    public static let duplicateKey: RuleID = "structure.duplicate-key"
    public static let limits: RuleID = "structure.limits"
    public static let duplicateManifest: RuleID = "structure.duplicate-manifest"
}

/// Bounds that keep hostile manifests (huge files, deep nesting, alias bombs) cheap to reject.
public struct LoadLimits: Sendable {
    public var maxFileBytes: Int
    public var maxDepth: Int
    public var maxNodes: Int
    /// Unsaved texts read instead of their files (an editor's open documents); empty for every command but `livery lsp`.
    /// It travels with the limits because every read of a manifest already takes them.
    public var overlay = SourceOverlay()

    public init(maxFileBytes: Int = 8 << 20, maxDepth: Int = 64, maxNodes: Int = 500_000) {
        self.maxFileBytes = maxFileBytes
        self.maxDepth = maxDepth
        self.maxNodes = maxNodes
    }

    public static let `default` = LoadLimits()
}
