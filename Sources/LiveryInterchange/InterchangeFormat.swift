import LiveryDiagnostics

/// The file formats `livery l10n` exchanges with translators and platforms.
public enum InterchangeFormat: String, Sendable, CaseIterable {
    case xliff, xcstrings, android

    /// The format a file name implies (`.xlf`/`.xliff`, `.xcstrings`, `strings.xml`), or nil.
    public init?(path: String) {
        let lower = path.lowercased()
        if lower.hasSuffix(".xlf") || lower.hasSuffix(".xliff") { self = .xliff }
        else if lower.hasSuffix(".xcstrings") { self = .xcstrings }
        else if lower.hasSuffix(".xml") { self = .android }
        else { return nil }
    }
}

/// Rule ids of interchange findings (export refusals and import problems).
public enum InterchangeRule {
    /// The file is not well-formed, or not the format's structure (wrong root, missing attribute).
    public static let syntax = "interchange.syntax"
    /// The file names a language that does not fit the tenant (srcLang, trgLang, sourceLanguage, folder qualifier).
    public static let language = "interchange.language"
    /// A key the tenant's default locale does not have, or a resource name that maps to none.
    public static let unknownKey = "interchange.unknown-key"
    /// The same unit id, key or resource name twice.
    public static let duplicateKey = "interchange.duplicate-key"
    /// A translated message that is not valid ICU MessageFormat.
    public static let icuSyntax = "interchange.icu-syntax"
    /// A translation that drops or invents a placeholder of the source message.
    public static let placeholder = "interchange.placeholder"
    /// A plural without `other`, with a category the locale does not use, or missing one it needs.
    public static let plural = "interchange.plural"
    /// A format string the platform form cannot hold (bad specifier, markup, unescaped apostrophe).
    public static let format = "interchange.format"
    /// Two keys that become the same platform resource name.
    public static let nameCollision = "interchange.name-collision"
    /// Hostile or oversized input: DOCTYPE, entities, files over the size limit.
    public static let unsafe = "interchange.unsafe"
    /// Reading or writing the tenant's files failed.
    public static let io = "interchange.io"
}

/// Findings plus an optional result: an operation that found errors returns no result.
public struct InterchangeResult<Value: Sendable>: Sendable {
    public var value: Value?
    public var diagnostics: [Diagnostic]

    public init(value: Value?, diagnostics: [Diagnostic]) {
        self.value = value
        self.diagnostics = diagnostics
    }

    /// True when there is an error-level finding.
    public var failed: Bool { diagnostics.contains { $0.severity == .error } }
}
