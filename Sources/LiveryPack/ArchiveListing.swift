import CArchive
import Crypto
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

    /// A libarchive reader of `url` (zip or tar.zst), opened; the caller frees it.
    private static func open(_ url: URL) throws -> OpaquePointer {
        guard let archive = archive_read_new() else { throw Failure(description: "libarchive: out of memory") }
        archive_read_support_format_zip(archive)
        archive_read_support_format_tar(archive)
        archive_read_support_filter_zstd(archive)
        guard archive_read_open_filename(archive, url.path, 1 << 16) == ARCHIVE_OK else {
            defer { archive_read_free(archive) }
            throw Failure(description: "\(url.lastPathComponent): " + (archive_error_string(archive).map { String(cString: $0) } ?? "cannot open"))
        }
        return archive
    }

    /// Opens `url` and calls `visit` with the reader, each entry and its path, in archive order.
    /// `visit` may read the entry's data; what it leaves unread is skipped.
    static func forEachEntry(of url: URL, _ visit: (_ archive: OpaquePointer, _ entry: OpaquePointer, _ path: String) throws -> Void) throws {
        let archive = try open(url)
        defer { archive_read_free(archive) }
        var entry: OpaquePointer?
        while true {
            let status = archive_read_next_header(archive, &entry)
            if status == ARCHIVE_EOF { return }
            guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let entry else {
                throw Failure(description: "\(url.lastPathComponent): " + (archive_error_string(archive).map { String(cString: $0) } ?? "corrupt archive"))
            }
            let path = archive_entry_pathname_utf8(entry).map { String(cString: $0) } ?? archive_entry_pathname(entry).map { String(cString: $0) } ?? ""
            try visit(archive, entry, path)
        }
    }

    public static func entries(of url: URL) throws -> [Entry] {
        var entries: [Entry] = []
        try forEachEntry(of: url) { _, entry, path in
            entries.append(Entry(path: path, size: Int(archive_entry_size(entry)), isRegularFile: archive_entry_filetype(entry) == LIVERY_AE_IFREG))
        }
        return entries
    }
}

extension ArchiveListing {
    /// One regular file of an archive: its SHA-256 and size, and its bytes when the caller kept them.
    public struct Content: Sendable, Equatable {
        public var sha256: String
        public var size: Int
        public var data: Data?
    }

    /// Every regular file of an archive with the SHA-256 of its bytes, streamed in 64 KiB blocks
    /// (a tour's audio is never held whole); the bytes of the files `keep` names are kept as well.
    public static func contents(of url: URL, keep: (String) -> Bool = { _ in false }) throws -> [String: Content] {
        var contents: [String: Content] = [:]
        try forEachFile(of: url, keep: keep) { path, content in contents[path] = content }
        return contents
    }

    /// Every regular file of an archive in archive order, as `contents(of:keep:)` describes it, handed
    /// to `body` one at a time: the kept bytes of one file are freed before the next is read.
    public static func forEachFile(of url: URL, keep: (String) -> Bool = { _ in false }, _ body: (String, Content) throws -> Void) throws {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { buffer.deallocate() }
        try forEachEntry(of: url) { archive, entry, path in
            guard archive_entry_filetype(entry) == LIVERY_AE_IFREG else { return }
            let keeping = keep(path)
            var hasher = SHA256()
            var size = 0
            var data = Data()
            while true {
                let n = archive_read_data(archive, buffer, 1 << 16)
                guard n >= 0 else { throw Failure(description: "\(url.lastPathComponent): \(path): " + (archive_error_string(archive).map { String(cString: $0) } ?? "unreadable")) }
                if n == 0 { break }
                let block = UnsafeRawBufferPointer(start: buffer, count: n)
                hasher.update(bufferPointer: block)
                if keeping { data.append(contentsOf: block) }
                size += n
            }
            try body(path, Content(sha256: hasher.finalize().hexString, size: size, data: keeping ? data : nil))
        }
    }
}
