import Crypto
import Foundation
import LiveryReleaseFormat

/// Delta downloads (docs/deltas.md). The core bundle carries four 16 KiB media files and a file
/// index; release 2 changes one of them. A client without deltas downloads core whole and must reach
/// the same outcome; a client with deltas must download only the changed files, and fall back to the
/// whole archive when the index, an entry or its own base does not verify.
enum DeltaCases {
    static let keys = ValidCases.keys

    /// Media file `number` (1–4) at `version`: 16 KiB derived from a fixed seed, so every run writes the same bytes.
    static func media(_ number: Int, version: Int) -> StoredZip.Entry {
        var bytes = Data()
        var block = Data(SHA256.hash(data: Data("livery client vectors: media \(number) version \(version)".utf8)))
        while bytes.count < 16 << 10 {
            bytes.append(block)
            block = Data(SHA256.hash(data: block))
        }
        return StoredZip.Entry(path: "assets/media-\(number).bin", data: bytes.prefix(16 << 10))
    }

    /// Release `number` whose media file `changed` (if any) is at version `number`, the rest at version 1.
    static func release(_ number: Int, changed: Int? = nil) -> VectorRelease {
        var release = VectorRelease.standard(number, core: (1...4).map { media($0, version: $0 == changed ? number : 1) })
        release.bundles = release.bundles.map { bundle in
            var bundle = bundle
            bundle.indexed = bundle.id == "core"
            return bundle
        }
        return release
    }

    /// Release 1, then release 2 (media 2 changed) with `attack` applied to the repository afterwards.
    private static func twoReleases(attack: (inout VectorRepository, VectorRelease) -> Void = { _, _ in }) throws -> (VectorRepository, VectorRelease, VectorRepository, VectorRelease) {
        var repository = try VectorRepository(keys: keys)
        let one = release(1)
        try repository.publish(one.targets)
        repository.addIndexes(of: one)
        let before = repository
        let two = release(2, changed: 2)
        try repository.publish(two.targets)
        repository.addIndexes(of: two)
        attack(&repository, two)
        return (before, one, repository, two)
    }

    static let mechanics = """
        core.zip has a file index (its manifest entry's `files`, the object targets/<files.sha256>.core.files, \
        docs/deltas.md) and holds tenant.json, assets/logo.svg and four 16 KiB files assets/media-1…4.bin. \
        Release 2 changes tenant.json, logo.svg and media-2.bin.
        """

    static func clean() throws -> VectorCase {
        let (before, one, after, two) = try twoReleases()
        return VectorCase(
            id: "delta-clean", summary: "A delta update: only the changed files of core travel.",
            description: """
                Step 1: release 1. Step 2: release 2. \(mechanics) A client with delta downloads fetches the table, the \
                page it lacks and the ranges of the three changed files (media-1, 3 and 4 come from the installed \
                release), checks each against the index, and installs the same files a full download gives. A client \
                without them downloads core.zip whole. Both accept release 2.
                """,
            trustedRoot: before.firstRoot,
            steps: [
                .accept(before, download: one.essentials, holding: one),
                .accept(after, download: two.essentials, holding: two),
            ])
    }

    static func tamperedIndex() throws -> VectorCase {
        let (before, one, attacked, _) = try twoReleases { repository, two in
            // One byte of the index's page line changes: the page no longer has the digest its table gives.
            guard let name = two.indexFiles.keys.first, var object = repository.targetFiles[name], let newline = object.firstIndex(of: 0x0A) else { return }
            object[newline + 10] ^= 0x01
            repository.targetFiles[name] = object
        }
        let two = release(2, changed: 2)
        return VectorCase(
            id: "delta-tampered-index", summary: "The file index on the server is tampered with; the archive is intact.",
            description: """
                Step 1: release 1. Step 2: release 2, correctly signed, but one byte of the core index object's page \
                line is changed, so the page does not match its SHA-256 in the table. \(mechanics) A client with delta \
                downloads must refuse the index and download core.zip whole, which verifies: it accepts release 2. A \
                client without deltas never reads the index.
                """,
            trustedRoot: before.firstRoot,
            steps: [
                .accept(before, download: one.essentials, holding: one),
                .accept(attacked, download: two.essentials, holding: two),
            ])
    }

    static func tamperedEntry() throws -> VectorCase {
        let (before, one, attacked, two) = try twoReleases { repository, two in
            // A byte of media-2's data in the server's archive: the file and the archive both stop matching.
            guard let core = two.target("core.zip"), let index = two.bundles.first(where: { $0.id == "core" })?.fileIndex,
                  let entry = index.absoluteEntries.first(where: { $0.path == "assets/media-2.bin" }) else { return }
            repository.targetFiles[core.fileName]?[entry.offset + entry.length / 2] ^= 0x01
        }
        return VectorCase(
            id: "delta-tampered-entry", summary: "One file's bytes in the server's archive are tampered with.",
            description: """
                Step 1: release 1. Step 2: release 2, correctly signed, but one byte in the middle of media-2.bin's data \
                in the server's core.zip is flipped (same length). \(mechanics) A client with delta downloads must refuse \
                media-2.bin (its SHA-256 differs from the index) and then the whole archive (its SHA-256 differs from the \
                signed one); a client without them refuses the archive. The app keeps release 1.
                """,
            trustedRoot: before.firstRoot,
            steps: [
                .accept(before, download: one.essentials, holding: one),
                .refuse(attacked, download: two.essentials, .lengthOrHashMismatch, at: .download),
            ])
    }

    static func wrongBase() throws -> VectorCase {
        let (before, one, after, two) = try twoReleases()
        var update = VectorStep.accept(after, download: two.essentials, holding: two)
        update.corruptInstalled = ["core/assets/media-1.bin"]
        return VectorCase(
            id: "delta-wrong-base", summary: "The device's installed file differs from what its index says (a wrong base).",
            description: """
                Step 1: release 1. Before step 2, the test harness overwrites the installed file core/assets/media-1.bin \
                (the step's `corruptInstalled`: bundle id, then the path in the bundle) with other bytes, as a damaged or \
                edited device would hold. Step 2: release 2. \(mechanics) media-1.bin did not change, so a client with \
                delta downloads would reuse it: it must check the installed file against the index first, refuse it, and \
                download core.zip whole. Release 2 is installed with the right bytes either way.
                """,
            trustedRoot: before.firstRoot,
            steps: [
                .accept(before, download: one.essentials, holding: one),
                update,
            ])
    }
}
