import Foundation
import LiveryDiagnostics
import LiveryLoad
import LiveryMedia

/// A tour with one stop that has English subtitles `srt` (or `vtt`), for the subtitle rules' examples.
enum SubtitleExample {
    static func files(_ subtitles: String, name: String = "en.srt") -> [String: String] {
        var files = TourExample.files(languages: "[en]")
        files["example/tours/walk/tour.yaml"] = files["example/tours/walk/tour.yaml"]!
            .replacingOccurrences(of: "audio: {en: en.mp3}\n", with: "audio: {en: en.mp3}\n    subtitles: {en: \(name)}\n", options: [], range: nil)
        files["example/tours/walk/\(name)"] = subtitles
        return files
    }

    static func example(_ note: String, _ files: [String: String]) -> RuleExample {
        RuleExample(note, files: files, binaryFiles: TourExample.media)
    }

    static let good = "1\n00:00:00,000 --> 00:00:03,400\nThis is Orsanmichele, a grain\nmarket turned into a church.\n\n2\n00:00:03,480 --> 00:00:06,200\nLook for the guild statues.\n"
}

/// A subtitle file the tenant references, parsed, with the language its manifest files it under.
struct SubtitleFile {
    var display: String
    var document: SubtitleDocument
    /// The key of `subtitles: {<language>: path}` of the first reference.
    var language: String?
}

extension RuleContext {
    /// Every subtitle file the tenant references, read and parsed once per tenant for the subtitle rules.
    func subtitleDocuments() -> [SubtitleFile] {
        if let made = cache.subtitleDocuments { return made }
        let made = (assetFiles(ofType: .srt) + assetFiles(ofType: .vtt)).compactMap { file -> SubtitleFile? in
            guard let data = FileManager.default.contents(atPath: file.url.path), data.count <= SubtitleDocument.maximumBytes,
                  let text = String(data: data, encoding: .utf8) else { return nil }
            let field = file.reference.field
            return SubtitleFile(display: source.display(file.relative), document: SubtitleDocument.parse(text, format: FileType(extensionOf: file.relative) ?? .srt),
                                language: field.count >= 2 && field[field.count - 2] == "subtitles" ? field.last : nil)
        }
        cache.subtitleDocuments = made
        return made
    }
}

extension RuleContext {
    /// The reader's problems of one kind, as errors at their line of the subtitle file.
    func subtitleProblems(_ kind: SubtitleDocument.Problem.Kind, rule: RuleID) -> [Diagnostic] {
        subtitleDocuments().flatMap { file in
            file.document.problems.filter { $0.kind == kind }.map {
                Diagnostic(.error, $0.message, at: SourceLocation(file: file.display, line: $0.line, column: $0.column), rule: rule)
            }
        }
    }
}

struct SubtitleSyntaxRule: Rule {
    static let description = RuleDescription(
        id: "content.subtitle-syntax", name: "Subtitle syntax", family: .content,
        rationale: "Players skip or stop at a cue they cannot read: SubRip cues are numbered 1, 2, 3 with HH:MM:SS,mmm times; WebVTT starts with WEBVTT, and its cue settings are vertical, line, position, size, align and region.",
        messages: [declare(SubtitleMessage.cueNumber), declare(SubtitleMessage.missingNumber), declare(SubtitleMessage.notCueNumber), declare(SubtitleMessage.noTiming), declare(SubtitleMessage.noText), declare(SubtitleMessage.noHeader), declare(SubtitleMessage.cueInHeader), declare(SubtitleMessage.blockAfterCue), declare(SubtitleMessage.notTiming), declare(SubtitleMessage.unknownSetting), declare(SubtitleMessage.badSettingValue), declare(SubtitleMessage.notTimingLine), declare(SubtitleMessage.badTimestamp), declare(SubtitleMessage.subRipSettings)],
        triggering: [
            SubtitleExample.example("a timestamp with a dot in SubRip", SubtitleExample.files("1\n↓00:00:00.000 --> 00:00:02,000\nHello.\n")),
            SubtitleExample.example("cues numbered 1, 3", SubtitleExample.files("1\n00:00:00,000 --> 00:00:02,000\nHello.\n\n↓3\n00:00:02,100 --> 00:00:04,000\nAgain.\n")),
            SubtitleExample.example("WebVTT without its header", SubtitleExample.files("↓00:00.000 --> 00:02.000\nHello.\n", name: "en.vtt")),
            SubtitleExample.example("an unknown WebVTT cue setting", SubtitleExample.files("WEBVTT\n\n00:00.000 --> 00:02.000 ↓colour:red\nHello.\n", name: "en.vtt")),
            SubtitleExample.example("a SubRip cue without its number", SubtitleExample.files("1\n00:00:00,000 --> 00:00:02,000\nHello.\n\n↓00:00:02,100 --> 00:00:04,000\nAgain.\n")),
            SubtitleExample.example("a SubRip cue number that is not a number", SubtitleExample.files("↓one\n00:00:00,000 --> 00:00:02,000\nHello.\n")),
            SubtitleExample.example("a SubRip cue number without a timing line", SubtitleExample.files("1\n00:00:00,000 --> 00:00:02,000\nHello.\n\n↓2\n")),
            SubtitleExample.example("a SubRip cue without text", SubtitleExample.files("1\n↓00:00:00,000 --> 00:00:02,000\n")),
            SubtitleExample.example("a cue inside the WebVTT header", SubtitleExample.files("WEBVTT\n↓00:00.000 --> 00:02.000\n\n00:02.000 --> 00:04.000\nHello.\n", name: "en.vtt")),
            SubtitleExample.example("a WebVTT STYLE block after a cue", SubtitleExample.files("WEBVTT\n\n00:00.000 --> 00:02.000\nHello.\n\n↓STYLE\n::cue { color: yellow }\n", name: "en.vtt")),
            SubtitleExample.example("a WebVTT identifier without a timing", SubtitleExample.files("WEBVTT\n\n↓intro\nHello.\n", name: "en.vtt")),
            SubtitleExample.example("a WebVTT cue setting with a wrong value", SubtitleExample.files("WEBVTT\n\n00:00.000 --> 00:02.000 ↓align:middle\nHello.\n", name: "en.vtt")),
            SubtitleExample.example("a SubRip timing line without an arrow", SubtitleExample.files("1\n↓00:00:00,000 00:00:02,000\nHello.\n")),
            SubtitleExample.example("WebVTT-style settings on a SubRip timing line", SubtitleExample.files("1\n00:00:00,000 --> 00:00:02,000 ↓align:start\nHello.\n")),
        ],
        nonTriggering: [
            SubtitleExample.example("numbered SubRip cues", SubtitleExample.files(SubtitleExample.good)),
            SubtitleExample.example("WebVTT with an identifier and settings", SubtitleExample.files("WEBVTT - stop 1\n\nNOTE written by hand\n\nintro\n00:00.000 --> 00:02.000 line:90% align:center\n<i>Hello.</i>\n", name: "en.vtt")),
        ])

    func check(_ context: RuleContext) -> [Diagnostic] { context.subtitleProblems(.syntax, rule: Self.description.id) }
}

struct SubtitleTimingRule: Rule {
    static let description = RuleDescription(
        id: "content.subtitle-timing", name: "Subtitle timing", family: .content,
        rationale: "A cue that ends before it starts never shows; cues out of order or overlapping show two texts at once or in the wrong place.",
        messages: [declare(SubtitleMessage.endsBeforeStart), declare(SubtitleMessage.outOfOrder), declare(SubtitleMessage.overlaps)],
        triggering: [
            SubtitleExample.example("a cue that ends before it starts", SubtitleExample.files("1\n00:00:05,000 --> ↓00:00:02,000\nHello.\n")),
            SubtitleExample.example("overlapping cues", SubtitleExample.files("1\n00:00:00,000 --> 00:00:03,000\nHello.\n\n2\n↓00:00:02,000 --> 00:00:04,000\nAgain.\n")),
            SubtitleExample.example("a cue that starts before the one above it", SubtitleExample.files("1\n00:00:03,000 --> 00:00:04,000\nHello.\n\n2\n↓00:00:01,000 --> 00:00:02,000\nAgain.\n")),
        ],
        nonTriggering: [SubtitleExample.example("cues one after another", SubtitleExample.files(SubtitleExample.good))])

    func check(_ context: RuleContext) -> [Diagnostic] { context.subtitleProblems(.timing, rule: Self.description.id) }
}

/// Netflix's and the BBC's guidance, broadly: 20 characters a second for adults, two lines of 42
/// (the defaults of `MediaLimits`, which a tenant can change under `media.subtitles`).
struct SubtitleReadabilityRule: Rule {
    static let description = RuleDescription(
        id: "content.subtitle-readability", name: "Readable subtitles", family: .content,
        rationale: "Viewers read about 20 characters a second, and a phone shows two lines of about 42 characters: a cue with more text than that is gone before it is read, or covers the picture. A tenant can change the limits under `media.subtitles`, per language too.",
        severity: .warning,
        messages: [declare(Message.tooManyLines), declare(Message.lineTooLong), declare(Message.tooFast)],
        triggering: [
            SubtitleExample.example("too fast to read", SubtitleExample.files("1\n00:00:00,000 --> 00:00:01,000\n↓This is Orsanmichele, a grain market turned into a church.\n")),
            SubtitleExample.example("three lines", SubtitleExample.files("1\n00:00:00,000 --> 00:00:06,000\nOne\nTwo\n↓Three\n")),
            SubtitleExample.example("a line of 60 characters", SubtitleExample.files("1\n00:00:00,000 --> 00:00:06,000\n↓This is Orsanmichele, a grain market turned into a church.\n")),
        ],
        nonTriggering: [SubtitleExample.example("two short lines at a reading pace", SubtitleExample.files(SubtitleExample.good))])

    enum Message {
        static func tooManyLines(lines: Int, limit: Int) -> DiagnosticMessage {
            DiagnosticMessage("too-many-lines", "the cue has \(lines) lines; subtitles show at most \(limit)")
        }
        static func lineTooLong(characters: Int, limit: Int) -> DiagnosticMessage {
            DiagnosticMessage("line-too-long", "the line has \(characters) characters; a phone shows about \(limit)")
        }
        static func tooFast(characters: Int, seconds: String, rate: String, limit: String) -> DiagnosticMessage {
            DiagnosticMessage("too-fast", "\(characters) characters in \(seconds) s is \(rate) characters a second; viewers read about \(limit)")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        let id = Self.description.id
        let limits = context.mediaLimits
        var diagnostics: [Diagnostic] = []
        for file in context.subtitleDocuments() {
            let maximumLines = limits.subtitleLines, maximumLineLength = limits.subtitleLineLength
            let charactersPerSecond = limits.charactersPerSecond(for: file.language)
            for cue in file.document.cues {
                let shown = cue.displayedLines
                if shown.count > maximumLines {
                    diagnostics.append(Diagnostic(.warning, Message.tooManyLines(lines: shown.count, limit: maximumLines),
                                                  at: SourceLocation(file: file.display, line: cue.textLine + maximumLines, column: 1), rule: id,
                                                  hint: "split it into two cues"))
                }
                for (offset, line) in shown.enumerated() where line.count > maximumLineLength {
                    diagnostics.append(Diagnostic(.warning, Message.lineTooLong(characters: line.count, limit: maximumLineLength),
                                                  at: SourceLocation(file: file.display, line: cue.textLine + offset, column: 1), rule: id,
                                                  hint: "break it into two lines, or split the cue"))
                }
                let characters = shown.reduce(0) { $0 + $1.count }
                let seconds = Double(cue.end - cue.start) / 1000
                if seconds > 0, Double(characters) / seconds > charactersPerSecond {
                    diagnostics.append(Diagnostic(.warning, Message.tooFast(characters: characters, seconds: String(format: "%.1f", seconds), rate: String(format: "%.0f", Double(characters) / seconds),
                                                                    limit: String(format: "%.0f", charactersPerSecond)),
                                                  at: SourceLocation(file: file.display, line: cue.textLine, column: 1), rule: id,
                                                  hint: String(format: "show it for at least %.1f s, or shorten it", Double(characters) / charactersPerSecond)))
                }
            }
        }
        return diagnostics
    }
}
