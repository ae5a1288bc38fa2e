import Foundation
import LiveryReleaseFormat

/// Test vectors for TUF clients of Livery releases (docs/client-vectors.md): one folder per case,
/// each with a trusted root, one static repository per step and a `case.json` saying what a
/// conforming client must do. The same bytes on every run: fixed keys, fixed dates, fixed archives.
public enum ClientVectors {
    /// Every case, in the order of the index.
    public static func cases() throws -> [VectorCase] {
        [
            try ValidCases.cleanRelease(),
            try ValidCases.keyRotationChain(),
            try ValidCases.delegatedCreator(),
            try MetadataAttacks.expired("timestamp"),
            try MetadataAttacks.expired("snapshot"),
            try MetadataAttacks.expired("targets"),
            try MetadataAttacks.timestampRollback(),
            try MetadataAttacks.snapshotRollback(),
            try MetadataAttacks.targetsRollback(),
            try MetadataAttacks.targetsRoleRemoved(),
            try MetadataAttacks.duplicateSignatureKeyIDs(threshold: 2),
            try MetadataAttacks.duplicateSignatureKeyIDs(threshold: 1),
            try MetadataAttacks.timestampChangedSameVersion(),
            try MetadataAttacks.mixAndMatch(),
            try MetadataAttacks.endlessSnapshot(),
            try MetadataAttacks.rootSignedByUnknownKey(),
            try MetadataAttacks.rotatedOutKey(),
            try MetadataAttacks.wrongRoleType(),
            try DelegationAttacks.roleNotInSnapshot(),
            try DelegationAttacks.pathPatternDoesNotCoverTarget(),
            try DelegationAttacks.terminatingDelegationStopsSearch(),
            try DelegationAttacks.unrelatedRoleBroken(),
            try DelegationAttacks.cachedRoleVerifiedAgainstNewKey(),
            try BundleAttacks.tamperedBundle(),
            try BundleAttacks.zipSlipBundle(),
            try BundleAttacks.bundleOverSignedLength(),
            try DeltaCases.clean(),
            try DeltaCases.tamperedIndex(),
            try DeltaCases.tamperedEntry(),
            try DeltaCases.wrongBase(),
        ]
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    static let printer = VectorJSON(keyOrder: [
        "schemaVersion", "specVersion", "validUntil", "expiredAt", "errors", "cases", "id", "summary", "description", "release", "trustedRoot", "steps", "step", "repository", "request",
        "download", "corruptInstalled", "expect", "error", "phase", "rootVersion", "installedRelease", "holds", "target", "length", "sha256",
        "class", "parent", "meaning", "pythonTUF", "locale", "programs",
    ])

    /// Writes every case into `folder`, which must be missing or empty; returns the cases.
    @discardableResult
    public static func write(to folder: URL) throws -> [VectorCase] {
        let fm = FileManager.default
        if let existing = try? fm.contentsOfDirectory(atPath: folder.path), !existing.isEmpty {
            throw Failure(description: "\(folder.path) is not empty: write the vectors into a new or empty folder")
        }
        try fm.createDirectory(at: folder, withIntermediateDirectories: true)
        let all = try cases()
        for vector in all {
            let caseFolder = folder.appendingPathComponent(vector.id)
            try fm.createDirectory(at: caseFolder, withIntermediateDirectories: true)
            try vector.trustedRoot.write(to: caseFolder.appendingPathComponent("trusted-root.json"))
            for (index, step) in vector.steps.enumerated() {
                try step.repository.write(to: caseFolder.appendingPathComponent("steps/\(index + 1)"))
            }
            try printer.format(vector.json).write(to: caseFolder.appendingPathComponent("case.json"))
        }
        try printer.format(index(all)).write(to: folder.appendingPathComponent("index.json"))
        try printer.format(rolloutBuckets).write(to: folder.appendingPathComponent("rollout-buckets.json"))
        try Data(readme.utf8).write(to: folder.appendingPathComponent("README.md"))
        return all
    }

    /// `index.json`: the cases and the error vocabulary.
    static func index(_ cases: [VectorCase]) -> JSONValue {
        .object([
            "schemaVersion": .int(1),
            "specVersion": .string(TUFSpec.version),
            "validUntil": .string(Expires.future),
            "expiredAt": .string(Expires.past),
            "errors": .array(VectorErrorClass.allCases.map { error in
                .object(["class": .string(error.rawValue), "parent": error.parent.map { .string($0.rawValue) } ?? .null,
                         "meaning": .string(error.meaning), "pythonTUF": .string(error.pythonTUF)])
            }),
            "cases": .array(cases.map { vector in
                .object(["id": .string(vector.id), "summary": .string(vector.summary), "release": .bool(vector.release), "steps": .int(vector.steps.count)])
            }),
        ])
    }

    /// `rollout-buckets.json`: install ids with the bucket every client must compute for a staged
    /// release (docs/client.md#staged-rollout), and whether they take it at a few shares.
    static var rolloutBuckets: JSONValue {
        let cases: [(String, String, Int, String)] = [
            ("vectors", "stable", 2, "install-1"), ("vectors", "stable", 2, "install-2"), ("vectors", "stable", 3, "install-1"),
            ("vectors", "beta", 2, "install-1"), ("sonic-walkscape", "stable", 7, "5F3C2A9E-0B1D-4C7E-9A8B-77E1D2C3B4A5"),
            ("urbannest", "qa-team", 12, "00000000000000000000000000000000"), ("a", "b", 1, ""), ("companero", "stable", 41, "ñandú-✓"),
        ]
        let shares = [1, 1000, 5000, 9999]
        return .object([
            "schemaVersion": .int(1),
            "message": .string("livery-rollout-v1\\n<tenant>\\n<channel>\\n<release>\\n<installId> (UTF-8)"),
            "bucket": .string("the first 8 bytes of the message's SHA-256, big-endian, modulo 10000"),
            "takesStaged": .string("bucket < basisPoints"),
            "cases": .array(cases.map { tenant, channel, release, id in
                let bucket = RolloutStage.bucket(tenant: tenant, channel: channel, release: release, installID: id)
                return .object(["tenant": .string(tenant), "channel": .string(channel), "release": .int(release), "installId": .string(id), "bucket": .int(bucket),
                                "takesStaged": .object(Dictionary(uniqueKeysWithValues: shares.map { (String($0), JSONValue.bool(bucket < $0)) }))])
            }),
        ])
    }

    static let readme = """
        # Livery client test vectors

        Written by `livery vectors`. One folder per case: `case.json` says what a conforming client must
        do, `trusted-root.json` is the root it starts from, and `steps/<n>/` is the static repository
        (`metadata/`, `targets/`) the server offers at step n. `index.json` lists the cases and the
        error classes. Serve this folder with any static file server and run each case's steps in order
        with one client state. Livery's docs/client-vectors.md explains the format. `rollout-buckets.json`
        gives install ids with the staged-rollout bucket a client must compute for each.

        """
}
