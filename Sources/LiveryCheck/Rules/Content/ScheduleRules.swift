import Foundation
import LiveryDiagnostics
import LiveryLoad
import LiveryResolve

/// Programs, library items and tours of a tenant's own manifests: what `status` and the availability window apply to.
private func scheduledNodes(_ context: RuleContext) -> [(what: String, node: Node)] {
    var nodes: [(String, Node)] = []
    for program in context.source.manifests(.program) { nodes.append(("program '\(program.node["id"]?.string ?? "")'", program.node)) }
    for tour in context.source.manifests(.tour) { nodes.append(("tour '\(tour.node["id"]?.string ?? "")'", tour.node)) }
    for library in context.source.manifests(.library) {
        for item in library.node["items"]?.items ?? [] { nodes.append(("library item '\(item["id"]?.string ?? "")'", item)) }
    }
    return nodes
}

/// How a window reads in a message: its dates as written (with their offsets).
private func written(_ node: Node, _ key: String) -> String { node[key]?.string ?? "" }

struct AvailabilityWindowRule: Rule {
    static let description = RuleDescription(
        id: "content.availability-window", name: "Availability window", family: .content,
        rationale: "A program, library item or tour stops being shown (availableUntil) after it starts (availableFrom); otherwise apps never show it.",
        messages: [declare(Message.endsBeforeStart)],
        triggering: [
            RuleExample("until before from", files: ProgramExample.files(lesson: "morning-routine", days: [1]).mapValues {
                $0.replacingOccurrences(of: "difficulty: beginner\n", with: "difficulty: beginner\navailableFrom: 2027-01-04T06:00:00+01:00\navailableUntil: ↓2027-01-04T05:00:00Z\n")
            }),
        ],
        nonTriggering: [
            RuleExample("a week's window", files: ProgramExample.files(lesson: "morning-routine", days: [1]).mapValues {
                $0.replacingOccurrences(of: "difficulty: beginner\n", with: "difficulty: beginner\navailableFrom: 2027-01-04T06:00:00+01:00\navailableUntil: 2027-01-11T06:00:00+01:00\n")
            }),
            RuleExample("only a start", files: ProgramExample.files(lesson: "morning-routine", days: [1]).mapValues {
                $0.replacingOccurrences(of: "difficulty: beginner\n", with: "difficulty: beginner\navailableFrom: 2027-01-04T06:00:00+01:00\n")
            }),
        ])

    enum Message {
        static func endsBeforeStart(what: String, until: String, from: String) -> DiagnosticMessage {
            DiagnosticMessage("ends-before-start", "\(what) stops being shown (\(until)) before it starts (\(from))")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        scheduledNodes(context).compactMap { what, node in
            let window = node.availability
            guard let from = window.from, let until = window.until, until <= from, let end = node["availableUntil"] else { return nil }
            return Diagnostic(.error, Message.endsBeforeStart(what: "\(what)", until: written(node, "availableUntil"), from: written(node, "availableFrom")),
                              at: end.location, rule: Self.description.id, hint: "availableUntil must be later than availableFrom; the offsets count")
        }
    }
}

struct LessonAvailabilityRule: Rule {
    static let description = RuleDescription(
        id: "references.lesson-availability", name: "Lessons available with their program", family: .references,
        rationale: "A published program's lessons ship and are shown whenever the program is: a draft library item is left out of the release, and an item shown later (or ended sooner) than its program leaves a day without its lesson.",
        severity: .warning,
        messages: [declare(Message.draft), declare(Message.window)],
        triggering: [
            RuleExample("lesson of a draft item", files: ProgramExample.files(lesson: "↓morning-routine", days: [1]).mapValues {
                $0.replacingOccurrences(of: "    kind: article\n", with: "    kind: article\n    status: draft\n")
            }),
            RuleExample("item shown after its program", files: ProgramExample.files(lesson: "↓morning-routine", days: [1]).mapValues {
                $0.replacingOccurrences(of: "    kind: article\n", with: "    kind: article\n    availableFrom: 2027-02-01T00:00:00Z\n")
                    .replacingOccurrences(of: "difficulty: beginner\n", with: "difficulty: beginner\navailableFrom: 2027-01-04T06:00:00+01:00\n")
            }),
        ],
        nonTriggering: [
            RuleExample("item shown before its program", files: ProgramExample.files(lesson: "morning-routine", days: [1]).mapValues {
                $0.replacingOccurrences(of: "    kind: article\n", with: "    kind: article\n    availableFrom: 2027-01-01T00:00:00Z\n")
                    .replacingOccurrences(of: "difficulty: beginner\n", with: "difficulty: beginner\navailableFrom: 2027-01-04T06:00:00+01:00\n")
            }),
            RuleExample("a draft program may use a draft item", files: ProgramExample.files(lesson: "morning-routine", days: [1]).mapValues {
                $0.replacingOccurrences(of: "    kind: article\n", with: "    kind: article\n    status: draft\n")
                    .replacingOccurrences(of: "difficulty: beginner\n", with: "difficulty: beginner\nstatus: draft\n")
            }),
        ])

    enum Message {
        static func draft(lesson: String, program: String) -> DiagnosticMessage {
            DiagnosticMessage("draft-lesson", "lesson '\(lesson)' of published program '\(program)' is a draft: the release ships the program without it")
        }
        static func window(lesson: String, program: String, reason: String) -> DiagnosticMessage {
            DiagnosticMessage("outside-window", "lesson '\(lesson)' of program '\(program)' \(reason)")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        // The item a lesson gets in a release: the nearest tenant's published item of that id (drafts are
        // not packed, so an inherited published item still ships under a creator's draft of it).
        var published: [String: Node] = [:], drafts: [String: Node] = [:]
        for source in context.tenant.ancestors + [context.source] {
            for manifest in source.manifests(.library) {
                for item in manifest.node["items"]?.items ?? [] {
                    guard let id = item["id"]?.string else { continue }
                    if item.publicationStatus == .published { published[id] = item } else { drafts[id] = item }
                }
            }
        }
        var diagnostics: [Diagnostic] = []
        for program in context.source.manifests(.program) where program.node.publicationStatus == .published {
            let programID = program.node["id"]?.string ?? ""
            let window = program.node.availability
            for week in program.node["weeks"]?.items ?? [] {
                for day in week["days"]?.items ?? [] {
                    for item in day["items"]?.items ?? [] where item["type"]?.string == "lesson" {
                        guard let lesson = item["lesson"], let id = lesson.string else { continue }
                        guard let target = published[id] else {
                            if drafts[id] != nil {
                                diagnostics.append(Diagnostic(.warning, Message.draft(lesson: "\(id)", program: "\(programID)"),
                                                              at: lesson.location, rule: Self.description.id,
                                                              hint: "publish the library item (status: published), or make the program a draft too"))
                            }
                            continue
                        }
                        let shown = target.availability
                        guard !shown.covers(window) else { continue }
                        let reason: String
                        if let from = shown.from, window.from.map({ from > $0 }) ?? true {
                            reason = "is shown only from \(written(target, "availableFrom"))"
                                + (window.from == nil ? ", but the program is shown at once" : ", after the program starts (\(written(program.node, "availableFrom")))")
                        } else {
                            reason = "stops being shown at \(written(target, "availableUntil"))"
                                + (window.until == nil ? ", but the program is shown indefinitely" : ", before the program does (\(written(program.node, "availableUntil")))")
                        }
                        diagnostics.append(Diagnostic(.warning, Message.window(lesson: "\(id)", program: "\(programID)", reason: reason), at: lesson.location, rule: Self.description.id,
                                                      hint: "give the library item a window that covers the program's"))
                    }
                }
            }
        }
        return diagnostics
    }
}
