import LiveryDiagnostics
import LiveryLoad
import LiveryResolve

struct StopOrderRule: Rule {
    static let description = RuleDescription(
        id: "content.stop-order", name: "Stop order", family: .content,
        rationale: "Stops are numbered 1, 2, 3… in the order they are listed, so sequential unlocking works.",
        messages: [declare(Message.misordered)],
        triggering: [RuleExample("a gap in the order", files: TourExample.files(languages: "[en]", orders: ["1", "↓3"]), binaryFiles: TourExample.media)],
        nonTriggering: [RuleExample("1, 2", files: TourExample.files(languages: "[en]"), binaryFiles: TourExample.media)])

    enum Message {
        static func misordered(stop: String, position: Int, order: String) -> DiagnosticMessage {
            DiagnosticMessage("misordered", "stop '\(stop)' is listed \(position). but has order \(order)")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for tour in context.source.manifests(.tour) {
            for (index, stop) in (tour.node["stops"]?.items ?? []).enumerated() {
                guard let order = stop["order"], let value = order.int, value != index + 1 else { continue }
                diagnostics.append(Diagnostic(.error, Message.misordered(stop: stop["id"]?.string ?? "", position: index + 1, order: "\(value)"), at: order.location,
                                              rule: Self.description.id, hint: "number stops 1, 2, 3… in the order they are walked"))
            }
        }
        return diagnostics
    }
}

struct TriggerRadiusRule: Rule {
    static let description = RuleDescription(
        id: "content.trigger-radius", name: "Trigger radius", family: .content,
        rationale: "GPS is too coarse below 100 m and stops blur together above 300 m.",
        messages: [declare(Message.outOfRange)],
        triggering: [RuleExample("50 m", files: TourExample.files(languages: "[en]", radius: "↓50"), binaryFiles: TourExample.media)],
        nonTriggering: [RuleExample("150 m", files: TourExample.files(languages: "[en]"), binaryFiles: TourExample.media)])

    enum Message {
        static func outOfRange(radius: String, stop: String) -> DiagnosticMessage {
            DiagnosticMessage("out-of-range", "trigger radius \(radius) m of stop '\(stop)' is outside 100–300 m")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        context.source.manifests(.tour).flatMap { tour in
            (tour.node["stops"]?.items ?? []).compactMap { stop -> Diagnostic? in
                guard let radius = stop["triggerRadius"], let value = radius.int, !(100...300).contains(value) else { return nil }
                return Diagnostic(.error, Message.outOfRange(radius: "\(value)", stop: stop["id"]?.string ?? ""), at: radius.location,
                                  rule: Self.description.id)
            }
        }
    }
}

struct ProgramDaysRule: Rule {
    static let description = RuleDescription(
        id: "content.program-days", name: "Contiguous program days", family: .content,
        rationale: "Weeks and days are numbered without gaps and the days add up to the program's duration.",
        messages: [declare(Message.weekNumber), declare(Message.dayNumber), declare(Message.duration)],
        triggering: [RuleExample("a missing day", files: ProgramExample.files(lesson: "morning-routine", days: [1, 3]).mapValues { $0.replacingOccurrences(of: "- day: 3", with: "- day: ↓3") }),
                     RuleExample("a first week numbered 2", files: ProgramExample.files(lesson: "morning-routine").mapValues { $0.replacingOccurrences(of: "- week: 1", with: "- week: ↓2") }),
                     RuleExample("a duration longer than the days", files: ProgramExample.files(lesson: "morning-routine").mapValues {
                         $0.replacingOccurrences(of: "durationDays: 2", with: "durationDays: ↓3") })],
        nonTriggering: [RuleExample("days 1 and 2", files: ProgramExample.files(lesson: "morning-routine"))])

    enum Message {
        static func weekNumber(week: String, position: Int) -> DiagnosticMessage {
            DiagnosticMessage("week-number", "week \(week) is listed as week \(position)")
        }
        static func dayNumber(expected: String, found: String) -> DiagnosticMessage {
            DiagnosticMessage("day-number", "expected day \(expected) here, found day \(found)")
        }
        static func duration(declared: String, days: String) -> DiagnosticMessage {
            DiagnosticMessage("duration", "durationDays is \(declared), but the weeks hold \(days) days")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for program in context.source.manifests(.program) {
            let before = diagnostics.count
            var expectedDay = 1
            for (weekIndex, week) in (program.node["weeks"]?.items ?? []).enumerated() {
                if let number = week["week"], let value = number.int, value != weekIndex + 1 {
                    diagnostics.append(Diagnostic(.error, Message.weekNumber(week: "\(value)", position: weekIndex + 1), at: number.location, rule: Self.description.id))
                }
                for day in week["days"]?.items ?? [] {
                    guard let number = day["day"], let value = number.int else { continue }
                    if value != expectedDay {
                        diagnostics.append(Diagnostic(.error, Message.dayNumber(expected: "\(expectedDay)", found: "\(value)"), at: number.location, rule: Self.description.id,
                                                      hint: "days are numbered through the whole program without gaps"))
                    }
                    expectedDay = value + 1
                }
            }
            if let duration = program.node["durationDays"], let value = duration.int, value != expectedDay - 1, diagnostics.count == before {
                diagnostics.append(Diagnostic(.error, Message.duration(declared: "\(value)", days: "\(expectedDay - 1)"), at: duration.location, rule: Self.description.id))
            }
        }
        return diagnostics
    }
}

struct AchievementTiersRule: Rule {
    static let description = RuleDescription(
        id: "content.achievement-tiers", name: "Increasing achievement tiers", family: .content,
        rationale: "Tiers of one kind (streaks, milestones, thresholds of one metric) grow in the order listed (7, 14, 30, 90), or a later tier is earned first.",
        messages: [declare(Message.notAscending)],
        triggering: [RuleExample("14 before 7", files: ProgramExample.files(lesson: "morning-routine", streaks: [14, 7]))],
        nonTriggering: [
            RuleExample("7 then 14", files: ProgramExample.files(lesson: "morning-routine")),
            RuleExample("thresholds of different metrics", files: ProgramExample.files(lesson: "morning-routine").mapValues {
                $0.replacingOccurrences(of: "{id: streak-0, type: streak, threshold: 7,", with: "{id: walk, type: threshold, metric: minutes, threshold: 150,")
                  .replacingOccurrences(of: "{id: streak-1, type: streak, threshold: 14,", with: "{id: habits, type: threshold, metric: habits, threshold: 50,")
            }),
        ])

    enum Message {
        static func notAscending(type: String, value: String, previous: String) -> DiagnosticMessage {
            DiagnosticMessage("not-ascending", "\(type) tier \(value) is not above the previous tier \(previous)")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for program in context.source.manifests(.program) {
            var last: [String: Int] = [:]
            for achievement in program.node["achievements"]?.items ?? [] {
                guard let kind = achievement["type"]?.string, let threshold = achievement["threshold"], let value = threshold.int else { continue }
                let type = kind == "threshold" ? "threshold of \(achievement["metric"]?.string ?? "points")" : kind
                if let previous = last[type], value <= previous {
                    diagnostics.append(Diagnostic(.error, Message.notAscending(type: "\(type)", value: "\(value)", previous: "\(previous)"), at: threshold.location, rule: Self.description.id))
                }
                last[type] = value
            }
        }
        return diagnostics
    }
}

struct LibraryMediaKindRule: Rule {
    static let description = RuleDescription(
        id: "content.library-media-kind", name: "Library media kind", family: .content,
        rationale: "An item's files are of its declared kind: articles Markdown, video MP4, audio MP3, AAC (M4A) or WAV, worksheets PDF.",
        messages: [declare(Message.wrongKind)],
        triggering: [RuleExample("article with a PDF", files: [
            "example/library/library.yaml": "items:\n  - id: guide\n    kind: article\n    title: {en: Guide}\n    media: {en: ↓guide.pdf}\n",
            "example/library/guide.pdf": "%PDF-1.4\n%%EOF\n",
        ])],
        nonTriggering: [RuleExample("worksheet with a PDF", files: [
            "example/library/library.yaml": "items:\n  - id: guide\n    kind: worksheet\n    title: {en: Guide}\n    media: {en: guide.pdf}\n",
            "example/library/guide.pdf": "%PDF-1.4\n%%EOF\n",
        ])])

    static let expected: [String: [FileType]] = ["article": [.markdown], "video": [.mp4], "audio": [.mp3, .mp4, .wav], "worksheet": [.pdf]]

    enum Message {
        static func wrongKind(kind: String, item: String, type: String, kinds: String) -> DiagnosticMessage {
            DiagnosticMessage("wrong-kind", "\(kind) '\(item)' has a \(type) file; \(kind)s are \(kinds)")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for library in context.source.manifests(.library) {
            for item in library.node["items"]?.items ?? [] {
                guard let kind = item["kind"]?.string, let expected = Self.expected[kind] else { continue }
                for entry in item["media"]?.entries ?? [] {
                    guard let path = entry.value.string, let type = FileType(extensionOf: path), !expected.contains(type) else { continue }
                    let kinds = expected.map { $0 == .mp4 && kind == "audio" ? "M4A" : $0.rawValue.uppercased() }.joined(separator: ", ")
                    diagnostics.append(Diagnostic(.error, Message.wrongKind(kind: "\(kind)", item: item["id"]?.string ?? "", type: type.rawValue.uppercased(), kinds: "\(kinds)"),
                                                  at: entry.value.location, rule: Self.description.id))
                }
            }
        }
        return diagnostics
    }
}

/// A pack is one bundle, so it has one access: an item that asks for a voucher inside a pack that
/// does not would either be given away with the pack or lock the whole pack silently.
struct ProtectedPackItemRule: Rule {
    static let description = RuleDescription(
        id: "content.protected-pack-item", name: "Protected item in a public pack", family: .content,
        rationale: "A pack is downloaded as one bundle with one access: protect the pack, or take the item out of it.",
        messages: [declare(Message.unprotectedPack)],
        triggering: [RuleExample("a protected item in a public pack", files: [
            "example/library/library.yaml": "items:\n  - id: guide\n    kind: worksheet\n    title: {en: Guide}\n    media: {en: guide.pdf}\n    protected: ↓true\n"
                + "packs:\n  - id: basics\n    items: [guide]\n",
            "example/library/guide.pdf": "%PDF-1.4\n%%EOF\n",
        ])],
        nonTriggering: [RuleExample("a protected pack", files: [
            "example/library/library.yaml": "items:\n  - id: guide\n    kind: worksheet\n    title: {en: Guide}\n    media: {en: guide.pdf}\n    protected: true\n"
                + "packs:\n  - id: basics\n    items: [guide]\n    protected: true\n",
            "example/library/guide.pdf": "%PDF-1.4\n%%EOF\n",
        ])])

    enum Message {
        static func unprotectedPack(item: String, pack: String) -> DiagnosticMessage {
            DiagnosticMessage("unprotected-pack", "item '\(item)' is protected, but it is downloaded in pack '\(pack)', which is not")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for library in context.source.manifests(.library) {
            var packOf: [String: (id: String, protected: Bool)] = [:]
            for pack in library.node["packs"]?.items ?? [] {
                guard let id = pack["id"]?.string else { continue }
                for member in pack["items"]?.items ?? [] {
                    if let item = member.string, packOf[item] == nil { packOf[item] = (id, pack["protected"]?.bool == true) }
                }
            }
            for item in library.node["items"]?.items ?? [] {
                guard let flag = item["protected"], flag.bool == true, let id = item["id"]?.string, let pack = packOf[id], !pack.protected else { continue }
                diagnostics.append(Diagnostic(.error, Message.unprotectedPack(item: "\(id)", pack: "\(pack.id)"), at: flag.location,
                                              rule: Self.description.id, hint: "add `protected: true` to pack '\(pack.id)', or take '\(id)' out of it"))
            }
        }
        return diagnostics
    }
}
