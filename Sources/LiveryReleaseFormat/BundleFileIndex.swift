import Crypto
import Foundation

// A bundle's file index (docs/deltas.md): what lets a device that holds an earlier release download
// only the files that changed, with HTTP range requests from the new archive, and verify each one
// against signed data before it installs it. The chain of trust:
//
//   TUF targets → download manifest (SHA-256) → the bundle's `files` reference (SHA-256 of the table)
//   → the table (SHA-256 of each page) → a page (SHA-256 and size of each file) → the file's bytes.
//
// The index object, `targets/<table sha256>.<bundle id>.files`, is JSON Lines: the table on the
// first line, then its pages in order, each one JSON text ending in a newline. A page lists up to a
// few hundred files with where their data sits in the archive, relative to the page's `start`, so a
// file that changes size alters its own page and the table only: every other page keeps its bytes
// and its digest, and a device that has a page already never downloads it again.

/// A bundle's file index as its download-manifest entry names it (`"files"`).
public struct FileIndexReference: Sendable, Equatable {
    /// The SHA-256 of the table (the index object's first line), which also names the object.
    public var sha256: String
    /// The table's length in bytes, newline included: the first `size` bytes of the object.
    public var size: Int

    public init(sha256: String, size: Int) {
        self.sha256 = sha256
        self.size = size
    }

    public var json: JSONValue { .object(["sha256": .string(sha256), "size": .int(size)]) }

    public init(json: JSONValue, what: String) throws {
        let o = try StrictObject(json, what: "\(what) files")
        for key in o.object.keys where key != "sha256" && key != "size" { throw TUFError(.malformed, "\(what) files: unknown field \"\(key)\"") }
        let sha = try o.string("sha256")
        guard FileIndex.isDigest(sha) else { throw TUFError(.malformed, "\(what) files: \"sha256\" must be 64 lowercase hexadecimal digits") }
        self.init(sha256: sha, size: try o.int("size", minimum: 1))
    }

    /// The index object's path beside the bundle's archive: `bundlePath` is the manifest's `path`
    /// (`targets/<sha256>.<id>.<format>`, or under `targets/staged/`).
    public func path(bundleID: String, bundlePath: String) -> String {
        let folder = bundlePath.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return "\(folder)/\(sha256).\(bundleID).files"
    }
}

/// How a file's bytes are stored in the archive.
public enum EntryMethod: String, Sendable, CaseIterable {
    /// The bytes as they are.
    case stored
    /// A raw deflate stream (RFC 1951), as zip's method 8.
    case deflate
}

/// One file of a bundle: its path in the bundle, digest and size once extracted, and where its data
/// is in the archive (`offset` from its page's `start`, `length` bytes, stored or deflated).
public struct FileIndexEntry: Sendable, Equatable {
    public var path: String
    public var sha256: String
    public var size: Int
    public var offset: Int
    public var length: Int
    public var method: EntryMethod

    public init(path: String, sha256: String, size: Int, offset: Int, length: Int, method: EntryMethod) {
        self.path = path
        self.sha256 = sha256
        self.size = size
        self.offset = offset
        self.length = length
        self.method = method
    }

    var json: JSONValue {
        .array([.string(path), .string(sha256), .int(size), .int(offset), .int(length), .string(method.rawValue)])
    }
}

/// A run of consecutive files of the archive.
public struct FileIndexPage: Sendable, Equatable {
    public var entries: [FileIndexEntry]

    public init(entries: [FileIndexEntry]) { self.entries = entries }

    /// The page's line: `{"entries":[[path, sha256, size, offset, length, method], …]}` and a newline.
    public var bytes: Data { JSONValue.object(["entries": .array(entries.map(\.json))]).bytes }

    /// Reads one page strictly; `what` names it in errors.
    public init(data: Data, what: String) throws {
        let o = try StrictObject(ReleaseJSONParser.parse(data), what: what)
        for key in o.object.keys where key != "entries" { throw TUFError(.malformed, "\(what): unknown field \"\(key)\"") }
        guard case .array(let items)? = o.object["entries"] else { throw TUFError(.malformed, "\(what): \"entries\" must be a list") }
        entries = try items.enumerated().map { index, item in
            guard case .array(let f) = item, f.count == 6, case .string(let path) = f[0], case .string(let sha) = f[1], case .int(let size) = f[2],
                  case .int(let offset) = f[3], case .int(let length) = f[4], case .string(let methodName) = f[5] else {
                throw TUFError(.malformed, "\(what): entry \(index + 1) must be [path, sha256, size, offset, length, method]")
            }
            guard FileIndex.isDigest(sha) else { throw TUFError(.malformed, "\(what): entry \(index + 1) has a malformed sha256") }
            guard size >= 0, offset >= 0, length >= 0 else { throw TUFError(.malformed, "\(what): entry \(index + 1) has a negative number") }
            // Bounded so that no offset arithmetic can overflow (a bundle is at most a few GiB).
            guard size <= FileIndex.maxBytes, offset <= FileIndex.maxBytes, length <= FileIndex.maxBytes else {
                throw TUFError(.malformed, "\(what): entry \(index + 1) has a number above \(FileIndex.maxBytes)")
            }
            guard let method = EntryMethod(rawValue: methodName) else { throw TUFError(.malformed, "\(what): entry \(index + 1) has the unknown method \"\(methodName)\"") }
            guard method == .deflate || length == size else { throw TUFError(.malformed, "\(what): stored entry \(index + 1) has two sizes") }
            return FileIndexEntry(path: path, sha256: sha, size: size, offset: offset, length: length, method: method)
        }
    }
}

/// The first line of a bundle's index object: the archive it describes and its pages.
public struct FileIndexTable: Sendable, Equatable {
    public struct Page: Sendable, Equatable {
        /// The page's SHA-256 (its line, newline included).
        public var sha256: String
        /// The page's length in bytes, newline included.
        public var length: Int
        /// Where, in the archive, the page's first file's local header starts: its files' `offset`s count from here.
        public var start: Int
        /// How many files the page lists.
        public var count: Int

        public init(sha256: String, length: Int, start: Int, count: Int) {
            self.sha256 = sha256
            self.length = length
            self.start = start
            self.count = count
        }
    }

    public static let schemaVersion = 1
    public var bundle: String
    /// The archive (the bundle's TUF target) the offsets are in.
    public var archiveSHA256: String
    public var archiveSize: Int
    public var pages: [Page]

    public init(bundle: String, archiveSHA256: String, archiveSize: Int, pages: [Page]) {
        self.bundle = bundle
        self.archiveSHA256 = archiveSHA256
        self.archiveSize = archiveSize
        self.pages = pages
    }

    public var bytes: Data {
        JSONValue.object([
            "schemaVersion": .int(Self.schemaVersion), "bundle": .string(bundle),
            "archive": .object(["sha256": .string(archiveSHA256), "size": .int(archiveSize)]),
            "pages": .array(pages.map { .object(["sha256": .string($0.sha256), "length": .int($0.length), "start": .int($0.start), "count": .int($0.count)]) }),
        ]).bytes
    }

    /// Every file the index lists.
    public var entryCount: Int { pages.reduce(0) { $0 + $1.count } }

    /// Where page `index` is in the index object: after the table (`tableSize` bytes) and the pages before it.
    public func pageRange(_ index: Int, tableSize: Int) -> Range<Int> {
        let start = tableSize + pages[..<index].reduce(0) { $0 + $1.length }
        return start..<(start + pages[index].length)
    }

    /// Reads a table strictly, within `limits`; `what` names it in errors.
    public init(data: Data, what: String, limits: FileIndex.Limits = FileIndex.Limits()) throws {
        let o = try StrictObject(ReleaseJSONParser.parse(data), what: what)
        for key in o.object.keys where !["schemaVersion", "bundle", "archive", "pages"].contains(key) {
            throw TUFError(.malformed, "\(what): unknown field \"\(key)\"")
        }
        guard try o.int("schemaVersion") == Self.schemaVersion else { throw TUFError(.malformed, "\(what): schemaVersion is not \(Self.schemaVersion) (a newer client is needed)") }
        let archive = try StrictObject(o.object["archive"] ?? .null, what: "\(what) archive")
        let archiveSHA = try archive.string("sha256")
        guard FileIndex.isDigest(archiveSHA) else { throw TUFError(.malformed, "\(what): archive.sha256 is malformed") }
        guard case .array(let items)? = o.object["pages"] else { throw TUFError(.malformed, "\(what): \"pages\" must be a list") }
        var pages: [Page] = []
        var entries = 0
        for (index, item) in items.enumerated() {
            let p = try StrictObject(item, what: "\(what) page \(index + 1)")
            let page = Page(sha256: try p.string("sha256"), length: try p.int("length", minimum: 1), start: try p.int("start"), count: try p.int("count", minimum: 1))
            guard FileIndex.isDigest(page.sha256) else { throw TUFError(.malformed, "\(what) page \(index + 1): sha256 is malformed") }
            guard page.start <= FileIndex.maxBytes else { throw TUFError(.malformed, "\(what) page \(index + 1) starts beyond \(FileIndex.maxBytes)") }
            guard page.length <= limits.maxPageBytes else { throw TUFError(.malformed, "\(what) page \(index + 1) is \(page.length) bytes (at most \(limits.maxPageBytes))") }
            if let last = pages.last, page.start <= last.start { throw TUFError(.malformed, "\(what): pages are not in archive order") }
            entries += page.count
            guard entries <= limits.maxEntries else { throw TUFError(.malformed, "\(what) lists more than \(limits.maxEntries) files") }
            pages.append(page)
        }
        let size = try archive.int("size")
        guard size <= FileIndex.maxBytes else { throw TUFError(.malformed, "\(what): archive.size is above \(FileIndex.maxBytes)") }
        self.init(bundle: try o.string("bundle"), archiveSHA256: archiveSHA, archiveSize: size, pages: pages)
    }
}

/// A whole file index: the table and every page.
public struct FileIndex: Sendable, Equatable {
    /// What a reader accepts (the client's caps; the builder stays far inside them).
    public struct Limits: Sendable {
        public var maxEntries = 100_000
        public var maxPageBytes = 4 << 20
        public init() {}
    }

    public var table: FileIndexTable
    public var pages: [FileIndexPage]

    /// The largest archive, offset or file size an index may give (1 TiB): far beyond any bundle, and low
    /// enough that a start plus an offset plus a length never overflows.
    public static let maxBytes = 1 << 40

    /// The table's line.
    public var tableBytes: Data { table.bytes }
    /// The index object: the table's line, then every page's.
    public var objectBytes: Data { pages.reduce(into: tableBytes) { $0.append($1.bytes) } }
    public var reference: FileIndexReference {
        let bytes = tableBytes
        return FileIndexReference(sha256: SHA256.hash(data: bytes).hexString, size: bytes.count)
    }

    /// Every file with its absolute position in the archive (`offset` from the archive's first byte).
    public var absoluteEntries: [FileIndexEntry] {
        zip(table.pages, pages).flatMap { page, body in body.entries.map { var e = $0; e.offset += page.start; return e } }
    }

    /// Pages a builder cuts: after a file whose path's digest has its first byte below 4 (one file in
    /// 64 on average, chosen by the path alone so that adding or removing a file moves no other
    /// boundary), or after 256 files. Readers never recompute this: they compare page digests.
    /// `entries` are in archive order with absolute `offset`s; `header` is where each one's local header starts.
    public static func paginate(bundle: String, archiveSHA256: String, archiveSize: Int, entries: [(entry: FileIndexEntry, header: Int)]) -> FileIndex {
        var tablePages: [FileIndexTable.Page] = []
        var pages: [FileIndexPage] = []
        var current: [FileIndexEntry] = []
        var start = 0
        func cut() {
            guard !current.isEmpty else { return }
            let page = FileIndexPage(entries: current)
            let bytes = page.bytes
            tablePages.append(FileIndexTable.Page(sha256: SHA256.hash(data: bytes).hexString, length: bytes.count, start: start, count: current.count))
            pages.append(page)
            current = []
        }
        for (entry, header) in entries {
            // The page's `start` is its first file's local header; offsets count from there.
            if current.isEmpty { start = header }
            var relative = entry
            relative.offset -= start
            current.append(relative)
            let digest = SHA256.hash(data: Data(entry.path.utf8))
            if digest.withUnsafeBytes({ $0[0] }) < 4 || current.count >= 256 { cut() }
        }
        cut()
        return FileIndex(table: FileIndexTable(bundle: bundle, archiveSHA256: archiveSHA256, archiveSize: archiveSize, pages: tablePages), pages: pages)
    }

    /// Reads a whole index object strictly: the table must have `reference`'s digest and length, and
    /// each page its digest in the table.
    public init(object: Data, reference: FileIndexReference, what: String, limits: Limits = Limits()) throws {
        guard object.count >= reference.size else { throw TUFError(.lengthOrHashMismatch, "\(what) is shorter than its table") }
        let tableBytes = object.prefix(reference.size)
        guard SHA256.hash(data: tableBytes).hexString == reference.sha256 else { throw TUFError(.lengthOrHashMismatch, "\(what): the table does not match its signed SHA-256") }
        let table = try FileIndexTable(data: Data(tableBytes), what: what, limits: limits)
        let total = table.pages.reduce(reference.size) { $0 + $1.length }
        guard object.count == total else { throw TUFError(.lengthOrHashMismatch, "\(what) is \(object.count) bytes, its table says \(total)") }
        var pages: [FileIndexPage] = []
        for index in table.pages.indices {
            let range = table.pageRange(index, tableSize: reference.size)
            pages.append(try FileIndex.page(Data(object[(object.startIndex + range.lowerBound)..<(object.startIndex + range.upperBound)]), as: table.pages[index],
                                            what: "\(what) page \(index + 1)"))
        }
        self.init(table: table, pages: pages)
    }

    public init(table: FileIndexTable, pages: [FileIndexPage]) {
        self.table = table
        self.pages = pages
    }

    /// A page's bytes checked against the table's digest, length and count, then read.
    public static func page(_ bytes: Data, as described: FileIndexTable.Page, what: String) throws -> FileIndexPage {
        guard bytes.count == described.length, SHA256.hash(data: bytes).hexString == described.sha256 else {
            throw TUFError(.lengthOrHashMismatch, "\(what) does not match its SHA-256 in the table")
        }
        let page = try FileIndexPage(data: bytes, what: what)
        guard page.entries.count == described.count else { throw TUFError(.malformed, "\(what) lists \(page.entries.count) files, the table says \(described.count)") }
        return page
    }

    /// The digest an index object is named by (its table's), when `object` is a whole, consistent index
    /// object: every page has the length and digest its table gives. Storage checks (`livery doctor`,
    /// `livery publish`) use it where other targets are checked against the digest of all their bytes.
    public static func nameDigest(ofObject object: Data) -> String? {
        guard let newline = object.firstIndex(of: 0x0A) else { return nil }
        let tableBytes = object[object.startIndex...newline]
        let reference = FileIndexReference(sha256: SHA256.hash(data: tableBytes).hexString, size: tableBytes.count)
        return (try? FileIndex(object: object, reference: reference, what: "index")) == nil ? nil : reference.sha256
    }

    /// Whether a file name in `targets/` is an index object's (`<sha256>.<bundle id>.files`).
    public static func isObjectName(_ name: String) -> Bool { name.hasSuffix(".files") }

    static func isDigest(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}

extension FileDelta.Span: Sendable where Item: Sendable {}

/// What a device that already holds some files must download to have a bundle's new files: the
/// pages of the new index it lacks, then the archive ranges of the files it lacks. Shared by the
/// client (which does it) and by `livery diff`/`livery build` (which say what it costs).
public enum FileDelta {
    /// One request: `range` of a file on the server, covering `items`.
    public struct Span<Item> {
        public var range: Range<Int>
        public var items: [Item]
    }


    /// Bytes between two wanted ranges that are fetched rather than asked for separately (a zip's local
    /// header and data descriptor lie between two files' data; a request costs more than that).
    public static let gap = 4096

    /// Joins ranges (sorted by their start) that are at most `gap` bytes apart into one request each.
    public static func coalesce<Item>(_ wanted: [(range: Range<Int>, item: Item)], gap: Int = FileDelta.gap) -> [Span<Item>] {
        var spans: [Span<Item>] = []
        for (range, item) in wanted.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
            if var last = spans.last, range.lowerBound <= last.range.upperBound + gap {
                last.range = last.range.lowerBound..<max(last.range.upperBound, range.upperBound)
                last.items.append(item)
                spans[spans.count - 1] = last
            } else {
                spans.append(Span(range: range, items: [item]))
            }
        }
        return spans
    }

    /// The pages of `table` whose digest is not among `known`, as requests on the index object.
    public static func pagesToFetch(_ table: FileIndexTable, tableSize: Int, known: Set<String>) -> [Span<Int>] {
        coalesce(table.pages.indices.filter { !known.contains(table.pages[$0].sha256) }.map { (table.pageRange($0, tableSize: tableSize), $0) }, gap: 0)
    }

    /// The files of `entries` (absolute offsets) whose digest `have` does not know, as archive requests.
    public static func filesToFetch(_ entries: [FileIndexEntry], have: (String) -> Bool) -> [Span<FileIndexEntry>] {
        coalesce(entries.filter { !have($0.sha256) }.map { ($0.offset..<($0.offset + $0.length), $0) })
    }

    /// What a device whose indexes are `base` downloads to reach `new` by delta: the table, the pages
    /// it lacks and the archive ranges of the files it lacks.
    public static func bytes(from base: [FileIndex], to new: FileIndex) -> Int {
        let knownPages = Set(base.flatMap { $0.table.pages.map(\.sha256) })
        let knownFiles = Set(base.flatMap { $0.pages.flatMap { $0.entries.map(\.sha256) } })
        let tableSize = new.tableBytes.count
        let pages = pagesToFetch(new.table, tableSize: tableSize, known: knownPages).reduce(0) { $0 + $1.range.count }
        let files = filesToFetch(new.absoluteEntries, have: knownFiles.contains).reduce(0) { $0 + $1.range.count }
        return tableSize + pages + files
    }
}
