import Foundation

/// Maps over a collection on several threads, keeping the order of the input. How many threads is
/// `ParallelMap.workers` (by default the number of cores; `--jobs N` sets it): every result is the
/// same for any number, only the time changes.
public enum ParallelMap {
    private final class Slots<T>: @unchecked Sendable {
        // Each index is written by exactly one iteration; the lock orders the writes for readers and
        // hands out the next index.
        var values: [T?]
        var next = 0
        let lock = NSLock()
        init(count: Int) { values = Array(repeating: nil, count: count) }
    }

    private final class Setting: @unchecked Sendable {
        // Guarded by `lock`.
        var workers = ProcessInfo.processInfo.activeProcessorCount
        let lock = NSLock()
    }

    private static let setting = Setting()

    /// Threads each map uses (at least 1). Set once, before work starts (`--jobs`).
    public static var workers: Int {
        get { setting.lock.withLock { setting.workers } }
        set { setting.lock.withLock { setting.workers = max(1, newValue) } }
    }

    public static func map<T: Sendable, U: Sendable>(_ input: [T], _ transform: @Sendable (T) -> U) -> [U] {
        let width = min(workers, input.count)
        guard width > 1 else { return input.map(transform) }
        let slots = Slots<U>(count: input.count)
        DispatchQueue.concurrentPerform(iterations: width) { _ in
            while true {
                let index: Int = slots.lock.withLock {
                    defer { slots.next += 1 }
                    return slots.next
                }
                guard index < input.count else { return }
                let value = transform(input[index])
                slots.lock.withLock { slots.values[index] = value }
            }
        }
        return slots.values.map { $0! }
    }
}
