import Foundation

/// What an `esds` box's descriptors say (ISO 14496-1): the stream's object type (0x40 AAC, 0x69
/// and 0x6B MP3) and, from AAC's AudioSpecificConfig (ISO 14496-3), its channels and rate. Nil
/// when the descriptors do not fit the box: the sample entry's own fields stand then.
struct MP4ElementaryStream {
    static let sampleRates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]
    /// Channels per channel configuration (0: stated in a program config element, not read).
    static let channelCounts = [0, 1, 2, 3, 4, 5, 6, 8, 0, 0, 0, 7, 8, 24, 8]

    var objectType: UInt8
    var channels: Int?
    var sampleRate: Int?

    init?(_ esds: MP4Box, reader: ByteReader) {
        var offset = esds.payload + 4
        /// The body of the descriptor with `tag` at `offset`: a tag byte, then a length in up to four 7-bit bytes.
        func descriptor(_ tag: UInt8) -> (body: Int, end: Int)? {
            guard offset < esds.end, reader.byte(at: offset) == tag else { return nil }
            var length = 0, position = offset + 1
            for _ in 0..<4 {
                guard position < esds.end, let byte = reader.byte(at: position) else { return nil }
                position += 1
                length = length << 7 | Int(byte & 0x7F)
                if byte & 0x80 == 0 { break }
            }
            guard length <= esds.end - position else { return nil }
            return (position, position + length)
        }
        guard let stream = descriptor(0x03), let flags = reader.byte(at: stream.body + 2) else { return nil }
        // After ES_ID and flags: a depended-on stream id, a URL (its length first), an OCR stream id, each when flagged.
        offset = stream.body + 3 + (flags & 0x80 != 0 ? 2 : 0)
        if flags & 0x40 != 0 { offset += 1 + Int(reader.byte(at: offset) ?? 0) }
        if flags & 0x20 != 0 { offset += 2 }
        guard let config = descriptor(0x04), config.end - config.body >= 13, let objectType = reader.byte(at: config.body) else { return nil }
        self.objectType = objectType
        offset = config.body + 13
        guard let specific = descriptor(0x05) else { return }
        // The AudioSpecificConfig's first 43 bits at most: object type (5, or 5 + 6), rate index (4, or 4 + 24), channel configuration (4).
        let count = min(6, specific.end - specific.body)
        guard count > 0 else { return }
        let bits = reader.bytes(at: specific.body, count: count).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } << (64 - 8 * count)
        var used = 0
        func take(_ width: Int) -> Int? {
            guard used + width <= 8 * count else { return nil }
            defer { used += width }
            return Int((bits << used) >> (64 - width))
        }
        guard let type = take(5), type != 31 || take(6) != nil, let index = take(4) else { return }
        let rate = index == 15 ? take(24) : index < Self.sampleRates.count ? Self.sampleRates[index] : nil
        sampleRate = rate.flatMap { $0 > 0 ? $0 : nil }
        if let configuration = take(4), configuration < Self.channelCounts.count, Self.channelCounts[configuration] > 0 {
            channels = Self.channelCounts[configuration]
        }
    }
}
