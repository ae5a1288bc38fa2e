import Foundation
import LiveryStorage

/// A second, minimal read of a zip's central directory, for the facts ZIPFoundation 0.9.20 reads
/// but keeps internal, each of which a safety rule needs:
///
/// - **the entry count the end record declares**: ZIPFoundation's iterator ends silently at the
///   first record it cannot read or at an encrypted entry, which would install a shorter bundle;
/// - **each entry's Unix file type**: `Entry.type` reports a FIFO or a device as a regular file;
/// - **where each entry's data starts**: ZIPFoundation's inflater on Linux asks for input until
///   the deflate stream ends, past the entry's compressed size and, at the end of the file, for
///   ever (an endless loop on a crafted stream: weichsel/ZIPFoundation pull request 389). The
///   extractor feeds the inflater itself from this range, and refuses a stream that wants more.
///
/// Nothing here decompresses; names are kept as raw bytes (ZIPFoundation decodes them for the
/// extractor). It lives in the release-format module because the builder reads its own archives with
/// it to write each bundle's file index (docs/deltas.md), and `livery verify` checks that index.
public struct ZipCentralDirectory {
    public struct Record: Sendable {
        public var flags: UInt16
        public var method: UInt16
        public var crc32: UInt32
        public var compressedSize: UInt64
        public var uncompressedSize: UInt64
        public var localHeaderOffset: UInt64
        /// `S_IFMT` bits of the external attributes when the entry was made on a Unix-like host, else nil.
        public var unixType: UInt16?
        /// The entry's name as stored (UTF-8 in every archive Livery writes).
        public var name: Data = Data()
        public var isEncrypted: Bool { flags & 1 != 0 }
    }

    public static let maxDirectorySize: UInt64 = 64 << 20
    public private(set) var records: [Record] = []
    public let fileSize: UInt64
    /// Where the archive's bytes are: an open file, or (an archive already in memory, as `livery verify` holds
    /// targets) its bytes.
    private enum Source { case descriptor(Int32), bytes(Data) }
    private let source: Source
    private let name: String

    /// Reads the end record and the central directory of the open zip `descriptor`.
    public init(descriptor: Int32, fileSize: UInt64, name: String, maxEntries: Int) throws {
        try self.init(source: .descriptor(descriptor), fileSize: fileSize, name: name, maxEntries: maxEntries)
    }

    /// Reads the end record and the central directory of the zip `archive`, in memory.
    public init(archive: Data, name: String, maxEntries: Int) throws {
        try self.init(source: .bytes(archive), fileSize: UInt64(archive.count), name: name, maxEntries: maxEntries)
    }

    private init(source: Source, fileSize: UInt64, name: String, maxEntries: Int) throws {
        self.source = source
        self.fileSize = fileSize
        self.name = name
        // The end record is in the last 22 + 65,535 bytes; the one nearest the end wins, as in ZIPFoundation.
        let tailLength = Int(min(fileSize, 22 + 0xFFFF))
        let tail = try read(at: fileSize - UInt64(tailLength), count: tailLength)
        guard let end = stride(from: tailLength - 22, through: 0, by: -1).first(where: { tail.u32($0) == 0x0605_4B50 }) else {
            throw TUFError("\(name): no zip end record (a truncated archive?)")
        }
        var count = UInt64(tail.u16(end + 10))
        var directorySize = UInt64(tail.u32(end + 12))
        var directoryOffset = UInt64(tail.u32(end + 16))
        if count == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF {
            // Zip64: the locator just before the end record points at the zip64 end record.
            let endOffset = fileSize - UInt64(tailLength) + UInt64(end)
            guard endOffset >= 20 else { throw TUFError("\(name): damaged zip64 end record") }
            let locator = try read(at: endOffset - 20, count: 20)
            guard locator.u32(0) == 0x0706_4B50 else { throw TUFError("\(name): damaged zip64 end record") }
            let record = try read(at: locator.u64(8), count: 56)
            guard record.u32(0) == 0x0606_4B50 else { throw TUFError("\(name): damaged zip64 end record") }
            count = record.u64(32)
            directorySize = record.u64(40)
            directoryOffset = record.u64(48)
        }
        // The entry cap before anything is read: a claim of a million entries is refused from the end record alone.
        guard count <= UInt64(maxEntries) else { throw TUFError("\(name) has more than \(maxEntries) entries") }
        guard directoryOffset <= fileSize, directorySize <= fileSize - directoryOffset, directorySize >= count * 46 else {
            throw TUFError("\(name): the central directory lies outside the archive")
        }
        // It is read whole: 64 MiB is 100,000 entries with 600-byte names and extras, far beyond any bundle.
        guard directorySize <= Self.maxDirectorySize else { throw TUFError("\(name): a central directory of \(directorySize) bytes (at most \(Self.maxDirectorySize))") }
        let directory = try read(at: directoryOffset, count: Int(directorySize))
        var at = 0
        for index in 0..<Int(count) {
            guard at + 46 <= directory.count, directory.u32(at) == 0x0201_4B50 else { throw TUFError("\(name): damaged central directory record \(index + 1)") }
            let nameLength = Int(directory.u16(at + 28)), extraLength = Int(directory.u16(at + 30)), commentLength = Int(directory.u16(at + 32))
            let next = at + 46 + nameLength + extraLength + commentLength
            guard next <= directory.count else { throw TUFError("\(name): damaged central directory record \(index + 1)") }
            let host = directory.u16(at + 4) >> 8
            let attributes = directory.u32(at + 38)
            var record = Record(flags: directory.u16(at + 8), method: directory.u16(at + 10), crc32: directory.u32(at + 16),
                                compressedSize: UInt64(directory.u32(at + 20)), uncompressedSize: UInt64(directory.u32(at + 24)),
                                localHeaderOffset: UInt64(directory.u32(at + 42)),
                                // 3: Unix, 19: macOS (OS X), the hosts whose upper attribute bits are a `st_mode`.
                                unixType: host == 3 || host == 19 ? UInt16(truncatingIfNeeded: attributes >> 16) & 0o170000 : nil)
            record.name = Data(directory[(at + 46)..<(at + 46 + nameLength)])
            try Self.applyZip64(Data(directory[(at + 46 + nameLength)..<(at + 46 + nameLength + extraLength)]), to: &record, name: name)
            records.append(record)
            at = next
        }
    }

    /// The zip64 extra field (id 1) holds, in this order, each of the sizes and the offset whose 32-bit field is all ones.
    private static func applyZip64(_ extra: Data, to record: inout Record, name: String) throws {
        guard record.uncompressedSize == 0xFFFF_FFFF || record.compressedSize == 0xFFFF_FFFF || record.localHeaderOffset == 0xFFFF_FFFF else { return }
        var at = 0
        while at + 4 <= extra.count {
            let id = extra.u16(at), length = Int(extra.u16(at + 2))
            guard at + 4 + length <= extra.count else { break }
            if id == 1 {
                var field = at + 4
                func next() throws -> UInt64 {
                    guard field + 8 <= at + 4 + length else { throw TUFError("\(name): damaged zip64 extra field") }
                    defer { field += 8 }
                    return extra.u64(field)
                }
                if record.uncompressedSize == 0xFFFF_FFFF { record.uncompressedSize = try next() }
                if record.compressedSize == 0xFFFF_FFFF { record.compressedSize = try next() }
                if record.localHeaderOffset == 0xFFFF_FFFF { record.localHeaderOffset = try next() }
                return
            }
            at += 4 + length
        }
        throw TUFError("\(name): a zip64 entry without its zip64 extra field")
    }

    /// Where `record`'s data starts, from its local header; the data must lie inside the archive.
    public func dataOffset(of record: Record) throws -> UInt64 {
        guard record.localHeaderOffset <= fileSize, fileSize - record.localHeaderOffset >= 30 else { throw TUFError("\(name): a local header lies outside the archive") }
        let header = try read(at: record.localHeaderOffset, count: 30)
        guard header.u32(0) == 0x0403_4B50 else { throw TUFError("\(name): damaged local header") }
        let start = record.localHeaderOffset + 30 + UInt64(header.u16(26)) + UInt64(header.u16(28))
        guard start <= fileSize, record.compressedSize <= fileSize - start else { throw TUFError("\(name): an entry's data runs past the end of the archive") }
        return start
    }

    /// Exactly `count` bytes at `offset`, or an error.
    public func read(at offset: UInt64, count: Int) throws -> Data {
        switch source {
        case .bytes(let archive):
            guard offset <= UInt64(archive.count), UInt64(count) <= UInt64(archive.count) - offset else {
                throw TUFError("\(name): cannot read \(count) bytes at offset \(offset) (a truncated archive?)")
            }
            let start = archive.startIndex + Int(offset)
            return Data(archive[start..<(start + count)])
        case .descriptor(let descriptor):
            var data = Data(count: count)
            var done = 0
            while done < count {
                let n = data.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, count - done, off_t(offset) + off_t(done)) }
                if n < 0 && errno == EINTR { continue }
                // A failing read is the file's; a file that ends early is a truncated archive.
                if n < 0 { throw ReadFailure(errno: errno, path: name) }
                guard n > 0 else { throw TUFError("\(name): cannot read \(count) bytes at offset \(offset) (a truncated archive?)") }
                done += n
            }
            return data
        }
    }
}

/// Little-endian fields of zip records (`Data` that starts at index 0).
extension Data {
    fileprivate func u16(_ at: Int) -> UInt16 { UInt16(self[at]) | UInt16(self[at + 1]) << 8 }
    fileprivate func u32(_ at: Int) -> UInt32 { UInt32(u16(at)) | UInt32(u16(at + 2)) << 16 }
    fileprivate func u64(_ at: Int) -> UInt64 { UInt64(u32(at)) | UInt64(u32(at + 4)) << 32 }
}
