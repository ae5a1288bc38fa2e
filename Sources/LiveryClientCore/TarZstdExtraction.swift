#if canImport(CArchiveReader)
import CArchiveReader
import Foundation
import LiveryReleaseFormat

/// tar.zst bundles, read with libarchive (only where the platform has it as a library: Linux), which CArchiveReader
/// loads on the first such bundle rather than at the app's start. libarchive only reads here: every entry goes
/// through the same `ExtractionSink` as a zip's.
enum TarZstdExtraction {
    static func extract(_ archive: URL, into sink: inout ExtractionSink) throws {
        let name = archive.lastPathComponent
        guard livery_archive_reader_start() == 0 else {
            throw TUFError("\(name): tar.zst bundles need libarchive (\(String(cString: livery_archive_reader_error()))): install libarchive13, or publish zip (livery build --archive-format zip)")
        }
        guard let reader = livery_archive_read_new() else { throw TUFError("libarchive: out of memory") }
        defer { livery_archive_read_free(reader) }
        livery_archive_read_support_format_tar(reader)
        livery_archive_read_support_filter_zstd(reader)
        guard livery_archive_read_open_filename(reader, archive.path, 1 << 16) == LIVERY_ARCHIVE_OK else {
            throw TUFError("\(name): \(String(cString: livery_archive_error_string(reader)))")
        }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { buffer.deallocate() }
        var entry: OpaquePointer?
        while true {
            let status = livery_archive_read_next_header(reader, &entry)
            if status == LIVERY_ARCHIVE_EOF { break }
            guard status == LIVERY_ARCHIVE_OK || status == LIVERY_ARCHIVE_WARN, let entry else {
                throw TUFError("\(name): corrupt archive: \(String(cString: livery_archive_error_string(reader)))")
            }
            try sink.countEntry()
            let entryName = livery_archive_entry_pathname_utf8(entry).map { String(cString: $0) } ?? livery_archive_entry_pathname(entry).map { String(cString: $0) } ?? ""
            let relative = try ArchiveExtractor.normalise(entryName)
            let type = livery_archive_entry_filetype(entry)
            if type == LIVERY_ARCHIVE_IFDIR {
                try sink.makeFolders(relative)
                continue
            }
            guard type == LIVERY_ARCHIVE_IFREG else { throw ArchiveExtractor.notRegular(name, entryName) }
            let descriptor = try sink.createFile(relative)
            defer { close(descriptor) }
            while true {
                let n = livery_archive_read_data(reader, buffer, 1 << 16)
                if n == 0 { break }
                guard n > 0 else { throw TUFError("\(name): corrupt data in '\(entryName)'") }
                try sink.write(UnsafeRawBufferPointer(start: buffer, count: n), to: descriptor, relative: relative)
            }
        }
    }
}
#endif
