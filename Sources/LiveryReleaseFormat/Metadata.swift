import Crypto
import Foundation

/// The four top-level TUF roles.
public enum TUFRole: String, Sendable, CaseIterable {
    case root, targets, snapshot, timestamp
}

/// TUF metadata: a `signed` document and its signatures (the envelope of every role).
public struct SignedMetadata: Sendable {
    public var signed: JSONValue { didSet { original = nil } }
    public var signatures: [(keyID: String, signature: String)] { didSet { original = nil } }
    /// The bytes this metadata was read from (hashes in snapshot and timestamp are over them).
    public private(set) var original: Data?

    public init(signed: JSONValue, signatures: [(keyID: String, signature: String)] = []) {
        self.signed = signed
        self.signatures = signatures
    }

    public var role: TUFRole? { signed["_type"]?.stringValue.flatMap(TUFRole.init(rawValue:)) }
    public var version: Int? { signed["version"]?.intValue }
    public var expires: Date? { signed["expires"]?.stringValue.flatMap(TUFDate.parse) }

    public var json: JSONValue {
        .object(["signed": signed, "signatures": .array(signatures.map { .object(["keyid": .string($0.keyID), "sig": .string($0.signature)]) })])
    }

    /// The file bytes: those it was read from, else the deterministic JSON of `JSONValue` (the same
    /// metadata, the same bytes). That is canonical JSON byte for byte, except that control characters
    /// in strings are escaped: canonical JSON leaves the line breaks of a PEM public key raw, which
    /// strict JSON readers (python-tuf's, ours) refuse. Signatures are always over the canonical form.
    public func bytes() throws -> Data {
        if let original { return original }
        _ = try CanonicalJSON.encode(json)  // refuses what cannot be signed (floats)
        return json.bytes.dropLast()
    }

    public init(data: Data) throws {
        let value = try JSONValue.parse(data)
        guard let signed = value["signed"], signed.objectValue != nil, let list = value["signatures"]?.arrayValue else {
            throw TUFError("not TUF metadata: expected {\"signed\": …, \"signatures\": […]}")
        }
        self.signed = signed
        original = data
        signatures = try list.map { item in
            guard let keyID = item["keyid"]?.stringValue, let sig = item["sig"]?.stringValue else { throw TUFError("malformed signature entry") }
            return (keyID, sig)
        }
    }

    /// How many distinct keys among `keys` (id → key) with ids in `allowed` signed this metadata validly.
    public func validSignatures(keys: [String: TUFKey], allowed: [String]) -> Int {
        guard let message = try? CanonicalJSON.encode(signed) else { return 0 }
        var counted = Set<String>()
        for (keyID, signature) in signatures where allowed.contains(keyID) && !counted.contains(keyID) {
            // The id is the one the delegating role gave the key; it is not recomputed (TUF 1.0.x
            // lets repositories choose ids, and python-tuf does not recompute them either).
            if let key = keys[keyID], key.verifies(signature, of: message) { counted.insert(keyID) }
        }
        return counted.count
    }
}

/// A failure of TUF metadata or of the trust workflow, explained for people, with a kind a program
/// can act on (the error classes of python-tuf's `tuf.api.exceptions`, which the client test vectors
/// name).
public struct TUFError: Error, CustomStringConvertible, Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        /// Anything else the repository got wrong (a file missing from the snapshot, a removed role, …).
        case repository = "RepositoryError"
        /// Not metadata of the expected shape: bad JSON, a field of the wrong type, two signatures under one key id.
        case malformed = "DeserializationError"
        /// Metadata of another role where one role was expected.
        case wrongType = "WrongRoleType"
        /// Fewer valid signatures than the threshold.
        case unsigned = "UnsignedMetadataError"
        /// Expired metadata (a freeze attack, or a release nobody re-signed).
        case expired = "ExpiredMetadataError"
        /// A version older than trusted, or not the one its parent names (rollback).
        case badVersion = "BadVersionNumberError"
        /// A new timestamp with the trusted timestamp's version: keep the trusted one.
        case equalVersion = "EqualVersionNumberError"
        /// A file whose length or hash is not what its parent signed (mix-and-match, tampering).
        case lengthOrHashMismatch = "LengthOrHashMismatchError"
        /// A download longer than allowed (endless data).
        case downloadLengthMismatch = "DownloadLengthMismatchError"
        /// A transport failure: the server could not be reached or answered an HTTP error.
        case download = "DownloadError"
        /// A local failure: a file that cannot be written or read.
        case storage = "StorageError"
        /// No trusted role vouches for the target asked for.
        case targetNotFound = "TargetNotFound"
    }

    public var kind: Kind
    public var description: String
    public init(_ description: String) { self.init(.repository, description) }
    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}

/// TUF's date format: `2026-11-21T14:00:00Z`.
public enum TUFDate {
    // Written and read by hand, in UTC, with the proleptic Gregorian calendar (days from and to a civil
    // date as in Howard Hinnant's date algorithms): Foundation's ISO8601DateFormatter costs about 0.1 ms
    // to create (it opens an ICU formatter), and making one per date was over a third of a no-change
    // rebuild, which reads every tenant's metadata. A test compares both ways on many dates.

    /// `YYYY-MM-DDThh:mm:ssZ`, whole seconds (years 0 to 9999).
    public static func string(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : -((-seconds + 86_399) / 86_400)
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        var out = [UInt8]()
        out.reserveCapacity(20)
        func digits(_ value: Int, _ count: Int) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            var rest = value
            for _ in 0..<count {
                out.append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))
                rest %= divisor
                divisor /= 10
            }
        }
        digits(year, 4); out.append(UInt8(ascii: "-")); digits(month, 2); out.append(UInt8(ascii: "-")); digits(day, 2)
        out.append(UInt8(ascii: "T"))
        digits(secondOfDay / 3600, 2); out.append(UInt8(ascii: ":")); digits(secondOfDay / 60 % 60, 2); out.append(UInt8(ascii: ":")); digits(secondOfDay % 60, 2)
        out.append(UInt8(ascii: "Z"))
        return String(decoding: out, as: UTF8.self)
    }

    /// Exactly `YYYY-MM-DDThh:mm:ssZ` (what TUF writes; python-tuf accepts nothing else), a real date and time.
    public static func parseStrict(_ string: String) -> Date? {
        var string = string
        return string.withUTF8 { bytes -> Date? in
            guard bytes.count == 20, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54, bytes[13] == 0x3A, bytes[16] == 0x3A, bytes[19] == 0x5A else { return nil }
            func number(_ range: Range<Int>) -> Int? {
                var value = 0
                for i in range {
                    guard (0x30...0x39).contains(bytes[i]) else { return nil }
                    value = value * 10 + Int(bytes[i] - 0x30)
                }
                return value
            }
            guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
                  let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
                  (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour < 24, minute < 60, second < 60 else { return nil }
            let seconds = days(fromYear: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
            return Date(timeIntervalSince1970: TimeInterval(seconds))
        }
    }

    /// An RFC 3339 date and time (fractions and offsets allowed), for dates TUF does not sign.
    public static func parse(_ string: String) -> Date? {
        if let strict = parseStrict(string) { return strict }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: string)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to a civil date.
    static func days(fromYear year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The civil date of a day counted from 1970-01-01.
    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
