import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Replacing a file in one step: the bytes go to a new file beside it (same folder, so the same file
/// system), which is then renamed over the old one, so a reader sees the old file or the new one and a
/// failed write leaves the old file as it was. The one write-then-rename of the build side and the client.
public enum AtomicFile {
    /// Writes `data` to `url`, creating the file with `mode` (less the umask, as `open` does: 0o666 gives
    /// what `Data.write` gives), and replaces what was there. With `durable`, the new file's bytes are
    /// flushed to the disk before the rename (`F_FULLFSYNC` on Apple platforms, where `fsync` alone stops at
    /// the drive's cache), so a power cut never leaves an empty file where the old one was; the folder's entry
    /// is the caller's to flush when it must be. Every failure is a `WriteFailure` naming `url` (a full disk, a
    /// quota or a device error as a failure to write it, whichever step met it), and leaves no partial file behind.
    public static func write(_ data: Data, to url: URL, mode: mode_t, durable: Bool) throws {
        // A unique name: two processes replacing one file (keys.yaml, a client's metadata) never share it.
        let partial = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).part")
        let descriptor = open(partial.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw WriteFailure(errno: errno, path: url.path) }
        do {
            try FileWriting.writeAll(data, to: descriptor, path: url.path)
            if durable { try flush(descriptor, path: url.path) }
        } catch {
            close(descriptor)
            unlink(partial.path)
            throw error
        }
        close(descriptor)
        guard rename(partial.path, url.path) == 0 else {
            let code = errno
            unlink(partial.path)
            throw WriteFailure.storage(errno: code, path: url.path) ?? WriteFailure(errno: code, path: url.path, operation: .replace)
        }
    }

    private static func flush(_ descriptor: Int32, path: String) throws {
        #if canImport(Darwin)
        if fcntl(descriptor, F_FULLFSYNC) == 0 { return }
        #endif
        guard fsync(descriptor) == 0 else {
            let code = errno
            throw WriteFailure.storage(errno: code, path: path) ?? WriteFailure(errno: code, path: path, operation: .flush)
        }
    }
}
