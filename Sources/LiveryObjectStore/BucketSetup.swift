import Foundation

/// What a publish does about its bucket before it uploads anything: checks that it exists, and creates it
/// (with the anonymous-read policy of docs/operations.md, when asked) or refuses once, for every tenant,
/// with the command that would create it. Without the check a missing bucket failed every tenant with
/// its own `HTTP 404 NoSuchBucket` line.
public struct BucketSetup: Sendable, Equatable {
    /// Create the bucket when it does not exist.
    public var create = false
    /// With `create`: also set the policy that lets anyone read releases (`anonymousReadPolicy`).
    public var publicRead = false

    public init(create: Bool = false, publicRead: Bool = false) {
        self.create = create
        self.publicRead = publicRead
    }

    /// What `prepare` found or did.
    public enum Outcome: Sendable, Equatable {
        case existed
        case created(publicRead: Bool)
    }

    /// Makes sure `location`'s bucket exists. `dryRun` creates nothing (a missing bucket is then reported).
    public func prepare(client: S3Client, location: S3Location, dryRun: Bool = false) async throws -> Outcome {
        do {
            if try await client.bucketExists(location.bucket) { return .existed }
        } catch S3Error.status(let status, _, _, _) where status == 401 || status == 403 {
            throw BucketRefused(bucket: location.bucket, endpoint: client.configuration.endpoint.absoluteString, status: status)
        }
        guard create, !dryRun else { throw MissingBucket(bucket: location.bucket, endpoint: client.configuration.endpoint.absoluteString) }
        try await client.createBucket(location.bucket)
        if publicRead {
            try await client.putBucketPolicy(location.bucket, policy: Self.anonymousReadPolicy(for: location))
        }
        return .created(publicRead: publicRead)
    }

    /// The policy docs/operations.md gives: anyone may GET each tenant's (and each channel's) metadata, targets
    /// and `release.json`, nothing else (`protected/`, listing and writing stay private). The prefix is written
    /// out before each `*`: Ceph's RADOS Gateway matches a leading `*` only within one path segment.
    public static func anonymousReadPolicy(for location: S3Location) -> Data {
        let base = location.prefix.isEmpty ? location.bucket : "\(location.bucket)/\(location.prefix)"
        let resources = ["*/metadata/*", "*/targets/*", "*/release.json", "*/channels/*/metadata/*", "*/channels/*/targets/*", "*/channels/*/release.json"]
            .map { "\"arn:aws:s3:::\(base)/\($0)\"" }.joined(separator: ",")
        return Data(#"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":"*","Action":["s3:GetObject"],"Resource":["#.utf8
                    + Data(resources.utf8) + Data("]}]}".utf8))
    }
}

/// The bucket a publish names does not exist (and was not to be created).
public struct MissingBucket: Error, CustomStringConvertible, Sendable, Equatable {
    public var bucket: String
    public var endpoint: String

    public var description: String {
        "bucket '\(bucket)' does not exist on \(endpoint): add --create-bucket to create it "
            + "(and --public-read to let apps read releases anonymously, docs/operations.md#making-the-bucket-readable)"
    }
}

/// The store refused to say whether the bucket exists (401 or 403 to its HEAD, which carries no body saying
/// why): the credentials are not valid there (keys of another store, or of an earlier run of the test store),
/// or the bucket is another account's.
public struct BucketRefused: Error, CustomStringConvertible, Sendable, Equatable {
    public var bucket: String
    public var endpoint: String
    public var status: Int

    public var description: String {
        "\(endpoint) refused to say whether bucket '\(bucket)' exists (HTTP \(status), which gives no reason): either it does not accept these "
            + "credentials (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or the profile's; docs/operations.md#publishing-to-object-storage-livery-publish), "
            + "or the bucket belongs to another account"
    }
}
