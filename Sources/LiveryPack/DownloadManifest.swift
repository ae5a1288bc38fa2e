import Foundation
import LiveryTUF
import LiveryAssets
import LiveryLoad

/// The per-release document a client reads first: every bundle with its size, digest, path and load
/// policy (docs/download-manifest.md, schema in schemas/download-manifest.schema.json).
public struct DownloadManifest: Sendable, Equatable {
    public static let targetName = "download-manifest.json"
    public static let schemaVersion = 1

    public struct Bundle: Sendable, Equatable {
        public var id: String
        public var kind: BundleKind
        public var subject: String?
        public var locale: String?
        public var size: Int
        public var sha256: SHA256Hex
        /// Relative to the tenant's folder in `Output/`: `targets/<sha256>.<id>.<format>`.
        public var path: String
        public var policy: LoadPolicy
        public var access: Access
        public var dependencies: [String]
        public var minimumClientVersion: String
    }

    public var tenant: String
    public var release: Int
    public var format: ArchiveFormat
    public var minimumClientVersion: String
    public var bundles: [Bundle]

    public init(tenant: String, release: Int, format: ArchiveFormat, minimumClientVersion: String, built: [BuiltBundle]) {
        self.tenant = tenant
        self.release = release
        self.format = format
        self.minimumClientVersion = minimumClientVersion
        bundles = built.map {
            Bundle(id: $0.spec.id, kind: $0.spec.kind, subject: $0.spec.subject, locale: $0.spec.locale, size: $0.size, sha256: $0.sha256,
                   path: "targets/\($0.targetFileName)", policy: $0.spec.policy, access: $0.spec.access, dependencies: $0.spec.dependencies,
                   minimumClientVersion: minimumClientVersion)
        }.sorted { $0.id < $1.id }
    }

    public var json: JSONValue {
        .object([
            "schemaVersion": .int(Self.schemaVersion),
            "tenant": .string(tenant),
            "release": .int(release),
            "format": .string(format.rawValue),
            "minimumClientVersion": .string(minimumClientVersion),
            "bundles": .array(bundles.map { bundle in
                var object: [String: JSONValue] = [
                    "id": .string(bundle.id), "kind": .string(bundle.kind.rawValue), "size": .int(bundle.size), "sha256": .string(bundle.sha256),
                    "path": .string(bundle.path), "policy": .string(bundle.policy.rawValue), "access": .string(bundle.access.rawValue),
                    "dependencies": .array(bundle.dependencies.map(JSONValue.string)), "minimumClientVersion": .string(bundle.minimumClientVersion),
                ]
                if let subject = bundle.subject { object["subject"] = .string(subject) }
                if let locale = bundle.locale { object["locale"] = .string(locale) }
                return .object(object)
            }),
        ])
    }

    public var bytes: Data { json.bytes }

    /// Reads a manifest Livery wrote; nil if the bytes are not one.
    public static func parse(_ data: Data) -> DownloadManifest? {
        guard let text = String(data: data, encoding: .utf8) else { return nil }
        let (node, diagnostics) = ManifestParser.parse(text, format: .json, file: DownloadManifest.targetName)
        guard let node, diagnostics.isEmpty, node["schemaVersion"]?.int == schemaVersion,
              let tenant = node["tenant"]?.string, let release = node["release"]?.int,
              let format = node["format"]?.string.flatMap(ArchiveFormat.init(rawValue:)),
              let minimum = node["minimumClientVersion"]?.string, let items = node["bundles"]?.items else { return nil }
        var bundles: [Bundle] = []
        for item in items {
            guard let id = item["id"]?.string, let kind = item["kind"]?.string.flatMap(BundleKind.init(rawValue:)),
                  let size = item["size"]?.int, let sha = item["sha256"]?.string, let path = item["path"]?.string,
                  let policy = item["policy"]?.string.flatMap(LoadPolicy.init(rawValue:)), let access = item["access"]?.string.flatMap(Access.init(rawValue:)),
                  let minimumClient = item["minimumClientVersion"]?.string else { return nil }
            bundles.append(Bundle(id: id, kind: kind, subject: item["subject"]?.string, locale: item["locale"]?.string, size: size, sha256: sha, path: path,
                                  policy: policy, access: access, dependencies: (item["dependencies"]?.items ?? []).compactMap(\.string),
                                  minimumClientVersion: minimumClient))
        }
        return DownloadManifest(tenant: tenant, release: release, format: format, minimumClientVersion: minimum, bundles: bundles)
    }

    init(tenant: String, release: Int, format: ArchiveFormat, minimumClientVersion: String, bundles: [Bundle]) {
        self.tenant = tenant
        self.release = release
        self.format = format
        self.minimumClientVersion = minimumClientVersion
        self.bundles = bundles
    }
}
