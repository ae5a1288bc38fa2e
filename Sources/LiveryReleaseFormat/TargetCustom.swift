import Foundation

/// Livery's description of a target, the `custom` object of its entry in targets metadata: the
/// download manifest with its release number, or a bundle with its id, kind, load policy, access
/// and the locale and subject (program, tour, library pack) it serves. The signer writes it, and
/// `livery serve` and the client read it, through this one type.
///
/// Read strictly: a known field of the wrong type, a missing required field or an unknown kind is a
/// `TUFError.Kind.malformed`. Fields this version does not know are kept and written back, so that
/// signing a release again never drops what a newer signer wrote.
public struct TargetCustom: Sendable, Equatable {
    /// A bundle target's description.
    public struct Bundle: Sendable, Equatable {
        public var id: String
        public var kind: BundleKind
        public var policy: LoadPolicy
        public var access: Access
        public var locale: String?
        /// The program, tour or library pack the bundle serves.
        public var subject: String?
        /// How the target's bytes are encrypted (voucher bundles of a signed release); nil: a plain archive.
        public var encryption: BundleEncryption?

        public init(id: String, kind: BundleKind, policy: LoadPolicy, access: Access, locale: String? = nil, subject: String? = nil,
                    encryption: BundleEncryption? = nil) {
            self.encryption = encryption
            self.id = id
            self.kind = kind
            self.policy = policy
            self.access = access
            self.locale = locale
            self.subject = subject
        }

        /// The tour a tour or tour-language bundle belongs to.
        public var tour: String? { kind == .tour || kind == .tourLanguage ? subject : nil }
    }

    public enum Content: Sendable, Equatable {
        /// The release's download manifest (`kind: download-manifest`).
        case downloadManifest(release: Int)
        case bundle(Bundle)
    }

    public static let downloadManifestKind = "download-manifest"

    public var content: Content
    /// A download manifest's channel and origin (build, promotion, rollback), when its signer recorded them.
    public var provenance: ReleaseProvenance?
    /// Set on `staged/download-manifest.json`: the share of devices that take this release.
    public var rollout: RolloutStage?
    /// Fields this version does not know, kept as read.
    public var unrecognized: [String: JSONValue]

    public init(_ content: Content, provenance: ReleaseProvenance? = nil, rollout: RolloutStage? = nil, unrecognized: [String: JSONValue] = [:]) {
        self.content = content
        self.provenance = provenance
        self.rollout = rollout
        self.unrecognized = unrecognized
    }

    public static func downloadManifest(release: Int) -> TargetCustom { TargetCustom(.downloadManifest(release: release)) }

    public static func downloadManifest(release: Int, provenance: ReleaseProvenance?, rollout: RolloutStage? = nil) -> TargetCustom {
        TargetCustom(.downloadManifest(release: release), provenance: provenance, rollout: rollout)
    }

    /// The release number, for a download manifest.
    public var release: Int? {
        if case .downloadManifest(let release) = content { return release }
        return nil
    }
    public static func bundle(_ bundle: Bundle) -> TargetCustom { TargetCustom(.bundle(bundle)) }

    /// The bundle this target is, nil for the download manifest.
    public var bundle: Bundle? {
        if case .bundle(let bundle) = content { return bundle }
        return nil
    }

    /// Whether downloading the target's bytes needs a voucher token.
    public var isProtected: Bool { bundle?.access == .voucher }

    /// The description of `target`, nil when its entry has no `custom`.
    public init?(of target: TargetFile) throws {
        guard let custom = target.custom else { return nil }
        try self.init(json: custom, what: "target \(target.path)")
    }

    public init(json: JSONValue, what: String = "a target") throws {
        guard case .object(var fields) = json else { throw TUFError(.malformed, "\(what): custom must be an object") }
        func take(_ key: String) throws -> String? {
            guard let value = fields.removeValue(forKey: key) else { return nil }
            guard case .string(let text) = value else { throw TUFError(.malformed, "\(what): custom.\(key) must be text") }
            return text
        }
        func require(_ key: String) throws -> String {
            guard let text = try take(key) else { throw TUFError(.malformed, "\(what): custom has no \(key)") }
            return text
        }
        func value<T: RawRepresentable & CaseIterable>(_ key: String, _: T.Type) throws -> T where T.RawValue == String {
            let text = try require(key)
            guard let value = T(rawValue: text) else {
                throw TUFError(.malformed, "\(what): custom.\(key) '\(text)' is not one of \(T.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return value
        }
        let kind = try require("kind")
        if kind == Self.downloadManifestKind {
            guard case .int(let release)? = fields.removeValue(forKey: "release"), release >= 1 else {
                throw TUFError(.malformed, "\(what): custom.release must be an integer of at least 1")
            }
            content = .downloadManifest(release: release)
            if let channel = try take("channel") {
                guard ReleaseChannel(channel) != nil else { throw TUFError(.malformed, "\(what): custom.channel '\(channel)' is not a channel name") }
                let originText = try require("origin")
                guard let origin = ReleaseProvenance.Origin(rawValue: originText) else {
                    throw TUFError(.malformed, "\(what): custom.origin '\(originText)' is not one of \(ReleaseProvenance.Origin.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                var fromRelease: Int?
                if let value = fields.removeValue(forKey: "fromRelease") {
                    guard case .int(let number) = value, number >= 1 else { throw TUFError(.malformed, "\(what): custom.fromRelease must be an integer of at least 1") }
                    fromRelease = number
                }
                provenance = ReleaseProvenance(channel: channel, origin: origin, fromChannel: try take("fromChannel"), fromRelease: fromRelease,
                                               reason: try take("reason"))
            }
            rollout = try fields.removeValue(forKey: "rollout").map { try RolloutStage(json: $0, what: what) }
        } else {
            guard let bundleKind = BundleKind(rawValue: kind) else {
                throw TUFError(.malformed, "\(what): custom.kind '\(kind)' is not \(Self.downloadManifestKind) or a bundle kind")
            }
            let bundle = Bundle(id: try require("bundle"), kind: bundleKind, policy: try value("policy", LoadPolicy.self),
                                access: try value("access", Access.self), locale: try take("locale"), subject: try take("subject"),
                                encryption: try fields.removeValue(forKey: "encryption").map { try BundleEncryption(json: $0, what: what) })
            content = .bundle(bundle)
        }
        unrecognized = fields
    }

    /// The `custom` object as the signer writes it.
    public var json: JSONValue {
        var object = unrecognized
        switch content {
        case .downloadManifest(let release):
            object["kind"] = .string(Self.downloadManifestKind)
            object["release"] = .int(release)
            if let provenance {
                object["channel"] = .string(provenance.channel)
                object["origin"] = .string(provenance.origin.rawValue)
                if let from = provenance.fromChannel { object["fromChannel"] = .string(from) }
                if let from = provenance.fromRelease { object["fromRelease"] = .int(from) }
                if let reason = provenance.reason { object["reason"] = .string(reason) }
            }
            if let rollout { object["rollout"] = rollout.json }
        case .bundle(let bundle):
            object["kind"] = .string(bundle.kind.rawValue)
            object["bundle"] = .string(bundle.id)
            object["policy"] = .string(bundle.policy.rawValue)
            object["access"] = .string(bundle.access.rawValue)
            if let locale = bundle.locale { object["locale"] = .string(locale) }
            if let subject = bundle.subject { object["subject"] = .string(subject) }
            if let encryption = bundle.encryption { object["encryption"] = encryption.json }
        }
        return .object(object)
    }
}
