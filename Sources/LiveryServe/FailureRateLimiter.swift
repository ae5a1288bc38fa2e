import Foundation

/// Counts failed voucher redemptions per client address over a sliding window, in memory only: a
/// restart forgets them, and several servers behind a balancer count separately.
///
/// With 100-bit codes, guessing is hopeless anyway; the limit keeps a script from trying a list of
/// leaked or half-remembered codes quickly, and keeps the database quiet under such a script.
final class FailureRateLimiter: @unchecked Sendable {
    let limit: Int
    let window: TimeInterval
    /// Past this many addresses, the stalest is dropped, so that memory stays bounded.
    let maximumAddresses = 10_000
    private let lock = NSLock()
    // Guarded by `lock`: the moments of recent failures, oldest first, per address.
    private var failures: [String: [Date]] = [:]

    init(limit: Int, window: TimeInterval) {
        self.limit = limit
        self.window = window
    }

    /// Seconds until `address` may try again; nil when it may try now.
    func retryAfter(_ address: String, now: Date = Date()) -> Int? {
        lock.withLock {
            let recent = prune(address, now: now)
            guard recent.count >= limit, let oldest = recent.first else { return nil }
            return max(1, Int((oldest.addingTimeInterval(window).timeIntervalSince(now)).rounded(.up)))
        }
    }

    /// Records one failed attempt of `address`.
    func recordFailure(_ address: String, now: Date = Date()) {
        lock.withLock {
            var recent = prune(address, now: now)
            recent.append(now)
            failures[address] = recent
            if failures.count > maximumAddresses {
                let stalest = failures.min { ($0.value.last ?? .distantPast) < ($1.value.last ?? .distantPast) }?.key
                if let stalest { failures[stalest] = nil }
            }
        }
    }

    /// The failures of `address` still inside the window (caller holds `lock`).
    private func prune(_ address: String, now: Date) -> [Date] {
        let recent = (failures[address] ?? []).filter { now.timeIntervalSince($0) < window }
        failures[address] = recent.isEmpty ? nil : recent
        return recent
    }
}
