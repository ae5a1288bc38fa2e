import Crypto
import Foundation
import LiveryEncoding
import LiveryStorage
import LiveryReleaseFormat

/// Publishes tenants' release folders (`Output/<tenant>/`, each a TUF repository plus `release.json`)
/// to an S3-compatible store, under `<prefix>/<tenant>/` with the same layout.
///
/// The order keeps every client consistent at every instant (docs/operations.md):
/// 1. content-addressed targets (`targets/<sha256>.<name>`), in parallel;
/// 2. versioned targets metadata (delegated and top-level) and versioned roots;
/// 3. the versioned snapshot;
/// 4. `metadata/timestamp.json`, the one TUF file that is replaced;
/// 5. `release.json`, the unversioned pointer, last.
/// A client that reads the old timestamp finds the old release complete; one that reads the new
/// timestamp finds every file it names already there. Versioned and content-addressed objects are
/// written with `If-None-Match: *` and never replaced; a different object already under such a name
/// means another publisher made a different release with the same version, and publishing stops.
///
/// Each tenant's publish holds a lock object (`<tenant>/.livery-publish.lock`, created with
/// `If-None-Match: *`), and replaces `timestamp.json` with `If-Match` on the ETag it read first:
/// two publishers of one tenant never interleave. A killed publish leaves its lock; the same host
/// takes it over when the holder's process is gone, any host after the lease, or with `breakLock`.
public final class RemotePublisher: Sendable {
    public struct Options: Sendable {
        /// Objects (or multipart parts) in flight at once.
        public var concurrency = 8
        /// Files at least this large go up in parts of `partSize` bytes (S3: parts ≥ 5 MiB but the last).
        public var multipartThreshold = 16 << 20
        public var partSize = 8 << 20
        /// A lock older than this is abandoned.
        public var lease: TimeInterval = 3600
        public var breakLock = false
        /// Only say what would be uploaded.
        public var dryRun = false
        /// Told `<tenant> <phase>` when a phase is done (targets, metadata, snapshot, timestamp, pointer):
        /// `livery publish --verbose`, and the kill tests' stopping points.
        public var steps: (@Sendable (String) -> Void)?
        /// Told how the uploads go (`PublishEvent`), from the uploading tasks: keep it quick. `livery publish`
        /// draws a progress line on a terminal from these.
        public var onEvent: (@Sendable (PublishEvent) -> Void)?

        public init() {}
    }

    /// What one tenant's publish did.
    public struct Outcome: Sendable, Equatable {
        public var tenant: String
        public var uploaded: Int = 0
        public var uploadedBytes: Int64 = 0
        public var skipped: Int = 0
        /// Nothing to do: the store already has this release.
        public var unchanged = false
    }

    public static let immutableCacheControl = "public, max-age=31536000, immutable"
    /// Protected targets: immutable, but never kept by a shared cache (each is fetched with its own signed URL).
    public static let protectedCacheControl = "private, max-age=31536000, immutable"
    /// `timestamp.json` and `release.json`: short, so that a CDN passes a new release on within a minute.
    public static let pointerCacheControl = "public, max-age=60"
    static let lockName = ".livery-publish.lock"

    public let client: S3Client
    public let location: S3Location
    public let options: Options
    let limiter: AsyncLimiter

    public init(client: S3Client, location: S3Location, options: Options = Options()) {
        self.client = client
        self.location = location
        self.options = options
        limiter = AsyncLimiter(options.concurrency)
    }

    // MARK: The local release

    /// One file of the local release and where it goes in the order.
    struct LocalFile: Sendable {
        enum Phase: Int, Comparable, Sendable {
            case target = 0, metadata, snapshot, timestamp, pointer
            var name: String { self == .target ? "targets" : "\(self)" }
            static func < (a: Phase, b: Phase) -> Bool { a.rawValue < b.rawValue }
        }
        var relative: String
        var url: URL
        var size: Int64
        var phase: Phase
        var contentType: String
        /// A voucher target: stored under `protected/` instead of `targets/` (`RemoteLayout`), never public.
        var isProtected = false
        var immutable: Bool { phase <= .snapshot }
        /// The object's key under the tenant's prefix.
        var remote: String {
            isProtected ? RemoteLayout.protectedFolder + "/" + relative.dropFirst("targets/".count) : relative
        }
    }

    /// The file names (`<sha256>.<name>`) of the voucher targets of the release folder: every target
    /// that any targets metadata file in `metadata/` (signed releases), or the current download
    /// manifest (unsigned ones), describes with `access: voucher`.
    static func protectedFiles(_ folder: URL) throws -> Set<String> {
        var files = Set<String>()
        let metadata = folder.appendingPathComponent("metadata")
        for name in (try? FileManager.default.contentsOfDirectory(atPath: metadata.path)) ?? [] where name.hasSuffix(".json") {
            let parts = name.split(separator: ".")
            guard parts.count >= 3, Int(parts[0]) != nil, !["root", "snapshot", "timestamp"].contains(String(parts[1])) else { continue }
            let document = try Metadata<Targets>(data: Data(contentsOf: metadata.appendingPathComponent(name)))
            for (target, entry) in document.signed.targets {
                // A staged target `staged/<name>` is the file `targets/staged/<sha256>.<name>`.
                if let sha = entry.sha256, try TargetCustom(of: entry)?.isProtected == true { files.insert("\(sha).\(target.split(separator: "/").last ?? "")") }
            }
        }
        if let pointer = ReleasePointer.read(from: folder), !pointer.manifest.contains(".."),
           let data = FileManager.default.contents(atPath: folder.appendingPathComponent(pointer.manifest).path) {
            for bundle in try DownloadManifest(data: data).bundles where bundle.access == .voucher {
                files.insert(String(bundle.path.split(separator: "/").last ?? ""))
            }
        }
        return files
    }

    /// The files of `folder`, classified; anything that is not part of a release is refused.
    static func localFiles(_ folder: URL) throws -> [LocalFile] {
        let manager = FileManager.default
        var files: [LocalFile] = []
        guard let walker = manager.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey, .fileSizeKey, .isSymbolicLinkKey], options: []) else {
            throw ReadFailure(path: folder.path, operation: .list)
        }
        let base = folder.standardizedFileURL.path
        for case let url as URL in walker {
            let values = try url.resourceValues(forKeys: [.isRegularFileKey, .fileSizeKey, .isSymbolicLinkKey])
            guard values.isRegularFile == true, values.isSymbolicLink != true else { continue }
            let path = url.standardizedFileURL.path
            guard path.hasPrefix(base + "/") else { continue }
            let relative = String(path.dropFirst(base.count + 1))
            // The tenant's other channels are repositories of their own, published separately.
            if relative.hasPrefix(ReleaseChannel.folderName + "/") { continue }
            let name = url.lastPathComponent
            let phase: LocalFile.Phase
            if relative == "release.json" {
                phase = .pointer
            } else if relative == "metadata/timestamp.json" {
                phase = .timestamp
            } else if relative.hasPrefix("metadata/") {
                guard let dot = name.firstIndex(of: "."), Int(name[..<dot]) != nil, name.hasSuffix(".json") else {
                    throw S3Error.integrity("\(relative): a metadata file without a version in its name (only timestamp.json may have none)")
                }
                phase = name.hasSuffix(".snapshot.json") && name.split(separator: ".").count == 3 ? .snapshot : .metadata
            } else if relative.hasPrefix("targets/") {
                guard name.count > 65, name.prefix(64).allSatisfy(\.isHexDigit), name.dropFirst(64).first == "." else {
                    throw S3Error.integrity("\(relative): a target without its SHA-256 in its name")
                }
                phase = .target
            } else {
                throw S3Error.integrity("\(relative) is not part of a release (release.json, metadata/, targets/)")
            }
            files.append(LocalFile(relative: relative, url: url, size: Int64(values.fileSize ?? 0), phase: phase, contentType: contentType(name)))
        }
        guard files.contains(where: { $0.phase == .pointer }) else { throw S3Error.integrity("\(folder.path) has no release.json: build it first") }
        let protected = try protectedFiles(folder)
        for index in files.indices where files[index].phase == .target && protected.contains(files[index].url.lastPathComponent) {
            files[index].isProtected = true
        }
        return files.sorted { ($0.phase, $0.relative) < ($1.phase, $1.relative) }
    }

    static func contentType(_ name: String) -> String {
        if name.hasSuffix(".json") { return "application/json" }
        if name.hasSuffix(".zip") { return "application/zip" }
        if name.hasSuffix(".tar.zst") { return "application/zstd" }
        return "application/octet-stream"
    }

    // MARK: Publishing

    /// Publishes `folder` (a tenant's release folder) as `tenant`.
    public func publish(tenant: String, folder: URL) async throws -> Outcome {
        let files = try Self.localFiles(folder)
        let base = location.key(tenant)
        var outcome = Outcome(tenant: tenant)

        // The quick answer first: the pointer and the timestamp are written last, so when both
        // match, everything before them is there.
        let mutable = files.filter { !$0.immutable }
        let localDigests = try Dictionary(uniqueKeysWithValues: mutable.map { ($0.relative, try FileDigest.sha256(of: $0.url).digest) })
        let remoteMutable = try await withThrowingTaskGroup(of: (String, S3Object?).self) { group in
            for file in mutable { group.addTask { (file.relative, try await self.client.head(bucket: self.location.bucket, key: base + "/" + file.relative)) } }
            return try await group.reduce(into: [String: S3Object?]()) { $0[$1.0] = $1.1 }
        }
        if mutable.allSatisfy({ remoteMutable[$0.relative]??.metadata["sha256"] == localDigests[$0.relative] }) {
            outcome.unchanged = true
            outcome.skipped = files.count
            return outcome
        }
        if options.dryRun { return try await plan(files, base: base, outcome: outcome) }

        let lock = try await acquireLock(tenant: tenant, base: base)
        do {
            outcome = try await upload(files, base: base, folder: folder, localDigests: localDigests, outcome: outcome)
            try await releaseLock(lock, base: base)
        } catch {
            // Leave nothing half-claimed: the lock goes, what was uploaded stays (re-runs skip it).
            try? await releaseLock(lock, base: base)
            throw error
        }
        return outcome
    }

    private func plan(_ files: [LocalFile], base: String, outcome: Outcome) async throws -> Outcome {
        var outcome = outcome
        let remote = Set(try await client.list(bucket: location.bucket, prefix: base + "/").map(\.key))
        for file in files {
            if file.immutable && remote.contains(base + "/" + file.remote) { outcome.skipped += 1 } else {
                outcome.uploaded += 1
                outcome.uploadedBytes += file.size
            }
        }
        return outcome
    }

    private func upload(_ files: [LocalFile], base: String, folder: URL, localDigests: [String: String], outcome: Outcome) async throws -> Outcome {
        var outcome = outcome
        // Never roll the store back or fork it: the remote timestamp must be older than ours, or ours.
        let timestampKey = base + "/metadata/timestamp.json"
        let remoteTimestamp = try await client.get(bucket: location.bucket, key: timestampKey, limit: 1 << 20)
        if let remoteTimestamp, let local = files.first(where: { $0.phase == .timestamp }) {
            let theirs = try Metadata<Timestamp>(data: remoteTimestamp.data).signed
            let ours = try Metadata<Timestamp>(data: Data(contentsOf: local.url)).signed
            if theirs.version > ours.version || (theirs.version == ours.version && Hex.encode(SHA256.hash(data: remoteTimestamp.data)) != localDigests[local.relative]) {
                throw ForeignRelease(timestamp: "s3://\(location.bucket)/\(timestampKey)", storeVersion: theirs.version, localVersion: ours.version)
            }
        }
        let listed = try await client.list(bucket: location.bucket, prefix: base + "/")
        let remote = Dictionary(listed.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })

        let total = files.reduce(into: (count: 0, bytes: Int64(0))) { if !$1.immutable || remote[base + "/" + $1.remote] == nil { $0.count += 1; $0.bytes += $1.size } }
        let tenant = outcome.tenant
        options.onEvent?(.started(tenant: tenant, objects: total.count, bytes: total.bytes))
        for phase in [LocalFile.Phase.target, .metadata, .snapshot, .timestamp, .pointer] {
            let batch = files.filter { $0.phase == phase }
            let results = try await withThrowingTaskGroup(of: (Bool, Int64).self) { group in
                for file in batch {
                    group.addTask {
                        let key = base + "/" + file.remote
                        if file.immutable, let present = remote[key] {
                            // A content-addressed or versioned name already there: same size, or a fork.
                            guard present.size == file.size else {
                                throw S3Error.integrity("s3://\(self.location.bucket)/\(key) exists with \(present.size) bytes, this release's has \(file.size): "
                                                        + "another build published a different release under the same version")
                            }
                            if file.phase != .target { try await self.checkSame(file, key: key) }
                            return (false, 0)
                        }
                        let ifMatch = file.phase == .timestamp ? remote[key]?.etag : nil
                        try await self.put(file, key: key, tenant: tenant, ifMatch: ifMatch, createOnly: file.immutable || (file.phase == .timestamp && remote[key] == nil))
                        return (true, file.size)
                    }
                }
                return try await group.reduce(into: [(Bool, Int64)]()) { $0.append($1) }
            }
            for (uploaded, bytes) in results {
                if uploaded { outcome.uploaded += 1; outcome.uploadedBytes += bytes } else { outcome.skipped += 1 }
            }
            options.steps?("\(outcome.tenant) \(phase.name)")
        }
        options.onEvent?(.finished(tenant: tenant))
        return outcome
    }

    /// A versioned metadata file already in the store must have our bytes (its recorded SHA-256).
    private func checkSame(_ file: LocalFile, key: String) async throws {
        let digest = try FileDigest.sha256(of: file.url).digest
        let head = try await limiter.run { try await self.client.head(bucket: self.location.bucket, key: key) }
        guard let remote = head?.metadata["sha256"] else {
            // Not written by Livery (no recorded digest): compare the bytes themselves.
            let body = try await limiter.run { try await self.client.get(bucket: self.location.bucket, key: key, limit: 64 << 20) }
            guard let body, Hex.encode(SHA256.hash(data: body.data)) == digest else {
                throw S3Error.integrity("s3://\(location.bucket)/\(key) differs from this release's \(file.relative): another build published a different release under the same version")
            }
            return
        }
        guard remote == digest else {
            throw S3Error.integrity("s3://\(location.bucket)/\(key) differs from this release's \(file.relative): another build published a different release under the same version")
        }
    }

    /// Uploads one file: checked against its name first (content-addressed targets), in one PUT or in parts.
    private func put(_ file: LocalFile, key: String, tenant: String, ifMatch: String?, createOnly: Bool) async throws {
        let cacheControl = file.isProtected ? Self.protectedCacheControl : file.immutable ? Self.immutableCacheControl : Self.pointerCacheControl
        let options = S3PutOptions(contentType: file.contentType, cacheControl: cacheControl,
                                   metadata: [:], createOnly: createOnly, ifMatch: ifMatch)
        if file.size >= Int64(self.options.multipartThreshold) {
            try await putInParts(file, key: key, tenant: tenant, options: options)
            return
        }
        try await limiter.run {
            // Hashed from disk, then streamed from disk: the file is never whole in memory (the store
            // checks the body against the hash, so a file changed in between is refused, not stored).
            let sha = try FileDigest.hash(of: file.url)
            let digest = Hex.encode(sha)
            try Self.checkName(file, digest: digest)
            var options = options
            options.metadata["sha256"] = digest
            do {
                try await self.client.put(bucket: self.location.bucket, key: key, body: .file(file.url, range: 0..<file.size), sha256: Data(sha), options: options)
            } catch let error as S3Error where error.status == 412 && createOnly && file.immutable {
                // Someone else wrote it between our listing and now: fine if it is the same object.
                let head = try await self.client.head(bucket: self.location.bucket, key: key)
                guard head?.metadata["sha256"] == digest else {
                    throw S3Error.integrity("s3://\(self.location.bucket)/\(key) was written by another publisher with different bytes")
                }
            } catch let error as S3Error where error.status == 412 {
                throw S3Error.integrity("s3://\(self.location.bucket)/\(key) changed while publishing: another publish of this tenant ran at the same time; run again")
            }
            self.options.onEvent?(.sent(tenant: tenant, bytes: file.size, objects: 1))
        }
    }

    static func checkName(_ file: LocalFile, digest: String) throws {
        guard file.phase == .target else { return }
        // A file index is named by its first line's digest, and that line vouches for the rest (docs/deltas.md).
        let named = FileIndex.isObjectName(file.url.lastPathComponent) ? FileManager.default.contents(atPath: file.url.path).flatMap(FileIndex.nameDigest(ofObject:)) : digest
        guard let named, file.url.lastPathComponent.hasPrefix(named) else {
            throw S3Error.integrity("\(file.url.path) does not have the SHA-256 its name says (\(digest)): the output folder is damaged; build again")
        }
    }

    /// Multipart: each part is hashed from disk, then streamed from disk in 256 KiB chunks, so memory
    /// stays small whatever the file's size or the concurrency. A content-addressed target's digest is its
    /// name, recorded when the upload starts; the file's real digest is computed while the parts go
    /// up and checked before the upload is completed (an uncompleted upload is never visible), so
    /// hashing does not hold the upload back. Other files are hashed first.
    private func putInParts(_ file: LocalFile, key: String, tenant: String, options: S3PutOptions) async throws {
        let named = file.phase == .target ? String(file.url.lastPathComponent.prefix(64)) : nil
        let partSize = Int64(self.options.partSize)
        let count = Int((file.size + partSize - 1) / partSize)
        // One sequential pass hashes every part and the whole file, ahead of the uploads, which wait
        // only for their own part's digest (hashing runs at over 1 GB/s, uploads far slower).
        let digests = PartDigests()
        let hashing = Task.detached(priority: .userInitiated) { try Self.hashParts(file.url, size: file.size, partSize: partSize, into: digests) }
        defer { hashing.cancel() }
        let digest: String
        if let named { digest = named } else { digest = try await hashing.value }
        var partOptions = options
        partOptions.metadata["sha256"] = digest
        // Multipart uploads cannot be conditional on every store; the name is content-addressed, so
        // a concurrent writer can only write the same bytes.
        partOptions.createOnly = false
        let bucket = location.bucket
        let created = partOptions
        let uploadID = try await limiter.run { try await self.client.createMultipartUpload(bucket: bucket, key: key, options: created) }
        do {
            let etags = try await withThrowingTaskGroup(of: (Int, String).self) { group in
                for number in 1...count {
                    group.addTask {
                        try await self.limiter.run {
                            // Streamed from disk (never whole in memory) once the hashing pass has reached past it.
                            let start = Int64(number - 1) * partSize
                            let range = start..<min(start + partSize, file.size)
                            let sha = try await digests.digest(number)
                            let etag = try await self.client.uploadPart(bucket: bucket, key: key, uploadID: uploadID, number: number,
                                                                        body: .file(file.url, range: range), sha256: sha)
                            self.options.onEvent?(.sent(tenant: tenant, bytes: Int64(range.count), objects: 0))
                            return (number, etag)
                        }
                    }
                }
                return try await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
            }
            try Self.checkName(file, digest: try await hashing.value)
            try await limiter.run { try await self.client.completeMultipartUpload(bucket: bucket, key: key, uploadID: uploadID, parts: (1...count).map { etags[$0]! }) }
            self.options.onEvent?(.sent(tenant: tenant, bytes: 0, objects: 1))
        } catch {
            try? await client.abortMultipartUpload(bucket: bucket, key: key, uploadID: uploadID)
            throw error
        }
    }

    /// Reads `url` once, in order, and hands each part's SHA-256 to `digests` as soon as it is known;
    /// returns the whole file's SHA-256 (hex). A read failure (or cancellation) fails every waiting part.
    static func hashParts(_ url: URL, size: Int64, partSize: Int64, into digests: PartDigests) throws -> String {
        do {
            var whole = SHA256(), part = SHA256()
            var offset: Int64 = 0, number = 1
            let reader = try FileReader(url)
            try reader.readChunks { bytes in
                try Task.checkCancellation()
                // Chunks are 1 MiB and parts a multiple of it (8 MiB), but a chunk may still straddle a part's end;
                // bytes past `size` (the file grew since it was listed) are not the parts'.
                var rest = UnsafeRawBufferPointer(rebasing: bytes[0..<Int(min(Int64(bytes.count), size - offset))])
                while !rest.isEmpty {
                    let partEnd = min(Int64(number) * partSize, size)
                    let take = Int(min(Int64(rest.count), partEnd - offset))
                    let piece = UnsafeRawBufferPointer(rebasing: rest[0..<take])
                    whole.update(bufferPointer: piece)
                    part.update(bufferPointer: piece)
                    offset += Int64(take)
                    rest = UnsafeRawBufferPointer(rebasing: rest[take...])
                    if offset == partEnd {
                        digests.set(number, Data(part.finalize()))
                        part = SHA256()
                        number += 1
                    }
                }
                return offset < size
            }
            guard offset == size else { throw S3Error.integrity("\(url.path) is shorter than expected (it changed while publishing?)") }
            return Hex.encode(whole.finalize())
        } catch {
            digests.fail(error)
            throw error
        }
    }

    // MARK: The lock

    struct Lock: Sendable { var etag: String }

    func acquireLock(tenant: String, base: String) async throws -> Lock {
        let key = base + "/" + Self.lockName
        let host = ProcessInfo.processInfo.hostName
        let pid = ProcessInfo.processInfo.processIdentifier
        let now = Date()
        let body = JSONValue.object(["host": .string(host), "pid": .int(Int(pid)), "started": .int(Int(now.timeIntervalSince1970))]).bytes
        let options = S3PutOptions(contentType: "application/json", cacheControl: "no-store", createOnly: true)
        for _ in 0..<3 {
            do {
                return Lock(etag: try await client.put(bucket: location.bucket, key: key, body: body, options: options))
            } catch let error as S3Error where error.status == 412 {
                guard let held = try await client.get(bucket: location.bucket, key: key, limit: 4096) else { continue }
                let holder = (try? JSONValue.parse(held.data)) ?? .null
                let holderHost = holder["host"]?.stringValue ?? "?"
                let holderPID = Int32(clamping: holder["pid"]?.intValue ?? 0)
                let started = Date(timeIntervalSince1970: TimeInterval(holder["started"]?.intValue ?? 0))
                let abandoned = (self.options.breakLock || now.timeIntervalSince(started) > self.options.lease
                                                       || (holderHost == host && holderPID > 0 && !Self.processIsAlive(holderPID)))
                guard abandoned else {
                    throw S3Error.integrity("another publish of \(tenant) holds s3://\(location.bucket)/\(key) (host \(holderHost), process \(holderPID), since \(started)); "
                                            + "wait for it, or if it died, pass --break-lock")
                }
                // Replace exactly the lock we read, so that two breakers do not both win.
                var takeOver = options
                takeOver.createOnly = false
                takeOver.ifMatch = held.etag
                do {
                    return Lock(etag: try await client.put(bucket: location.bucket, key: key, body: body, options: takeOver))
                } catch let error as S3Error where error.status == 412 {
                    continue
                }
            }
        }
        throw S3Error.integrity("could not take s3://\(location.bucket)/\(key): other publishers keep taking it")
    }

    func releaseLock(_ lock: Lock, base: String) async throws {
        try await client.delete(bucket: location.bucket, key: base + "/" + Self.lockName)
    }

    static func processIsAlive(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }
}

/// The parts' SHA-256 digests as one hashing pass finds them; a part's upload waits for its own.
/// (A lock, not an actor: the hashing pass is synchronous code on its own thread.)
final class PartDigests: @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`.
    private var known: [Int: Data] = [:]
    private var waiting: [Int: [CheckedContinuation<Data, Error>]] = [:]
    private var failure: (any Error)?

    func set(_ number: Int, _ digest: Data) {
        let woken = lock.withLock { () -> [CheckedContinuation<Data, Error>] in
            known[number] = digest
            return waiting.removeValue(forKey: number) ?? []
        }
        for continuation in woken { continuation.resume(returning: digest) }
    }

    func fail(_ error: any Error) {
        let woken = lock.withLock { () -> [CheckedContinuation<Data, Error>] in
            failure = error
            defer { waiting = [:] }
            return Array(waiting.values.joined())
        }
        for continuation in woken { continuation.resume(throwing: error) }
    }

    func digest(_ number: Int) async throws -> Data {
        try await withCheckedThrowingContinuation { continuation in
            let answer = lock.withLock { () -> Result<Data, any Error>? in
                if let digest = known[number] { return .success(digest) }
                if let failure { return .failure(failure) }
                waiting[number, default: []].append(continuation)
                return nil
            }
            if let answer { continuation.resume(with: answer) }
        }
    }
}

/// At most `limit` bodies in flight: bounds both connections and memory (each holds one part).
actor AsyncLimiter {
    private let limit: Int
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ limit: Int) { self.limit = max(1, limit) }

    func acquire() async {
        if running < limit { running += 1; return }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty { running -= 1 } else { waiting.removeFirst().resume() }
    }

    nonisolated func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        await acquire()
        do {
            let value = try await body()
            await release()
            return value
        } catch {
            await release()
            throw error
        }
    }
}

/// What a publish reports as it uploads (`RemotePublisher.Options.onEvent`).
public enum PublishEvent: Sendable, Equatable {
    /// A tenant's uploads begin: the objects and bytes to send (those the store does not hold yet).
    case started(tenant: String, objects: Int, bytes: Int64)
    /// Bytes sent and objects completed: a whole object, a part of a large one (no object yet), or the completion
    /// of a multipart upload (no bytes).
    case sent(tenant: String, bytes: Int64, objects: Int)
    /// A tenant's uploads are done (its lock is released after).
    case finished(tenant: String)
}
