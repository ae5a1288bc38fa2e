import Foundation

/// Attacks on the bundles themselves. Each case installs release 1, then offers release 2 with a
/// bad bundle: the app must refuse release 2 and keep release 1.
enum BundleAttacks {
    static let keys = ValidCases.keys

    /// Release 1, then release 2 with `core` changed by `attack` after signing (or built hostile by `core`).
    private static func twoReleases(core extra: [StoredZip.Entry] = [], attack: (inout Data) -> Void = { _ in }) throws -> (VectorRepository, VectorRelease, VectorRepository, VectorRelease) {
        var repository = try VectorRepository(keys: keys)
        let one = VectorRelease.standard(1)
        try repository.publish(one.targets)
        let before = repository
        let two = VectorRelease.standard(2, core: extra)
        try repository.publish(two.targets)
        if let core = two.target("core.zip") { attack(&repository.targetFiles[core.fileName, default: Data()]) }
        return (before, one, repository, two)
    }

    static func tamperedBundle() throws -> VectorCase {
        let (before, one, attacked, two) = try twoReleases { data in data[data.count / 2] ^= 0x01 }
        return VectorCase(
            id: "tampered-bundle", summary: "A bundle whose bytes differ from the signed SHA-256.",
            description: """
                Step 1: release 1. Step 2: release 2, correctly signed, but the server's core.zip has one bit flipped in \
                the middle (same length). The client must check the SHA-256 before opening the archive and refuse; the \
                app keeps release 1.
                """,
            trustedRoot: before.firstRoot,
            steps: [
                .accept(before, download: one.essentials, holding: one),
                .refuse(attacked, download: two.essentials, .lengthOrHashMismatch, at: .download),
            ])
    }

    static func zipSlipBundle() throws -> VectorCase {
        let (before, one, attacked, two) = try twoReleases(core: [StoredZip.Entry(path: "../evil", data: Data("written outside the bundle folder\n".utf8))])
        return VectorCase(
            id: "zip-slip-bundle", summary: "A correctly signed bundle with an archive entry `../evil`.",
            description: """
                Step 1: release 1. Step 2: release 2, whose core.zip is correctly signed (length and SHA-256 match) but \
                holds an entry named `../evil` beside tenant.json and assets/logo.svg. Extracting it as named would write \
                outside the bundle's folder (zip slip). The TUF layer accepts everything; the installer must refuse the \
                archive before writing any of it, and the app keeps release 1. A client that only verifies downloads \
                (no install step) accepts this step.
                """,
            trustedRoot: before.firstRoot,
            steps: [
                .accept(before, download: one.essentials, holding: one),
                .refuse(attacked, download: two.essentials, .unsafeArchive, at: .install),
            ])
    }

    static func bundleOverSignedLength() throws -> VectorCase {
        let (before, one, attacked, two) = try twoReleases { data in data.append(Data(repeating: 0, count: 64 * 1024)) }
        return VectorCase(
            id: "bundle-over-signed-length", summary: "The server sends a bundle 64 KiB longer than its signed length.",
            description: """
                Step 1: release 1. Step 2: release 2, correctly signed, but the server's core.zip is the signed archive \
                followed by 64 KiB of zero bytes. The client must stop reading at the signed length and refuse; the app \
                keeps release 1.
                """,
            trustedRoot: before.firstRoot,
            steps: [
                .accept(before, download: one.essentials, holding: one),
                .refuse(attacked, download: two.essentials, .downloadLengthMismatch, at: .download),
            ])
    }
}
