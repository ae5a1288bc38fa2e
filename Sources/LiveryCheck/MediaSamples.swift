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
