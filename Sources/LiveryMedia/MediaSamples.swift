import Foundation

/// Small, valid media built in code for rule examples and tests: silent MP3 (MPEG-1 layer III,
/// 32 kbit/s, 32 kHz, mono: 144-byte frames of 36 ms each) and 16-bit PCM WAV. Players accept
/// both; every probe measures them to the frame.
public enum MediaSamples {
    /// Bytes in one frame (144 × 32,000 / 32,000, never padded).
    public static let frameLength = 144
    /// The Info frame (a Xing header in a silent frame) is one frame long.
    public static let infoFrameLength = frameLength
    static let header: [UInt8] = [0xFF, 0xFB, 0x18, 0xC0]

    /// Frames of 1,152 samples at 32 kHz needed to last `seconds`.
    public static func frames(seconds: Double) -> Int { Int((seconds * 32000 / 1152).rounded(.up)) }

    /// A silent MP3 lasting `seconds` (rounded up to a whole frame), with a LAME-style Info header
    /// giving its frame count when `xing` is set.
    public static func mp3(seconds: Double, xing: Bool = true) -> [UInt8] {
        let count = frames(seconds: seconds)
        var bytes: [UInt8] = []
        bytes.reserveCapacity((count + 1) * frameLength)
        if xing {
            var info = header + [UInt8](repeating: 0, count: frameLength - 4)
            let tag = Array("Info".utf8) + [0, 0, 0, 1] + (0..<4).map { UInt8(count >> (8 * (3 - $0)) & 0xFF) }
            info.replaceSubrange(21..<(21 + tag.count), with: tag)
            bytes += info
        }
        let frame = header + [UInt8](repeating: 0, count: frameLength - 4)
        for _ in 0..<count { bytes += frame }
        return bytes
    }

    /// A silent 16-bit mono PCM WAV at 11,025 Hz lasting `seconds`.
    public static func wav(seconds: Double) -> [UInt8] {
        let rate: UInt32 = 11025, dataSize = UInt32((seconds * Double(rate)).rounded()) * 2
        func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }
        func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
        return Array("RIFF".utf8) + le32(36 + dataSize) + Array("WAVEfmt ".utf8) + le32(16) + le16(1) + le16(1) + le32(rate) + le32(rate * 2) + le16(2) + le16(16)
            + Array("data".utf8) + le32(dataSize) + [UInt8](repeating: 0, count: Int(dataSize))
    }
}

extension MediaSamples {
    /// The skeleton of an MP4 with one 320 × 180 `avc1` video track lasting `seconds`: `ftyp`,
    /// `mdat` (zeros) and `moov` (`mvhd`, `tkhd`, `mdhd`, `hdlr`, `stsd`), with `moov` first when
    /// `streamable`. Enough for the probe, which reads only boxes; no player could decode it.
    public static func mp4(seconds: Double, streamable: Bool = true, mediaBytes: Int = 256) -> [UInt8] {
        func be32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * (3 - $0)) & 0xFF) } }
        func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        func box(_ type: String, _ body: [UInt8]) -> [UInt8] { be32(body.count + 8) + Array(type.utf8) + body }
        let timescale = 1000, duration = Int((seconds * 1000).rounded())
        let matrix = be32(0x0001_0000) + be32(0) + be32(0) + be32(0) + be32(0x0001_0000) + be32(0) + be32(0) + be32(0) + be32(0x4000_0000)
        let mvhd = box("mvhd", be32(0) + be32(0) + be32(0) + be32(timescale) + be32(duration) + be32(0x0001_0000) + be16(0x0100) + [UInt8](repeating: 0, count: 10)
                       + matrix + [UInt8](repeating: 0, count: 24) + be32(2))
        let tkhd = box("tkhd", be32(3) + be32(0) + be32(0) + be32(1) + be32(0) + be32(duration) + [UInt8](repeating: 0, count: 8) + be16(0) + be16(0) + be16(0) + be16(0)
                       + matrix + be32(320 << 16) + be32(180 << 16))
        let mdhd = box("mdhd", be32(0) + be32(0) + be32(0) + be32(timescale) + be32(duration) + be16(0x55C4) + be16(0))
        let hdlr = box("hdlr", be32(0) + be32(0) + Array("vide".utf8) + [UInt8](repeating: 0, count: 12) + [0])
        let avc1 = box("avc1", [UInt8](repeating: 0, count: 6) + be16(1) + [UInt8](repeating: 0, count: 16) + be16(320) + be16(180) + be32(0x0048_0000) + be32(0x0048_0000)
                       + be32(0) + be16(1) + [UInt8](repeating: 0, count: 32) + be16(0x18) + be16(0xFFFF))
        let stsd = box("stsd", be32(0) + be32(1) + avc1)
        let moov = box("moov", mvhd + box("trak", tkhd + box("mdia", mdhd + hdlr + box("minf", box("stbl", stsd)))))
        let ftyp = box("ftyp", Array("isom".utf8) + be32(0x200) + Array("isomavc1".utf8))
        let mdat = box("mdat", [UInt8](repeating: 0, count: mediaBytes))
        return streamable ? ftyp + moov + mdat : ftyp + mdat + moov
    }
}
