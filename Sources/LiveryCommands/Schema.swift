import ArgumentParser
import Foundation
import LiveryLoad

struct Schema: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the JSON Schema of a manifest kind, or write all of them to a folder.",
        discussion: "Kinds: \(ManifestKind.allCases.map(\.rawValue).joined(separator: ", ")). Editors use these schemas to complete and check manifests."
    )

    @Argument(help: "The manifest kind.")
    var kind: ManifestKind?

    @Option(help: "Write every schema as <kind>.schema.json into this folder.")
    var write: String?

    func validate() throws {
        if kind == nil && write == nil { throw ValidationError("name a kind (\(ManifestKind.allCases.map(\.rawValue).joined(separator: ", "))) or pass --write FOLDER") }
    }

    func run() throws {
        if let write {
            try FileManager.default.createDirectory(atPath: write, withIntermediateDirectories: true)
            for kind in ManifestKind.allCases {
                try Data(JSONSchemaWriter.schema(for: kind).utf8).write(to: URL(fileURLWithPath: write).appendingPathComponent("\(kind.rawValue).schema.json"))
            }
        }
        if let kind { FileHandle.standardOutput.write(Data(JSONSchemaWriter.schema(for: kind).utf8)) }
    }
}

extension ManifestKind: ExpressibleByArgument {}
