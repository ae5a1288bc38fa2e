import Foundation
import LiveryReleaseFormat

/// Attacks on the TUF metadata: freeze, rollback, mix-and-match, endless data, forged or
/// misused signatures, and the wrong role in the wrong place.
enum MetadataAttacks {
    static let keys = ValidCases.keys

    static func expired(_ role: String) throws -> VectorCase {
        var repository = try VectorRepository(keys: keys)
        let release = VectorRelease.standard(1)
        try repository.publish(release.targets, expires: [role: Expires.past])
        let file = role == "timestamp" ? "timestamp.json" : "1.\(role).json"
        return VectorCase(
            id: "expired-\(role)", summary: "Freeze: the \(role) metadata expired in 2000.",
            description: """
                \(file) expired on \(Expires.past); every other file is valid until \(Expires.future). A server that \
                keeps serving old metadata (a freeze attack) can hold a client back only until that metadata expires: \
                the client must refuse the refresh and install nothing.
                """,
            trustedRoot: repository.firstRoot,
            steps: [.refuse(repository, download: release.essentials, .expiredMetadata, at: .refresh)])
    }

    /// Release 1, then release 2: the state every rollback case starts from (client trusts v2).
    private static func twoReleases() throws -> (VectorRepository, VectorRelease, Data) {
        var repository = try VectorRepository(keys: keys)
        try repository.publish(VectorRelease.standard(1).targets)
        let firstTimestamp = repository.metadata["timestamp.json"] ?? Data()
        let second = VectorRelease.standard(2)
        try repository.publish(second.targets)
        return (repository, second, firstTimestamp)
    }

    static func timestampRollback() throws -> VectorCase {
        let (trusted, second, firstTimestamp) = try twoReleases()
        var attacked = trusted
        attacked.metadata["timestamp.json"] = firstTimestamp
        return VectorCase(
            id: "timestamp-rollback", summary: "Rollback: the server replays timestamp v1 after the client saw v2.",
            description: """
                Step 1: release 2 (timestamp, snapshot and targets v2). Step 2: the server serves the genuine timestamp v1 \
                again (naming snapshot v1 and release 1), still unexpired. Its version is lower than the trusted v2: the \
                client must refuse (specification §5.4.3.1) and keep release 2.
                """,
            trustedRoot: trusted.firstRoot,
            steps: [
                .accept(trusted, download: second.essentials, holding: second),
                .refuse(attacked, download: second.essentials, .badVersionNumber, at: .refresh),
            ])
    }

    static func snapshotRollback() throws -> VectorCase {
        let (trusted, second, _) = try twoReleases()
        var attacked = trusted
        _ = try attacked.publishTimestamp(snapshot: 1)
        return VectorCase(
            id: "snapshot-rollback", summary: "Rollback: a new timestamp (v3) names the old snapshot v1.",
            description: """
                Step 1: release 2 (snapshot v2). Step 2: a validly signed timestamp v3 names snapshot v1, the snapshot of \
                release 1. The snapshot version it names is lower than the one the trusted timestamp named: the client \
                must refuse (specification §5.4.3.2) and keep release 2.
                """,
            trustedRoot: trusted.firstRoot,
            steps: [
                .accept(trusted, download: second.essentials, holding: second),
                .refuse(attacked, download: second.essentials, .badVersionNumber, at: .refresh),
            ])
    }

    static func targetsRollback() throws -> VectorCase {
        let (trusted, second, _) = try twoReleases()
        var attacked = trusted
        _ = try attacked.publishSnapshot(meta: ["targets.json": VectorRepository.meta(version: 1, of: trusted.metadata["1.targets.json"] ?? Data())])
        _ = try attacked.publishTimestamp()
        return VectorCase(
            id: "targets-rollback", summary: "Rollback: a new snapshot (v3) names the old targets v1.",
            description: """
                Step 1: release 2 (targets v2). Step 2: a validly signed snapshot v3 (named by timestamp v3) lists \
                targets.json version 1, the targets of release 1, with its correct length and hash. The targets version \
                is lower than the one in the trusted snapshot: the client must refuse (specification §5.5.5) and keep \
                release 2.
                """,
            trustedRoot: trusted.firstRoot,
            steps: [
                .accept(trusted, download: second.essentials, holding: second),
                .refuse(attacked, download: second.essentials, .badVersionNumber, at: .refresh),
            ])
    }

    static func targetsRoleRemoved() throws -> VectorCase {
        var trusted = try VectorRepository(keys: keys)
        let release = VectorRelease.standard(1, programs: ["yoga"])
        try trusted.publish(release.targets, delegations: [ValidCases.creatorRole(signs: ["program.yoga.zip"])])
        var attacked = trusted
        _ = try attacked.publishSnapshot(meta: ["targets.json": trusted.metaEntry("targets")])
        _ = try attacked.publishTimestamp()
        let download = release.essentials + ["program.yoga.zip"]
        return VectorCase(
            id: "targets-role-removed-from-snapshot", summary: "A new snapshot drops the delegated targets role the trusted one listed.",
            description: """
                Step 1: the delegated role `creator` signs program.yoga.zip and snapshot v1 lists creator.json. Step 2: \
                snapshot v2 (named by timestamp v2) lists only targets.json; the targets metadata still delegates to \
                `creator`. Every role file a trusted snapshot listed must stay listed (specification §5.5.5): the client \
                must refuse and keep release 1.
                """,
            trustedRoot: trusted.firstRoot,
            steps: [
                .accept(trusted, download: download, holding: release, programs: ["yoga"]),
                .refuse(attacked, download: download, .repositoryError, at: .refresh, programs: ["yoga"]),
            ])
    }

    /// Snapshot v2 carrying one key's signature twice: under a threshold of 2 (two snapshot keys), a
    /// bypass if both entries count; under a threshold of 1, a list that breaks the unique key id rule.
    static func duplicateSignatureKeyIDs(threshold: Int) throws -> VectorCase {
        var roleKeys = keys
        let first = VectorKey("vectors-snapshot")
        if threshold == 2 {
            roleKeys.snapshot = [first, VectorKey("vectors-snapshot-2")]
            roleKeys.thresholds["snapshot"] = 2
        }
        var repository = try VectorRepository(keys: roleKeys)
        let one = VectorRelease.standard(1)
        try repository.publish(one.targets)
        let before = repository
        let two = VectorRelease.standard(2)
        try repository.publish(two.targets, signers: ["snapshot": [first, first]])
        let steps: [VectorStep] = [
            .accept(before, download: one.essentials, holding: one),
            .refuse(repository, download: two.essentials, .repositoryError, at: .refresh),
        ]
        if threshold == 2 {
            return VectorCase(
                id: "duplicate-signature-keyids", summary: "Threshold bypass: one key's signature twice under a threshold of 2.",
                description: """
                    The root gives the snapshot role two keys and a threshold of 2. Step 1: snapshot v1 is signed by both \
                    keys. Step 2: snapshot v2 carries the same valid signature of the first key twice (two entries with the \
                    same key id) and none by the second key. Key ids must be unique in the signatures list, and one key \
                    counts once towards a threshold: the client must refuse (python-tuf refuses the file as malformed; \
                    counting distinct keys gives a signature failure, also a RepositoryError) and keep release 1.
                    """,
                trustedRoot: repository.firstRoot, steps: steps)
        }
        return VectorCase(
            id: "duplicate-signature-keyids-threshold-1", summary: "One key's signature twice, where one signature would be enough.",
            description: """
                The snapshot role has one key and a threshold of 1. Step 1: snapshot v1 is signed once. Step 2: snapshot \
                v2 carries the same valid signature twice (two entries with the same key id). The threshold is met, but \
                the signatures list breaks the rule that key ids are unique in it (specification §4.2.1; \
                tuf-conformance test_duplicate_sig_keyids): the client must refuse the file and keep release 1.
                """,
            trustedRoot: repository.firstRoot, steps: steps)
    }

    static func timestampChangedSameVersion() throws -> VectorCase {
        var trusted = try VectorRepository(keys: keys)
        let one = VectorRelease.standard(1)
        try trusted.publish(one.targets)
        var changed = trusted
        try changed.publish(VectorRelease.standard(2).targets)
        _ = try changed.publishTimestamp(version: 1)
        return VectorCase(
            id: "timestamp-changed-same-version", summary: "A different timestamp with the version the client already trusts.",
            description: """
                Step 1: release 1 (timestamp v1). Step 2: the repository signs a new timestamp, still version 1, that names \
                snapshot v2 (release 2, also on the server). A timestamp whose version equals the trusted one is not an \
                update: the client keeps the timestamp it trusts, does not fetch snapshot v2, and stays on release 1. The \
                refresh succeeds (specification §5.4.3.1: a new timestamp with the trusted version is discarded, without \
                an error; python-tuf and the TUF conformance suite's test_timestamp_content_changes do the same).
                """,
            trustedRoot: trusted.firstRoot,
            steps: [
                .accept(trusted, download: one.essentials, holding: one),
                .accept(changed, download: one.essentials, holding: one),
            ])
    }

    static func mixAndMatch() throws -> VectorCase {
        var repository = try VectorRepository(keys: keys)
        let release = VectorRelease.standard(1)
        try repository.publish(release.targets)
        // Validly signed targets v1 of another repository state, with another core bundle.
        let other = VectorRelease.standard(1, core: [StoredZip.Entry(path: "assets/banner.txt", data: Data("from another state of the repository\n".utf8))])
        repository.add(other.targets)
        repository.metadata["1.targets.json"] = try Envelope(repository.targetsDocument(version: 1, expires: nil, entries: other.targets, delegations: []),
                                                             signedBy: keys.targets).bytes()
        return VectorCase(
            id: "mix-and-match", summary: "Mix-and-match: 1.targets.json is not the file the snapshot hashed.",
            description: """
                The served 1.targets.json is validly signed by the targets key and has the right version, but it is the \
                targets of another repository state (another core.zip): its length and SHA-256 are not those snapshot v1 \
                gives for targets.json. The client must check the hashes before using the file and refuse.
                """,
            trustedRoot: repository.firstRoot,
            steps: [.refuse(repository, download: release.essentials, .lengthOrHashMismatch, at: .refresh)])
    }

    static func endlessSnapshot() throws -> VectorCase {
        var repository = try VectorRepository(keys: keys)
        let release = VectorRelease.standard(1)
        try repository.publish(release.targets)
        let signedLength = repository.metadata["1.snapshot.json"]?.count ?? 0
        repository.metadata["1.snapshot.json"]?.append(Data(repeating: UInt8(ascii: " "), count: 1 << 20))
        return VectorCase(
            id: "endless-snapshot", summary: "Endless data: 1.snapshot.json is 1 MiB longer than its signed length.",
            description: """
                The timestamp gives 1.snapshot.json a length of \(signedLength) bytes; the server sends those bytes followed \
                by 1 MiB of spaces. A client must never read more than the signed length (a server could send data without \
                end): it stops at \(signedLength) + 1 bytes and refuses. A client that reads everything and then finds a \
                hash mismatch refuses too, but reports LengthOrHashMismatch, and is open to endless data.
                """,
            trustedRoot: repository.firstRoot,
            steps: [.refuse(repository, download: release.essentials, .downloadLengthMismatch, at: .refresh)])
    }

    static func rootSignedByUnknownKey() throws -> VectorCase {
        var repository = try VectorRepository(keys: keys)
        let release = VectorRelease.standard(1)
        try repository.publish(release.targets)
        var forged = keys
        let intruder = VectorKey("intruder-root")
        forged.root = [intruder]
        try repository.publishRoot(forged, signers: [intruder])
        return VectorCase(
            id: "root-signed-by-unknown-key", summary: "A 2.root.json signed only by a key the trusted root does not know.",
            description: """
                2.root.json names a new root key and is signed by that key alone. A new root must be signed by a threshold \
                of the trusted root's keys as well as its own (specification §5.3.4): the client must refuse it, keep \
                trusting root v1, and install nothing, although release 1 itself is validly signed.
                """,
            trustedRoot: repository.firstRoot,
            steps: [.refuse(repository, download: release.essentials, .badSignature, at: .refresh)])
    }

    static func wrongRoleType() throws -> VectorCase {
        var repository = try VectorRepository(keys: keys)
        let release = VectorRelease.standard(1)
        repository.add(release.targets)
        let genuine = try Envelope(repository.targetsDocument(version: 1, expires: nil, entries: release.targets, delegations: []), signedBy: keys.targets).bytes()
        // Served as 1.targets.json: snapshot metadata, version 1, signed with the targets key.
        let impostor = try repository.sign(VectorRepository.snapshotDocument(version: 1, expires: nil, meta: ["targets.json": VectorRepository.meta(version: 1, of: genuine)]),
                                           by: keys.targets, as: "1.targets.json")
        _ = try repository.publishSnapshot(meta: ["targets.json": VectorRepository.meta(version: 1, of: impostor)])
        _ = try repository.publishTimestamp()
        return VectorCase(
            id: "wrong-role-type", summary: "A snapshot document where the targets metadata is expected.",
            description: """
                1.targets.json holds snapshot metadata (`"_type": "snapshot"`, version 1), signed with the targets key, \
                and the snapshot gives its exact length and hash: only the type check can catch it. The client must \
                refuse metadata whose `_type` is not the role it asked for.
                """,
            trustedRoot: repository.firstRoot,
            steps: [.refuse(repository, download: release.essentials, .repositoryError, at: .refresh)])
    }

    static func rotatedOutKey() throws -> VectorCase {
        var repository = try VectorRepository(keys: keys)
        let one = VectorRelease.standard(1)
        try repository.publish(one.targets)
        let before = repository
        var rotated = keys
        rotated.timestamp = [VectorKey("rotated-timestamp-2")]
        try repository.publishRoot(rotated)
        let two = VectorRelease.standard(2)
        try repository.publish(two.targets, signers: ["timestamp": keys.timestamp])
        return VectorCase(
            id: "rotated-out-key", summary: "After a key rotation, the old timestamp key no longer counts.",
            description: """
                Step 1: release 1 under root v1. Step 2: 2.root.json (validly signed) replaces the timestamp key, but \
                timestamp v2 is signed with the old key. The client must trust root v2 (it verified), then refuse the \
                timestamp: a refresh that fails after the root update keeps the newer root (specification §5.3.8).
                """,
            trustedRoot: repository.firstRoot,
            steps: [
                .accept(before, download: one.essentials, holding: one),
                .refuse(repository, download: two.essentials, .badSignature, at: .refresh, rootVersion: 2),
            ])
    }
}
