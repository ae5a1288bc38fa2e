import Crypto
import Foundation
import LiveryReleaseFormat

/// One target file of a vector repository: its TUF target name, bytes and `custom` description.
struct VectorTarget: Sendable {
    var name: String
    var data: Data
    var custom: JSONValue?

    var sha256: String { SHA256.hash(data: data).hexString }

    /// The target's entry in targets metadata: length, SHA-256 and `custom`.
    var entry: JSONValue {
        var object: [String: JSONValue] = ["length": .int(data.count), "hashes": .object(["sha256": .string(sha256)])]
        if let custom { object["custom"] = custom }
        return .object(object)
    }

    /// The file name under `targets/` with consistent snapshots: `dir/<sha256>.name`.
    var fileName: String {
        guard let slash = name.lastIndex(of: "/") else { return "\(sha256).\(name)" }
        return "\(name[...slash])\(sha256).\(name[name.index(after: slash)...])"
    }
}

/// A bundle of a vector release, in the shape `livery build` gives bundles: a zip archive of
/// files, described in the download manifest and in the target's `custom` fields.
struct VectorBundle: Sendable {
    var id: String
    var kind: String
    var policy: String
    var locale: String?
    var subject: String?
    var files: [StoredZip.Entry]
    /// Whether the bundle has a file index (docs/deltas.md), as large bundles of `livery build` have.
    var indexed = false

    /// The entries in archive order: sorted by their UTF-8 bytes, as `livery build` sorts them.
    var sortedFiles: [StoredZip.Entry] { files.sorted { Array($0.path.utf8).lexicographicallyPrecedes(Array($1.path.utf8)) } }

    /// The bundle's file index, when it has one: every file stored, at the offsets `StoredZip` writes.
    var fileIndex: FileIndex? {
        guard indexed else { return nil }
        let archive = target
        let sorted = sortedFiles
        let located = zip(sorted, StoredZip.layout(sorted)).map { entry, at in
            (entry: FileIndexEntry(path: entry.path, sha256: SHA256.hash(data: entry.data).hexString, size: entry.data.count, offset: at.data,
                                   length: entry.data.count, method: .stored), header: at.header)
        }
        return FileIndex.paginate(bundle: id, archiveSHA256: archive.sha256, archiveSize: archive.data.count, entries: located)
    }

    var target: VectorTarget {
        var custom: [String: JSONValue] = ["access": .string("public"), "bundle": .string(id), "kind": .string(kind), "policy": .string(policy)]
        if let locale { custom["locale"] = .string(locale) }
        if let subject { custom["subject"] = .string(subject) }
        return VectorTarget(name: "\(id).zip", data: StoredZip.archive(sortedFiles), custom: .object(custom))
    }
}

/// A Livery release for the vectors: the tenant `vectors`, its bundles and the download manifest
/// that lists them (docs/download-manifest.md), all as TUF targets.
struct VectorRelease: Sendable {
    static let tenant = "vectors"
    static let manifestName = "download-manifest.json"

    var number: Int
    var bundles: [VectorBundle]

    /// Release `number`: an essential `core` bundle and the default locale `en`, plus one
    /// on-demand program bundle per name in `programs`. Every bundle's content names the release,
    /// so two releases never share an archive, except program bundles made for release
    /// `programRelease` (a creator's content that did not change).
    static func standard(_ number: Int, programs: [String] = [], programRelease: Int? = nil, core extra: [StoredZip.Entry] = []) -> VectorRelease {
        var bundles = [
            VectorBundle(id: "core", kind: "core", policy: "essential", files: [
                StoredZip.Entry(path: "tenant.json", data: JSONValue.object(["id": .string(tenant), "release": .int(number), "name": .string("Vector Tenant")]).bytes),
                StoredZip.Entry(path: "assets/logo.svg", data: Data("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 8 8\"><rect width=\"8\" height=\"8\" fill=\"#0a7\"/><!-- release \(number) --></svg>\n".utf8)),
            ] + extra),
            VectorBundle(id: "locale.en", kind: "locale", policy: "essential", locale: "en", files: [
                StoredZip.Entry(path: "locales/en.json", data: JSONValue.object(["greeting": .string("Hello from release \(number)")]).bytes),
            ]),
        ]
        for program in programs {
            bundles.append(VectorBundle(id: "program.\(program)", kind: "program", policy: "on-demand", subject: program, files: [
                StoredZip.Entry(path: "programs/\(program)/program.json", data: JSONValue.object(["id": .string(program), "release": .int(programRelease ?? number), "days": .int(7)]).bytes),
            ]))
        }
        return VectorRelease(number: number, bundles: bundles)
    }

    /// The download manifest, written as `livery build` writes it (sorted keys, one line, a final newline).
    var manifest: VectorTarget {
        let entries: [JSONValue] = bundles.sorted { $0.id < $1.id }.map { bundle in
            let target = bundle.target
            var object: [String: JSONValue] = [
                "access": .string("public"), "dependencies": .array([]), "id": .string(bundle.id), "kind": .string(bundle.kind),
                "minimumClientVersion": .string("1.0.0"), "path": .string("targets/\(target.fileName)"), "policy": .string(bundle.policy),
                "sha256": .string(target.sha256), "size": .int(target.data.count),
            ]
            if let locale = bundle.locale { object["locale"] = .string(locale) }
            if let subject = bundle.subject { object["subject"] = .string(subject) }
            if let index = bundle.fileIndex { object["files"] = index.reference.json }
            return .object(object)
        }
        let manifest: JSONValue = .object([
            "bundles": .array(entries), "format": .string("zip"), "minimumClientVersion": .string("1.0.0"),
            "release": .int(number), "schemaVersion": .int(1), "tenant": .string(Self.tenant),
        ])
        return VectorTarget(name: Self.manifestName, data: manifest.bytes,
                            custom: .object(["kind": .string("download-manifest"), "release": .int(number)]))
    }

    /// The file index objects of the indexed bundles, by their file name under `targets/` (not TUF targets).
    var indexFiles: [String: Data] {
        Dictionary(bundles.compactMap { bundle in bundle.fileIndex.map { ("\($0.reference.sha256).\(bundle.id).files", $0.objectBytes) } }, uniquingKeysWith: { a, _ in a })
    }

    /// Every target of the release: the manifest, then the bundles.
    var targets: [VectorTarget] { [manifest] + bundles.map(\.target) }

    func target(_ name: String) -> VectorTarget? { targets.first { $0.name == name } }

    /// What an app installs by default: the manifest and the essential bundles.
    var essentials: [String] { [Self.manifestName] + bundles.filter { $0.policy == "essential" }.map(\.target.name) }
}
