import LiveryDiagnostics
import LiveryLoad
import LiveryMedia
import LiveryResolve

struct IDMatchesPathRule: Rule {
    static let description = RuleDescription(
        id: "structure.id-matches-path", name: "Id matches its path", family: .structure,
        rationale: "A tenant's id is its folder name, a program's its file name, a tour's its folder name, a locale bundle's file name is a locale: one name everywhere.",
        messages: [declare(Message.differs), declare(Message.badLocaleFile)],
        triggering: [
            RuleExample("tenant id differs from the folder", files: ["example/tenant.yaml": RuleExample.base["example/tenant.yaml"]!.replacingOccurrences(of: "id: example", with: "id: ↓exemple")]),
            RuleExample("locale file that is not a locale", files: ["example/locales/english.yaml": "↓nav:\n  home: Home\n"]),
        ],
        nonTriggering: [RuleExample("the minimal tenant")])

    enum Message {
        static func differs(what: String, id: String, place: String, expected: String) -> DiagnosticMessage {
            DiagnosticMessage("differs", "\(what) id '\(id)' differs from its \(place) name '\(expected)'")
        }
        static func badLocaleFile(path: String) -> DiagnosticMessage {
            DiagnosticMessage("bad-locale-file", "locale bundle '\(path)' is not named after a locale id")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        func expect(_ manifest: Manifest, equals expected: String, what: String) {
            guard let node = manifest.node["id"], let id = node.string, id != expected else { return }
            diagnostics.append(Diagnostic(.error, Message.differs(what: what, id: id, place: what == "program" ? "file" : "folder", expected: expected), at: node.location,
                                          rule: Self.description.id, hint: "rename one of them so both say the same"))
        }
        for manifest in context.source.manifests {
            switch manifest.kind {
            case .tenant: expect(manifest, equals: context.source.id, what: "tenant")
            case .program: expect(manifest, equals: manifest.stem, what: "program")
            case .tour: expect(manifest, equals: String(manifest.directory.split(separator: "/").last ?? ""), what: "tour")
            case .locale where !StringFormat.locale.matches(manifest.stem):
                diagnostics.append(Diagnostic(.error, Message.badLocaleFile(path: manifest.relativePath), at: manifest.node.location,
                                              rule: Self.description.id, hint: "name it after the locale, e.g. locales/en.yaml or locales/pt-BR.yaml"))
            default: break
            }
        }
        return diagnostics
    }
}

struct UniqueIDRule: Rule {
    static let description = RuleDescription(
        id: "structure.unique-id", name: "Unique ids", family: .structure,
        rationale: "Ids in one list (tabs, roles, stops, achievements…) and item ids across a whole program are unique, or apps show and save the wrong thing.",
        messages: [declare(Message.inList), declare(Message.inProgram)],
        triggering: [
            RuleExample("two tabs with one id", files: ["example/tenant.yaml": RuleExample.base["example/tenant.yaml"]!.replacingOccurrences(of: "{id: profile", with: "{id: ↓home")]),
            RuleExample("one item id on two days", files: ProgramExample.files(lesson: "morning-routine").mapValues { $0.replacingOccurrences(of: "id: read-2,", with: "id: ↓read-1,") }),
        ],
        nonTriggering: [RuleExample("the minimal tenant")])

    enum Message {
        static func inList(id: String, line: Int, column: Int) -> DiagnosticMessage {
            DiagnosticMessage("twice-in-list", "id '\(id)' is used twice in this list (first at line \(line), column \(column))")
        }
        static func inProgram(id: String, line: Int, column: Int) -> DiagnosticMessage {
            DiagnosticMessage("twice-in-program", "item id '\(id)' is used twice in the program (first at line \(line), column \(column))")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for manifest in context.source.manifests where manifest.kind != .branding && manifest.kind != .locale {
            manifest.node.walk { node in
                guard let items = node.items else { return }
                var seen: [String: SourceLocation] = [:]
                for item in items {
                    guard let idNode = item["id"], let id = idNode.string else { continue }
                    if let first = seen[id] {
                        diagnostics.append(Diagnostic(.error, Message.inList(id: id, line: first.line, column: first.column),
                                                      at: idNode.location, rule: Self.description.id))
                    } else {
                        seen[id] = idNode.location
                    }
                }
            }
        }
        // Program item ids are unique across the whole program, not only within one day.
        for program in context.source.manifests(.program) {
            var seen: [String: SourceLocation] = [:]
            for week in program.node["weeks"]?.items ?? [] {
                for day in week["days"]?.items ?? [] {
                    for item in day["items"]?.items ?? [] {
                        guard let idNode = item["id"], let id = idNode.string else { continue }
                        if let first = seen[id] {
                            // Duplicates within one day are already reported as duplicates in one list.
                            let sameDay = day["items"]?.items?.contains { $0["id"]?.location == first } == true
                            if !sameDay {
                                diagnostics.append(Diagnostic(.error, Message.inProgram(id: id, line: first.line, column: first.column),
                                                              at: idNode.location, rule: Self.description.id))
                            }
                        } else {
                            seen[id] = idNode.location
                        }
                    }
                }
            }
        }
        return diagnostics
    }
}

/// The library items of a tenant and its ancestors, by id.
func libraryItems(_ tenant: ResolvedTenant) -> [String: Node] {
    var items: [String: Node] = [:]
    for source in tenant.ancestors + [tenant.source] {
        for manifest in source.manifests(.library) {
            for item in manifest.node["items"]?.items ?? [] {
                if let id = item["id"]?.string { items[id] = item }
            }
        }
    }
    return items
}

struct LibraryReferenceRule: Rule {
    static let description = RuleDescription(
        id: "references.library", name: "Library references", family: .references,
        rationale: "Program lessons, library categories and packs point at library entries that exist.",
        messages: [declare(Message.notInLibrary), declare(Message.noItem), declare(Message.unknownCategory)],
        triggering: [
            RuleExample("lesson of a missing item", files: ProgramExample.files(lesson: "↓morning-routin")),
            RuleExample("a lesson without its library item", files: ProgramExample.files(lesson: "morning-routine").mapValues {
                $0.replacingOccurrences(of: "- {type: lesson, id: read-1, lesson: morning-routine}", with: "- ↓{type: lesson, id: read-1}") }),
            RuleExample("an item in an undeclared category", files: ProgramExample.files(lesson: "morning-routine").mapValues {
                $0.replacingOccurrences(of: "    kind: article\n", with: "    kind: article\n    category: ↓sleep\n") }),
        ],
        nonTriggering: [RuleExample("lesson of an existing item", files: ProgramExample.files(lesson: "morning-routine"))])

    enum Message {
        static func notInLibrary(what: String, id: String) -> DiagnosticMessage {
            DiagnosticMessage("not-in-library", "\(what) '\(id)' is not in the library")
        }
        static func noItem(lesson: String) -> DiagnosticMessage {
            DiagnosticMessage("no-item", "lesson '\(lesson)' names no library item")
        }
        static func unknownCategory(category: String) -> DiagnosticMessage {
            DiagnosticMessage("unknown-category", "category '\(category)' is not declared under categories")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        let items = libraryItems(context.tenant)
        var diagnostics: [Diagnostic] = []
        func report(_ node: Node, _ what: String, among candidates: some Sequence<String>) {
            diagnostics.append(Diagnostic(.error, Message.notInLibrary(what: what, id: node.string ?? ""), at: node.location, rule: Self.description.id,
                                          hint: DidYouMean.hint(for: node.string ?? "", among: candidates), fixes: DidYouMean.fix(for: node, among: candidates)))
        }
        for program in context.source.manifests(.program) {
            for week in program.node["weeks"]?.items ?? [] {
                for day in week["days"]?.items ?? [] {
                    for item in day["items"]?.items ?? [] where item["type"]?.string == "lesson" {
                        guard let lesson = item["lesson"] else {
                            diagnostics.append(Diagnostic(.error, Message.noItem(lesson: item["id"]?.string ?? ""), at: item.location,
                                                          rule: Self.description.id, hint: "add `lesson: <library item id>`"))
                            continue
                        }
                        if let id = lesson.string, items[id] == nil { report(lesson, "lesson", among: items.keys) }
                    }
                }
            }
        }
        for library in context.source.manifests(.library) {
            let categories = Set((library.node["categories"]?.items ?? []).compactMap { $0["id"]?.string })
            for item in library.node["items"]?.items ?? [] {
                if let category = item["category"], let id = category.string, !categories.contains(id) {
                    diagnostics.append(Diagnostic(.error, Message.unknownCategory(category: id), at: category.location, rule: Self.description.id,
                                                  hint: DidYouMean.hint(for: id, among: categories), fixes: DidYouMean.fix(for: category, among: categories)))
                }
            }
            for pack in library.node["packs"]?.items ?? [] {
                for member in pack["items"]?.items ?? [] where member.string.map({ items[$0] == nil }) == true {
                    report(member, "pack item", among: items.keys)
                }
            }
        }
        return diagnostics
    }
}

/// Example workspaces with a library and a program.
enum ProgramExample {
    static func files(lesson: String, days: [Int] = [1, 2], streaks: [Int] = [7, 14]) -> [String: String] {
        let dayText = days.map { day in
            "      - day: \(day)\n        items:\n          - {type: lesson, id: read-\(day), lesson: \(day == days.first ? lesson : "morning-routine")}\n"
        }.joined()
        let achievements = streaks.enumerated().map { index, threshold in
            "  - {id: streak-\(index), type: streak, threshold: \(index == 1 && threshold < streaks[0] ? "↓" : "")\(threshold), title: {en: Streak}}\n"
        }.joined()
        return [
            "example/library/library.yaml": """
                items:
                  - id: morning-routine
                    kind: article
                    title: {en: Morning routine}
                    media: {en: morning.md}

                """,
            "example/library/morning.md": "# Morning routine\n\nMove a little every morning.\n",
            "example/programs/starter.yaml": """
                id: starter
                title: {en: Starter}
                durationDays: \(days.count)
                difficulty: beginner
                weeks:
                  - week: 1
                    days:
                \(dayText)achievements:
                \(achievements)
                """,
        ]
    }
}

/// Every tab of the merged tenant manifest (default navigation and every role's, with their overflow 'More' tabs).
func tabs(of tenant: Node?) -> [Node] {
    var tabs = tenant?["navigation"]?["tabs"]?.items ?? []
    if let overflow = tenant?["navigation"]?["overflow"] { tabs.append(overflow) }
    for role in tenant?["roles"]?.items ?? [] {
        tabs += role["tabs"]?.items ?? []
        if let overflow = role["overflow"] { tabs.append(overflow) }
    }
    return tabs
}

struct LocaleKeyReferenceRule: Rule {
    static let description = RuleDescription(
        id: "references.locale-key", name: "Locale key references", family: .references,
        rationale: "Tab and role labels and welcome messages name keys that exist in the default locale.",
        messages: [declare(Message.unknownKey)],
        triggering: [RuleExample("tab label key missing", files: ["example/tenant.yaml": RuleExample.base["example/tenant.yaml"]!.replacingOccurrences(of: "label: nav.profile", with: "label: ↓nav.profil")])],
        nonTriggering: [RuleExample("the minimal tenant")])

    enum Message {
        static func unknownKey(key: String, locale: String) -> DiagnosticMessage {
            DiagnosticMessage("unknown-key", "key '\(key)' is not in the default locale '\(locale)'")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        guard let locale = context.tenant.defaultLocale, let bundle = context.tenant.locales[locale] else { return [] }
        let keys = bundle.keys
        var references: [Node] = tabs(of: context.tenant.tenant).compactMap { $0["label"] }
        references += (context.tenant.tenant?["roles"]?.items ?? []).compactMap { $0["label"] }
        references += context.tenant.voice?["welcome"]?.items ?? []
        let prefix = context.source.displayRoot + "/"
        return references.compactMap { node in
            guard node.location.file.hasPrefix(prefix), let key = node.string, !keys.contains(key) else { return nil }
            return Diagnostic(.error, Message.unknownKey(key: key, locale: locale), at: node.location, rule: Self.description.id,
                              hint: DidYouMean.hint(for: key, among: keys) ?? "add it to \(bundle.file)", related: RefusedMessage.note(key, in: bundle),
                              fixes: DidYouMean.fix(for: node, among: keys))
        }
    }
}

struct LocaleBundleRule: Rule {
    static let description = RuleDescription(
        id: "references.locale-bundle", name: "Locale bundles", family: .references,
        rationale: "The default locale is supported and every supported locale has a bundle, so no app falls back to keys.",
        messages: [declare(Message.defaultUnsupported), declare(Message.noBundle)],
        triggering: [
            RuleExample("supported locale without a bundle", files: ["example/tenant.yaml": RuleExample.base["example/tenant.yaml"]!.replacingOccurrences(of: "supported: [en]", with: "supported: [en, ↓ru]")]),
            RuleExample("default locale not supported", files: ["example/tenant.yaml": RuleExample.base["example/tenant.yaml"]!.replacingOccurrences(of: "default: en\n  supported: [en]", with: "default: ↓fr\n  supported: [en]")]),
        ],
        nonTriggering: [RuleExample("the minimal tenant")])

    enum Message {
        static func defaultUnsupported(locale: String) -> DiagnosticMessage {
            DiagnosticMessage("default-unsupported", "default locale '\(locale)' is not in the supported locales")
        }
        static func noBundle(locale: String) -> DiagnosticMessage {
            DiagnosticMessage("no-bundle", "supported locale '\(locale)' has no bundle")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        guard let locales = context.tenant.tenant?["locales"] else { return [] }
        var diagnostics: [Diagnostic] = []
        let supported = locales["supported"]?.items ?? []
        let ids = supported.compactMap(\.string)
        if let defaultNode = locales["default"], let id = defaultNode.string, !ids.contains(id) {
            diagnostics.append(Diagnostic(.error, Message.defaultUnsupported(locale: id), at: defaultNode.location, rule: Self.description.id,
                                          hint: "add '\(id)' to supported"))
        }
        for node in supported {
            guard let id = node.string, context.tenant.locales[id] == nil else { continue }
            diagnostics.append(Diagnostic(.error, Message.noBundle(locale: id), at: node.location, rule: Self.description.id,
                                          hint: "add locales/\(id).yaml"))
        }
        return diagnostics
    }
}

struct TourLanguageRule: Rule {
    static let description = RuleDescription(
        id: "references.tour-language", name: "Tour languages", family: .references,
        rationale: "A tour's languages are locales the tenant supports, and every stop has audio in each of them.",
        messages: [declare(Message.unsupported), declare(Message.noAudio)],
        triggering: [
            RuleExample("language the tenant does not support (and so no stop has audio in it)", files: TourExample.files(languages: "[en, ↓de]", marker: true)),
            RuleExample("stop without audio in a language", files: TourExample.files(languages: "[en]", audio: "{}", marker: true)),
        ],
        nonTriggering: [RuleExample("English tour", files: TourExample.files(languages: "[en]"), binaryFiles: TourExample.media)])

    enum Message {
        static func unsupported(language: String) -> DiagnosticMessage {
            DiagnosticMessage("unsupported-language", "tour language '\(language)' is not a supported locale of the tenant")
        }
        static func noAudio(stop: String, language: String) -> DiagnosticMessage {
            DiagnosticMessage("no-audio", "stop '\(stop)' has no audio in '\(language)'")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        let supported = Set(context.tenant.supportedLocales)
        var diagnostics: [Diagnostic] = []
        for tour in context.source.manifests(.tour) {
            let languages = (tour.node["languages"]?.items ?? [])
            for language in languages {
                guard let id = language.string, !supported.contains(id) else { continue }
                diagnostics.append(Diagnostic(.error, Message.unsupported(language: id), at: language.location, rule: Self.description.id,
                                              hint: "add '\(id)' to locales.supported in the tenant manifest, with a locale bundle"))
            }
            for stop in tour.node["stops"]?.items ?? [] {
                let audio = Set((stop["audio"]?.entries ?? []).map(\.key))
                for id in languages.compactMap(\.string) where !audio.contains(id) {
                    diagnostics.append(Diagnostic(.error, Message.noAudio(stop: stop["id"]?.string ?? "", language: id), at: stop["audio"]?.location ?? stop.location,
                                                  rule: Self.description.id))
                }
            }
        }
        return diagnostics
    }
}

/// Example workspaces with one tour.
enum TourExample {
    static let media: [String: [UInt8]] = [
        "example/tours/walk/cover.png": RuleExample.pngHeader(width: 1600, height: 900),
        "example/tours/walk/en.mp3": MediaSamples.mp3(seconds: 8),
    ]

    static func files(languages: String, audio: String = "{en: en.mp3}", marker: Bool = false, radius: String = "150", orders: [String] = ["1", "2"]) -> [String: String] {
        let stops = orders.enumerated().map { index, order in
            """
              - id: stop-\(index + 1)
                order: \(order)
                title: {en: Stop \(index + 1)}
                latitude: 43.77
                longitude: 11.25
                triggerRadius: \(index == 0 ? radius : "150")
                audio: \(marker ? "↓" : "")\(audio)

            """
        }.joined()
        return [
            "example/tours/walk/tour.yaml": """
                id: walk
                slug: walk
                title: {en: Walk}
                city: Florence
                durationMinutes: 18
                distanceKm: 1.2
                languages: \(languages)
                cover: cover.png
                route: route.gpx
                stops:
                \(stops)
                """,
            "example/tours/walk/route.gpx": route(points: [(43.77, 11.25), (43.775, 11.25), (43.78, 11.25)]),
        ]
    }

    /// `marker` marks every stop's audio.
    /// The one-language example with a marker at the first stop's audio file (where a finding about the file is reported).
    static func markingFirstAudio() -> [String: String] {
        var files = files(languages: "[en]")
        let yaml = files["example/tours/walk/tour.yaml"]!
        if let range = yaml.range(of: "{en: en.mp3}") { files["example/tours/walk/tour.yaml"] = yaml.replacingCharacters(in: range, with: "{en: ↓en.mp3}") }
        return files
    }

    /// A GPX 1.1 track through `points` (about 1.2 km for the default example).
    static func route(points: [(Double, Double)]) -> String {
        let track = points.map { "<trkpt lat=\"\($0.0)\" lon=\"\($0.1)\"/>" }.joined(separator: "\n")
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"example\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>\n\(track)\n</trkseg></trk></gpx>\n"
    }
}

struct TokenReferenceRule: Rule {
    static let description = RuleDescription(
        id: "references.token", name: "Token references", family: .references,
        rationale: "Token references in manifests (tab identity colours) name tokens that exist in the tenant's branding.",
        messages: [declare(Message.unknownToken)],
        triggering: [RuleExample("misspelt tab colour", files: TokenExample.valid.merging([
            "example/tenant.yaml": TokenExample.valid["example/tenant.yaml"]!.replacingOccurrences(of: "label: nav.home}", with: "label: nav.home, color: ↓\"{color.primry}\"}"),
        ]) { _, new in new })],
        nonTriggering: [RuleExample("existing tab colour", files: TokenExample.valid.merging([
            "example/tenant.yaml": TokenExample.valid["example/tenant.yaml"]!.replacingOccurrences(of: "label: nav.home}", with: "label: nav.home, color: \"{color.primary}\"}"),
        ]) { _, new in new })])

    enum Message {
        static func unknownToken(tab: String, path: String) -> DiagnosticMessage {
            DiagnosticMessage("unknown-token", "tab '\(tab)' uses token '{\(path)}', which the tenant's branding does not define")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        let tokens = context.tenant.tokens["default"]?.tokens ?? [:]
        let prefix = context.source.displayRoot + "/"
        return tabs(of: context.tenant.tenant).compactMap { tab -> Diagnostic? in
            guard let color = tab["color"], color.location.file.hasPrefix(prefix), let text = color.string,
                  text.hasPrefix("{"), text.hasSuffix("}") else { return nil }
            let path = String(text.dropFirst().dropLast())
            guard tokens[path] == nil else { return nil }
            return Diagnostic(.error, Message.unknownToken(tab: tab["id"]?.string ?? "", path: path), at: color.location,
                              rule: Self.description.id, hint: DidYouMean.suggestion(for: path, among: tokens.keys).map { "did you mean '{\($0)}'?" },
                              fixes: DidYouMean.suggestion(for: path, among: tokens.keys).flatMap { Fix.replacing(color, with: "{\($0)}") }.map { [$0] } ?? [])
        }
    }
}
