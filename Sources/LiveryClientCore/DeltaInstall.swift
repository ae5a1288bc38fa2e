import Crypto
import Foundation
import LiveryReleaseFormat
import LiveryStorage

/// How a bundle of a fetch gets onto the device (docs/deltas.md).
public enum DownloadMethod: String, Sendable {
    /// The whole archive is downloaded, verified against its signed SHA-256 and extracted.
    case full
    /// Only the files the device lacks are downloaded, from the new archive with range requests, each
    /// verified against the bundle's signed file index; the rest comes from the installed release.
    case delta
}

/// A bundle the fetch downloads, as its `plan` event says: how, and the bytes it will receive for it
/// (for a delta: the index pages and file ranges; `archiveBytes` is what the full download would be).
public struct PlannedDownload: Sendable, Equatable {
    public var bundle: String
    public var method: DownloadMethod
    public var bytes: Int
    public var archiveBytes: Int
}

/// What the installed release holds that a delta can start from: the file indexes of its bundles (kept
/// in `index/<bundle id>.files` beside `bundles/`, verified when they were installed), each page by its
/// digest, and each file by its content digest.
final class DeltaBase: @unchecked Sendable {
    private(set) var pages: [String: Data] = [:]
    private(set) var files: [String: URL] = [:]

    /// Reads the indexes of every bundle of `release` that has one (a damaged one is skipped: its bundle
    /// is then downloaded whole).
    init(release: URL?, manifest: DownloadManifest?) {
        guard let release, let manifest else { return }
        for bundle in manifest.bundles {
            guard let reference = bundle.files,
                  let object = FileManager.default.contents(atPath: DeltaBase.indexFile(in: release, bundle: bundle.id).path),
                  let index = try? FileIndex(object: object, reference: reference, what: "the installed index of \(bundle.id)") else { continue }
            let folder = release.appendingPathComponent("bundles").appendingPathComponent(bundle.id)
            guard FileManager.default.fileExists(atPath: folder.path) else { continue }
            for (number, page) in index.pages.enumerated() {
                pages[index.table.pages[number].sha256] = object.subdata(in: index.table.pageRange(number, tableSize: reference.size))
                for entry in page.entries where files[entry.sha256] == nil {
                    files[entry.sha256] = folder.appendingPathComponent(entry.path)
                }
            }
        }
    }

    var isEmpty: Bool { pages.isEmpty }

    static func indexFile(in release: URL, bundle: String) -> URL {
        release.appendingPathComponent("index").appendingPathComponent("\(bundle).files")
    }
}

/// A delta of one bundle, worked out before any file is downloaded: the new index (its missing pages
/// fetched and verified) and the archive ranges of the files the device lacks.
struct PreparedDelta: Sendable {
    var id: String
    var index: FileIndex
    /// The new index object (table and pages), kept in the installed release for the next delta.
    var object: Data
    var spans: [FileDelta.Span<FileIndexEntry>]
    /// Bytes received for the table and pages.
    var indexBytes: Int
    /// Bytes the file ranges will bring.
    var rangeBytes: Int { spans.reduce(0) { $0 + $1.range.count } }
}

enum DeltaInstall {
    /// The index object of `bundle` on the server: beside its archive, named by its table's digest.
    static func indexPath(_ bundle: DownloadManifest.Bundle, reference: FileIndexReference, prefix: String) -> String {
        "targets/\(prefix)\(reference.sha256).\(bundle.id).files"
    }

    /// Fetches `bundle`'s table and the pages `base` lacks, verifies them (the table against the signed
    /// manifest, each page against the table, the table's archive against the signed target), and
    /// works out which files to fetch. `scratch` is a folder for the downloaded parts.
    static func prepare(_ bundle: DownloadManifest.Bundle, signedSHA256: String, signedLength: Int, prefix: String,
                        repository: any RepositorySource, base: DeltaBase, scratch: URL) throws -> PreparedDelta {
        guard let reference = bundle.files else { throw TUFError("bundle '\(bundle.id)' has no file index") }
        let path = indexPath(bundle, reference: reference, prefix: prefix)
        let what = "the file index of \(bundle.id)"
        let tableBytes = try fetch(path, 0..<reference.size, repository: repository, scratch: scratch)
        guard SHA256.hash(data: tableBytes).hexString == reference.sha256 else {
            throw TUFError(.lengthOrHashMismatch, "\(what): the table does not match its signed SHA-256")
        }
        let table = try FileIndexTable(data: tableBytes, what: what)
        guard table.bundle == bundle.id, table.archiveSHA256 == signedSHA256, table.archiveSize == signedLength else {
            throw TUFError(.lengthOrHashMismatch, "\(what) describes another archive than the signed one")
        }
        var pageBytes: [Int: Data] = [:]
        var received = tableBytes.count
        for span in FileDelta.pagesToFetch(table, tableSize: reference.size, known: Set(base.pages.keys)) {
            let data = try fetch(path, span.range, repository: repository, scratch: scratch)
            received += data.count
            for index in span.items {
                let range = table.pageRange(index, tableSize: reference.size)
                pageBytes[index] = data.subdata(in: (range.lowerBound - span.range.lowerBound)..<(range.upperBound - span.range.lowerBound))
            }
        }
        var object = tableBytes
        var pages: [FileIndexPage] = []
        for (index, described) in table.pages.enumerated() {
            guard let bytes = pageBytes[index] ?? base.pages[described.sha256] else { throw TUFError("\(what): page \(index + 1) is missing") }
            pages.append(try FileIndex.page(bytes, as: described, what: "\(what) page \(index + 1)"))
            object.append(bytes)
        }
        let index = FileIndex(table: table, pages: pages)
        // Every file's path is safe and given once, and its data lies inside the archive.
        var seen = Set<String>()
        for entry in index.absoluteEntries {
            let relative = try ArchiveExtractor.normalise(entry.path)
            guard seen.insert(relative).inserted else { throw TUFError("\(what) lists '\(entry.path)' twice") }
            guard entry.offset + entry.length <= table.archiveSize else { throw TUFError("\(what): '\(entry.path)' lies outside the archive") }
        }
        let spans = FileDelta.filesToFetch(index.absoluteEntries) { base.files[$0] != nil }
        return PreparedDelta(id: bundle.id, index: index, object: object, spans: spans, indexBytes: received)
    }

    /// The whole index object of a bundle downloaded whole, verified, for the next delta (two requests:
    /// the table, then its pages).
    static func fetchIndex(_ bundle: DownloadManifest.Bundle, signedSHA256: String, prefix: String, repository: any RepositorySource, scratch: URL) throws -> Data {
        guard let reference = bundle.files else { throw TUFError("bundle '\(bundle.id)' has no file index") }
        let path = indexPath(bundle, reference: reference, prefix: prefix)
        let what = "the file index of \(bundle.id)"
        let tableBytes = try fetch(path, 0..<reference.size, repository: repository, scratch: scratch)
        guard SHA256.hash(data: tableBytes).hexString == reference.sha256 else { throw TUFError(.lengthOrHashMismatch, "\(what): the table does not match its signed SHA-256") }
        let table = try FileIndexTable(data: tableBytes, what: what)
        guard table.archiveSHA256 == signedSHA256 else { throw TUFError(.lengthOrHashMismatch, "\(what) describes another archive than the signed one") }
        let total = table.pages.reduce(reference.size) { $0 + $1.length }
        var object = tableBytes
        if total > reference.size { object.append(try fetch(path, reference.size..<total, repository: repository, scratch: scratch)) }
        _ = try FileIndex(object: object, reference: reference, what: what)
        return object
    }

    /// Installs the bundle of `delta` into the new folder `folder`: each file the base has, checked
    /// against its digest and linked (copied where links fail); each other file from its range of the
    /// new archive, inflated if deflated, checked against its digest and size. Any mismatch throws.
    static func install(_ delta: PreparedDelta, archivePath: String, repository: any RepositorySource, base: DeltaBase, into folder: URL,
                        scratch: URL, progress: @escaping @Sendable (Int) -> Void) throws {
        let fm = FileManager.default
        try fm.createDirectory(at: folder, withIntermediateDirectories: true)
        var sink = ExtractionSink(archiveName: delta.id, destination: folder, limits: ArchiveExtractor.Limits(),
                                  byteBudget: delta.index.absoluteEntries.reduce(0) { $0 + $1.size })
        var fetched = Set<String>()
        var received = 0
        for span in delta.spans {
            let part = scratch.appendingPathComponent("range-\(UUID().uuidString)")
            _ = FileManager.default.createFile(atPath: part.path, contents: nil)
            defer { try? fm.removeItem(at: part) }
            do {
                let handle = try FileHandle(forWritingTo: part)
                defer { try? handle.close() }
                try repository.copyRange(archivePath, span.range, to: handle)
            }
            received += span.range.count
            progress(received)
            let descriptor = open(part.path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw ReadFailure(errno: errno, path: part.path, operation: .open) }
            defer { close(descriptor) }
            for entry in span.items {
                let relative = try ArchiveExtractor.normalise(entry.path)
                try sink.countEntry()
                let output = try sink.createFile(relative)
                defer { close(output) }
                try decode(entry, from: descriptor, at: entry.offset - span.range.lowerBound, relative: relative, to: output, sink: &sink, bundle: delta.id)
                fetched.insert(relative)
            }
        }
        for entry in delta.index.absoluteEntries {
            let relative = try ArchiveExtractor.normalise(entry.path)
            guard !fetched.contains(relative) else { continue }
            guard let source = base.files[entry.sha256] else { throw TUFError("\(delta.id): no file with the digest of '\(entry.path)' on the device") }
            try sink.countEntry()
            // The base is checked before it is used: a file changed on the device (a wrong base) is refused.
            try ReleaseInstaller.verify(source, length: entry.size, sha256: entry.sha256, name: "\(delta.id)/\(entry.path) on the device")
            try sink.makeFolders(relative.split(separator: "/").dropLast().joined(separator: "/"))
            let target = folder.appendingPathComponent(relative)
            if link(source.path, target.path) != 0 { try fm.copyItem(at: source, to: target) }
        }
    }

    /// Writes one file from the downloaded range (stored bytes as they are, deflated bytes inflated),
    /// and checks it against its digest and size in the index.
    private static func decode(_ entry: FileIndexEntry, from descriptor: Int32, at start: Int, relative: String, to output: Int32,
                               sink: inout ExtractionSink, bundle: String) throws {
        var hasher = SHA256()
        var produced = 0
        func take(_ data: Data) throws {
            produced += data.count
            guard produced <= entry.size else { throw TUFError("\(bundle): '\(entry.path)' is longer than the \(entry.size) bytes of its index entry") }
            hasher.update(data: data)
            try data.withUnsafeBytes { try sink.write($0, to: output, relative: relative) }
        }
        func read(_ offset: Int, _ count: Int) throws -> Data {
            var data = Data(count: count)
            var done = 0
            while done < count {
                let n = data.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, count - done, off_t(offset + done)) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw TUFError("\(bundle): the downloaded range ends early") }
                done += n
            }
            return data
        }
        let chunk = ZipExtraction.chunkSize
        switch entry.method {
        case .stored:
            var consumed = 0
            while consumed < entry.length {
                let data = try read(start + consumed, min(chunk, entry.length - consumed))
                consumed += data.count
                try take(data)
            }
        case .deflate:
            _ = try BoundedInflate.inflate(length: entry.length, chunkSize: chunk, skipCRC32: true, what: "\(bundle): the deflate data of '\(entry.path)'",
                                           read: { try read(start + $0, $1) }, consumer: take)
        }
        guard produced == entry.size, hasher.finalize().hexString == entry.sha256 else {
            throw TUFError(.lengthOrHashMismatch, "\(bundle): '\(entry.path)' does not match its SHA-256 in the signed file index")
        }
    }

    /// Bytes `range` of `path`, in memory (tables and pages: small, and bounded by their signed sizes).
    private static func fetch(_ path: String, _ range: Range<Int>, repository: any RepositorySource, scratch: URL) throws -> Data {
        let part = scratch.appendingPathComponent("index-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: part.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: part) }
        do {
            let handle = try FileHandle(forWritingTo: part)
            defer { try? handle.close() }
            try repository.copyRange(path, range, to: handle)
        }
        let data = try Data(contentsOf: part)
        guard data.count == range.count else { throw TUFError(.download, "\(path): expected \(range.count) bytes, got \(data.count)") }
        return data
    }
}
