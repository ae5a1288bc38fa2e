import Foundation
import LiveryClientCore
import LiveryReleaseFormat
import XCTest

/// `ChannelLocation`: the URLs and cache folder of a tenant's channel that `livery fetch` and an app embedding the
/// client both use (docs/client.md#channels-and-staged-rollout), against the layout `livery build` writes.
final class ChannelLocationTests: XCTestCase {
    private let server = URL(string: "https://cdn.example.com/apps")!
    private let beta = ReleaseChannel("beta")!

    func testStableIsTheTenantsFolderAndAnotherChannelAFolderBelowIt() {
        XCTAssertEqual(ChannelLocation(tenant: "urbannest").repositoryURL(server: server).absoluteString, "https://cdn.example.com/apps/urbannest")
        XCTAssertEqual(ChannelLocation(tenant: "urbannest", channel: beta).repositoryURL(server: server).absoluteString,
                       "https://cdn.example.com/apps/urbannest/channels/beta")
    }

    func testTheRepositoryURLIsWhereBuildWritesTheChannelsRepository() {
        // The same relative layout as the publishing side's `ReleaseChannel.repository(in:)`.
        let output = URL(fileURLWithPath: "/srv/Output")
        for channel in [ReleaseChannel.stable, beta] {
            let written = channel.repository(in: output.appendingPathComponent("urbannest")).path
            XCTAssertEqual(ChannelLocation(tenant: "urbannest", channel: channel).repositoryURL(server: output).path, written)
        }
    }

    func testVouchersAreRedeemedPerTenantWhateverTheChannel() {
        XCTAssertNil(ChannelLocation(tenant: "urbannest").voucherServer(server: server), "stable: the repository's own server")
        XCTAssertEqual(ChannelLocation(tenant: "urbannest", channel: beta).voucherServer(server: server)?.absoluteString,
                       "https://cdn.example.com/apps/urbannest")
        let vouchers = URL(string: "https://vouchers.example.com")!
        for channel in [ReleaseChannel.stable, beta] {
            XCTAssertEqual(ChannelLocation(tenant: "urbannest", channel: channel).voucherServer(server: server, separate: vouchers)?.absoluteString,
                           "https://vouchers.example.com/urbannest")
        }
    }

    func testEachChannelHasACacheOfItsOwn() {
        let caches = URL(fileURLWithPath: "/var/app/caches")
        XCTAssertEqual(ChannelLocation(tenant: "urbannest").cache(in: caches).path, "/var/app/caches/urbannest")
        XCTAssertEqual(ChannelLocation(tenant: "urbannest", channel: beta).cache(in: caches).path, "/var/app/caches/urbannest.beta")
        XCTAssertEqual(ChannelLocation(tenant: "urbannest", channel: beta).cacheName, "urbannest.beta")
    }
}
