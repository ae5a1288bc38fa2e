import CDeflate
import Foundation
import LiveryStorage

/// Writes a bundle's zip: the container framing (PKWARE APPNOTE 6.3.10, sections 4.3 to 4.5) around
/// entries deflated by libdeflate.
///
/// Why not libarchive, which writes Livery's tar.zst bundles: its zip writer deflates through zlib
/// and takes no entry data deflated elsewhere. Deflating is most of what packing a locale bundle
/// costs, and libdeflate at the same level (6) deflates 1.7 to 2.2 times as fast as zlib with output
/// as small (the samples' text entries: 416,415 against 415,859 bytes) or smaller (a plural String
/// Catalog: 10% smaller), measured on the same bytes (docs/benchmarks.md). The framing is small and
/// fixed, and every archive it writes is read in the tests by `bsdtar`, `unzip -t` and Python's
/// `zipfile`, besides Livery's own clients.
///
/// What it writes, always the same bytes for the same entries:
/// - entries in the order given (callers sort them), names in UTF-8 (flag bit 11), no folder entries,
///   no extra field but Zip64's, no comment; every entry made on Unix with mode 0644 and one fixed time;
/// - an entry whose bytes are in memory, or a file of at most `wholeFileLimit` bytes read whole, with
///   its CRC-32 and sizes in its local header, deflated (method 8) by libdeflate or stored (method 0);
/// - a longer file streamed in chunks, stored or deflated by zlib at the same level, with a data
///   descriptor (flag bit 3) after its data, as libarchive wrote every entry;
/// - Zip64 records for an entry or an archive past 4 GiB, or past 65,535 entries.
public final class ZipContainer {
    /// libdeflate's and zlib's level: both default to 6.
    static let level: Int32 = 6
    /// What makes a zip's bytes besides its entries, in each bundle's key (`BundleSpec.key`).
    public static let writer = "ZipContainer 1, libdeflate \(LIBDEFLATE_VERSION_STRING) level \(level), zlib \(String(cString: zlibVersion()))"
    /// Files at most this long are read whole and deflated by libdeflate (which has no streaming
    /// interface); longer ones stream through zlib, so memory stays flat whatever the file.
    static let wholeFileLimit = 4 << 20

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let emit: (UnsafeRawBufferPointer) throws -> Void
    private let dosTime: UInt16
    private let dosDate: UInt16
    /// Sizes and offsets at or past this need Zip64 records: 0xFFFF_FFFF, lowered by tests to write them for small archives.
    private let zip64Threshold: UInt64
    private let compressor: OpaquePointer
    /// Headers and small entries gathered before they are handed on, so that a bundle of small files is not one
    /// write per header.
    private var pending: [UInt8] = []
    private var scratch: UnsafeMutableRawBufferPointer = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    private var central: [UInt8] = []
    private var entries = 0
    private var anyZip64 = false
    private(set) var offset: UInt64 = 0

    /// `emit` receives the archive's bytes in order; `mtime` (seconds since 1970, UTC) is every entry's time.
    init(mtime: Int, zip64Threshold: UInt64 = 0xFFFF_FFFF, emit: @escaping (UnsafeRawBufferPointer) throws -> Void) throws {
        guard let compressor = libdeflate_alloc_compressor(Self.level) else { throw Failure(description: "libdeflate: out of memory") }
        self.compressor = compressor
        self.emit = emit
        self.zip64Threshold = zip64Threshold
        (dosTime, dosDate) = Self.dosTimestamp(mtime)
        pending.reserveCapacity(Self.flushSize)
    }

    deinit {
        libdeflate_free_compressor(compressor)
        scratch.deallocate()
    }

    /// MS-DOS date and time fields of `mtime` in UTC (2-second resolution; 1980 is the floor, 2107 the ceiling).
    static func dosTimestamp(_ mtime: Int) -> (time: UInt16, date: UInt16) {
        var seconds = time_t(mtime)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let year = min(max(Int(parts.tm_year) + 1900, 1980), 2107)
        let time = UInt16(parts.tm_hour) << 11 | UInt16(parts.tm_min) << 5 | UInt16(parts.tm_sec / 2)
        let date = UInt16(year - 1980) << 9 | UInt16(parts.tm_mon + 1) << 5 | UInt16(parts.tm_mday)
        return (time, date)
    }

    // MARK: Entries

    /// Adds `bytes` under `path`, deflated when `compress`.
    func add(_ path: String, bytes: UnsafeRawBufferPointer, compress: Bool) throws {
        let crc = libdeflate_crc32(0, bytes.baseAddress, bytes.count)
        guard compress else {
            try entry(path, method: 0, crc: crc, compressed: UInt64(bytes.count), size: UInt64(bytes.count), data: bytes)
            return
        }
        let bound = libdeflate_deflate_compress_bound(compressor, bytes.count)
        reserveScratch(bound)
        let written = libdeflate_deflate_compress(compressor, bytes.baseAddress, bytes.count, scratch.baseAddress, bound)
        guard written > 0 else { throw Failure(description: "libdeflate could not deflate \(path)") }
        try entry(path, method: 8, crc: crc, compressed: UInt64(written), size: UInt64(bytes.count),
                  data: UnsafeRawBufferPointer(rebasing: scratch[0..<written]))
    }

    /// Adds the file at `url`, which must be `size` bytes long, under `path`, deflated when `compress`.
    func add(_ path: String, file url: URL, size: Int, compress: Bool) throws {
        let reader = try FileReader(url)
        if size <= Self.wholeFileLimit {
            let whole = UnsafeMutableRawBufferPointer.allocate(byteCount: size + 1, alignment: 64)
            defer { whole.deallocate() }
            var copied = 0
            try reader.readChunks { chunk in
                guard copied + chunk.count <= size else { copied += chunk.count; return false }
                UnsafeMutableRawBufferPointer(rebasing: whole[copied..<copied + chunk.count]).copyMemory(from: chunk)
                copied += chunk.count
                return true
            }
            guard copied == size else { throw Failure(description: "\(url.path) changed size while being archived") }
            try add(path, bytes: UnsafeRawBufferPointer(rebasing: whole[0..<size]), compress: compress)
            return
        }
        try streamed(path, reader: reader, file: url, size: size, compress: compress)
    }

    /// A file too long to hold: its local header has no CRC-32 or sizes; they follow its data in a descriptor.
    private func streamed(_ path: String, reader: borrowing FileReader, file url: URL, size: Int, compress: Bool) throws {
        let start = offset
        // Deflate can grow incompressible data by a few bytes per 16 KiB block: decide Zip64 on a bound of what may be written.
        let zip64 = UInt64(size) + UInt64(size) / 1000 + 1024 >= zip64Threshold || start >= zip64Threshold
        try localHeader(path, method: compress ? 8 : 0, flags: 0x0808, crc: 0, compressed: 0, size: 0, zip64: zip64)
        var crc: UInt32 = 0
        var copied = 0
        var compressed: UInt64 = 0
        let deflater = compress ? try StreamingDeflate() : nil
        try reader.forEachChunk { chunk in
            crc = libdeflate_crc32(crc, chunk.baseAddress, chunk.count)
            copied += chunk.count
            if let deflater {
                compressed += try deflater.deflate(chunk, finish: false) { try self.write($0) }
            } else {
                compressed += UInt64(chunk.count)
                try write(chunk)
            }
        }
        if let deflater { compressed += try deflater.deflate(UnsafeRawBufferPointer(start: nil, count: 0), finish: true) { try self.write($0) } }
        guard copied == size else { throw Failure(description: "\(url.path) changed size while being archived") }
        var descriptor: [UInt8] = []
        descriptor.le32(0x0807_4B50)
        descriptor.le32(crc)
        if zip64 { descriptor.le64(compressed); descriptor.le64(UInt64(size)) } else { descriptor.le32(UInt32(compressed)); descriptor.le32(UInt32(size)) }
        try write(descriptor)
        try centralRecord(path, method: compress ? 8 : 0, flags: 0x0808, crc: crc, compressed: compressed, size: UInt64(size), localHeader: start, zip64: zip64)
    }

    /// An entry whose CRC-32 and sizes are known before its data.
    private func entry(_ path: String, method: UInt16, crc: UInt32, compressed: UInt64, size: UInt64, data: UnsafeRawBufferPointer) throws {
        let start = offset
        let zip64 = compressed >= zip64Threshold || size >= zip64Threshold || start >= zip64Threshold
        try localHeader(path, method: method, flags: 0x0800, crc: crc, compressed: compressed, size: size, zip64: zip64)
        try write(data)
        try centralRecord(path, method: method, flags: 0x0800, crc: crc, compressed: compressed, size: size, localHeader: start, zip64: zip64)
    }

    // MARK: Records

    private func localHeader(_ path: String, method: UInt16, flags: UInt16, crc: UInt32, compressed: UInt64, size: UInt64, zip64: Bool) throws {
        let name = Array(path.utf8)
        guard name.count <= 0xFFFF else { throw Failure(description: "a zip entry name is at most 65,535 bytes: \(path.prefix(80))…") }
        var header: [UInt8] = []
        header.reserveCapacity(30 + name.count + 20)
        header.le32(0x0403_4B50)
        sharedFields(&header, flags: flags, method: method, crc: crc, compressed: compressed, size: size, zip64: zip64)
        header.le16(UInt16(name.count))
        header.le16(zip64 ? 20 : 0)
        header.append(contentsOf: name)
        if zip64 {
            // The local Zip64 extra holds both sizes (zero when a data descriptor follows the data).
            header.le16(0x0001)
            header.le16(16)
            header.le64(size)
            header.le64(compressed)
        }
        try write(header)
    }

    /// The fields a local header and a central directory record share, in their order: the version needed to
    /// extract (4.5 for Zip64, else 2.0), flags, method, time, date, CRC-32 and the two sizes (all ones under Zip64,
    /// whose extra field holds them).
    private func sharedFields(_ bytes: inout [UInt8], flags: UInt16, method: UInt16, crc: UInt32, compressed: UInt64, size: UInt64, zip64: Bool) {
        bytes.le16(zip64 ? 45 : 20)
        bytes.le16(flags)
        bytes.le16(method)
        bytes.le16(dosTime)
        bytes.le16(dosDate)
        bytes.le32(crc)
        bytes.le32(zip64 ? 0xFFFF_FFFF : UInt32(compressed))
        bytes.le32(zip64 ? 0xFFFF_FFFF : UInt32(size))
    }

    private func centralRecord(_ path: String, method: UInt16, flags: UInt16, crc: UInt32, compressed: UInt64, size: UInt64,
                               localHeader: UInt64, zip64: Bool) throws {
        let name = Array(path.utf8)
        let wide = zip64 || localHeader >= zip64Threshold
        anyZip64 = anyZip64 || wide
        central.le32(0x0201_4B50)
        central.le16(3 << 8 | (wide ? 45 : 20))  // made by: Unix, APPNOTE 4.5 or 2.0
        sharedFields(&central, flags: flags, method: method, crc: crc, compressed: compressed, size: size, zip64: wide)
        central.le16(UInt16(name.count))
        central.le16(wide ? 28 : 0)
        central.le16(0)  // comment length
        central.le16(0)  // disk number
        central.le16(0)  // internal attributes
        central.le32(UInt32(0o100644) << 16)  // external attributes: a regular file, rw-r--r--
        central.le32(wide ? 0xFFFF_FFFF : UInt32(localHeader))
        central.append(contentsOf: name)
        if wide {
            // Every field the record marks 0xFFFFFFFF, in APPNOTE's order: size, compressed size, local header offset.
            central.le16(0x0001)
            central.le16(24)
            central.le64(size)
            central.le64(compressed)
            central.le64(localHeader)
        }
        entries += 1
    }

    /// Writes the central directory and the end records; the archive is then complete.
    func finish() throws {
        let directoryStart = offset
        let directory = central
        central = []
        try write(directory)
        let directorySize = UInt64(directory.count)
        let wide = anyZip64 || entries >= 0xFFFF || directoryStart >= zip64Threshold || directorySize >= zip64Threshold
        var end: [UInt8] = []
        if wide {
            let record = offset
            end.le32(0x0606_4B50)  // Zip64 end of central directory record
            end.le64(44)
            end.le16(3 << 8 | 45)
            end.le16(45)
            end.le32(0)
            end.le32(0)
            end.le64(UInt64(entries))
            end.le64(UInt64(entries))
            end.le64(directorySize)
            end.le64(directoryStart)
            end.le32(0x0706_4B50)  // its locator
            end.le32(0)
            end.le64(record)
            end.le32(1)
        }
        end.le32(0x0605_4B50)
        end.le16(0)
        end.le16(0)
        end.le16(wide ? 0xFFFF : UInt16(entries))
        end.le16(wide ? 0xFFFF : UInt16(entries))
        end.le32(wide ? 0xFFFF_FFFF : UInt32(directorySize))
        end.le32(wide ? 0xFFFF_FFFF : UInt32(directoryStart))
        end.le16(0)  // comment length
        try write(end)
        try flush()
    }

    // MARK: Output

    private static let flushSize = 256 << 10

    private func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    private func write(_ bytes: UnsafeRawBufferPointer) throws {
        offset += UInt64(bytes.count)
        if pending.count + bytes.count <= Self.flushSize {
            pending.append(contentsOf: bytes)
            return
        }
        try flush()
        if bytes.count < Self.flushSize { pending.append(contentsOf: bytes) } else { try emit(bytes) }
    }

    private func flush() throws {
        guard !pending.isEmpty else { return }
        try pending.withUnsafeBytes { try emit($0) }
        pending.removeAll(keepingCapacity: true)
    }

    private func reserveScratch(_ count: Int) {
        guard scratch.count < count else { return }
        scratch.deallocate()
        scratch = .allocate(byteCount: max(count, 64 << 10), alignment: 64)
    }
}

/// zlib's raw deflate (no header, as zip stores it) at `ZipContainer.level`, fed chunk by chunk. A class holding
/// the stream on the heap: zlib's state points back at its `z_stream`, which must therefore never move.
private final class StreamingDeflate {
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    private var output = [UInt8](repeating: 0, count: 256 << 10)

    init() throws {
        stream.initialize(to: z_stream())
        // Window 2^15 with a negative sign for raw deflate, memory level 8: zlib's defaults, as libarchive's zip writer set them.
        guard deflateInit2_(stream, ZipContainer.level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            stream.deallocate()
            throw ZipContainer.Failure(description: "zlib: deflateInit2 failed")
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deallocate()
    }

    /// Deflates `input` (and ends the stream when `finish`), handing each piece of output to `sink`; returns the bytes produced.
    func deflate(_ input: UnsafeRawBufferPointer, finish: Bool, sink: (UnsafeRawBufferPointer) throws -> Void) throws -> UInt64 {
        var produced: UInt64 = 0
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(input.count)
        while true {
            let (status, count): (Int32, Int) = output.withUnsafeMutableBytes { buffer in
                stream.pointee.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.pointee.avail_out = uInt(buffer.count)
                let status = CDeflate.deflate(stream, finish ? Z_FINISH : Z_NO_FLUSH)
                return (status, buffer.count - Int(stream.pointee.avail_out))
            }
            guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                throw ZipContainer.Failure(description: "zlib: deflate failed (\(status))")
            }
            if count > 0 { try output.withUnsafeBytes { try sink(UnsafeRawBufferPointer(rebasing: $0[0..<count])) } }
            produced += UInt64(count)
            // Done when zlib has taken all the input and had room to spare (or, finishing, has ended the stream).
            if finish ? status == Z_STREAM_END : (stream.pointee.avail_in == 0 && count < output.count) { return produced }
        }
    }
}

private extension Array where Element == UInt8 {
    mutating func le16(_ value: UInt16) { append(UInt8(value & 0xFF)); append(UInt8(value >> 8)) }
    mutating func le32(_ value: UInt32) { for shift in stride(from: 0, to: 32, by: 8) { append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) } }
    mutating func le64(_ value: UInt64) { for shift in stride(from: 0, to: 64, by: 8) { append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) } }
}
