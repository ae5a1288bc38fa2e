import Foundation
import LiveryLoad

/// What a probe measured in an audio or video file, from its headers and frames, never decoding samples.
public struct MediaFacts: Sendable, Equatable, Codable {
    public enum BitrateMode: String, Sendable, Codable {
        case constant, variable
    }

    /// The codec of the first audio or video track: `mp3`, `pcm`, `aac` (`mp4a`), `avc1`, `hvc1`, …
    public var codec: String
    /// Playing time in seconds.
    public var duration: Double
    public var sampleRate: Int?
    public var channels: Int?
    /// The average bit rate of the media data in bits per second, when the format states or implies it.
    public var bitrate: Int?
    public var bitrateMode: BitrateMode?
    /// A video track's display size in pixels.
    public var width: Int?
    public var height: Int?
    /// MP4 and MOV: whether the `moov` box comes before the media data, so a player can start before
    /// the download ends.
    public var streamable: Bool?
    /// Whether the file has a video track (MP4 and MOV); false for audio-only files.
    public var hasVideo: Bool

    public init(codec: String, duration: Double, sampleRate: Int? = nil, channels: Int? = nil, bitrate: Int? = nil,
                bitrateMode: BitrateMode? = nil, width: Int? = nil, height: Int? = nil, streamable: Bool? = nil, hasVideo: Bool = false) {
        self.codec = codec
        self.duration = duration
        self.sampleRate = sampleRate
        self.channels = channels
        self.bitrate = bitrate
        self.bitrateMode = bitrateMode
        self.width = width
        self.height = height
        self.streamable = streamable
        self.hasVideo = hasVideo
    }

    /// The duration in whole milliseconds, rounded down.
    public var milliseconds: Int { Int((duration * 1000).rounded(.down)) }
}

/// Why a probe refused a file: a message that completes "'<path>' is not a readable <TYPE>: it …",
/// and the byte offset where the bytes stopped making sense, when one is known.
public struct ProbeFailure: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    public var message: String
    public var offset: Int?

    public init(_ message: String, offset: Int? = nil) {
        self.message = message
        self.offset = offset
    }

    public var description: String { offset.map { "\(message) (at byte \($0))" } ?? message }
}

/// Random access to a file's bytes through one window, so a probe of a large file holds at most
/// `window` bytes (plus what it asks for at once) in memory. The window is refilled with one `pread`
/// into the same buffer (one copy from the page cache). Memory-mapping would copy nothing, but a file
/// truncated while mapped kills the process with SIGBUS, and creators edit files while Livery reads.
public final class ByteReader {
    public let count: Int
    private let handle: FileHandle?
    private var memory: [UInt8]
    private var windowStart = 0
    private var windowCount = 0
    private let window: Int

    /// Bytes held in memory (fuzzing, tests).
    public init(_ bytes: [UInt8]) {
        count = bytes.count
        handle = nil
        memory = bytes
        windowCount = bytes.count
        window = bytes.count
    }

    /// The file at `url`, read through a window of `window` bytes; nil when it cannot be opened.
    public init?(fileAt url: URL, window: Int = 1 << 18) {
        guard let handle = try? FileHandle(forReadingFrom: url), let end = try? handle.seekToEnd() else { return nil }
        self.handle = handle
        count = Int(end)
        memory = []
        self.window = window
    }

    deinit { try? handle?.close() }

    /// Up to `length` bytes at `offset` (fewer at the end of the file; empty past it).
    public func bytes(at offset: Int, count length: Int) -> ArraySlice<UInt8> {
        guard offset >= 0, length > 0, offset < count else { return [] }
        let end = offset + min(length, count - offset)
        guard handle != nil else { return memory[offset..<end] }
        guard fill(offset, end) else { return [] }
        return memory[(offset - windowStart)..<(end - windowStart)]
    }

    /// Makes the window hold `offset..<end`, reading from `offset` on; false when the file cannot be read.
    private func fill(_ offset: Int, _ end: Int) -> Bool {
        if offset >= windowStart, end <= windowStart + windowCount { return true }
        guard let handle else { return false }
        let size = min(count - offset, max(window, end - offset))
        if memory.count < size { memory = [UInt8](repeating: 0, count: size) }
        let descriptor = handle.fileDescriptor
        var done = 0
        let ok = memory.withUnsafeMutableBytes { buffer -> Bool in
            while done < size {
                let got = pread(descriptor, buffer.baseAddress! + done, size - done, off_t(offset + done))
                if got < 0, errno == EINTR { continue }
                guard got > 0 else { return false }
                done += got
            }
            return true
        }
        windowStart = offset
        windowCount = done
        return ok || end <= offset + done
    }

    /// The four bytes at `offset` as a big-endian integer, or nil when the file ends first; reads the
    /// window in place (the MP3 frame walk calls it once a frame).
    @inline(__always)
    public func word(at offset: Int) -> UInt32? {
        guard offset >= 0, offset <= count - 4 else { return nil }
        if handle != nil, !fill(offset, offset + 4) { return nil }
        let index = handle == nil ? offset : offset - windowStart
        return memory.withUnsafeBufferPointer { b in
            UInt32(b[index]) << 24 | UInt32(b[index + 1]) << 16 | UInt32(b[index + 2]) << 8 | UInt32(b[index + 3])
        }
    }

    /// The byte at `offset`, or nil past the end.
    public func byte(at offset: Int) -> UInt8? { bytes(at: offset, count: 1).first }

    /// A big-endian unsigned integer of `size` bytes at `offset`, or nil when the file ends first.
    public func bigEndian(at offset: Int, size: Int) -> UInt64? {
        let slice = bytes(at: offset, count: size)
        guard slice.count == size else { return nil }
        return slice.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// A little-endian unsigned integer of `size` bytes at `offset`, or nil when the file ends first.
    public func littleEndian(at offset: Int, size: Int) -> UInt64? {
        let slice = bytes(at: offset, count: size)
        guard slice.count == size else { return nil }
        return slice.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// Whether the bytes at `offset` are `text` in ASCII.
    public func matches(_ text: String, at offset: Int) -> Bool {
        Array(bytes(at: offset, count: text.utf8.count)) == Array(text.utf8)
    }
}

/// Measures an audio or video file from its own structure: MP3 frames, WAV chunks, the MP4 box
/// tree. Hand-written because what is needed is a bounded walk over headers, with the byte offset of
/// the first thing that is wrong; a decoder library (FFmpeg's libavformat) would decode or trust
/// what it reads, and is a large dependency for a validator.
public enum MediaProbe {
    /// The facts of the file at `url` read as `type`; nil for a type that is not audio or video.
    public static func probe(fileAt url: URL, as type: FileType) -> Result<MediaFacts, ProbeFailure>? {
        guard FileType.media.contains(type) else { return nil }
        guard let reader = ByteReader(fileAt: url) else { return .failure(ProbeFailure("cannot be read")) }
        return probe(reader, as: type)
    }

    /// The facts of `reader`'s bytes read as `type`; nil for a type that is not audio or video.
    public static func probe(_ reader: ByteReader, as type: FileType) -> Result<MediaFacts, ProbeFailure>? {
        switch type {
        case .mp3: return Result { try MP3Probe.probe(reader) }.mapError { $0 as? ProbeFailure ?? ProbeFailure("\($0)") }
        case .wav: return Result { try WAVProbe.probe(reader) }.mapError { $0 as? ProbeFailure ?? ProbeFailure("\($0)") }
        case .mp4: return Result { try MP4Probe.probe(reader) }.mapError { $0 as? ProbeFailure ?? ProbeFailure("\($0)") }
        default: return nil
        }
    }
}
