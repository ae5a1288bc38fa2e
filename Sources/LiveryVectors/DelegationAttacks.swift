import Foundation

/// Attacks on delegated targets roles: a role the snapshot does not list, a role signing outside
/// its paths, and a terminating delegation that must end the search.
enum DelegationAttacks {
    static let keys = ValidCases.keys

    static func roleNotInSnapshot() throws -> VectorCase {
        var repository = try VectorRepository(keys: keys)
        let release = VectorRelease.standard(1, programs: ["yoga"])
        try repository.publish(release.targets, delegations: [ValidCases.creatorRole(signs: ["program.yoga.zip"])], leaveOutOfSnapshot: ["creator.json"])
        return VectorCase(
            id: "delegated-role-not-in-snapshot", summary: "The targets delegate to a role the snapshot does not list.",
            description: """
                The top-level targets delegates `program.*` to `creator`, and 1.creator.json (validly signed, listing \
                program.yoga.zip) is on the server, but the snapshot lists only targets.json. Every targets metadata \
                file must come through the snapshot (its version, length and hash): the client must refuse to use \
                creator.json, so program.yoga.zip cannot be had and the release is not installed. A client that loads \
                delegated roles lazily refuses when it looks the program up; one that loads them eagerly refuses during \
                the refresh. Both are refusals.
                """,
            trustedRoot: repository.firstRoot,
            steps: [.refuse(repository, download: release.essentials + ["program.yoga.zip"], .repositoryError, at: .download, programs: ["yoga"])])
    }

    static func pathPatternDoesNotCoverTarget() throws -> VectorCase {
        var repository = try VectorRepository(keys: keys)
        let release = VectorRelease.standard(1)
        let covered = VectorTarget(name: "media/intro.txt", data: Data("Welcome: this file is signed by the creator role.\n".utf8))
        let outside = VectorTarget(name: "media/audio/intro.txt", data: Data("This file is signed by the creator role outside its paths.\n".utf8))
        let media = Delegation(name: "creator", key: VectorKey("vectors-creator"), paths: ["media/*"], terminating: false, signs: [covered.name, outside.name])
        try repository.publish(release.targets + [covered, outside], delegations: [media])
        return VectorCase(
            id: "delegation-path-not-covered", summary: "A delegated role lists a target outside its paths (`*` does not match `/`).",
            description: """
                The top-level targets delegates the paths `media/*` to the role `creator`, and 1.creator.json lists two \
                targets: media/intro.txt and media/audio/intro.txt. A path pattern matches segment by segment: `*` never \
                matches a `/`, so `media/*` covers media/intro.txt but not media/audio/intro.txt. Step 1 asks for \
                media/intro.txt: found through the delegation. Step 2 (the same repository) asks for \
                media/audio/intro.txt: no role may sign it, so the client must report that the target is not found. \
                Plain targets: this case is for TUF clients, not for an app's install step.
                """,
            release: false,
            trustedRoot: repository.firstRoot,
            steps: [
                .accept(repository, download: [covered.name], holding: nil, extra: [covered]),
                .refuse(repository, download: [outside.name], .targetNotFound, at: .download),
            ])
    }

    static func terminatingDelegationStopsSearch() throws -> VectorCase {
        var repository = try VectorRepository(keys: keys)
        let release = VectorRelease.standard(1, programs: ["yoga"])
        func roles(terminating: Bool) -> [Delegation] {
            [Delegation(name: "creator-a", key: VectorKey("vectors-creator-a"), paths: ["program.*"], terminating: terminating, signs: []),
             Delegation(name: "creator-b", key: VectorKey("vectors-creator-b"), paths: ["program.*"], terminating: false, signs: ["program.yoga.zip"])]
        }
        try repository.publish(release.targets, delegations: roles(terminating: false))
        let before = repository
        let next = VectorRelease.standard(2, programs: ["yoga"])
        try repository.publish(next.targets, delegations: roles(terminating: true))
        let download = release.essentials + ["program.yoga.zip"]
        return VectorCase(
            id: "terminating-delegation", summary: "A terminating delegation ends the search: a later role cannot supply the target.",
            description: """
                The top-level targets delegates `program.*` to `creator-a` and then to `creator-b`, in that order. \
                creator-a lists no targets; creator-b lists program.yoga.zip. Step 1 (release 1): creator-a is not \
                terminating, so the search goes on to creator-b and finds the program. Step 2 (release 2, the same roles \
                and targets with new content): creator-a is terminating. The search (preorder, depth first, in listed order) reaches creator-a, which \
                matches the path and is terminating, so it must stop there: program.yoga.zip is not found, and the app \
                keeps release 1 as installed in step 1.
                """,
            trustedRoot: repository.firstRoot,
            steps: [
                .accept(before, download: download, holding: release, programs: ["yoga"]),
                .refuse(repository, download: download, .targetNotFound, at: .download, programs: ["yoga"]),
            ])
    }

    static func unrelatedRoleBroken() throws -> VectorCase {
        var repository = try VectorRepository(keys: keys)
        let release = VectorRelease.standard(1, programs: ["yoga"])
        try repository.publish(release.targets, delegations: [ValidCases.creatorRole(signs: ["program.yoga.zip"])],
                               signers: ["creator": [VectorKey("intruder-creator")]])
        return VectorCase(
            id: "delegated-role-bad-signature", summary: "A delegated role with a bad signature blocks only the targets it would vouch for.",
            description: """
                The top-level targets delegates `program.*` to `creator`, but 1.creator.json is signed by a key the \
                delegation does not name. Step 1: the app asks for the essential bundles only, all listed in the \
                top-level targets: the search for them never reaches `creator` (specification §5.6.7: a preorder search \
                per target), so the client accepts. Step 2 (the same repository): the app also asks for the program \
                `yoga`; the search reaches `creator`, whose signature does not verify: the client must refuse and keep \
                release 1 as installed in step 1.
                """,
            trustedRoot: repository.firstRoot,
            steps: [
                .accept(repository, download: release.essentials, holding: release),
                .refuse(repository, download: release.essentials + ["program.yoga.zip"], .badSignature, at: .download, programs: ["yoga"]),
            ])
    }

    static func cachedRoleVerifiedAgainstNewKey() throws -> VectorCase {
        var repository = try VectorRepository(keys: keys)
        let one = VectorRelease.standard(1, programs: ["yoga"])
        try repository.publish(one.targets, delegations: [ValidCases.creatorRole(signs: ["program.yoga.zip"])])
        let before = repository
        // Release 2: new core and locale bundles, the same program; the platform names a new key for the
        // creator, but 1.creator.json (signed by the old key) is still the role's newest metadata.
        let two = VectorRelease.standard(2, programs: ["yoga"], programRelease: 1)
        var rekeyed = ValidCases.creatorRole(signs: ["program.yoga.zip"])
        rekeyed.key = VectorKey("vectors-creator-2")
        rekeyed.keepPublished = true
        try repository.publish(two.targets, delegations: [rekeyed])
        let download = one.essentials + ["program.yoga.zip"]
        return VectorCase(
            id: "delegated-role-key-changed", summary: "A cached delegated role is verified again against its delegator's current keys.",
            description: """
                Step 1: release 1; `creator` (key vectors-creator) signs program.yoga.zip in 1.creator.json. Step 2: \
                targets v2 names a new key for `creator` (vectors-creator-2), while the snapshot still lists \
                creator.json version 1, signed by the old key, and program.yoga.zip did not change. The client has \
                1.creator.json in its trusted metadata, with the version and hash the snapshot gives, but it must verify \
                it again against the keys the current targets metadata names, fail, and refuse; the app keeps release 1.
                """,
            trustedRoot: before.firstRoot,
            steps: [
                .accept(before, download: download, holding: one, programs: ["yoga"]),
                .refuse(repository, download: download, .badSignature, at: .download, programs: ["yoga"]),
            ])
    }
}
