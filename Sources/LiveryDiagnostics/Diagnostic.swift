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
    public var ruleID: String
    public var hint: String?
    /// Other places the finding concerns, in the order a reader should visit them.
    public var related: [RelatedLocation]

    public init(_ severity: Severity, _ message: String, at location: SourceLocation, rule ruleID: String, hint: String? = nil, related: [RelatedLocation] = []) {
        self.related = related
        self.location = location
        self.severity = severity
        self.message = message
        self.ruleID = ruleID
        self.hint = hint
    }

    /// The one-line form of PRODUCT.md §3: `file:line:col: severity: message [rule-id]`.
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
