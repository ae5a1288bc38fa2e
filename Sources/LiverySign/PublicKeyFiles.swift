import Crypto
import Foundation
import LiveryStorage
import LiveryReleaseFormat

/// Key files a holder makes for a ceremony (`livery keys generate`): the private key, and its
/// public key as TUF lists it (`FILE.pub`, canonical JSON), which is all a proposal needs.
public enum KeyFiles {
    /// Creates a private key file (mode 0600), never replacing one.
    public static func create(_ key: Curve25519.Signing.PrivateKey, at file: URL, passphrase: String? = nil) throws {
        try KeyFile.write(ed25519: key, to: file, passphrase: passphrase)
    }

    public static func create(_ key: P256.Signing.PrivateKey, at file: URL, passphrase: String? = nil) throws {
        try KeyFile.write(p256: key, to: file, passphrase: passphrase)
    }

    /// Writes a public key file, never replacing one.
    public static func writePublic(_ key: TUFKey, to file: URL) throws {
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            throw WriteFailure.storage(errno: code, path: file.path) ?? WriteFailure(errno: code, path: file.path, operation: .create)
        }
        defer { close(descriptor) }
        try FileWriting.writeAll(key.json.bytes, to: descriptor, path: file.path)
    }

    /// The public key `reference` names, and whether it is a private key this machine can sign with
    /// (a public key file is not).
    public static func publicKey(of reference: KeyReference) throws -> (key: TUFKey, isPrivate: Bool) {
        if let file = reference.fileURL(relativeTo: URL(fileURLWithPath: "/")),
           let data = FileManager.default.contents(atPath: file.path), data.first == UInt8(ascii: "{"),
           let json = try? JSONValue.parse(data), json["keyval"] != nil {
            do { return (try TUFKey(json: json), false) } catch let error as TUFError { throw TUFError("\(file.path): \(error.description)") }
        }
        if let file = reference.fileURL(relativeTo: URL(fileURLWithPath: "/")) {
            return (try KeyStore.publicKeyOfFile(file), true)  // no passphrase needed
        }
        let signer = try KeyStore.openKey(reference, relativeTo: URL(fileURLWithPath: "/"))
        return (try signer.publicKey(), true)
    }
}

extension KeyStore {
    /// After a new root is published: keys.yaml keeps only the keys it trusts for each role; the store's own key
    /// files it drops are renamed `<file>.retired-<n>`. A key that opens is judged by its id, and that id is recorded
    /// beside it; a key that is away (its file not here, its token not reachable) by the id recorded for it. An away
    /// key with no recorded id (a line written by hand, or before ids were recorded) is kept, to be judged at its next use.
    ///
    /// Returns, role by role, the keys kept unjudged where there are more of them than keys of the new root that no
    /// judged line matched: then at least `dropped` of them name a key the new root no longer trusts, which only
    /// their holder can tell apart. An away key the root may still trust is not reported.
    @discardableResult
    public func forgetUntrustedKeys(tenant: String, root: Root) throws -> [(role: TUFRole, keys: [KeyReference], dropped: Int)] {
        let configFile = configurationFile(for: tenant)
        guard FileManager.default.fileExists(atPath: configFile.path) else { return [] }
        var configuration = try KeyConfiguration.load(configFile)
        var changed = false
        var stale: [(role: TUFRole, keys: [KeyReference], dropped: Int)] = []
        for (role, references) in configuration.roles.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let trusted = Set(root.roles[role]?.keyIDs ?? [])
            var matched = Set<String>()
            var unjudged: [KeyReference] = []
            let kept = references.filter { reference in
                let present = reference.fileURL(relativeTo: folder(for: tenant)).map { FileManager.default.fileExists(atPath: $0.path) } ?? true
                // A key that opens is judged by its own id (and that id recorded); one that is away, by the id recorded for it.
                guard let id = (present ? try? signer(reference, tenant: tenant).publicKey().keyID : nil) ?? configuration.keyID(of: reference) else {
                    unjudged.append(reference)
                    return true
                }
                if configuration.keyID(of: reference) != id {
                    configuration.keyIDs[reference.description] = id
                    changed = true
                }
                if trusted.contains(id) { matched.insert(id) }
                return trusted.contains(id)
            }
            let dropped = unjudged.count - trusted.subtracting(matched).count
            if dropped > 0 { stale.append((role, unjudged, dropped)) }
            if kept != references {
                configuration.roles[role] = kept
                changed = true
                // A key file of the store that no root trusts any more is kept, renamed, as `keys rotate` does.
                for retired in references where !kept.contains(retired) { retireStoreFile(of: retired, tenant: tenant) }
            }
        }
        if changed { try configuration.write(to: configFile) }
        return stale
    }
}

/// A new file in a release's staging folder, written without its own `fsync`: the publisher makes the
/// whole staging tree durable with one sync of the file system before the switch (`Publisher.makeDurable`),
/// so a flush per metadata file (Foundation's `Data.write` flushes each one) only cost time.
public enum StagedFile {
    public static func write(_ data: Data, to url: URL) throws {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            throw WriteFailure.storage(errno: code, path: url.path) ?? WriteFailure(errno: code, path: url.path, operation: .create)
        }
        defer { close(descriptor) }
        try FileWriting.writeAll(data, to: descriptor, path: url.path)
    }
}
