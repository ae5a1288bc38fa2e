import LiveryDiagnostics

/// Checks a located `Node` against a `Shape` and reports every mismatch where it is.
public struct ShapeValidator {
    public private(set) var diagnostics: [Diagnostic] = []
    public private(set) var assets: [AssetReference] = []
    private let baseDirectory: String

    /// Validates `node`; asset paths are recorded relative to `baseDirectory` (the manifest's folder in the tenant).
    public static func validate(_ node: Node, against shape: Shape, baseDirectory: String = "") -> (diagnostics: [Diagnostic], assets: [AssetReference]) {
        var validator = ShapeValidator(baseDirectory: baseDirectory)
        validator.check(node, shape, path: [])
        return (validator.diagnostics, validator.assets)
    }

    private init(baseDirectory: String) {
        self.baseDirectory = baseDirectory
    }

    private mutating func report(_ message: DiagnosticMessage, at location: SourceLocation, rule: RuleID, hint: String? = nil, fixes: [Fix] = []) {
        diagnostics.append(Diagnostic(.error, message, at: location, rule: rule, hint: hint, fixes: fixes))
    }

    private static func describe(_ path: [String]) -> String {
        path.isEmpty ? "the manifest" : "'\(path.joined(separator: "."))'"
    }

    private mutating func check(_ node: Node, _ shape: Shape, path: [String]) {
        let name = Self.describe(path)
        switch shape {
        case .any:
            return
        case .string(let format):
            guard let value = node.string else { return mismatch(node, expected: "text", path: path) }
            checkFormat(value, format, at: node.location, name: name)
        case .integer(let min, let max):
            guard let value = node.int else { return mismatch(node, expected: "an integer", path: path) }
            checkRange(Double(value), min.map(Double.init), max.map(Double.init), at: node.location, name: name)
        case .number(let min, let max):
            guard let value = node.number, value.isFinite else { return mismatch(node, expected: "a number", path: path) }
            checkRange(value, min, max, at: node.location, name: name)
        case .boolean:
            guard node.bool != nil else {
                let hint = node.string.map { ["yes", "no", "on", "off", "y", "n"].contains($0.lowercased()) } == true
                    ? "write true or false; Livery reads YAML 1.2, where '\(node.string!)' is text" : nil
                return mismatch(node, expected: "true or false", path: path, hint: hint)
            }
        case .choice(let options):
            guard let value = node.string else { return mismatch(node, expected: "one of \(options.joined(separator: ", "))", path: path) }
            if !options.contains(value) {
                let suggestion = DidYouMean.suggestion(for: value, among: options)
                report(ShapeMessage.notAChoice(field: name, value: value, options: options.joined(separator: ", ")), at: node.location, rule: ShapeRule.choice,
                       hint: suggestion.map { "did you mean '\($0)'?" }, fixes: suggestion.flatMap { Fix.replacing(node, with: $0) }.map { [$0] } ?? [])
            }
        case .list(let item, let minItems):
            guard let items = node.items else { return mismatch(node, expected: "a list", path: path) }
            if items.count < minItems {
                report(ShapeMessage.tooFewItems(field: name, minimum: minItems, noun: minItems == 1 ? "item" : "items", count: items.count), at: node.location, rule: ShapeRule.range)
            }
            for (index, child) in items.enumerated() {
                check(child, item, path: path.dropLast() + [(path.last ?? "") + "[\(index)]"])
            }
        case .dictionary(let keyFormat, let value):
            guard let entries = node.entries else { return mismatch(node, expected: "a mapping", path: path) }
            // Values of any shape need no visit (a locale bundle's thousands of messages).
            var checksValues = true
            if case .any = value { checksValues = false }
            for i in entries.indices {
                if !keyFormat.matches(entries[i].key) {
                    report(ShapeMessage.badKey(key: entries[i].key, field: name, format: keyFormat.summary), at: entries[i].keyLocation,
                           rule: keyFormat == .slug ? ShapeRule.slug : ShapeRule.format, hint: InvisibleCharacters.hint(for: entries[i].key))
                }
                if checksValues { check(entries[i].value, value, path: path + [entries[i].key]) }
            }
        case .object(let object):
            guard let entries = node.entries else { return mismatch(node, expected: "a mapping", path: path) }
            for entry in entries {
                if let field = object.field(entry.key) {
                    check(entry.value, field.shape, path: path + [entry.key])
                } else if entry.key == "$schema" && path.isEmpty {
                    continue
                } else {
                    let suggestion = DidYouMean.suggestion(for: entry.key, among: object.fields.map(\.name))
                    report(ShapeMessage.unknownKey(key: entry.key, field: name), at: entry.keyLocation, rule: ShapeRule.unknownKey,
                           hint: suggestion.map { "did you mean '\($0)'?" } ?? "known keys: \(object.fields.map(\.name).joined(separator: ", "))",
                           fixes: suggestion.flatMap { Fix.renaming(entry, to: $0) }.map { [$0] } ?? [])
                }
            }
            for field in object.fields where field.required && !entries.contains(where: { $0.key == field.name }) {
                report(ShapeMessage.missingKey(field: name, key: field.name), at: node.location, rule: ShapeRule.required,
                       hint: "\(field.name): \(field.description)")
            }
        case .asset(let types):
            guard let value = node.string else { return mismatch(node, expected: "a file path", path: path) }
            assets.append(AssetReference(path: value, location: node.location, baseDirectory: baseDirectory, allowed: types, field: path))
        }
    }

    private mutating func mismatch(_ node: Node, expected: String, path: [String], hint: String? = nil) {
        report(ShapeMessage.wrongType(field: Self.describe(path), expected: expected, found: node.typeDescription), at: node.location, rule: ShapeRule.type, hint: hint)
    }

    private mutating func checkFormat(_ value: String, _ format: StringFormat, at location: SourceLocation, name: String) {
        guard !format.matches(value) else { return }
        var hint: String?
        if format == .slug {
            let slug = value.lowercased().map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined()
                .split(separator: "-").joined(separator: "-")
            if !slug.isEmpty, StringFormat.slug.matches(slug) { hint = "try '\(slug)'" }
        }
        report(ShapeMessage.badFormat(field: name, value: value, format: format.summary), at: location,
               rule: format == .slug ? ShapeRule.slug : ShapeRule.format, hint: InvisibleCharacters.hint(for: value) ?? hint)
    }

    private mutating func checkRange(_ value: Double, _ min: Double?, _ max: Double?, at location: SourceLocation, name: String) {
        func show(_ d: Double) -> String { d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d) }
        if let min, value < min {
            report(ShapeMessage.belowMinimum(field: name, value: show(value), minimum: show(min)), at: location, rule: ShapeRule.range)
        } else if let max, value > max {
            report(ShapeMessage.aboveMaximum(field: name, value: show(value), maximum: show(max)), at: location, rule: ShapeRule.range)
        }
    }
}

/// The messages of the shape rules and of duplicate keys: each `structure.*` rule declares the ones it says
/// (`structure.type`, `required`, `unknown-key`, `enum`, `slug`, `format`, `range`, `duplicate-key`).
public enum ShapeMessage {
    public static func wrongType(field: String, expected: String, found: String) -> DiagnosticMessage {
        DiagnosticMessage("wrong-type", "\(field) must be \(expected), found \(found)")
    }
    public static func notMapping(found: String) -> DiagnosticMessage { DiagnosticMessage("not-a-mapping", "the manifest must be a mapping, found \(found)") }
    public static func messageType(key: String, found: String) -> DiagnosticMessage {
        DiagnosticMessage("message-type", "message '\(key)' must be text or a group of messages, found \(found)")
    }
    public static func missingKey(field: String, key: String) -> DiagnosticMessage { DiagnosticMessage("missing-key", "\(field) is missing the required key '\(key)'") }
    public static func noTenantManifest() -> DiagnosticMessage { DiagnosticMessage("no-tenant-manifest", "no tenant manifest: expected tenant.yaml in the tenant folder") }
    public static func unknownKey(key: String, field: String) -> DiagnosticMessage { DiagnosticMessage("unknown-key", "unknown key '\(key)' in \(field)") }
    public static func notAChoice(field: String, value: String, options: String) -> DiagnosticMessage {
        DiagnosticMessage("not-a-choice", "\(field) is '\(value)', which is not one of: \(options)")
    }
    public static func badKey(key: String, field: String, format: String) -> DiagnosticMessage { DiagnosticMessage("bad-key", "key '\(key)' in \(field) must be \(format)") }
    public static func badFormat(field: String, value: String, format: String) -> DiagnosticMessage {
        DiagnosticMessage("bad-format", "\(field) is '\(value)', but must be \(format)")
    }
    public static func badMessageKey(key: String, format: String) -> DiagnosticMessage {
        DiagnosticMessage("bad-message-key", "'\(key)' is not a valid message key; keys are \(format)")
    }
    public static func tooFewItems(field: String, minimum: Int, noun: String, count: Int) -> DiagnosticMessage {
        DiagnosticMessage("too-few-items", "\(field) needs at least \(minimum) \(noun), found \(count)")
    }
    public static func belowMinimum(field: String, value: String, minimum: String) -> DiagnosticMessage {
        DiagnosticMessage("below-minimum", "\(field) is \(value), below the minimum \(minimum)")
    }
    public static func aboveMaximum(field: String, value: String, maximum: String) -> DiagnosticMessage {
        DiagnosticMessage("above-maximum", "\(field) is \(value), above the maximum \(maximum)")
    }
    public static func duplicateYAMLKey(key: String, line: Int, column: Int) -> DiagnosticMessage {
        DiagnosticMessage("yaml", "duplicate key '\(key)' (first defined at line \(line), column \(column))")
    }
    public static func duplicateJSONKey(key: String, line: Int, column: Int) -> DiagnosticMessage {
        DiagnosticMessage("json", "duplicate key \"\(key)\" (first defined at line \(line), column \(column))")
    }
    public static func duplicateMessageKey(key: String, line: Int, column: Int) -> DiagnosticMessage {
        DiagnosticMessage("message-key", "key '\(key)' is defined twice (first at line \(line), column \(column))")
    }
}
