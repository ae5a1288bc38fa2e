import Foundation
import LiveryReleaseFormat

/// The error classes a vector can expect: a small vocabulary named after python-tuf's exceptions
/// (`tuf.api.exceptions`), the reference client. `RepositoryError` is the parent of the metadata
/// errors: a client that reports a more precise class than the one a case names still agrees.
public enum VectorErrorClass: String, Sendable, CaseIterable {
    case repositoryError = "RepositoryError"
    case badSignature = "BadSignature"
    case badVersionNumber = "BadVersionNumber"
    case expiredMetadata = "ExpiredMetadata"
    case lengthOrHashMismatch = "LengthOrHashMismatch"
    case downloadLengthMismatch = "DownloadLengthMismatch"
    case targetNotFound = "TargetNotFound"
    case unsafeArchive = "UnsafeArchive"

    /// The broader class this one refines.
    public var parent: VectorErrorClass? {
        switch self {
        case .badSignature, .badVersionNumber, .expiredMetadata, .lengthOrHashMismatch: return .repositoryError
        default: return nil
        }
    }

    /// Whether a client that reported `reported` agrees with a case that expects `self`.
    public func isSatisfied(by reported: VectorErrorClass) -> Bool {
        reported == self || reported.parent == self
    }

    /// What the class means, for case.json readers and docs/client-vectors.md.
    public var meaning: String {
        switch self {
        case .repositoryError: return "Metadata that fails verification in a way not named below: the wrong role type, a malformed file, a signature list with a repeated key id, a snapshot that drops a role file or does not list a delegated role."
        case .badSignature: return "Fewer valid signatures than the threshold, by the keys the delegating role (or the trusted root) names."
        case .badVersionNumber: return "A version lower than the trusted one (rollback), or not the version the parent role names."
        case .expiredMetadata: return "Metadata whose expiry date has passed (freeze)."
        case .lengthOrHashMismatch: return "A file whose length or SHA-256 differs from what its parent role signed (mix-and-match, tampering)."
        case .downloadLengthMismatch: return "The server sent more bytes than the signed length: stop reading there (endless data)."
        case .targetNotFound: return "No trusted role vouches for the target: it is not listed, or only a role that may not sign that path lists it."
        case .unsafeArchive: return "A bundle that verifies but whose archive would write outside its folder (an entry such as ../evil), or holds links or devices."
        }
    }

    /// The python-tuf 7 outcome that maps to this class.
    public var pythonTUF: String {
        switch self {
        case .repositoryError: return "RepositoryError (also DeserializationError)"
        case .badSignature: return "UnsignedMetadataError"
        case .badVersionNumber: return "BadVersionNumberError"
        case .expiredMetadata: return "ExpiredMetadataError"
        case .lengthOrHashMismatch: return "LengthOrHashMismatchError"
        case .downloadLengthMismatch: return "DownloadLengthMismatchError"
        case .targetNotFound: return "get_targetinfo() returns None"
        case .unsafeArchive: return "none (python-tuf does not unpack targets)"
        }
    }
}

/// Where in a step a refusal happens.
public enum VectorPhase: String, Sendable, CaseIterable {
    /// Updating root, timestamp, snapshot and top-level targets.
    case refresh
    /// Looking a target up (delegated roles included) and downloading it.
    case download
    /// Unpacking a verified bundle.
    case install
}

/// What a client must do at one step.
public enum VectorOutcome: Sendable, Equatable {
    case accept
    case refuse(VectorErrorClass, VectorPhase)
}

/// A target a client must hold after a step: its name, length and SHA-256.
public struct HeldTarget: Sendable, Equatable {
    public var name: String
    public var length: Int
    public var sha256: String
}

/// One step of a case: the repository state the server offers, what the client asks for, and
/// what it must do.
public struct VectorStep: Sendable {
    var repository: VectorRepository
    /// Targets to look up and download after the refresh, in order.
    public var download: [String]
    /// Programs an app asks for (release cases), besides the essential bundles.
    public var programs: [String] = []
    public var outcome: VectorOutcome
    /// The root version the client trusts after the step.
    public var rootVersion: Int
    /// The targets the client holds after the step (filled from the previous step for a refusal).
    public var holds: [HeldTarget]
    /// The release an app has installed after the step (release cases), nil when none.
    public var installedRelease: Int?
    /// Installed files (`<bundle id>/<path in the bundle>`) the harness overwrites with other bytes before
    /// the step: a device whose base no longer matches its index (delta cases).
    public var corruptInstalled: [String] = []

    /// A step the client must accept, after which it holds `holding` (from `release`, plus `extra`).
    static func accept(_ repository: VectorRepository, download: [String], holding release: VectorRelease?, extra: [VectorTarget] = [],
                       programs: [String] = [], rootVersion: Int = 1) -> VectorStep {
        let held = download.compactMap { name in (release?.target(name) ?? extra.first { $0.name == name }) }
        return VectorStep(repository: repository, download: download, programs: programs, outcome: .accept, rootVersion: rootVersion,
                          holds: held.map { HeldTarget(name: $0.name, length: $0.data.count, sha256: $0.sha256) },
                          installedRelease: release?.number)
    }

    /// A step the client must refuse; it keeps what it held before.
    static func refuse(_ repository: VectorRepository, download: [String], _ error: VectorErrorClass, at phase: VectorPhase,
                       programs: [String] = [], rootVersion: Int = 1) -> VectorStep {
        VectorStep(repository: repository, download: download, programs: programs, outcome: .refuse(error, phase), rootVersion: rootVersion,
                   holds: [], installedRelease: nil)
    }
}

/// One test vector: a trusted root, a sequence of repository states, and what a conforming client
/// must do with each.
public struct VectorCase: Sendable {
    public var id: String
    public var summary: String
    public var description: String
    /// True when every step's repository is a complete Livery release and `download` is what an
    /// app installs (the manifest, the essential bundles and the programs asked for), so an app
    /// client can run the case end to end; false when the case uses plain TUF targets.
    public var release: Bool
    var trustedRoot: Data
    public var steps: [VectorStep]

    init(id: String, summary: String, description: String, release: Bool = true, trustedRoot: Data, steps: [VectorStep]) {
        self.id = id
        self.summary = summary
        self.description = description
        self.release = release
        self.trustedRoot = trustedRoot
        // A refused step keeps what the client held after the step before it.
        var held: [HeldTarget] = []
        var installed: Int?
        self.steps = steps.map { step in
            var step = step
            if case .refuse = step.outcome {
                step.holds = held
                step.installedRelease = installed
            }
            held = step.holds
            installed = step.installedRelease
            return step
        }
    }

    /// The case's `case.json` (docs/client-vectors.md describes the fields).
    var json: JSONValue {
        .object([
            "schemaVersion": .int(1),
            "id": .string(id),
            "summary": .string(summary),
            "description": .string(description),
            "release": .bool(release),
            "trustedRoot": .string("trusted-root.json"),
            "steps": .array(steps.enumerated().map { index, step in
                var object: [String: JSONValue] = [
                    "step": .int(index + 1),
                    "repository": .string("steps/\(index + 1)"),
                    "download": .array(step.download.map(JSONValue.string)),
                    "rootVersion": .int(step.rootVersion),
                    "holds": .array(step.holds.map { .object(["target": .string($0.name), "length": .int($0.length), "sha256": .string($0.sha256)]) }),
                ]
                switch step.outcome {
                case .accept:
                    object["expect"] = .string("accept")
                case .refuse(let error, let phase):
                    object["expect"] = .string("refuse")
                    object["error"] = .string(error.rawValue)
                    object["phase"] = .string(phase.rawValue)
                }
                if !step.corruptInstalled.isEmpty { object["corruptInstalled"] = .array(step.corruptInstalled.map(JSONValue.string)) }
                if release {
                    object["request"] = .object(["locale": .string("en"), "programs": .array(step.programs.map(JSONValue.string))])
                    object["installedRelease"] = step.installedRelease.map(JSONValue.int) ?? .null
                }
                return .object(object)
            }),
        ])
    }
}
