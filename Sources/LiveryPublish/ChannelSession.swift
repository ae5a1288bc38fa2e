import Foundation
import LiveryAssets
import LiverySign
import LiveryStorage
import LiveryReleaseFormat

/// One channel operation on an output folder (`livery promote`, `rollback`, `rollout`): the output lock held,
/// leftovers of an interrupted publication removed, the content store opened and the tenant's keys loaded, then
/// the operation of `ReleaseChannels`. Each returns what it published, with the line the command prints.
public struct ChannelSession: Sendable {
    public var output: URL
    /// The signing key store (one folder per tenant).
    public var keys: URL
    /// Hears each step (`assembled`, `signed`, `switched`) as it happens (`--verbose`).
    public var steps: (@Sendable (String) -> Void)?
    /// Hears warnings: waiting for the output lock, keys about to expire.
    public var warn: @Sendable (String) -> Void

    public init(output: URL, keys: URL, steps: (@Sendable (String) -> Void)? = nil, warn: @escaping @Sendable (String) -> Void = { _ in }) {
        self.output = output
        self.keys = keys
        self.steps = steps
        self.warn = warn
    }

    /// Runs `body` under the output lock with the content store and the tenant's keys. A refusal or a write failure
    /// is thrown as a `ReleaseChannels.Failure` naming the tenant; the channel stays as it was.
    func withRelease<T>(tenant: String, _ body: (ContentStore, TenantKeys) throws -> T) throws -> T {
        guard FileManager.default.fileExists(atPath: output.appendingPathComponent(tenant).path) else {
            throw ReleaseChannels.Failure("'\(tenant)' has no releases in \(output.path): build it first")
        }
        do {
            let lock = try OutputLock(output: output, waiting: warn)
            defer { withExtendedLifetime(lock) {} }
            Publisher.removeLeftovers(in: output)
            let store = try ContentStore(root: output.appendingPathComponent(".livery/store"))
            let tenantKeys = try KeyStore(root: keys).keys(for: tenant, create: false, warn: warn)
            return try body(store, tenantKeys)
        } catch let failure as ReleaseChannels.Failure {
            throw ReleaseChannels.Failure("\(tenant): \(failure.description)")
        } catch let failure as WriteFailure {
            // A full disk (or a failing one) names the tenant and the file.
            throw ReleaseChannels.Failure("\(tenant): \(failure)")
        }
    }

    /// What `promote` published.
    public struct Promotion: Sendable, Equatable {
        public var tenant: String
        public var from: ReleaseChannel
        public var to: ReleaseChannel
        public var rollout: RolloutStage?
        /// The release promoted (the --from channel's current one when none was named).
        public var source: Int?
        /// Its number on the --to channel.
        public var release: Int
        /// True when the manifest is byte for byte the source release's (false: renumbered, same bundles).
        public var sameManifest: Bool

        public var summary: String {
            // "to 10% of stable's devices", as `livery rollout` says it (not "to stable to 10% of devices").
            let destination = rollout.map { "\($0.percentText) of \(to.name)'s devices" } ?? to.name
            let how = sameManifest ? "the same manifest" : "the same bundles, renumbered: \(to.name) had a release as new"
            return "\(tenant): promoted \(from.name) release \(source.map(String.init) ?? "?") to \(destination) as release \(release) (\(how))"
        }
    }

    /// `livery promote`: `ReleaseChannels.promote` for every device of `to`, or to a share of them.
    public func promote(tenant: String, from: ReleaseChannel, to: ReleaseChannel, release: Int?, rollout: RolloutStage?, reason: String?) throws -> Promotion {
        let outcome = try withRelease(tenant: tenant) { store, keys in
            try ReleaseChannels.promote(tenant: tenant, from: from, to: to, release: release, exposure: rollout.map { .rollout($0) } ?? .everyone,
                                        reason: reason, keys: keys, output: output, store: store, steps: steps, warn: warn)
        }
        // The number promoted, also when it was the channel's current one.
        return Promotion(tenant: tenant, from: from, to: to, rollout: rollout, source: outcome.source ?? release, release: outcome.release,
                         sameManifest: outcome.sameManifest)
    }

    /// What `rollback` published.
    public struct Rollback: Sendable, Equatable {
        public var tenant: String
        public var channel: ReleaseChannel
        /// The release whose content was published again.
        public var content: Int
        /// The new release it was published as.
        public var release: Int

        public var summary: String { "\(tenant): rolled \(channel.name) back to the content of release \(content), published as release \(release)" }
    }

    /// `livery rollback`: `ReleaseChannels.rollback`.
    public func rollback(tenant: String, channel: ReleaseChannel, to content: Int, reason: String) throws -> Rollback {
        let outcome = try withRelease(tenant: tenant) { store, keys in
            try ReleaseChannels.rollback(tenant: tenant, channel: channel, to: content, reason: reason, keys: keys, output: output, store: store,
                                         steps: steps, warn: warn)
        }
        return Rollback(tenant: tenant, channel: channel, content: content, release: outcome.release)
    }

    /// What `changeRollout` did.
    public struct RolloutOutcome: Sendable, Equatable {
        public var tenant: String
        public var channel: ReleaseChannel
        public var change: ReleaseChannels.RolloutChange
        /// The staged release.
        public var release: Int

        public var summary: String {
            switch change {
            case .complete: "\(tenant): release \(release) is \(channel.name)'s release for every device"
            case .halt: "\(tenant): rollout of release \(release) on \(channel.name) halted; devices that took it keep it"
            case .share(let stage): "\(tenant): release \(release) goes to \(stage.percentText) of \(channel.name)'s devices"
            }
        }
    }

    /// `livery rollout`: `ReleaseChannels.changeRollout`.
    public func changeRollout(tenant: String, channel: ReleaseChannel, to change: ReleaseChannels.RolloutChange) throws -> RolloutOutcome {
        let release = try withRelease(tenant: tenant) { store, keys in
            try ReleaseChannels.changeRollout(tenant: tenant, channel: channel, to: change, keys: keys, output: output, store: store, steps: steps, warn: warn)
        }
        return RolloutOutcome(tenant: tenant, channel: channel, change: change, release: release)
    }
}
