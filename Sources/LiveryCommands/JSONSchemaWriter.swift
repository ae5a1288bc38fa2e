import Foundation
import LiveryLoad

/// Renders a manifest kind's `Shape` as a JSON Schema (draft 2020-12) for editors and other tools.
public enum JSONSchemaWriter {
    public static let baseURI = "urn:livery:schemas:"

    public static func schema(for kind: ManifestKind) -> String {
        var root: [String: Any]
        if kind == .branding {
            root = [
                "description": "A DTCG 2025.10 design token file. Livery reads the format of the W3C Design Tokens Community Group; see docs/branding.md for Livery's `$extensions` vocabulary.",
                "$ref": "https://www.designtokens.org/schemas/2025.10/format.json",
            ]
        } else if kind == .locale {
            root = [
                "description": "Message keys mapped to ICU MessageFormat strings. A nested mapping groups keys: {nav: {home: …}} is the key 'nav.home'.",
                "type": "object",
                "properties": ["$schema": ["type": "string"]],
                "patternProperties": [StringFormat.messageKey.pattern!: ["$ref": "#/$defs/entry"]],
                "additionalProperties": false,
                "$defs": ["entry": ["oneOf": [
                    ["type": "string"],
                    ["type": "object", "patternProperties": [StringFormat.messageKey.pattern!: ["$ref": "#/$defs/entry"]], "additionalProperties": false],
                ]]],
            ]
        } else {
            root = render(kind.shape, allowSchemaKey: true)
        }
        root["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        root["$id"] = baseURI + kind.rawValue
        root["title"] = kind.title
        let data = (try? JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    static func render(_ shape: Shape, allowSchemaKey: Bool = false, description: String? = nil) -> [String: Any] {
        var out: [String: Any]
        switch shape {
        case .any:
            out = [:]
        case .string(let format):
            out = ["type": "string"]
            if let pattern = format.pattern { out["pattern"] = pattern }
        case .integer(let min, let max):
            out = ["type": "integer"]
            if let min { out["minimum"] = min }
            if let max { out["maximum"] = max }
        case .number(let min, let max):
            out = ["type": "number"]
            if let min { out["minimum"] = min }
            if let max { out["maximum"] = max }
        case .boolean:
            out = ["type": "boolean"]
        case .choice(let options):
            out = ["type": "string", "enum": options]
        case .list(let item, let minItems):
            out = ["type": "array", "items": render(item)]
            if minItems > 0 { out["minItems"] = minItems }
        case .dictionary(let key, let value):
            out = ["type": "object", "additionalProperties": render(value)]
            if let pattern = key.pattern { out["propertyNames"] = ["pattern": pattern] }
        case .asset(let types):
            let extensions = types.flatMap(\.extensions)
            out = ["type": "string", "description": "Path relative to this file, inside the tenant folder."]
            if !extensions.isEmpty {
                // ECMA-262 patterns have no case-insensitive flag in JSON Schema; spell each letter both ways.
                let caseless = extensions.map { $0.map { $0.isLetter ? "[\($0.lowercased())\($0.uppercased())]" : String($0) }.joined() }
                out["pattern"] = "\\.(\(caseless.joined(separator: "|")))$"
            }
        case .object(let object):
            var properties: [String: Any] = [:]
            for field in object.fields {
                properties[field.name] = render(field.shape, description: field.description)
            }
            if allowSchemaKey { properties["$schema"] = ["type": "string", "description": "The JSON Schema this file follows."] }
            out = ["type": "object", "properties": properties, "additionalProperties": false]
            let required = object.fields.filter(\.required).map(\.name)
            if !required.isEmpty { out["required"] = required }
            if let d = object.description, description == nil { out["description"] = d }
        }
        if let description { out["description"] = description }
        return out
    }
}
