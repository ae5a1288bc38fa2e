import Crypto
import Foundation
import LiveryLoad

/// `--shard K/N`: the K-th of N stable shares of a workspace's tenants, a whole `extends` lineage at a time.
///
/// A lineage is a root tenant (one that extends nothing) with every tenant that extends it, directly or
/// through others. Its shard is a function of the root's id and N alone (`number(ofRoot:count:)`), so it does
/// not move when other tenants are added or removed, and a creator is always built where its base is.
public struct TenantShard: Sendable, Equatable, CustomStringConvertible {
    /// K, from 1 to `count`.
    public let index: Int
    /// N, the number of shards.
    public let count: Int

    public var description: String { "\(index)/\(count)" }

    /// Why `K/N` was refused, worded for the command line.
    public struct Refusal: Error, CustomStringConvertible, LocalizedError {
        public var description: String
        public var errorDescription: String? { description }
    }

    public init(index: Int, count: Int) throws {
        guard count >= 1 else { throw Refusal(description: "the number of shards N must be at least 1 (got \(index)/\(count))") }
        guard index >= 1 else { throw Refusal(description: "shards are numbered from 1: use 1/\(count) to \(count)/\(count), not \(index)/\(count)") }
        guard index <= count else { throw Refusal(description: "there is no shard \(index) of \(count): K must be between 1 and \(count)") }
        self.index = index
        self.count = count
    }

    /// Reads `K/N`, such as `2/4`.
    public init(parsing text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else {
            throw Refusal(description: "'\(text)' is not a shard: expected K/N with whole numbers, such as 2/4 (shard 2 of 4)")
        }
        try self.init(index: k, count: n)
    }

    /// The shard (1…count) of the lineage whose root tenant is `root`: the SHA-256 digest of the id's UTF-8
    /// bytes, read as a 256-bit big-endian unsigned integer, modulo `count`, plus one. In Python:
    /// `int(hashlib.sha256(root.encode()).hexdigest(), 16) % count + 1`.
    public static func number(ofRoot root: String, count: Int) -> Int {
        precondition(count >= 1)
        var remainder = 0
        // Horner's rule over the digest's bytes keeps every step below 256 × count.
        for byte in SHA256.hash(data: Data(root.utf8)) { remainder = (remainder * 256 + Int(byte)) % count }
        return remainder + 1
    }

    /// Whether the lineage rooted at `root` belongs to this shard.
    public func contains(root: String) -> Bool { Self.number(ofRoot: root, count: count) == index }

    /// The tenants of the workspace folder `workspace` in this shard, as folder names. Only the `extends` of
    /// each tenant manifest is read. Folders Livery refuses to load (a symbolic link out of the workspace)
    /// count as their own lineage, so exactly one shard reports them.
    public func tenants(in workspace: URL, limits: LoadLimits = .default) -> Set<String> {
        let (folders, refused) = TenantLoader.discover(in: workspace)
        var parents: [String: String] = [:]
        for folder in folders {
            if let parent = TenantLoader.parentID(of: folder, limits: limits) { parents[folder.lastPathComponent] = parent }
        }
        let names = folders.map(\.lastPathComponent) + refused.map(\.name)
        let roots = Self.lineageRoots(of: names, parents: parents)
        return Set(names.filter { contains(root: roots[$0] ?? $0) })
    }

    /// The tenants a command restricted to this shard works on: the shard's tenants of `workspace`, narrowed
    /// to `only` when the command was given tenant folders (nil: the whole workspace).
    public func select(_ only: Set<String>?, in workspace: URL) -> Set<String> {
        let members = tenants(in: workspace)
        return only.map { $0.intersection(members) } ?? members
    }

    /// The root of each tenant's lineage, given each tenant's `extends`. A parent that is not among `names`
    /// ends the walk (validation reports it); a cycle's members, and the tenants extending them, share the
    /// cycle's smallest id as their root, so a broken lineage still lands in exactly one shard.
    public static func lineageRoots(of names: [String], parents: [String: String]) -> [String: String] {
        let known = Set(names)
        var roots: [String: String] = [:]
        for name in names {
            var chain = [name]
            var current = name
            while let parent = parents[current], known.contains(parent) {
                if let start = chain.firstIndex(of: parent) {
                    current = chain[start...].min()!
                    break
                }
                chain.append(parent)
                current = parent
            }
            roots[name] = current
        }
        return roots
    }
}
