import CArchive
import Foundation

/// Lists the entries of a bundle archive (zip or tar.zst) with libarchive, without extracting.
public enum ArchiveListing {
    public struct Entry: Sendable, Equatable {
        public var path: String
        public var size: Int
        public var isRegularFile: Bool
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public static func entries(of url: URL) throws -> [Entry] {
        guard let archive = archive_read_new() else { throw Failure(description: "libarchive: out of memory") }
        defer { archive_read_free(archive) }
        archive_read_support_format_zip(archive)
        archive_read_support_format_tar(archive)
        archive_read_support_filter_zstd(archive)
        guard archive_read_open_filename(archive, url.path, 1 << 16) == ARCHIVE_OK else {
            throw Failure(description: "\(url.lastPathComponent): " + (archive_error_string(archive).map { String(cString: $0) } ?? "cannot open"))
        }
        var entries: [Entry] = []
        var entry: OpaquePointer?
        while true {
            let status = archive_read_next_header(archive, &entry)
            if status == ARCHIVE_EOF { break }
            guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let entry else {
                throw Failure(description: "\(url.lastPathComponent): " + (archive_error_string(archive).map { String(cString: $0) } ?? "corrupt archive"))
            }
            let path = archive_entry_pathname_utf8(entry).map { String(cString: $0) } ?? archive_entry_pathname(entry).map { String(cString: $0) } ?? ""
            entries.append(Entry(path: path, size: Int(archive_entry_size(entry)), isRegularFile: archive_entry_filetype(entry) == LIVERY_AE_IFREG))
            archive_read_data_skip(archive)
        }
        return entries
    }
}
