import Foundation
import LiveryCheck
import LiveryDiagnostics
import LiveryWorkflow
import XCTest

/// The broken-variant corpus: each variant takes the real sample tenants, breaks one thing the way a
/// creator (or an attacker) would, runs the real `livery validate`, and expects exit 1 with the
/// finding at the exact file, line, column and rule id. A `↓` in an edit marks the expected spot.
final class BrokenVariantCorpusTests: XCTestCase {
    enum Edit: Sendable {
        case replace(String, String, String)
        case write(String, String)
        case bytes(String, [UInt8])
        case symlink(String, String)
        case remove(String)
        /// Copies a sample file over another (from, to).
        case copy(String, String)
        case append(String, String)
        case generate(String, @Sendable () -> String)
        /// Keeps only the first `fraction` of a file's bytes.
        case truncate(String, fraction: Double)
    }

    struct SampleDrift: Error, CustomStringConvertible {
        var description: String
    }

    struct Variant: Sendable {
        var name: String
        var tenant: String
        var edits: [Edit]
        var rule: String
        /// `file:line:column` when no `↓` marker can stand in the edit (removed lines, binary files).
        var at: String? = nil
        /// Runs with `--strict`, for rules whose findings are warnings (exit 1 needs an error).
        var strict = false
    }

    static let florence = "sonic-walkscape/tours/florence-renaissance/tour.yaml"
    static let physio = "physio-clinic/tenant.yaml"
    static let tokens = "physio-clinic/branding/tokens.json"
    static let program = "companero-lucia/programs/30-day-fitness-foundation.yaml"
    static let library = "companero-lucia/library/library.yaml"
    static let ruPhysio = "physio-clinic/locales/ru.yaml"
    static let frWalk = "sonic-walkscape/locales/fr.yaml"
    static let travelEn = "travel-experiences/locales/en.yaml"

    static let variants: [Variant] = [
        // Syntax and encoding
        Variant(name: "YAML colon inside a plain value", tenant: "physio-clinic", edits: [.replace(physio, "name: Physio Clinic", "name: Physio↓: Clinic")], rule: "structure.syntax"),
        Variant(name: "tab used for indentation", tenant: "companero", edits: [.replace("companero/voice.yaml", "\n  max: 1", "\n↓\tmax: 1")], rule: "structure.syntax"),
        Variant(name: "second YAML document", tenant: "companero", edits: [.append("companero/voice.yaml", "↓---\nemoji: liberal\n")], rule: "structure.syntax"),
        Variant(name: "JSON trailing comma", tenant: "physio-clinic", edits: [.replace(tokens, "  \"color\": {\n    \"$type\": \"color\",", "  \"color\": {\n    \"$type\": \"color\",↓}")], rule: "structure.syntax"),
        Variant(name: "JSON single quotes", tenant: "physio-clinic", edits: [.replace(tokens, "\"$type\": \"color\"", "\"$type\": ↓'color'")], rule: "structure.syntax"),
        Variant(name: "empty file", tenant: "companero", edits: [.write("companero/voice.yaml", "↓")], rule: "structure.syntax"),
        Variant(name: "binary file", tenant: "companero", edits: [.bytes("companero/voice.yaml", [0x1F, 0x8B, 0x08, 0x00, 0xFF, 0x00])], rule: "structure.encoding", at: "Tenants/companero/voice.yaml:1:2"),
        Variant(name: "Latin-1 text", tenant: "companero", edits: [.bytes("companero/voice.yaml", Array("greeting: warm\nemoji: caf".utf8) + [0xE9, 0x0A])], rule: "structure.encoding", at: "Tenants/companero/voice.yaml:2:11"),
        Variant(name: "UTF-16 file", tenant: "companero", edits: [.bytes("companero/voice.yaml", [0xFF, 0xFE, 0x65, 0x00])], rule: "structure.encoding", at: "Tenants/companero/voice.yaml:1:1"),
        Variant(name: "50 MB YAML", tenant: "companero", edits: [.generate("companero/voice.yaml", { String(repeating: "# a comment line that pads the file out to fifty megabytes\n", count: 50 << 20 / 58 + 1) })],
                rule: "structure.file-size", at: "Tenants/companero/voice.yaml:1:1"),
        Variant(name: "deeply nested YAML", tenant: "companero", edits: [.write("companero/voice.yaml", "emoji: " + String(repeating: "[", count: 63) + "↓" + String(repeating: "[", count: 5000) + String(repeating: "]", count: 5063) + "\n")],
                rule: "structure.limits"),
        Variant(name: "YAML alias bomb", tenant: "companero", edits: [.write("companero/voice.yaml", (0..<20).map { i in
            i == 0 ? "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]" : "a\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 9).joined(separator: ", ") + "]"
        }.joined(separator: "\n") + "\n")], rule: "structure.limits", at: "Tenants/companero/voice.yaml:6:40"),
        Variant(name: "undefined YAML alias", tenant: "companero", edits: [.replace("companero/voice.yaml", "emoji: sparing", "emoji: ↓*policy")], rule: "structure.syntax"),
        // Shapes
        Variant(name: "duplicate YAML key", tenant: "physio-clinic", edits: [.append("physio-clinic/locales/en.yaml", "↓nav:\n  home: Start\n")], rule: "structure.duplicate-key"),
        Variant(name: "duplicate JSON key", tenant: "physio-clinic", edits: [.replace(tokens, "    \"$type\": \"color\",", "    \"$type\": \"color\", ↓\"$type\": \"color\",")], rule: "structure.duplicate-key"),
        Variant(name: "wrong type", tenant: "urbannest", edits: [.replace("urbannest/tenant.yaml", "supported: [en, hi]", "supported: ↓en")], rule: "structure.type"),
        Variant(name: "missing required key", tenant: "sonic-walkscape", edits: [.replace(florence, "city: Florence\n", "")], rule: "structure.required",
                at: "Tenants/sonic-walkscape/tours/florence-renaissance/tour.yaml:5:1"),
        Variant(name: "unknown key", tenant: "urbannest", edits: [.replace("urbannest/tenant.yaml", "modules: [", "↓modulse: [")], rule: "structure.unknown-key"),
        Variant(name: "bad enum value", tenant: "physio-clinic", edits: [.replace(physio, "kind: brand", "kind: ↓brnad")], rule: "structure.enum"),
        Variant(name: "id that is not a slug", tenant: "sonic-walkscape", edits: [.replace(florence, "  - id: duomo", "  - id: ↓Duomo_Square")], rule: "structure.slug"),
        Variant(name: "locale id in the wrong format", tenant: "physio-clinic", edits: [.replace(physio, "default: en", "default: ↓english")], rule: "structure.format"),
        Variant(name: "number out of range", tenant: "sonic-walkscape", edits: [.replace(florence, "durationMinutes: 18", "durationMinutes: ↓0")], rule: "structure.range"),
        Variant(name: "id differs from folder", tenant: "urbannest", edits: [.replace("urbannest/tenant.yaml", "id: urbannest", "id: ↓urban-nest")], rule: "structure.id-matches-path"),
        Variant(name: "locale file not named after a locale", tenant: "physio-clinic", edits: [.write("physio-clinic/locales/english.yaml", "↓nav:\n  home: Home\n")], rule: "structure.id-matches-path"),
        Variant(name: "Android application id with a hyphen", tenant: "urbannest",
                edits: [.replace("urbannest/tenant.yaml", "android: com.example.urbannest", "android: ↓com.example.urban-nest")], rule: "structure.format"),
        Variant(name: "brand app without an Android application id", tenant: "urbannest",
                edits: [.replace("urbannest/tenant.yaml", "    android: com.example.urbannest\n", "")], rule: "structure.app-identity", at: "Tenants/urbannest/tenant.yaml:10:5"),
        Variant(name: "display name with a blank at its end", tenant: "travel-experiences",
                edits: [.replace("travel-experiences/tenant.yaml", "displayName: Voyago", "displayName: ↓\"Voyago \"")], rule: "structure.app-identity"),
        Variant(name: "duplicate tab id", tenant: "physio-clinic", edits: [.replace(physio, "{id: messages,", "{id: ↓home,")], rule: "structure.unique-id"),
        Variant(name: "a manifest in YAML and in JSON", tenant: "companero", edits: [.write("companero/voice.json", "{\"emoji\": \"none\"}\n")], rule: "structure.duplicate-manifest",
                at: "Tenants/companero/voice.yaml:1:1"),
        Variant(name: "nested locale key with a space", tenant: "physio-clinic", edits: [.replace("physio-clinic/locales/en.yaml", "  home: Home\n", "  ↓home page: Home\n")], rule: "structure.format"),
        Variant(name: "program item id used on two days", tenant: "companero-lucia", edits: [.replace(program, "id: d02-warm-up,", "id: ↓d01-morning-routine,")], rule: "structure.unique-id"),
        Variant(name: "extends cycle", tenant: "companero", edits: [.append("companero/tenant.yaml", "extends: ↓companero-lucia\n")], rule: "structure.extends-cycle"),
        Variant(name: "unknown parent", tenant: "companero-lucia", edits: [.replace("companero-lucia/tenant.yaml", "extends: companero", "extends: ↓companer")], rule: "structure.extends-unknown"),
        Variant(name: "silencing a security rule", tenant: "physio-clinic", edits: [.append(physio, "rules:\n  assets.path: ↓off\n")], rule: "structure.rule-override"),
        // References and localization
        Variant(name: "dangling lesson", tenant: "companero-lucia", edits: [.replace(program, "lesson: morning-routine}", "lesson: ↓morning-routin}")], rule: "references.library"),
        Variant(name: "unknown library category", tenant: "companero-lucia", edits: [.replace(library, "category: tools", "category: ↓toolz")], rule: "references.library"),
        Variant(name: "missing label key", tenant: "physio-clinic", edits: [.replace(physio, "label: nav.messages", "label: ↓nav.message")], rule: "references.locale-key"),
        Variant(name: "supported locale without a bundle", tenant: "physio-clinic", edits: [.replace(physio, "supported: [en, ru]", "supported: [en, ↓ru]"), .remove("physio-clinic/locales/ru.yaml")], rule: "references.locale-bundle"),
        Variant(name: "tour language not supported", tenant: "sonic-walkscape", edits: [.replace(florence, "languages: [it, en, fr]", "languages: [it, en, fr, ↓de]")], rule: "references.tour-language"),
        Variant(name: "misspelt tab colour token", tenant: "physio-clinic", edits: [.replace(physio, "color: \"{color.tab.coral}\"", "color: ↓\"{color.tab.corral}\"")], rule: "references.token"),
        Variant(name: "Italian bundle for a locale the tenant does not list", tenant: "urbannest",
                edits: [.write("urbannest/locales/it.yaml", "↓nav:\n  home: Home\n")], rule: "localization.unsupported-locale-file", strict: true),
        Variant(name: "missing locale key", tenant: "physio-clinic", edits: [.replace("physio-clinic/locales/ru.yaml", "  messages: Сообщения\n", "")], rule: "localization.missing-key",
                at: "Tenants/physio-clinic/locales/ru.yaml:2:1"),
        // ICU MessageFormat and translations: positions inside quoted, escaped and block-scalar messages
        Variant(name: "Russian plural without few", tenant: "physio-clinic",
                edits: [.replace(ruPhysio, "todayPlan: \"{count, plural, one {# упражнение на сегодня} few {# упражнения на сегодня} ", "todayPlan: \"↓{count, plural, one {# упражнение на сегодня} ")],
                rule: "localization.plural-categories"),
        Variant(name: "placeholder dropped in French", tenant: "sonic-walkscape", edits: [.replace(frWalk, "  arrived: \"Vous voici à {title}\"", "  arrived: ↓\"Vous voici\"")],
                rule: "localization.placeholder-mismatch"),
        Variant(name: "misspelt placeholder in French", tenant: "sonic-walkscape", edits: [.replace(frWalk, "Libérez {megabytes, number} Mo", "Libérez {↓megabyte, number} Mo")],
                rule: "localization.placeholder-mismatch"),
        Variant(name: "unclosed brace in a block scalar", tenant: "travel-experiences",
                edits: [.replace(travelEn, "  passengers: \"{count, plural, one {# passenger} other {# passengers}}\"\n",
                                 "  passengers: |-\n    {count, plural,\n      one {# passenger}\n      other ↓{# passengers\n")],
                rule: "localization.message-syntax"),
        Variant(name: "stray brace after escapes", tenant: "physio-clinic",
                edits: [.replace(ruPhysio, "greeting: \"Рады вас видеть, {name}\"", "greeting: \"\\u00abРады вас видеть\\u00bb, {name}↓}\"")],
                rule: "localization.message-syntax"),
        Variant(name: "select without other", tenant: "travel-experiences",
                edits: [.replace(travelEn, "status: \"{status, select, confirmed {Confirmed} pending {Pending} cancelled {Cancelled} completed {Completed} other {Unknown}}\"",
                                 "status: \"↓{status, select, confirmed {Confirmed} pending {Pending} cancelled {Cancelled} completed {Completed}}\"")],
                rule: "localization.select-other"),
        Variant(name: "mismatched markup", tenant: "physio-clinic", edits: [.replace("physio-clinic/locales/en.yaml", "  home: Home\n", "  home: \"<b>Home↓</i>\"\n")],
                rule: "localization.markup"),
        Variant(name: "tab label longer than its slot", tenant: "physio-clinic", edits: [.replace(ruPhysio, "  messages: Сообщения\n", "  messages: ↓Сообщения от врача\n")],
                rule: "localization.max-length"),
        // Voice: warnings, so these run with --strict
        Variant(name: "ты in the formal Russian of a clinic", tenant: "physio-clinic",
                edits: [.replace("physio-clinic/locales/ru.yaml", "  reviewDiary: Открыть дневник боли\n", "  reviewDiary: \"Открой ↓твой дневник боли\"\n")],
                rule: "voice.formality", strict: true),
        Variant(name: "raw status code and null in an error message", tenant: "physio-clinic",
                edits: [.replace("physio-clinic/locales/en.yaml", "  generic: \"Something went wrong. Please try again.\"", "  generic: \"Error 500: ↓null\"")],
                rule: "voice.technical-error-text"),
        Variant(name: "five-word button", tenant: "physio-clinic",
                edits: [.replace("physio-clinic/locales/en.yaml", "  retry: Try again\n", "  retry: Try again in ↓a minute\n")], rule: "voice.button-length", strict: true),
        Variant(name: "No data found as an empty state", tenant: "companero",
                edits: [.replace("companero/locales/en.yaml", "  programs: \"No programs yet. Explore the catalogue to find your first one.\"", "  programs: \"↓No data found\"")],
                rule: "voice.empty-state", strict: true),
        Variant(name: "banned term in a creator's copy", tenant: "companero",
                edits: [.replace("companero/locales/en.yaml", "  missed: \"You missed yesterday.", "  missed: \"You ↓failed yesterday.")], rule: "voice.banned-term"),
        Variant(name: "two emoji where the voice is sparing", tenant: "travel-experiences",
                edits: [.replace("travel-experiences/locales/en.yaml", "  greeting: \"Where to next, {name}?\"", "  greeting: \"Where to next, {name}? ✈️ ↓🌍\"")],
                rule: "voice.emoji", strict: true),
        Variant(name: "exclamation in an Italian error", tenant: "sonic-walkscape",
                edits: [.replace("sonic-walkscape/locales/it.yaml", "  generic: \"Qualcosa è andato storto. Riprova.\"", "  generic: \"Qualcosa è andato storto↓! Riprova.\"")],
                rule: "voice.exclamation", strict: true),
        Variant(name: "title-case heading", tenant: "travel-experiences",
                edits: [.replace("travel-experiences/locales/en.yaml", "  heading: Your profile\n", "  heading: Your ↓Profile\n")], rule: "voice.sentence-case", strict: true),
        // Branding
        Variant(name: "unknown token type", tenant: "physio-clinic", edits: [.replace(tokens, "\"$type\": \"color\"", "\"$type\": ↓\"colour\"")], rule: "branding.token-type"),
        Variant(name: "a dimension in points", tenant: "physio-clinic", edits: [.replace(tokens, "\"md\": {\"$value\": {\"value\": 12, \"unit\": \"px\"}}", "\"md\": {\"$value\": {\"value\": 12, \"unit\": ↓\"pt\"}}")], rule: "branding.token-value"),
        Variant(name: "dangling alias", tenant: "physio-clinic", edits: [.replace(tokens, "\"primary\": {\"$value\": \"{color.palette.primary}\"}", "\"primary\": {\"$value\": ↓\"{color.palete.primary}\"}")], rule: "branding.alias-unknown"),
        Variant(name: "alias cycle", tenant: "physio-clinic", edits: [.replace(tokens, "    \"$type\": \"color\",", "    \"$type\": \"color\",\n    \"loop-a\": {\"$value\": ↓\"{color.loop-b}\"}, \"loop-b\": {\"$value\": \"{color.loop-a}\"},")], rule: "branding.alias-cycle"),
        Variant(name: "alias of another type", tenant: "physio-clinic", edits: [.replace(tokens, "    \"$type\": \"color\",", "    \"$type\": \"color\", \"gap\": {\"$type\": \"dimension\", \"$value\": ↓\"{color.palette.primary}\"},")], rule: "branding.alias-type"),
        Variant(name: "a token description that is not a string", tenant: "companero", edits: [.replace("companero/branding/tokens.json",
            "\"$description\": \"BrandingOptions.colors.primary: the creator's brand colour (#007bff).\"", "\"$description\": ↓[\"BrandingOptions.colors.primary\", \"the creator's brand colour (#007bff)\"]")], rule: "branding.token-property"),
        Variant(name: "a dimension taking a bare number through $ref", tenant: "physio-clinic", edits: [.replace(tokens, "    \"$type\": \"color\",",
            "    \"$type\": \"color\", \"gap\": {\"$type\": \"dimension\", \"$ref\": ↓\"#/color/palette/primary/$value/components/0\"},")], rule: "branding.alias-type"),
        Variant(name: "raw value where a token belongs", tenant: "physio-clinic", edits: [.replace(tokens, "    \"$type\": \"color\",", "    \"$type\": \"color\", \"brand-raw\": ↓\"#0066cc\",")], rule: "branding.token-structure"),
        Variant(name: "two tokens named alike in platform files", tenant: "physio-clinic", edits: [.replace(tokens, "      \"primary\": {\"$value\": \"{color.palette.primary}\"},\n",
                                                                                                                         "      \"primary\": {\"$value\": \"{color.palette.primary}\"}, ↓\"primaryPressed\": {\"$value\": \"{color.palette.primary}\"},\n")], rule: "branding.platform-name"),
        Variant(name: "font size in points", tenant: "physio-clinic", edits: [.replace(tokens, "\"fontSize\": {\"value\": 32, \"unit\": \"px\"}", "\"fontSize\": {\"value\": 32, \"unit\": ↓\"pt\"}")], rule: "branding.token-value"),
        // Design rules (docs/branding.md, "Design rules")
        Variant(name: "haptic style that does not exist", tenant: "physio-clinic", edits: [.replace(tokens, "\"tap\": \"light\"", "\"tap\": ↓\"buzz\"")], rule: "branding.extensions"),
        Variant(name: "raw colour on a component", tenant: "physio-clinic", edits: [.replace(tokens, "\"text\": {\"$value\": \"{color.palette.white}\"}",
                                                                                              "\"text\": {\"$value\": ↓{\"colorSpace\": \"srgb\", \"components\": [1, 1, 1], \"hex\": \"#ffffff\"}}")], rule: "branding.palette-only"),
        Variant(name: "font size outside the type scale", tenant: "physio-clinic", edits: [.replace(tokens, "\"fontSize\": {\"value\": 14, \"unit\": \"px\"}", "\"fontSize\": ↓{\"value\": 15, \"unit\": \"px\"}")], rule: "branding.canonical"),
        Variant(name: "secondary text too light for its background", tenant: "physio-clinic", edits: [
            .replace(tokens, "\"secondary\": {\"$value\": \"{color.palette.gray-700}\"}", "\"secondary\": {\"$value\": \"{color.palette.gray-400}\"}"),
            .replace(tokens, "{\"foreground\": \"{color.text.secondary}\", \"background\": \"{color.background.default}\", \"usage\": \"body\"}",
                     "↓{\"foreground\": \"{color.text.secondary}\", \"background\": \"{color.background.default}\", \"usage\": \"body\"}")], rule: "branding.contrast"),
        Variant(name: "small button without its hit area", tenant: "urbannest", edits: [.replace("urbannest/branding/tokens.json",
            "\"small\": {\"$value\": {\"value\": 32, \"unit\": \"px\"}, \"$extensions\": {\"com.livery\": {\"hitArea\": \"{component.touch-target.min}\"}}}",
            "\"small\": {\"$value\": ↓{\"value\": 32, \"unit\": \"px\"}}")], rule: "branding.touch-target"),
        Variant(name: "six sections without the overflow 'More' tab", tenant: "companero",
                edits: [.replace("companero/tenant.yaml", "  tabs:\n    - {id: home,", "  tabs:\n    ↓- {id: home,"),
                        .replace("companero/tenant.yaml", "  overflow: {id: more, icon: ellipsis, label: nav.more, color: \"{color.brand.secondary}\"}\n", "")],
                rule: "branding.tabs"),
        Variant(name: "tab coloured with a palette colour instead of its identity", tenant: "physio-clinic", edits: [.replace(physio, "label: nav.home, color: \"{color.tab.emerald}\"", "label: nav.home, color: ↓\"{color.palette.emerald}\"")], rule: "branding.tabs"),
        Variant(name: "dark theme forgets a badge colour", tenant: "travel-experiences", edits: [.replace("travel-experiences/branding/dark.tokens.json",
            "        \"background\": {\"$value\": \"{color.palette.sunset}\"},\n        \"text\": {\"$value\": \"{color.palette.white}\"}\n",
            "        \"background\": {\"$value\": \"{color.palette.sunset}\"}\n")], rule: "branding.dark-coverage", at: "Tenants/travel-experiences/branding/tokens.json:216:9"),
        // The resolver document (docs/branding.md, "Composing brands × modes")
        Variant(name: "resolver document of an older version", tenant: "urbannest",
                edits: [.replace("urbannest/branding/urbannest.resolver.json", "\"version\": \"2025.10\"", "\"version\": ↓\"2025.05\"")], rule: "branding.resolver"),
        Variant(name: "misspelt modifier in the resolution order", tenant: "urbannest",
                edits: [.replace("urbannest/branding/urbannest.resolver.json", "{\"$ref\": \"#/modifiers/density\"}]", "{\"$ref\": ↓\"#/modifiers/densty\"}]")], rule: "branding.resolver"),
        Variant(name: "dark context naming a token file that is not there", tenant: "urbannest",
                edits: [.replace("urbannest/branding/urbannest.resolver.json", "\"dark\": [{\"$ref\": \"dark.tokens.json\"}]", "\"dark\": [{\"$ref\": ↓\"dark.json\"}]")], rule: "branding.resolver"),
        // Content
        Variant(name: "stop out of order", tenant: "sonic-walkscape", edits: [.replace(florence, "order: 2", "order: ↓7")], rule: "content.stop-order"),
        Variant(name: "trigger radius too small", tenant: "sonic-walkscape", edits: [.replace(florence, "triggerRadius: 120", "triggerRadius: ↓20")], rule: "content.trigger-radius"),
        Variant(name: "declared distance far from the route", tenant: "sonic-walkscape", edits: [.replace(florence, "distanceKm: 1.16", "distanceKm: ↓3.5")], rule: "content.route"),
        Variant(name: "offline tiles of another city", tenant: "sonic-walkscape",
                edits: [.replace(florence, "tiles: tiles.mbtiles", "tiles: ↓tiles.mbtiles"),
                        .copy("sonic-walkscape/tours/rome-trastevere/tiles.mbtiles", "sonic-walkscape/tours/florence-renaissance/tiles.mbtiles")], rule: "content.tile-coverage"),
        Variant(name: "program day gap", tenant: "companero-lucia", edits: [.replace(program, "      - day: 2\n", "      - day: ↓3\n")], rule: "content.program-days"),
        Variant(name: "availability window ending before it starts", tenant: "companero-lucia",
                edits: [.replace(program, "difficulty: beginner\n", "difficulty: beginner\navailableFrom: 2027-01-04T06:00:00+01:00\navailableUntil: ↓2027-01-04T06:00:00+02:00\n")],
                rule: "content.availability-window"),
        Variant(name: "schedule date that does not exist", tenant: "companero-lucia",
                edits: [.replace(library, "  - id: warm-up\n    kind: video\n", "  - id: warm-up\n    kind: video\n    availableFrom: ↓2027-02-29T00:00:00Z\n")],
                rule: "structure.format"),
        Variant(name: "schedule date without its offset", tenant: "sonic-walkscape",
                edits: [.replace(florence, "\nslug: ", "\navailableUntil: ↓2027-06-01T00:00:00\nslug: ")], rule: "structure.format"),
        Variant(name: "unknown publication status", tenant: "companero-lucia", edits: [.replace(program, "difficulty: beginner\n", "difficulty: beginner\nstatus: ↓drafted\n")],
                rule: "structure.enum"),
        Variant(name: "achievement tiers not increasing", tenant: "companero-lucia", edits: [.replace(program, "threshold: 14", "threshold: ↓5")], rule: "content.achievement-tiers"),
        Variant(name: "protected item in a public pack", tenant: "companero-lucia",
                edits: [.replace(library, "  - id: morning-routine\n", "  - id: morning-routine\n    protected: ↓true\n")], rule: "content.protected-pack-item"),
        Variant(name: "article with a PDF", tenant: "companero-lucia", edits: [.replace(library, "      en: articles/morning-routine.en.md", "      en: ↓worksheets/habit-tracker.pdf")], rule: "content.library-media-kind"),
        // Assets
        Variant(name: "missing file", tenant: "sonic-walkscape", edits: [.replace(florence, "cover: cover.jpg", "cover: ↓cover-missing.jpg")], rule: "assets.missing"),
        Variant(name: "path traversal", tenant: "sonic-walkscape", edits: [.replace(florence, "cover: cover.jpg", "cover: ↓../../../companero/assets/logo.png")], rule: "assets.path"),
        Variant(name: "absolute path", tenant: "sonic-walkscape", edits: [.replace(florence, "cover: cover.jpg", "cover: ↓/etc/passwd.jpg")], rule: "assets.path"),
        Variant(name: "symlink escaping the folder", tenant: "sonic-walkscape", edits: [.replace(florence, "cover: cover.jpg", "cover: ↓cover.jpg"),
                                                                                             .remove("sonic-walkscape/tours/florence-renaissance/cover.jpg"),
                                                                                             .symlink("sonic-walkscape/tours/florence-renaissance/cover.jpg", "/etc/hostname")], rule: "assets.symlink-escape"),
        Variant(name: "folder instead of a file", tenant: "sonic-walkscape", edits: [.replace(florence, "cover: cover.jpg", "cover: ↓audio")], rule: "assets.not-regular-file"),
        Variant(name: "PNG that is really text", tenant: "physio-clinic", edits: [.replace(physio, "logoRaster: assets/logo.png", "logoRaster: ↓assets/logo.png"), .write("physio-clinic/assets/logo.png", "this is not a picture\n")], rule: "assets.file-type"),
        Variant(name: "worksheet that is really text", tenant: "companero-lucia", edits: [.replace(library, "      en: worksheets/habit-tracker.pdf", "      en: ↓worksheets/habit-tracker.pdf"),
                                                                                                 .write("companero-lucia/library/worksheets/habit-tracker.pdf", "not a PDF\n")], rule: "assets.file-type"),
        // A decompression bomb: a JPEG cover whose frame header claims 30,000 × 30,000 pixels (the probe reads the header only).
        Variant(name: "cover claiming 900 megapixels", tenant: "sonic-walkscape", edits: [.replace(florence, "cover: cover.jpg", "cover: ↓cover.jpg"),
                                                                                            .bytes("sonic-walkscape/tours/florence-renaissance/cover.jpg",
                                                                                                   [0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x75, 0x30, 0x75, 0x30, 0x03,
                                                                                                    0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01, 0xFF, 0xD9])], rule: "assets.image-pixels"),
        Variant(name: "logo cut short in its header", tenant: "physio-clinic", edits: [.replace(physio, "logoRaster: assets/logo.png", "logoRaster: ↓assets/logo.png"),
                                                                                        .bytes("physio-clinic/assets/logo.png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])],
                rule: "assets.image-header"),
        Variant(name: "subtitle timestamp with a dot", tenant: "sonic-walkscape",
                edits: [.replace("sonic-walkscape/tours/florence-renaissance/subtitles/en/01-duomo.srt", "1\n00:00:00,000 -->", "1\n↓00:00:00.000 -->")],
                rule: "content.subtitle-syntax"),
        Variant(name: "subtitle cue ending before it starts", tenant: "companero-lucia",
                edits: [.replace("companero-lucia/library/subtitles/warm-up.en.vtt", "00:00:01.500 --> 00:00:02.800", "00:00:01.500 --> ↓00:00:01.200")],
                rule: "content.subtitle-timing"),
        Variant(name: "stop audio missing its second half", tenant: "sonic-walkscape",
                edits: [.replace(florence, "audio: {it: audio/it/01-duomo.mp3", "audio: {it: ↓audio/it/01-duomo.mp3"),
                        .truncate("sonic-walkscape/tours/florence-renaissance/audio/it/01-duomo.mp3", fraction: 0.5)], rule: "assets.media-frames"),
        Variant(name: "library item declaring twice its length", tenant: "companero-lucia",
                edits: [.replace("companero-lucia/library/library.yaml", "durationSeconds: 6", "durationSeconds: ↓12")], rule: "content.declared-duration"),
        Variant(name: "tour declaring 45 minutes for an 18-minute walk", tenant: "sonic-walkscape",
                edits: [.replace(florence, "durationMinutes: 18", "durationMinutes: ↓45")], rule: "content.declared-duration"),
        Variant(name: "subtitle cue outlasting its recording by a minute", tenant: "sonic-walkscape",
                edits: [.replace("sonic-walkscape/tours/florence-renaissance/subtitles/en/01-duomo.srt", "--> 00:00:06,289", "--> ↓00:01:06,289")],
                rule: "content.subtitle-media-length"),
        Variant(name: "right-to-left override in an English label", tenant: "travel-experiences",
                edits: [.replace(travelEn, "nav:\n", "nav:\n  promo: \"Pay ↓\u{202E}01$\"\n")], rule: "localization.bidi-controls"),
        Variant(name: "route where an image belongs", tenant: "sonic-walkscape", edits: [.replace(florence, "cover: cover.jpg", "cover: ↓route.gpx")], rule: "assets.field-type"),
        Variant(name: "GPX with an external entity", tenant: "sonic-walkscape", edits: [.replace("sonic-walkscape/tours/florence-renaissance/route.gpx", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n",
                                                                                                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n↓<!DOCTYPE gpx [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n")], rule: "assets.xml"),
        Variant(name: "SVG with a script", tenant: "physio-clinic", edits: [.replace("physio-clinic/assets/logo.svg", "</svg>", "↓<script>alert(1)</script></svg>")], rule: "assets.svg-safety"),
        // App icons and launch screens (docs/app-icons.md): located at the tenant.yaml line naming the image or token.
        Variant(name: "master icon of 512 pixels", tenant: "physio-clinic", edits: [.replace(physio, "master: assets/icon.svg", "master: ↓assets/icon.svg"),
                                                                                   .replace("physio-clinic/assets/icon.svg", "width=\"1024\" height=\"1024\"", "width=\"512\" height=\"512\"")],
                rule: "assets.app-icon-size"),
        Variant(name: "master icon with rounded transparent corners", tenant: "urbannest", edits: [.replace("urbannest/tenant.yaml", "master: assets/icon.svg", "master: ↓assets/icon.svg"),
                                                                                                  .replace("urbannest/assets/icon.svg", "<rect width=\"1024\" height=\"1024\"", "<rect width=\"1024\" height=\"1024\" rx=\"180\"")],
                rule: "assets.app-icon-opaque"),
        Variant(name: "master PNG with a header and no pixels", tenant: "travel-experiences",
                edits: [.replace("travel-experiences/tenant.yaml", "master: assets/icon.svg", "master: ↓assets/icon.png"),
                        .bytes("travel-experiences/assets/icon.png", RuleExample.pngHeader(width: 1024, height: 1024))], rule: "assets.app-icon-decode"),
        Variant(name: "launch screen colour naming no token", tenant: "physio-clinic",
                edits: [.replace(physio, "      monochrome: assets/icon-monochrome.svg\n", "      monochrome: assets/icon-monochrome.svg\n  launchScreen:\n    background: ↓\"{color.background.nope}\"\n")],
                rule: "branding.launch-screen-color"),
        Variant(name: "brand app without an icon", tenant: "companero", edits: [.replace("companero/tenant.yaml", "  icon:\n    master: assets/icon.svg\n    android:\n      foreground: assets/icon-foreground.svg\n"
                                                                                                     + "      monochrome: assets/icon-monochrome.svg\n", "")], rule: "assets.app-icon-missing", at: "Tenants/companero/tenant.yaml:10:5", strict: true),
        Variant(name: "adaptive foreground mark too large for the safe zone", tenant: "companero",
                edits: [.replace("companero/tenant.yaml", "foreground: assets/icon-foreground.svg", "foreground: ↓assets/icon-foreground.svg"),
                        .replace("companero/assets/icon-foreground.svg", "r=\"14\"", "r=\"30\"")], rule: "assets.app-icon-safe-zone", strict: true),
        // Store listings
        Variant(name: "store.yaml in a creator's folder", tenant: "companero-lucia", edits: [.write("companero-lucia/store.yaml", "↓urls:\n  privacy: https://lucia.example/privacy\n")],
                rule: "store.required-text"),
        Variant(name: "misspelt store subtitle key", tenant: "travel-experiences", edits: [.replace(travelEn, "  subtitle: Flights", "  ↓subtitel: Flights")], rule: "store.unknown-key"),
        Variant(name: "release notes with an ICU argument", tenant: "sonic-walkscape",
                edits: [.replace(frWalk, "  releaseNotes: Des cartes hors ligne plus nettes à chaque niveau de zoom.", "  releaseNotes: ↓\"{n} cartes hors ligne plus nettes\"")], rule: "store.plain-text"),
        Variant(name: "35-character App Store subtitle", tenant: "urbannest",
                edits: [.replace("urbannest/locales/en.yaml", "  subtitle: Trusted pros at your door", "  subtitle: ↓Trusted professionals at your door")], rule: "store.text-length"),
        Variant(name: "keyword repeated in another case", tenant: "companero",
                edits: [.replace("companero/locales/en.yaml", "keywords: coaching,habits,", "keywords: coaching,habits,↓Coaching,")], rule: "store.keywords"),
        Variant(name: "support page over http", tenant: "sonic-walkscape",
                edits: [.replace("sonic-walkscape/store.yaml", "support: https://walkscape.example/support", "support: ↓http://walkscape.example/support")], rule: "store.urls"),
        Variant(name: "App Store code for Google Play", tenant: "physio-clinic", edits: [.append("physio-clinic/store.yaml", "locales:\n  googlePlay: {ru: ↓ru}\n")], rule: "store.locale"),
    ]

    private func copySamples() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("livery-corpus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: LiveryProcess.packageRoot.appendingPathComponent("Tenants"), to: root.appendingPathComponent("Tenants"))
        return root
    }

    /// Applies the edits; returns where the `↓` marker stood.
    private func apply(_ edits: [Edit], in tenants: URL) throws -> String? {
        var marker: String?
        func writeMarked(_ path: String, _ text: String) throws {
            if let range = text.range(of: "↓") {
                let before = text[..<range.lowerBound]
                let line = before.split(separator: "\n", omittingEmptySubsequences: false).count
                let column = (before.split(separator: "\n", omittingEmptySubsequences: false).last?.unicodeScalars.count ?? 0) + 1
                marker = "Tenants/\(path):\(line):\(column)"
            }
            try Data(text.replacingOccurrences(of: "↓", with: "").utf8).write(to: tenants.appendingPathComponent(path))
        }
        for edit in edits {
            switch edit {
            case .replace(let path, let old, let new):
                let text = try String(contentsOf: tenants.appendingPathComponent(path), encoding: .utf8)
                // A sample that no longer holds the text fails the test: a skip would hide every variant.
                guard let range = text.range(of: old) else { throw SampleDrift(description: "sample drifted: '\(old)' not in \(path)") }
                try writeMarked(path, text.replacingCharacters(in: range, with: new))
            case .write(let path, let text):
                try writeMarked(path, text)
            case .append(let path, let addition):
                try writeMarked(path, try String(contentsOf: tenants.appendingPathComponent(path), encoding: .utf8) + addition)
            case .bytes(let path, let bytes):
                try Data(bytes).write(to: tenants.appendingPathComponent(path))
            case .symlink(let path, let target):
                try FileManager.default.createSymbolicLink(atPath: tenants.appendingPathComponent(path).path, withDestinationPath: target)
            case .remove(let path):
                try FileManager.default.removeItem(at: tenants.appendingPathComponent(path))
            case .copy(let from, let to):
                try FileManager.default.removeItem(at: tenants.appendingPathComponent(to))
                try FileManager.default.copyItem(at: tenants.appendingPathComponent(from), to: tenants.appendingPathComponent(to))
            case .generate(let path, let make):
                try Data(make().utf8).write(to: tenants.appendingPathComponent(path))
            case .truncate(let path, let fraction):
                let url = tenants.appendingPathComponent(path)
                let data = try Data(contentsOf: url)
                try data.prefix(Int(Double(data.count) * fraction)).write(to: url)
            }
        }
        return marker
    }

    func testCorpusHasAtLeastFortyVariantsCoveringEveryErrorRule() {
        XCTAssertGreaterThanOrEqual(Self.variants.count, 40)
        let covered = Set(Self.variants.map { RuleID($0.rule) })
        let errorRules = RuleSet.all.descriptions.filter { $0.severity == .error }.map(\.id)
        XCTAssertEqual(Set(errorRules).subtracting(covered), [], "error rules without a broken sample variant")
    }

    func testSamplesAreCleanBeforeBreaking() throws {
        let output = try LiveryProcess.run(["validate", "--strict", "Tenants"])
        XCTAssertEqual(output.status, 0, output.stdout)
    }

    func testEveryBrokenVariantFailsAtTheRightPlace() throws {
        var peak: Int = 0
        for variant in Self.variants {
            let root = try copySamples()
            defer { try? FileManager.default.removeItem(at: root) }
            let marker = try apply(variant.edits, in: root.appendingPathComponent("Tenants"))
            let expected = try XCTUnwrap(variant.at ?? marker, "\(variant.name): no expected location")
            let (output, peakKiB) = try LiveryProcess.measured(["validate", "--format", "json"] + (variant.strict ? ["--strict"] : []) + ["Tenants/\(variant.tenant)"], in: root)
            XCTAssertEqual(output.status, 1, "\(variant.name): exit \(output.status) \(output.stderr)")
            let report = try XCTUnwrap(try? JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any], "\(variant.name): output is not JSON")
            let found = (report["diagnostics"] as? [[String: Any]] ?? []).filter { $0["rule"] as? String == variant.rule }
            let places = found.map { "\($0["file"] ?? ""):\($0["line"] ?? 0):\($0["column"] ?? 0)" }
            XCTAssertTrue(places.contains(expected), "\(variant.name): expected \(variant.rule) at \(expected), found \(places) in \(output.stdout.prefix(600))")
            peak = max(peak, peakKiB)
        }
        // Memory stays bounded whatever the input (50 MB files, alias bombs): each validate run's own peak, in KiB.
        XCTAssertLessThan(peak, 256 * 1024, "a validate run used \(peak / 1024) MiB")
    }
}
