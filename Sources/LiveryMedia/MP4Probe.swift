import Foundation

/// Measures an MP4, M4A or QuickTime file from its ISO BMFF box tree, never reading media data.
///
/// A hand-written, bounded walk over box headers (the rationale is `MediaProbe`'s): every box must
/// fit its parent and the file, and the first one that does not is reported with its byte offset.
/// It reads `moov/mvhd`, each `trak`'s `tkhd`, `edts/elst` and `mdia` (`mdhd`, `hdlr`, the first
/// sample entry of `minf/stbl/stsd`), `mvex` (`mehd`, `trex`) and, for fragmented files, each
/// `moof/traf` (`tfhd`, `tfdt`, `trun`); an `mp4a` entry's `esds` (or QuickTime's `wave/esds`) says
/// MP3 or AAC and, for AAC, the channels. Everything goes through the `ByteReader` a few bytes at a
/// time, so a large `moov` is never held in memory, and `mdat` contributes only its header. It only
/// descends the paths above (eight levels at most); `maximumDepth` guards that should one be added.
/// Sizes from the file are compared as `UInt64` before they become offsets, sums saturate, and
/// nothing is allocated by a count the file states: a hostile file is refused, it never traps.
///
/// Duration is what ffprobe reports as the format's: `mvhd`'s duration (edit lists already applied,
/// so an AAC track's priming samples do not count), else the longest track's edit list, else its
/// `mdhd`; a fragmented file's is the longest of `mvhd`, `mehd` and each track's last fragment end.
public enum MP4Probe {
    /// The deepest nesting walked (the paths read reach eight).
    static let maximumDepth = 16
    /// The most box headers read in one file.
    static let maximumBoxes = 100_000
    /// The most edit list and fragment sample entries read in one file (a day of 25 fps video is 2.2 million).
    static let maximumEntries = 1 << 24

    /// What ffmpeg's MOV reader accepts as a file's first box (QuickTime files need not start with `ftyp`).
    static let firstBoxTypes: Set<FourCC> = ["ftyp", "moov", "mdat", "free", "skip", "wide", "pnot", "uuid", "udta", "junk", "pict", "prfl", "styp", "sidx", "moof"]

    /// The facts of an MP4 or QuickTime file; throws a `ProbeFailure` saying what is wrong and where.
    public static func probe(_ reader: ByteReader) throws -> MediaFacts {
        guard reader.count >= 8 else { throw ProbeFailure("is too short for a box header (\(reader.count) bytes)", offset: 0) }
        let first = FourCC(reader.bigEndian(at: 4, size: 4) ?? 0)
        guard firstBoxTypes.contains(first) else {
            throw ProbeFailure("does not start with an ftyp, moov, mdat or other MP4 box (its first box type would be \(first))", offset: 4)
        }
        var walk = MP4BoxWalk(reader: reader)
        let top = try walk.children(from: 0, to: reader.count, of: nil, depth: 0)
        guard let moov = top.first(where: { $0.type == "moov" }) else {
            if top.contains(where: { $0.type == "ftyp" }) { throw ProbeFailure("has no moov box, so nothing describes its tracks") }
            throw ProbeFailure("has neither an ftyp nor a moov box")
        }
        var movie = try walk.movie(moov)
        for moof in top where moof.type == "moof" { try walk.fragment(moof, into: &movie) }
        return try movie.facts(moov: moov, top: top)
    }
}

/// A box type or sample entry format: four bytes, usually ASCII, kept as their 32 bits.
struct FourCC: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    let raw: UInt32

    init(_ raw: UInt64) { self.raw = UInt32(truncatingIfNeeded: raw) }
    init(stringLiteral text: String) { raw = text.utf8.prefix(4).reduce(0) { $0 << 8 | UInt32($1) } }

    /// The four characters, nil when one is not printable ASCII.
    var text: String? {
        let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: raw >> $0) }
        guard bytes.allSatisfy({ (0x20...0x7E).contains($0) }) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `mdat`, `'ac-3'` (quoted when not letters and digits), `0x00000003` (not text).
    var description: String {
        guard let text else {
            let hex = String(raw, radix: 16, uppercase: true)
            return "0x" + String(repeating: "0", count: 8 - hex.count) + hex
        }
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } ? text : "'\(text)'"
    }
}

/// One box: its type and where its header, payload and end are in the file.
struct MP4Box {
    let type: FourCC
    let start: Int
    let payload: Int
    let end: Int

    var size: Int { end - start }
}

/// What the walk gathered from `moov` and the fragments.
struct MP4Movie {
    var timescale: UInt64 = 0
    var duration: UInt64 = 0
    var fragmented = false
    /// `mehd`'s fragment duration, in the movie's timescale.
    var fragmentDuration: UInt64 = 0
    /// `trex`'s default sample duration per track id.
    var defaultDurations: [UInt64: UInt64] = [:]
    /// The audio and video tracks, in file order.
    private(set) var tracks: [MP4Track] = []
    /// Where each track id's (first) track is in `tracks`, for the fragments that name it.
    private(set) var trackIndexes: [UInt64: Int] = [:]

    mutating func append(_ track: MP4Track) {
        if trackIndexes[track.id] == nil { trackIndexes[track.id] = tracks.count }
        tracks.append(track)
    }

    mutating func update(track index: Int, fragmentEnd: UInt64) {
        tracks[index].fragmentEnd = max(tracks[index].fragmentEnd ?? 0, fragmentEnd)
    }
}

/// An audio (`soun`) or video (`vide`) track.
struct MP4Track {
    var id: UInt64 = 0
    var isVideo = false
    var timescale: UInt64 = 0
    var duration: UInt64 = 0
    /// The edit list's total, in the movie's timescale.
    var editDuration: UInt64 = 0
    /// Where the last fragment's samples end, in the track's timescale.
    var fragmentEnd: UInt64?
    /// `tkhd`'s display size.
    var width = 0
    var height = 0
    var entry = MP4SampleEntry(format: "    ")
}

/// The first sample entry of a track's `stsd`.
struct MP4SampleEntry {
    var format: FourCC
    var channels = 0
    var sampleRate = 0
    var width = 0
    var height = 0
    /// An `mp4a` entry whose `esds` says MPEG-1/2 audio (MP3), not AAC.
    var isMP3 = false
}

extension UInt64 {
    func adding(saturating other: UInt64) -> UInt64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }
}

/// The walk itself: box headers bounded by their parents, counted, and fields read through the reader.
struct MP4BoxWalk {
    let reader: ByteReader
    private(set) var boxes = 0
    private(set) var entries = 0

    init(reader: ByteReader) { self.reader = reader }

    /// The boxes of `parent`'s payload, at `depth` (1 for `moov`'s children).
    mutating func children(of parent: MP4Box, depth: Int) throws -> [MP4Box] {
        try children(from: parent.payload, to: parent.end, of: parent, depth: depth)
    }

    /// The boxes from `start` to `end`, inside `parent` (nil: the file's top level).
    mutating func children(from start: Int, to end: Int, of parent: MP4Box?, depth: Int) throws -> [MP4Box] {
        guard depth <= MP4Probe.maximumDepth else { throw ProbeFailure("nests boxes more than \(MP4Probe.maximumDepth) deep", offset: start) }
        var found: [MP4Box] = []
        var offset = start
        // Fewer than 8 bytes cannot be a box: QuickTime ends some containers with a 32-bit zero,
        // and ffmpeg's reader skips such a tail, so the walk does too.
        while end - offset >= 8 {
            boxes += 1
            guard boxes <= MP4Probe.maximumBoxes else { throw ProbeFailure("has more than \(MP4Probe.maximumBoxes) boxes", offset: offset) }
            let type = FourCC(reader.bigEndian(at: offset + 4, size: 4) ?? 0)
            let room = UInt64(end - offset)
            var size = reader.bigEndian(at: offset, size: 4) ?? 0
            var header = 8
            switch size {
            case 0:
                size = room  // to the end of the parent, or of the file at the top
            case 1:
                guard room >= 16 else { throw overrun(type, at: offset, size: 16, room: room, parent: parent) }
                size = reader.bigEndian(at: offset + 8, size: 8) ?? 0
                header = 16
                guard size >= 16 else {
                    throw ProbeFailure("has a \(type) box at byte \(offset) with a 64-bit size of \(size) bytes, less than its 16-byte header", offset: offset)
                }
            case 2..<8:
                throw ProbeFailure("has a \(type) box at byte \(offset) with a size of \(size) bytes, less than its 8-byte header", offset: offset)
            default:
                break
            }
            guard size <= room else { throw overrun(type, at: offset, size: size, room: room, parent: parent) }
            let box = MP4Box(type: type, start: offset, payload: offset + header, end: offset + Int(size))
            found.append(box)
            offset = box.end
        }
        return found
    }

    private func overrun(_ type: FourCC, at offset: Int, size: UInt64, room: UInt64, parent: MP4Box?) -> ProbeFailure {
        let over = size - room
        if let parent {
            return ProbeFailure("has a \(type) box at byte \(offset) that needs \(size) bytes, \(over) more than its \(parent.type) box at byte \(parent.start) holds", offset: offset)
        }
        // A download or copy that stopped early ends inside the media data or the header after it.
        if ["mdat", "moov", "moof"].contains(type) {
            return ProbeFailure("is cut short: its \(type) box at byte \(offset) needs \(size) bytes, the file ends \(over) bytes early", offset: offset)
        }
        return ProbeFailure("has a \(type) box at byte \(offset) that needs \(size) bytes, \(over) more than the file holds", offset: offset)
    }

    /// The big-endian number of `size` bytes at `offset` in `box`'s payload; a box too short for it is refused.
    func field(_ box: MP4Box, _ offset: Int, _ size: Int) throws -> UInt64 {
        guard offset >= 0, offset + size <= box.end - box.payload else {
            throw ProbeFailure("has a \(box.type) box at byte \(box.start) too short for its fields (\(box.size) bytes)", offset: box.start)
        }
        return reader.bigEndian(at: box.payload + offset, size: size) ?? 0
    }

    /// A full box's version, refused unless 0 or 1 (32- or 64-bit times).
    func version(_ box: MP4Box) throws -> UInt64 {
        let version = try field(box, 0, 1)
        guard version <= 1 else { throw ProbeFailure("has a \(box.type) box at byte \(box.start) of version \(version), not 0 or 1", offset: box.start) }
        return version
    }

    /// Counts table entries about to be read (edits, fragment samples) against `maximumEntries`.
    mutating func spend(_ count: UInt64, at box: MP4Box) throws {
        entries += Int(min(count, UInt64(MP4Probe.maximumEntries) + 1))
        guard entries <= MP4Probe.maximumEntries else {
            throw ProbeFailure("has more than \(MP4Probe.maximumEntries) edit and sample entries (at its \(box.type) box at byte \(box.start))", offset: box.start)
        }
    }

    /// How many `entrySize`-byte entries fit in `box` after `offset` bytes; `count` more is refused.
    func checkRoom(_ box: MP4Box, for count: UInt64, of entrySize: Int, after offset: Int, naming: String) throws {
        let room = UInt64(max(0, box.end - box.payload - offset) / entrySize)
        guard count <= room else {
            throw ProbeFailure("has a \(box.type) box at byte \(box.start) that lists \(count) \(naming) but holds only \(room)", offset: box.start)
        }
    }

    /// Timescale and duration of an `mvhd` or `mdhd` box; a duration of all ones means unknown, read as 0.
    func timing(_ box: MP4Box) throws -> (scale: UInt64, duration: UInt64) {
        let long = try version(box) == 1
        let scale = try field(box, long ? 20 : 12, 4)
        let duration = try field(box, long ? 24 : 16, long ? 8 : 4)
        guard scale > 0 else { throw ProbeFailure("has a timescale of 0 in its \(box.type) box at byte \(box.start)", offset: box.start) }
        return (scale, duration == (long ? .max : UInt64(UInt32.max)) ? 0 : duration)
    }

    mutating func movie(_ moov: MP4Box) throws -> MP4Movie {
        let children = try children(of: moov, depth: 1)
        guard let mvhd = children.first(where: { $0.type == "mvhd" }) else {
            if let cmov = children.first(where: { $0.type == "cmov" }) {
                throw ProbeFailure("has a compressed movie header (cmov box at byte \(cmov.start)), which is not read", offset: cmov.start)
            }
            throw ProbeFailure("has no mvhd box in its moov box at byte \(moov.start)", offset: moov.start)
        }
        var movie = MP4Movie()
        (movie.timescale, movie.duration) = try timing(mvhd)
        for box in children {
            if box.type == "trak", let track = try track(box) { movie.append(track) }
            if box.type == "mvex" { try extends(box, into: &movie) }
        }
        return movie
    }

    /// A `trak` box's audio or video track; nil for other tracks (text, timecode, hint) and for a track without media.
    mutating func track(_ trak: MP4Box) throws -> MP4Track? {
        var track = MP4Track()
        var media: MP4Box?
        for box in try children(of: trak, depth: 2) {
            switch box.type {
            case "tkhd":
                let long = try version(box) == 1
                track.id = try field(box, long ? 20 : 12, 4)
                track.width = Int(try field(box, long ? 88 : 76, 4) >> 16)
                track.height = Int(try field(box, long ? 92 : 80, 4) >> 16)
            case "edts":
                if let elst = try children(of: box, depth: 3).first(where: { $0.type == "elst" }) { track.editDuration = try editDuration(elst) }
            case "mdia" where media == nil:
                media = box
            default:
                continue
            }
        }
        guard let media else { return nil }
        let parts = try children(of: media, depth: 3)
        guard let hdlr = parts.first(where: { $0.type == "hdlr" }) else { return nil }
        let handler = FourCC(try field(hdlr, 8, 4))
        guard handler == "vide" || handler == "soun" else { return nil }
        track.isVideo = handler == "vide"
        let kind = track.isVideo ? "video" : "audio"
        guard let mdhd = parts.first(where: { $0.type == "mdhd" }) else {
            throw ProbeFailure("has a\(track.isVideo ? "" : "n") \(kind) track (trak box at byte \(trak.start)) without an mdhd box", offset: trak.start)
        }
        (track.timescale, track.duration) = try timing(mdhd)
        var stsd: MP4Box?
        if let minf = parts.first(where: { $0.type == "minf" }), let stbl = try children(of: minf, depth: 4).first(where: { $0.type == "stbl" }) {
            stsd = try children(of: stbl, depth: 5).first { $0.type == "stsd" }
        }
        guard let stsd else {
            throw ProbeFailure("has a\(track.isVideo ? "" : "n") \(kind) track (trak box at byte \(trak.start)) without a sample description (minf/stbl/stsd)", offset: trak.start)
        }
        track.entry = try sampleEntry(stsd, video: track.isVideo)
        return track
    }

    /// The edit list's total presentation time, in the movie's timescale (empty edits included).
    mutating func editDuration(_ elst: MP4Box) throws -> UInt64 {
        let long = try version(elst) == 1
        let count = try field(elst, 4, 4), size = long ? 20 : 12
        try checkRoom(elst, for: count, of: size, after: 8, naming: "edits")
        try spend(count, at: elst)
        var total: UInt64 = 0
        for index in 0..<Int(count) { total = total.adding(saturating: try field(elst, 8 + index * size, long ? 8 : 4)) }
        return total
    }

    /// The first sample entry: its format, and channels and rate (audio: ISO, QuickTime v1 and v2
    /// sound descriptions, and for `mp4a` the `esds` descriptors) or coded size (video).
    mutating func sampleEntry(_ stsd: MP4Box, video: Bool) throws -> MP4SampleEntry {
        guard try field(stsd, 4, 4) > 0, let box = try children(from: stsd.payload + 8, to: stsd.end, of: stsd, depth: 6).first else {
            throw ProbeFailure("has an empty sample description (stsd box at byte \(stsd.start))", offset: stsd.start)
        }
        var entry = MP4SampleEntry(format: box.type)
        if video {
            entry.width = Int(try field(box, 24, 2))
            entry.height = Int(try field(box, 26, 2))
            return entry
        }
        let version = try field(box, 8, 2)
        if version == 2 {
            // QuickTime v2: the rate is a 64-bit float, the channel count 32 bits.
            let rate = Double(bitPattern: try field(box, 32, 8))
            entry.sampleRate = rate.isFinite && rate >= 1 && rate <= 16_777_216 ? Int(rate.rounded()) : 0
            entry.channels = Int(try field(box, 40, 4))
        } else {
            entry.channels = Int(try field(box, 16, 2))
            entry.sampleRate = Int(try field(box, 24, 4) >> 16)
        }
        guard box.type == "mp4a" else { return entry }
        // ISO files state 2 channels here whatever the stream holds (ffmpeg writes 2 for mono AAC):
        // the AudioSpecificConfig is what players and ffprobe go by.
        let fieldsEnd = [0: 28, 1: 44, 2: 64][version] ?? 28
        guard box.end - box.payload >= fieldsEnd else { return entry }
        var boxes = try children(from: box.payload + fieldsEnd, to: box.end, of: box, depth: 7)
        if let wave = boxes.first(where: { $0.type == "wave" }) { boxes += try children(of: wave, depth: 8) }
        guard let esds = boxes.first(where: { $0.type == "esds" }), let stream = MP4ElementaryStream(esds, reader: reader) else { return entry }
        entry.isMP3 = stream.objectType == 0x69 || stream.objectType == 0x6B
        if let channels = stream.channels { entry.channels = channels }
        if entry.sampleRate == 0, let rate = stream.sampleRate { entry.sampleRate = rate }
        return entry
    }

    /// `mvex`: the file is fragmented; `mehd` gives its duration, `trex` each track's default sample duration.
    mutating func extends(_ mvex: MP4Box, into movie: inout MP4Movie) throws {
        movie.fragmented = true
        for box in try children(of: mvex, depth: 2) {
            if box.type == "mehd" { movie.fragmentDuration = try version(box) == 1 ? field(box, 4, 8) : field(box, 4, 4) }
            if box.type == "trex" { movie.defaultDurations[try field(box, 4, 4)] = try field(box, 12, 4) }
        }
    }

    /// A `moof`: where each of its track fragments ends (`tfdt`'s start, else the previous end, plus its runs).
    mutating func fragment(_ moof: MP4Box, into movie: inout MP4Movie) throws {
        movie.fragmented = true
        for traf in try children(of: moof, depth: 1) where traf.type == "traf" {
            let parts = try children(of: traf, depth: 2)
            guard let tfhd = parts.first(where: { $0.type == "tfhd" }) else {
                throw ProbeFailure("has a traf box at byte \(traf.start) without a tfhd box", offset: traf.start)
            }
            let flags = try field(tfhd, 1, 3), id = try field(tfhd, 4, 4)
            guard let index = movie.trackIndexes[id] else { continue }
            var defaultDuration = movie.defaultDurations[id] ?? 0
            if flags & 0x08 != 0 { defaultDuration = try field(tfhd, 8 + (flags & 0x01 != 0 ? 8 : 0) + (flags & 0x02 != 0 ? 4 : 0), 4) }
            var time = movie.tracks[index].fragmentEnd ?? movie.tracks[index].duration
            if let tfdt = parts.first(where: { $0.type == "tfdt" }) { time = try version(tfdt) == 1 ? field(tfdt, 4, 8) : field(tfdt, 4, 4) }
            for trun in parts where trun.type == "trun" { time = time.adding(saturating: try runDuration(trun, defaultDuration: defaultDuration)) }
            movie.update(track: index, fragmentEnd: time)
        }
    }

    /// The summed sample durations of a `trun` box: its own per sample, else count × the default.
    mutating func runDuration(_ trun: MP4Box, defaultDuration: UInt64) throws -> UInt64 {
        let flags = try field(trun, 1, 3), count = try field(trun, 4, 4)
        let offset = 8 + (flags & 0x001 != 0 ? 4 : 0) + (flags & 0x004 != 0 ? 4 : 0)
        let entrySize = 4 * (flags & 0xF00).nonzeroBitCount
        if entrySize > 0 { try checkRoom(trun, for: count, of: entrySize, after: offset, naming: "samples") }
        guard flags & 0x100 != 0 else { return count * defaultDuration }  // both below 2^32
        try spend(count, at: trun)
        var total: UInt64 = 0
        for index in 0..<Int(count) { total = total.adding(saturating: try field(trun, offset + index * entrySize, 4)) }
        return total
    }
}

extension MP4Movie {
    func facts(moov: MP4Box, top: [MP4Box]) throws -> MediaFacts {
        let video = tracks.first { $0.isVideo }, audio = tracks.first { !$0.isVideo }
        guard let main = video ?? audio else { throw ProbeFailure("has no audio or video track", offset: moov.start) }
        let duration = playingTime()
        let mdatBytes = top.filter { $0.type == "mdat" }.reduce(0) { $0 + ($1.end - $1.payload) }
        let bitrate = duration > 0 ? Int(exactly: (Double(mdatBytes) * 8 / duration).rounded()) : nil
        let firstMdat = top.first { $0.type == "mdat" }
        let format = main.entry.format
        var codec = format.text?.trimmingCharacters(in: .whitespaces) ?? ""
        codec = format == "mp4a" ? (main.entry.isMP3 ? "mp3" : "aac") : codec.isEmpty ? format.description : codec
        var size: (width: Int, height: Int)?
        if let video {
            if video.width > 0, video.height > 0 { size = (video.width, video.height) }
            else if video.entry.width > 0, video.entry.height > 0 { size = (video.entry.width, video.entry.height) }
        }
        let rate = audio.map { $0.entry.sampleRate > 0 ? $0.entry.sampleRate : Int($0.timescale) }
        return MediaFacts(codec: codec, duration: duration, sampleRate: rate, channels: audio.flatMap { $0.entry.channels > 0 ? $0.entry.channels : nil },
                          bitrate: bitrate, width: size?.width, height: size?.height,
                          streamable: fragmented || firstMdat.map { moov.start < $0.start } ?? true, hasVideo: video != nil)
    }

    /// Seconds, as ffprobe's format duration: see `MP4Probe`.
    func playingTime() -> Double {
        func seconds(_ value: UInt64, _ scale: UInt64) -> Double { Double(value) / Double(max(scale, 1)) }
        let movie = seconds(duration, timescale)
        let longest = tracks.map { track in
            if fragmented { return seconds(Swift.max(track.duration, track.fragmentEnd ?? 0), track.timescale) }
            return track.editDuration > 0 ? seconds(track.editDuration, timescale) : seconds(track.duration, track.timescale)
        }.max() ?? 0
        if fragmented { return Swift.max(movie, seconds(fragmentDuration, timescale), longest) }
        return movie > 0 ? movie : longest
    }
}
