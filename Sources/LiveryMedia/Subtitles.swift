import Foundation
import LiveryDiagnostics
import LiveryLoad

/// A subtitle file (SubRip `.srt` or WebVTT `.vtt`) read into cues, with every problem located at its
/// line and column. Hand-written: no maintained Swift or C library for either format resolves here,
/// and both are line formats a page long.
public struct SubtitleDocument: Sendable {
    public struct Cue: Sendable, Equatable {
        /// Milliseconds from the start of the media.
        public var start: Int
        public var end: Int
        /// The text lines as written (markup included).
        public var lines: [String]
        /// The line of the timing line (1-based), and of the first text line.
        public var timingLine: Int
        public var textLine: Int
        /// The column where the end time starts on the timing line.
        public var endColumn: Int = 1

        /// The text as displayed: tags (`<i>`, `<c.yellow>`, `<00:01.000>`) and SubRip's `{\an8}` removed.
        public var displayedLines: [String] {
            lines.map { line in
                var out = ""
                var depth: Character?
                for character in line {
                    if let open = depth {
                        if (open == "<" && character == ">") || (open == "{" && character == "}") { depth = nil }
                    } else if character == "<" || (character == "{" && line.contains("{\\")) {
                        depth = character
                    } else {
                        out.append(character)
                    }
                }
                return out.trimmingCharacters(in: .whitespaces)
            }
        }
    }

    public struct Problem: Sendable, Equatable {
        public enum Kind: Sendable { case syntax, timing }
        public var kind: Kind
        public var line: Int
        public var column: Int
        public var message: DiagnosticMessage
    }

    public var cues: [Cue] = []
    public var problems: [Problem] = []

    /// The largest subtitle file read: hours of dialogue are well under 1 MB.
    public static let maximumBytes = 4 << 20

    public static func parse(_ text: String, format: FileType) -> SubtitleDocument {
        var document = SubtitleDocument()
        // Split on scalars: Swift reads "\r\n" as one Character, which a split on the Character "\n" would not find.
        var lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            String(String.UnicodeScalarView(line.last == "\r" ? line.dropLast() : line[...]))
        }
        if let first = lines.first, first.hasPrefix("\u{FEFF}") { lines[0] = String(first.dropFirst()) }
        if format == .vtt { document.parseWebVTT(lines) } else { document.parseSubRip(lines) }
        document.checkTiming()
        return document
    }

    mutating func problem(_ kind: Problem.Kind, _ line: Int, _ column: Int, _ message: DiagnosticMessage) {
        problems.append(Problem(kind: kind, line: line, column: column, message: message))
    }

    /// Blocks of non-blank lines, each with the line number (1-based) of its first line.
    static func blocks(_ lines: [String], from start: Int = 0) -> [(line: Int, lines: [String])] {
        var blocks: [(line: Int, lines: [String])] = []
        var current: [String] = []
        var first = 0
        for index in start..<lines.count {
            if lines[index].trimmingCharacters(in: .whitespaces).isEmpty {
                if !current.isEmpty { blocks.append((first + 1, current)); current = [] }
            } else {
                if current.isEmpty { first = index }
                current.append(lines[index])
            }
        }
        if !current.isEmpty { blocks.append((first + 1, current)) }
        return blocks
    }

    // MARK: SubRip

    mutating func parseSubRip(_ lines: [String]) {
        var expected = 1
        for block in Self.blocks(lines) {
            var rows = block.lines
            var line = block.line
            let index = rows.removeFirst()
            if let number = Int(index.trimmingCharacters(in: .whitespaces)), !index.contains("-->") {
                if number != expected { problem(.syntax, line, 1, SubtitleMessage.cueNumber(number: number, expected: expected)) }
                expected = number + 1
                line += 1
            } else {
                problem(.syntax, line, 1, index.contains("-->") ? SubtitleMessage.missingNumber() : SubtitleMessage.notCueNumber(text: String(index.prefix(40))))
                if !index.contains("-->") { continue }
                rows.insert(index, at: 0)
                expected += 1
            }
            guard !rows.isEmpty else { problem(.syntax, block.line, 1, SubtitleMessage.noTiming()); continue }
            let timing = rows.removeFirst()
            guard let (start, end, _, endColumn) = parseTiming(timing, line: line, separator: ",", hoursRequired: true) else { continue }
            if rows.isEmpty { problem(.syntax, line, 1, SubtitleMessage.noText()) }
            cues.append(Cue(start: start, end: end, lines: rows, timingLine: line, textLine: line + 1, endColumn: endColumn))
        }
    }

    // MARK: WebVTT

    static let cueSettings: [String: @Sendable (String) -> Bool] = [
        "vertical": { ["rl", "lr"].contains($0) },
        "line": { value in
            let parts = value.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let position = parts[0]
            let valid = position.hasSuffix("%") ? percentage(position) : Double(position) != nil
            return valid && (parts.count == 1 || ["start", "center", "end"].contains(parts[1]))
        },
        "position": { value in
            let parts = value.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            return percentage(parts[0]) && (parts.count == 1 || ["line-left", "center", "line-right"].contains(parts[1]))
        },
        "size": { percentage($0) },
        "align": { ["start", "center", "end", "left", "right"].contains($0) },
        "region": { !$0.isEmpty && !$0.contains("-->") },
    ]

    static func percentage(_ text: String) -> Bool {
        guard text.hasSuffix("%"), let value = Double(text.dropLast()) else { return false }
        return value >= 0 && value <= 100
    }

    mutating func parseWebVTT(_ lines: [String]) {
        guard let first = lines.first, first.hasPrefix("WEBVTT"), first.count == 6 || [" ", "\t"].contains(first.dropFirst(6).first) else {
            problem(.syntax, 1, 1, SubtitleMessage.noHeader())
            return
        }
        // The header runs to the first blank line.
        var start = 1
        while start < lines.count, !lines[start].trimmingCharacters(in: .whitespaces).isEmpty {
            if lines[start].contains("-->") { problem(.syntax, start + 1, 1, SubtitleMessage.cueInHeader()) }
            start += 1
        }
        for block in Self.blocks(lines, from: start) {
            var rows = block.lines
            var line = block.line
            let head = rows[0]
            if head.hasPrefix("NOTE") || head.hasPrefix("STYLE") || head.hasPrefix("REGION") {
                if !cues.isEmpty, !head.hasPrefix("NOTE") { problem(.syntax, line, 1, SubtitleMessage.blockAfterCue(block: String(head.prefix(6)))) }
                continue
            }
            if !head.contains("-->") {
                rows.removeFirst()  // the cue's identifier
                line += 1
                guard !rows.isEmpty, rows[0].contains("-->") else { problem(.syntax, line - 1, 1, SubtitleMessage.notTiming(text: String(head.prefix(40)))); continue }
            }
            let timing = rows.removeFirst()
            guard let (start, end, settings, endColumn) = parseTiming(timing, line: line, separator: ".", hoursRequired: false) else { continue }
            var column = timing.count - settings.count + 1
            for setting in settings.split(separator: " ", omittingEmptySubsequences: false) {
                defer { column += setting.count + 1 }
                guard !setting.isEmpty else { continue }
                let parts = setting.split(separator: ":", maxSplits: 1).map(String.init)
                guard parts.count == 2, let valid = Self.cueSettings[parts[0]] else {
                    problem(.syntax, line, column, SubtitleMessage.unknownSetting(setting: String(setting)))
                    continue
                }
                if !valid(parts[1]) { problem(.syntax, line, column, SubtitleMessage.badSettingValue(value: parts[1], setting: parts[0])) }
            }
            if rows.isEmpty { problem(.syntax, line, 1, SubtitleMessage.noText()) }
            cues.append(Cue(start: start, end: end, lines: rows, timingLine: line, textLine: line + 1, endColumn: endColumn))
        }
    }

    // MARK: Timing

    /// "00:01:02,500 --> 00:01:04,000[ settings]": start and end in milliseconds, and the rest.
    mutating func parseTiming(_ text: String, line: Int, separator: Character, hoursRequired: Bool) -> (Int, Int, String, Int)? {
        guard let arrow = text.range(of: " --> ") ?? text.range(of: "-->") else {
            problem(.syntax, line, 1, SubtitleMessage.notTimingLine(text: String(text.prefix(40))))
            return nil
        }
        let left = String(text[..<arrow.lowerBound]).trimmingCharacters(in: .whitespaces)
        let rest = String(text[arrow.upperBound...]).trimmingCharacters(in: .whitespaces)
        let right = String(rest.prefix { !$0.isWhitespace })
        let settings = String(rest.dropFirst(right.count)).trimmingCharacters(in: .whitespaces)
        let endColumn = text.distance(from: text.startIndex, to: arrow.upperBound) + 1 + (text[arrow.upperBound...].prefix { $0 == " " }.count)
        guard let start = timestamp(left, separator: separator, hoursRequired: hoursRequired) else {
            problem(.syntax, line, 1, SubtitleMessage.badTimestamp(text: left, format: hoursRequired ? "HH:MM:SS,mmm" : "HH:MM:SS.mmm or MM:SS.mmm"))
            return nil
        }
        guard let end = timestamp(right, separator: separator, hoursRequired: hoursRequired) else {
            problem(.syntax, line, endColumn, SubtitleMessage.badTimestamp(text: right, format: hoursRequired ? "HH:MM:SS,mmm" : "HH:MM:SS.mmm or MM:SS.mmm"))
            return nil
        }
        if !settings.isEmpty, separator == "," { problem(.syntax, line, endColumn + right.count + 1, SubtitleMessage.subRipSettings()) }
        if end <= start { problem(.timing, line, endColumn, SubtitleMessage.endsBeforeStart(end: Self.format(end), start: Self.format(start))) }
        return (start, end, settings, endColumn)
    }

    /// Milliseconds of "HH:MM:SS,mmm" (or "MM:SS.mmm" where hours are optional); nil when malformed.
    func timestamp(_ text: String, separator: Character, hoursRequired: Bool) -> Int? {
        let parts = text.split(separator: separator, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].count == 3, let millis = Int(parts[1]), parts[1].allSatisfy(\.isASCII) else { return nil }
        let fields = parts[0].split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 3 || (!hoursRequired && fields.count == 2), fields.allSatisfy({ $0.count >= 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }) else { return nil }
        let numbers = fields.compactMap { Int($0) }
        guard numbers.count == fields.count, fields.dropFirst().allSatisfy({ $0.count == 2 }) else { return nil }
        let hours = fields.count == 3 ? numbers[0] : 0
        let minutes = numbers[fields.count - 2], seconds = numbers[fields.count - 1]
        guard minutes < 60, seconds < 60, hours < 1000 else { return nil }
        return ((hours * 60 + minutes) * 60 + seconds) * 1000 + millis
    }

    static func format(_ millis: Int) -> String {
        String(format: "%02d:%02d:%02d.%03d", millis / 3_600_000, millis / 60_000 % 60, millis / 1000 % 60, millis % 1000)
    }

    /// Cues in order of their start, each after the one before has ended.
    mutating func checkTiming() {
        for (previous, cue) in zip(cues, cues.dropFirst()) {
            if cue.start < previous.start {
                problem(.timing, cue.timingLine, 1, SubtitleMessage.outOfOrder(start: Self.format(cue.start), previous: Self.format(previous.start)))
            } else if cue.start < previous.end {
                problem(.timing, cue.timingLine, 1, SubtitleMessage.overlaps(start: Self.format(cue.start), previousEnd: Self.format(previous.end)))
            }
        }
    }
}

/// The messages of the subtitle reader: `syntax` for `content.subtitle-syntax`, `timing` for `content.subtitle-timing`.
public enum SubtitleMessage {
    public static func cueNumber(number: Int, expected: Int) -> DiagnosticMessage {
        DiagnosticMessage("cue-number", "cue number \(number) where \(expected) was expected: SubRip numbers its cues 1, 2, 3, …")
    }
    public static func missingNumber() -> DiagnosticMessage { DiagnosticMessage("missing-number", "a cue without its number (SubRip starts each cue with 1, 2, 3, …)") }
    public static func notCueNumber(text: String) -> DiagnosticMessage { DiagnosticMessage("not-cue-number", "'\(text)' is not a cue number") }
    public static func noTiming() -> DiagnosticMessage { DiagnosticMessage("no-timing", "a cue number without a timing line") }
    public static func noText() -> DiagnosticMessage { DiagnosticMessage("no-text", "a cue without text") }
    public static func noHeader() -> DiagnosticMessage { DiagnosticMessage("no-header", "a WebVTT file starts with the line WEBVTT") }
    public static func cueInHeader() -> DiagnosticMessage { DiagnosticMessage("cue-in-header", "a cue inside the header: leave a blank line after WEBVTT") }
    public static func blockAfterCue(block: String) -> DiagnosticMessage { DiagnosticMessage("block-after-cue", "\(block) blocks belong before the first cue") }
    public static func notTiming(text: String) -> DiagnosticMessage { DiagnosticMessage("not-timing", "'\(text)' is neither a cue timing nor followed by one") }
    public static func unknownSetting(setting: String) -> DiagnosticMessage {
        DiagnosticMessage("unknown-setting", "'\(setting)' is not a cue setting (vertical, line, position, size, align, region: name:value)")
    }
    public static func badSettingValue(value: String, setting: String) -> DiagnosticMessage {
        DiagnosticMessage("bad-setting-value", "'\(value)' is not a value of the cue setting \(setting)")
    }
    public static func notTimingLine(text: String) -> DiagnosticMessage { DiagnosticMessage("not-timing-line", "'\(text)' is not a timing line (start --> end)") }
    public static func badTimestamp(text: String, format: String) -> DiagnosticMessage { DiagnosticMessage("bad-timestamp", "'\(text)' is not a timestamp: write \(format)") }
    public static func subRipSettings() -> DiagnosticMessage { DiagnosticMessage("subrip-settings", "SubRip timing lines end after the end time") }
    public static func endsBeforeStart(end: String, start: String) -> DiagnosticMessage {
        DiagnosticMessage("ends-before-start", "the cue ends at \(end), not after it starts (\(start))")
    }
    public static func outOfOrder(start: String, previous: String) -> DiagnosticMessage {
        DiagnosticMessage("out-of-order", "the cue starts at \(start), before the cue above it (\(previous)): cues go in order of time")
    }
    public static func overlaps(start: String, previousEnd: String) -> DiagnosticMessage {
        DiagnosticMessage("overlaps", "the cue starts at \(start), while the cue above it still shows (until \(previousEnd))")
    }
}
