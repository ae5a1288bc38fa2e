import Foundation

/// Maps over a collection on all cores, keeping the order of the input.
public enum ParallelMap {
    private final class Slots<T>: @unchecked Sendable {
        // Each index is written by exactly one iteration; the lock orders the writes for readers.
        var values: [T?]
        let lock = NSLock()
        init(count: Int) { values = Array(repeating: nil, count: count) }
    }

    public static func map<T: Sendable, U: Sendable>(_ input: [T], _ transform: @Sendable (T) -> U) -> [U] {
        let slots = Slots<U>(count: input.count)
        DispatchQueue.concurrentPerform(iterations: input.count) { index in
            let value = transform(input[index])
            slots.lock.withLock { slots.values[index] = value }
        }
        return slots.values.map { $0! }
    }
}
