import ArgumentParser
import Foundation
import LiveryPack
import LiveryPublish
import LiverySign
import LiveryTUF

struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show a published release or one of its bundles.",
        discussion: """
            `livery inspect <tenant>` lists the bundles of the tenant's current release with their kind, \
            locale, policy, access, size and SHA-256. `livery inspect <tenant> <bundle>` lists the files in \
            that bundle (an encrypted one is decrypted with the tenant's content.key from --keys). \
            `livery inspect <archive file>` lists any bundle archive.
            """
    )

    @Argument(help: "A tenant id (its release in the output folder), or a bundle archive file.")
    var target: String

    @Argument(help: "A bundle id of the release, to list its files.")
    var bundle: String?

    @Option(name: .shortAndLong, help: "The output folder.")
    var output = "Output"

    @Option(help: "The key store holding the tenant's content.key, to list an encrypted bundle's files.")
    var keys = ".livery-keys"

    func run() throws {
        if FileManager.default.fileExists(atPath: target), bundle == nil, !FileManager.default.fileExists(atPath: output + "/" + target) {
            try list(URL(fileURLWithPath: target))
            return
        }
        let outputURL = URL(fileURLWithPath: output)
        guard let (pointer, manifest) = Publisher.currentManifest(tenant: target, output: outputURL) else {
            throw Livery.Failure("'\(target)' has no release in \(output)/ (run `livery build` first)")
        }
        if let bundle {
            guard let entry = manifest.bundles.first(where: { $0.id == bundle }) else {
                throw Livery.Failure("release \(manifest.release) of '\(target)' has no bundle '\(bundle)'; it has: \(manifest.bundles.map(\.id).joined(separator: ", "))")
            }
            let file = outputURL.appendingPathComponent(target).appendingPathComponent(entry.path)
            guard let encryption = entry.encryption else {
                try list(file)
                return
            }
            guard let secret = try KeyStore(root: URL(fileURLWithPath: keys)).contentSecret(for: target, create: false) else {
                throw Livery.Failure("bundle '\(bundle)' is encrypted, and \(keys)/\(target)/content.key, which unlocks it, is not here (give the key store with --keys)")
            }
            let plain = FileManager.default.temporaryDirectory.appendingPathComponent("livery-inspect-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: plain) }
            do {
                try SegmentedAEAD.decrypt(file, to: plain, key: secret.contentKey(keyID: encryption.keyID))
            } catch {
                throw Livery.Failure("bundle '\(bundle)' does not decrypt with \(keys)/\(target)/content.key: \(error)")
            }
            try list(plain)
            return
        }
        var out = "\(manifest.tenant) release \(manifest.release) (\(manifest.format.rawValue), minimum client \(manifest.minimumClientVersion))\n"
        out += "manifest \(pointer.manifest)\n\n"
        let rows = manifest.bundles.map { b in
            [b.id, b.kind.rawValue, b.locale ?? "-", b.policy.rawValue, b.access.rawValue + (b.encryption == nil ? "" : ", encrypted"), Self.size(b.size), String(b.sha256.prefix(12)),
             b.dependencies.isEmpty ? "-" : b.dependencies.joined(separator: ",")]
        }
        out += Self.table(["bundle", "kind", "locale", "policy", "access", "size", "sha256", "depends on"], rows)
        out += "\n\(manifest.bundles.count) bundle\(manifest.bundles.count == 1 ? "" : "s"), \(Self.size(manifest.bundles.reduce(0) { $0 + $1.size })) in all\n"
        FileHandle.standardOutput.write(Data(out.utf8))
    }

    private func list(_ url: URL) throws {
        let entries = try ArchiveListing.entries(of: url)
        var out = Self.table(["size", "file"], entries.map { [Self.size($0.size), $0.path] })
        out += "\n\(entries.count) file\(entries.count == 1 ? "" : "s"), \(Self.size(entries.reduce(0) { $0 + $1.size })) uncompressed\n"
        FileHandle.standardOutput.write(Data(out.utf8))
    }

    static func size(_ bytes: Int) -> String {
        bytes < 1024 ? "\(bytes) B" : bytes < 1 << 20 ? String(format: "%.1f KiB", Double(bytes) / 1024) : String(format: "%.1f MiB", Double(bytes) / 1048576)
    }

    static func table(_ header: [String], _ rows: [[String]]) -> String {
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        return ([header] + rows).map { row in
            row.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n") + "\n"
    }
}
