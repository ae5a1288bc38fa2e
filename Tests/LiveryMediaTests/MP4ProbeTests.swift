import Foundation
import LiveryMedia
import LiveryTestSupport
import XCTest

/// The MP4 probe against ffprobe (an independent reader) on a corpus ffmpeg writes, hand-built box
/// trees for what no encoder writes, and hostile ones that must be refused with the exact reason.
final class MP4ProbeTests: XCTestCase {
    /// One corpus file: how ffmpeg makes it, its video frame rate (nil: audio only), whether `moov` comes first.
    struct Recipe {
        var name: String
        var arguments: [String]
        var fps: Int?
        var streamable: Bool
    }

    func testMeasurementsAgreeWithFFprobe() throws {
        guard (try? LiveryProcess.tool(["sh", "-c", "command -v ffmpeg && command -v ffprobe"]).status) == 0 else {
            throw XCTSkip("ffmpeg is not installed (the Makefile installs it for tests)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livery-mp4-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let encoders = try LiveryProcess.tool(["ffmpeg", "-hide_banner", "-encoders"]).stdout
        let video = encoders.contains(" libx264 ") ? ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"] : ["-c:v", "mpeg4"]
        func sine(_ rate: Int, _ seconds: Double) -> [String] { ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=\(rate):duration=\(seconds)"] }
        func pattern(_ size: String, _ fps: Int, _ seconds: Double) -> [String] { ["-f", "lavfi", "-i", "testsrc=size=\(size):rate=\(fps):duration=\(seconds)"] }
        let aac = ["-c:a", "aac", "-b:a", "48k"]
        let recipes = [
            Recipe(name: "mono-22050.m4a", arguments: sine(22050, 1.3) + ["-ac", "1"] + aac, fps: nil, streamable: false),
            Recipe(name: "stereo-44100.m4a", arguments: sine(44100, 2) + ["-ac", "2"] + aac, fps: nil, streamable: false),
            Recipe(name: "stereo-48000.m4a", arguments: sine(48000, 0.7) + ["-ac", "2"] + aac, fps: nil, streamable: false),
            Recipe(name: "alac.m4a", arguments: sine(44100, 1) + ["-c:a", "alac"], fps: nil, streamable: false),
            Recipe(name: "ac3.mp4", arguments: sine(48000, 1) + ["-ac", "2", "-c:a", "ac3"], fps: nil, streamable: false),
            Recipe(name: "moov-last.mp4", arguments: pattern("160x90", 25, 1.2) + sine(48000, 1.2) + video + ["-ac", "1"] + aac, fps: 25, streamable: false),
            Recipe(name: "faststart.mp4", arguments: pattern("176x144", 30, 1) + sine(44100, 1) + video + ["-ac", "2"] + aac + ["-movflags", "+faststart"],
                   fps: 30, streamable: true),
            Recipe(name: "video-only.mp4", arguments: pattern("128x72", 24, 1.5) + video, fps: 24, streamable: false),
            Recipe(name: "clip.mov", arguments: pattern("160x120", 25, 1) + sine(44100, 1) + video + ["-ac", "2"] + aac, fps: 25, streamable: false),
            Recipe(name: "pcm.mov", arguments: sine(48000, 0.5) + ["-ac", "2", "-c:a", "pcm_s16le"], fps: nil, streamable: false),
            Recipe(name: "fragmented.mp4", arguments: pattern("160x90", 25, 2) + sine(44100, 2) + video + ["-g", "10"] + aac + ["-movflags", "frag_keyframe+empty_moov"],
                   fps: 25, streamable: true),
        ] + (encoders.contains(" libmp3lame ") ? [Recipe(name: "mp3.mp4", arguments: sine(44100, 1) + ["-ac", "2", "-c:a", "libmp3lame"], fps: nil, streamable: false)] : [])
        var table = ["file                 ours: duration codec rate/ch size streamable | ffprobe: duration codec rate/ch size"]
        for recipe in recipes {
            let url = folder.appendingPathComponent(recipe.name)
            let made = try LiveryProcess.tool(["ffmpeg", "-v", "error", "-y", "-fflags", "+bitexact"] + recipe.arguments
                + ["-flags", "+bitexact", "-map_metadata", "-1", url.path])
            XCTAssertEqual(made.status, 0, "\(recipe.name): \(made.stderr)")
            let probed = try LiveryProcess.tool(["ffprobe", "-v", "error", "-show_entries",
                                                 "format=duration:stream=codec_type,codec_name,codec_tag_string,sample_rate,channels,width,height", "-of", "json", url.path])
            let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(probed.stdout.utf8)) as? [String: Any], recipe.name)
            let streams = try XCTUnwrap(json["streams"] as? [[String: Any]], recipe.name)
            let theirDuration = try XCTUnwrap(((json["format"] as? [String: Any])?["duration"] as? String).flatMap(Double.init), recipe.name)
            let theirVideo = streams.first { $0["codec_type"] as? String == "video" }, theirAudio = streams.first { $0["codec_type"] as? String == "audio" }
            let tag = try XCTUnwrap((theirVideo ?? theirAudio)?["codec_tag_string"] as? String, recipe.name)
            // The sample entry's four characters, but `mp4a` by what its esds says: AAC, or MP3.
            let theirCodec = tag != "mp4a" ? tag.trimmingCharacters(in: .whitespaces) : theirAudio?["codec_name"] as? String == "mp3" ? "mp3" : "aac"
            let theirRate = (theirAudio?["sample_rate"] as? String).flatMap { Int($0) }, theirChannels = theirAudio?["channels"] as? Int
            let theirWidth = theirVideo?["width"] as? Int, theirHeight = theirVideo?["height"] as? Int

            let facts = try XCTUnwrap(try MediaProbe.probe(fileAt: url, as: .mp4)?.get(), recipe.name)
            // One video frame, or one AAC frame of audio.
            let frame = recipe.fps.map { 1 / Double($0) } ?? 1024 / Double(theirRate ?? 1)
            XCTAssertEqual(facts.duration, theirDuration, accuracy: frame, recipe.name)
            XCTAssertEqual(facts.codec, theirCodec, recipe.name)
            XCTAssertEqual(facts.sampleRate, theirRate, recipe.name)
            XCTAssertEqual(facts.channels, theirChannels, recipe.name)
            XCTAssertEqual(facts.width, theirWidth, recipe.name)
            XCTAssertEqual(facts.height, theirHeight, recipe.name)
            XCTAssertEqual(facts.hasVideo, theirVideo != nil, recipe.name)
            XCTAssertEqual(facts.streamable, recipe.streamable, recipe.name)
            XCTAssertNotNil(facts.bitrate, recipe.name)
            // A tiny read window (a box header straddles windows) measures the same as the bytes in memory.
            let windowed = try XCTUnwrap(ByteReader(fileAt: url, window: 16), recipe.name)
            XCTAssertEqual(try MP4Probe.probe(windowed), try MP4Probe.probe(ByteReader(Array(try Data(contentsOf: url)))), recipe.name)

            func describe(_ duration: Double, _ codec: String, _ rate: Int?, _ channels: Int?, _ width: Int?, _ height: Int?) -> String {
                let sound = rate.map { "\($0)/\(channels ?? 0)" } ?? "-", size = width.map { "\($0)×\(height ?? 0)" } ?? "-"
                return "\(String(format: "%.6f", duration)) \(codec) \(sound) \(size)"
            }
            table.append(recipe.name.padding(toLength: 21, withPad: " ", startingAt: 0)
                + describe(facts.duration, facts.codec, facts.sampleRate, facts.channels, facts.width, facts.height) + " \(facts.streamable == true ? "yes" : "no")"
                + " | " + describe(theirDuration, theirCodec, theirRate, theirChannels, theirWidth, theirHeight))
        }
        print(table.joined(separator: "\n"))
    }

    func testCommittedSampleVideoMeasuresAsFFprobeSays() throws {
        // ffprobe: h264 160×90 and AAC 22050 Hz mono, format duration 3.000000; moov before mdat.
        let url = LiveryProcess.packageRoot.appendingPathComponent("Tenants/companero-lucia/library/video/warm-up.mp4")
        let facts = try XCTUnwrap(try MediaProbe.probe(fileAt: url, as: .mp4)?.get())
        XCTAssertEqual(facts, MediaFacts(codec: "avc1", duration: 3, sampleRate: 22050, channels: 1, bitrate: 49229, width: 160, height: 90, streamable: true, hasVideo: true))
    }

    func testVersionOneHeadersAndQuickTimeSoundDescriptionVersionTwo() throws {
        let file = Boxes.ftyp + Boxes.make("moov", Boxes.mvhd(scale: 600, duration: 1800, version: 1),
                                           Boxes.track(id: 1, handler: "vide", width: 640, height: 360, scale: 90000, duration: 270_000, version: 1, entry: Boxes.visualEntry("hvc1", 320, 180)),
                                           Boxes.track(id: 2, handler: "soun", scale: 96000, duration: 288_000, version: 1, entry: Boxes.soundEntryVersion2(rate: 96000, channels: 6)))
            + Boxes.make("mdat", [UInt8](repeating: 0, count: 1000))
        XCTAssertEqual(try MP4Probe.probe(ByteReader(file)),
                       MediaFacts(codec: "hvc1", duration: 3, sampleRate: 96000, channels: 6, bitrate: 2667, width: 640, height: 360, streamable: true, hasVideo: true))
        // A video track without a display size in tkhd takes the sample entry's.
        let coded = Boxes.ftyp + Boxes.make("moov", Boxes.mvhd(), Boxes.track(id: 1, handler: "vide", scale: 25, duration: 25, entry: Boxes.visualEntry("avc1", 320, 180)))
        XCTAssertEqual(try MP4Probe.probe(ByteReader(coded)).width, 320)
    }

    func testDurationFallsBackToTheEditListThenTheMediaDuration() throws {
        // An AAC track with 1024 priming samples: the edit list (in the movie's timescale) leaves them out.
        let edited = Boxes.ftyp + Boxes.make("moov", Boxes.mvhd(duration: 0), Boxes.track(id: 1, handler: "soun", scale: 44100, duration: 67174, edits: [1500]))
        XCTAssertEqual(try MP4Probe.probe(ByteReader(edited)).duration, 1.5)
        let plain = Boxes.ftyp + Boxes.make("moov", Boxes.mvhd(duration: 0), Boxes.track(id: 1, handler: "soun", scale: 44100, duration: 67174))
        XCTAssertEqual(try MP4Probe.probe(ByteReader(plain)).duration, 67174 / 44100)
        // All ones is "unknown", not 49 days.
        let unknown = Boxes.ftyp + Boxes.make("moov", Boxes.mvhd(duration: 0xFFFF_FFFF), Boxes.track(id: 1, handler: "soun", scale: 1000, duration: 2500))
        XCTAssertEqual(try MP4Probe.probe(ByteReader(unknown)).duration, 2.5)
    }

    func testFragmentedDurationIsTheLastFragmentsEnd() throws {
        let moov = Boxes.make("moov", Boxes.mvhd(duration: 0), Boxes.track(id: 1, handler: "vide", width: 160, height: 90, scale: 12800, duration: 0),
                              Boxes.make("mvex", Boxes.full("trex", 0, 0, Boxes.be(1, 4), Boxes.be(1, 4), Boxes.be(512, 4), Boxes.be(0, 8))))
        // Ten samples of trex's default 512, from tfdt 0; then three with their own durations, no tfdt (continues), tfhd's default unused.
        let first = Boxes.make("moof", Boxes.make("traf", Boxes.full("tfhd", 0, 0, Boxes.be(1, 4)), Boxes.full("tfdt", 1, 0, Boxes.be(0, 8)),
                                                  Boxes.full("trun", 0, 0x200, Boxes.be(10, 4), Boxes.be(100, 40))))
        let second = Boxes.make("moof", Boxes.make("traf", Boxes.full("tfhd", 0, 0x08, Boxes.be(1, 4), Boxes.be(9999, 4)),
                                                   Boxes.full("trun", 0, 0x101, Boxes.be(3, 4), Boxes.be(0, 4), Boxes.be(100, 4), Boxes.be(200, 4), Boxes.be(300, 4))))
        let file = Boxes.ftyp + moov + first + Boxes.make("mdat", [1, 2]) + second + Boxes.make("mdat", [3])
        let facts = try MP4Probe.probe(ByteReader(file))
        XCTAssertEqual(facts.duration, Double(10 * 512 + 600) / 12800)
        XCTAssertEqual(facts.streamable, true)
        XCTAssertEqual(facts.bitrate, Int((24 / facts.duration).rounded()))
        // mehd, when longer, is the duration.
        let declared = Boxes.ftyp + Boxes.make("moov", Boxes.mvhd(duration: 0), Boxes.track(id: 1, handler: "soun", scale: 48000, duration: 0),
                                               Boxes.make("mvex", Boxes.full("mehd", 0, 0, Boxes.be(4000, 4))))
        XCTAssertEqual(try MP4Probe.probe(ByteReader(declared)).duration, 4)
    }

    // MARK: - Refused, with the reason and where

    func testTruncatedFileIsCutShortAtItsMdat() throws {
        let whole = Boxes.ftyp + Boxes.make("mdat", [UInt8](repeating: 7, count: 1000)) + Boxes.make("moov", Boxes.mvhd(), Boxes.track(id: 1, handler: "soun", scale: 1000, duration: 1500))
        assertRefused(Array(whole.prefix(24 + 508)), "is cut short: its mdat box at byte 24 needs 1008 bytes, the file ends 500 bytes early", at: 24)
        // The committed sample, its media data cut in half.
        let sample = Array(try Data(contentsOf: LiveryProcess.packageRoot.appendingPathComponent("Tenants/companero-lucia/library/video/warm-up.mp4")))
        let mdat = try XCTUnwrap(Boxes.offset(of: "mdat", in: sample)), size = Int(Boxes.number(sample[mdat..<mdat + 4]))
        let cut = Array(sample.prefix(mdat + size / 2))
        assertRefused(cut, "is cut short: its mdat box at byte \(mdat) needs \(size) bytes, the file ends \(mdat + size - cut.count) bytes early", at: mdat)
        // A moov at the end, cut: the same words.
        assertRefused(Array(whole.dropLast(10)), "is cut short: its moov box at byte 1032 needs \(whole.count - 1032) bytes, the file ends 10 bytes early", at: 1032)
    }

    func testBoxSizesThatCannotBeAreRefused() throws {
        assertRefused(Boxes.ftyp + Boxes.be(3, 4) + Array("free".utf8) + Boxes.be(0, 8),
                      "has a free box at byte 24 with a size of 3 bytes, less than its 8-byte header", at: 24)
        // size 1: a 64-bit size follows; near UInt64.max it must not overflow.
        assertRefused(Boxes.ftyp + Boxes.be(1, 4) + Array("mdat".utf8) + Boxes.be(UInt64.max - 15, 8) + [UInt8](repeating: 0, count: 100),
                      "is cut short: its mdat box at byte 24 needs 18446744073709551600 bytes, the file ends 18446744073709551484 bytes early", at: 24)
        assertRefused(Boxes.ftyp + Boxes.be(1, 4) + Array("free".utf8) + Boxes.be(UInt64.max, 8),
                      "has a free box at byte 24 that needs 18446744073709551615 bytes, 18446744073709551599 more than the file holds", at: 24)
        assertRefused(Boxes.ftyp + Boxes.be(1, 4) + Array("free".utf8) + Boxes.be(8, 8),
                      "has a free box at byte 24 with a 64-bit size of 8 bytes, less than its 16-byte header", at: 24)
        // A child larger than its parent.
        let trak = Boxes.be(1, 4) + Array("trak".utf8) + Boxes.be(UInt64(Int64.max), 8)
        assertRefused(Boxes.ftyp + Boxes.make("moov", Boxes.mvhd(), trak),
                      "has a trak box at byte 140 that needs 9223372036854775807 bytes, 9223372036854775791 more than its moov box at byte 24 holds", at: 140)
        // A trun that claims more samples than it holds.
        let moof = Boxes.make("moof", Boxes.make("traf", Boxes.full("tfhd", 0, 0, Boxes.be(1, 4)), Boxes.full("trun", 0, 0x100, Boxes.be(1000, 4), Boxes.be(1, 8))))
        let fragmented = Boxes.ftyp + Boxes.make("moov", Boxes.mvhd(duration: 0), Boxes.track(id: 1, handler: "soun", scale: 1000, duration: 0)) + moof
        let trun = try XCTUnwrap(Boxes.offset(of: "trun", in: fragmented))
        assertRefused(fragmented, "has a trun box at byte \(trun) that lists 1000 samples but holds only 2", at: trun)
    }

    func testMissingOrZeroHeadersAreRefused() throws {
        assertRefused(Boxes.ftyp + Boxes.make("mdat", [1, 2, 3]), "has no moov box, so nothing describes its tracks", at: nil)
        assertRefused(Boxes.make("free", []) + Boxes.make("mdat", [1]), "has neither an ftyp nor a moov box", at: nil)
        assertRefused(Boxes.ftyp + Boxes.make("moov", Boxes.track(id: 1, handler: "soun", scale: 1000, duration: 1)), "has no mvhd box in its moov box at byte 24", at: 24)
        assertRefused(Boxes.ftyp + Boxes.make("moov", Boxes.mvhd(scale: 0)), "has a timescale of 0 in its mvhd box at byte 32", at: 32)
        let zeroTrack = Boxes.ftyp + Boxes.make("moov", Boxes.mvhd(), Boxes.track(id: 1, handler: "soun", scale: 0, duration: 1))
        let mdhd = try XCTUnwrap(Boxes.offset(of: "mdhd", in: zeroTrack))
        assertRefused(zeroTrack, "has a timescale of 0 in its mdhd box at byte \(mdhd)", at: mdhd)
        assertRefused(Boxes.ftyp + Boxes.make("moov", Boxes.mvhd(), Boxes.track(id: 1, handler: "text", scale: 1000, duration: 1)), "has no audio or video track", at: 24)
        assertRefused([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13],
                      "does not start with an ftyp, moov, mdat or other MP4 box (its first box type would be 0x0D0A1A0A)", at: 4)
        assertRefused(Array("ftyp".utf8), "is too short for a box header (4 bytes)", at: 0)
    }

    func testDeepNestingAndBoxFloodsAreBounded() throws {
        // Ten thousand traks inside a trak: not a track (it has no mdia), never descended, the file measures as without them.
        let chain = (0..<10_000).reduce([UInt8]()) { inner, _ in Boxes.make("trak", inner) }
        let audio = Boxes.track(id: 1, handler: "soun", scale: 1000, duration: 1500)
        let nested = try MP4Probe.probe(ByteReader(Boxes.ftyp + Boxes.make("moov", Boxes.mvhd(), audio, chain)))
        XCTAssertEqual(nested, try MP4Probe.probe(ByteReader(Boxes.ftyp + Boxes.make("moov", Boxes.mvhd(), audio))))
        // A flood of empty boxes stops at the cap, not at the end of memory or time.
        let flood = Boxes.ftyp + Array(Array(repeating: Boxes.make("free", []), count: 100_001).joined())
        assertRefused(flood, "has more than 100000 boxes", at: 24 + 99_999 * 8)
    }

    func testRandomBytesAfterAValidFtypAreRefusedNeverTrapped() throws {
        var random = SeededGenerator(seed: 42)
        assertRefused(Boxes.ftyp + (0..<4096).map { _ in random.byte() },
                      "has a 0xF2065DA4 box at byte 24 that needs 2500022932 bytes, 2500018836 more than the file holds", at: 24)
        // Any tail, and any bytes of the sample flipped: measured or refused with a ProbeFailure, nothing else.
        let sample = Array(try Data(contentsOf: LiveryProcess.packageRoot.appendingPathComponent("Tenants/companero-lucia/library/video/warm-up.mp4")))
        for round in 0..<400 {
            var bytes = round < 200 ? Boxes.ftyp + (0..<Int(random.byte()) * 4).map { _ in random.byte() } : sample
            if round >= 200 {
                for _ in 0..<8 { bytes[Int(random.next() % UInt64(2700))] = random.byte() }  // within ftyp and moov
            }
            do {
                let facts = try MP4Probe.probe(ByteReader(bytes))
                XCTAssertTrue(facts.duration.isFinite && facts.duration >= 0, "round \(round): \(facts)")
            } catch let failure as ProbeFailure {
                XCTAssertTrue((0...bytes.count).contains(failure.offset ?? 0), "round \(round): \(failure)")
            }
        }
    }

    private func assertRefused(_ bytes: [UInt8], _ message: String, at offset: Int?, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try MP4Probe.probe(ByteReader(bytes)), file: file, line: line) { error in
            XCTAssertEqual(error as? ProbeFailure, ProbeFailure(message, offset: offset), file: file, line: line)
        }
    }
}

/// Hand-built boxes, for what no encoder writes.
private enum Boxes {
    static func be(_ value: UInt64, _ size: Int) -> [UInt8] { (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    static func number(_ bytes: ArraySlice<UInt8>) -> UInt64 { bytes.reduce(0) { $0 << 8 | UInt64($1) } }

    static func make(_ type: String, _ parts: [UInt8]...) -> [UInt8] {
        let body = parts.flatMap { $0 }
        return be(UInt64(8 + body.count), 4) + Array(type.utf8) + body
    }

    static func full(_ type: String, _ version: UInt8, _ flags: UInt64, _ parts: [UInt8]...) -> [UInt8] {
        make(type, [version] + be(flags, 3) + parts.flatMap { $0 })
    }

    /// Where the first box of `type` starts (its size field), searching the bytes for the type.
    static func offset(of type: String, in bytes: [UInt8]) -> Int? {
        let pattern = Array(type.utf8)
        return (4...(bytes.count - 4)).first { Array(bytes[$0..<$0 + 4]) == pattern }.map { $0 - 4 }
    }

    static let ftyp = make("ftyp", Array("isom".utf8), be(512, 4), Array("isomiso2".utf8))

    static func mvhd(scale: UInt64 = 1000, duration: UInt64 = 1500, version: UInt8 = 0) -> [UInt8] {
        let times = version == 1 ? be(0, 16) + be(scale, 4) + be(duration, 8) : be(0, 8) + be(scale, 4) + be(duration, 4)
        return full("mvhd", version, 0, times, be(0x10000, 4), be(0x100, 2), be(0, 10), be(0, 36), be(0, 24), be(3, 4))
    }

    static func track(id: UInt64, handler: String, width: UInt64 = 0, height: UInt64 = 0, scale: UInt64, duration: UInt64, version: UInt8 = 0,
                      edits: [UInt64]? = nil, entry: [UInt8]? = nil) -> [UInt8] {
        let times = version == 1 ? be(0, 16) + be(id, 4) + be(0, 4) + be(duration, 8) : be(0, 8) + be(id, 4) + be(0, 4) + be(duration, 4)
        let tkhd = full("tkhd", version, 3, times, be(0, 16), be(0, 36), be(width << 16, 4), be(height << 16, 4))
        let edts = edits.map { make("edts", full("elst", 0, 0, be(UInt64($0.count), 4), $0.flatMap { be($0, 4) + be(0, 4) + be(0x10000, 4) })) } ?? []
        let mdhdTimes = version == 1 ? be(0, 16) + be(scale, 4) + be(duration, 8) : be(0, 8) + be(scale, 4) + be(duration, 4)
        let mdhd = full("mdhd", version, 0, mdhdTimes, be(0x55C4, 2), be(0, 2))
        let hdlr = full("hdlr", 0, 0, be(0, 4), Array(handler.utf8), be(0, 12), [0])
        let sample = entry ?? (handler == "vide" ? visualEntry("avc1", width, height) : soundEntry(rate: scale, channels: 2))
        let stbl = make("stbl", full("stsd", 0, 0, be(1, 4), sample))
        return make("trak", tkhd, edts, make("mdia", mdhd, hdlr, make("minf", stbl)))
    }

    static func visualEntry(_ format: String, _ width: UInt64, _ height: UInt64) -> [UInt8] {
        make(format, be(0, 6), be(1, 2), be(0, 16), be(width, 2), be(height, 2), be(0x480000, 4), be(0x480000, 4), be(0, 4), be(1, 2), be(0, 32), be(24, 2), be(0xFFFF, 2))
    }

    static func soundEntry(rate: UInt64, channels: UInt64) -> [UInt8] {
        make("mp4a", be(0, 6), be(1, 2), be(0, 8), be(channels, 2), be(16, 2), be(0, 4), be(rate << 16, 4))
    }

    /// QuickTime's version 2 sound description: the rate a 64-bit float, the channels 32 bits.
    static func soundEntryVersion2(rate: Double, channels: UInt64) -> [UInt8] {
        make("lpcm", be(0, 6), be(1, 2), be(2, 2), be(0, 6), be(3, 2), be(16, 2), be(0xFFFE, 2), be(0, 2), be(0x10000, 4),
             be(72, 4), be(rate.bitPattern, 8), be(channels, 4), be(0x7F00_0000, 4), be(16, 4), be(12, 4), be(4, 4), be(1, 4))
    }
}

extension SeededGenerator {
    mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }
}
