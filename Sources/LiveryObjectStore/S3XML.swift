import Foundation
import LiveryXML

/// The few XML documents S3 answers with (errors, listings, multipart uploads), read with the
/// project's libxml2 reader (`XMLTree`: from memory, no network, no DTD, a DOCTYPE refused). Each is
/// shallow, so it is kept as the elements under the root: text children as fields, and a record
/// (child name → text) for each element that has element children (`Contents`, `Part`, …), in order.
/// Public for the fuzz harness (`livery-json-fuzz`, target `s3-xml`).
public struct S3XML {
    public var root = ""
    /// Text children of the root (`Code`, `Message`, `UploadId`, `IsTruncated`, …).
    public var fields: [String: String] = [:]
    /// Elements of the root that have element children, in order.
    public var records: [(name: String, fields: [String: String])] = []

    public static let maximumBytes = 64 << 20

    public init?(_ data: Data) {
        guard !data.isEmpty, data.count <= Self.maximumBytes, case .success(let top) = XMLTree.parse(Array(data), file: "S3 response") else { return nil }
        root = top.name
        for child in top.children {
            if child.children.isEmpty {
                fields[child.name] = child.text
            } else {
                records.append((child.name, Dictionary(child.children.map { ($0.name, $0.text) }, uniquingKeysWith: { first, _ in first })))
            }
        }
    }
}
