import Crypto
import Foundation

// Channels, release provenance and staged rollout: how one tenant publishes several signed streams
// and how a release moves between them (docs/output.md#channels, docs/client.md#staged-rollout).
// Signer, server and client share these types.

/// A release channel: one signed stream of releases of a tenant. `stable` is the tenant's folder
/// itself (what every client written before channels reads); any other channel is a complete TUF
/// repository of its own at `<tenant>/channels/<name>/`, with the same keys.
public struct ReleaseChannel: Sendable, Hashable, Comparable, CustomStringConvertible {
    public static let stable = ReleaseChannel(checked: "stable")
    /// The folder, under a tenant's folder, that holds its channels other than stable.
    public static let folderName = "channels"
    /// What a channel name may be: a lower-case letter, then lower-case letters, digits and hyphens, at most 32 in all.
    public static let pattern = "^[a-z][a-z0-9-]{0,31}$"

    public let name: String

    private init(checked name: String) { self.name = name }

    /// nil when `name` is not a channel name (`pattern`).
    public init?(_ name: String) {
        let bytes = Array(name.utf8)
        guard (1...32).contains(bytes.count), (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[0]),
              bytes.allSatisfy({ (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "-") })
        else { return nil }
        self.name = name
    }

    public var isStable: Bool { name == Self.stable.name }

    /// The channel's repository relative to the tenant's folder: "" for stable, `channels/<name>` otherwise.
    public var relativeFolder: String { isStable ? "" : "\(Self.folderName)/\(name)" }

    /// The channel's repository folder (release.json, metadata/, targets/) inside a tenant's folder.
    public func repository(in tenantFolder: URL) -> URL {
        isStable ? tenantFolder : tenantFolder.appendingPathComponent(Self.folderName, isDirectory: true).appendingPathComponent(name, isDirectory: true)
    }

    public var description: String { name }
    public static func < (a: ReleaseChannel, b: ReleaseChannel) -> Bool {
        a.isStable != b.isStable ? a.isStable : a.name < b.name
    }
}

/// Where a release came from, signed in its download manifest's `custom` (so the history of a
/// channel is read from its metadata, verifiable, and survives the loss of Livery's private state).
/// Deterministic: the same release built twice gets the same entry.
public struct ReleaseProvenance: Sendable, Equatable {
    public enum Origin: String, Sendable, CaseIterable {
        /// Built from the tenant's sources (`livery build`).
        case build
        /// Another channel's release, published here unchanged (`livery promote`).
        case promotion
        /// An earlier release's content published again under a new number (`livery rollback`).
        case rollback
    }

    public var channel: String
    public var origin: Origin
    /// For a promotion: the channel it came from; for a rollback: the channel of the release rolled back to.
    public var fromChannel: String?
    public var fromRelease: Int?
    /// Why (a rollback's reason, required; a promotion's, optional).
    public var reason: String?

    // No date: a build's target entries stay the same bytes whenever and wherever they are built
    // (shards and full builds agree); when a release was signed is its targets metadata's business.
    public init(channel: String, origin: Origin, fromChannel: String? = nil, fromRelease: Int? = nil, reason: String? = nil) {
        self.channel = channel
        self.origin = origin
        self.fromChannel = fromChannel
        self.fromRelease = fromRelease
        self.reason = reason
    }
}

/// A release being rolled out to part of a channel's devices (`livery build --rollout 10%`). The
/// channel's targets then list two releases, both signed: `download-manifest.json` and its bundles
/// (the release every other device keeps, and the one clients that know nothing of rollouts read),
/// and `staged/download-manifest.json` with its bundles as `staged/<id>.<format>`, whose `custom`
/// carries `rollout: {"basisPoints": N}`.
///
/// **Bucketing** (the same in every client; docs/client.md#staged-rollout): the device's bucket is
/// the first 8 bytes, as an unsigned big-endian integer, of
/// `SHA-256("livery-rollout-v1\n" + tenant + "\n" + channel + "\n" + release + "\n" + installID)`
/// (UTF-8, `release` in decimal), modulo 10,000. The device takes the staged release when its bucket
/// is below `basisPoints` (1 % = 100). A device's bucket depends on the release, not on the share, so a
/// growing share only ever adds devices, and each release starts with a different first group.
public struct RolloutStage: Sendable, Equatable {
    public static let targetPrefix = "staged/"
    public static let stagedManifestName = targetPrefix + DownloadManifest.targetName
    public static let scale = 10_000

    /// The share of devices that take the staged release, in hundredths of a percent (1...9999).
    public var basisPoints: Int

    public init?(basisPoints: Int) {
        guard (1..<Self.scale).contains(basisPoints) else { return nil }
        self.basisPoints = basisPoints
    }

    /// Reads `10%`, `12.5%`, `0.01%` or the same without `%`: a share of more than 0 and less than 100
    /// percent, in steps of 0.01.
    public init?(percent text: String) {
        guard let points = Self.basisPoints(percent: text) else { return nil }
        self.init(basisPoints: points)
    }

    /// Parses a percentage (`0`–`100`, at most two decimals, optional `%`) into basis points.
    public static func basisPoints(percent text: String) -> Int? {
        var body = Substring(text.trimmingCharacters(in: .whitespaces))
        if body.hasSuffix("%") { body = body.dropLast() }
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let whole = Int(parts[0]), parts[0].allSatisfy(\.isASCII), parts[0].allSatisfy(\.isNumber), whole <= 100 else { return nil }
        var fraction = 0
        if parts.count == 2 {
            let digits = parts[1]
            guard (1...2).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(digits) else { return nil }
            fraction = digits.count == 1 ? value * 10 : value
        }
        let points = whole * 100 + fraction
        return points <= scale ? points : nil
    }

    /// `12.5%`.
    public var percentText: String { Self.percentText(basisPoints) }

    public static func percentText(_ basisPoints: Int) -> String {
        let whole = basisPoints / 100, fraction = basisPoints % 100
        if fraction == 0 { return "\(whole)%" }
        return fraction % 10 == 0 ? "\(whole).\(fraction / 10)%" : "\(whole).\(fraction < 10 ? "0" : "")\(fraction)%"
    }

    /// The device's bucket, 0..<10,000, for the staged `release` of a tenant's channel.
    public static func bucket(tenant: String, channel: String, release: Int, installID: String) -> Int {
        let digest = SHA256.hash(data: Data("livery-rollout-v1\n\(tenant)\n\(channel)\n\(release)\n\(installID)".utf8))
        let value = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Int(value % UInt64(scale))
    }

    /// Whether the device takes the staged release.
    public func includes(tenant: String, channel: String, release: Int, installID: String) -> Bool {
        Self.bucket(tenant: tenant, channel: channel, release: release, installID: installID) < basisPoints
    }

    public var json: JSONValue { .object(["basisPoints": .int(basisPoints)]) }

    public init(json: JSONValue, what: String) throws {
        guard case .object(let fields) = json, case .int(let points)? = fields["basisPoints"], let stage = RolloutStage(basisPoints: points) else {
            throw TUFError(.malformed, "\(what): custom.rollout must be {\"basisPoints\": 1…9999}")
        }
        self = stage
    }
}
