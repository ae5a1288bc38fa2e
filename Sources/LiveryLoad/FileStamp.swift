import Foundation

/// What `stat` says about a file: enough to tell, cheaply, that it has not changed.
public struct FileStamp: Sendable, Equatable {
    public var size: Int64
    public var mtimeNanoseconds: Int64
    public var ctimeNanoseconds: Int64
    public var inode: Int64

    /// Stamps the regular file at `path` (following links), or nil when it cannot be read.
    public init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        size = Int64(info.st_size)
        mtimeNanoseconds = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        ctimeNanoseconds = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        inode = Int64(info.st_ino)
    }

    /// A stamp taken less than this long after its mtime is not trusted: a write within the same
    /// timestamp granularity could go unnoticed (the "racy git" problem).
    public static let racyWindowNanoseconds: Int64 = 2_000_000_000
}
