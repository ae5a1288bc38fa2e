import Foundation
import LiveryMedia

// `mp4-boxes`: an MP4 or QuickTime file as the asset check measures it (`MP4Probe`'s box walk).
// Refused: only with a `ProbeFailure`, its offset (when given) inside the input. Accepted: a finite
// duration ≥ 0, width and height (when known) between 1 and 65535, a positive sample rate and
// channel count (when known), a bit rate ≥ 0 and a codec name.
extension FuzzTarget {
    static func checkMP4Boxes(_ data: Data) -> String? {
        let bytes = [UInt8](data)
        do {
            let facts = try MP4Probe.probe(ByteReader(bytes))
            guard facts.duration.isFinite, facts.duration >= 0 else { return "accepted with a duration of \(facts.duration) s" }
            for (name, side) in [("width", facts.width), ("height", facts.height)] where side.map({ !(1...65535).contains($0) }) ?? false {
                return "accepted with a \(name) of \(side ?? 0)"
            }
            if let rate = facts.sampleRate, rate < 1 { return "accepted with a sample rate of \(rate)" }
            if let channels = facts.channels, channels < 1 { return "accepted with \(channels) channels" }
            if let bitrate = facts.bitrate, bitrate < 0 { return "accepted with a bit rate of \(bitrate)" }
            if facts.codec.isEmpty { return "accepted without a codec" }
            if facts.hasVideo == false, facts.width != nil { return "a size without a video track" }
            return nil
        } catch let failure as ProbeFailure {
            if let offset = failure.offset, !(0...bytes.count).contains(offset) { return "refused at byte \(offset) of \(bytes.count)" }
            return failure.message.isEmpty ? "refused without a reason" : nil
        } catch {
            return "MP4Probe threw \(type(of: error)), not a ProbeFailure"
        }
    }

    /// Hand-built files covering each reader path: an M4A with its esds, moov after mdat with v1
    /// headers and an edit list, a fragmented file, a QuickTime file with v1 and v2 sound
    /// descriptions; and the sample tenant's video when run from the repository root.
    static func mp4Seeds() -> [Data] {
        typealias B = MP4SeedBoxes
        let ftyp = B.box("ftyp", Array("isom".utf8), B.be(512, 4), Array("isomiso2mp41".utf8))
        // ES descriptor → decoder config (AAC, 0x40) → AudioSpecificConfig: AAC LC, 44100 Hz, mono.
        let esds = B.full("esds", 0, 0, [0x03, 0x19, 0, 1, 0, 0x04, 0x11, 0x40, 0x15, 0, 0, 0, 0, 0, 0xFA, 0, 0, 0, 0xFA, 0, 0x05, 0x02, 0x12, 0x08, 0x06, 0x01, 0x02])
        let aac = B.sound("mp4a", version: 0, channels: 2, rate: 44100, extra: esds)
        let m4a = ftyp + B.box("moov", B.mvhd(version: 0, scale: 1000, duration: 1500),
                               B.track(id: 1, handler: "soun", version: 0, scale: 44100, duration: 67174, edits: [1500], entry: aac))
            + B.box("mdat", [UInt8](repeating: 0x21, count: 64))
        let avc = B.visual("avc1", width: 160, height: 90)
        let moovLast = ftyp + B.box("free", []) + B.box("mdat", [UInt8](repeating: 0, count: 32))
            + B.box("moov", B.mvhd(version: 1, scale: 600, duration: 1800),
                    B.track(id: 1, handler: "vide", version: 1, scale: 12800, duration: 38400, edits: [1800], entry: avc, width: 160, height: 90),
                    B.track(id: 2, handler: "soun", version: 1, scale: 44100, duration: 133_324, edits: nil, entry: aac))
        let fragmented = ftyp + B.box("moov", B.mvhd(version: 0, scale: 1000, duration: 0),
                                      B.track(id: 1, handler: "vide", version: 0, scale: 12800, duration: 0, edits: nil, entry: avc, width: 160, height: 90),
                                      B.box("mvex", B.full("mehd", 0, 0, B.be(2000, 4)), B.full("trex", 0, 0, B.be(1, 4), B.be(1, 4), B.be(512, 4), B.be(0, 8))))
            + B.box("moof", B.full("mfhd", 0, 0, B.be(1, 4)),
                    B.box("traf", B.full("tfhd", 0, 0x08, B.be(1, 4), B.be(512, 4)), B.full("tfdt", 1, 0, B.be(0, 8)),
                          B.full("trun", 0, 0x301, B.be(2, 4), B.be(0, 4), B.be(512, 4), B.be(10, 4), B.be(512, 4), B.be(10, 4))))
            + B.box("mdat", [UInt8](repeating: 0, count: 20))
        // QuickTime: no ftyp, a wide box, a v1 mp4a with its esds inside wave, a v2 description first.
        let wave = B.box("wave", B.box("frma", Array("mp4a".utf8)), esds, B.be(8, 4) + B.be(0, 4))
        let quickTime = B.box("wide", []) + B.box("mdat", [1, 2, 3])
            + B.box("moov", B.mvhd(version: 0, scale: 600, duration: 600),
                    B.track(id: 1, handler: "soun", version: 0, scale: 48000, duration: 48000, edits: nil, entry: B.soundVersion2("lpcm", rate: 48000, channels: 6)),
                    B.track(id: 2, handler: "soun", version: 0, scale: 44100, duration: 44100, edits: nil, entry: B.sound("mp4a", version: 1, channels: 1, rate: 44100, extra: wave)))
        var seeds = [m4a, moovLast, fragmented, quickTime].map { Data($0) }
        if let sample = FileManager.default.contents(atPath: "Tenants/companero-lucia/library/video/warm-up.mp4") { seeds.append(sample) }
        return seeds
    }
}

/// Box building for the seeds: big-endian sizes, types, full-box version and flags.
enum MP4SeedBoxes {
    static func be(_ value: UInt64, _ size: Int) -> [UInt8] { (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    static func box(_ type: String, _ parts: [UInt8]...) -> [UInt8] {
        let body = parts.flatMap { $0 }
        return be(UInt64(8 + body.count), 4) + Array(type.utf8) + body
    }

    static func full(_ type: String, _ version: UInt8, _ flags: UInt64, _ parts: [UInt8]...) -> [UInt8] {
        box(type, [version] + be(flags, 3) + parts.flatMap { $0 })
    }

    /// Creation and modification times, then `middle`, then the duration: 32-bit (version 0) or 64-bit.
    static func times(_ version: UInt8, _ middle: [UInt8], _ duration: UInt64) -> [UInt8] {
        version == 1 ? be(0, 16) + middle + be(duration, 8) : be(0, 8) + middle + be(duration, 4)
    }

    static func mvhd(version: UInt8, scale: UInt64, duration: UInt64) -> [UInt8] {
        full("mvhd", version, 0, times(version, be(scale, 4), duration), be(0x10000, 4), be(0x100, 2), be(0, 10), be(0, 36), be(0, 24), be(3, 4))
    }

    static func track(id: UInt64, handler: String, version: UInt8, scale: UInt64, duration: UInt64, edits: [UInt64]?, entry: [UInt8],
                      width: UInt64 = 0, height: UInt64 = 0) -> [UInt8] {
        let tkhd = full("tkhd", version, 3, times(version, be(id, 4) + be(0, 4), duration), be(0, 16), be(0, 36), be(width << 16, 4), be(height << 16, 4))
        let edts = edits.map { box("edts", full("elst", 0, 0, be(UInt64($0.count), 4), $0.flatMap { be($0, 4) + be(0, 4) + be(0x10000, 4) })) } ?? []
        let mdhd = full("mdhd", version, 0, times(version, be(scale, 4), duration), be(0x55C4, 2), be(0, 2))
        let hdlr = full("hdlr", 0, 0, be(0, 4), Array(handler.utf8), be(0, 12), [0])
        let stbl = box("stbl", full("stsd", 0, 0, be(1, 4), entry), full("stts", 0, 0, be(0, 4)))
        return box("trak", tkhd, edts, box("mdia", mdhd, hdlr, box("minf", stbl)))
    }

    static func visual(_ format: String, width: UInt64, height: UInt64) -> [UInt8] {
        box(format, be(0, 6), be(1, 2), be(0, 16), be(width, 2), be(height, 2), be(0x480000, 4), be(0x480000, 4), be(0, 4), be(1, 2), be(0, 32), be(24, 2), be(0xFFFF, 2))
    }

    /// An ISO (version 0) or QuickTime version 1 sound description, then `extra` (esds, wave).
    static func sound(_ format: String, version: UInt64, channels: UInt64, rate: UInt64, extra: [UInt8]) -> [UInt8] {
        box(format, be(0, 6), be(1, 2), be(version, 2), be(0, 6), be(channels, 2), be(16, 2), be(version == 1 ? 0xFFFE : 0, 2), be(0, 2), be(rate << 16, 4),
            version == 1 ? be(1024, 4) + be(0, 4) + be(0, 4) + be(2, 4) : [], extra)
    }

    /// QuickTime's version 2 sound description: the rate a 64-bit float, the channels 32 bits.
    static func soundVersion2(_ format: String, rate: Double, channels: UInt64) -> [UInt8] {
        box(format, be(0, 6), be(1, 2), be(2, 2), be(0, 6), be(3, 2), be(16, 2), be(0xFFFE, 2), be(0, 2), be(0x10000, 4),
            be(72, 4), be(rate.bitPattern, 8), be(channels, 4), be(0x7F00_0000, 4), be(16, 4), be(12, 4), be(4, 4), be(1, 4))
    }
}
