import Crypto
import Foundation
import LiverySign
import LiveryReleaseFormat
import XCTest

/// The per-tenant signing log (issue 19): appends from threads and processes keep one unbroken
/// chain, any line changed, removed, moved or cut is found at its line, and published metadata is
/// held against the log.
final class AuditLogTests: XCTestCase {
    var folder: URL!
    var url: URL { folder.appendingPathComponent("audit.log") }
    let tenant = "sonic-walkscape"

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("livery-audit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    static func digest(_ text: String) -> String { SHA256.hash(data: Data(text.utf8)).hexString }

    func event(_ role: String = "targets", version: Int, key: String = "k1", signed: String? = nil, file: String? = nil, channel: String? = "stable",
               signer: String = "file:/keys/targets.key") -> AuditEvent {
        AuditEvent(time: Date(timeIntervalSince1970: 1_800_000_000), role: role, version: version, keyID: Self.digest(key), signed: signed ?? Self.digest("\(role) \(version)"),
                   file: file ?? (role == "timestamp" ? "timestamp.json" : "\(version).\(role).json"), channel: channel, machine: "build-1", signer: signer)
    }

    func lines() throws -> [String] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    func write(_ lines: [String]) throws {
        try Data(lines.joined(separator: "\n").utf8).write(to: url)
    }

    func assertBroken(atLine line: Int, mentioning text: String, file: StaticString = #filePath, lineNumber: UInt = #line) {
        XCTAssertThrowsError(try AuditLog(file: url, tenant: tenant).verify(), file: file, line: lineNumber) { error in
            guard let error = error as? AuditLogError else { return XCTFail("not an AuditLogError: \(error)", file: file, line: lineNumber) }
            XCTAssertEqual(error.line, line, "\(error)", file: file, line: lineNumber)
            XCTAssertTrue(error.description.hasPrefix("\(url.path):\(line): "), "\(error)", file: file, line: lineNumber)
            XCTAssertTrue(error.description.contains(text), "'\(error)' does not mention '\(text)'", file: file, line: lineNumber)
        }
    }

    /// Five lines from three appends.
    func fiveLines() throws {
        let log = AuditLog(file: url, tenant: tenant)
        try log.append([event(version: 1)])
        try log.append([event("targets", version: 2), event("snapshot", version: 2)])
        try log.append([event("timestamp", version: 2), event("timestamp", version: 3, channel: nil)])
    }

    // MARK: - Appending

    func testAppendsReadBackAsOneChain() throws {
        let log = AuditLog(file: url, tenant: tenant)
        var appended = try log.append([event(version: 1)])
        appended += try log.append([event("targets", version: 2), event("snapshot", version: 2)])
        appended += try AuditLog(file: url, tenant: tenant).append([event("timestamp", version: 2, channel: nil)])
        let entries = try log.verify()
        XCTAssertEqual(entries, appended)
        XCTAssertEqual(entries.map(\.seq), [1, 2, 3, 4])
        XCTAssertEqual(entries.map(\.event), [event(version: 1), event("targets", version: 2), event("snapshot", version: 2), event("timestamp", version: 2, channel: nil)])
        XCTAssertEqual(entries[0].prev, Self.digest("livery-audit-v1\n\(tenant)"))
        XCTAssertEqual(AuditLog.genesis(tenant: tenant), Self.digest("livery-audit-v1\n\(tenant)"))
        let lines = try lines()
        XCTAssertEqual(lines.count, 5, "four lines, each with its line end")
        XCTAssertEqual(lines.last, "")
        for index in 1..<4 { XCTAssertEqual(entries[index].prev, Self.digest(lines[index - 1])) }
        // Canonical JSON: sorted keys, no spaces; no channel field when there is none.
        XCTAssertEqual(lines[3], #"{"file":"timestamp.json","keyid":"\#(Self.digest("k1"))","machine":"build-1","prev":"\#(Self.digest(lines[2]))","role":"timestamp","#
                       + #""seq":4,"signed":"\#(Self.digest("timestamp 2"))","signer":"file:/keys/targets.key","tenant":"sonic-walkscape","time":"2027-01-15T08:00:00Z","version":2}"#)
        XCTAssertEqual((try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue, 0o600)
    }

    func testMissingLogIsAnErrorAndAnEmptyOneHasNoEntries() throws {
        XCTAssertThrowsError(try AuditLog(file: url, tenant: tenant).verify())
        XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: Data(), attributes: [.posixPermissions: 0o600]))
        XCTAssertEqual(try AuditLog(file: url, tenant: tenant).verify(), [])
    }

    func testLongLinesAreFoundFromTheTail() throws {
        // Lines longer than the first chunk read backwards from the end.
        let log = AuditLog(file: url, tenant: tenant)
        for version in 1...3 { try log.append([event(version: version, signer: "pkcs11:token=" + String(repeating: "x", count: 3000 * version))]) }
        XCTAssertEqual(try log.verify().map(\.seq), [1, 2, 3])
    }

    func testEventsThatWouldBreakALineAreRefused() throws {
        let log = AuditLog(file: url, tenant: tenant)
        XCTAssertThrowsError(try log.append([event(version: 1, signer: "file:/keys/a\nb.key")])) { XCTAssertTrue("\($0)".contains("control character"), "\($0)") }
        XCTAssertThrowsError(try log.append([AuditEvent(role: "targets", version: 1, keyID: "k1", signed: Self.digest("x"), file: "1.targets.json", signer: "s")]))
        XCTAssertFalse(FileManager.default.fileExists(atPath: url.path), "nothing written")
    }

    /// Four threads, each with a log of its own on the same file, and two python3 processes writing
    /// lines of their own (an independent writer of the format) append at once: every line gets its
    /// own seq, the chain holds, and a batch of several lines is never split.
    func testConcurrentAppendsFromThreadsAndProcessesKeepTheChain() throws {
        let threads = 4, appends = 25, pythonLines = 40
        let script = """
            import fcntl, hashlib, json, os, sys
            path, tenant, name, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
            genesis = hashlib.sha256(("livery-audit-v1\\n" + tenant).encode()).hexdigest()
            for i in range(count):
                with open(path, "a+b") as f:
                    fcntl.flock(f, fcntl.LOCK_EX)
                    f.seek(0)
                    lines = f.read().split(b"\\n")[:-1]
                    seq, prev = (json.loads(lines[-1])["seq"] + 1, hashlib.sha256(lines[-1]).hexdigest()) if lines else (1, genesis)
                    entry = {"seq": seq, "time": "2027-01-15T08:00:00Z", "tenant": tenant, "role": "timestamp", "version": i + 1,
                             "keyid": hashlib.sha256(name.encode()).hexdigest(), "signed": hashlib.sha256(b"%d" % i).hexdigest(),
                             "file": "timestamp.json", "machine": name, "signer": "file:/k", "prev": prev}
                    f.write(json.dumps(entry, sort_keys=True, separators=(",", ":")).encode() + b"\\n")
                    f.flush()
                    os.fsync(f.fileno())
                    fcntl.flock(f, fcntl.LOCK_UN)
            """
        XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: Data(), attributes: [.posixPermissions: 0o600]))
        let writers = try ["python-a", "python-b"].map { name in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", "-c", script, url.path, tenant, name, String(pythonLines)]
            try process.run()
            return process
        }
        let failures = Failures()
        let (file, name) = (url, tenant)
        let batch = [event("snapshot", version: 7), event("timestamp", version: 7)]
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            let log = AuditLog(file: file, tenant: name)
            for _ in 0..<appends {
                do { try log.append(batch) } catch { failures.append("thread \(thread): \(error)") }
            }
        }
        for writer in writers {
            writer.waitUntilExit()
            XCTAssertEqual(writer.terminationStatus, 0, "python writer failed")
        }
        XCTAssertEqual(failures.values, [])
        let entries = try AuditLog(file: url, tenant: tenant).verify()
        XCTAssertEqual(entries.count, threads * appends * 2 + 2 * pythonLines)
        XCTAssertEqual(entries.map(\.seq), Array(1...entries.count))
        for (index, entry) in entries.enumerated() where entry.event.role == "snapshot" {
            XCTAssertEqual(entries[index + 1].event, batch[1], "line \(entry.seq + 1) belongs to the batch of line \(entry.seq)")
        }
        XCTAssertEqual(entries.filter { $0.event.machine == "python-a" }.map(\.event.version), Array(1...pythonLines))
    }

    func testAppendWaitsForTheLockOfAnotherProcess() throws {
        try AuditLog(file: url, tenant: tenant).append([event(version: 1)])
        // The other process writes `released` while it still holds the lock: an append that waited for the lock
        // finds it there when it returns; one that did not returns while the other process is still asleep.
        let released = url.deletingLastPathComponent().appendingPathComponent("released")
        let holder = Process()
        let output = Pipe()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = ["python3", "-c", "import fcntl, sys, time\nf = open(sys.argv[1], 'rb')\nfcntl.flock(f, fcntl.LOCK_EX)\nprint('locked', flush=True)\n"
                            + "time.sleep(0.5)\nopen(sys.argv[2], 'w').close()\n", url.path, released.path]
        holder.standardOutput = output
        try holder.run()
        // Waits until the other process holds the lock.
        XCTAssertTrue(String(decoding: output.fileHandleForReading.availableData, as: UTF8.self).hasPrefix("locked"))
        try AuditLog(file: url, tenant: tenant).append([event(version: 2)])
        XCTAssertTrue(FileManager.default.fileExists(atPath: released.path), "the append did not wait for the other process's lock")
        holder.waitUntilExit()
        XCTAssertEqual(try AuditLog(file: url, tenant: tenant).verify().count, 2)
    }

    // MARK: - Breaks

    func testChangedFieldIsFoundAtItsLine() throws {
        try fiveLines()
        var lines = try lines()
        lines[2] = lines[2].replacingOccurrences(of: #""version":2"#, with: #""version":9"#)
        try write(lines)
        assertBroken(atLine: 3, mentioning: "was changed after it was written")
    }

    func testChangedPrevIsFoundAtItsLine() throws {
        try fiveLines()
        var lines = try lines()
        let entries = try AuditLog(file: url, tenant: tenant).verify()
        lines[3] = lines[3].replacingOccurrences(of: entries[3].prev, with: Self.digest("forged"))
        try write(lines)
        assertBroken(atLine: 4, mentioning: "was changed after it was written")
    }

    func testHandEditedLineIsFound() throws {
        try fiveLines()
        var lines = try lines()
        lines[1] = lines[1].replacingOccurrences(of: ",", with: ", ")
        try write(lines)
        assertBroken(atLine: 2, mentioning: "canonical")
    }

    func testDeletedLineIsFound() throws {
        try fiveLines()
        var lines = try lines()
        lines.remove(at: 2)
        try write(lines)
        assertBroken(atLine: 3, mentioning: "a line is missing before it")
        // The first line too.
        lines.remove(at: 0)
        try write(lines)
        assertBroken(atLine: 1, mentioning: "missing")
    }

    func testReorderedLinesAreFound() throws {
        try fiveLines()
        var lines = try lines()
        lines.swapAt(1, 2)
        try write(lines)
        assertBroken(atLine: 2, mentioning: "out of order")
    }

    func testTruncatedLastLineIsFoundAndStopsAppends() throws {
        try fiveLines()
        let data = try Data(contentsOf: url)
        try data.prefix(data.count - 20).write(to: url)
        assertBroken(atLine: 5, mentioning: "cut short")
        XCTAssertThrowsError(try AuditLog(file: url, tenant: tenant).append([event(version: 4)])) { XCTAssertTrue("\($0)".contains("cut short"), "\($0)") }
        XCTAssertEqual(try Data(contentsOf: url), data.prefix(data.count - 20), "nothing appended after a cut line")
    }

    func testAnotherTenantsLogIsRefused() throws {
        try fiveLines()
        XCTAssertThrowsError(try AuditLog(file: url, tenant: "other").verify()) { XCTAssertEqual(($0 as? AuditLogError)?.line, 1, "\($0)") }
        XCTAssertThrowsError(try AuditLog(file: url, tenant: "other").append([event(version: 9)])) { XCTAssertTrue("\($0)".contains(tenant), "\($0)") }
    }

    // MARK: - Explaining published metadata

    func testExplainFindsAPublishedVersionTheLogDoesNotRecord() throws {
        try fiveLines()
        let log = try AuditLog(file: url, tenant: tenant).verify()
        let complete: [AuditLog.PublishedSignatures] = [
            (file: "2.targets.json", channel: "stable", role: "targets", version: 2, signedSHA256: Self.digest("targets 2"), keyIDs: [Self.digest("k1")]),
            (file: "timestamp.json", channel: "stable", role: "timestamp", version: 3, signedSHA256: Self.digest("timestamp 3"), keyIDs: [Self.digest("k1")]),
        ]
        // Version 1 of targets, version 2 of snapshot and of timestamp were logged and not published: information only.
        let findings = AuditLog.explain(published: complete, log: log)
        XCTAssertFalse(findings.contains(where: \.isError), "\(findings)")
        XCTAssertEqual(findings.map(\.file), ["1.targets.json", "2.snapshot.json", "timestamp.json"])
        XCTAssertEqual(findings.map(\.seqs), [[1], [3], [4]])

        let missing: [AuditLog.PublishedSignatures] = complete + [
            // Signed by a second key that never wrote to this log.
            (file: "2.targets.json", channel: "beta", role: "targets", version: 2, signedSHA256: Self.digest("targets 2"), keyIDs: [Self.digest("k1"), Self.digest("k2")]),
            // A version the log has no line for at all.
            (file: "3.snapshot.json", channel: "stable", role: "snapshot", version: 3, signedSHA256: Self.digest("snapshot 3"), keyIDs: [Self.digest("k1")]),
            // Logged version, other content: what was published is not what was logged as signed.
            (file: "2.snapshot.json", channel: "stable", role: "snapshot", version: 2, signedSHA256: Self.digest("snapshot 2, altered"), keyIDs: [Self.digest("k1")]),
        ]
        let errors = AuditLog.explain(published: missing, log: log).filter(\.isError)
        XCTAssertEqual(errors, [
            AuditFinding(kind: .unexplained, file: "2.targets.json", channel: "beta", role: "targets", version: 2, keyIDs: [Self.digest("k2")]),
            AuditFinding(kind: .unexplained, file: "3.snapshot.json", channel: "stable", role: "snapshot", version: 3, keyIDs: [Self.digest("k1")]),
            AuditFinding(kind: .unexplained, file: "2.snapshot.json", channel: "stable", role: "snapshot", version: 2, keyIDs: [Self.digest("k1")]),
        ])
        XCTAssertTrue(errors[0].description.contains("2.targets.json (channel beta)"), errors[0].description)
        XCTAssertTrue(errors[0].description.contains(String(Self.digest("k2").prefix(16))), errors[0].description)
    }
}

/// Messages collected from several threads.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func append(_ message: String) { lock.withLock { list.append(message) } }
    var values: [String] { lock.withLock { list } }
}
