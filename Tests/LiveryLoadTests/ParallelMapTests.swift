import Foundation
import LiveryLoad
import XCTest

/// `ParallelMap` (behind `--jobs N`): results in input order for any number of workers, and never more
/// than N transforms at once, maps inside maps included (a build maps over tenants, then over each
/// tenant's bundles).
final class ParallelMapTests: XCTestCase {
    /// Counts transforms running at once and the most seen.
    private final class Gauge: @unchecked Sendable {
        // Guarded by `lock`.
        private var running = 0
        private(set) var most = 0
        let lock = NSLock()

        func measure<T>(_ body: () -> T) -> T {
            lock.withLock { running += 1; most = max(most, running) }
            defer { lock.withLock { running -= 1 } }
            return body()
        }
    }

    override func tearDown() {
        ParallelMap.workers = ProcessInfo.processInfo.activeProcessorCount
    }

    func testNestedMapsKeepOrderAndNeverRunMoreThanTheWorkers() {
        for workers in [1, 2, 3] {
            ParallelMap.workers = workers
            let gauge = Gauge()
            let outer = ParallelMap.map(Array(0..<6)) { i -> [Int] in
                ParallelMap.map(Array(0..<5)) { j -> Int in
                    gauge.measure {
                        usleep(2_000)  // long enough for the threads that exist to overlap
                        return i * 10 + j
                    }
                }
            }
            XCTAssertEqual(outer, (0..<6).map { i in (0..<5).map { i * 10 + $0 } }, "order with \(workers) workers")
            XCTAssertLessThanOrEqual(gauge.lock.withLock { gauge.most }, workers, "\(workers) workers")
            if workers > 1 {
                XCTAssertGreaterThan(gauge.lock.withLock { gauge.most }, 1, "\(workers) workers run transforms at once")
            }
        }
    }

    func testANestedMapUsesTheThreadsTheOuterOneLeaves() {
        ParallelMap.workers = 2
        let gauge = Gauge()
        // One outer item takes no extra thread, so the inner map gets the second worker.
        _ = ParallelMap.map([0]) { _ in
            ParallelMap.map(Array(0..<8)) { j -> Int in gauge.measure { usleep(2_000); return j } }
        }
        XCTAssertEqual(gauge.lock.withLock { gauge.most }, 2)
    }
}
