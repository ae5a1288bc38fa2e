import Foundation
import LiveryCheck
import LiveryDiagnostics
import XCTest

/// A temporary `Tenants/` folder built from a rule example (or any file map), removed on deinit.
final class ExampleWorkspace {
    let root: URL
    var tenants: URL { root.appendingPathComponent("Tenants") }
    /// Where `↓` markers stood, as display locations (`Tenants/<path>:line:column`).
    private(set) var markers: [SourceLocation] = []

    init(_ example: RuleExample, base: [String: String] = RuleExample.base) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("livery-test-\(UUID().uuidString)")
        var files = base
        for removed in example.removes { files[removed] = nil }
        files.merge(example.files) { _, new in new }
        for (path, text) in files.sorted(by: { $0.key < $1.key }) {
            try write(path, text)
        }
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
        Validator.validate(workspace: tenants, displayRoot: "Tenants", only: only, strict: strict)
    }
}
