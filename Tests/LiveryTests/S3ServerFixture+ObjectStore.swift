import Foundation
import LiveryObjectStore
import LiveryTestSupport

/// Livery's own S3 client pointed at the test store (kept here: LiveryTestSupport imports no Livery module).
extension S3ServerFixture {
    var configuration: S3Configuration {
        S3Configuration(endpoint: URL(string: endpoint)!, region: "us-east-1",
                        credentials: AWSCredentials(accessKeyID: accessKey, secretAccessKey: secretKey), addressing: .path)
    }

    func client() -> S3Client { S3Client(configuration: configuration) }

    /// A new bucket whose releases anyone may GET (as a CDN origin) with the policy docs/operations.md
    /// gives: metadata, targets and release.json of every tenant, not `protected/`; listing and writing stay private.
    /// (`*` stands for the tenant: Ceph's RGW matches a leading `*` only within one path segment.)
    func makePublicBucket(_ name: String, prefix: String) async throws {
        let client = client()
        try await client.createBucket(name)
        // `livery publish --public-read`'s policy, which ObjectStoreTests checks against the page.
        try await client.putBucketPolicy(name, policy: BucketSetup.anonymousReadPolicy(for: S3Location(bucket: name, prefix: prefix)))
    }
}
