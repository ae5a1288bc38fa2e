import Crypto
import Foundation
import LiveryReleaseFormat
import NIOPosix

/// `VoucherStore` (SQLite) as a `VoucherBackend`: every call runs on NIO's blocking thread pool,
/// because SQLite may wait on another process's write lock (busy timeout) and must never do so on
/// an event loop.
public struct SQLiteVoucherBackend: VoucherBackend {
    public let store: VoucherStore

    public init(store: VoucherStore) {
        self.store = store
    }

    public var location: String { store.path }

    public func tokenSecret() async throws -> SymmetricKey {
        // Read once per store; after that no hop to the thread pool is needed.
        if let known = store.knownTokenSecret { return known }
        let store = store
        return try await NIOThreadPool.singleton.runIfActive { try store.tokenSecret() }
    }

    public func issue(tenant: String, subject: VoucherSubject, count: Int, devices: Int, expires: Date?, now: Date) async throws -> [VoucherCode] {
        let store = store
        return try await NIOThreadPool.singleton.runIfActive { try store.issue(tenant: tenant, subject: subject, count: count, devices: devices, expires: expires, now: now) }
    }

    public func list(tenant: String) async throws -> [VoucherSummary] {
        let store = store
        return try await NIOThreadPool.singleton.runIfActive { try store.list(tenant: tenant) }
    }

    public func revoke(_ typed: String, now: Date) async throws -> VoucherSummary {
        let store = store
        return try await NIOThreadPool.singleton.runIfActive { try store.revoke(typed, now: now) }
    }

    public func redeem(tenant: String, code: VoucherCode, device: String, now: Date) async throws -> VoucherRedemption {
        let store = store
        return try await NIOThreadPool.singleton.runIfActive { try store.redeem(tenant: tenant, code: code, device: device, now: now) }
    }

    public func isValid(voucher id: Int64, tenant: String, now: Date) async throws -> Bool {
        let store = store
        return try await NIOThreadPool.singleton.runIfActive { try store.isValid(voucher: id, tenant: tenant, now: now) }
    }

    /// The SQLite connection closes with the store.
    public func close() async {}
}
