import Foundation
import LiveryDiagnostics

/// The text formats a manifest may be written in.
public enum ManifestFormat: String, Sendable {
    case yaml, json

    /// The format a file name implies (`.yaml`, `.yml`, `.json`), or nil.
    public init?(path: String) {
        let lower = path.lowercased()
        if lower.hasSuffix(".yaml") || lower.hasSuffix(".yml") { self = .yaml }
        else if lower.hasSuffix(".json") { self = .json }
        else { return nil }
    }
}

/// Parses manifest text (YAML or JSON) into a located `Node` tree.
public enum ManifestParser {
    public static func parse(_ text: String, format: ManifestFormat, file: String, limits: LoadLimits = .default) -> (Node?, [Diagnostic]) {
        switch format {
        case .json: return JSONParser.parse(text, file: file, limits: limits)
        case .yaml: return YAMLComposer.parse(text, file: file, limits: limits)
        }
    }

    /// Reads, decodes and parses a file; every failure is a located diagnostic.
    public static func load(_ url: URL, displayPath: String, limits: LoadLimits = .default) -> (node: Node?, text: String?, diagnostics: [Diagnostic]) {
        let format = ManifestFormat(path: url.path) ?? .yaml
        switch SourceText.read(url, displayPath: displayPath, limits: limits) {
        case .failure(.diagnostic(let diagnostic)):
            return (nil, nil, [diagnostic])
        case .success(let text):
            let (node, diagnostics) = parse(text, format: format, file: displayPath, limits: limits)
            return (node, text, diagnostics)
        }
    }
}
