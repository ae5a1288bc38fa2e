import ArgumentParser
import Foundation

/// How to reach an object store: shared by `publish`, `build --publish` and `gc --remote`. Only parsed here;
/// livery-network, which runs those, reaches the store (Sources/livery-network/Publish.swift).
package struct ObjectStoreConnection: ParsableArguments {
    package init() {}

    @Option(name: .customLong("to"), help: "The object store: s3://bucket/prefix (each tenant under prefix/<tenant>/).")
    package var destination: String?

    @Option(help: "The store's endpoint, e.g. http://127.0.0.1:7480 (default: AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL, the profile's endpoint_url, else AWS).")
    package var endpoint: String?

    @Flag(help: "Address the bucket in the path (https://endpoint/bucket/key) or in the host name (https://bucket.endpoint/key). Default: virtual-host for AWS, path-style for any other endpoint.")
    package var addressing: AddressingChoice?

    @Option(help: "Objects in flight at once.")
    package var concurrency = 8

    @Flag(help: "Take over another publisher's lock (only when it died; see docs/operations.md).")
    package var breakLock = false

    package enum AddressingChoice: String, EnumerableFlag {
        case pathStyle, virtualHost
    }
}

/// What `publish` and `build --publish` take: the store, and what only a publish does (make the bucket, print
/// its steps). `gc --remote` takes the connection alone.
package struct ObjectStoreOptions: ParsableArguments {
    package init() {}

    @OptionGroup package var connection: ObjectStoreConnection

    @Flag(help: "Create the bucket when it does not exist (without this a missing bucket stops the publish before any upload).")
    package var createBucket = false

    @Flag(help: "With --create-bucket: also give the new bucket the policy that lets anyone read releases (metadata, targets, release.json; never protected/), as docs/operations.md shows.")
    package var publicRead = false

    @Flag(help: "Print each step on standard output as it ends: a build's `<tenant> assembled|signed|switched`, a publish's `<tenant> targets|metadata|snapshot|timestamp|pointer`.")
    package var verbose = false

    package var destination: String? { connection.destination }

    package func validate() throws {
        if publicRead && !createBucket {
            throw ValidationError("--public-read sets the policy of a bucket --create-bucket creates; an existing bucket keeps its own policy (docs/operations.md#making-the-bucket-readable)")
        }
    }
}
