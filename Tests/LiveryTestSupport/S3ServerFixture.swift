// Test support only: empty in a build without XCTest (`swift build -c release` builds every target, this one too).
#if canImport(XCTest)
import Foundation
import XCTest

/// A real S3-compatible store for tests: Ceph's RADOS Gateway on 127.0.0.1, started by
/// scripts/s3-server.sh in a temporary folder and stopped by `stop()` (or when the test process
/// ends: the class's `deinit`). One per test class: it starts in about 2 s. The typed S3 client for it
/// (`configuration`, `client()`, `makePublicBucket`) is LiveryTests' extension, S3ServerFixture+ObjectStore.swift.
public final class S3ServerFixture: @unchecked Sendable { // immutable after init
    public let folder: URL
    public let endpoint: String
    public let accessKey: String
    public let secretKey: String

    public init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("livery-rgw-\(UUID().uuidString.prefix(8))")
        let script = LiveryProcess.packageRoot.appendingPathComponent("scripts/s3-server.sh").path
        // Any free port: test classes may each run a store at once, and 7480 may be a developer's own.
        let started = try LiveryProcess.tool(["bash", script, "start", folder.path], environment: ["S3_SERVER_PORT": "0"])
        guard started.status == 0 else {
            throw Failure("the S3 test server did not start (run `make test-deps` to install Ceph's radosgw): \(started.stderr)")
        }
        // The script prints the variables Livery itself reads, as `export NAME=value` lines.
        var values: [String: String] = [:]
        for line in started.stdout.split(separator: "\n") where line.hasPrefix("export ") {
            let parts = line.dropFirst("export ".count).split(separator: "=", maxSplits: 1)
            if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
        }
        guard let endpoint = values["AWS_ENDPOINT_URL"], let access = values["AWS_ACCESS_KEY_ID"], let secret = values["AWS_SECRET_ACCESS_KEY"] else {
            throw Failure("scripts/s3-server.sh printed no endpoint: \(started.stdout)")
        }
        self.endpoint = endpoint
        accessKey = access
        secretKey = secret
    }

    deinit { stop() }

    public func stop() {
        _ = try? LiveryProcess.tool(["bash", LiveryProcess.packageRoot.appendingPathComponent("scripts/s3-server.sh").path, "stop", folder.path])
        try? FileManager.default.removeItem(at: folder)
    }

    /// The environment a `livery publish` (or boto3) needs to reach this store.
    public var environment: [String: String] {
        ["AWS_ACCESS_KEY_ID": accessKey, "AWS_SECRET_ACCESS_KEY": secretKey, "AWS_ENDPOINT_URL": endpoint, "AWS_REGION": "us-east-1",
         // No profile files of the machine's user leak in.
         "AWS_CONFIG_FILE": "/nonexistent", "AWS_SHARED_CREDENTIALS_FILE": "/nonexistent"]
    }

    /// Runs scripts/s3-oracle.py (boto3 and python-tuf from .venv-test) with this store's credentials.
    public func oracle(_ arguments: [String]) throws -> LiveryProcess.Output {
        let python = LiveryProcess.packageRoot.appendingPathComponent(".venv-test/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else { throw Failure("\(python) is missing: run `make test-deps`") }
        let output = try LiveryProcess.tool([python, LiveryProcess.packageRoot.appendingPathComponent("scripts/s3-oracle.py").path] + arguments,
                                            environment: environment)
        if output.status == 3 { throw Failure("boto3 or python-tuf is missing from .venv-test: run `make test-deps`") }
        return output
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(_ description: String) { self.description = description }
    }
}
#endif
