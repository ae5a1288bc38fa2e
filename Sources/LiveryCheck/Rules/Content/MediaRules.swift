import Foundation
import LiveryDiagnostics
import LiveryLoad
import LiveryMedia

extension RuleContext {
    /// The measured facts of the audio or video file `path` names, relative to a manifest's folder;
    /// nil when it is missing or unreadable (other rules report that).
    func measuredMedia(_ path: String, in directory: String) -> (relative: String, facts: MediaFacts)? {
        guard case .success(let relative) = TenantPath.normalize(path, baseDirectory: directory),
              case .success(let url) = source.paths.regularFile(relative),
              let type = FileType(extensionOf: relative), FileType.media.contains(type),
              case .success(let facts)? = media.measure(url, as: type) else { return nil }
        return (relative, facts)
    }

    /// Each subtitle file of the tenant's tour stops and library items with the media it belongs to:
    /// a stop's audio in the same language; a library item's media in the same locale, or its only file.
    func subtitledMedia() -> [(subtitles: String, directory: String, media: String)] {
        var pairs: [(String, String, String)] = []
        for tour in source.manifests(.tour) {
            for stop in tour.node["stops"]?.items ?? [] {
                let audio = Dictionary((stop["audio"]?.entries ?? []).compactMap { entry in entry.value.string.map { (entry.key, $0) } }) { a, _ in a }
                for entry in stop["subtitles"]?.entries ?? [] {
                    if let path = entry.value.string, let media = audio[entry.key] { pairs.append((path, tour.directory, media)) }
                }
            }
        }
        for library in source.manifests(.library) {
            for item in library.node["items"]?.items ?? [] {
                let media = Dictionary((item["media"]?.entries ?? []).compactMap { entry in entry.value.string.map { (entry.key, $0) } }) { a, _ in a }
                for entry in item["subtitles"]?.entries ?? [] {
                    guard let path = entry.value.string, let file = media[entry.key] ?? (media.count == 1 ? media.values.first : nil) else { continue }
                    pairs.append((path, library.directory, file))
                }
            }
        }
        return pairs
    }
}

/// The walking pace a tour's duration is measured at: a city stroll with stops, slower than the
/// 5 km/h of a brisk walk.
enum TourPace {
    static let kilometresPerHour = 4.0
}

struct DeclaredDurationRule: Rule {
    /// A library item's declared seconds may differ from its file by 1 s or 5 %, whichever is more.
    static let itemTolerance = (seconds: 1.0, fraction: 0.05)
    /// A tour's declared minutes may differ from its measure by 5 min or 25 %, whichever is more.
    static let tourTolerance = (minutes: 5.0, fraction: 0.25)

    static let description = RuleDescription(
        id: "content.declared-duration", name: "Declared durations", family: .content,
        rationale: "Apps show a library item's `durationSeconds` and a tour's `durationMinutes` before anyone plays or walks it. An item's must match its measured file (within 1 s or 5 %); a tour's must match its stops' audio (the longest language) plus walking `distanceKm` at 4 km/h (within 5 minutes or 25 %).",
        messages: [declare(Message.itemDuration), declare(Message.tourDuration)],
        triggering: [
            RuleExample("a video declared twice its length", files: LibraryVideoExample.files(media: "warm-up.mp4", duration: "↓6"),
                        binaryFiles: ["example/library/warm-up.mp4": MediaSamples.mp4(seconds: 3)]),
            RuleExample("a 1.2 km tour declared as an hour", files: TourExample.files(languages: "[en]").mapValues { $0.replacingOccurrences(of: "durationMinutes: 18", with: "durationMinutes: ↓60") },
                        binaryFiles: TourExample.media),
        ],
        nonTriggering: [
            RuleExample("a 3-second video declared as 3 seconds", files: LibraryVideoExample.files(media: "warm-up.mp4"),
                        binaryFiles: ["example/library/warm-up.mp4": MediaSamples.mp4(seconds: 3)]),
            RuleExample("a 1.2 km tour declared as 18 minutes", files: TourExample.files(languages: "[en]"), binaryFiles: TourExample.media),
        ])

    /// A declared number as written: whole numbers without a fraction.
    static func written(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    enum Message {
        static func itemDuration(declared: String, path: String, actual: String) -> DiagnosticMessage {
            DiagnosticMessage("item-duration", "durationSeconds is \(declared), but '\(path)' plays for \(actual) s")
        }
        static func tourDuration(declared: String, expected: String, walking: String, distance: String, pace: String, listening: String, language: String) -> DiagnosticMessage {
            DiagnosticMessage("tour-duration", "durationMinutes is \(declared), but the tour takes about \(expected) minutes: \(walking) walking \(distance) km at \(pace) km/h, and \(listening) listening in '\(language)' (its longest language)")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        let id = Self.description.id
        var diagnostics: [Diagnostic] = []
        for library in context.source.manifests(.library) {
            for item in library.node["items"]?.items ?? [] {
                guard let declared = item["durationSeconds"], let seconds = declared.number else { continue }
                for entry in item["media"]?.entries ?? [] {
                    guard let path = entry.value.string, let measured = context.measuredMedia(path, in: library.directory) else { continue }
                    let actual = measured.facts.duration
                    guard abs(seconds - actual) > max(Self.itemTolerance.seconds, Self.itemTolerance.fraction * actual) else { continue }
                    diagnostics.append(Diagnostic(.error, Message.itemDuration(declared: Self.written(seconds), path: path, actual: String(format: "%.1f", actual)),
                                                  at: declared.location, rule: id, hint: "set durationSeconds to \(Int(actual.rounded()))"))
                    break
                }
            }
        }
        for tour in context.source.manifests(.tour) {
            guard let declared = tour.node["durationMinutes"], let minutes = declared.number, let distance = tour.node["distanceKm"]?.number else { continue }
            var audio: [String: Double] = [:]
            var unmeasured = Set<String>()
            for stop in tour.node["stops"]?.items ?? [] {
                for entry in stop["audio"]?.entries ?? [] {
                    guard let path = entry.value.string, let measured = context.measuredMedia(path, in: tour.directory) else {
                        unmeasured.insert(entry.key)
                        continue
                    }
                    audio[entry.key, default: 0] += measured.facts.duration
                }
            }
            // A language with a file that could not be measured is left out, rather than undercounted.
            guard let longest = audio.filter({ !unmeasured.contains($0.key) }).max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }) else { continue }
            let walking = distance / TourPace.kilometresPerHour * 60
            let expected = walking + longest.value / 60
            guard abs(minutes - expected) > max(Self.tourTolerance.minutes, Self.tourTolerance.fraction * expected) else { continue }
            diagnostics.append(Diagnostic(.error, Message.tourDuration(declared: Self.written(minutes), expected: String(format: "%.0f", expected), walking: String(format: "%.1f", walking),
                                                                     distance: String(format: "%.2f", distance), pace: String(format: "%.0f", TourPace.kilometresPerHour),
                                                                     listening: String(format: "%.1f", longest.value / 60), language: longest.key),
                                          at: declared.location, rule: id, hint: "set durationMinutes to \(Int(expected.rounded()))"))
        }
        return diagnostics
    }
}

struct SubtitleMediaLengthRule: Rule {
    /// How long after the media ends a cue may still end (players hold the last frame a moment).
    static let slack = 0.5

    static let description = RuleDescription(
        id: "content.subtitle-media-length", name: "Subtitles within their media", family: .content,
        rationale: "A cue that ends after the audio or video it belongs to (a stop's audio in the same language, a library item's media) is never shown whole: the player stops first, so the subtitles were made for another cut of the recording.",
        messages: [declare(Message.cueAfterEnd)],
        triggering: [
            SubtitleExample.example("a cue ending a minute after the 8-second audio",
                                    SubtitleExample.files("1\n00:00:00,000 --> 00:00:03,000\nHello.\n\n2\n00:00:03,100 --> ↓00:01:08,000\nAgain.\n")),
            RuleExample("a video's cue after its end", files: LibraryVideoExample.files(media: "warm-up.mp4", subtitles: "WEBVTT\n\n00:00.000 --> 00:02.000\nStand tall.\n\n00:02.000 --> ↓00:05.000\nMarch.\n"),
                        binaryFiles: ["example/library/warm-up.mp4": MediaSamples.mp4(seconds: 3)]),
        ],
        nonTriggering: [SubtitleExample.example("cues within the audio", SubtitleExample.files(SubtitleExample.good))])

    enum Message {
        static func cueAfterEnd(end: String, over: String, media: String, length: String) -> DiagnosticMessage {
            DiagnosticMessage("cue-after-end", "the cue ends at \(end), \(over) s after '\(media)' ends (\(length) s)")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        let documents = Dictionary(context.subtitleDocuments().map { ($0.display, $0.document) }) { a, _ in a }
        var diagnostics: [Diagnostic] = []
        var seen = Set<String>()
        for pair in context.subtitledMedia() {
            guard case .success(let relative) = TenantPath.normalize(pair.subtitles, baseDirectory: pair.directory),
                  let document = documents[context.source.display(relative)],
                  let measured = context.measuredMedia(pair.media, in: pair.directory),
                  seen.insert(relative + "\u{0}" + measured.relative).inserted else { continue }
            let length = measured.facts.duration
            guard let cue = document.cues.first(where: { Double($0.end) / 1000 > length + Self.slack }) else { continue }
            diagnostics.append(Diagnostic(.error, Message.cueAfterEnd(end: Self.timestamp(cue.end), over: String(format: "%.1f", Double(cue.end) / 1000 - length), media: pair.media, length: String(format: "%.1f", length)),
                                          at: SourceLocation(file: context.source.display(relative), line: cue.timingLine, column: cue.endColumn), rule: Self.description.id,
                                          hint: "time the subtitles against this recording"))
        }
        return diagnostics
    }

    static func timestamp(_ milliseconds: Int) -> String {
        String(format: "%02d:%02d:%02d.%03d", milliseconds / 3_600_000, milliseconds / 60_000 % 60, milliseconds / 1000 % 60, milliseconds % 1000)
    }
}
