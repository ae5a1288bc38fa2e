import Crypto
import Foundation
import LiveryStorage
import LiveryReleaseFormat
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One signature as the signer reports it to the audit log; the log numbers it, names the tenant
/// and chains it to the line before.
public struct AuditEvent: Sendable, Equatable {
    public var time: Date
    /// `root`, `targets`, `snapshot`, `timestamp`, or a delegated role's name.
    public var role: String
    /// The version of the metadata signed.
    public var version: Int
    public var keyID: String
    /// The hex SHA-256 of the canonical bytes of the `signed` part that was signed (`signedDigest`).
    public var signed: String
    /// The metadata file written (`3.targets.json`, `timestamp.json`).
    public var file: String
    public var channel: String?
    /// The host the signature was made on.
    public var machine: String
    /// Where the key is, as `MetadataSigner.uri` says it (without secrets).
    public var signer: String

    public init(time: Date = Date(), role: String, version: Int, keyID: String, signed: String, file: String, channel: String? = nil,
                machine: String = AuditLog.machineName, signer: String) {
        // The log records whole seconds; an event reads back equal to what was appended.
        self.time = Date(timeIntervalSince1970: (time.timeIntervalSince1970).rounded(.down))
        self.role = role
        self.version = version
        self.keyID = keyID
        self.signed = signed
        self.file = file
        self.channel = channel
        self.machine = machine
        self.signer = signer
    }

    /// The `signed` field of an event: the hex SHA-256 of `signed` in canonical JSON, the bytes a signature covers.
    public static func signedDigest(_ signed: JSONValue) throws -> String {
        SHA256.hash(data: try CanonicalJSON.encode(signed)).hexString
    }
}

/// One line of a tenant's audit log (`<store>/<tenant>/audit.log`).
public struct AuditEntry: Sendable, Equatable {
    /// 1 for the first line, and one more on every line after it.
    public var seq: Int
    public var tenant: String
    public var event: AuditEvent
    /// The hex SHA-256 of the line before, without its line end (`AuditLog.genesis` for line 1).
    public var prev: String

    public init(seq: Int, tenant: String, event: AuditEvent, prev: String) {
        self.seq = seq
        self.tenant = tenant
        self.event = event
        self.prev = prev
    }

    static let fields: Set<String> = ["seq", "time", "tenant", "role", "version", "keyid", "signed", "file", "channel", "machine", "signer", "prev"]

    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "seq": .int(seq), "time": .string(TUFDate.string(event.time)), "tenant": .string(tenant), "role": .string(event.role),
            "version": .int(event.version), "keyid": .string(event.keyID), "signed": .string(event.signed), "file": .string(event.file),
            "machine": .string(event.machine), "signer": .string(event.signer), "prev": .string(prev),
        ]
        if let channel = event.channel { object["channel"] = .string(channel) }
        return .object(object)
    }

    /// The line as written, without its line end: canonical JSON (sorted keys, no spaces).
    public var line: Data { (try? CanonicalJSON.encode(json)) ?? Data() }

    /// Reads a line's JSON; the reason it is not an entry is thrown as text.
    init(json: JSONValue) throws(AuditLineProblem) {
        guard let object = json.objectValue else { throw AuditLineProblem("is not a JSON object") }
        if let unknown = object.keys.sorted().first(where: { !Self.fields.contains($0) }) { throw AuditLineProblem("has a field \"\(unknown)\" that audit lines do not have") }
        func text(_ name: String) throws(AuditLineProblem) -> String {
            guard let value = object[name]?.stringValue else { throw AuditLineProblem("has no \"\(name)\" text") }
            return value
        }
        func digest(_ name: String) throws(AuditLineProblem) -> String {
            let value = try text(name)
            guard isDigest(value) else { throw AuditLineProblem("has a \"\(name)\" that is not 64 lowercase hexadecimal digits") }
            return value
        }
        guard case .int(let seq)? = object["seq"] else { throw AuditLineProblem("has no whole number \"seq\"") }
        guard case .int(let version)? = object["version"] else { throw AuditLineProblem("has no whole number \"version\"") }
        guard let time = TUFDate.parseStrict(try text("time")) else { throw AuditLineProblem("has a \"time\" that is not YYYY-MM-DDTHH:MM:SSZ") }
        var channel: String?
        if let value = object["channel"] {
            guard let name = value.stringValue else { throw AuditLineProblem("has a \"channel\" that is not text") }
            channel = name
        }
        self.seq = seq
        tenant = try text("tenant")
        prev = try digest("prev")
        event = AuditEvent(time: time, role: try text("role"), version: version, keyID: try digest("keyid"), signed: try digest("signed"), file: try text("file"),
                           channel: channel, machine: try text("machine"), signer: try text("signer"))
    }
}

/// A tenant's signing log: every signature the signer makes, one JSON line each, each line holding
/// the hash of the line before. Appends from several processes are serialised with `flock`.
///
/// What the chain shows: a line changed, removed or moved anywhere but at the end breaks it, and
/// `verify` says where. What it cannot show alone: whole lines cut from the end, or a last line
/// rewritten. `explain` covers those for what was published: every published signature must have
/// its line.
public final class AuditLog: Sendable {
    public let file: URL
    public let tenant: String

    public init(file: URL, tenant: String) {
        self.file = file
        self.tenant = tenant
    }

    /// The log of `tenant` in a key store: `<store>/<tenant>/audit.log`.
    public convenience init(store: URL, tenant: String) {
        self.init(file: store.appendingPathComponent(tenant, isDirectory: true).appendingPathComponent("audit.log", isDirectory: false), tenant: tenant)
    }

    /// The host name recorded as `machine`.
    public static var machineName: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "unknown" }
        let name = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: name, as: UTF8.self)
    }

    /// The `prev` of line 1: the SHA-256 of `livery-audit-v1\n<tenant>`, so that one tenant's log
    /// cannot be passed off as another's.
    public static func genesis(tenant: String) -> String {
        SHA256.hash(data: Data("livery-audit-v1\n\(tenant)".utf8)).hexString
    }

    /// The longest line read: an entry is well under 1 KiB.
    static let maximumLineLength = 64 * 1024

    /// Appends `events` as consecutive lines (under an exclusive lock, so appends from other
    /// processes interleave only between calls) and flushes them to the disk. `flush` false leaves
    /// the new lines (and a new log's folder entry) to a flush of the whole file system that the
    /// caller makes before anything they record is published (a build's `syncfs`).
    @discardableResult
    public func append(_ events: [AuditEvent], flush: Bool = true) throws -> [AuditEntry] {
        guard !events.isEmpty else { return [] }
        for event in events { try check(event) }
        let path = file.path
        let descriptor = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            let code = errno
            throw WriteFailure.storage(errno: code, path: path) ?? AuditLogError(path, nil, "cannot be opened: \(String(cString: strerror(code)))")
        }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw AuditLogError(path, nil, "cannot be locked: \(String(cString: strerror(errno)))") }
        }
        defer { flock(descriptor, LOCK_UN) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw AuditLogError(path, nil, "cannot be read: \(String(cString: strerror(errno)))") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw AuditLogError(path, nil, "is not a regular file") }
        guard info.st_mode & 0o022 == 0 else { throw AuditLogError(path, nil, "can be changed by other users: run `chmod 600 \(path)`") }
        let size = Int(info.st_size)

        var seq = 1
        var prev = Self.genesis(tenant: tenant)
        if size > 0 {
            let last = try lastLine(descriptor, size: size)
            let entry: AuditEntry
            do {
                entry = try AuditEntry(json: try JSONValue.parse(last))
            } catch {
                throw AuditLogError(path, nil, "has a last line that is not an audit entry (\(error)): run `livery keys audit <tenant>` to find the damage")
            }
            guard entry.tenant == tenant else { throw AuditLogError(path, nil, "is the log of tenant '\(entry.tenant)', not of '\(tenant)'") }
            seq = entry.seq + 1
            prev = SHA256.hash(data: last).hexString
        }
        var entries: [AuditEntry] = []
        var bytes = Data()
        for event in events {
            let entry = AuditEntry(seq: seq, tenant: tenant, event: event, prev: prev)
            let line = try CanonicalJSON.encode(entry.json)
            entries.append(entry)
            bytes.append(line)
            bytes.append(0x0A)
            seq += 1
            prev = SHA256.hash(data: line).hexString
        }
        try bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else {
                    let code = count == 0 ? ENOSPC : errno
                    throw WriteFailure.storage(errno: code, path: path) ?? AuditLogError(path, nil, "cannot be written: \(String(cString: strerror(code)))")
                }
                offset += count
            }
        }
        if flush {
            guard fsync(descriptor) == 0 else {
                let code = errno
                throw WriteFailure.storage(errno: code, path: path) ?? AuditLogError(path, nil, "cannot be flushed to the disk: \(String(cString: strerror(code)))")
            }
            if size == 0 { syncFolder() }
        }
        return entries
    }

    /// Every entry, after checking the whole chain; the first break is thrown with its line number.
    public func verify() throws -> [AuditEntry] {
        let path = file.path
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw AuditLogError(path, nil, "cannot be read: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        // Shared: an append in progress finishes before the log is read, so its lines are whole.
        while flock(descriptor, LOCK_SH) != 0 {
            guard errno == EINTR else { throw AuditLogError(path, nil, "cannot be locked: \(String(cString: strerror(errno)))") }
        }
        defer { flock(descriptor, LOCK_UN) }
        let data = try FileHandle(fileDescriptor: descriptor, closeOnDealloc: false).readToEnd() ?? Data()
        return try Self.verify(data, tenant: tenant, file: path)
    }

    /// The checks of `verify` on a log's bytes.
    public static func verify(_ data: Data, tenant: String, file: String) throws -> [AuditEntry] {
        guard !data.isEmpty else { return [] }
        var lines = data.split(separator: 0x0A, omittingEmptySubsequences: false)
        let cutShort = data.last != 0x0A
        if !cutShort { lines.removeLast() }
        var entries: [AuditEntry] = []
        var prev = genesis(tenant: tenant)
        for (index, line) in lines.enumerated() {
            let number = index + 1
            if index == lines.count - 1, cutShort {
                throw AuditLogError(file, number, "the last line is cut short (no line end): a write was interrupted, or the file was truncated")
            }
            guard !line.isEmpty else { throw AuditLogError(file, number, "is empty") }
            guard line.count <= maximumLineLength else { throw AuditLogError(file, number, "is longer than \(maximumLineLength) bytes") }
            let entry: AuditEntry
            do {
                entry = try AuditEntry(json: try JSONValue.parse(Data(line)))
            } catch let problem as AuditLineProblem {
                throw AuditLogError(file, number, problem.description)
            } catch {
                throw AuditLogError(file, number, "is not JSON: \(error)")
            }
            guard (try? CanonicalJSON.encode(entry.json)) == Data(line) else {
                throw AuditLogError(file, number, "is not written as Livery writes it (canonical JSON): it was edited")
            }
            guard entry.tenant == tenant else { throw AuditLogError(file, number, "is an entry of tenant '\(entry.tenant)' in the log of '\(tenant)'") }
            guard entry.seq == number else {
                throw AuditLogError(file, number, entry.seq > number
                    ? "has seq \(entry.seq) where \(number) was expected: \(entry.seq - number == 1 ? "a line is" : "lines are") missing before it, or lines are out of order"
                    : "has seq \(entry.seq) where \(number) was expected: lines are out of order or repeated")
            }
            guard entry.prev == prev else {
                guard index > 0 else { throw AuditLogError(file, number, "does not start the log of '\(tenant)' (its prev is not the log's first hash): lines before it are missing, or it was changed") }
                // Line N-1 was changed if the rest of the chain from line N holds; otherwise line N was.
                let hash = SHA256.hash(data: Data(line)).hexString
                let next = index + 1 < lines.count ? (try? JSONValue.parse(Data(lines[index + 1])))?["prev"]?.stringValue : nil
                if next == hash { throw AuditLogError(file, number - 1, "was changed after it was written: line \(number) records another hash of it") }
                if next != nil { throw AuditLogError(file, number, "was changed after it was written: its prev does not match line \(number - 1), and line \(number + 1) records another hash of it") }
                throw AuditLogError(file, number, "has a prev that does not match line \(number - 1): that line or this one was changed after it was written")
            }
            entries.append(entry)
            prev = SHA256.hash(data: Data(line)).hexString
        }
        return entries
    }

    // MARK: - Writing

    private func check(_ event: AuditEvent) throws {
        // Canonical JSON writes control characters raw: a line end in a field would split the line.
        let texts = [tenant, event.role, event.file, event.machine, event.signer] + (event.channel.map { [$0] } ?? [])
        if let bad = texts.first(where: { $0.utf8.contains { $0 < 0x20 || $0 == 0x7F } }) {
            throw AuditLogError(file.path, nil, "cannot record \(bad.debugDescription): it holds a control character")
        }
        guard !tenant.isEmpty, !event.role.isEmpty, !event.file.isEmpty else { throw AuditLogError(file.path, nil, "cannot record a signature without tenant, role and file") }
        guard event.version >= 1 else { throw AuditLogError(file.path, nil, "cannot record version \(event.version) of \(event.file): versions start at 1") }
        guard isDigest(event.keyID), isDigest(event.signed) else {
            throw AuditLogError(file.path, nil, "cannot record a signature of \(event.file) whose key id or digest is not 64 lowercase hexadecimal digits")
        }
    }

    /// The last line of the file (without its line end), read from the end backwards, not the whole file.
    private func lastLine(_ descriptor: Int32, size: Int) throws -> Data {
        guard try read(descriptor, from: size - 1, count: 1) == Data([0x0A]) else {
            throw AuditLogError(file.path, nil, "ends with a line that is cut short (an interrupted write?): nothing more is appended until it is repaired; "
                                + "run `livery keys audit <tenant>` to see the damage")
        }
        var tail = Data([0x0A])
        var start = size - 1
        var chunk = 1024
        while true {
            let from = max(0, start - chunk)
            tail = try read(descriptor, from: from, count: start - from) + tail
            start = from
            let body = tail.dropLast()
            if let newline = body.lastIndex(of: 0x0A) { return Data(body[(newline + 1)...]) }
            if start == 0 { return Data(body) }
            guard tail.count <= Self.maximumLineLength else { throw AuditLogError(file.path, nil, "ends with a line longer than \(Self.maximumLineLength) bytes") }
            chunk *= 2
        }
    }

    private func read(_ descriptor: Int32, from offset: Int, count: Int) throws -> Data {
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let read = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + filled, count - filled, off_t(offset + filled)) }
            if read < 0 && errno == EINTR { continue }
            guard read > 0 else { throw AuditLogError(file.path, nil, "cannot be read: \(read < 0 ? String(cString: strerror(errno)) : "it is shorter than it was")") }
            filled += read
        }
        return Data(buffer)
    }

    private func syncFolder() {
        let descriptor = open(file.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}

/// A break in an audit log, at a line when one is known.
public struct AuditLogError: Error, CustomStringConvertible, Sendable, Equatable {
    public var file: String
    public var line: Int?
    public var problem: String

    public init(_ file: String, _ line: Int?, _ problem: String) {
        self.file = file
        self.line = line
        self.problem = problem
    }

    /// `audit.log:LINE: problem` (the whole path), or `audit.log problem` when no line is at fault.
    public var description: String { line.map { "\(file):\($0): \(problem)" } ?? "\(file) \(problem)" }
}

/// Why one line is not an audit entry.
struct AuditLineProblem: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

private func isDigest(_ text: String) -> Bool {
    text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
}
