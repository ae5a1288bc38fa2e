import Crypto
import Foundation
import LiverySign
import LiveryReleaseFormat

// Key custody's other parsers of bytes Livery does not control:
// - `audit-log`: an audit log as `livery keys audit` reads it (`AuditLog.verify`): the log is the
//   evidence a tamperer edits. Refused: only with an `AuditLogError`. Accepted: one entry per line,
//   numbered 1, 2, …, each line its entry's canonical JSON and chained to the line before.
// - `pkcs11-uri`: an RFC 7512 URI from keys.yaml or a command line (`PKCS11URI`). Refused: only with a
//   `PKCS11URIError`. Accepted: never with a PIN value; its written form reads back as the same URI
//   and never holds `pin-value`.
extension FuzzTarget {
    static let auditTenant = "fuzz"

    static func checkAuditLog(_ data: Data) -> String? {
        let entries: [AuditEntry]
        do {
            entries = try AuditLog.verify(data, tenant: auditTenant, file: "audit.log")
        } catch is AuditLogError {
            return nil
        } catch {
            return "AuditLog.verify threw \(type(of: error)), not an AuditLogError"
        }
        let lines = data.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast()
        guard entries.count == lines.count else { return "\(lines.count) lines gave \(entries.count) entries" }
        var prev = AuditLog.genesis(tenant: auditTenant)
        for (index, (entry, line)) in zip(entries, lines).enumerated() {
            guard entry.seq == index + 1 else { return "line \(index + 1) accepted with seq \(entry.seq)" }
            guard entry.line == Data(line) else { return "line \(index + 1) is not its entry's canonical form" }
            guard entry.prev == prev else { return "line \(index + 1) accepted with a broken chain" }
            prev = SHA256.hash(data: Data(line)).hexString
        }
        return nil
    }

    static func checkPKCS11URI(_ data: Data) -> String? {
        guard let text = String(data: data, encoding: .utf8) else { return nil }
        let uri: PKCS11URI
        do {
            uri = try PKCS11URI(parsing: text)
        } catch is PKCS11URIError {
            return nil
        } catch {
            return "PKCS11URI threw \(type(of: error)), not a PKCS11URIError"
        }
        if text.lowercased().contains("pin-value=") { return "a URI with pin-value was accepted" }
        if uri.description.contains("pin-value") { return "the written form holds pin-value" }
        var again: PKCS11URI
        do { again = try PKCS11URI(parsing: uri.description) } catch { return "the written form \(uri.description) does not read back: \(error)" }
        // Vendor attributes are dropped from the written form (they are ignored when read).
        again.ignoredAttributes = uri.ignoredAttributes
        return again == uri ? nil : "the written form \(uri.description) reads back differently"
    }

    /// A log of three signatures, and URIs in RFC 7512's forms.
    static func custodySeeds() throws -> (audit: [Data], uris: [Data]) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livery-fuzz-audit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = AuditLog(file: folder.appendingPathComponent("audit.log"), tenant: auditTenant)
        let digest = String(repeating: "ab", count: 32)
        try log.append((1...3).map { AuditEvent(time: Date(timeIntervalSince1970: 1_800_000_000), role: "timestamp", version: $0, keyID: digest, signed: digest,
                                                 file: "timestamp.json", machine: "fuzz", signer: "file:timestamp.key") })
        let uris = ["pkcs11:token=livery;object=acme-timestamp?module-path=/usr/lib/softhsm/libsofthsm2.so&pin-source=env:LIVERY_HSM_PIN",
                    "pkcs11:object=my-pubkey;type=public", "pkcs11:token=Software%20PKCS%2311%20softtoken;manufacturer=Snake%20Oil,%20Inc.?pin-source=file:/etc/token",
                    "pkcs11:id=%01%02;slot-id=3;library-version=1.2?module-name=softhsm2", "pkcs11:token=A%20name;vendor-x=1"]
        return ([try Data(contentsOf: log.file)], uris.map { Data($0.utf8) })
    }
}
