import Foundation
import LiveryReleaseFormat

/// Where one channel of a tenant is: its repository on a server (the layout `livery build` writes and `livery serve`,
/// `livery publish` and a CDN serve, docs/output.md#channels), where its vouchers are redeemed, and its folder in the
/// app's cache. `livery fetch` uses it, so an app that follows a channel reaches the same URLs and keeps the same
/// cache layout without repeating the rules.
public struct ChannelLocation: Sendable, Hashable {
    public var tenant: String
    public var channel: ReleaseChannel

    public init(tenant: String, channel: ReleaseChannel = .stable) {
        self.tenant = tenant
        self.channel = channel
    }

    /// `<server>/<tenant>`: the tenant's folder, and its voucher server's base (vouchers are per tenant, whatever
    /// the channel).
    public func tenantURL(server: URL) -> URL {
        server.appendingPathComponent(tenant)
    }

    /// The channel's repository, with `metadata/` and `targets/` under it: `<server>/<tenant>` for stable,
    /// `<server>/<tenant>/channels/<name>` otherwise. Give it to `HTTPRepository(base:…)`.
    public func repositoryURL(server: URL) -> URL {
        channel.isStable ? tenantURL(server: server) : tenantURL(server: server).appendingPathComponent(channel.relativeFolder)
    }

    /// `FetchRequest.voucherServer` for this channel: `<voucherServer>/<tenant>` when vouchers are redeemed on a
    /// server of their own (the repository is a bucket or a CDN); otherwise nil for stable (its repository is the
    /// tenant's folder, where vouchers are redeemed) and `<server>/<tenant>` for another channel (whose repository
    /// is a folder below it).
    public func voucherServer(server: URL, separate voucherServer: URL? = nil) -> URL? {
        if let voucherServer { return voucherServer.appendingPathComponent(tenant) }
        return channel.isStable ? nil : tenantURL(server: server)
    }

    /// The name of this channel's cache folder: `<tenant>` for stable, `<tenant>.<channel>` otherwise. One cache per
    /// channel: each holds its own trusted metadata and installed release. (A tenant id has no dot, so the names of
    /// two tenants' caches never meet.)
    public var cacheName: String {
        channel.isStable ? tenant : "\(tenant).\(channel.name)"
    }

    /// This channel's cache inside `folder`, the app's folder for Livery caches (`FetchRequest.cache`).
    public func cache(in folder: URL) -> URL {
        folder.appendingPathComponent(cacheName)
    }
}
