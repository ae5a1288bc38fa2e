import Foundation
import LiveryReleaseFormat
import LiveryStorage
import ZIPFoundation

/// Zip bundles, on every platform, with ZIPFoundation: it finds the entries, decodes their names,
/// tells files from folders and links, inflates and checksums. What it keeps internal comes from
/// `ZipCentralDirectory`; the extractor reads each entry's bytes itself, bounded by the entry's
/// compressed size, and hands them to ZIPFoundation's inflater.
///
/// Not used: `Archive.extract(_:to:)`, which creates symbolic links (it refuses only those
/// pointing outside), and `Archive.extract(_:consumer:)`, whose Linux inflater reads on past the
/// entry until its deflate stream ends, for ever when the file ends first (see `ZipCentralDirectory`).
enum ZipExtraction {
    /// Bytes read from the archive, and inflated, at a time.
    static let chunkSize = 1 << 16

    static func extract(_ archive: URL, size: UInt64, into sink: inout ExtractionSink) throws {
        let name = archive.lastPathComponent
        let descriptor = open(archive.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ReadFailure(errno: errno, path: archive.path, operation: .open) }
        defer { close(descriptor) }
        let directory = try ZipCentralDirectory(descriptor: descriptor, fileSize: size, name: name, maxEntries: sink.limits.maxEntries)
        let zip: Archive
        do {
            zip = try Archive(url: archive, accessMode: .read)
        } catch {
            throw TUFError("\(name): not a readable zip (\(error))")
        }
        // Encryption and methods first, for every record: ZIPFoundation's iterator would end silently at an encrypted entry.
        for record in directory.records {
            guard !record.isEncrypted else { throw TUFError("\(name): an encrypted entry (bundles are never encrypted inside the zip)") }
            guard record.method == CompressionMethod.none.rawValue || record.method == CompressionMethod.deflate.rawValue else {
                throw TUFError("\(name): an entry compressed with method \(record.method) (only stored and deflate are read)")
            }
        }
        var index = 0
        for entry in zip {
            guard index < directory.records.count else { throw TUFError("\(name): more entries than its end record declares") }
            let record = directory.records[index]
            index += 1
            try sink.countEntry()
            let entryName = entry.path
            // The two readings of the central directory must describe the same entry.
            guard entry.uncompressedSize == record.uncompressedSize, entry.checksum == record.crc32 else {
                throw TUFError("\(name): inconsistent central directory at '\(entryName)'")
            }
            let relative = try ArchiveExtractor.normalise(entryName)
            // ZIPFoundation classifies links, but reports FIFOs, sockets and devices as files.
            if let type = record.unixType, type != 0, type != UInt16(S_IFREG), type != UInt16(S_IFDIR) {
                throw ArchiveExtractor.notRegular(name, entryName)
            }
            switch entry.type {
            case .symlink:
                throw ArchiveExtractor.notRegular(name, entryName)
            case .directory:
                try sink.makeFolders(relative)
            case .file:
                let output = try sink.createFile(relative)
                defer { close(output) }
                try copy(record, from: directory, method: CompressionMethod(rawValue: record.method) ?? .none, to: output,
                         relative: relative, entryName: entryName, archiveName: name, sink: &sink)
            }
        }
        guard index == directory.records.count else {
            throw TUFError("\(name): only \(index) of \(directory.records.count) entries could be read (a damaged archive?)")
        }
    }

    /// Reads one entry's data, inflating it if it is deflated, into `output`; its length and CRC-32 must be those recorded.
    private static func copy(_ record: ZipCentralDirectory.Record, from directory: ZipCentralDirectory, method: CompressionMethod, to output: Int32,
                             relative: String, entryName: String, archiveName: String, sink: inout ExtractionSink) throws {
        let start = try directory.dataOffset(of: record)
        var consumed: UInt64 = 0
        var produced: UInt64 = 0
        func take(_ data: Data) throws {
            produced += UInt64(data.count)
            guard produced <= record.uncompressedSize else {
                throw TUFError("\(archiveName): '\(entryName)' is longer than the \(record.uncompressedSize) bytes it declares")
            }
            try data.withUnsafeBytes { try sink.write($0, to: output, relative: relative) }
        }
        let checksum: CRC32
        switch method {
        case .none:
            guard record.compressedSize == record.uncompressedSize else { throw TUFError("\(archiveName): stored entry '\(entryName)' has two sizes") }
            var crc = CRC32(0)
            while consumed < record.compressedSize {
                let data = try directory.read(at: start + consumed, count: Int(min(UInt64(chunkSize), record.compressedSize - consumed)))
                consumed += UInt64(data.count)
                crc = data.crc32(checksum: crc)
                try take(data)
            }
            checksum = crc
        case .deflate:
            checksum = try BoundedInflate.inflate(length: Int(record.compressedSize), chunkSize: chunkSize, skipCRC32: false, what: "\(archiveName): the deflate data of '\(entryName)'",
                                                  read: { try directory.read(at: start + UInt64($0), count: $1) }, consumer: take)
        }
        guard produced == record.uncompressedSize else {
            throw TUFError("\(archiveName): '\(entryName)' is \(produced) bytes, its entry declares \(record.uncompressedSize)")
        }
        guard checksum == record.crc32 else { throw TUFError("\(archiveName): '\(entryName)' does not match its CRC-32") }
    }
}
