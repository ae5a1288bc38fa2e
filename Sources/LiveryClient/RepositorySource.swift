import Foundation
import LiveryTUF

/// Where a client reads a tenant's TUF repository from: a folder, or (later) a server.
public protocol RepositorySource: Sendable {
    /// The bytes at `path` (e.g. `metadata/timestamp.json`), refusing more than `maxLength` bytes;
    /// nil when the file does not exist.
    func fetch(_ path: String, maxLength: Int) throws -> Data?
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
}
