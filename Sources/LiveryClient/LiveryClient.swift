// LiveryClient is what an app embeds: LiveryClientCore (TUF verification, bundle choice, download, delta and
// install, with no network stack of its own) and the default HTTP transport on AsyncHTTPClient. An app that
// brings its own `HTTPTransport` (URLSession's on Apple platforms, say) can depend on LiveryClientCore alone and
// leave SwiftNIO out; so does `livery`, whose validate, build and verify never open a connection (docs/client.md).
@_exported import LiveryClientCore
import Foundation

extension HTTPRepository {
    /// A repository at `base` (`<server>/<tenant>/`, or a channel's folder under it) reached through
    /// `AsyncHTTPTransport.shared`.
    public convenience init(base: URL, policy: TransferPolicy = .standard) {
        self.init(base: base, policy: policy, transport: AsyncHTTPTransport.shared)
    }
}
