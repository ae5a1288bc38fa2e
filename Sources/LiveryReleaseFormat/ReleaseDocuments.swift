import Foundation

// The release's own documents beside the TUF roles: the download manifest (a signed target), the
// unsigned release pointer, and the voucher server's redemption answer. Signer, server and client
// all read and write them through these types (docs/download-manifest.md, docs/output.md,
// docs/vouchers.md); readers are strict, writers deterministic (`JSONValue.bytes`).

/// What a bundle is for (docs/bundles.md#the-bundles-of-a-release).
public enum BundleKind: String, Sendable, Codable, CaseIterable {
    case core, locale, program
    case libraryPack = "library-pack"
    case tour
    case tourLanguage = "tour-language"
}

/// When a client downloads a bundle.
public enum LoadPolicy: String, Sendable, Codable, CaseIterable {
    case essential, prefetch
    case onDemand = "on-demand"
}

/// Who may download a bundle.
public enum Access: String, Sendable, Codable, CaseIterable {
    case `public`, voucher
}

/// The archive formats of bundles.
public enum ArchiveFormat: String, Sendable, CaseIterable, Codable {
    case zip
    case tarZstd = "tar.zst"

    public var fileExtension: String { rawValue }
}

/// The playing time of a bundle's audio and video, as the build measured it, so an app can show
/// "45 min, 38 MB" before downloading: the total, and per tour stop (tour-language bundles) or per
/// library item (library bundles). Milliseconds, rounded down; an item with a file per locale counts
/// its longest.
public struct BundleMedia: Sendable, Equatable {
    public var milliseconds: Int
    public var stops: [String: Int]
    public var items: [String: Int]

    public init(milliseconds: Int, stops: [String: Int] = [:], items: [String: Int] = [:]) {
        self.milliseconds = milliseconds
        self.stops = stops
        self.items = items
    }

    public var json: JSONValue {
        var object: [String: JSONValue] = ["durationMilliseconds": .int(milliseconds)]
        if !stops.isEmpty { object["stops"] = .object(stops.mapValues(JSONValue.int)) }
        if !items.isEmpty { object["items"] = .object(items.mapValues(JSONValue.int)) }
        return .object(object)
    }

    /// Reads `{"durationMilliseconds": N, "stops": {id: N}, "items": {id: N}}` strictly.
    public init(json: JSONValue, what: String) throws {
        let o = try StrictObject(json, what: "\(what) media")
        func durations(_ key: String) throws -> [String: Int] {
            guard let value = o.object[key] else { return [:] }
            guard case .object(let fields) = value else { throw TUFError(.malformed, "\(what) media: \"\(key)\" must be an object of integers") }
            return try fields.mapValues { field in
                guard case .int(let n) = field, n >= 0 else { throw TUFError(.malformed, "\(what) media: \"\(key)\" must be an object of integers of at least 0") }
                return n
            }
        }
        for key in o.object.keys where !["durationMilliseconds", "stops", "items"].contains(key) {
            throw TUFError(.malformed, "\(what) media: unknown field \"\(key)\"")
        }
        self.init(milliseconds: try o.int("durationMilliseconds"), stops: try durations("stops"), items: try durations("items"))
    }
}

/// Reads fields of one JSON object strictly, naming the document in every error.
struct StrictObject {
    let object: [String: JSONValue]
    let what: String

    init(_ value: JSONValue, what: String) throws {
        guard case .object(let object) = value else { throw TUFError(.malformed, "\(what) is not a JSON object") }
        self.object = object
        self.what = what
    }

    func string(_ key: String) throws -> String {
        guard case .string(let s)? = object[key] else { throw TUFError(.malformed, "\(what): \"\(key)\" must be text") }
        return s
    }

    func optionalString(_ key: String) throws -> String? {
        guard let value = object[key] else { return nil }
        guard case .string(let s) = value else { throw TUFError(.malformed, "\(what): \"\(key)\" must be text") }
        return s
    }

    /// An optional `YYYY-MM-DDThh:mm:ssZ` date, as TUF writes dates.
    func optionalDate(_ key: String) throws -> Date? {
        guard let text = try optionalString(key) else { return nil }
        guard let date = TUFDate.parseStrict(text) else { throw TUFError(.malformed, "\(what): \"\(key)\" must be a date such as 2027-01-04T05:00:00Z") }
        return date
    }

    func int(_ key: String, minimum: Int = 0) throws -> Int {
        guard case .int(let n)? = object[key], n >= minimum else { throw TUFError(.malformed, "\(what): \"\(key)\" must be an integer of at least \(minimum)") }
        return n
    }

    func strings(_ key: String) throws -> [String] {
        guard case .array(let items)? = object[key] else { throw TUFError(.malformed, "\(what): \"\(key)\" must be a list of text") }
        return try items.map { item in
            guard case .string(let s) = item else { throw TUFError(.malformed, "\(what): \"\(key)\" must be a list of text") }
            return s
        }
    }

    func value<T: RawRepresentable>(_ key: String, as type: T.Type) throws -> T where T.RawValue == String {
        let raw = try string(key)
        guard let value = T(rawValue: raw) else { throw TUFError(.malformed, "\(what): \"\(key)\" has the unknown value \"\(raw)\"") }
        return value
    }
}

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
        public var sha256: String
        /// Relative to the tenant's folder in `Output/`: `targets/<sha256>.<id>.<format>`.
        public var path: String
        public var policy: LoadPolicy
        public var access: Access
        public var dependencies: [String]
        public var minimumClientVersion: String
        /// Set when the target is ciphertext (voucher bundles of a signed release): `size` and `sha256`
        /// are the ciphertext's, and the archive is what decrypting it gives.
        public var encryption: BundleEncryption?
        /// The playing time of the bundle's audio and video; nil when it holds none.
        public var media: BundleMedia?
        /// Bytes the bundle's files take once extracted (each rounded up to 4 KiB); nil from builds
        /// before it was written, when a client can only assume the archive's size.
        public var installSize: Int?
        /// When apps start showing the bundle's content (its program, tour or library items); nil: at once.
        public var availableFrom: Date?
        /// When apps stop showing it; nil: never. Both are whole seconds, written in UTC (docs/schedules.md).
        public var availableUntil: Date?
        /// The bundle's file index (docs/deltas.md), through which a device that holds an earlier
        /// release downloads only the files that changed; nil for bundles without one (small, encrypted
        /// or tar.zst bundles), which are always downloaded whole.
        public var files: FileIndexReference?

        /// The index object's path (`targets/<sha256>.<id>.files`), when the bundle has one.
        public var filesPath: String? { files?.path(bundleID: id, bundlePath: path) }

        public init(id: String, kind: BundleKind, subject: String?, locale: String?, size: Int, sha256: String, path: String,
                    policy: LoadPolicy, access: Access, dependencies: [String], minimumClientVersion: String, encryption: BundleEncryption? = nil,
                    media: BundleMedia? = nil, installSize: Int? = nil, availableFrom: Date? = nil, availableUntil: Date? = nil,
                    files: FileIndexReference? = nil) {
            self.files = files
            self.availableFrom = availableFrom
            self.availableUntil = availableUntil
            self.encryption = encryption
            self.media = media
            self.installSize = installSize
            self.id = id
            self.kind = kind
            self.subject = subject
            self.locale = locale
            self.size = size
            self.sha256 = sha256
            self.path = path
            self.policy = policy
            self.access = access
            self.dependencies = dependencies
            self.minimumClientVersion = minimumClientVersion
        }

        /// The bundle's target name in the TUF targets metadata: `<id>.<format>`.
        public func targetName(format: ArchiveFormat) -> String { "\(id).\(format.fileExtension)" }

        /// Whether an app shows the bundle's content at `date`: from `availableFrom` (inclusive) until
        /// `availableUntil` (exclusive). Apps keep downloading content ahead of its window, so it appears
        /// on time offline.
        public func isAvailable(at date: Date) -> Bool {
            if let availableFrom, date < availableFrom { return false }
            if let availableUntil, date >= availableUntil { return false }
            return true
        }
    }

    public var tenant: String
    public var release: Int
    public var format: ArchiveFormat
    public var minimumClientVersion: String
    public var bundles: [Bundle]

    public init(tenant: String, release: Int, format: ArchiveFormat, minimumClientVersion: String, bundles: [Bundle]) {
        self.tenant = tenant
        self.release = release
        self.format = format
        self.minimumClientVersion = minimumClientVersion
        self.bundles = bundles
    }

    public func bundle(_ id: String) -> Bundle? { bundles.first { $0.id == id } }

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
                if let encryption = bundle.encryption { object["encryption"] = encryption.json }
                if let media = bundle.media { object["media"] = media.json }
                if let installSize = bundle.installSize { object["installSize"] = .int(installSize) }
                if let from = bundle.availableFrom { object["availableFrom"] = .string(TUFDate.string(from)) }
                if let until = bundle.availableUntil { object["availableUntil"] = .string(TUFDate.string(until)) }
                if let files = bundle.files { object["files"] = files.json }
                return .object(object)
            }),
        ])
    }

    public var bytes: Data { json.bytes }

    /// Reads a download manifest strictly: every field present with its type, known enumeration
    /// values, bundle ids unique; throws `TUFError(.malformed, …)` naming what is wrong.
    public init(data: Data) throws {
        let top = try StrictObject(JSONValue.parse(data), what: Self.targetName)
        guard try top.int("schemaVersion") == Self.schemaVersion else {
            throw TUFError(.malformed, "\(Self.targetName): schemaVersion \(try top.int("schemaVersion")) is not \(Self.schemaVersion) (a newer client is needed)")
        }
        guard case .array(let items)? = top.object["bundles"] else { throw TUFError(.malformed, "\(Self.targetName): \"bundles\" must be a list") }
        var seen: Set<String> = []
        let bundles = try items.enumerated().map { index, item -> Bundle in
            let o = try StrictObject(item, what: "\(Self.targetName) bundle \(index + 1)")
            let what = "\(Self.targetName) bundle \(index + 1)"
            let bundle = Bundle(id: try o.string("id"), kind: try o.value("kind", as: BundleKind.self), subject: try o.optionalString("subject"),
                                locale: try o.optionalString("locale"), size: try o.int("size"), sha256: try o.string("sha256"), path: try o.string("path"),
                                policy: try o.value("policy", as: LoadPolicy.self), access: try o.value("access", as: Access.self),
                                dependencies: try o.strings("dependencies"), minimumClientVersion: try o.string("minimumClientVersion"),
                                encryption: try o.object["encryption"].map { try BundleEncryption(json: $0, what: what) },
                                media: try o.object["media"].map { try BundleMedia(json: $0, what: what) },
                                installSize: o.object["installSize"] == nil ? nil : try o.int("installSize"),
                                availableFrom: try o.optionalDate("availableFrom"), availableUntil: try o.optionalDate("availableUntil"),
                                files: try o.object["files"].map { try FileIndexReference(json: $0, what: what) })
            if let from = bundle.availableFrom, let until = bundle.availableUntil, until <= from {
                throw TUFError(.malformed, "\(what): \"availableUntil\" is not after \"availableFrom\"")
            }
            guard seen.insert(bundle.id).inserted else { throw TUFError(.malformed, "\(Self.targetName) lists bundle '\(bundle.id)' twice") }
            return bundle
        }
        self.init(tenant: try top.string("tenant"), release: try top.int("release", minimum: 1), format: try top.value("format", as: ArchiveFormat.self),
                  minimumClientVersion: try top.string("minimumClientVersion"), bundles: bundles)
    }

    /// Reads a manifest Livery wrote; nil if the bytes are not one.
    public static func parse(_ data: Data) -> DownloadManifest? { try? DownloadManifest(data: data) }
}

/// `release.json`, the unsigned pointer to the current download manifest (docs/output.md): what a
/// plain HTTP client or a person reads first. Clients that verify use the signed metadata instead.
public struct ReleasePointer: Sendable, Equatable {
    public static let fileName = "release.json"
    public var tenant: String
    public var release: Int
    /// The download manifest, relative to the tenant's folder.
    public var manifest: String
    public var sha256: String

    public init(tenant: String, release: Int, manifest: String, sha256: String) {
        self.tenant = tenant
        self.release = release
        self.manifest = manifest
        self.sha256 = sha256
    }

    public var json: JSONValue {
        .object(["tenant": .string(tenant), "release": .int(release), "manifest": .string(manifest), "sha256": .string(sha256)])
    }

    public init(data: Data) throws {
        let o = try StrictObject(JSONValue.parse(data), what: Self.fileName)
        self.init(tenant: try o.string("tenant"), release: try o.int("release", minimum: 1), manifest: try o.string("manifest"), sha256: try o.string("sha256"))
    }

    public static func read(from folder: URL) -> ReleasePointer? {
        FileManager.default.contents(atPath: folder.appendingPathComponent(fileName, isDirectory: false).path).flatMap { try? ReleasePointer(data: $0) }
    }
}

/// The voucher server's answer to a successful redemption (`POST /<tenant>/vouchers/redeem`,
/// docs/vouchers.md): a bearer token for one tour, the bundles it unlocks, and when it expires.
public struct RedemptionAnswer: Sendable, Equatable {
    public var token: String
    /// What the voucher unlocks: `"subject": "<kind>:<id>"`; for a tour also `"tour": <id>`, which
    /// clients written before other kinds could be protected read.
    public var subject: VoucherSubject
    public var bundles: [String]
    /// Whole seconds, UTC (`2026-11-21T14:00:00Z`).
    public var expires: Date
    /// Per bundle of the current release, a short-lived signed URL of its target (`"urls"`): an S3
    /// presigned GET when the releases live in object storage, or a path on the voucher server with
    /// `lv-exp` and `lv-sig` (resolve it against the redemption URL). Empty from older servers.
    public var urls: [String: String]
    /// When the signed URLs stop working (`"urlsExpire"`); nil without URLs.
    public var urlsExpire: Date?
    /// The content keys of the encrypted bundles, sealed for the device key sent with the request (`"keys"`).
    public var keys: [WrappedContentKey]

    public init(token: String, subject: VoucherSubject, bundles: [String], expires: Date, urls: [String: String] = [:], urlsExpire: Date? = nil,
                keys: [WrappedContentKey] = []) {
        self.token = token
        self.subject = subject
        self.bundles = bundles
        self.expires = Date(timeIntervalSince1970: expires.timeIntervalSince1970.rounded(.down))
        self.urls = urls
        self.urlsExpire = urlsExpire.map { Date(timeIntervalSince1970: $0.timeIntervalSince1970.rounded(.down)) }
        self.keys = keys.sorted { $0.bundle < $1.bundle }
    }

    public var json: JSONValue {
        var fields: [String: JSONValue] = ["token": .string(token), "subject": .string(subject.description),
                                           "bundles": .array(bundles.map(JSONValue.string)), "expires": .string(TUFDate.string(expires))]
        if subject.kind == .tour { fields["tour"] = .string(subject.id) }
        if !urls.isEmpty { fields["urls"] = .object(urls.mapValues(JSONValue.string)) }
        if let urlsExpire { fields["urlsExpire"] = .string(TUFDate.string(urlsExpire)) }
        if !keys.isEmpty { fields["keys"] = .array(keys.map(\.json)) }
        return .object(fields)
    }

    /// Reads `subject`, or, from a server that predates it, `tour`.
    public init(data: Data) throws {
        let o = try StrictObject(JSONValue.parse(data), what: "the redemption answer")
        guard let expires = TUFDate.parseStrict(try o.string("expires")) else { throw TUFError(.malformed, "the redemption answer: \"expires\" is not a UTC date") }
        let subject: VoucherSubject
        if let text = try o.optionalString("subject") {
            guard let parsed = VoucherSubject(text), text.contains(":") else { throw TUFError(.malformed, "the redemption answer: \"subject\" is not <kind>:<id>") }
            subject = parsed
        } else {
            subject = VoucherSubject(.tour, try o.string("tour"))
        }
        var urls: [String: String] = [:]
        if let value = o.object["urls"] {
            guard case .object(let entries) = value else { throw TUFError(.malformed, "the redemption answer: \"urls\" must be an object of texts") }
            for (bundle, url) in entries {
                guard case .string(let text) = url else { throw TUFError(.malformed, "the redemption answer: \"urls\" must be an object of texts") }
                urls[bundle] = text
            }
        }
        var urlsExpire: Date?
        if let text = try o.optionalString("urlsExpire") {
            guard let date = TUFDate.parseStrict(text) else { throw TUFError(.malformed, "the redemption answer: \"urlsExpire\" is not a UTC date") }
            urlsExpire = date
        }
        var keys: [WrappedContentKey] = []
        if let value = o.object["keys"] {
            guard case .array(let items) = value else { throw TUFError(.malformed, "the redemption answer: \"keys\" must be a list") }
            keys = try items.enumerated().map { try WrappedContentKey(json: $1, what: "the redemption answer: key \($0 + 1)") }
        }
        self.init(token: try o.string("token"), subject: subject, bundles: try o.strings("bundles"), expires: expires, urls: urls,
                  urlsExpire: urlsExpire, keys: keys)
    }
}

/// `embedded.json` of a release shipped inside an app (`livery embed`, docs/deltas.md#a-release-inside-the-app):
/// the tenant, channel and release it holds, and the locale, tours and programs it was written for.
public struct EmbeddedSelection: Sendable, Equatable {
    public static let fileName = "embedded.json"
    public var tenant: String
    public var channel: String
    public var release: Int
    public var locale: String?
    public var tours: [String]
    public var programs: [String]

    public init(tenant: String, channel: String, release: Int, locale: String?, tours: [String], programs: [String]) {
        self.tenant = tenant
        self.channel = channel
        self.release = release
        self.locale = locale
        self.tours = tours
        self.programs = programs
    }

    public var json: JSONValue {
        var object: [String: JSONValue] = ["tenant": .string(tenant), "channel": .string(channel), "release": .int(release),
                                           "tours": .array(tours.map(JSONValue.string)), "programs": .array(programs.map(JSONValue.string))]
        if let locale { object["locale"] = .string(locale) }
        return .object(object)
    }

    public init(data: Data) throws {
        let o = try StrictObject(ReleaseJSONParser.parse(data), what: Self.fileName)
        self.init(tenant: try o.string("tenant"), channel: try o.string("channel"), release: try o.int("release", minimum: 1),
                  locale: try o.optionalString("locale"), tours: try o.strings("tours"), programs: try o.strings("programs"))
    }
}
