import Foundation

/// Cases a conforming client accepts: a clean release, a chain of root rotations, a creator's
/// delegated role.
enum ValidCases {
    static let keys = RoleKeys.single("vectors")

    static func cleanRelease() throws -> VectorCase {
        var repository = try VectorRepository(keys: keys)
        let release = VectorRelease.standard(1)
        try repository.publish(release.targets)
        return VectorCase(
            id: "clean-release", summary: "A clean release: everything verifies.",
            description: """
                Release 1 signed with one key per role (threshold 1), as a first `livery build` publishes it. The client \
                refreshes from 1.root.json, downloads the download manifest and the two essential bundles (core.zip, \
                locale.en.zip), checks each against the signed length and SHA-256, and installs them.
                """,
            trustedRoot: repository.firstRoot,
            steps: [.accept(repository, download: release.essentials, holding: release)])
    }

    static func keyRotationChain() throws -> VectorCase {
        var repository = try VectorRepository(keys: keys)
        let first = VectorRelease.standard(1)
        try repository.publish(first.targets)
        let before = repository
        // v2: a new root key, signed by the old and the new one.
        var second = keys
        second.root = [VectorKey("rotation-root-2")]
        try repository.publishRoot(second)
        // v3: two new root keys with a threshold of 2, and a new timestamp key; signed by the v2 key and both v3 keys.
        var third = second
        third.root = [VectorKey("rotation-root-3a"), VectorKey("rotation-root-3b")]
        third.thresholds["root"] = 2
        third.timestamp = [VectorKey("rotation-timestamp-3")]
        try repository.publishRoot(third)
        let next = VectorRelease.standard(2)
        try repository.publish(next.targets)
        return VectorCase(
            id: "key-rotation-chain", summary: "Root v1 → v2 → v3 with key changes; the client walks the chain.",
            description: """
                Step 1 is release 1 under root v1. At step 2 the repository has rotated keys twice: 2.root.json replaces the \
                root key (signed by the v1 key and the new key), 3.root.json replaces it again by two keys with a threshold \
                of 2 and replaces the timestamp key (signed by the v2 key and both v3 keys). Release 2 is signed by the new \
                timestamp key. The client must walk 2.root.json and 3.root.json in order, checking each against the keys \
                of the version before it and its own, trust root v3, drop the timestamp it trusted (its key is gone: \
                specification §5.3.11) and accept release 2.
                """,
            trustedRoot: repository.firstRoot,
            steps: [
                .accept(before, download: first.essentials, holding: first),
                .accept(repository, download: next.essentials, holding: next, rootVersion: 3),
            ])
    }

    /// A creator's delegated role for program bundles, as `livery keys delegate` sets it up.
    static func creatorRole(signs names: [String]) -> Delegation {
        Delegation(name: "creator", key: VectorKey("vectors-creator"), paths: ["program.*"], terminating: true, signs: names)
    }

    static func delegatedCreator() throws -> VectorCase {
        var repository = try VectorRepository(keys: keys)
        let release = VectorRelease.standard(1, programs: ["yoga"])
        try repository.publish(release.targets, delegations: [creatorRole(signs: ["program.yoga.zip"])])
        let download = release.essentials + ["program.yoga.zip"]
        return VectorCase(
            id: "delegated-creator", summary: "A creator's delegated role signs their program bundle.",
            description: """
                The top-level targets delegates the paths `program.*` to the role `creator` (its own key, threshold 1, \
                terminating), as `livery keys delegate` does. 1.creator.json lists program.yoga.zip; the top-level targets \
                lists the manifest, core.zip and locale.en.zip. The snapshot lists targets.json and creator.json. The app \
                asks for the program `yoga`: the client finds program.yoga.zip through the delegation (a preorder \
                depth-first search from the top-level targets) and accepts it.
                """,
            trustedRoot: repository.firstRoot,
            steps: [.accept(repository, download: download, holding: release, programs: ["yoga"])])
    }
}
