import Foundation
import LiveryLoad
import LiverySQLite
import LiveryStorage

/// A file in the content store: its digest, size and where its bytes are kept.
public struct StoredFile: Sendable, Hashable {
    public var sha256: SHA256Hex
    public var size: Int
    public var url: URL

    public init(sha256: SHA256Hex, size: Int, url: URL) {
        self.sha256 = sha256
        self.size = size
        self.url = url
    }
}

/// A content-addressed store of asset bytes (`objects/<first two hex digits>/<sha256>`), with a
/// stat cache so unchanged files are not read again. Identical files, from any tenant, are stored once.
///
/// An asset becomes an object by a hard link when the store is on the same file system (no bytes are
/// copied: packaging media stays near the cost of reading it once), else by a copy. A linked object
/// shares its inode with the tenant's file, so each object's stat stamp (size, mtime, inode) is
/// recorded and checked before use: if the file was edited in place, the object is dropped and taken
/// again from a source. (ctime is not compared: links and renames move it without an edit.)
public final class ContentStore: Sendable {
    public let root: URL
    public let cache: StatCache
    private let objects: SQLiteDatabase
    /// Files already ingested by this store instance (one build): path → stored file.
    private let ingested = LockedMap<String, StoredFile>()
    private let pendingObjects = PendingRows()
    private let reads = Counter()

    /// How many files this store instance has read to hash them (the stat cache saves the rest).
    public var filesHashed: Int { reads.value }

    private final class Counter: @unchecked Sendable {
        // Guarded by `lock`.
        private var count = 0
        private let lock = NSLock()
        var value: Int { lock.withLock { count } }
        func increment() { lock.withLock { count += 1 } }
    }
    /// Object stamps recorded by this build and not yet flushed.
    private let recorded = LockedMap<SHA256Hex, FileStamp>()

    /// A dictionary the build's threads share (what this store instance ingested, recorded and confirmed).
    private final class LockedMap<Key: Hashable, Value>: @unchecked Sendable {
        // Guarded by `lock`.
        private var values: [Key: Value] = [:]
        private let lock = NSLock()
        /// A map that is only a cache may hold at most this many values: it is emptied before it would hold more.
        private let limit: Int?

        init(limit: Int? = nil) {
            self.limit = limit
        }

        subscript(key: Key) -> Value? {
            get { lock.withLock { values[key] } }
            set {
                lock.withLock {
                    if let limit, newValue != nil, values.count >= limit, values[key] == nil { values.removeAll(keepingCapacity: true) }
                    values[key] = newValue
                }
            }
        }
    }

    /// A file that went away or changed while the store took it: a build racing an editor or another process.
    /// (A failed read or write of a file is a `ReadFailure` or `WriteFailure`.)
    public struct Failure: Error, CustomStringConvertible, Equatable {
        public enum Reason: Sendable, Equatable {
            /// Gone between being written (or placed) and being stored.
            case vanished
            /// Changed between its hashing and its linking into the store, or while it was copied.
            case changedWhileRead, changedWhileCopied
        }

        public var reason: Reason
        /// The file (a tenant file, a file Livery wrote, or a store object).
        public var path: String
        /// The object's digest, when `path` is a store object.
        public var digest: SHA256Hex?

        public init(_ reason: Reason, path: String, digest: SHA256Hex? = nil) {
            self.reason = reason
            self.path = path
            self.digest = digest
        }

        public var description: String {
            switch reason {
            case .vanished: return digest.map { "object \($0) vanished" } ?? "cannot store \(path): it vanished"
            case .changedWhileRead: return "\(path) changed while it was being read; build again"
            case .changedWhileCopied: return "\(path) changed while it was being copied; build again"
            }
        }
    }

    /// This store instance's (one build's) mark on the rows it writes that point at store objects
    /// (here the object stamps; the bundle index too, `BundleBuilder`), until the build's flush makes
    /// the objects durable and `markDurable` turns them into `durableGeneration`.
    ///
    /// Why: store objects are written without an `fsync` each, and the one `syncfs` of the build
    /// (`Publisher.makeDurable`) comes after packing. SQLite (WAL, `synchronous=NORMAL`) can put a row on
    /// the disk before that `syncfs`, at a checkpoint, while the object's bytes are still only in the page
    /// cache; a power cut then leaves a row saying "this object is here and intact" over an object of the
    /// right size whose bytes are zeros (ext4 delayed allocation). So a row is trusted as it stands only
    /// when it is `durableGeneration` (written before a flush that completed: its object reached the disk
    /// first) or this instance's generation (the object was written or checked by this very process);
    /// any other generation (a build that was killed, lost power, or never flushed) makes the reader
    /// check the object's bytes first. Crash argument for `markDurable`: it runs after the `syncfs` has
    /// returned, so when its update is on disk, every object its rows name was on disk before it; if the
    /// power fails before then, the rows keep this generation and the next build checks them. A random
    /// 63-bit value, not a counter, so that no stored counter has to survive a crash to stay unique.
    public let generation = Int64.random(in: 1...Int64.max)

    /// The generation of rows whose objects are known to be on disk (see `generation`).
    public static let durableGeneration: Int64 = 0

    /// The generation of rows written by a Livery that did not record generations: never trusted unchecked.
    public static let unknownGeneration: Int64 = -1

    /// Objects this instance placed in `objects/` or checked byte for byte: digest → the inode it found
    /// or made, so `adopt` trusts them for the rest of the build without reading them again. At most
    /// `confirmedLimit` are kept (then forgotten all at once; a forgotten object is compared again if the
    /// build adopts it again): a build of 10,000 tenants adopts some 50,000 objects, most of them once,
    /// and keeping each digest until the end grew the build's memory with the number of tenants.
    private let confirmed = LockedMap<SHA256Hex, Int64>(limit: confirmedLimit)
    static let confirmedLimit = 4096

    /// `objects/` and `tmp/`. (URLs are made with an explicit directory hint throughout: without one,
    /// Foundation stats the path to learn whether it names a folder, a system call per object URL.)
    private let objectsFolder: URL
    private let temporaryFolder: URL

    public init(root: URL) throws {
        self.root = root
        objectsFolder = root.appendingPathComponent("objects", isDirectory: true)
        temporaryFolder = root.appendingPathComponent("tmp", isDirectory: true)
        for folder in [objectsFolder, temporaryFolder] {
            try WriteFailure.writing(folder.path) { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        }
        cache = try StatCache(path: root.appendingPathComponent("cache.sqlite", isDirectory: false).path)
        objects = try SQLiteDatabase(path: root.appendingPathComponent("objects.sqlite", isDirectory: false).path)
        try objects.execute("CREATE TABLE IF NOT EXISTS objects (sha256 TEXT PRIMARY KEY, size INTEGER, mtime INTEGER, ctime INTEGER, inode INTEGER, generation INTEGER NOT NULL DEFAULT \(Self.unknownGeneration))")
        try Self.prepareGenerations(of: "objects", in: objects)
        // The fan-out folders (`objects/00` … `objects/ff`) are made when an object first needs one
        // (`place`), not all 256 up front: a small store has few, and each folder is an inode to create.
    }

    /// A new temporary file name in `tmp/` (on the store's file system, so it can be renamed into `objects/`).
    private func temporaryURL() -> URL {
        temporaryFolder.appendingPathComponent(UUID().uuidString, isDirectory: false)
    }

    /// Renames `temporary` to `object`, making the object's fan-out folder first if it does not exist yet.
    private func place(_ temporary: String, at object: URL) -> Bool {
        if rename(temporary, object.path) == 0 { return true }
        guard errno == ENOENT else { return false }
        // The fan-out folder is missing (or `temporary` is): make the folder, tolerating another thread
        // making it at the same moment, and try once more.
        let folder = object.deletingLastPathComponent().path
        guard mkdir(folder, 0o777) == 0 || errno == EEXIST else { return false }  // 0777 less the umask, as FileManager makes folders
        return rename(temporary, object.path) == 0
    }

    /// Why `place` failed (read `errno` right after it): a `WriteFailure` naming the object for lack of space, quota or
    /// a device error (a new fan-out folder, or the folder's entries, may need a block), else in the store's words.
    private func placeFailure(_ object: URL, of source: String) -> any Error {
        let code = errno
        return WriteFailure.storage(errno: code, path: object.path)
            ?? WriteFailure(errno: code, path: object.path, subject: "the stored copy of \(WriteFailure.display(source))", operation: .replace)
    }

    /// Adds the `generation` column to a table made by a Livery without it (its rows get `unknownGeneration`:
    /// checked before they are trusted, then marked again by the build that checked them), and an index of
    /// the rows not yet durable, so that `markDurable` finds a build's rows without reading the whole
    /// table (a partial index: it holds only those rows, a build's worth at most).
    public static func prepareGenerations(of table: String, in database: SQLiteDatabase) throws {
        let columns = try database.query("PRAGMA table_info(\(table))").compactMap { $0.count > 1 ? $0[1].text : nil }
        if !columns.contains("generation") {
            try database.execute("ALTER TABLE \(table) ADD COLUMN generation INTEGER NOT NULL DEFAULT \(unknownGeneration)")
        }
        try database.execute("CREATE INDEX IF NOT EXISTS \(table)_not_durable ON \(table) (generation) WHERE generation != \(durableGeneration)")
    }

    /// Marks the rows of `table` written with `generation` durable. (The `generation != 0` term lets SQLite use
    /// the partial index of `prepareGenerations`.)
    public static func markDurable(_ table: String, generation: Int64, in database: SQLiteDatabase) throws {
        _ = try database.query("UPDATE \(table) SET generation = ? WHERE generation = ? AND generation != \(durableGeneration)",
                               [.int(durableGeneration), .int(generation)])
    }

    /// Writes what this build learnt (digests and object stamps) in one transaction each. The object
    /// stamps carry this build's `generation` until `markDurable`.
    public func flush() throws {
        try cache.flush()
        try objects.insert("INSERT OR REPLACE INTO objects (sha256, size, mtime, ctime, inode, generation) VALUES (?, ?, ?, ?, ?, ?)", rows: pendingObjects.take())
    }

    /// Call after a flush of the store's file system that began after this build's `flush()` (the build's
    /// `syncfs`) has returned: the object stamps this build recorded name objects that are on disk now.
    public func markDurable() throws {
        try Self.markDurable("objects", generation: generation, in: objects)
    }

    public func objectURL(_ digest: SHA256Hex) -> URL {
        objectsFolder.appendingPathComponent(String(digest.prefix(2)), isDirectory: true).appendingPathComponent(digest, isDirectory: false)
    }

    /// Whether the object exists with the stamp recorded when it was stored (no edit since).
    public func isIntact(_ digest: SHA256Hex) -> Bool { isIntact(digest, durably: false) }

    /// `durably`: and its stamp was recorded by this build, or before a flush that completed (`generation`):
    /// a stamp recorded by a build that never flushed may describe an object whose bytes never reached the disk.
    private func isIntact(_ digest: SHA256Hex, durably: Bool) -> Bool {
        guard let stamp = FileStamp(path: objectURL(digest).path) else { return false }
        if let known = recorded[digest] { return known.size == stamp.size && known.mtimeNanoseconds == stamp.mtimeNanoseconds && known.inode == stamp.inode }
        guard let row = try? objects.query("SELECT size, mtime, ctime, inode, generation FROM objects WHERE sha256 = ?", [.text(digest)]).first else { return false }
        if durably && row[4].int != Self.durableGeneration { return false }
        return row[0].int == stamp.size && row[1].int == stamp.mtimeNanoseconds && row[3].int == stamp.inode
    }

    /// Whether the object came from a tenant file (it has a recorded stamp), rather than being
    /// written by Livery (bundles, manifests).
    public func isIngested(_ digest: SHA256Hex) -> Bool {
        recorded[digest] != nil || ((try? objects.query("SELECT 1 FROM objects WHERE sha256 = ?", [.text(digest)]))?.isEmpty == false)
    }

    private func recordObject(_ digest: SHA256Hex) throws {
        guard let stamp = FileStamp(path: objectURL(digest).path) else { throw Failure(.vanished, path: objectURL(digest).path, digest: digest) }
        recorded[digest] = stamp
        pendingObjects.append([.text(digest), .int(stamp.size), .int(stamp.mtimeNanoseconds), .int(stamp.ctimeNanoseconds), .int(stamp.inode), .int(generation)])
    }

    /// Puts the file at `url` into the store. An unchanged file (same stat stamp as last time, and its
    /// object intact) costs one `stat`; otherwise it is read once to hash it, then linked in.
    public func ingest(_ url: URL) throws -> StoredFile {
        let path = url.path
        if let known = ingested[path] { return known }
        let stored = try ingestUncached(url)
        ingested[path] = stored
        return stored
    }

    private func ingestUncached(_ url: URL) throws -> StoredFile {
        let path = url.path
        guard let stamp = FileStamp(path: path) else { throw ReadFailure(errno: errno, path: path) }
        // A cached digest is trusted only with a durable object stamp: after a power cut, a stamp recorded by
        // a build that never flushed can sit over an object (a copy, or a tenant file written just before that
        // build) whose bytes never reached the disk. Then the file is hashed again, and linked in again.
        if let digest = try cache.digest(for: path, stamp: stamp), isIntact(digest, durably: true) {
            return StoredFile(sha256: digest, size: Int(stamp.size), url: objectURL(digest))
        }
        let (digest, size) = try FileDigest.sha256(of: url)
        reads.increment()
        // Size, mtime and inode tell an edit; ctime alone also moves when another build thread links the file.
        guard let after = FileStamp(path: path), after.size == stamp.size, after.mtimeNanoseconds == stamp.mtimeNanoseconds, after.inode == stamp.inode else {
            throw Failure(.changedWhileRead, path: path)
        }
        let object = objectURL(digest)
        if !isIntact(digest, durably: true) {
            // Link (or copy) under a temporary name, then rename over the object: the object path
            // always names a complete file, even when two build threads store the same content.
            let temporary = temporaryURL()
            defer { unlink(temporary.path) }
            if link(path, temporary.path) != 0 {
                // Another file system, or hard links not allowed: copy the bytes.
                try WriteFailure.writing(temporary.path, subject: "a copy of \(WriteFailure.display(path))") { try FileManager.default.copyItem(at: url, to: temporary) }
                guard try FileDigest.sha256(of: temporary).digest == digest else { throw Failure(.changedWhileCopied, path: path) }
                chmod(temporary.path, 0o444)
            }
            guard place(temporary.path, at: object) else { throw placeFailure(object, of: path) }
            try recordObject(digest)
        }
        // Linking changes the inode's ctime: remember the stamp as it is now.
        try cache.record(digest, for: path, stamp: FileStamp(path: path) ?? stamp)
        return StoredFile(sha256: digest, size: size, url: object)
    }

    /// Moves a file Livery wrote itself (a bundle, a manifest), whose digest is known, into the store
    /// read-only, unless it is there already with exactly these bytes.
    ///
    /// An object already there with the right size is not enough: objects are written without an `fsync`
    /// each (the build's one `syncfs` comes later, `Publisher.makeDurable`), so a power cut before that
    /// flush can leave one with its full size and zeros for bytes (ext4 delayed allocation). Its bytes are
    /// compared with `temporary`'s, which is cheaper than hashing the object: `temporary` was just written
    /// (its pages are in memory), a comparison costs a `memcmp` per block where SHA-256 costs far more CPU
    /// per byte, and it stops at the first difference. A damaged object is replaced (renamed over: a
    /// release that links the old inode keeps it). An object this instance placed or compared itself
    /// (`confirmed`, same inode) is trusted without reading it again: it cannot have lost bytes without
    /// the machine going down, which ends this process too. Objects are never linked to tenant files, so
    /// their stamp is not recorded (publishing links them, which changes their ctime).
    public func adopt(_ temporary: URL, sha256 digest: SHA256Hex) throws -> URL {
        let object = objectURL(digest)
        guard let size = FileStamp(path: temporary.path)?.size else { throw Failure(.vanished, path: temporary.path) }
        if let existing = FileStamp(path: object.path), existing.size == size,
           confirmed[digest] == existing.inode || Self.sameBytes(object.path, temporary.path, size: Int(size)) {
            confirmed[digest] = existing.inode
            return object
        }
        chmod(temporary.path, 0o444)
        guard place(temporary.path, at: object) else { throw placeFailure(object, of: object.path) }
        confirmed[digest] = FileStamp(path: object.path)?.inode
        return object
    }

    /// Whether the files at `first` and `second`, `size` bytes long as stat said, hold the same bytes (read
    /// block by block, blocks no larger than the files; false when either cannot be read or their lengths differ).
    static func sameBytes(_ first: String, _ second: String, size: Int) -> Bool {
        let a = open(first, O_RDONLY | O_CLOEXEC), b = open(second, O_RDONLY | O_CLOEXEC)
        defer {
            if a >= 0 { close(a) }
            if b >= 0 { close(b) }
        }
        guard a >= 0, b >= 0 else { return false }
        // Most objects a build adopts are archives of a few kilobytes: a megabyte each would be two mappings made and
        // unmade per call. One byte more than `size` lets a file that grew since its stat show as a length difference.
        let blockSize = min(1 << 20, max(size, 0) + 1)
        let left = UnsafeMutableRawBufferPointer.allocate(byteCount: blockSize, alignment: 16)
        let right = UnsafeMutableRawBufferPointer.allocate(byteCount: blockSize, alignment: 16)
        defer {
            left.deallocate()
            right.deallocate()
        }
        // Fills `buffer` from `descriptor` as far as the file goes; nil on a read error.
        func fill(_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int? {
            var filled = 0
            while filled < buffer.count {
                let count = read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
                if count < 0 && errno == EINTR { continue }
                guard count >= 0 else { return nil }
                if count == 0 { break }
                filled += count
            }
            return filled
        }
        while true {
            guard let leftCount = fill(a, left), let rightCount = fill(b, right), leftCount == rightCount else { return false }
            if leftCount == 0 { return true }
            guard memcmp(left.baseAddress!, right.baseAddress!, leftCount) == 0 else { return false }
        }
    }

    /// A new temporary file in the store's `tmp/` for a writer that then hands it to `adopt`.
    public func temporaryFile() -> URL { temporaryURL() }

    /// Every object in the store: its digest and size.
    public func allObjects() -> [(sha256: SHA256Hex, size: Int64)] {
        var found: [(SHA256Hex, Int64)] = []
        let folder = root.appendingPathComponent("objects")
        for fan in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(fan).path)) ?? [] where name.count == 64 {
                found.append((name, FileStamp(path: folder.appendingPathComponent(fan).appendingPathComponent(name).path)?.size ?? 0))
            }
        }
        return found.sorted { $0.0 < $1.0 }
    }

    /// The digests of the tenant files the stat cache knows and that still exist.
    public func digestsOfSourceFiles() throws -> Set<SHA256Hex> { try cache.digestsOfExistingFiles() }

    /// Removes an object (`livery gc`; call under the output lock). Its stamp row goes too, so a
    /// later `ingest` of the same bytes stores them again.
    public func remove(_ digest: SHA256Hex) throws {
        guard unlink(objectURL(digest).path) == 0 || errno == ENOENT else {
            throw WriteFailure(errno: errno, path: objectURL(digest).path, operation: .remove)
        }
        _ = try objects.query("DELETE FROM objects WHERE sha256 = ?", [.text(digest)])
    }

    /// Stores generated bytes (a download manifest) and returns their object.
    ///
    /// Durability: the bytes are written without an `fsync` of their own. Nothing reads an object as
    /// published until a release links it, and the publisher makes the whole file system durable with
    /// one `syncfs` before each switch (`Publisher.makeDurable`), which flushes this object with the
    /// rest. A power cut before that sync can leave the object's name with missing or stale bytes, so
    /// an object already there is trusted only when it holds exactly `data` (a small file, read back);
    /// otherwise it is written again and renamed over the damaged one.
    /// `subject` says what the bytes are in a `WriteFailure` ("the download manifest").
    public func put(_ data: Data, subject: String? = nil) throws -> StoredFile {
        let digest = FileDigest.sha256(of: data)
        let object = objectURL(digest)
        if FileStamp(path: object.path)?.size != Int64(data.count) || FileManager.default.contents(atPath: object.path) != data {
            let temporary = temporaryURL()
            defer { unlink(temporary.path) }
            do {
                try FileWriting.createNew(data, at: temporary.path, mode: 0o444)
                guard place(temporary.path, at: object) else { throw placeFailure(object, of: object.path) }
            } catch let failure as WriteFailure {
                throw subject.map { failure.about($0) } ?? failure
            }
        }
        return StoredFile(sha256: digest, size: data.count, url: object)
    }

    /// Removes temporary files left by a build that was killed.
    public func removeLeftovers() {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporaryFolder.path)) ?? [] {
            try? FileManager.default.removeItem(at: temporaryFolder.appendingPathComponent(name, isDirectory: false))
        }
    }
}
