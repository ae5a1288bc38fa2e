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
    public static let syntax: RuleID = "interchange.syntax"
    /// The file names a language that does not fit the tenant (srcLang, trgLang, sourceLanguage, folder qualifier).
    public static let language: RuleID = "interchange.language"
    /// A key the tenant's default locale does not have, or a resource name that maps to none.
    public static let unknownKey: RuleID = "interchange.unknown-key"
    /// The same unit id, key or resource name twice.
    public static let duplicateKey: RuleID = "interchange.duplicate-key"
    /// A translated message that is not valid ICU MessageFormat.
    public static let icuSyntax: RuleID = "interchange.icu-syntax"
    /// A translation that drops or invents a placeholder of the source message.
    public static let placeholder: RuleID = "interchange.placeholder"
    /// A plural without `other`, with a category the locale does not use, or missing one it needs.
    public static let plural: RuleID = "interchange.plural"
    /// A format string the platform form cannot hold (bad specifier, markup, unescaped apostrophe).
    public static let format: RuleID = "interchange.format"
    /// Two keys that become the same platform resource name.
    public static let nameCollision: RuleID = "interchange.name-collision"
    /// Hostile or oversized input: DOCTYPE, entities, files over the size limit.
    public static let unsafe: RuleID = "interchange.unsafe"
    /// Reading or writing the tenant's files failed.
    public static let io: RuleID = "interchange.io"

    /// Every interchange finding with what it means, for `livery rules` and SARIF (`livery l10n import` reports them).
    public static let all: [(id: RuleID, rationale: String)] = [
        (syntax, "A translation file is well-formed and has its format's structure."),
        (language, "A translation file names languages that fit the tenant."),
        (unknownKey, "Every key, unit or resource of a translation file is a key of the tenant's default locale."),
        (duplicateKey, "A key, unit id or resource name appears once."),
        (icuSyntax, "A translated message is valid ICU MessageFormat."),
        (placeholder, "A translation keeps its source message's placeholders."),
        (plural, "A plural has `other` and the categories its locale uses, and no others."),
        (format, "A platform format string can hold the message (specifiers, markup, apostrophes)."),
        (nameCollision, "Two keys do not become one platform resource name."),
        (unsafe, "A translation file has no DOCTYPE or entities and is within the size limit."),
        (io, "The tenant's files can be read and written."),
    ]
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
