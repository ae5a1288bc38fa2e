import Foundation

/// The server answered 401 or 403 for a file the client needs: it will not let this client read it. On
/// object storage that is a bucket policy that does not (yet) allow anonymous reads, or a key that is not
/// there behind a store that hides which keys exist; either way the server, not the release, is the place
/// to look. `address` never carries a query: a signed URL's query is a credential.
public struct AccessRefused: Error, CustomStringConvertible, Sendable, Equatable {
    public var status: Int
    public var address: String

    public init(status: Int, address: String) {
        self.status = status
        self.address = address
    }

    public var description: String {
        "access refused: the server answered HTTP \(status) \(status == 401 ? "Unauthorized" : "Forbidden") for \(address)"
            + " (its access rules, such as a bucket policy, do not let this client read it; docs/operations.md#making-the-bucket-readable)"
    }
}
