import Foundation
import LiveryStorage
import LiveryReleaseFormat

/// The one type through which the client reads bundle archives: zip with ZIPFoundation on every
/// platform, tar.zst with libarchive where the platform has it (Linux; not iOS).
///
/// Extraction never trusts the archive, even a correctly signed one: only regular files and
/// folders; relative, normalised paths (no `..`, no absolute path, no backslash); files created
/// with `O_EXCL | O_NOFOLLOW` under folders this extractor made itself; and caps on the number of
/// entries, the bytes actually read, and the ratio of those bytes to the archive's size. Both
/// readers hand every entry to one `ExtractionSink`, which alone creates files and folders and
/// counts, so the two formats obey the same rules.
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
        // The archive's own bytes say what it is: installed bundles are named by digest, without an extension.
        let format = try BundleFormat.sniff(archive)
        let archiveSize = (try? FileManager.default.attributesOfItem(atPath: archive.path)[.size] as? Int) ?? 0
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        var sink = ExtractionSink(archiveName: archive.lastPathComponent, destination: destination, limits: limits,
                                  byteBudget: min(limits.maxBytes, archiveSize * limits.maxRatio + (1 << 20)))
        switch format {
        case .zip:
            try ZipExtraction.extract(archive, size: UInt64(archiveSize), into: &sink)
        case .tarZstd:
            #if canImport(CArchiveReader)
            try TarZstdExtraction.extract(archive, into: &sink)
            #else
            throw TUFError("\(archive.lastPathComponent): tar.zst bundles need libarchive, which this platform lacks: publish zip (livery build --archive-format zip)")
            #endif
        }
        return sink.written
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

    /// The refusal for an entry that is neither a regular file nor a folder.
    static func notRegular(_ archive: String, _ name: String) -> TUFError {
        TUFError("\(archive): '\(name)' is not a regular file (links and devices are refused)")
    }
}

/// The two archive formats a bundle comes in, told apart by their first bytes.
enum BundleFormat {
    case zip, tarZstd

    static func sniff(_ archive: URL) throws -> BundleFormat {
        let descriptor = open(archive.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ReadFailure(errno: errno, path: archive.path, operation: .open) }
        defer { close(descriptor) }
        var magic = [UInt8](repeating: 0, count: 4)
        let count = read(descriptor, &magic, 4)
        // A local file header, or the end record of an empty zip.
        if count == 4, magic == [0x50, 0x4B, 0x03, 0x04] || magic == [0x50, 0x4B, 0x05, 0x06] { return .zip }
        if count == 4, magic == [0x28, 0xB5, 0x2F, 0xFD] { return .tarZstd }
        throw TUFError("\(archive.lastPathComponent) is neither a zip nor a tar.zst archive")
    }
}

/// The writing half of an extraction, shared by the zip and tar.zst readers: it counts entries and
/// bytes against the limits, makes folders, and creates and fills files, and nothing else writes.
struct ExtractionSink {
    let archiveName: String
    let destination: URL
    let limits: ArchiveExtractor.Limits
    let byteBudget: Int
    private(set) var written: [String] = []
    private var entries = 0
    private var total = 0
    private var made = Set<String>([""])

    init(archiveName: String, destination: URL, limits: ArchiveExtractor.Limits, byteBudget: Int) {
        self.archiveName = archiveName
        self.destination = destination
        self.limits = limits
        self.byteBudget = byteBudget
    }

    /// Counts one more entry against the cap, before anything of it is read.
    mutating func countEntry() throws {
        entries += 1
        guard entries <= limits.maxEntries else { throw Self.tooMany(archiveName, maxEntries: limits.maxEntries) }
    }

    static func tooMany(_ archiveName: String, maxEntries: Int) -> TUFError {
        TUFError("\(archiveName) has more than \(maxEntries) entries")
    }

    /// Makes the folder `relative` (already normalised) and its parents.
    mutating func makeFolders(_ relative: String) throws {
        var path = ""
        for component in relative.split(separator: "/") {
            path = path.isEmpty ? String(component) : path + "/" + component
            if made.contains(path) { continue }
            let full = destination.appendingPathComponent(path).path
            if mkdir(full, 0o755) != 0 {
                // Only a folder this extractor made may be reused; anything else is refused.
                throw WriteFailure(errno: errno, path: path, operation: .createFolder)
            }
            made.insert(path)
        }
    }

    /// Creates the new file `relative` (already normalised) under folders this sink made; returns its descriptor.
    mutating func createFile(_ relative: String) throws -> Int32 {
        try makeFolders(relative.split(separator: "/").dropLast().joined(separator: "/"))
        let path = destination.appendingPathComponent(relative).path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            // The folders are this sink's own and new: a file that is already there is the archive's second entry of that name.
            guard errno == EEXIST else { throw WriteFailure(errno: errno, path: path, operation: .create) }
            throw TUFError("\(archiveName): cannot create '\(relative)' (\(String(cString: strerror(errno))); duplicate entry?)")
        }
        written.append(relative)
        return descriptor
    }

    /// Writes bytes just read from the archive, after counting them against the byte budget.
    mutating func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, relative: String) throws {
        total += bytes.count
        guard total <= byteBudget else {
            throw TUFError("\(archiveName) expands to more than \(byteBudget) bytes (a compression bomb?)")
        }
        var offset = 0
        while offset < bytes.count {
            let n = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw WriteFailure(errno: errno, path: relative) }
            offset += n
        }
    }
}
