import Foundation

/// A read from the disk that failed, with the file it was reading, what it was doing (`operation`: reading,
/// opening, listing a folder) and why: `WriteFailure`'s counterpart on the reading side, so that a file the
/// client, the key store or a command cannot read is reported as the file's failure ("cannot read
/// downloads/3f…: No such file or directory"), never as a TUF error or a bare sentence.
public struct ReadFailure: Error, CustomStringConvertible, Sendable, Hashable {
    /// What was being done to the file.
    public enum Operation: String, Sendable, Hashable {
        case read, open
        /// Walking a folder's entries.
        case list

        /// The verb as the message says it ("cannot list …").
        public var verb: String { rawValue }
    }

    /// What was being done to `path` when it failed.
    public var operation: Operation
    /// The file (or folder) being read, as given (usually absolute); messages show `WriteFailure.display(path)`.
    public var path: String
    /// The system's own words ("No such file or directory"), or nil when the API that failed gives none.
    public var underlying: String?

    public init(path: String, operation: Operation = .read, underlying: String? = nil) {
        self.operation = operation
        self.path = path
        self.underlying = underlying
    }

    /// The failure an `errno` from `open`, `read`, `stat`… stands for.
    public init(errno code: Int32, path: String, operation: Operation = .read) {
        self.init(path: path, operation: operation, underlying: String(cString: strerror(code)))
    }

    /// The failure a Foundation error (`Data(contentsOf:)`, `FileHandle`, `FileManager`) stands for: its errno's
    /// words when it carries one, else its own description.
    public init(_ error: any Error, path: String, operation: Operation = .read) {
        if let failure = error as? ReadFailure {
            self = failure
            return
        }
        if let code = Self.errno(in: error as NSError) {
            self.init(errno: code, path: path, operation: operation)
        } else {
            self.init(path: path, operation: operation, underlying: "\(error)")
        }
    }

    /// The errno a Foundation error carries, itself or as its underlying error, or stands for (a missing or
    /// forbidden file, which Foundation on Linux reports as a `CocoaError` alone).
    private static func errno(in error: NSError) -> Int32? {
        if error.domain == NSPOSIXErrorDomain { return Int32(truncatingIfNeeded: error.code) }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return Int32(truncatingIfNeeded: underlying.code)
        }
        guard error.domain == NSCocoaErrorDomain else { return nil }
        switch error.code {
        case CocoaError.fileReadNoSuchFile.rawValue, CocoaError.fileNoSuchFile.rawValue: return ENOENT
        case CocoaError.fileReadNoPermission.rawValue: return EACCES
        default: return nil
        }
    }

    /// `path` as messages show it: relative to the current folder when inside it.
    public var displayPath: String { WriteFailure.display(path) }

    public var description: String {
        "cannot \(operation.verb) \(displayPath)" + (underlying.map { ": \($0)" } ?? "")
    }
}
