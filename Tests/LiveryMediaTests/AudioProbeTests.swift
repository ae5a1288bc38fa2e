import Foundation
import LiveryLoad
import LiveryMedia
import LiveryTestSupport
import XCTest

/// The MP3 and WAV probes against ffprobe (FFmpeg's reader, an independent implementation) on a
/// corpus FFmpeg writes: every layout a creator's tools produce, and damaged files that must be
/// refused at the right byte.
final class AudioProbeTests: XCTestCase {
    static let corpusScript = """
        import json, os, subprocess, sys
        out = sys.argv[1]
        def ffmpeg(*args):
            subprocess.run(["ffmpeg", "-v", "error", "-y", "-fflags", "+bitexact", *args], check=True)
        def probe(path):
            raw = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration:stream=sample_rate,channels,codec_name",
                                  "-of", "json", path], check=True, capture_output=True).stdout
            info = json.loads(raw)
            stream = info["streams"][0]
            return {"duration": float(info["format"]["duration"]), "sampleRate": int(stream["sample_rate"]),
                    "channels": stream["channels"], "codec": stream["codec_name"]}
        cases = []
        def make(name, rate, channels, seconds, *options, source="sine=frequency=440"):
            path = os.path.join(out, name)
            ffmpeg("-f", "lavfi", "-i", f"{source}:sample_rate={rate}:duration={seconds}", "-ac", str(channels), *options, path)
            facts = probe(path)
            if "vbr-no-xing" in name:
                # Without a Xing header ffprobe estimates a VBR file's duration from its first frame's bit
                # rate; counting the packets it reads is exact (576 samples a frame at these rates is MPEG-2).
                raw = subprocess.run(["ffprobe", "-v", "error", "-count_packets", "-show_entries", "stream=nb_read_packets",
                                      "-of", "csv=p=0", path], check=True, capture_output=True).stdout
                facts["duration"] = int(raw) * (1152 if rate >= 32000 else 576) / rate
            facts["name"] = name
            cases.append(facts)
        for rate in (22050, 44100, 48000):
            for channels in (1, 2):
                make(f"cbr-{rate}-{channels}.mp3", rate, channels, 7.3, "-b:a", "64k")
                make(f"vbr-{rate}-{channels}.mp3", rate, channels, 5.1, "-q:a", "4", source="anoisesrc=color=pink")
        make("cbr-no-xing.mp3", 44100, 2, 4.2, "-b:a", "128k", "-write_xing", "0")
        make("vbr-no-xing.mp3", 44100, 1, 4.2, "-q:a", "2", "-write_xing", "0", source="anoisesrc=color=white")
        make("id3v23-padded.mp3", 22050, 1, 3.0, "-b:a", "32k", "-id3v2_version", "3", "-metadata", "title=Duomo", "-metadata", "artist=" + "x" * 3000)
        make("id3v1.mp3", 48000, 2, 2.5, "-b:a", "96k", "-write_id3v1", "1", "-metadata", "title=Pitti")
        make("no-tags.mp3", 16000, 1, 2.0, "-b:a", "24k", "-id3v2_version", "0")
        make("mpeg25.mp3", 8000, 1, 3.0, "-b:a", "8k")
        make("pcm16.wav", 44100, 2, 3.7, "-c:a", "pcm_s16le")
        make("pcm24-mono.wav", 22050, 1, 1.9, "-c:a", "pcm_s24le")
        make("float.wav", 48000, 2, 2.2, "-c:a", "pcm_f32le")
        print(json.dumps(cases))
        """

    func testDurationsAndFormatsAgreeWithFFprobe() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try LiveryProcess.tool(["python3", "-c", Self.corpusScript, folder.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let cases = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(cases.count, 21)
        var table = ["file | ours (s) | ffprobe (s) | rate | channels | mode"]
        for item in cases {
            let name = try XCTUnwrap(item["name"] as? String)
            let url = folder.appendingPathComponent(name)
            let type = try XCTUnwrap(FileSniffer.sniff(fileAt: url), name)
            let facts = try XCTUnwrap(MediaProbe.probe(fileAt: url, as: type), name).get()
            let expected = try XCTUnwrap(item["duration"] as? Double)
            let rate = try XCTUnwrap(item["sampleRate"] as? Int)
            // One frame: 1152 samples for MPEG-1 layer III, 576 for MPEG-2 and 2.5; a WAV to the sample.
            let frame = type == .wav ? 1.0 / Double(rate) : Double(rate >= 32000 ? 1152 : 576) / Double(rate)
            XCTAssertEqual(facts.duration, expected, accuracy: frame + 1e-6, name)
            XCTAssertEqual(facts.sampleRate, rate, name)
            XCTAssertEqual(facts.channels, item["channels"] as? Int, name)
            XCTAssertEqual(facts.codec.hasPrefix("pcm") ? "pcm" : facts.codec, (item["codec"] as? String).map { $0.hasPrefix("pcm") ? "pcm" : $0 }, name)
            if name.hasPrefix("cbr") { XCTAssertEqual(facts.bitrateMode, .constant, name) }
            if name.hasPrefix("vbr") { XCTAssertEqual(facts.bitrateMode, .variable, name) }
            table.append(String(format: "%@ | %.4f | %.4f | %d | %d | %@", name, facts.duration, expected, rate, facts.channels ?? 0, facts.bitrateMode?.rawValue ?? "-"))
        }
        print(table.joined(separator: "\n"))
    }

    func testTheSamplesMeasureAsFFprobeSays() throws {
        let root = LiveryProcess.packageRoot.appendingPathComponent("Tenants")
        let files = try XCTUnwrap(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.allObjects as? [URL])
            .filter { $0.pathExtension == "mp3" }
        XCTAssertGreaterThan(files.count, 20)
        for url in files {
            let result = try LiveryProcess.tool(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", url.path])
            let expected = try XCTUnwrap(Double(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), url.path)
            let facts = try XCTUnwrap(MediaProbe.probe(fileAt: url, as: .mp3)).get()
            XCTAssertEqual(facts.duration, expected, accuracy: 576.0 / 22050 + 1e-6, url.lastPathComponent)
        }
    }

    // MARK: Damaged files, built from a real one so only the damage differs.

    func testACutFileIsRefusedAtTheByteWhereItStops() throws {
        let bytes = MediaSamples.mp3(seconds: 4, xing: true)
        let half = Array(bytes.prefix(bytes.count / 2))
        let failure = try refusal(half)
        XCTAssertTrue(failure.message.hasPrefix("is cut short"), failure.message)
        // Cut mid-frame: the last frame cannot finish; cut at a frame boundary: the Info header promised more.
        let boundary = MediaSamples.frameLength * 40 + MediaSamples.infoFrameLength
        let atBoundary = try refusal(Array(bytes.prefix(boundary)))
        XCTAssertEqual(atBoundary.message, "is cut short: its Info header promises \(MediaSamples.frames(seconds: 4)) frames, the file holds 40")
        XCTAssertEqual(atBoundary.offset, boundary)
    }

    func testGarbageInTheMiddleIsRefusedAtItsFirstByte() throws {
        var bytes = MediaSamples.mp3(seconds: 4, xing: false)
        let at = MediaSamples.frameLength * 10
        bytes.insert(contentsOf: [UInt8](repeating: 0x55, count: 999), at: at)
        let failure = try refusal(bytes)
        XCTAssertEqual(failure.offset, at)
        XCTAssertEqual(failure.message, "has 999 bytes that are not MPEG audio frames after 10 frames; frames resume at byte \(at + 999)")
    }

    func testTrailingGarbageAndLeadingGarbageAreRefused() throws {
        let clean = MediaSamples.mp3(seconds: 2, xing: false)
        let trailing = try refusal(clean + Array("not audio at all, a text file appended".utf8))
        XCTAssertEqual(trailing.offset, clean.count)
        XCTAssertTrue(trailing.message.hasPrefix("stops holding MPEG audio frames 38 bytes before its end"), trailing.message)
        let leading = try refusal(Array("junk".utf8) + clean)
        XCTAssertEqual(leading.offset, 0)
        XCTAssertEqual(leading.message, "has 4 bytes that are not MPEG audio before its first frame at byte 4")
        // Zero bytes after the audio are padding, not garbage.
        XCTAssertNoThrow(try MediaProbe.probe(ByteReader(clean + [UInt8](repeating: 0, count: 300)), as: .mp3)!.get())
    }

    func testTagsAtBothEndsAreSkipped() throws {
        let clean = MediaSamples.mp3(seconds: 2, xing: false)
        let expected = try MediaProbe.probe(ByteReader(clean), as: .mp3)!.get()
        // ID3v2.4 with a footer and 500 bytes of padding, then an APEv2 tag with header and an ID3v1 tag.
        let id3Body = [UInt8](repeating: 0, count: 500)
        let id3: [UInt8] = Array("ID3".utf8) + [4, 0, 0x10] + syncsafe(id3Body.count) + id3Body + Array("3DI".utf8) + [4, 0, 0x10] + syncsafe(id3Body.count)
        let apeItems = [UInt8](repeating: 0x41, count: 20)
        func apeBlock(_ flags: UInt32) -> [UInt8] {
            Array("APETAGEX".utf8) + le(2000) + le(UInt32(apeItems.count + 32)) + le(1) + le(flags) + [UInt8](repeating: 0, count: 8)
        }
        let ape = apeBlock(0xA000_0000) + apeItems + apeBlock(0x8000_0000)
        let id3v1 = Array("TAG".utf8) + [UInt8](repeating: 0x20, count: 125)
        let tagged = try MediaProbe.probe(ByteReader(id3 + clean + ape + id3v1), as: .mp3)!.get()
        XCTAssertEqual(tagged, expected)
        // A front tag that claims more bytes than the file has.
        let lying = try refusal(Array("ID3".utf8) + [3, 0, 0] + syncsafe(1 << 20) + clean)
        XCTAssertEqual(lying.message, "has an ID3v2 tag of \(10 + (1 << 20)) bytes, more than the file holds")
    }

    func testEmptyAndHostileFilesAreRefusedWithoutACrash() throws {
        XCTAssertEqual(try refusal([]).message, "holds no MPEG audio frames")
        XCTAssertEqual(try refusal(Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 0]).message, "holds no MPEG audio frames")
        XCTAssertEqual(try refusal([UInt8](repeating: 0xFF, count: 10_000)).message, "holds no MPEG audio frames")
        // A lone header whose frame runs past the end.
        XCTAssertEqual(try refusal([0xFF, 0xFB, 0x90, 0xC4, 0, 0, 0]).message, "holds no MPEG audio frames")
        // WAV: a data chunk longer than the file; no fmt; an RF64 file.
        let wav = MediaSamples.wav(seconds: 1)
        let cut = try XCTUnwrap(failure(MediaProbe.probe(ByteReader(Array(wav.prefix(2000))), as: .wav)))
        XCTAssertEqual(cut.message, "is cut short: its data chunk needs 22050 bytes, the file ends \(22050 + 44 - 2000) bytes early")
        XCTAssertEqual(cut.offset, 36)
        XCTAssertEqual(failure(MediaProbe.probe(ByteReader(Array("RIFF\0\0\0\0WAVEdata\0\0\0\0".utf8)), as: .wav))?.message, "has its data chunk before its fmt chunk")
        XCTAssertEqual(failure(MediaProbe.probe(ByteReader(Array("RF64\0\0\0\0WAVE".utf8)), as: .wav))?.message,
                       "is an RF64 file (a WAV over 4 GB), which phones do not play")
        let facts = try MediaProbe.probe(ByteReader(wav), as: .wav)!.get()
        XCTAssertEqual(facts, MediaFacts(codec: "pcm", duration: 1, sampleRate: 11025, channels: 1, bitrate: 176_400, bitrateMode: .constant))
    }

    func testAXingHeaderMustMatchTheFramesInBothDirections() throws {
        // More frames than the header says: players would show the wrong length.
        var info = MediaSamples.mp3(seconds: 1, xing: true)
        let extra = MediaSamples.mp3(seconds: 2, xing: false)
        XCTAssertEqual(try refusal(info + extra).message,
                       "holds \(MediaSamples.frames(seconds: 1) + MediaSamples.frames(seconds: 2)) frames, but its Info header says \(MediaSamples.frames(seconds: 1)): "
                       + "players would show the wrong length and seek to the wrong place")
        // A count of zero is an encoder that never filled its header in (found by fuzzing: it measured 0 s).
        info.replaceSubrange(29..<33, with: [0, 0, 0, 0])
        let facts = try MediaProbe.probe(ByteReader(info), as: .mp3)!.get()
        XCTAssertEqual(facts.duration, Double(MediaSamples.frames(seconds: 1) * 1152) / 32000, accuracy: 1e-9)
    }

    func testWAVChunksMustFitTheFileAndHoldAudio() throws {
        // Found by fuzzing: offsets outside the file, and an empty data chunk measured as 0 s.
        let wav = MediaSamples.wav(seconds: 1)
        let header = Array(wav.prefix(36))
        let list = failure(MediaProbe.probe(ByteReader(header + Array("LIST".utf8) + [0xFF, 0xFF, 0, 0] + [1, 2, 3]), as: .wav))
        XCTAssertEqual(list, ProbeFailure("has a 'LIST' chunk of 65535 bytes, more than the file holds", offset: 36))
        let empty = failure(MediaProbe.probe(ByteReader(header + Array("data".utf8) + [0, 0, 0, 0]), as: .wav))
        XCTAssertEqual(empty, ProbeFailure("holds no audio: its data chunk is empty", offset: 36))
        let padded = failure(MediaProbe.probe(ByteReader(header + Array("junk".utf8) + [1, 0, 0, 0, 7]), as: .wav))
        XCTAssertEqual(padded, ProbeFailure("has no data chunk", offset: 45))
    }

    func testAMeasurementIsKeptWithTheTypeItWasProbedAs() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("clip.mp3")
        try Data(MediaSamples.mp3(seconds: 2)).write(to: file)
        try FileManager.default.setAttributes([.modificationDate: Date.wholeSecondsAgo(3600)], ofItemAtPath: file.path)
        let cache = folder.appendingPathComponent("probes.sqlite").path
        let first = MediaMeasurements(cache: try ProbeCache(path: cache, version: MediaMeasurements.probeVersion))
        XCTAssertNotNil(try first.measure(file, as: .mp3)?.get())
        first.flush()
        // Another run, asking for the same file as MP4: the MP3 measurement is not an answer to that.
        let second = MediaMeasurements(cache: try ProbeCache(path: cache, version: MediaMeasurements.probeVersion))
        XCTAssertNotNil(failure(second.measure(file, as: .mp4)))
        XCTAssertEqual(second.cacheHitCount, 0)
        // The cache keeps one measurement a file (the latest), so asking as MP3 again probes again.
        XCTAssertNotNil(try second.measure(file, as: .mp3)?.get())
        XCTAssertEqual(second.cacheHitCount, 0)
        XCTAssertEqual(second.probeCount, 2)
    }

    // MARK: Helpers

    private func refusal(_ bytes: [UInt8]) throws -> ProbeFailure {
        try XCTUnwrap(failure(MediaProbe.probe(ByteReader(bytes), as: .mp3)), "accepted")
    }

    private func failure(_ result: Result<MediaFacts, ProbeFailure>?) -> ProbeFailure? {
        guard case .failure(let failure) = result else { return nil }
        return failure
    }

    private func syncsafe(_ value: Int) -> [UInt8] { [UInt8(value >> 21 & 0x7F), UInt8(value >> 14 & 0x7F), UInt8(value >> 7 & 0x7F), UInt8(value & 0x7F)] }
    private func le(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }

    private func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livery-audio-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
