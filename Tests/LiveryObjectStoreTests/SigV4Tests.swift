import Foundation
import LiveryEncoding
import LiveryObjectStore
import LiveryTestSupport
import XCTest

/// Livery's SigV4 signer (hand-written: no maintained S3 client resolves here) against AWS's
/// published SigV4 test suite and against botocore, an independent implementation.
final class SigV4Tests: XCTestCase {
    // The test suite's context: credential, region, service and moment of every vector below.
    static let suiteSigner = SigV4Signer(credentials: AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"),
                                         region: "us-east-1", service: "service")
    static let suiteDate = Date(timeIntervalSince1970: 1_440_938_160) // 2015-08-30T12:36:00Z

    /// One vector of the AWS SigV4 test suite (aws-signing-test-suite/v4/<name>): the request, and
    /// the published canonical request hash (inside the string to sign) and signatures for
    /// header signing and for query signing (a presigned URL, 3600 s).
    struct Vector {
        var name: String
        var method = "GET"
        var path = "/"
        var query: [(name: String, value: String)] = []
        var headers: [(name: String, value: String)] = []
        var body = ""
        var signBody = false
        var canonicalHash: String
        var headerSignature: String
        var querySignature: String
    }

    static let vectors: [Vector] = [
        Vector(name: "get-vanilla",
               canonicalHash: "bb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63",
               headerSignature: "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31",
               querySignature: "e93c787ed7f371d5c6b165c1b38ede9550f4dce4144713e844b25b7192d3865d"),
        Vector(name: "get-vanilla-query-order-key-case", query: [("Param2", "value2"), ("Param1", "value1")],
               canonicalHash: "816cd5b414d056048ba4f7c5386d6e0533120fb1fcfa93762cf0fc39e2cf19e0",
               headerSignature: "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500",
               querySignature: "86012e2c9ad4d77369f5d81c11f75158aae4f895a085212cc6d3f923d300bed5"),
        Vector(name: "get-header-value-trim", headers: [("My-Header1", " value1"), ("My-Header2", " \"a   b   c\"")],
               canonicalHash: "a726db9b0df21c14f559d0a978e563112acb1b9e05476f0a6a1c7d68f28605c7",
               headerSignature: "acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736",
               querySignature: "e7bb0fd515e125e1aec2ecc4c0c17484fb06f6846b927c35e46005dd3df3acd4"),
        Vector(name: "get-vanilla-query-unreserved",
               query: [("-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", "-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")],
               canonicalHash: "c30d4703d9f799439be92736156d47ccfb2d879ddf56f5befa6d1d6aab979177",
               headerSignature: "9c3e54bfcdf0b19771a7f523ee5669cdf59bc7cc0884027167c21bb143a40197",
               querySignature: "8e76a88a7433637b12778d5592799b29ad21ecd6cf6325051c21d86f0acda2bf"),
        Vector(name: "get-utf8", path: "/\u{1234}",
               canonicalHash: "2a0a97d02205e45ce2e994789806b19270cfbbb0921b278ccf58f5249ac42102",
               headerSignature: "8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85",
               querySignature: "10eae3f14a260bd3911cc6d008d3c576d143b05b62f09782a7a4b37f52178e44"),
        Vector(name: "post-x-www-form-urlencoded", method: "POST",
               headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Content-Length", "13")], body: "Param1=value1", signBody: true,
               canonicalHash: "b1edd1d03544c25390e32085d55b57acc9a3961bb59415ff86c45c3d89d16cfb",
               headerSignature: "d3875051da38690788ef43de4db0d8f280229d82040bfac253562e56c3f20e0b",
               querySignature: "89a40deed0f26f9461242825a082d2222717248abc7ab41f552ad84a94ad46e9"),
    ]

    func testTheAWSTestSuiteVectorsForHeaderAndQuerySigning() {
        let signer = Self.suiteSigner
        let date = Self.suiteDate
        for vector in Self.vectors {
            let payloadHash = Hex.encode(Array(SHA256Digest(vector.body)))
            let request = SigV4Request(method: vector.method, path: vector.path, query: vector.query,
                                       headers: [("Host", "example.amazonaws.com")] + vector.headers)
            // Header signing: x-amz-date (and, when the body is signed, x-amz-content-sha256) are signed headers.
            let added = signer.sign(request, payloadHash: vector.signBody ? payloadHash : SigV4Signer.emptyPayloadHash, date: date, addContentHash: vector.signBody)
            var signedRequest = request
            signedRequest.headers += added.filter { $0.name != "Authorization" }
            let canonical = signer.canonicalRequest(signedRequest, payloadHash: vector.signBody ? payloadHash : SigV4Signer.emptyPayloadHash)
            let stringToSign = signer.stringToSign(canonicalRequest: canonical, date: date)
            XCTAssertEqual(stringToSign, "AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\n\(vector.canonicalHash)", vector.name)
            let authorization = added.first { $0.name == "Authorization" }?.value ?? ""
            XCTAssertTrue(authorization.hasSuffix("Signature=\(vector.headerSignature)"), "\(vector.name): \(authorization)")
            XCTAssertTrue(authorization.hasPrefix("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders="), vector.name)

            // Query signing: only the request's own headers are signed, not x-amz-date.
            let query = signer.presignedQuery(request, date: date, expires: 3600, payloadHash: vector.signBody ? payloadHash : SigV4Signer.emptyPayloadHash)
            XCTAssertTrue(query.hasSuffix("&X-Amz-Signature=\(vector.querySignature)"), "\(vector.name): \(query)")
        }
    }

    func testTheCanonicalRequestOfTheSuitesTrimVectorLineByLine() {
        let request = SigV4Request(method: "GET", path: "/", headers: [("Host", "example.amazonaws.com"), ("My-Header1", " value1"),
                                                                        ("My-Header2", " \"a   b   c\""), ("X-Amz-Date", "20150830T123600Z")])
        XCTAssertEqual(Self.suiteSigner.canonicalRequest(request, payloadHash: SigV4Signer.emptyPayloadHash), """
            GET
            /

            host:example.amazonaws.com
            my-header1:value1
            my-header2:"a b c"
            x-amz-date:20150830T123600Z

            host;my-header1;my-header2;x-amz-date
            e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
            """)
    }

    /// 300 generated S3 requests (keys with spaces, `+`, `%`, non-ASCII, query parameters that need
    /// encoding, user metadata headers, session tokens) signed by Livery and by botocore.
    func testSignaturesAgreeWithBotocoreOnGeneratedS3Requests() throws {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abcXYZ019-_.~ +%=&/?#é日本!*'()") .map(String.init)
        func text(_ length: Int) -> String { (0..<length).map { _ in alphabet.randomElement(using: &generator)! }.joined() }
        var cases: [[String: Any]] = []
        for index in 0..<300 {
            let key = (0..<Int.random(in: 1...4)).map { _ in text(Int.random(in: 1...12)).replacingOccurrences(of: "/", with: "") }
                .map { $0.isEmpty ? "x" : $0 }.joined(separator: "/")
            var query: [[String]] = []
            if index % 3 == 0 { query.append(["partNumber", String(index % 50 + 1)]); query.append(["uploadId", text(20)]) }
            if index % 5 == 1 { query.append(["list-type", "2"]); query.append(["prefix", text(8)]) }
            var headers: [[String]] = [["Content-Type", ["application/zip", "application/json", "text/plain; charset=utf-8"][index % 3]]]
            if index % 2 == 0 { headers.append(["x-amz-meta-sha256", String(repeating: "ab", count: 32)]) }
            if index % 4 == 0 { headers.append(["Cache-Control", "public,  max-age=31536000,   immutable"]) }
            if index % 7 == 0 { headers.append(["If-None-Match", "*"]) }
            cases.append(["access_key": "AKIA" + text(8).filter(\.isLetter).uppercased() + "Q", "secret_key": text(30),
                          "token": index % 6 == 0 ? text(40) : NSNull(), "region": ["us-east-1", "eu-west-3", "auto"][index % 3],
                          "method": ["PUT", "GET", "HEAD", "POST", "DELETE"][index % 5], "path": "/bucket-\(index % 7)/" + key,
                          "query": query, "headers": headers, "body": text(index),
                          "host": "127.0.0.1:\(9000 + index % 3)", "expires": 60 + index])
        }
        let answers = try Self.botocore(cases)
        XCTAssertEqual(answers.count, cases.count)
        for (index, (input, answer)) in zip(cases, answers).enumerated() {
            let token = input["token"] as? String
            let signer = SigV4Signer(credentials: AWSCredentials(accessKeyID: input["access_key"] as! String, secretAccessKey: input["secret_key"] as! String, sessionToken: token),
                                     region: input["region"] as! String)
            let host = input["host"] as! String
            let headers = (input["headers"] as! [[String]]).map { (name: $0[0], value: $0[1]) } + [("host", host)]
            let query = (input["query"] as! [[String]]).map { (name: $0[0], value: $0[1]) }
            let request = SigV4Request(method: input["method"] as! String, path: input["path"] as! String, query: query, headers: headers)
            let date = try XCTUnwrap(Self.date(answer["date"] as! String))
            let added = signer.sign(request, payloadHash: Hex.encode(Array(SHA256Digest(input["body"] as! String))), date: date)
            XCTAssertEqual(added.first { $0.name == "Authorization" }?.value, answer["authorization"] as? String, "case \(index): \(input)")

            let presigned = answer["presigned"] as! String
            let presignDate = try XCTUnwrap(Self.date(String(presigned.components(separatedBy: "X-Amz-Date=")[1].prefix(16))))
            let ours = signer.presignedQuery(SigV4Request(method: "GET", path: input["path"] as! String, headers: [("host", host)]),
                                             date: presignDate, expires: input["expires"] as! Int)
            XCTAssertEqual(Self.queryItems(ours), Self.queryItems(String(presigned.split(separator: "?", maxSplits: 1)[1])), "case \(index)")
            XCTAssertEqual(SigV4Signer.encodePath(input["path"] as! String), String(presigned.dropFirst("http://\(host)".count).split(separator: "?")[0]), "case \(index)")
        }
    }

    static func queryItems(_ query: String) -> [String: String] {
        Dictionary(uniqueKeysWithValues: query.split(separator: "&").map { pair -> (String, String) in
            let parts = pair.split(separator: "=", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        })
    }

    static func date(_ stamp: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.date(from: stamp)
    }

    /// Runs scripts/sigv4-oracle.py with the venv's python (botocore from PyPI, see `make test-venv`).
    static func botocore(_ cases: [[String: Any]]) throws -> [[String: Any]] {
        let python = LiveryProcess.packageRoot.appendingPathComponent(".venv-test/bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            XCTFail("\(python.path) is missing: run `make test-deps` (it installs botocore into .venv-test)")
            return []
        }
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("sigv4-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: cases).write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let output = try LiveryProcess.tool([python.path, LiveryProcess.packageRoot.appendingPathComponent("scripts/sigv4-oracle.py").path], input: input)
        if output.status == 3 { XCTFail("botocore is missing from .venv-test: run `make test-deps`"); return [] }
        guard output.status == 0 else { XCTFail("the botocore oracle failed: \(output.stderr)"); return [] }
        return try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]] ?? []
    }
}

import Crypto

/// SHA-256 of a string's UTF-8 bytes.
private func SHA256Digest(_ text: String) -> SHA256.Digest { SHA256.hash(data: Data(text.utf8)) }

/// Where `livery publish` goes and as whom: `s3://` addresses and the AWS tools' resolution order.
final class S3ConfigurationTests: XCTestCase {
    func testS3AddressesAreParsedStrictly() throws {
        XCTAssertEqual(try S3Location(parsing: "s3://releases/apps/prod/"), S3Location(bucket: "releases", prefix: "apps/prod"))
        XCTAssertEqual(try S3Location(parsing: "s3://releases"), S3Location(bucket: "releases", prefix: ""))
        XCTAssertEqual(S3Location(bucket: "b", prefix: "").key("t/release.json"), "t/release.json")
        for (bad, message) in [("https://releases/apps", "is not an s3:// address"), ("s3://Releases/x", "is not a bucket name"),
                               ("s3://ab/x", "is not a bucket name"), ("s3://-bucket/x", "is not a bucket name"),
                               ("s3://bucket/a/../b", "has a '.' or '..' component"), ("s3://bucket_name", "is not a bucket name")] {
            XCTAssertThrowsError(try S3Location(parsing: bad), bad) { error in
                XCTAssertTrue("\(error)".contains(message), "\(bad): \(error)")
            }
        }
    }

    func testEnvironmentThenProfileFilesAsTheAWSToolsResolveThem() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livery-aws-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("config"), credentials = folder.appendingPathComponent("credentials")
        try """
            [default]
            region = eu-west-3
            [profile r2]
            region = auto
            endpoint_url = https://acct.r2.cloudflarestorage.com
            s3 =
              addressing_style = virtual
            """.write(to: config, atomically: true, encoding: .utf8)
        try """
            # comment
            [default]
            aws_access_key_id = AKIADEFAULT
            aws_secret_access_key = default-secret
            [r2]
            aws_access_key_id = R2KEY
            aws_secret_access_key = r2-secret
            aws_session_token = r2-token
            """.write(to: credentials, atomically: true, encoding: .utf8)
        let files = ["AWS_CONFIG_FILE": config.path, "AWS_SHARED_CREDENTIALS_FILE": credentials.path, "HOME": folder.path]

        let plain = try S3Configuration.resolve(endpoint: nil, addressing: nil, environment: files)
        XCTAssertEqual(plain.region, "eu-west-3")
        XCTAssertEqual(plain.credentials, AWSCredentials(accessKeyID: "AKIADEFAULT", secretAccessKey: "default-secret"))
        XCTAssertEqual(plain.endpoint.absoluteString, "https://s3.eu-west-3.amazonaws.com")
        XCTAssertEqual(plain.addressing, .virtualHost, "AWS itself: virtual-host")

        let r2 = try S3Configuration.resolve(endpoint: nil, addressing: nil, environment: files.merging(["AWS_PROFILE": "r2"]) { $1 })
        XCTAssertEqual(r2.region, "auto")
        XCTAssertEqual(r2.credentials, AWSCredentials(accessKeyID: "R2KEY", secretAccessKey: "r2-secret", sessionToken: "r2-token"))
        XCTAssertEqual(r2.endpoint.absoluteString, "https://acct.r2.cloudflarestorage.com")
        XCTAssertEqual(r2.addressing, .virtualHost, "the profile's nested s3.addressing_style")

        // The environment wins over the files, and the option over the environment.
        let env = try S3Configuration.resolve(endpoint: "http://127.0.0.1:7480", addressing: nil, environment: files.merging([
            "AWS_ACCESS_KEY_ID": "ENVKEY", "AWS_SECRET_ACCESS_KEY": "env-secret", "AWS_REGION": "us-west-2", "AWS_ENDPOINT_URL": "http://ignored:1"]) { $1 })
        XCTAssertEqual(env.credentials.accessKeyID, "ENVKEY")
        XCTAssertEqual(env.region, "us-west-2")
        XCTAssertEqual(env.endpoint.absoluteString, "http://127.0.0.1:7480")
        XCTAssertEqual(env.addressing, .path, "any other endpoint: path-style")

        XCTAssertThrowsError(try S3Configuration.resolve(endpoint: nil, addressing: nil, environment: ["HOME": folder.path, "AWS_CONFIG_FILE": "/nonexistent",
                                                                                                     "AWS_SHARED_CREDENTIALS_FILE": "/nonexistent"])) { error in
            XCTAssertTrue("\(error)".contains("no S3 credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"), "\(error)")
        }
        for bad in ["ftp://host", "http://host/path", "not a url", "http://host?x=1"] {
            XCTAssertThrowsError(try S3Configuration.resolve(endpoint: bad, addressing: nil, environment: files), bad) { error in
                XCTAssertTrue("\(error)".contains("is not an endpoint URL"), "\(bad): \(error)")
            }
        }
    }
}
