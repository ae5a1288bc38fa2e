import Foundation

/// A write to the disk that failed, with the file it was writing and what it was doing (`operation`: writing,
/// creating, flushing, replacing, removing, locking, renaming): the one error every write path of the build and publish
/// side and of the client raises (SQLite databases, the content store, archives, `Output/`, the key store, the
/// voucher database, the client's cache), rather than a TUF error for what is a file's failure; a full disk reads
/// "cannot write Output/.livery/store/objects.sqlite: no space left on the device", never an errno's or
/// SQLite's words alone. It is made from an `errno` (`init(errno:path:)`), from a Foundation error that
/// carries one (`init?(_:path:)`), or by the SQLite wrapper from SQLite's result codes (`SQLITE_FULL`,
/// `SQLITE_IOERR_*` with the system error behind it).
public struct WriteFailure: Error, CustomStringConvertible, Sendable, Hashable {
    /// Why the write failed.
    public enum Kind: String, Sendable, Hashable {
        /// `ENOSPC`, `SQLITE_FULL`: the file system has no free blocks (or inodes) left.
        case noSpace
        /// `EDQUOT`: the user's disk quota is used up.
        case quota
        /// `EIO`, `SQLITE_IOERR`: the device failed to read or write.
        case io
        /// Another reason (`EACCES`, `EROFS`…), said by `underlying`.
        case other

        /// The reason as the message says it.
        public var phrase: String {
            switch self {
            case .noSpace: return "no space left on the device"
            case .quota: return "the disk quota is exceeded"
            case .io: return "an I/O error on the device"
            case .other: return "the write failed"
            }
        }
    }

    /// What was being done to the file: writing it unless said otherwise.
    public enum Operation: String, Sendable, Hashable {
        case write, create, flush, replace, remove, lock
        /// Moving the file aside under another name (a key store's retired key).
        case rename
        case createFolder = "create folder"

        /// The verb as the message says it ("cannot flush …").
        public var verb: String { rawValue }
    }

    public var kind: Kind
    /// What was being done to `path` when it failed.
    public var operation: Operation = .write
    /// The file (or folder) being written, as given (usually absolute); `displayPath` is what messages show.
    public var path: String
    /// What the file is, when the writer knows better than its path ("the archive of bundle 'core'"); nil otherwise.
    public var subject: String?
    /// The system's or SQLite's own words ("No space left on device", "SQLite: database or disk is full").
    public var underlying: String

    public init(_ kind: Kind, path: String, subject: String? = nil, underlying: String, operation: Operation = .write) {
        self.kind = kind
        self.operation = operation
        self.path = path
        self.subject = subject
        self.underlying = underlying
    }

    /// The failure an `errno` from a write (`write`, `open`, `link`, `rename`, `mkdir`, `fsync`…) stands for. For space,
    /// quota and device errors `underlying` is the errno's name (the phrase already says what `strerror` would).
    public init(errno code: Int32, path: String, subject: String? = nil, operation: Operation = .write) {
        let name: String? = switch code { case ENOSPC: "ENOSPC"; case EDQUOT: "EDQUOT"; case EIO: "EIO"; default: nil }
        self.init(Self.kind(errno: code), path: path, subject: subject, underlying: name ?? String(cString: strerror(code)), operation: operation)
    }

    /// A failure for lack of space, quota or a device error, or nil when `code` is another errno (which the
    /// caller reports in its own words).
    public static func storage(errno code: Int32, path: String, subject: String? = nil) -> WriteFailure? {
        let failure = WriteFailure(errno: code, path: path, subject: subject)
        return failure.kind == .other ? nil : failure
    }

    /// The storage failure a Foundation error stands for (a `CocoaError` of `FileManager` or `Data.write`,
    /// a `POSIXError`, an `NSError` of the POSIX domain, or one of these as its underlying error); nil when
    /// `error` is not about space, quota or the device. A `WriteFailure` is returned as it is.
    public init?(_ error: any Error, path: String, subject: String? = nil) {
        if let failure = error as? WriteFailure {
            guard failure.kind != .other else { return nil }
            self = failure
            return
        }
        guard let code = Self.errno(in: error as NSError, depth: 0) else { return nil }
        guard let failure = Self.storage(errno: code, path: path, subject: subject) else { return nil }
        self = failure
    }

    /// Runs `body`, a write of `path` through Foundation (`FileManager`, `Data.write`, `FileHandle`), and throws any
    /// failure of it for lack of space, quota or a device error as a `WriteFailure` naming `path`; other errors as they are.
    public static func writing<T>(_ path: String, subject: String? = nil, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw WriteFailure(error, path: path, subject: subject) ?? error
        }
    }

    /// The errno an error carries, directly or as an underlying error (a few levels deep at most).
    private static func errno(in error: NSError, depth: Int) -> Int32? {
        if error.domain == NSPOSIXErrorDomain { return Int32(truncatingIfNeeded: error.code) }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, depth < 4, let code = errno(in: underlying, depth: depth + 1) {
            return code
        }
        if error.domain == NSCocoaErrorDomain && error.code == CocoaError.fileWriteOutOfSpace.rawValue { return ENOSPC }
        return nil
    }

    static func kind(errno code: Int32) -> Kind {
        switch code {
        case ENOSPC: return .noSpace
        case EDQUOT: return .quota
        case EIO: return .io
        default: return .other
        }
    }

    /// `path` relative to the current folder (the project a command runs in) when it is inside it, else as given.
    public var displayPath: String { Self.display(path) }

    public var description: String {
        let file = subject.map { "\($0) (\(displayPath))" } ?? displayPath
        return kind == .other ? "cannot \(operation.verb) \(file): \(underlying)" : "cannot \(operation.verb) \(file): \(kind.phrase) (\(underlying))"
    }

    /// The same failure, said of `subject` ("the archive of bundle 'core'") unless it already names one.
    public func about(_ subject: String) -> WriteFailure {
        var named = self
        if named.subject == nil { named.subject = subject }
        return named
    }

    /// A path as messages show it: relative to the current folder when inside it.
    public static func display(_ path: String) -> String {
        guard path.hasPrefix("/") else { return path }
        let current = FileManager.default.currentDirectoryPath
        guard current != "/", !current.isEmpty else { return path }
        let prefix = current.hasSuffix("/") ? current : current + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}

/// Writing whole buffers to a file descriptor, with every failure a `WriteFailure` naming the file.
public enum FileWriting {
    /// Writes every byte of `bytes` to `descriptor` (retrying short writes and `EINTR`); `path` names the file in a failure.
    public static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, path: String) throws {
        var offset = 0
        while offset < bytes.count {
            let count = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if count < 0 && errno == EINTR { continue }
            // A write of 0 bytes to a regular file means no room for more (as ENOSPC would).
            guard count > 0 else { throw WriteFailure(errno: count == 0 ? ENOSPC : errno, path: path) }
            offset += count
        }
    }

    public static func writeAll(_ data: Data, to descriptor: Int32, path: String) throws {
        try data.withUnsafeBytes { try writeAll($0, to: descriptor, path: path) }
    }

    /// Creates the file at `path` (it must not exist: `O_EXCL`, never following a link) with `mode` and writes
    /// `data` into it, without an `fsync`; a file left half-written by a failure is removed.
    public static func createNew(_ data: Data, at path: String, mode: mode_t) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode)
        guard descriptor >= 0 else { throw WriteFailure(errno: errno, path: path) }
        do {
            try writeAll(data, to: descriptor, path: path)
        } catch {
            close(descriptor)
            unlink(path)
            throw error
        }
        close(descriptor)
    }
}
