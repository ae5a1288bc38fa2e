/// How serious a finding is.
public enum Severity: String, Sendable, Codable, CaseIterable, Comparable {
    /// Information that explains other findings (SARIF's `note`): never fails a build, even with `--strict`.
    case note
    case warning
    case error

    private var rank: Int {
        switch self {
        case .note: return 0
        case .warning: return 1
        case .error: return 2
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}

/// A second place a finding concerns (SARIF's `relatedLocations`): where a broken construct began,
/// or the error in a base tenant that a creator's finding follows from.
public struct RelatedLocation: Hashable, Sendable {
    public var location: SourceLocation
    public var message: String

    public init(_ message: String, at location: SourceLocation) {
        self.location = location
        self.message = message
    }
}

/// One finding: where it is, how serious, what is wrong, which rule says so, and how to fix it.
public struct Diagnostic: Hashable, Sendable {
    public var location: SourceLocation
    public var severity: Severity
    public var message: String
    public var ruleID: RuleID
    public var hint: String?
    /// Other places the finding concerns, in the order a reader should visit them.
    public var related: [RelatedLocation]
    /// How to fix the finding, when its rule knows (most likely first).
    public var fixes: [Fix]
    /// The id of the rule's message this finding says (`MessageTemplate.id`), and the arguments that fill its
    /// template to give `message`; nil for a finding made from free text.
    public var messageID: String?
    public var arguments: [String]

    /// A finding whose message is one its rule declares (`RuleDescription.messages`).
    public init(_ severity: Severity, _ message: DiagnosticMessage, at location: SourceLocation, rule ruleID: RuleID, hint: String? = nil,
                related: [RelatedLocation] = [], fixes: [Fix] = []) {
        self.init(severity, message.text, at: location, rule: ruleID, hint: hint, related: related, fixes: fixes)
        messageID = message.id
        arguments = message.arguments
    }

    public init(_ severity: Severity, _ message: String, at location: SourceLocation, rule ruleID: RuleID, hint: String? = nil, related: [RelatedLocation] = [],
                fixes: [Fix] = []) {
        self.related = related
        self.fixes = fixes
        self.location = location
        self.severity = severity
        self.message = message
        self.ruleID = ruleID
        self.hint = hint
        messageID = nil
        arguments = []
    }

    /// The one-line form of docs/diagnostics.md#text-output: `file:line:col: severity: message [rule-id]`.
    public var line: String {
        "\(location): \(severity.rawValue): \(message) [\(ruleID)]"
    }
}

extension Array where Element == Diagnostic {
    /// Sorted by file, line, column, then rule, with exact duplicates removed: stable output for humans and tools.
    public func normalized() -> [Diagnostic] {
        var seen = Set<Diagnostic>()
        return self.filter { seen.insert($0).inserted }.sorted {
            if $0.location != $1.location { return $0.location < $1.location }
            if $0.ruleID != $1.ruleID { return $0.ruleID < $1.ruleID }
            return $0.message < $1.message
        }
    }

    public var errorCount: Int { filter { $0.severity == .error }.count }
    public var warningCount: Int { filter { $0.severity == .warning }.count }
    public var noteCount: Int { filter { $0.severity == .note }.count }
}

/// Diagnostics can be thrown and returned as failures: an error is a value with a location.
extension Diagnostic: Error {}

/// A change to one file that fixes a finding: the text from `start` up to (not including) `end` is
/// replaced by `replacement`. Lines and columns count as `SourceLocation`'s do (from 1, in Unicode
/// code points), so an editor converts them to its own units (UTF-16 for the Language Server Protocol).
public struct TextEdit: Hashable, Sendable {
    public var start: SourceLocation
    public var end: SourceLocation
    public var replacement: String

    public init(from start: SourceLocation, to end: SourceLocation, replacement: String) {
        self.start = start
        self.end = end
        self.replacement = replacement
    }
}

/// How to fix a finding, declared by the rule that reports it: a title for a menu ("Replace 'morning-routin'
/// with 'morning-routine'") and the edits, which `livery lsp` offers as a quick fix and SARIF carries as `fixes`.
public struct Fix: Hashable, Sendable {
    public var title: String
    public var edits: [TextEdit]

    public init(_ title: String, edits: [TextEdit]) {
        self.title = title
        self.edits = edits
    }
}
