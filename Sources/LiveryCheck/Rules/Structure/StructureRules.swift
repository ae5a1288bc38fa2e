import LiveryDiagnostics
import LiveryLoad
import LiveryResolve

// Rules whose findings the loader makes while parsing and checking shapes. Each documents
// itself here; the generic rule test runs every example through the real pipeline.

struct SyntaxRule: CollectedRule {
    static let description = RuleDescription(
        id: LoadRule.syntax, name: "Syntax", family: .structure,
        rationale: "A manifest must be well-formed YAML or JSON, one document per file.",
        triggering: [
            RuleExample("trailing comma in JSON", files: ["example/voice.json": "{\"emoji\": \"none\",↓}\n"]),
            RuleExample("a tab used for indentation", files: ["example/voice.yaml": "emoji: none\nexclamations:\n↓\tmax: 1\n"]),
            RuleExample("empty manifest", files: ["example/voice.yaml": "↓"]),
            RuleExample("two YAML documents", files: ["example/voice.yaml": "emoji: none\n↓---\nemoji: liberal\n"]),
        ],
        nonTriggering: [
            RuleExample("JSON voice", files: ["example/voice.json": "{\"emoji\": \"none\"}\n"]),
            RuleExample("YAML anchors and merge keys", files: ["example/voice.yaml": "exclamations: &e {max: 1}\nlabels:\n  <<: {maxWords: 2}\n  sentenceCase: true\n"]),
        ])
}

struct EncodingRule: CollectedRule {
    static let description = RuleDescription(
        id: LoadRule.encoding, name: "Text encoding", family: .structure,
        rationale: "Manifests are UTF-8 text; binary or mis-encoded files are refused before parsing.",
        isSecurity: true,
        messages: [declare(LoadMessage.unreadable), declare(LoadMessage.utf16), declare(LoadMessage.nulByte), declare(LoadMessage.invalidByte)],
        triggering: [
            RuleExample("NUL byte", binaryFiles: ["example/voice.yaml": Array("emoji: none\n".utf8) + [0x00, 0x01]]),
            RuleExample("Latin-1 byte", binaryFiles: ["example/voice.yaml": Array("emoji: caf".utf8) + [0xE9, 0x0A]]),
            RuleExample("UTF-16 with its byte order mark", binaryFiles: ["example/voice.yaml": [0xFF, 0xFE] + Array("emoji: none\n".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }]),
        ],
        nonTriggering: [RuleExample("UTF-8 with a BOM", binaryFiles: ["example/voice.yaml": [0xEF, 0xBB, 0xBF] + Array("emoji: none\n".utf8)])])
}

struct FileSizeRule: CollectedRule {
    static let description = RuleDescription(
        id: LoadRule.fileSize, name: "Manifest size", family: .structure,
        rationale: "A manifest larger than 8 MiB is refused unread, so a huge file cannot exhaust memory.",
        isSecurity: true,
        messages: [declare(LoadMessage.tooLarge)],
        triggering: [RuleExample("9 MiB of YAML comments", files: ["example/voice.yaml": String(repeating: "# padding padding padding padding\n", count: 9 << 15)])],
        nonTriggering: [RuleExample("a small manifest", files: ["example/voice.yaml": "emoji: none\n"])])
}

struct LimitsRule: CollectedRule {
    static let description = RuleDescription(
        id: LoadRule.limits, name: "Nesting and expansion limits", family: .structure,
        rationale: "Deep nesting and alias bombs are refused while parsing, in bounded time and memory.",
        isSecurity: true,
        messages: [declare(LoadMessage.tooDeep), declare(LoadMessage.expandsTooFar), declare(LoadMessage.tooManyValues)],
        triggering: [
            RuleExample("deep nesting", files: ["example/voice.yaml": "emoji: " + String(repeating: "[", count: 200) + String(repeating: "]", count: 200) + "\n"]),
            RuleExample("more than 500,000 values in JSON", files: ["example/voice.json": "{\"emoji\": [" + String(repeating: "0,", count: 500_001) + "0]}\n"]),
            RuleExample("alias bomb", files: ["example/voice.yaml": (0..<12).map { i in
                i == 0 ? "a0: &a0 [x, x, x, x, x, x, x, x, x, x]" : "a\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 10).joined(separator: ", ") + "]"
            }.joined(separator: "\n") + "\n"]),
        ],
        nonTriggering: [RuleExample("an alias used twice", files: ["example/voice.yaml": "address: &a {ru: вы}\nwelcome: [nav.home]\n"])])
}

struct DuplicateKeyRule: CollectedRule {
    static let description = RuleDescription(
        id: LoadRule.duplicateKey, name: "Duplicate key", family: .structure,
        rationale: "A key written twice silently loses one value; Livery points at the second.",
        messages: [declare(ShapeMessage.duplicateYAMLKey), declare(ShapeMessage.duplicateJSONKey), declare(ShapeMessage.duplicateMessageKey)],
        triggering: [
            RuleExample("YAML", files: ["example/voice.yaml": "emoji: none\ngreeting: warm\n↓emoji: liberal\n"]),
            RuleExample("JSON", files: ["example/voice.json": "{\"emoji\": \"none\",\n ↓\"emoji\": \"liberal\"}\n"]),
            RuleExample("nested group and dotted key", files: ["example/locales/en.yaml": "nav:\n  home: Home\n  profile: Profile\n↓nav.home: Start\n"]),
        ],
        nonTriggering: [RuleExample("same key in different mappings", files: ["example/voice.yaml": "exclamations: {max: 1}\nlabels: {maxWords: 1}\n"])])
}

struct TypeRule: CollectedRule {
    static let description = RuleDescription(
        id: ShapeRule.type, name: "Value type", family: .structure,
        rationale: "Each key holds one type of value (text, number, list, mapping…).",
        messages: [declare(ShapeMessage.wrongType), declare(ShapeMessage.notMapping), declare(ShapeMessage.messageType)],
        triggering: [
            RuleExample("a string where a list is expected", files: ["example/tenant.yaml": """
                id: example
                kind: brand
                name: Example
                locales:
                  default: en
                  supported: ↓en

                """]),
            RuleExample("YAML 1.1 boolean", files: ["example/tenant.yaml": RuleExample.tenant(appending: "features:\n  chat: ↓yes\n")]),
            RuleExample("a locale bundle that is a list", files: ["example/locales/en.yaml": "↓- Home\n- Profile\n"]),
            RuleExample("a message that is a list", files: ["example/locales/en.yaml": "nav:\n  home: Home\n  profile: ↓[Profile]\n"]),
        ],
        nonTriggering: [RuleExample("a boolean", files: ["example/tenant.yaml": RuleExample.tenant(appending: "features:\n  chat: true\n")])])
}

struct RequiredKeyRule: CollectedRule {
    static let description = RuleDescription(
        id: ShapeRule.required, name: "Required key", family: .structure,
        rationale: "Keys a client cannot do without must be present.",
        messages: [declare(ShapeMessage.missingKey), declare(ShapeMessage.noTenantManifest)],
        triggering: [
            RuleExample("tenant without a name", files: ["example/tenant.yaml": "↓id: example\nkind: brand\nlocales: {default: en, supported: [en]}\n"]),
        ],
        nonTriggering: [RuleExample("the minimal tenant")])
}

struct UnknownKeyRule: CollectedRule {
    static let description = RuleDescription(
        id: ShapeRule.unknownKey, name: "Unknown key", family: .structure,
        rationale: "A misspelt key is ignored by apps; Livery reports it and suggests the closest known key.",
        messages: [declare(ShapeMessage.unknownKey), declare(TokenShapeMessage.unknownGroupProperty), declare(TokenShapeMessage.unknownTokenProperty)],
        triggering: [
            RuleExample("misspelt key", files: ["example/tenant.yaml": RuleExample.tenant(appending: "↓featurs:\n  chat: true\n")]),
            RuleExample("unknown token property", files: [
                "example/tenant.yaml": RuleExample.tenant(appending: "branding:\n  tokens: [branding/tokens.json]\n"),
                "example/branding/tokens.json": "{\"size\": {\"$type\": \"number\", \"$value\": 4, ↓\"$vaule\": 5}}\n",
            ]),
            RuleExample("unknown group property", files: [
                "example/tenant.yaml": RuleExample.tenant(appending: "branding:\n  tokens: [branding/tokens.json]\n"),
                "example/branding/tokens.json": "{\"size\": {\"$type\": \"number\", ↓\"$typo\": 1, \"small\": {\"$value\": 4}}}\n",
            ]),
        ],
        nonTriggering: [RuleExample("a $schema key", files: ["example/voice.yaml": "$schema: ../../schemas/voice.schema.json\nemoji: none\n"])])
}

struct EnumRule: CollectedRule {
    static let description = RuleDescription(
        id: ShapeRule.choice, name: "Allowed values", family: .structure,
        rationale: "Keys with a fixed set of values accept only those values.",
        messages: [declare(ShapeMessage.notAChoice)],
        triggering: [RuleExample("misspelt kind", files: ["example/tenant.yaml": RuleExample.base["example/tenant.yaml"]!.replacingOccurrences(of: "kind: brand", with: "kind: ↓brnad")])],
        nonTriggering: [RuleExample("creator kind", files: ["example/tenant.yaml": RuleExample.base["example/tenant.yaml"]!.replacingOccurrences(of: "kind: brand", with: "kind: creator")])])
}

struct SlugRule: CollectedRule {
    static let description = RuleDescription(
        id: ShapeRule.slug, name: "Slug ids", family: .structure,
        rationale: "Ids appear in URLs, file names and bundle names: lowercase letters, digits and single hyphens only.",
        messages: [declare(ShapeMessage.badKey), declare(ShapeMessage.badFormat)],
        triggering: [
            RuleExample("tab id with capitals", files: ["example/tenant.yaml": RuleExample.base["example/tenant.yaml"]!.replacingOccurrences(of: "{id: home", with: "{id: ↓Home")]),
            RuleExample("a token mode named with a capital", files: ["example/tenant.yaml": RuleExample.tenant(appending: "branding:\n  modes:\n    ↓Dark: [branding/dark.json]\n"),
                                                                 "example/branding/dark.json": "{}\n"]),
        ],
        nonTriggering: [RuleExample("hyphenated ids", files: ["example/tenant.yaml": RuleExample.base["example/tenant.yaml"]!.replacingOccurrences(of: "{id: home", with: "{id: home-2")])])
}

struct FormatRule: CollectedRule {
    static let description = RuleDescription(
        id: ShapeRule.format, name: "Value format", family: .structure,
        rationale: "Locale ids, colours, versions, bundle ids and message keys follow their standard formats.",
        messages: [declare(ShapeMessage.badKey), declare(ShapeMessage.badFormat), declare(ShapeMessage.badMessageKey)],
        triggering: [
            RuleExample("language name instead of a locale id", files: ["example/tenant.yaml": RuleExample.base["example/tenant.yaml"]!.replacingOccurrences(of: "default: en", with: "default: ↓english")]),
            RuleExample("version with a v", files: ["example/tenant.yaml": RuleExample.tenant(appending: "release:\n  minimumClientVersion: ↓v2.4\n")]),
            RuleExample("an Android application id with a hyphen (iOS allows one, Android does not)", files: ["example/tenant.yaml": RuleExample.tenant(
                appending: "app:\n  displayName: Example\n  bundleIds: {ios: com.example.my-app, android: ↓com.example.my-app}\n")]),
            RuleExample("a form of address keyed by a language name", files: ["example/voice.yaml": "address:\n  ↓english: formal\n"]),
            RuleExample("a message key with a space", files: ["example/locales/en.yaml": "nav:\n  home: Home\n  profile: Profile\n↓Bad key: Oops\n"]),
        ],
        nonTriggering: [RuleExample("a regional locale", files: ["example/tenant.yaml": RuleExample.tenant(appending: "formatting:\n  currency: INR\n  region: IN\n")])])
}

struct RangeRule: CollectedRule {
    static let description = RuleDescription(
        id: ShapeRule.range, name: "Value range", family: .structure,
        rationale: "Numbers and list lengths stay within what apps can display and play.",
        messages: [declare(ShapeMessage.tooFewItems), declare(ShapeMessage.belowMinimum), declare(ShapeMessage.aboveMaximum)],
        triggering: [
            RuleExample("zero-word labels", files: ["example/voice.yaml": "labels:\n  maxWords: ↓0\n"]),
            RuleExample("a reading speed above 100 characters a second", files: ["example/tenant.yaml": RuleExample.tenant(
                appending: "media:\n  subtitles:\n    charactersPerSecondByLanguage:\n      ja: ↓500\n")]),
            RuleExample("a token mode without files", files: ["example/tenant.yaml": RuleExample.tenant(appending: "branding:\n  modes:\n    dark: ↓[]\n")]),
        ],
        nonTriggering: [RuleExample("three-word labels", files: ["example/voice.yaml": "labels:\n  maxWords: 3\n"])])
}

struct ExtendsUnknownRule: CollectedRule {
    static let description = RuleDescription(
        id: ResolveRule.extendsUnknown, name: "Unknown parent", family: .structure,
        rationale: "`extends` must name a tenant folder of the same workspace.",
        messages: [declare(ExtendsMessage.unknownParent)],
        triggering: [RuleExample("misspelt parent", files: ["example/tenant.yaml": RuleExample.tenant(appending: "extends: ↓platfrom\n"), "platform/tenant.yaml": Self.platform])],
        nonTriggering: [RuleExample("existing parent", files: ["example/tenant.yaml": RuleExample.tenant(appending: "extends: platform\n"), "platform/tenant.yaml": Self.platform,
                                                                "platform/locales/en.yaml": "nav:\n  home: Home\n"])])

    static let platform = "id: platform\nkind: brand\nname: Platform\nlocales: {default: en, supported: [en]}\n"
}

struct ExtendsCycleRule: CollectedRule {
    static let description = RuleDescription(
        id: ResolveRule.extendsCycle, name: "Inheritance cycle", family: .structure,
        rationale: "A tenant cannot inherit from itself or from one of its descendants.",
        messages: [declare(ExtendsMessage.extendsItself), declare(ExtendsMessage.cycle)],
        triggering: [RuleExample("two tenants extending each other", files: [
            "alpha/tenant.yaml": "id: alpha\nkind: brand\nname: A\nextends: ↓beta\nlocales: {default: en, supported: [en]}\n",
            "beta/tenant.yaml": "id: beta\nkind: brand\nname: B\nextends: alpha\nlocales: {default: en, supported: [en]}\n",
        ]), RuleExample("a tenant extending itself", files: [
            "alpha/tenant.yaml": "id: alpha\nkind: brand\nname: A\nextends: ↓alpha\nlocales: {default: en, supported: [en]}\n",
        ])],
        nonTriggering: [RuleExample("a chain", files: [
            "alpha/tenant.yaml": "id: alpha\nkind: brand\nname: A\nlocales: {default: en, supported: [en]}\n",
            "beta/tenant.yaml": "id: beta\nkind: creator\nname: B\nextends: alpha\nlocales: {default: en, supported: [en]}\n",
            "alpha/locales/en.yaml": "title: A\n",
        ])])
}

struct RuleOverrideRule: Rule {
    static let description = RuleDescription(
        id: RuleEngine.overrideRuleID, name: "Severity overrides", family: .structure,
        rationale: "Tenants may tune rule severities, but only of rules that exist and never of security rules.",
        isSecurity: true,
        messages: [declare(Message.unknownRule), declare(Message.securityRule)],
        triggering: [
            RuleExample("unknown rule", files: ["example/tenant.yaml": RuleExample.tenant(appending: "rules:\n  ↓localization.missing-kye: warning\n")]),
            RuleExample("silencing a security rule", files: ["example/tenant.yaml": RuleExample.tenant(appending: "rules:\n  assets.path: ↓off\n")]),
        ],
        nonTriggering: [RuleExample("lowering a content rule", files: ["example/tenant.yaml": RuleExample.tenant(appending: "rules:\n  localization.extra-key: off\n")])])

    enum Message {
        static func unknownRule(rule: String) -> DiagnosticMessage {
            DiagnosticMessage("unknown-rule", "unknown rule '\(rule)'")
        }
        static func securityRule(rule: String) -> DiagnosticMessage {
            DiagnosticMessage("security-rule", "'\(rule)' is a security rule; its severity cannot be lowered")
        }
    }

    // The engine reports these while reading the overrides; the rule type documents and tests them.
    func check(_ context: RuleContext) -> [Diagnostic] { [] }
}

struct DuplicateManifestRule: CollectedRule {
    static let description = RuleDescription(
        id: LoadRule.duplicateManifest, name: "One file per manifest", family: .structure,
        rationale: "Two files for one manifest (voice.yaml and voice.json) would leave one silently unused.",
        messages: [declare(LoadMessage.secondManifest)],
        triggering: [RuleExample("YAML and JSON voice", files: ["example/voice.yaml": "↓emoji: none\n", "example/voice.json": "{\"emoji\": \"liberal\"}\n"])],
        nonTriggering: [RuleExample("one voice file", files: ["example/voice.yaml": "emoji: none\n"])])
}
