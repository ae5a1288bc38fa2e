import Foundation
import LiveryCheck
import LiveryDiagnostics

/// One line of `livery watch --format json`: what one check found (docs/watch.md).
///
/// Written with `JSONEncoder` and `.sortedKeys`, one object per line, so a tool can decode it with this type
/// (or any JSON reader) and the keys always come in the same order.
public struct WatchEvent: Codable, Sendable, Equatable {
    /// One finding that appeared or disappeared.
    public struct Finding: Codable, Sendable, Equatable {
        /// The file as findings show it, e.g. `Tenants/urbannest/locales/en.yaml`.
        public var file: String
        public var line: Int
        public var column: Int
        public var severity: Severity
        public var message: String
        /// The rule's id, e.g. `structure.type`.
        public var rule: String

        public init(_ diagnostic: Diagnostic) {
            file = diagnostic.location.file
            line = diagnostic.location.line
            column = diagnostic.location.column
            severity = diagnostic.severity
            message = diagnostic.message
            rule = diagnostic.ruleID.rawValue
        }
    }

    /// The workspace-relative paths whose change started the check (empty for the first check).
    public var changed: [String]
    /// How many tenants were checked.
    public var checked: Int
    /// From the change seen to the findings known, in milliseconds (one decimal).
    public var milliseconds: Double
    public var appeared: [Finding]
    public var disappeared: [Finding]
    /// Errors and warnings in the whole watched workspace after the check.
    public var errors: Int
    public var warnings: Int

    public init(changed: [String], checked: Int, milliseconds: Double, change: FindingsLedger.Change, errors: Int, warnings: Int) {
        self.changed = changed
        self.checked = checked
        self.milliseconds = (milliseconds * 10).rounded() / 10
        appeared = change.appeared.map(Finding.init)
        disappeared = change.disappeared.map(Finding.init)
        self.errors = errors
        self.warnings = warnings
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// The event as one line of JSON, with its line end.
    public func line() throws -> Data {
        try Self.encoder.encode(self) + Data("\n".utf8)
    }
}
