import Foundation

/// Maps over a collection on several threads, keeping the order of the input. How many threads is
/// `ParallelMap.workers` (by default the number of cores; `--jobs N` sets it), for all maps at once,
/// nested ones included: every result is the same for any number, only the time changes.
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
        /// Threads that maps have taken beyond the ones that called them.
        var extraInUse = 0
        let lock = NSLock()
    }

    /// Up to `wanted` threads beyond the caller's, so that maps inside maps (tenants, then each tenant's
    /// bundles) never run more than `workers` transforms at once: a nested map gets what the outer one
    /// left, and runs on its caller's thread alone when nothing is left.
    private static func takeThreads(upTo wanted: Int) -> Int {
        setting.lock.withLock {
            let granted = max(0, min(wanted, setting.workers - 1 - setting.extraInUse))
            setting.extraInUse += granted
            return granted
        }
    }

    private static func giveBack(_ threads: Int) {
        setting.lock.withLock { setting.extraInUse -= threads }
    }

    private static let setting = Setting()

    /// Threads each map uses (at least 1). Set once, before work starts (`--jobs`).
    public static var workers: Int {
        get { setting.lock.withLock { setting.workers } }
        set { setting.lock.withLock { setting.workers = max(1, newValue) } }
    }

    public static func map<T: Sendable, U: Sendable>(_ input: [T], _ transform: @Sendable (T) -> U) -> [U] {
        let extra = takeThreads(upTo: min(workers, input.count) - 1)
        defer { giveBack(extra) }
        guard extra > 0 else { return input.map(transform) }
        let slots = Slots<U>(count: input.count)
        DispatchQueue.concurrentPerform(iterations: extra + 1) { _ in
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
