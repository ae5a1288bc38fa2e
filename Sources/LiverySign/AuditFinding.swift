import Foundation

/// What `AuditLog.explain` found when it held published metadata against the audit log.
public struct AuditFinding: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        /// Published signatures the log has no line for: signed elsewhere, or the log lost lines. An error.
        case unexplained
        /// Logged signatures of metadata that is not published (a staging release never promoted, a
        /// signing that failed later). Information, not an error.
        case unpublished
    }

    public var kind: Kind
    public var file: String
    public var channel: String?
    public var role: String
    public var version: Int
    /// The key ids concerned: unexplained signatures, or the logged signatures of unpublished metadata.
    public var keyIDs: [String]
    /// The log lines concerned (unpublished findings only).
    public var seqs: [Int]

    public init(kind: Kind, file: String, channel: String?, role: String, version: Int, keyIDs: [String], seqs: [Int] = []) {
        self.kind = kind
        self.file = file
        self.channel = channel
        self.role = role
        self.version = version
        self.keyIDs = keyIDs
        self.seqs = seqs
    }

    public var isError: Bool { kind == .unexplained }

    public var description: String {
        let place = file + (channel.map { " (channel \($0))" } ?? "")
        let keys = keyIDs.map { String($0.prefix(16)) }.joined(separator: ", ")
        switch kind {
        case .unexplained:
            return "\(place): version \(version) of \(role) carries signatures the audit log does not record, by key \(keys)"
        case .unpublished:
            return "\(place): the audit log records signatures of version \(version) of \(role) that are not published (line \(seqs.map(String.init).joined(separator: ", ")), key \(keys))"
        }
    }
}

extension AuditLog {
    /// The signatures of one published metadata file, as `explain` compares them with the log.
    public typealias PublishedSignatures = (file: String, channel: String?, role: String, version: Int, signedSHA256: String, keyIDs: [String])

    /// Holds published metadata against the log: every published signature (role, version, key id
    /// and digest of `signed`) must have a log entry. Reports each published file whose signatures the
    /// log does not explain (errors, first, in the order given), then the logged signatures of
    /// metadata that is not published (information, in log order).
    public static func explain(published: [PublishedSignatures], log: [AuditEntry]) -> [AuditFinding] {
        struct Signature: Hashable {
            var role: String
            var version: Int
            var keyID: String
            var signed: String
        }
        let logged = Set(log.map { Signature(role: $0.event.role, version: $0.event.version, keyID: $0.event.keyID, signed: $0.event.signed) })
        var findings: [AuditFinding] = []
        var publishedSignatures = Set<Signature>()
        for item in published {
            let signatures = item.keyIDs.map { Signature(role: item.role, version: item.version, keyID: $0, signed: item.signedSHA256) }
            publishedSignatures.formUnion(signatures)
            let missing = signatures.filter { !logged.contains($0) }.map(\.keyID)
            if !missing.isEmpty {
                findings.append(AuditFinding(kind: .unexplained, file: item.file, channel: item.channel, role: item.role, version: item.version, keyIDs: missing.sorted()))
            }
        }
        // One finding per unpublished file (as logged), with its signatures' keys and lines.
        struct Logged: Hashable {
            var file: String
            var channel: String?
            var role: String
            var version: Int
            var signed: String
        }
        var unpublished: [Logged: AuditFinding] = [:]
        var order: [Logged] = []
        for entry in log {
            let event = entry.event
            guard !publishedSignatures.contains(Signature(role: event.role, version: event.version, keyID: event.keyID, signed: event.signed)) else { continue }
            let key = Logged(file: event.file, channel: event.channel, role: event.role, version: event.version, signed: event.signed)
            if unpublished[key] == nil { order.append(key) }
            var finding = unpublished[key] ?? AuditFinding(kind: .unpublished, file: event.file, channel: event.channel, role: event.role, version: event.version, keyIDs: [])
            if !finding.keyIDs.contains(event.keyID) { finding.keyIDs.append(event.keyID) }
            finding.seqs.append(entry.seq)
            unpublished[key] = finding
        }
        return findings + order.compactMap { unpublished[$0] }
    }
}
