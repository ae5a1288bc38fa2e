import Foundation

/// Walks an MP3 file frame by frame: ID3v2 tags (with footer and padding) at the front; ID3v1,
/// APEv2, Lyrics3v2 and appended ID3v2 tags at the end; every MPEG audio frame header in between
/// (version, layer, bit rate, sample rate, padding), and the Xing/Info or VBRI header of the first
/// frame. Only the four header bytes of each frame are read, never the audio in it.
///
/// A file is refused, naming the byte offset, when its frames stop before its end (bytes that are
/// not frames in the middle or at the end), when its last frame is cut short, or when a Xing or
/// VBRI header promises more (or fewer) frames than the file holds.
enum MP3Probe {
    enum Version: Equatable {
        case mpeg1, mpeg2, mpeg25
    }

    /// One MPEG audio frame header.
    struct Header: Equatable {
        var version: Version
        var layer: Int
        var protected: Bool
        /// Bits per second.
        var bitrate: Int
        var sampleRate: Int
        var padding: Bool
        var mono: Bool
        var channelMode: Int

        static let bitrates: [[Int]] = [
            [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],  // MPEG-1 layer I
            [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],     // MPEG-1 layer II
            [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],      // MPEG-1 layer III
            [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],     // MPEG-2/2.5 layer I
            [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],          // MPEG-2/2.5 layers II and III
        ]

        /// Reads four header bytes; nil when they are not a valid frame header (no sync, a reserved
        /// version, layer, sample rate or emphasis, or the "bad" bit rate). Free-format frames
        /// (bit rate index 0) are refused here too: their length cannot be known from the header.
        init?(_ word: UInt32) {
            let b0 = UInt8(word >> 24), b1 = UInt8(word >> 16 & 0xFF), b2 = UInt8(word >> 8 & 0xFF), b3 = UInt8(word & 0xFF)
            guard b0 == 0xFF, b1 & 0xE0 == 0xE0 else { return nil }
            switch (b1 >> 3) & 0x03 {
            case 0: version = .mpeg25
            case 2: version = .mpeg2
            case 3: version = .mpeg1
            default: return nil
            }
            let layerBits = Int((b1 >> 1) & 0x03)
            guard layerBits != 0 else { return nil }
            layer = 4 - layerBits
            protected = b1 & 0x01 == 0
            let bitrateIndex = Int(b2 >> 4), rateIndex = Int((b2 >> 2) & 0x03)
            guard bitrateIndex != 0, bitrateIndex != 15, rateIndex != 3, b3 & 0x03 != 2 else { return nil }
            let table = version == .mpeg1 ? layer - 1 : (layer == 1 ? 3 : 4)
            bitrate = Header.bitrates[table][bitrateIndex] * 1000
            let base = [44100, 48000, 32000][rateIndex]
            sampleRate = version == .mpeg1 ? base : version == .mpeg2 ? base / 2 : base / 4
            padding = (b2 >> 1) & 0x01 == 1
            channelMode = Int(b3 >> 6)
            mono = channelMode == 3
        }

        /// Samples per channel in one frame.
        var samples: Int {
            switch layer {
            case 1: return 384
            case 2: return 1152
            default: return version == .mpeg1 ? 1152 : 576
            }
        }

        /// The frame's length in bytes, header included.
        var length: Int {
            switch layer {
            case 1: return (12 * bitrate / sampleRate + (padding ? 1 : 0)) * 4
            case 2: return 144 * bitrate / sampleRate + (padding ? 1 : 0)
            default: return (version == .mpeg1 ? 144 : 72) * bitrate / sampleRate + (padding ? 1 : 0)
            }
        }

        /// Whether `other` can follow this frame in the same stream (version, layer, sample rate and
        /// mono-or-not stay; bit rate, padding and the stereo mode may change).
        func continues(_ other: Header) -> Bool {
            other.version == version && other.layer == layer && other.sampleRate == sampleRate && other.mono == mono
        }

        /// Where a Xing or Info header starts in the first frame: after the side information.
        var xingOffset: Int {
            4 + (version == .mpeg1 ? (mono ? 17 : 32) : (mono ? 9 : 17))
        }
    }

    /// What a Xing/Info or VBRI header in the first frame says.
    struct VBRHeader {
        var kind: String
        var frames: Int?
        var bytes: Int?
    }

    static func probe(_ reader: ByteReader) throws -> MediaFacts {
        let (start, end) = try audioRange(reader)
        var offset = start
        // Tag editors may pad after an ID3v2 tag beyond its declared size; zero bytes are never a frame.
        while offset < end, reader.byte(at: offset) == 0 { offset += 1 }
        guard offset < end else { throw ProbeFailure("holds no MPEG audio frames", offset: start) }
        guard let first = header(reader, at: offset), confirmed(reader, first, at: offset, end: end) else {
            if let resumed = resync(reader, from: offset + 1, end: end) {
                throw ProbeFailure("has \(resumed - offset) bytes that are not MPEG audio before its first frame at byte \(resumed)", offset: offset)
            }
            throw ProbeFailure("holds no MPEG audio frames", offset: offset)
        }
        let vbr = vbrHeader(reader, first, at: offset)
        var frames = 0, audioBytes = 0, bitrates = Set<Int>()
        if vbr != nil { offset += first.length }
        // The last two distinct header words that were frames of this stream, and their headers: a constant bit rate
        // stream alternates between two words (padded or not), so most frames are recognised by one comparison
        // instead of a decode (the walk is a third of a cold validation's work on an audio tour).
        var known: (UInt32, Header, UInt32, Header) = (0, first, 0, first)
        var lastBitrate = -1
        while offset < end {
            let frame: Header
            if let word = reader.word(at: offset), word != 0, word == known.0 || word == known.2 {
                frame = word == known.0 ? known.1 : known.3
            } else if let word = reader.word(at: offset), let decoded = Header(word), first.continues(decoded) {
                frame = decoded
                known = (word, decoded, known.0, known.1)
            } else {
                if let resumed = resync(reader, from: offset + 1, end: end, like: first) {
                    throw ProbeFailure("has \(resumed - offset) bytes that are not MPEG audio frames after \(frames) frames; frames resume at byte \(resumed)", offset: offset)
                }
                if reader.bytes(at: offset, count: end - offset).allSatisfy({ $0 == 0 }) { break }
                throw ProbeFailure("stops holding MPEG audio frames \(end - offset) bytes before its end, after \(frames) frames", offset: offset)
            }
            let length = frame.length
            guard offset + length <= end else {
                throw ProbeFailure("is cut short: its last frame needs \(length) bytes, only \(end - offset) are left", offset: offset)
            }
            frames += 1
            audioBytes += length
            if frame.bitrate != lastBitrate {
                bitrates.insert(frame.bitrate)
                lastBitrate = frame.bitrate
            }
            offset += length
        }
        guard frames > 0 else { throw ProbeFailure("holds no MPEG audio frames after its \(vbr?.kind ?? "") header", offset: start) }
        var counted = frames
        // A count of zero is an encoder that never went back to fill its header in; the frames decide.
        if let promised = vbr?.frames, promised > 0 {
            if frames < promised - 1 {
                throw ProbeFailure("is cut short: its \(vbr!.kind) header promises \(promised) frames, the file holds \(frames)", offset: offset)
            }
            if frames > promised + 1 {
                throw ProbeFailure("holds \(frames) frames, but its \(vbr!.kind) header says \(promised): players would show the wrong length and seek to the wrong place",
                                   offset: start)
            }
            counted = promised
        }
        let duration = Double(counted * first.samples) / Double(first.sampleRate)
        let variable = vbr.map { $0.kind != "Info" } ?? (bitrates.count > 1)
        let bitrate = !variable && bitrates.count == 1 ? bitrates.first! : Int((Double(audioBytes * 8) / max(duration, 1e-9)).rounded())
        return MediaFacts(codec: first.layer == 3 ? "mp3" : "mp\(first.layer)", duration: duration, sampleRate: first.sampleRate,
                          channels: first.mono ? 1 : 2, bitrate: bitrate, bitrateMode: variable ? .variable : .constant)
    }

    /// The frame header at `offset`, or nil.
    static func header(_ reader: ByteReader, at offset: Int) -> Header? {
        reader.word(at: offset).flatMap(Header.init)
    }

    /// Whether the frame at `offset` is followed by another frame of the same stream, or ends the audio exactly.
    static func confirmed(_ reader: ByteReader, _ frame: Header, at offset: Int, end: Int) -> Bool {
        let next = offset + frame.length
        if next == end { return true }
        guard next < end, let following = header(reader, at: next) else { return false }
        return frame.continues(following)
    }

    /// The first offset from `start` where two frames follow each other (of the same stream as
    /// `like`, when given); nil when none does before `end`.
    static func resync(_ reader: ByteReader, from start: Int, end: Int, like: Header? = nil) -> Int? {
        var offset = start
        while offset + 4 <= end {
            if reader.byte(at: offset) == 0xFF, let frame = header(reader, at: offset), like.map({ $0.continues(frame) }) ?? true,
               confirmed(reader, frame, at: offset, end: end) {
                return offset
            }
            offset += 1
        }
        return nil
    }

    /// The Xing/Info or VBRI header in the frame at `offset`, if it has one.
    static func vbrHeader(_ reader: ByteReader, _ frame: Header, at offset: Int) -> VBRHeader? {
        let xing = offset + frame.xingOffset
        if reader.matches("Xing", at: xing) || reader.matches("Info", at: xing) {
            let kind = reader.matches("Xing", at: xing) ? "Xing" : "Info"
            guard let flags = reader.bigEndian(at: xing + 4, size: 4) else { return VBRHeader(kind: kind) }
            var field = xing + 8
            var result = VBRHeader(kind: kind)
            if flags & 1 != 0 {
                result.frames = reader.bigEndian(at: field, size: 4).map { Int($0) }
                field += 4
            }
            if flags & 2 != 0 { result.bytes = reader.bigEndian(at: field, size: 4).map { Int($0) } }
            return result
        }
        if reader.matches("VBRI", at: offset + 36) {
            return VBRHeader(kind: "VBRI", frames: reader.bigEndian(at: offset + 50, size: 4).map { Int($0) },
                             bytes: reader.bigEndian(at: offset + 46, size: 4).map { Int($0) })
        }
        return nil
    }

    /// The byte range that holds frames: after any ID3v2 tags at the front, before any ID3v1,
    /// APEv2, Lyrics3v2 or appended ID3v2 tags at the end.
    static func audioRange(_ reader: ByteReader) throws -> (start: Int, end: Int) {
        var start = 0
        while reader.matches("ID3", at: start) {
            guard let size = syncsafe(reader, at: start + 6), let flags = reader.byte(at: start + 5) else {
                throw ProbeFailure("has an ID3v2 tag cut short", offset: start)
            }
            let length = 10 + size + (flags & 0x10 != 0 ? 10 : 0)
            guard start + length <= reader.count else {
                throw ProbeFailure("has an ID3v2 tag of \(length) bytes, more than the file holds", offset: start)
            }
            start += length
        }
        var end = reader.count
        var changed = true
        while changed, end > start {
            changed = false
            if end - 128 >= start, reader.matches("TAG", at: end - 128) {
                end -= 128
                changed = true
            }
            if end - 32 >= start, reader.matches("APETAGEX", at: end - 32),
               let size = reader.littleEndian(at: end - 20, size: 4), let flags = reader.littleEndian(at: end - 12, size: 4) {
                let length = Int(size) + (flags & 0x8000_0000 != 0 ? 32 : 0)
                guard length >= 32, end - length >= start else { throw ProbeFailure("has an APE tag larger than the file", offset: end - 32) }
                end -= length
                changed = true
            }
            if end - 15 >= start, reader.matches("LYRICS200", at: end - 9),
               let digits = String(bytes: reader.bytes(at: end - 15, count: 6), encoding: .ascii), let size = Int(digits) {
                guard end - 15 - size >= start else { throw ProbeFailure("has a Lyrics3 tag larger than the file", offset: end - 15) }
                end -= size + 15
                changed = true
            }
            if end - 10 >= start, reader.matches("3DI", at: end - 10), let size = syncsafe(reader, at: end - 4) {
                guard end - 20 - size >= start else { throw ProbeFailure("has an appended ID3v2 tag larger than the file", offset: end - 10) }
                end -= size + 20
                changed = true
            }
        }
        return (start, end)
    }

    /// A 28-bit "syncsafe" integer (seven bits a byte), as ID3v2 stores sizes; nil when cut short or a byte has its top bit set.
    static func syncsafe(_ reader: ByteReader, at offset: Int) -> Int? {
        let bytes = reader.bytes(at: offset, count: 4)
        guard bytes.count == 4, bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        return bytes.reduce(0) { $0 << 7 | Int($1) }
    }
}

/// Reads a RIFF WAVE file's chunks: `fmt ` (format, channels, sample rate, byte rate) and `data`
/// (its length gives the duration; `fact` gives it for compressed formats).
enum WAVProbe {
    static func probe(_ reader: ByteReader) throws -> MediaFacts {
        guard reader.matches("RIFF", at: 0), reader.matches("WAVE", at: 8) else {
            if reader.matches("RF64", at: 0) { throw ProbeFailure("is an RF64 file (a WAV over 4 GB), which phones do not play") }
            throw ProbeFailure("does not start with a RIFF WAVE header")
        }
        var offset = 12
        var format: (tag: Int, channels: Int, sampleRate: Int, byteRate: Int)?
        var factSamples: Int?
        var chunks = 0
        while offset + 8 <= reader.count {
            chunks += 1
            guard chunks <= 10_000 else { throw ProbeFailure("has more than 10,000 chunks", offset: offset) }
            let id = String(decoding: reader.bytes(at: offset, count: 4), as: UTF8.self)
            let size = Int(reader.littleEndian(at: offset + 4, size: 4)!)
            let body = offset + 8
            if id != "data", body + size > reader.count {
                throw ProbeFailure("has a '\(id)' chunk of \(size) bytes, more than the file holds", offset: offset)
            }
            switch id {
            case "fmt ":
                guard size >= 16, let tag = reader.littleEndian(at: body, size: 2), let channels = reader.littleEndian(at: body + 2, size: 2),
                      let rate = reader.littleEndian(at: body + 4, size: 4), let byteRate = reader.littleEndian(at: body + 8, size: 4) else {
                    throw ProbeFailure("has a fmt chunk cut short", offset: offset)
                }
                var formatTag = Int(tag)
                if formatTag == 0xFFFE, size >= 40, let sub = reader.littleEndian(at: body + 24, size: 2) { formatTag = Int(sub) }
                guard channels > 0, rate > 0, byteRate > 0 else {
                    throw ProbeFailure("declares \(channels) channels at \(rate) Hz and \(byteRate) bytes a second", offset: body)
                }
                format = (formatTag, Int(channels), Int(rate), Int(byteRate))
            case "fact":
                factSamples = reader.littleEndian(at: body, size: 4).map { Int($0) }
            case "data":
                guard let format else { throw ProbeFailure("has its data chunk before its fmt chunk", offset: offset) }
                guard body + size <= reader.count else {
                    throw ProbeFailure("is cut short: its data chunk needs \(size) bytes, the file ends \(body + size - reader.count) bytes early", offset: offset)
                }
                let codec: String
                switch format.tag {
                case 1: codec = "pcm"
                case 3: codec = "pcm-float"
                case 0x55: codec = "mp3"
                default: codec = String(format: "wav-0x%04x", format.tag)
                }
                let duration = format.tag != 1 && format.tag != 3 && factSamples != nil
                    ? Double(factSamples!) / Double(format.sampleRate)
                    : Double(size) / Double(format.byteRate)
                guard duration > 0 else { throw ProbeFailure("holds no audio: its data chunk is empty", offset: offset) }
                return MediaFacts(codec: codec, duration: duration, sampleRate: format.sampleRate, channels: format.channels,
                                  bitrate: format.byteRate * 8, bitrateMode: .constant)
            default:
                break
            }
            offset = body + size + (size & 1)
        }
        throw ProbeFailure(format == nil ? "has no fmt chunk" : "has no data chunk", offset: min(offset, reader.count))
    }
}
