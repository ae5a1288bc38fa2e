import Foundation
import LiveryAssets
import LiveryLoad
import LiveryTUF

/// One file inside a bundle.
public struct BundleEntry: Sendable {
    public enum Content: Sendable {
        case file(StoredFile)
        case data(Data)
    }

    /// Path inside the archive (the file's path in the tenant folder, or a generated JSON name).
    public var path: String
    public var content: Content
    public var compress: Bool
    public var sha256: SHA256Hex
    public var size: Int

    public init(path: String, file: StoredFile, compress: Bool) {
        self.path = path
        content = .file(file)
        self.compress = compress
        sha256 = file.sha256
        size = file.size
    }

    public init(path: String, data: Data) {
        self.path = path
        content = .data(data)
        compress = true
        sha256 = FileDigest.sha256(of: data)
        size = data.count
    }
}

/// A planned bundle: its identity, how clients load it, and its files in archive order.
public struct BundleSpec: Sendable {
    public var id: String
    public var kind: BundleKind
    /// The program, tour or library pack the bundle serves.
    public var subject: String?
    public var locale: String?
    public var policy: LoadPolicy
    public var access: Access
    public var dependencies: [String]
    /// The playing time of the bundle's audio and video, for the download manifest.
    public var media: BundleMedia?
    /// When apps show the bundle's content (docs/schedules.md), for the download manifest.
    public var availability: Availability

    public init(id: String, kind: BundleKind, subject: String? = nil, locale: String? = nil, policy: LoadPolicy, access: Access = .public,
                dependencies: [String] = [], entries: [BundleEntry], media: BundleMedia? = nil, installSizeOverride: Int? = nil,
                availability: Availability = .always) {
        self.media = media
        // The manifest writes whole seconds (as TUF dates); round here so the spec and the manifest agree.
        self.availability = Availability(from: availability.from.map { Date(timeIntervalSince1970: $0.timeIntervalSince1970.rounded(.down)) },
                                         until: availability.until.map { Date(timeIntervalSince1970: $0.timeIntervalSince1970.rounded(.down)) })
        self.id = id
        self.kind = kind
        self.subject = subject
        self.locale = locale
        self.policy = policy
        self.access = access
        self.dependencies = dependencies.sorted()
        var byPath: [String: BundleEntry] = [:]
        var conflicts: [String] = []
        for entry in entries {
            if let existing = byPath[entry.path] {
                if existing.sha256 != entry.sha256 { conflicts.append(entry.path) }
                continue
            }
            byPath[entry.path] = entry
        }
        // Archive order: raw UTF-8 bytes of the paths (Swift's String `<` is not bytewise).
        self.entries = byPath.values.sorted { Array($0.path.utf8).lexicographicallyPrecedes(Array($1.path.utf8)) }
        self.conflicts = conflicts.sorted()
        installSize = installSizeOverride ?? self.entries.reduce(0) { $0 + (($1.size + 4095) / 4096) * 4096 }
    }

    /// What the bundle's files take on disk once extracted: each file rounded up to a 4 KiB block,
    /// as common file systems allocate (text bundles extract to several times their archive).
    public let installSize: Int

    public let entries: [BundleEntry]

    /// Paths given twice with different contents (an error the planner reports).
    public let conflicts: [String]

    public func fileName(_ format: ArchiveFormat) -> String { "\(id).\(format.fileExtension)" }

    /// A digest of everything that determines the archive's bytes: equal keys give equal bundles.
    public func key(_ format: ArchiveFormat) -> SHA256Hex {
        var text = "livery-bundle-1\n\(format.rawValue)\n\(ArchiveWriter.entryTimestamp)\n"
        for entry in entries { text += "\(entry.path)\u{0}\(entry.sha256)\u{0}\(entry.compress)\n" }
        return FileDigest.sha256(of: Data(text.utf8))
    }
}
