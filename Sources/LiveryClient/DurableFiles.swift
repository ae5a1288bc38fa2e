import Foundation
import LiveryTUF
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Flushing what the client wrote to disk before the step that makes it live, so that a power cut
/// or a crash of the device never leaves `current` pointing at a release with missing or partial
/// files. Portable (fsync; `F_FULLFSYNC` on Apple platforms, where fsync alone does not reach the
/// disk's platters).
enum DurableFiles {
    /// Flushes one file's data, or a folder's entries.
    static func sync(_ url: URL) throws {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw TUFError("cannot open \(url.path) to flush it to disk") }
        defer { close(descriptor) }
        #if canImport(Darwin)
        if fcntl(descriptor, F_FULLFSYNC) == 0 { return }
        #endif
        guard fsync(descriptor) == 0 else { throw TUFError("cannot flush \(url.path) to disk") }
    }

    /// Flushes every file and folder under `folder`, and `folder` itself.
    static func syncTree(_ folder: URL) throws {
        let fm = FileManager.default
        if let walker = fm.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey, .isDirectoryKey]) {
            for case let url as URL in walker {
                let values = try url.resourceValues(forKeys: [.isRegularFileKey, .isDirectoryKey])
                if values.isRegularFile == true || values.isDirectory == true { try sync(url) }
            }
        }
        try sync(folder)
    }
}
