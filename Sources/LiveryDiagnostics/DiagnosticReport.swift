import Foundation

/// What a report needs to know about a rule to describe it (SARIF's `reportingDescriptor`).
public struct RuleSummary: Sendable, Hashable {
    public var id: String
    public var name: String
    public var rationale: String
    public var severity: Severity
    public var family: String
    /// The messages the rule can say (SARIF's `messageStrings`).
    public var messages: [MessageTemplate]

    public init(id: String, name: String, rationale: String, severity: Severity, family: String, messages: [MessageTemplate] = []) {
        self.messages = messages
        self.id = id
        self.name = name
        self.rationale = rationale
        self.severity = severity
        self.family = family
    }
}

/// The output formats of `livery validate --format`.
public enum ReportFormat: String, CaseIterable, Sendable {
    case text, json, sarif
}

/// Renders diagnostics as text for people, or as JSON or SARIF 2.1.0 for tools.
public struct DiagnosticReport: Sendable {
    public var diagnostics: [Diagnostic]
    public var rules: [RuleSummary]
    public var toolVersion: String
    /// Source text by file path, used to show the offending line under a text diagnostic.
    public var sources: [String: String]

    public init(diagnostics: [Diagnostic], rules: [RuleSummary], toolVersion: String, sources: [String: String] = [:]) {
        self.diagnostics = diagnostics.normalized()
        self.rules = rules
        self.toolVersion = toolVersion
        self.sources = sources
    }

    public func render(_ format: ReportFormat, colour: Bool = false) -> String {
        switch format {
        case .text: return text(colour: colour)
        case .json: return json()
        case .sarif: return sarif()
        }
    }

    // MARK: Text

    public func text(colour: Bool) -> String {
        var out = ""
        // Each file's lines are split once: splitting per finding made a report of many findings in
        // one large file quadratic (minutes for 200,000 findings).
        var lines: [String: [Substring]] = [:]
        for diagnostic in diagnostics {
            var line = diagnostic.line
            if colour {
                let code = diagnostic.severity == .error ? "31" : diagnostic.severity == .warning ? "33" : "36"
                line = "\u{1B}[1m\(diagnostic.location):\u{1B}[0m \u{1B}[1;\(code)m\(diagnostic.severity.rawValue):\u{1B}[0m \u{1B}[1m\(diagnostic.message)\u{1B}[0m [\(diagnostic.ruleID)]"
            }
            out += line + "\n"
            if let excerpt = excerpt(at: diagnostic.location, lines: &lines) { out += excerpt }
            if let hint = diagnostic.hint { out += "    hint: \(hint)\n" }
            for related in diagnostic.related { out += "    note: \(related.location): \(related.message)\n" }
            for fix in diagnostic.fixes { out += "    fix: \(fix.title)\n" }
        }
        let errors = diagnostics.errorCount, warnings = diagnostics.warningCount, notes = diagnostics.noteCount
        out += "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
            + (notes > 0 ? ", \(notes) note\(notes == 1 ? "" : "s")" : "") + "\n"
        return out
    }

    private func excerpt(at location: SourceLocation, lines cache: inout [String: [Substring]]) -> String? {
        guard let source = sources[location.file] else { return nil }
        if cache[location.file] == nil { cache[location.file] = source.sourceLines }
        guard let lines = cache[location.file], location.line >= 1, location.line <= lines.count else { return nil }
        let text = lines[location.line - 1]
        guard !text.isEmpty else { return nil }
        guard text.unicodeScalars.count <= 200 else { return nil }
        let padding = String(text.unicodeScalars.prefix(max(0, location.column - 1)).map { $0 == "\t" ? "\t" : " " })
        return "    \(text)\n    \(padding)^\n"
    }

    // MARK: JSON

    private struct JSONReport: Encodable {
        struct Item: Encodable {
            var file: String
            var line: Int
            var column: Int
            var severity: String
            var message: String
            var rule: String
            var hint: String?
            /// The id of the rule's message and the arguments that fill its template (`livery rules` lists the templates).
            var messageId: String?
            var arguments: [String]?
            var related: [Related]?
            var fixes: [Fix]?
        }
        struct Related: Encodable { var file: String; var line: Int; var column: Int; var message: String }
        struct Fix: Encodable { var title: String; var edits: [Edit] }
        struct Edit: Encodable { var file: String; var line: Int; var column: Int; var endLine: Int; var endColumn: Int; var text: String }
        struct Summary: Encodable { var errors: Int; var warnings: Int }
        var version: String
        var diagnostics: [Item]
        var summary: Summary
    }

    public func json() -> String {
        let report = JSONReport(
            version: toolVersion,
            diagnostics: diagnostics.map {
                .init(file: $0.location.file, line: $0.location.line, column: $0.location.column,
                      severity: $0.severity.rawValue, message: $0.message, rule: $0.ruleID.rawValue, hint: $0.hint,
                      messageId: $0.messageID, arguments: $0.messageID == nil ? nil : $0.arguments,
                      related: $0.related.isEmpty ? nil : $0.related.map { .init(file: $0.location.file, line: $0.location.line, column: $0.location.column, message: $0.message) },
                      fixes: $0.fixes.isEmpty ? nil : $0.fixes.map { fix in
                          .init(title: fix.title, edits: fix.edits.map { .init(file: $0.start.file, line: $0.start.line, column: $0.start.column,
                                                                              endLine: $0.end.line, endColumn: $0.end.column, text: $0.replacement) })
                      })
            },
            summary: .init(errors: diagnostics.errorCount, warnings: diagnostics.warningCount))
        return Self.encode(report)
    }

    // MARK: SARIF 2.1.0

    private struct SARIFLog: Encodable {
        var schema = "https://json.schemastore.org/sarif-2.1.0.json"
        var version = "2.1.0"
        var runs: [Run]
        enum CodingKeys: String, CodingKey { case schema = "$schema", version, runs }

        struct Run: Encodable {
            var tool: Tool
            var results: [Result]
            var columnKind = "unicodeCodePoints"
        }
        struct Tool: Encodable { var driver: Driver }
        struct Driver: Encodable {
            var name = "livery"
            var version: String
            var rules: [Descriptor]
        }
        struct Message: Encodable { var text: String }
        /// A result's message (§3.11): its text, and the id of the rule's message string with the arguments
        /// that fill it (§3.11.10, §3.11.11).
        struct ResultMessage: Encodable { var text: String; var id: String?; var arguments: [String]? }
        struct Descriptor: Encodable {
            struct Configuration: Encodable { var level: String }
            struct Properties: Encodable { var family: String }
            var id: String
            var name: String
            var shortDescription: Message
            var defaultConfiguration: Configuration
            var properties: Properties
            /// §3.49.11: message id → its template, with `{0}`-style placeholders (§3.11.5).
            var messageStrings: [String: Message]?
        }
        struct Result: Encodable {
            var ruleId: String
            var ruleIndex: Int?
            var level: String
            var message: ResultMessage
            var locations: [Location]
            var relatedLocations: [Location]?
            var fixes: [Fix]?
        }
        // SARIF 2.1.0 §3.55 (fix), §3.56 (artifactChange), §3.57 (replacement).
        struct Fix: Encodable { var description: Message; var artifactChanges: [Change] }
        struct Change: Encodable { var artifactLocation: Artifact; var replacements: [Replacement] }
        struct Replacement: Encodable { var deletedRegion: Span; var insertedContent: Content }
        struct Span: Encodable { var startLine: Int; var startColumn: Int; var endLine: Int; var endColumn: Int }
        struct Content: Encodable { var text: String }
        struct Location: Encodable {
            var id: Int?
            var physicalLocation: Physical
            var message: Message?
        }
        struct Physical: Encodable { var artifactLocation: Artifact; var region: Region }
        struct Artifact: Encodable { var uri: String }
        struct Region: Encodable { var startLine: Int; var startColumn: Int }
    }

    public func sarif() -> String {
        let sortedRules = rules.sorted { $0.id < $1.id }
        let index = Dictionary(uniqueKeysWithValues: sortedRules.enumerated().map { ($1.id, $0) })
        // A result names a message string only its rule declares (§3.11.10: the id is looked up in the rule's messageStrings).
        let declared = Set(rules.flatMap { rule in rule.messages.map { "\(rule.id)\u{0}\($0.id)" } })
        let results = diagnostics.map { d in
            let messageID = d.messageID.flatMap { declared.contains("\(d.ruleID.rawValue)\u{0}\($0)") ? $0 : nil }
            return SARIFLog.Result(
                ruleId: d.ruleID.rawValue, ruleIndex: index[d.ruleID.rawValue], level: d.severity.rawValue,
                message: .init(text: d.hint.map { "\(d.message). Hint: \($0)" } ?? d.message, id: messageID,
                               arguments: messageID == nil ? nil : d.arguments),
                locations: [.init(physicalLocation: Self.physical(d.location))],
                relatedLocations: d.related.isEmpty ? nil : d.related.enumerated().map { index, related in
                    .init(id: index, physicalLocation: Self.physical(related.location), message: .init(text: related.message))
                },
                fixes: d.fixes.isEmpty ? nil : d.fixes.map { fix in
                    let byFile = Dictionary(grouping: fix.edits, by: \.start.file)
                    return .init(description: .init(text: fix.title), artifactChanges: byFile.keys.sorted().map { file in
                        .init(artifactLocation: .init(uri: Self.uri(for: file)), replacements: byFile[file]!.map {
                            .init(deletedRegion: .init(startLine: $0.start.line, startColumn: $0.start.column, endLine: $0.end.line, endColumn: $0.end.column),
                                  insertedContent: .init(text: $0.replacement))
                        })
                    })
                })
        }
        let descriptors = sortedRules.map {
            SARIFLog.Descriptor(id: $0.id, name: $0.name, shortDescription: .init(text: $0.rationale),
                                defaultConfiguration: .init(level: $0.severity.rawValue),
                                properties: .init(family: $0.family),
                                messageStrings: $0.messages.isEmpty ? nil : Dictionary($0.messages.map { ($0.id, .init(text: $0.text)) }, uniquingKeysWith: { first, _ in first }))
        }
        let log = SARIFLog(runs: [.init(tool: .init(driver: .init(version: toolVersion, rules: descriptors)), results: results)])
        return Self.encode(log)
    }

    private static func physical(_ location: SourceLocation) -> SARIFLog.Physical {
        .init(artifactLocation: .init(uri: uri(for: location.file)), region: .init(startLine: max(1, location.line), startColumn: max(1, location.column)))
    }

    /// A relative file path as a URI reference (percent-encoded, forward slashes).
    static func uri(for path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: ":")
        return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
    }

    private static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
