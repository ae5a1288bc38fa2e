import Foundation
import LiveryParallel
import XCTest

/// `ParallelMap` (behind `--jobs N`): results in input order for any number of workers, and never more
/// than N transforms at once, maps inside maps included (a build maps over tenants, then over each
/// tenant's bundles).
final class ParallelMapTests: XCTestCase {
    /// Counts transforms running at once and the most seen. A transform waits, before its work, until `together`
    /// transforms have run at once: overlap is then a fact the test arranges, not the luck of a sleep. The 10 s
    /// bound only keeps a broken `ParallelMap` (one that never runs two at once) from hanging the test: it then
    /// stops waiting, and the assertions on `most` fail.
    private final class Gauge: @unchecked Sendable {
        // Guarded by `condition`.
        private var running = 0
        private var most = 0
        private var gaveUp = false
        private let condition = NSCondition()
        private let together: Int

        init(together: Int) { self.together = together }

        var mostAtOnce: Int { condition.withLock { most } }

        func measure<T>(_ body: () -> T) -> T {
            condition.withLock {
                running += 1
                most = max(most, running)
                condition.broadcast()
                let deadline = Date().addingTimeInterval(10)
                while most < together && !gaveUp {
                    if !condition.wait(until: deadline) { gaveUp = true }
                }
            }
            defer { condition.withLock { running -= 1 } }
            return body()
        }
    }

    override func tearDown() {
        ParallelMap.workers = ProcessInfo.processInfo.activeProcessorCount
    }

    func testNestedMapsKeepOrderAndNeverRunMoreThanTheWorkers() {
        for workers in [1, 2, 3] {
            ParallelMap.workers = workers
            let gauge = Gauge(together: min(workers, 2))
            let outer = ParallelMap.map(Array(0..<6)) { i -> [Int] in
                ParallelMap.map(Array(0..<5)) { j -> Int in gauge.measure { i * 10 + j } }
            }
            XCTAssertEqual(outer, (0..<6).map { i in (0..<5).map { i * 10 + $0 } }, "order with \(workers) workers")
            XCTAssertLessThanOrEqual(gauge.mostAtOnce, workers, "\(workers) workers")
            if workers > 1 {
                XCTAssertGreaterThan(gauge.mostAtOnce, 1, "\(workers) workers run transforms at once")
            }
        }
    }

    func testANestedMapUsesTheThreadsTheOuterOneLeaves() {
        ParallelMap.workers = 2
        let gauge = Gauge(together: 2)
        // One outer item takes no extra thread, so the inner map gets the second worker.
        _ = ParallelMap.map([0]) { _ in
            ParallelMap.map(Array(0..<8)) { j -> Int in gauge.measure { j } }
        }
        XCTAssertEqual(gauge.mostAtOnce, 2)
    }
}
