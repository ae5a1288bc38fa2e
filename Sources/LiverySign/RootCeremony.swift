import Crypto
import Foundation
import LiveryReleaseFormat

/// A change of a tenant's root, done so that no machine ever needs all root keys: the next root
/// is proposed unsigned, each holder adds their signature wherever their key is (an air-gapped
/// machine, a hardware token), and the copies are merged and checked against TUF's rule before
/// anything is published: the new root must be signed by a threshold of the trusted root's root
/// keys and by a threshold of its own.
public enum RootCeremony {
    /// What the next root changes; every role not named keeps its keys and threshold.
    public struct Change: Sendable {
        /// A role's complete new key list.
        public var keys: [TUFRole: [TUFKey]] = [:]
        public var thresholds: [TUFRole: Int] = [:]

        public init(keys: [TUFRole: [TUFKey]] = [:], thresholds: [TUFRole: Int] = [:]) {
            self.keys = keys
            self.thresholds = thresholds
        }
    }

    /// The next root after `current` (version 1 when there is none), unsigned.
    public static func propose(after current: Root?, change: Change, now: Date = Date(), expiry: Expiry = Expiry()) throws -> SignedMetadata {
        var keys: [TUFRole: [TUFKey]] = [:]
        var thresholds: [TUFRole: Int] = [:]
        for role in TUFRole.allCases {
            let listed = current?.roles[role]
            keys[role] = change.keys[role] ?? (listed?.keyIDs.compactMap { current?.keys[$0] } ?? [])
            thresholds[role] = change.thresholds[role] ?? listed?.threshold ?? 1
            let count = Set(keys[role]!.map(\.keyID)).count
            guard count >= 1 else { throw TUFError("the \(role.rawValue) role of the new root has no key: give it one with --key \(role.rawValue)=URI") }
            guard thresholds[role]! >= 1, thresholds[role]! <= count else {
                throw TUFError("the \(role.rawValue) role of the new root has threshold \(thresholds[role]!) but \(count) key\(count == 1 ? "" : "s"): "
                               + "a threshold must be at least 1 and at most the number of keys")
            }
        }
        let version = (current?.version ?? 0) + 1
        return SignedMetadata(signed: TUFDocument.root(version: version, expires: now.addingTimeInterval(expiry.root), keys: keys, thresholds: thresholds))
    }

    /// Adds `signer`'s signature to a proposed root's file, keeping every signature already there.
    /// Says whether the key is one of the proposal's root keys (a key of the previous root that the
    /// proposal drops still signs: TUF needs the old root's threshold too).
    public static func sign(_ proposal: Data, with signer: any MetadataSigner, keys: TenantKeys = TenantKeys(signers: [:])) throws -> (bytes: Data, listed: Bool) {
        let root = try Metadata<Root>(data: proposal)
        var envelope = try SignedMetadata(data: proposal)
        let id = try signer.publicKey().keyID
        try keys.sign(&envelope, with: [signer], role: TUFRole.root.rawValue, file: "\(root.signed.version).root.json")
        try keys.journal.flush()
        return (try envelope.bytes(), root.signed.roles[.root]?.keyIDs.contains(id) == true)
    }

    /// Merges the signatures of several signed copies of one proposal. The copies must propose the
    /// same root (byte for byte in canonical form); a signature that does not verify is dropped.
    public static func merge(_ copies: [(name: String, data: Data)]) throws -> SignedMetadata {
        guard let first = copies.first else { throw TUFError("give at least one signed copy of the proposed root") }
        var merged: SignedMetadata
        do { merged = try SignedMetadata(data: first.data) } catch let error as TUFError { throw TUFError("\(first.name): \(error.description)") }
        let signedBytes = try CanonicalJSON.encode(merged.signed)
        merged.signatures = []
        for copy in copies {
            let envelope: SignedMetadata
            do { envelope = try SignedMetadata(data: copy.data) } catch let error as TUFError { throw TUFError("\(copy.name): \(error.description)") }
            guard try CanonicalJSON.encode(envelope.signed) == signedBytes else {
                throw TUFError("\(copy.name) proposes another root than \(first.name): every holder must sign the same proposal")
            }
            guard envelope.role == .root else { throw TUFError("\(copy.name) is not root metadata") }
            for signature in envelope.signatures where !merged.signatures.contains(where: { $0.keyID == signature.keyID }) {
                merged.signatures.append(signature)
            }
        }
        merged.signatures.sort { $0.keyID < $1.keyID }
        return merged
    }

    /// Checks a signed proposal against TUF's rule for a new root, and returns it as published
    /// metadata. `trusted` is the tenant's newest published root (nil for a first root).
    public static func check(_ proposal: SignedMetadata, trusted: Metadata<Root>?, now: Date = Date()) throws -> Metadata<Root> {
        let root = try Metadata<Root>(data: try proposal.bytes())
        let expected = (trusted?.signed.version ?? 0) + 1
        if let trusted, root.signed.version == trusted.signed.version, (try? root.signedBytes()) == (try? trusted.signedBytes()) {
            throw TUFError("root version \(root.signed.version) is already published")
        }
        guard root.signed.version == expected else {
            throw TUFError("the proposed root is version \(root.signed.version), but the next root is version \(expected)"
                           + (trusted == nil ? "" : " (the published root is version \(trusted!.signed.version)): propose it again"))
        }
        guard root.signed.expires > now else { throw TUFError("the proposed root expired at \(TUFDate.string(root.signed.expires)): propose it again") }
        if let trusted {
            try describe(trusted.signed.keys(for: .root), root, as: "root version \(trusted.signed.version)")
        }
        try describe(root.signed.keys(for: .root), root, as: "the new root itself")
        return root
    }

    /// A threshold check whose error says which root keys signed and which did not.
    private static func describe(_ ring: KeyRing, _ root: Metadata<Root>, as what: String) throws {
        let valid = ring.validSignatures(root)
        guard valid >= ring.role.threshold else {
            let signed = ring.role.keyIDs.filter { id in
                guard let key = ring.keys[id], let signature = root.signatures[id], let message = try? root.signedBytes() else { return false }
                return key.verifies(signature.hex, of: message)
            }
            let missing = ring.role.keyIDs.filter { !signed.contains($0) }.map { String($0.prefix(12)) + "…" }
            throw TUFError(.unsigned, "root version \(root.signed.version) has \(valid) valid signature\(valid == 1 ? "" : "s") by the root keys of \(what), "
                           + "\(ring.role.threshold) needed; not signed yet by \(missing.joined(separator: ", ")) (add signatures with `livery keys sign`)")
        }
    }
}
