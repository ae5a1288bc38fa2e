import Foundation
import LiveryStorage

/// Serialises builds on one `Output/`: an exclusive `flock` on `Output/.livery/lock`, released
/// by the kernel when the process ends, however it ends (so a killed build never leaves it held).
public final class OutputLock {
    private let descriptor: Int32

    /// Takes the lock; if another build holds it, calls `waiting` with a message and waits for it.
    public init(output: URL, waiting: (String) -> Void) throws {
        let folder = output.appendingPathComponent(".livery")
        try WriteFailure.writing(folder.path) { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let path = folder.appendingPathComponent("lock").path
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            if let failure = WriteFailure.storage(errno: errno, path: path) { throw failure }
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let holder = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            waiting("another livery build\(holder.isEmpty ? "" : " (process \(holder))") is publishing to \(output.path); waiting for it to finish…")
            guard flock(descriptor, LOCK_EX) == 0 else {
                close(descriptor)
                throw CocoaError(.fileLocking, userInfo: [NSFilePathErrorKey: path])
            }
        }
        ftruncate(descriptor, 0)
        let pid = "\(getpid())\n"
        _ = pid.withCString { write(descriptor, $0, strlen($0)) }
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
