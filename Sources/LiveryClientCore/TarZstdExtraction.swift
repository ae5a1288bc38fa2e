#if canImport(CArchive)
import CArchive
import Foundation
import LiveryTUF

/// tar.zst bundles, read with libarchive (only where the platform has it as a library: Linux).
/// libarchive only reads here: every entry goes through the same `ExtractionSink` as a zip's.
enum TarZstdExtraction {
    static func extract(_ archive: URL, into sink: inout ExtractionSink) throws {
        let name = archive.lastPathComponent
        guard let reader = archive_read_new() else { throw TUFError("libarchive: out of memory") }
        defer { archive_read_free(reader) }
        archive_read_support_format_tar(reader)
        archive_read_support_filter_zstd(reader)
        guard archive_read_open_filename(reader, archive.path, 1 << 16) == ARCHIVE_OK else {
            throw TUFError("\(name): \(String(cString: archive_error_string(reader)))")
        }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { buffer.deallocate() }
        var entry: OpaquePointer?
        while true {
            let status = archive_read_next_header(reader, &entry)
            if status == ARCHIVE_EOF { break }
            guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let entry else {
                throw TUFError("\(name): corrupt archive: \(String(cString: archive_error_string(reader)))")
            }
            try sink.countEntry()
            let entryName = archive_entry_pathname_utf8(entry).map { String(cString: $0) } ?? archive_entry_pathname(entry).map { String(cString: $0) } ?? ""
            let relative = try ArchiveExtractor.normalise(entryName)
            let type = archive_entry_filetype(entry)
            if type == LIVERY_AE_IFDIR {
                try sink.makeFolders(relative)
                continue
            }
            guard type == LIVERY_AE_IFREG else { throw ArchiveExtractor.notRegular(name, entryName) }
            let descriptor = try sink.createFile(relative)
            defer { close(descriptor) }
            while true {
                let n = archive_read_data(reader, buffer, 1 << 16)
                if n == 0 { break }
                guard n > 0 else { throw TUFError("\(name): corrupt data in '\(entryName)'") }
                try sink.write(UnsafeRawBufferPointer(start: buffer, count: n), to: descriptor, relative: relative)
            }
        }
    }
}
#endif
