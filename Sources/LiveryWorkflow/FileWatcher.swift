import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reports which files under a folder changed: inotify on Linux (every folder watched, new folders
/// added as they appear), and on other systems a comparison of sizes and modification times every
/// quarter second. Hidden folders (`.git`, `.livery`) are not watched.
public final class FileWatcher {
    /// Why a folder cannot be watched.
    public struct Failure: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "cannot watch \(path): \(reason)" }
    }

    public let root: URL
    #if os(Linux)
    private let descriptor: Int32
    private var folders: [Int32: String] = [:]
    #else
    private var snapshot: [String: (Date, Int)] = [:]
    #endif

    public init(root: URL) throws {
        self.root = root.standardizedFileURL
        #if os(Linux)
        descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { throw Failure(path: root.path, reason: "inotify_init1 failed (\(String(cString: strerror(errno))))") }
        try watchTree("")
        #else
        snapshot = Self.scan(self.root)
        #endif
    }

    deinit {
        #if os(Linux)
        close(descriptor)
        #endif
    }

    /// Blocks until something changes, then gathers changes until `quiet` passes without one (editors
    /// save in several steps: write a temporary file, rename it, change its mode) and returns the
    /// workspace-relative paths that changed.
    public func next(quiet: TimeInterval = 0.015) -> Set<String> {
        #if os(Linux)
        var changed = Set<String>()
        // Files created and gone again within one save (an editor's or sed's temporary file) are not changes.
        var created = Set<String>()
        var timeout: Int32 = -1
        while true {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, timeout)
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 {
                if !changed.isEmpty { return changed }
                timeout = -1
                continue
            }
            for (path, mask) in readEvents() {
                if mask & UInt32(IN_CREATE) != 0 && !changed.contains(path) { created.insert(path) }
                if mask & UInt32(IN_MOVED_FROM | IN_DELETE) != 0 && created.contains(path) {
                    changed.remove(path)
                    continue
                }
                changed.insert(path)
            }
            timeout = Int32(quiet * 1000)
        }
        #else
        while true {
            Thread.sleep(forTimeInterval: 0.25)
            let now = Self.scan(root)
            var changed = Set<String>()
            for (path, stamp) in now where snapshot[path].map({ $0 != stamp }) ?? true { changed.insert(path) }
            for path in snapshot.keys where now[path] == nil { changed.insert(path) }
            snapshot = now
            if !changed.isEmpty { return changed }
        }
        #endif
    }

    #if os(Linux)
    private static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_ATTRIB)

    /// Watches `relative` (a folder, "" for the root) and every folder under it.
    private func watchTree(_ relative: String) throws {
        let path = relative.isEmpty ? root.path : root.appendingPathComponent(relative).path
        let watch = inotify_add_watch(descriptor, path, Self.mask)
        guard watch >= 0 else {
            if relative.isEmpty { throw Failure(path: path, reason: String(cString: strerror(errno))) }
            return  // a folder that went away meanwhile
        }
        folders[watch] = relative
        for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] where !name.hasPrefix(".") {
            var isFolder: ObjCBool = false
            let child = relative.isEmpty ? name : relative + "/" + name
            // Symbolic links are not followed: a link out of the workspace is the loader's to refuse.
            if FileManager.default.fileExists(atPath: path + "/" + name, isDirectory: &isFolder), isFolder.boolValue,
               (try? FileManager.default.destinationOfSymbolicLink(atPath: path + "/" + name)) == nil {
                try watchTree(child)
            }
        }
    }

    /// The events waiting, as workspace-relative paths with their inotify masks, in order.
    private func readEvents() -> [(path: String, mask: UInt32)] {
        var changed: [(path: String, mask: UInt32)] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return changed }
        var offset = 0
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= count {
            let (watch, mask, length) = buffer.withUnsafeBytes { bytes -> (Int32, UInt32, Int) in
                let event = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                return (event.wd, event.mask, Int(event.len))
            }
            let nameBytes = buffer[(offset + header)..<min(count, offset + header + length)].prefix { $0 != 0 }
            let name = String(decoding: nameBytes, as: UTF8.self)
            offset += header + length
            if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                // Events were lost: say the whole workspace changed.
                changed.append(("", mask))
                continue
            }
            guard let folder = folders[watch], !name.hasPrefix(".") || name.isEmpty else { continue }
            let path = name.isEmpty ? folder : (folder.isEmpty ? name : folder + "/" + name)
            if mask & UInt32(IN_IGNORED) != 0 { folders[watch] = nil; continue }
            if mask & UInt32(IN_ISDIR) != 0 && mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 { try? watchTree(path) }
            changed.append((path, mask))
        }
        return changed
    }
    #else
    private static func scan(_ root: URL) -> [String: (Date, Int)] {
        var out: [String: (Date, Int)] = [:]
        let keys: [URLResourceKey] = [.contentModificationDateKey, .fileSizeKey, .isRegularFileKey]
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles]) else { return out }
        let prefix = root.path.count + 1
        for case let url as URL in walker {
            guard let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true else { continue }
            out[String(url.standardizedFileURL.path.dropFirst(prefix))] = (values.contentModificationDate ?? .distantPast, values.fileSize ?? 0)
        }
        return out
    }
    #endif
}
