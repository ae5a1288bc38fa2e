import Crypto
import Foundation
import XCTest
import _CryptoExtras
import LiveryClient
@testable import LiveryClientCore
import LiverySign
@testable import LiveryReleaseFormat

/// The client's trust logic fed bytes and a clock: no server, no disk (the sans-I/O shape).
final class TrustedMetadataSetTests: XCTestCase {
    /// A small repository in memory: one Ed25519 key per top-level role, files signed on demand.
    struct Repo {
        var keys: [TUFRole: Curve25519.Signing.PrivateKey] = Dictionary(uniqueKeysWithValues: TUFRole.allCases.map { ($0, Curve25519.Signing.PrivateKey()) })
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        var future: Date { now.addingTimeInterval(86_400) }
        var past: Date { now.addingTimeInterval(-1) }

        func sign(_ signed: JSONValue, by roles: [TUFRole]) throws -> Data {
            var metadata = SignedMetadata(signed: signed)
            for role in roles { try metadata.sign(with: keys[role]!) }
            return try metadata.bytes()
        }

        func root(version: Int = 1, expires: Date? = nil, threshold: [TUFRole: Int] = [:]) -> JSONValue {
            TUFDocument.root(version: version, expires: expires ?? future, keys: keys.mapValues { [TUFKey($0.publicKey)] },
                             thresholds: threshold)
        }

        func targets(version: Int = 1, expires: Date? = nil, files: [String: Data] = [:], delegations: Delegations? = nil) -> JSONValue {
            TUFDocument.targets(version: version, expires: expires ?? future,
                                targets: files.mapValues { TUFDocument.target(length: $0.count, sha256: SHA256.hash(data: $0).hexString, custom: nil) },
                                delegations: delegations)
        }

        func snapshot(version: Int = 1, expires: Date? = nil, targets: Data, targetsVersion: Int = 1, delegated: [String: (Int, Data)] = [:]) -> JSONValue {
            TUFDocument.snapshot(version: version, expires: expires ?? future, targets: Self.meta(targetsVersion, targets),
                                 delegated: delegated.mapValues { Self.meta($0.0, $0.1) })
        }

        func timestamp(version: Int = 1, expires: Date? = nil, snapshot: Data, snapshotVersion: Int = 1) -> JSONValue {
            TUFDocument.timestamp(version: version, expires: expires ?? future, snapshot: Self.meta(snapshotVersion, snapshot))
        }

        static func meta(_ version: Int, _ data: Data) -> MetaFile {
            MetaFile(version: version, length: data.count, sha256: SHA256.hash(data: data).hexString)
        }

        /// A consistent chain root → timestamp → snapshot → targets.
        func chain(targetsVersion: Int = 1, snapshotVersion: Int = 1, timestampVersion: Int = 1) throws -> (root: Data, timestamp: Data, snapshot: Data, targets: Data) {
            let targets = try sign(targets(version: targetsVersion), by: [.targets])
            let snapshot = try sign(snapshot(version: snapshotVersion, targets: targets, targetsVersion: targetsVersion), by: [.snapshot])
            let timestamp = try sign(timestamp(version: timestampVersion, snapshot: snapshot, snapshotVersion: snapshotVersion), by: [.timestamp])
            return (try sign(root(), by: [.root]), timestamp, snapshot, targets)
        }
    }

    /// Runs a Python oracle: `input` as JSON on its standard input, its JSON answer parsed.
    static func python(_ script: String, input: Any) throws -> Any {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        stdin.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: input))
        try stdin.fileHandleForWriting.close()
        let answer = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return try JSONSerialization.jsonObject(with: answer)
    }

    func kind(_ body: () throws -> Void) -> TUFError.Kind? {
        do { try body() } catch let error as TUFError { return error.kind } catch { return nil }
        return nil
    }

    func testACleanChainIsTrustedInOrder() throws {
        let repo = Repo()
        let chain = try repo.chain()
        var set = try TrustedMetadataSet(root: chain.root, now: repo.now)
        try set.updateTimestamp(chain.timestamp)
        try set.updateSnapshot(chain.snapshot)
        try set.updateTargets(chain.targets)
        XCTAssertEqual(set.targets["targets"]?.signed.version, 1)
    }

    func testTwoSignaturesUnderOneKeyIDAreRefusedEvenWhenBothAreValid() throws {
        let repo = Repo()
        let chain = try repo.chain()
        var envelope = try SignedMetadata(data: chain.snapshot)
        envelope.signatures.append(envelope.signatures[0])
        var set = try TrustedMetadataSet(root: chain.root, now: repo.now)
        try set.updateTimestamp(try repo.sign(repo.timestamp(snapshot: try envelope.bytes()), by: [.timestamp]))
        XCTAssertEqual(kind { try set.updateSnapshot(try envelope.bytes()) }, .malformed)
        XCTAssertNil(set.snapshot)
    }

    func testOneKeyListedTwiceCannotMeetAThresholdOfTwo() throws {
        let repo = Repo()
        let root = repo.root(threshold: [.snapshot: 2])
        // A role listing one key id twice is malformed (python-tuf: "Nonunique keyids").
        var roles = root["roles"]!.objectValue!
        let id = TUFKey(repo.keys[.snapshot]!.publicKey).keyID
        roles["snapshot"] = .object(["keyids": .array([.string(id), .string(id)]), "threshold": .int(2)])
        var object = root.objectValue!
        object["roles"] = .object(roles)
        XCTAssertEqual(kind { _ = try TrustedMetadataSet(root: try repo.sign(.object(object), by: [.root]), now: repo.now) }, .malformed)
        // Listed once with threshold 2, one signature is one signature.
        let chain = try repo.chain()
        var set = try TrustedMetadataSet(root: try repo.sign(root, by: [.root]), now: repo.now)
        try set.updateTimestamp(chain.timestamp)
        XCTAssertEqual(kind { try set.updateSnapshot(chain.snapshot) }, .unsigned)
    }

    func testExpiredRolesAreRefusedAtTheirStep() throws {
        let repo = Repo()
        let chain = try repo.chain()
        // Timestamp.
        var set = try TrustedMetadataSet(root: chain.root, now: repo.now)
        XCTAssertEqual(kind { try set.updateTimestamp(try repo.sign(repo.timestamp(expires: repo.past, snapshot: chain.snapshot), by: [.timestamp])) }, .expired)
        // Snapshot.
        let expiredSnapshot = try repo.sign(repo.snapshot(expires: repo.past, targets: chain.targets), by: [.snapshot])
        set = try TrustedMetadataSet(root: chain.root, now: repo.now)
        try set.updateTimestamp(try repo.sign(repo.timestamp(snapshot: expiredSnapshot), by: [.timestamp]))
        XCTAssertEqual(kind { try set.updateSnapshot(expiredSnapshot) }, .expired)
        // Targets.
        let expiredTargets = try repo.sign(repo.targets(expires: repo.past), by: [.targets])
        let snapshot = try repo.sign(repo.snapshot(targets: expiredTargets), by: [.snapshot])
        set = try TrustedMetadataSet(root: chain.root, now: repo.now)
        try set.updateTimestamp(try repo.sign(repo.timestamp(snapshot: snapshot), by: [.timestamp]))
        try set.updateSnapshot(snapshot)
        XCTAssertEqual(kind { try set.updateTargets(expiredTargets) }, .expired)
        XCTAssertNil(set.targets["targets"])
        // Root, once the walk is over.
        set = try TrustedMetadataSet(root: try repo.sign(repo.root(expires: repo.past), by: [.root]), now: repo.now)
        XCTAssertEqual(kind { try set.updateTimestamp(chain.timestamp) }, .expired)
    }

    func testTimestampRollbackEqualVersionAndSnapshotRollback() throws {
        let repo = Repo()
        let v2 = try repo.chain(snapshotVersion: 2, timestampVersion: 2)
        var set = try TrustedMetadataSet(root: v2.root, now: repo.now)
        try set.updateTimestamp(v2.timestamp)
        let v1 = try repo.chain()
        XCTAssertEqual(kind { try set.updateTimestamp(v1.timestamp) }, .badVersion)
        XCTAssertEqual(kind { try set.updateTimestamp(v2.timestamp) }, .equalVersion)
        // A newer timestamp naming an older snapshot.
        let older = try repo.sign(repo.timestamp(version: 3, snapshot: v1.snapshot, snapshotVersion: 1), by: [.timestamp])
        XCTAssertEqual(kind { try set.updateTimestamp(older) }, .badVersion)
    }

    func testASnapshotMayNeitherDropNorRollBackARole() throws {
        let repo = Repo()
        let creator = try repo.sign(repo.targets(), by: [.targets])
        let targets = try repo.sign(repo.targets(version: 2), by: [.targets])
        let first = try repo.sign(repo.snapshot(targets: targets, targetsVersion: 2, delegated: ["creator": (1, creator)]), by: [.snapshot])
        var set = try TrustedMetadataSet(root: try repo.sign(repo.root(), by: [.root]), now: repo.now)
        try set.updateTimestamp(try repo.sign(repo.timestamp(snapshot: first), by: [.timestamp]))
        try set.updateSnapshot(first)
        // The next refresh starts from the kept timestamp and snapshot.
        var next = try TrustedMetadataSet(root: try repo.sign(repo.root(), by: [.root]), now: repo.now)
        try next.updateTimestamp(try repo.sign(repo.timestamp(snapshot: first), by: [.timestamp]))
        try next.updateSnapshot(first, verified: true)
        let dropped = try repo.sign(repo.snapshot(version: 2, targets: targets, targetsVersion: 2), by: [.snapshot])
        let rolledBack = try repo.sign(repo.snapshot(version: 2, targets: targets, targetsVersion: 1, delegated: ["creator": (1, creator)]), by: [.snapshot])
        for (bad, expected) in [(dropped, TUFError.Kind.repository), (rolledBack, .badVersion)] {
            var attempt = next
            // (A new timestamp is not needed to test the snapshot step: verified skips its hashes.)
            XCTAssertEqual(kind { try attempt.updateSnapshot(bad, verified: true) }, expected)
        }
    }

    func testRootUpdatesMustBeTheNextVersionSignedByOldAndNewKeys() throws {
        var repo = Repo()
        let root1 = try repo.sign(repo.root(), by: [.root])
        var set = try TrustedMetadataSet(root: root1, now: repo.now)
        XCTAssertEqual(kind { try set.updateRoot(try repo.sign(repo.root(version: 3), by: [.root])) }, .badVersion)
        let old = repo.keys[.root]!
        repo.keys[.root] = Curve25519.Signing.PrivateKey()
        // Signed only by the new key: the trusted root's keys did not approve it.
        XCTAssertEqual(kind { try set.updateRoot(try repo.sign(repo.root(version: 2), by: [.root])) }, .unsigned)
        var both = SignedMetadata(signed: repo.root(version: 2))
        try both.sign(with: old)
        try both.sign(with: repo.keys[.root]!)
        try set.updateRoot(try both.bytes())
        XCTAssertEqual(set.root.signed.version, 2)
    }

    func testATargetIsCheckedAgainstEveryHashItsVerifierKnows() throws {
        let data = Data("bundle".utf8)
        func file(_ hashes: [String: String]) throws -> TargetFile {
            try TargetFile(path: "a", json: .object(["length": .int(data.count), "hashes": .object(hashes.mapValues(JSONValue.string))]))
        }
        let sha256 = SHA256.hash(data: data).hexString, sha512 = Data(SHA512.hash(data: data)).hexString
        XCTAssertNoThrow(try file(["sha512": sha512]).file.verify(data, what: "a"))
        XCTAssertNoThrow(try file(["sha256": sha256, "sha512": sha512]).file.verify(data, what: "a"))
        XCTAssertEqual(kind { try file(["sha256": sha256, "sha512": String(repeating: "0", count: 128)]).file.verify(data, what: "a") }, .lengthOrHashMismatch)
        XCTAssertEqual(kind { try file(["blake3": sha256]).file.verify(data, what: "a") }, .lengthOrHashMismatch)
        XCTAssertNoThrow(try file(["sha256": sha256, "blake3": "whatever"]).file.verify(data, what: "a"))
        XCTAssertEqual(kind { _ = try file([:]) }, .malformed)
    }

    func testADelegatedRoleReachedThroughAnotherDelegatorIsVerifiedAgain() throws {
        let repo = Repo()
        let keyA = Curve25519.Signing.PrivateKey(), keyB = Curve25519.Signing.PrivateKey()
        func delegating(to key: Curve25519.Signing.PrivateKey, paths: [String]) -> Delegations {
            Delegations(keys: [TUFKey(key.publicKey).keyID: TUFKey(key.publicKey)],
                        roles: [DelegatedRole(name: "release", keyIDs: [TUFKey(key.publicKey).keyID], paths: paths, terminating: false)])
        }
        var release = SignedMetadata(signed: repo.targets(files: ["a/x": Data("a".utf8), "b/x": Data("b".utf8)]))
        try release.sign(with: keyA)
        let releaseBytes = try release.bytes()
        var parentA = SignedMetadata(signed: repo.targets(delegations: delegating(to: keyA, paths: ["a/*"])))
        var parentB = SignedMetadata(signed: repo.targets(delegations: delegating(to: keyB, paths: ["b/*"])))
        try parentA.sign(with: repo.keys[.targets]!)
        try parentB.sign(with: repo.keys[.targets]!)
        let top = Delegations(keys: [TUFKey(repo.keys[.targets]!.publicKey).keyID: TUFKey(repo.keys[.targets]!.publicKey)],
                              roles: [DelegatedRole(name: "A", keyIDs: [TUFKey(repo.keys[.targets]!.publicKey).keyID], paths: ["a/*"], terminating: false),
                                      DelegatedRole(name: "B", keyIDs: [TUFKey(repo.keys[.targets]!.publicKey).keyID], paths: ["b/*"], terminating: false)])
        let targets = try repo.sign(repo.targets(delegations: top), by: [.targets])
        let snapshot = try repo.sign(repo.snapshot(targets: targets, delegated: ["A": (1, try parentA.bytes()), "B": (1, try parentB.bytes()), "release": (1, releaseBytes)]), by: [.snapshot])
        var set = try TrustedMetadataSet(root: try repo.sign(repo.root(), by: [.root]), now: repo.now)
        try set.updateTimestamp(try repo.sign(repo.timestamp(snapshot: snapshot), by: [.timestamp]))
        try set.updateSnapshot(snapshot)
        try set.updateTargets(targets)
        try set.updateDelegatedTargets(try parentA.bytes(), role: "A", delegator: "targets")
        try set.updateDelegatedTargets(try parentB.bytes(), role: "B", delegator: "targets")
        try set.updateDelegatedTargets(releaseBytes, role: "release", delegator: "A")
        XCTAssertNoThrow(try set.verifyDelegation(of: "release", by: "A"))
        XCTAssertEqual(kind { try set.verifyDelegation(of: "release", by: "B") }, .unsigned)
        // The whole-release view finds a/x through A, and not b/x, which only B could authorise.
        let trusted = try TrustedMetadata(set)
        XCTAssertEqual(trusted.signer(of: "a/x"), "release")
        XCTAssertNil(trusted.signer(of: "b/x"))
    }

    func testPathPatternsMatchPartByPartCaseSensitively() {
        let cases: [(String, String, Bool)] = [
            ("*", "a", true), ("*", "a/b", false), ("a/*", "a/b", true), ("a/*", "a/b/c", false), ("*/*", "a/b", true),
            ("a?", "ab", true), ("a?", "a/", false), ("A*", "a1", false), ("[ab]*", "b1", true), ("[!ab]*", "b1", false),
            ("a\\*", "a\\x", true), ("", "", true), ("*.zip", ".zip", true), ("tour.*", "tour.x.zip", true),
        ]
        for (pattern, target, expected) in cases {
            XCTAssertEqual(DelegatedRole.pattern(pattern, matches: target), expected, "\(pattern) ~ \(target)")
        }
    }

    func testPathPatternsAgreeWithPythonsFnmatchcase() throws {
        let patterns = ["*", "*.zip", "?.zip", "[^d]*.zip", "[[:lower:]]*.zip", "[!c]*", "[a-c]*", "[z-a]*", "[]]x", "[!]]x", "[", "a[", "[a-]x",
                        "\\*", "é?", "*a*b", "**", "core.zip", "tour.*", "?", "[!a-c]?", "[-a]x", "*[0-9]"]
        let names = ["core.zip", "d.zip", "é.zip", "a", "bx", "]x", "-x", "ax", "[", "a[", "\\x", "éé", "xaxb", "tour.x", "", "z9", "cde", "^x"]
        let script = "import sys, json, fnmatch; p, n = json.load(sys.stdin); print(json.dumps([[fnmatch.fnmatchcase(b, a) for b in n] for a in p]))"
        let expected = try XCTUnwrap(try Self.python(script, input: [patterns, names]) as? [[Bool]])
        for (i, pattern) in patterns.enumerated() {
            for (j, name) in names.enumerated() {
                XCTAssertEqual(DelegatedRole.pattern(pattern, matches: name), expected[i][j], "'\(pattern)' ~ '\(name)'")
            }
        }
    }

    func testRoleNamesAreQuotedAsPythonTUFQuotesThem() throws {
        let names = ["targets", "?", "#", "/delegatedrole", "../delegatedrole", "..", "a b", "a+b", "~user", "%41", "café", "日本", "a\u{0}b",
                     "emoji 🎧", "x/y/z", "CON", "tab\tline\nnew", "quote\"s", "back\\slash", "semi;colon", "eq=amp&"]
        let script = "import sys, json, urllib.parse; print(json.dumps([urllib.parse.quote(n, '') for n in json.load(sys.stdin)]))"
        let expected = try XCTUnwrap(try Self.python(script, input: names) as? [String])
        XCTAssertEqual(names.map(TUFName.quoted), expected)
        for name in names { XCTAssertFalse(TUFName.fileName(ofRole: name).contains("/"), name) }
    }

    func testRSAPSSSignaturesVerify() throws {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let tufKey = try TUFKey(json: .object(["keytype": .string("rsa"), "scheme": .string("rsassa-pss-sha256"),
                                               "keyval": .object(["public": .string(key.publicKey.pemRepresentation)])]))
        XCTAssertTrue(tufKey.isSupported)
        let message = Data("signed bytes".utf8)
        let signature = try key.signature(for: message, padding: .PSS).rawRepresentation.hexString
        XCTAssertTrue(tufKey.verifies(signature, of: message))
        XCTAssertFalse(tufKey.verifies(signature, of: Data("other bytes".utf8)))
        // The same key under the PKCS#1 v1.5 scheme name is not this client's to verify.
        let other = try TUFKey(json: .object(["keytype": .string("rsa"), "scheme": .string("rsa-pkcs1v15-sha256"),
                                              "keyval": .object(["public": .string(key.publicKey.pemRepresentation)])]))
        XCTAssertFalse(other.verifies(signature, of: message))
    }

    func testStrictFieldsAreRefusedAsMalformed() throws {
        let repo = Repo()
        let base = repo.targets().objectValue!
        for (field, value) in [("version", JSONValue.int(0)), ("version", .string("1")), ("expires", .string("2030-01-01")),
                               ("spec_version", .string("2.0.0")), ("targets", .array([]))] {
            var edited = base
            edited[field] = value
            XCTAssertEqual(kind { _ = try Metadata<Targets>(data: try repo.sign(.object(edited), by: [.targets])) }, .malformed, "\(field) = \(value)")
        }
        XCTAssertEqual(kind { _ = try Metadata<Snapshot>(data: try repo.sign(.object(base), by: [.targets])) }, .wrongType)
    }
}

/// A number no `Int` holds where metadata wants a whole number (a threshold, a version) is
/// malformed metadata, not a crash: `Int(1e300)` traps, so `intValue` refuses it first.
final class HugeNumberTests: XCTestCase {
    func testAThresholdOf1e300IsRefusedNotATrap() throws {
        XCTAssertNil(JSONValue.double(1e300).intValue)
        XCTAssertNil(JSONValue.double(-9.3e18).intValue)
        XCTAssertEqual(JSONValue.double(42).intValue, 42)
        let key = TUFKey(Curve25519.Signing.PrivateKey().publicKey)
        let root = TUFDocument.root(version: 1, expires: Date().addingTimeInterval(86_400), keys: Dictionary(uniqueKeysWithValues: TUFRole.allCases.map { ($0, [key]) }), thresholds: [:])
        let text = String(decoding: SignedMetadata(signed: root).json.bytes, as: UTF8.self).replacingOccurrences(of: "\"threshold\":1", with: "\"threshold\":1e300")
        XCTAssertTrue(text.contains("1e300"))
        XCTAssertThrowsError(try Metadata<Root>(data: Data(text.utf8))) { XCTAssertEqual(($0 as? TUFError)?.kind, .malformed, "\($0)") }
        let version = String(decoding: SignedMetadata(signed: root).json.bytes, as: UTF8.self).replacingOccurrences(of: "\"version\":1", with: "\"version\":1e300")
        XCTAssertThrowsError(try Metadata<Root>(data: Data(version.utf8)))
        XCTAssertNil(try SignedMetadata(data: Data(version.utf8)).version)
    }
}
