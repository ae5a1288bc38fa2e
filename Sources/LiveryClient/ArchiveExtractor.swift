import CArchive
import Foundation
import LiveryTUF

/// The one type through which the client reads bundle archives (zip or tar.zst, with libarchive).
///
/// Extraction never trusts the archive, even a correctly signed one: only regular files and
/// folders; relative, normalised paths (no `..`, no absolute path, no backslash); files created
/// with `O_EXCL | O_NOFOLLOW` under folders this extractor made itself; and caps on the number of
/// entries, the bytes actually read, and the ratio of those bytes to the archive's size.
public enum ArchiveExtractor {
    public struct Limits: Sendable {
        public var maxEntries = 100_000
        public var maxBytes = 8 << 30
        /// Bytes extracted may be at most this many times the archive's size (plus 1 MiB).
        public var maxRatio = 100

        public init() {}
    }

    /// Extracts `archive` into the empty folder `destination`; returns the files written.
    @discardableResult
    public static func extract(_ archive: URL, into destination: URL, limits: Limits = Limits()) throws -> [String] {
        let archiveSize = (try? FileManager.default.attributesOfItem(atPath: archive.path)[.size] as? Int) ?? 0
        let byteBudget = min(limits.maxBytes, archiveSize * limits.maxRatio + (1 << 20))
        guard let reader = archive_read_new() else { throw TUFError("libarchive: out of memory") }
        defer { archive_read_free(reader) }
        archive_read_support_format_zip(reader)
        archive_read_support_format_tar(reader)
        archive_read_support_filter_zstd(reader)
        guard archive_read_open_filename(reader, archive.path, 1 << 16) == ARCHIVE_OK else {
            throw TUFError("\(archive.lastPathComponent): \(String(cString: archive_error_string(reader)))")
        }
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        var written: [String] = []
        var entries = 0
        var total = 0
        var made = Set<String>([""])
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { buffer.deallocate() }
        var entry: OpaquePointer?
        while true {
            let status = archive_read_next_header(reader, &entry)
            if status == ARCHIVE_EOF { break }
            guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let entry else {
                throw TUFError("\(archive.lastPathComponent): corrupt archive: \(String(cString: archive_error_string(reader)))")
            }
            entries += 1
            guard entries <= limits.maxEntries else { throw TUFError("\(archive.lastPathComponent) has more than \(limits.maxEntries) entries") }
            let name = archive_entry_pathname_utf8(entry).map { String(cString: $0) } ?? archive_entry_pathname(entry).map { String(cString: $0) } ?? ""
            let relative = try normalise(name)
            let type = archive_entry_filetype(entry)
            if type == LIVERY_AE_IFDIR {
                try makeFolders(relative, in: destination, made: &made)
                continue
            }
            guard type == LIVERY_AE_IFREG else { throw TUFError("\(archive.lastPathComponent): '\(name)' is not a regular file (links and devices are refused)") }
            let parent = relative.split(separator: "/").dropLast().joined(separator: "/")
            try makeFolders(parent, in: destination, made: &made)
            let path = destination.appendingPathComponent(relative).path
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw TUFError("\(archive.lastPathComponent): cannot create '\(relative)' (\(String(cString: strerror(errno))); duplicate entry?)") }
            defer { close(descriptor) }
            while true {
                let n = archive_read_data(reader, buffer, 1 << 16)
                if n == 0 { break }
                guard n > 0 else { throw TUFError("\(archive.lastPathComponent): corrupt data in '\(name)'") }
                total += n
                guard total <= byteBudget else {
                    throw TUFError("\(archive.lastPathComponent) expands to more than \(byteBudget) bytes (a compression bomb?)")
                }
                guard Glibc.write(descriptor, buffer, n) == n else { throw TUFError("cannot write '\(relative)'") }
            }
            written.append(relative)
        }
        return written
    }

    /// A safe relative path for an entry name, or an error saying why it is refused.
    static func normalise(_ name: String) throws -> String {
        guard !name.isEmpty, !name.hasPrefix("/"), !name.contains("\\"), !name.contains("\0") else { throw TUFError("entry '\(name)' has an absolute or unsafe path") }
        var parts: [Substring] = []
        for component in name.split(separator: "/", omittingEmptySubsequences: true) {
            if component == "." { continue }
            guard component != ".." else { throw TUFError("entry '\(name)' climbs out of the folder ('..')") }
            parts.append(component)
        }
        guard !parts.isEmpty else { throw TUFError("entry '\(name)' names no file") }
        return parts.joined(separator: "/")
    }

    private static func makeFolders(_ relative: String, in destination: URL, made: inout Set<String>) throws {
        var path = ""
        for component in relative.split(separator: "/") {
            path = path.isEmpty ? String(component) : path + "/" + component
            if made.contains(path) { continue }
            let full = destination.appendingPathComponent(path).path
            if mkdir(full, 0o755) != 0 {
                // Only a folder this extractor made may be reused; anything else is refused.
                throw TUFError("cannot create folder '\(path)': \(String(cString: strerror(errno)))")
            }
            made.insert(path)
        }
    }
}
