import Foundation
import LiveryLoad

/// Recognises a file's real type from its first bytes (magic numbers, or the root element of XML).
public enum FileSniffer {
    /// How many leading bytes `sniff` looks at.
    public static let headerLength = 4096

    /// Reads the head of a file and sniffs it.
    public static func sniff(fileAt url: URL) -> FileType? {
        head(ofFileAt: url).flatMap { sniff($0) }
    }

    /// The first `headerLength` bytes of a file (fewer for a shorter file); nil when it cannot be read.
    public static func head(ofFileAt url: URL) -> [UInt8]? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        return Array((try? handle.read(upToCount: headerLength)) ?? Data())
    }

    /// The type the bytes show, or nil when they match none of the known types.
    public static func sniff(_ bytes: [UInt8]) -> FileType? {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<offset + prefix.count]) == prefix
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts(Array("RIFF".utf8)), starts(Array("WAVE".utf8), at: 8) { return .wav }
        if starts(Array("ftyp".utf8), at: 4) { return .mp4 }
        if starts(Array("%PDF-".utf8)) { return .pdf }
        if starts(Array("SQLite format 3\0".utf8)) { return .mbtiles }
        if starts(Array("wOF2".utf8)) { return .woff2 }
        if starts([0x00, 0x01, 0x00, 0x00]) || starts(Array("true".utf8)) { return .ttf }
        if starts(Array("OTTO".utf8)) { return .otf }
        if starts(Array("ID3".utf8)) { return .mp3 }
        if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] & 0xE0 == 0xE0, bytes[1] & 0x06 != 0 { return .mp3 }
        return sniffText(bytes)
    }

    private static func sniffText(_ bytes: [UInt8]) -> FileType? {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        guard !body.contains(0) else { return nil }
        let text = String(decoding: body, as: UTF8.self)
        let trimmed = text.drop { $0.isWhitespace }
        if trimmed.hasPrefix("WEBVTT") { return .vtt }
        if let root = xmlRootElement(trimmed) {
            switch root {
            case "svg": return .svg
            case "gpx": return .gpx
            default: return nil
            }
        }
        if looksLikeSRT(trimmed) { return .srt }
        // Markdown has no signature: any valid UTF-8 text that is none of the above. The head may
        // end inside a multi-byte character, so up to three trailing bytes may be cut.
        for cut in 0...min(3, body.count) where String(validating: body.dropLast(cut), as: UTF8.self) != nil {
            return .markdown
        }
        return nil
    }

    /// The name of the first element of an XML document, skipping the declaration, comments and a DOCTYPE.
    static func xmlRootElement(_ text: Substring) -> String? {
        var rest = text
        while true {
            rest = rest.drop { $0.isWhitespace }
            if rest.hasPrefix("<?") {
                guard let end = rest.range(of: "?>") else { return nil }
                rest = rest[end.upperBound...]
            } else if rest.hasPrefix("<!--") {
                guard let end = rest.range(of: "-->") else { return nil }
                rest = rest[end.upperBound...]
            } else if rest.hasPrefix("<!DOCTYPE") || rest.hasPrefix("<!doctype") {
                guard let end = rest.firstIndex(of: ">") else { return nil }
                rest = rest[rest.index(after: end)...]
            } else if rest.hasPrefix("<") {
                let name = rest.dropFirst().prefix { !$0.isWhitespace && $0 != ">" && $0 != "/" }
                let local = name.split(separator: ":").last.map(String.init) ?? String(name)
                return local.isEmpty ? nil : local
            } else {
                return nil
            }
        }
    }

    /// An SRT file starts with a cue number line followed by a `-->` timing line.
    static func looksLikeSRT(_ text: Substring) -> Bool {
        // Split on scalars: Swift reads "\r\n" as one Character, so a Character split would miss CRLF line ends.
        let lines = text.unicodeScalars.split(separator: "\n", maxSplits: 3, omittingEmptySubsequences: false)
            .map { String(String.UnicodeScalarView($0)).trimmingCharacters(in: .whitespacesAndNewlines) }
        guard lines.count >= 2, !lines[0].isEmpty, lines[0].allSatisfy(\.isNumber) else { return false }
        return lines[1].range(of: #"^\d{2}:\d{2}:\d{2}[,.]\d{3} --> \d{2}:\d{2}:\d{2}[,.]\d{3}"#, options: .regularExpression) != nil
    }
}
