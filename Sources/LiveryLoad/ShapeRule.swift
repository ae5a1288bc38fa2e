/// Rule ids of findings from checking a manifest against its declared shape.
public enum ShapeRule {
    public static let type: RuleID = "structure.type"
    public static let required: RuleID = "structure.required"
    public static let unknownKey: RuleID = "structure.unknown-key"
    public static let choice: RuleID = "structure.enum"
    public static let slug: RuleID = "structure.slug"
    public static let format: RuleID = "structure.format"
    public static let range: RuleID = "structure.range"
}

/// A reference from a manifest to a file in the tenant folder, found while checking shapes.
public struct AssetReference: Sendable, Hashable {
    /// The path as written, relative to the manifest's folder.
    public var path: String
    /// Where the path is written.
    public var location: SourceLocation
    /// The folder of the manifest, relative to the tenant root ("" for the root).
    public var baseDirectory: String
    /// The file types the field accepts.
    public var allowed: [FileType]
    /// The field's key path in its manifest (`["assets", "logo"]`), for rules about one role of file.
    public var field: [String]

    public init(path: String, location: SourceLocation, baseDirectory: String, allowed: [FileType], field: [String] = []) {
        self.path = path
        self.location = location
        self.baseDirectory = baseDirectory
        self.allowed = allowed
        self.field = field
    }
}

import LiveryDiagnostics
