import Foundation
import LiveryReleaseFormat

/// Where a client reads a tenant's TUF repository from: a folder, or (later) a server.
public protocol RepositorySource: Sendable {
    /// The bytes at `path` (e.g. `metadata/timestamp.json`), refusing more than `maxLength` bytes;
    /// nil when the file does not exist.
    func fetch(_ path: String, maxLength: Int) throws -> Data?

    /// Appends exactly the bytes `range` of `path` to `handle` (delta downloads, docs/deltas.md); throws
    /// when the source cannot give a part of a file, and the client then downloads the whole bundle.
    func copyRange(_ path: String, _ range: Range<Int>, to handle: FileHandle) throws
}

extension RepositorySource {
    public func copyRange(_ path: String, _ range: Range<Int>, to handle: FileHandle) throws {
        throw TUFError(.download, "\(path): this repository gives whole files only")
    }
}

/// A repository in a local folder, such as `Output/<tenant>`.
public struct LocalRepository: RepositorySource {
    public let root: URL

    public init(root: URL) {
        self.root = root
    }

    public func fetch(_ path: String, maxLength: Int) throws -> Data? {
        let url = root.appendingPathComponent(path)
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        let data = try handle.read(upToCount: maxLength + 1) ?? Data()
        guard data.count <= maxLength else { throw TUFError(.downloadLengthMismatch, "\(path) is longer than the \(maxLength) bytes allowed") }
        return data
    }

    public func copyRange(_ path: String, _ range: Range<Int>, to handle: FileHandle) throws {
        let input = try FileHandle(forReadingFrom: root.appendingPathComponent(path))
        defer { try? input.close() }
        try input.seek(toOffset: UInt64(range.lowerBound))
        var left = range.count
        while left > 0 {
            guard let chunk = try input.read(upToCount: min(left, 1 << 20)), !chunk.isEmpty else {
                throw TUFError(.download, "\(path) ends before byte \(range.upperBound)")
            }
            try handle.write(contentsOf: chunk)
            left -= chunk.count
        }
    }
}
