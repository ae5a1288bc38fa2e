import Foundation

/// Replaces several files all together or not at all: every new file is written beside its target
/// first, then each is renamed into place; a failed rename puts back the files already replaced.
struct AtomicFileSet {
    struct Failure: Error { var path: String; var reason: String }

    private var pending: [(target: URL, data: Data)] = []

    mutating func add(_ data: Data, at target: URL) { pending.append((target, data)) }

    var isEmpty: Bool { pending.isEmpty }

    func commit() throws(Failure) {
        let fm = FileManager.default
        var staged: [(target: URL, temporary: URL, backup: URL?)] = []
        func cleanUp() {
            for item in staged {
                try? fm.removeItem(at: item.temporary)
                if let backup = item.backup { try? fm.removeItem(at: backup) }
            }
        }
        for (target, data) in pending {
            let directory = target.deletingLastPathComponent()
            let temporary = directory.appendingPathComponent(".\(target.lastPathComponent).livery-\(UUID().uuidString).tmp")
            do {
                try fm.createDirectory(at: directory, withIntermediateDirectories: true)
                try data.write(to: temporary)
            } catch {
                cleanUp()
                throw Failure(path: target.path, reason: "cannot write beside it: \(error.localizedDescription)")
            }
            var backup: URL?
            if fm.fileExists(atPath: target.path) {
                // A hard link keeps the old bytes reachable for a rollback without copying them.
                let backupURL = directory.appendingPathComponent(".\(target.lastPathComponent).livery-\(UUID().uuidString).bak")
                guard link(target.path, backupURL.path) == 0 else {
                    try? fm.removeItem(at: temporary)
                    cleanUp()
                    throw Failure(path: target.path, reason: "cannot keep a backup for rollback: \(String(cString: strerror(errno)))")
                }
                backup = backupURL
            }
            staged.append((target, temporary, backup))
        }
        var done: [Int] = []
        for (index, item) in staged.enumerated() {
            if rename(item.temporary.path, item.target.path) != 0 {
                let reason = String(cString: strerror(errno))
                for earlier in done.reversed() {
                    let replaced = staged[earlier]
                    if let backup = replaced.backup { _ = rename(backup.path, replaced.target.path) } else { try? fm.removeItem(at: replaced.target) }
                }
                cleanUp()
                throw Failure(path: item.target.path, reason: reason)
            }
            done.append(index)
        }
        for item in staged { if let backup = item.backup { try? fm.removeItem(at: backup) } }
    }
}
