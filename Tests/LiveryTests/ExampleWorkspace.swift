import Foundation
import LiveryCheck
import LiveryDiagnostics
import LiveryLoad
import LiveryPack
import LiveryReleaseFormat
import LiveryWorkflow
import XCTest

/// A temporary `Tenants/` folder built from a rule example (or any file map), removed on deinit.
final class ExampleWorkspace {
    let root: URL
    var tenants: URL { root.appendingPathComponent("Tenants") }
    /// Where `↓` markers stood, as display locations (`Tenants/<path>:line:column`).
    private(set) var markers: [SourceLocation] = []

    /// How an example's manifests are written: as given, or altered in ways that must not change what
    /// any rule finds (RuleExampleTests runs every example in each form).
    enum Form: String, CaseIterable {
        case written
        /// A comment with multi-byte characters before the first line of every YAML manifest.
        case multibyteFirstLine
        /// CRLF line ends in every manifest.
        case crlf
        /// Every YAML manifest written as JSON instead (the same values; markers do not carry over).
        case json
    }

    struct NotApplicable: Error {}

    init(_ example: RuleExample, base: [String: String] = RuleExample.base, form: Form = .written) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("livery-test-\(UUID().uuidString)")
        var files = base
        for removed in example.removes { files[removed] = nil }
        files.merge(example.files) { _, new in new }
        if form != .written {
            var changed = false
            var altered: [String: String] = [:]
            for (path, text) in files {
                let isYAML = path.hasSuffix(".yaml") || path.hasSuffix(".yml"), isJSON = path.hasSuffix(".json")
                switch form {
                case .written:
                    altered[path] = text
                case .multibyteFirstLine:
                    // Not before a byte-order mark, and not into an empty file (that would be another example).
                    if isYAML, !text.isEmpty, text != "↓", !text.hasPrefix("\u{FEFF}"), !text.hasPrefix("%") {
                        altered[path] = "# Ünïcödé ✓ 日本語 — Привет\n" + text
                        changed = true
                    } else { altered[path] = text }
                case .crlf:
                    if (isYAML || isJSON) && text.contains("\n") && !text.contains("\r") {
                        altered[path] = text.replacingOccurrences(of: "\n", with: "\r\n")
                        changed = true
                    } else { altered[path] = text }
                case .json:
                    guard isYAML else { altered[path] = text; continue }
                    let clean = text.replacingOccurrences(of: "↓", with: "")
                    let (node, diagnostics) = ManifestParser.parse(clean, format: .yaml, file: path)
                    guard let node, diagnostics.isEmpty, node.entries != nil else { throw NotApplicable() }
                    altered[String(path.prefix(upTo: path.lastIndex(of: ".")!)) + ".json"] = String(decoding: JSONValue(node).bytes, as: UTF8.self)
                    changed = true
                }
            }
            guard changed else { throw NotApplicable() }
            files = altered
        }
        for (path, text) in files.sorted(by: { $0.key < $1.key }) {
            try write(path, text)
        }
        if form == .json { markers = [] }
        for (path, bytes) in example.binaryFiles { try writeBytes(path, bytes) }
        for (path, target) in example.symlinks {
            let url = tenants.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? FileManager.default.removeItem(at: url)
            try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: target)
        }
    }

    convenience init(files: [String: String]) throws {
        try self.init(RuleExample("files", files: files), base: [:])
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// Writes a text file, removing a `↓` marker and remembering its location.
    func write(_ path: String, _ text: String) throws {
        var line = 1, column = 1
        var clean = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "↓" {
                markers.append(SourceLocation(file: "Tenants/" + path, line: line, column: column))
                continue
            }
            clean.append(scalar)
            if scalar == "\n" { line += 1; column = 1 } else { column += 1 }
        }
        try writeBytes(path, Array(String(clean).utf8))
    }

    func writeBytes(_ path: String, _ bytes: [UInt8]) throws {
        let url = tenants.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    func validate(only: Set<String>? = nil, strict: Bool = false) -> ValidationResult {
        Validator.validate(workspace: tenants, displayRoot: "Tenants", rules: .all, only: only, strict: strict)
    }
}
