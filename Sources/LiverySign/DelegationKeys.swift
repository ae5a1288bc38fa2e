import Crypto
import Foundation
import LiveryReleaseFormat
import LiveryStorage

/// A delegated targets role of a tenant (`livery keys delegate`): a creator's own key, trusted by
/// the tenant's targets role for the target paths it names and nothing else.
public struct DelegationKey: Sendable {
    public var name: String
    /// Target name patterns (shell-style, `*` never crossing `/`), e.g. `program.*`.
    public var paths: [String]
    public var publicKey: TUFKey
    /// Absent when the creator keeps the key elsewhere: the role's published metadata is then
    /// reused as long as its targets do not change.
    public var signer: (any MetadataSigner)?

    /// The role as the delegating targets metadata lists it. Terminating: a target its paths
    /// match is never looked up in a later role.
    /// The role as the targets metadata delegates it: the recorded paths, and each again under
    /// `staged/`, so that a release being rolled out (docs/output.md#a-staged-release) is signed by
    /// the creator's key too, not by the platform's targets key.
    public var role: DelegatedRole {
        let staged = paths.filter { !$0.hasPrefix(RolloutStage.targetPrefix) }.map { RolloutStage.targetPrefix + $0 }
        return DelegatedRole(name: name, keyIDs: [publicKey.keyID], threshold: 1, paths: paths + staged.filter { !paths.contains($0) }, terminating: true)
    }

    /// The default paths: a creator's own content (programs, library and tours), never the core,
    /// locale bundles or the download manifest, which the platform signs.
    public static let contentPaths = ["program.*", "library.*", "library-item.*", "tour.*"]

    /// Checks target path patterns before a role with them is signed: relative, without `..`, and
    /// written only with ASCII letters, digits, `.`, `_`, `-`, `/` and the wildcards `*` and `?`.
    /// Clients read every other pattern syntax differently (`[^a]` and `[[:lower:]]` are sets in
    /// POSIX `fnmatch` but literal characters in python-tuf's `fnmatch`; `[!a]` is no negation in
    /// Go's `path.Match`; a backslash escapes in Go only), so a role using them would be given
    /// targets that some clients then cannot find.
    public static func checkPatterns(_ paths: [String]) throws {
        guard !paths.isEmpty else { throw TUFError("a delegated role needs at least one target path pattern (such as 'program.*')") }
        for path in paths {
            guard !path.isEmpty, !path.hasPrefix("/"), !path.contains("..") else {
                throw TUFError("'\(path)' is not a relative target path pattern (such as 'program.*'): no leading '/', no '..'")
            }
            guard path.utf8.allSatisfy({ allowedPatternBytes.contains($0) }) else {
                throw TUFError("'\(path)' is not a target path pattern every client reads alike: use letters, digits, '.', '_', '-', '/' "
                               + "and the wildcards '*' and '?' (character sets like [a-z] and backslashes are matched differently by different TUF clients)")
            }
        }
    }

    private static let allowedPatternBytes = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-/*?".utf8)
}

extension KeyStore {
    func delegationsFolder(for tenant: String) -> URL { folder(for: tenant).appendingPathComponent("delegations") }

    /// The tenant's delegated roles, sorted by name (the order clients search them in).
    public func delegations(for tenant: String) throws -> [DelegationKey] {
        let folder = delegationsFolder(for: tenant)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
        return try names.map { file in
            let url = folder.appendingPathComponent(file)
            let data: Data
            do { data = try Data(contentsOf: url) } catch { throw ReadFailure(error, path: url.path) }
            let json = try JSONValue.parse(data)
            guard let paths = json["paths"]?.arrayValue?.compactMap(\.stringValue), let hex = json["public"]?.stringValue else {
                throw KeyStoreError(.delegation, url.path, "\(url.path) is not a delegation record")
            }
            let name = String(file.dropLast(".json".count))
            var key = DelegationKey(name: name, paths: paths, publicKey: TUFKey(publicKeyHex: hex), signer: nil)
            let keyFile = folder.appendingPathComponent("\(name).key")
            if FileManager.default.fileExists(atPath: keyFile.path) {
                guard try KeyStore.publicKeyOfFile(keyFile, inStore: true) == key.publicKey else {
                    throw KeyStoreError(.delegation, keyFile.path, "\(keyFile.path) is not the private key of delegated role '\(name)'")
                }
                // Opened (and its passphrase asked for) only when the role is signed.
                key.signer = LazySigner(uri: "file:delegations/\(name).key", publicKey: { [key] in key.publicKey }) {
                    try KeyStore.readKeyFile(keyFile, uri: "file:delegations/\(name).key", passphrase: nil, inStore: true)
                }
            }
            return key
        }
    }

    /// Creates (or, for an existing role, re-scopes) a delegated role; the key is made once and kept.
    public func delegate(tenant: String, name: String, paths: [String]) throws -> DelegationKey {
        guard name.range(of: "^[a-z0-9]+(-[a-z0-9]+)*$", options: .regularExpression) != nil, TUFRole(rawValue: name) == nil else {
            throw TUFError("'\(name)' cannot name a delegated role: use a slug other than root, targets, snapshot or timestamp")
        }
        try DelegationKey.checkPatterns(paths)
        for path in paths where path == "download-manifest.json" || DelegatedRole(name: name, keyIDs: [], paths: [path]).matches("download-manifest.json") {
            throw TUFError("'\(path)' would let the delegated role sign the download manifest, which the platform signs")
        }
        let folder = delegationsFolder(for: tenant)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        chmod(folder.path, 0o700)
        let keyFile = folder.appendingPathComponent("\(name).key")
        let existing = try delegations(for: tenant).first { $0.name == name }
        var key: DelegationKey
        if let existing {
            key = existing
            key.paths = paths
        } else {
            let privateKey = Curve25519.Signing.PrivateKey()
            try write(privateKey, to: keyFile)
            key = DelegationKey(name: name, paths: paths, publicKey: TUFKey(privateKey.publicKey), signer: Ed25519Signer(privateKey, uri: "file:delegations/\(name).key"))
        }
        let record = JSONValue.object(["paths": .array(paths.map(JSONValue.string)), "public": .string(key.publicKey.publicKeyHex)])
        let recordFile = folder.appendingPathComponent("\(name).json")
        try AtomicFile.write(record.bytes, to: recordFile, mode: 0o644, durable: true)
        return key
    }

    /// Ends a delegation: the role's targets go back to the tenant's targets role at the next
    /// signing. The key is kept as `<name>.key.retired-<n>`.
    public func removeDelegation(tenant: String, name: String) throws {
        let folder = delegationsFolder(for: tenant)
        let record = folder.appendingPathComponent("\(name).json")
        guard FileManager.default.fileExists(atPath: record.path) else { throw KeyStoreError(.delegation, name, "'\(tenant)' has no delegated role '\(name)'") }
        let keyFile = folder.appendingPathComponent("\(name).key")
        if FileManager.default.fileExists(atPath: keyFile.path) {
            try KeyStore.retire(keyFile)
        }
        guard unlink(record.path) == 0 else { throw WriteFailure(errno: errno, path: record.path, operation: .remove) }
    }
}
