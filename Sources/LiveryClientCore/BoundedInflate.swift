import Foundation
import LiveryReleaseFormat
import ZIPFoundation

/// A raw deflate stream of exactly `length` bytes, fed to ZIPFoundation's inflater from `read` and never
/// past its end: the zip extractor, delta installs and `livery verify` read entries this way.
///
/// ZIPFoundation's Linux inflater asks for input until the stream ends, past the entry and, at the end
/// of a file, for ever (weichsel/ZIPFoundation pull request 389); it also tells zlib that every chunk is
/// as long as it asked for (`avail_in = bufferSize`), even a shorter last one. So each chunk is padded
/// with zeros to what was asked: a valid stream ends before the padding; one that reads into it comes out
/// longer or with another digest and is refused by the caller, or asks again and is refused here. On
/// Apple platforms the inflater asks for 0 bytes once to finish.
enum BoundedInflate {
    /// Inflates `length` bytes that `read(offset, count)` gives (offsets from the stream's start), handing
    /// the output to `consumer`; returns the CRC-32 of the output unless `skipCRC32`. `what` names the stream in errors
    /// ("core.zip: the deflate data of 'a.json'").
    static func inflate(length: Int, chunkSize: Int, skipCRC32: Bool, what: String, read: (Int, Int) throws -> Data,
                        consumer: (Data) throws -> Void) throws -> CRC32 {
        var consumed = 0
        var emptyAsks = 0
        return try Data.decompress(size: Int64(length), bufferSize: chunkSize, skipCRC32: skipCRC32, provider: { _, wanted in
            let remaining = length - consumed
            if remaining == 0 {
                emptyAsks += 1
                guard wanted == 0, emptyAsks <= 2 else { throw TUFError("\(what) does not end within its \(length) bytes") }
                return Data()
            }
            var data = try read(consumed, min(wanted, min(remaining, chunkSize)))
            consumed += data.count
            if data.count < wanted { data.append(Data(count: wanted - data.count)) }
            return data
        }, consumer: consumer)
    }
}
