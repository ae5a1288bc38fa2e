import Foundation

/// The store holds a release of a tenant that this output folder did not make: its `timestamp.json` is newer than
/// the one being published, or the same version with other bytes (another build, another key store). Typed, so that
/// several tenants refused for it (a fresh folder's build published over a bucket) read as one cause.
public struct ForeignRelease: Error, CustomStringConvertible, Sendable, Equatable {
    /// `s3://bucket/<prefix>/<tenant>/metadata/timestamp.json`.
    public var timestamp: String
    /// The store's timestamp version, and this release's.
    public var storeVersion: Int
    public var localVersion: Int

    public init(timestamp: String, storeVersion: Int, localVersion: Int) {
        self.timestamp = timestamp
        self.storeVersion = storeVersion
        self.localVersion = localVersion
    }

    /// What the store holds against this release, without the advice.
    public var finding: String {
        storeVersion == localVersion
            ? "\(timestamp) is at version \(storeVersion), as this release's timestamp is, with other bytes"
            : "\(timestamp) is at version \(storeVersion), and this release's timestamp is at \(localVersion)"
    }

    public var description: String {
        "\(finding): another build published a newer or different release of this tenant; publish from the folder that made it, or build again after fetching its metadata"
    }

    /// The cause when several tenants are refused for it (`PublishFailures`).
    static let sharedCause = "another build published newer or different releases than this output folder holds"
    static let sharedAdvice = "publish from the folder that made them, or build again after fetching their metadata"
}
