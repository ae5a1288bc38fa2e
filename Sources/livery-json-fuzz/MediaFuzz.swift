import Foundation
import LiveryLoad
import LiveryMedia

// `image-header`: an image's first bytes as the asset check reads them (`ImageProbe`), the type
// chosen by the input's first byte (PNG, JPEG, WebP, SVG, GIF) so one corpus covers all five readers.
// Refused: only with an `ImageProbe.Failure`. Accepted: both sides between 1 and 2^24 pixels.
extension FuzzTarget {
    static let imageTypes: [FileType] = [.png, .jpeg, .webp, .svg, .gif]

    static func checkImageHeader(_ data: Data) -> String? {
        guard let first = data.first else { return nil }
        let type = imageTypes[Int(first) % imageTypes.count]
        do {
            guard let facts = try ImageProbe.probe(Array(data.dropFirst().prefix(ImageProbe.maximumScan)), as: type) else { return nil }
            guard (1...(1 << 24)).contains(facts.width), (1...(1 << 24)).contains(facts.height) else {
                return "\(type) accepted with \(facts.width) × \(facts.height) pixels"
            }
            return nil
        } catch is ImageProbe.Failure {
            return nil
        } catch {
            return "ImageProbe threw \(Swift.type(of: error)), not a Failure"
        }
    }

    /// One header of each reader (the type byte first).
    static func imageSeeds() -> [Data] {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 2, 0, 0, 0, 1, 0, 8, 6, 0, 0, 0, 0, 0, 0, 0]
            + [0, 0, 0, 1] + Array("tRNS".utf8) + [0, 0, 0, 0, 0] + [0, 0, 0, 0] + Array("IDAT".utf8)
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
            + [0xFF, 0xC2, 0x00, 0x11, 0x08, 0x01, 0xE0, 0x02, 0x80, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01, 0xFF, 0xD9]
        func riff(_ chunk: String, _ body: [UInt8]) -> [UInt8] { Array("RIFF".utf8) + [0x40, 0, 0, 0] + Array("WEBP".utf8) + Array(chunk.utf8) + [UInt8(body.count), 0, 0, 0] + body }
        let vp8 = riff("VP8 ", [0x10, 0x02, 0x00, 0x9D, 0x01, 0x2A, 0x40, 0x06, 0x84, 0x03] + [UInt8](repeating: 0, count: 8))
        let vp8l = riff("VP8L", [0x2F, 0x4C, 0x81, 0x46, 0x10] + [UInt8](repeating: 0, count: 8))
        let vp8x = riff("VP8X", [0x10, 0, 0, 0, 0x3F, 0x06, 0x00, 0x83, 0x03, 0x00] + [UInt8](repeating: 0, count: 8))
        let svg = Array(#"<svg xmlns="http://www.w3.org/2000/svg" width="512" viewBox="0 0 48 24"/>"#.utf8)
        let gif: [UInt8] = Array("GIF89a".utf8) + [0x40, 0x01, 0xF0, 0x00, 0x80, 0, 0] + [UInt8](repeating: 0, count: 6)
            + [0x21, 0xF9, 0x04, 0x01, 0, 0, 0, 0x00] + [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0] + [0x2C, 0, 0, 0, 0, 0x40, 0x01, 0xF0, 0x00, 0]
        return [[0] + png, [1] + jpeg, [2] + vp8, [2] + vp8l, [2] + vp8x, [3] + svg, [4] + gif].map { Data($0) }
    }
}

// `subtitles`: a SubRip or WebVTT file (the first byte chooses) as the subtitle rules read it
// (`SubtitleDocument`). Never refused: every problem is reported at a line of the input. Accepted
// cues have times between 0 and 1,000 hours, and every problem's line is one of the input's.
extension FuzzTarget {
    static func checkSubtitles(_ data: Data) -> String? {
        guard let first = data.first else { return nil }
        let format: FileType = first % 2 == 0 ? .srt : .vtt
        let text = String(decoding: data.dropFirst(), as: UTF8.self)
        let document = SubtitleDocument.parse(text, format: format)
        let lineCount = text.unicodeScalars.filter { $0 == "\n" }.count + 1
        for cue in document.cues where !(0...3_600_000_000).contains(cue.start) || !(0...3_600_000_000).contains(cue.end) {
            return "a cue from \(cue.start) to \(cue.end) ms"
        }
        for problem in document.problems where !(1...lineCount).contains(problem.line) || problem.column < 1 {
            return "a problem at line \(problem.line), column \(problem.column) of \(lineCount) lines"
        }
        return nil
    }

    static func subtitleSeeds() -> [Data] {
        ["\u{0}1\n00:00:00,000 --> 00:00:03,400\nThis is Orsanmichele\n\n2\n00:00:03,480 --> 00:00:06,200\n<i>Look</i>\n",
         "\u{1}WEBVTT\n\nNOTE x\n\nid\n00:00.000 --> 00:02.000 line:90% align:center position:10%,line-left\n<c.big>Hi</c>\n"].map { Data($0.utf8) }
    }
}

// `audio-frames`: an MP3 or WAV file (the first byte chooses) as the media probe walks it
// (`MediaProbe`: MP3 frames and tags, WAV chunks). Refused: only with a `ProbeFailure` whose offset
// lies within the input. Accepted: a finite, positive duration no longer than the input could hold
// (an MP3 frame of at least 24 bytes plays at most 1152 samples at 8 kHz; a WAV byte rate of at
// least 1 byte a second), a known sample rate, and one or two channels for MP3.
extension FuzzTarget {
    static func checkAudioFrames(_ data: Data) -> String? {
        guard let first = data.first else { return nil }
        let type: FileType = first % 2 == 0 ? .mp3 : .wav
        let bytes = Array(data.dropFirst())
        switch MediaProbe.probe(ByteReader(bytes), as: type) {
        case .failure(let failure)?:
            if let offset = failure.offset, !(0...bytes.count).contains(offset) { return "\(type) refused at offset \(offset) of \(bytes.count) bytes" }
            return nil
        case .success(let facts)?:
            guard facts.duration.isFinite, facts.duration > 0 else { return "\(type) accepted with a duration of \(facts.duration)" }
            let longest = type == .mp3 ? Double(bytes.count) / 24 * 1152 / 8000 : Double(bytes.count)
            guard facts.duration <= longest else { return "\(type) of \(bytes.count) bytes accepted as \(facts.duration) s" }
            if type == .mp3 {
                guard [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000].contains(facts.sampleRate ?? 0) else { return "mp3 at \(facts.sampleRate ?? 0) Hz" }
                guard [1, 2].contains(facts.channels ?? 0) else { return "mp3 with \(facts.channels ?? 0) channels" }
            }
            return nil
        case nil:
            return "no probe for \(type)"
        }
    }

    /// A silent MP3 with an Info header, one without, tagged at both ends, a PCM WAV (type byte first),
    /// and a sample tour's spoken MP3 when run from the repository root.
    static func audioSeeds() -> [Data] {
        let sample = FileManager.default.contents(atPath: "Tenants/sonic-walkscape/tours/florence-renaissance/audio/en/01-duomo.mp3").map { [Data([0]) + $0] } ?? []
        return sample + syntheticAudioSeeds()
    }

    static func syntheticAudioSeeds() -> [Data] {
        let header: [UInt8] = [0xFF, 0xFB, 0x18, 0xC0]
        let frame = header + [UInt8](repeating: 0, count: 140)
        var info = frame
        info.replaceSubrange(21..<33, with: Array("Info".utf8) + [0, 0, 0, 1, 0, 0, 0, 4])
        let frames = Array([[UInt8]](repeating: frame, count: 4).joined())
        let id3: [UInt8] = Array("ID3".utf8) + [4, 0, 0x10, 0, 0, 0, 4, 0, 0, 0, 0] + Array("3DI".utf8) + [4, 0, 0x10, 0, 0, 0, 4]
        let id3v1 = Array("TAG".utf8) + [UInt8](repeating: 0x20, count: 125)
        let wav = Array("RIFF".utf8) + [56, 0, 0, 0] + Array("WAVEfmt ".utf8) + [16, 0, 0, 0, 1, 0, 1, 0, 0x11, 0x2B, 0, 0, 0x22, 0x56, 0, 0, 2, 0, 16, 0]
            + Array("data".utf8) + [20, 0, 0, 0] + [UInt8](repeating: 0, count: 20)
        return [[0] + info + frames, [0] + frames, [0] + id3 + frames + id3v1, [1] + wav].map { Data($0) }
    }
}
