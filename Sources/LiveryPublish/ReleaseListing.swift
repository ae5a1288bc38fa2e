import Foundation
import LiveryAssets
import LiverySign
import LiveryStorage
import LiveryReleaseFormat

/// A tenant's releases per channel, newest first, as `livery releases` shows them: number, date, size,
/// rollout, origin, reason, and what a device on the release before downloads to update. Codable in the
/// shape of `--format json`, so a program reading that output decodes it into this type.
public struct ReleaseListing: Codable, Sendable, Equatable {
    public var tenant: String
    /// Stable first, then the tenant's other channels.
    public var channels: [Channel]

    /// One channel's releases.
    public struct Channel: Codable, Sendable, Equatable {
        public var channel: String
        /// Newest first.
        public var releases: [Release]

        public init(channel: String, releases: [Release]) {
            self.channel = channel
            self.releases = releases
        }
    }

    /// One release as the channel signed it.
    public struct Release: Codable, Sendable, Equatable {
        public var release: Int
        public var manifestSha256: String
        public var state: ReleaseHistory.Entry.State
        /// `build`, `promotion` or `rollback` (ReleaseProvenance.Origin).
        public var origin: String
        /// When it was first signed, as TUF writes dates.
        public var published: String
        /// The bundles' bytes (nil: its bytes are no longer kept).
        public var bytes: Int?
        /// What a device holding the channel's release before this one downloads to reach it.
        public var update: Update?
        /// Its latest rollout share while it was staged (nil: never staged).
        public var rolloutBasisPoints: Int?
        public var fromChannel: String?
        public var fromRelease: Int?
        public var reason: String?

        public init(release: Int, manifestSha256: String, state: ReleaseHistory.Entry.State, origin: String, published: String, bytes: Int?,
                    update: Update?, rolloutBasisPoints: Int?, fromChannel: String?, fromRelease: Int?, reason: String?) {
            self.release = release
            self.manifestSha256 = manifestSha256
            self.state = state
            self.origin = origin
            self.published = published
            self.bytes = bytes
            self.update = update
            self.rolloutBasisPoints = rolloutBasisPoints
            self.fromChannel = fromChannel
            self.fromRelease = fromRelease
            self.reason = reason
        }
    }

    /// Bytes to update: every changed bundle whole, and by delta (docs/deltas.md).
    public struct Update: Codable, Sendable, Equatable {
        public var whole: Int
        public var delta: Int

        public init(whole: Int, delta: Int) {
            self.whole = whole
            self.delta = delta
        }
    }

    public init(tenant: String, channels: [Channel]) {
        self.tenant = tenant
        self.channels = channels
    }

    /// Reads every channel's signed history of `tenant` in `output`, with sizes and update costs from the bytes
    /// still kept (Output/ or its content store). Throws when the tenant has no release there.
    public static func read(tenant: String, output: URL) throws -> ReleaseListing {
        let store = try? ContentStore(root: output.appendingPathComponent(".livery/store"))
        let histories = try ReleaseChannels.history(tenant: tenant, output: output)
        guard !histories.isEmpty else { throw ReleaseChannels.Failure("'\(tenant)' has no releases in \(output.path)") }
        // Each release is read once: its size, and the update to it from the release before, both need it.
        var located: [String: PublishedRelease?] = [:]
        func locate(_ entry: ReleaseHistory.Entry) -> PublishedRelease? {
            if let known = located[entry.manifestSHA256] { return known }
            let release = store.flatMap { try? ReleaseChannels.locate(tenant: tenant, manifestSHA256: entry.manifestSHA256, output: output, store: $0) }
            located[entry.manifestSHA256] = release
            return release
        }
        func update(at index: Int, in entries: [ReleaseHistory.Entry]) -> Update? {
            guard index > 0, let new = locate(entries[index]), let old = locate(entries[index - 1]) else { return nil }
            let bytes = ReleaseDiff.updateBytes(from: old.manifest.bundles, to: new.manifest.bundles) { bundle in
                new.manifest.bundle(bundle.id)?.sha256 == bundle.sha256 ? new.indexFiles[bundle.id] : old.indexFiles[bundle.id]
            }
            return Update(whole: bytes.whole, delta: bytes.delta)
        }
        let channels = histories.map { history in
            let entries = history.entries
            let releases = entries.indices.reversed().map { index in
                let entry = entries[index]
                // The first entry with the same number and manifest: what `update` was measured from before (a
                // release signed twice under one number is listed twice, with the first one's update).
                let first = entries.firstIndex { $0.release == entry.release && $0.manifestSHA256 == entry.manifestSHA256 } ?? index
                return Release(release: entry.release, manifestSha256: entry.manifestSHA256, state: entry.state,
                               origin: entry.provenance?.origin.rawValue ?? "build", published: TUFDate.string(entry.signed),
                               bytes: locate(entry)?.manifest.bundles.reduce(0) { $0 + $1.size }, update: update(at: first, in: entries),
                               rolloutBasisPoints: entry.lastStage?.basisPoints, fromChannel: entry.provenance?.fromChannel,
                               fromRelease: entry.provenance?.fromRelease, reason: entry.provenance?.reason)
            }
            return Channel(channel: history.channel.name, releases: releases)
        }
        return ReleaseListing(tenant: tenant, channels: channels)
    }

    /// `--format json`: one object, keys sorted and no whitespace (JSONValue), with a final newline.
    public var json: Data {
        JSONValue.object(["tenant": .string(tenant), "channels": .array(channels.map { channel in
            .object(["channel": .string(channel.channel), "releases": .array(channel.releases.map(\.jsonValue))])
        })]).bytes
    }

    /// The text form: per channel its name, then one line per release (`*` current, `~` staged).
    public var text: String {
        channels.map { channel in
            ([channel.channel + ":"] + channel.releases.map(\.line)).map { $0 + "\n" }.joined()
        }.joined()
    }
}

extension ReleaseListing.Release {
    var jsonValue: JSONValue {
        var object: [String: JSONValue] = [
            "release": .int(release), "manifestSha256": .string(manifestSha256), "state": .string(state.rawValue),
            "origin": .string(origin), "published": .string(published),
        ]
        if let bytes { object["bytes"] = .int(bytes) }
        if let update { object["update"] = .object(["whole": .int(update.whole), "delta": .int(update.delta)]) }
        if let rolloutBasisPoints { object["rolloutBasisPoints"] = .int(rolloutBasisPoints) }
        if let fromChannel { object["fromChannel"] = .string(fromChannel) }
        if let fromRelease { object["fromRelease"] = .int(fromRelease) }
        if let reason { object["reason"] = .string(reason) }
        return .object(object)
    }

    /// `* 12  2026-05-01T10:00:00Z  1.2 MiB  everyone  build  update 3 KiB by delta (40 KiB whole)  "reason"`.
    var line: String {
        let mark = state == .current ? "*" : state == .staged ? "~" : " "
        let size = bytes.map { ByteCount.text($0) } ?? "-"
        let change = update.map { "  update \(ByteCount.text($0.delta)) by delta (\(ByteCount.text($0.whole)) whole)" } ?? ""
        var line = "\(mark) \(release)  \(published)  \(size)  \(rollout)  \(originText)\(change)"
        if let reason { line += "  \"\(reason)\"" }
        return line
    }

    var rollout: String {
        let stage = rolloutBasisPoints.map { RolloutStage.percentText($0) }
        switch state {
        case .staged: return stage.map { "\($0) (in progress)" } ?? "staged"
        case .halted: return "halted at \(stage ?? "?")"
        case .current, .replaced: return stage.map { "everyone (after \($0))" } ?? "everyone"
        }
    }

    var originText: String {
        switch ReleaseProvenance.Origin(rawValue: origin) ?? .build {
        case .promotion: return "promoted from \(fromChannel ?? "?") \(fromRelease.map(String.init) ?? "")"
        case .rollback: return "rollback to \(fromRelease.map(String.init) ?? "?")"
        case .build: return "build"
        }
    }
}
