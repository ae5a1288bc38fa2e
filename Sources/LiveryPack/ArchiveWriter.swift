import CArchive
import Crypto
import Foundation
import LiveryReleaseFormat
import LiveryAssets
import LiveryStorage

/// Writes one deterministic archive, hashing the bytes as they are written: a zip with `ZipContainer`
/// (entries deflated by libdeflate), a tar.zst with libarchive.
///
/// Determinism (PLATFORM-NOTES): entries in the order given (callers sort them by UTF-8 bytes),
/// a fixed mtime, uid/gid 0 with no owner names, mode 0644, no atime/ctime/birthtime; for libarchive
/// the process runs in UTC and a UTF-8 C locale (pax names); the zip's DOS times are written in UTC.
public final class ArchiveWriter {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// libarchive's writer, for tar.zst; nil for a zip, which `zip` writes.
    private let archive: OpaquePointer?
    private var zip: ZipContainer?
    private let format: ArchiveFormat
    private let output: FileHandle
    /// The archive's bytes are hashed on a second thread while the next ones are written (bounded
    /// to a few chunks in flight, so memory stays flat).
    private let hashing = DigestPipeline()
    private var written = 0
    private var writeError: Error?
    private let mtime: Int
    /// The archive file, as a `WriteFailure` names it.
    private let path: String

    /// The fixed timestamp of every entry: `SOURCE_DATE_EPOCH` when set, else 2020-01-01T00:00:00Z.
    public static var entryTimestamp: Int {
        let floor = 315_619_200  // 1980-01-02, above the DOS-time floor in any time zone
        // getenv, not ProcessInfo's environment, which copies every variable into a dictionary each time.
        if let value = getenv("SOURCE_DATE_EPOCH"), let epoch = Int(String(cString: value)) { return max(floor, epoch) }
        return 1_577_836_800
    }

    private static let environment: Void = {
        setenv("TZ", "UTC", 1)
        tzset()
        setlocale(LC_ALL, "C.UTF-8")
    }()

    public init(writingTo url: URL, format: ArchiveFormat) throws {
        _ = Self.environment
        self.format = format
        mtime = Self.entryTimestamp
        path = url.path
        // A plain create: `FileManager.createFile` writes an empty file atomically (a temporary name,
        // renamed) before it is opened again here, three system calls more for every archive.
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            throw WriteFailure.storage(errno: code, path: url.path) ?? Failure(description: "cannot create \(url.path): \(String(cString: strerror(code)))")
        }
        output = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        guard format == .tarZstd else {
            archive = nil
            zip = try ZipContainer(mtime: mtime) { [unowned self] bytes in try self.emit(bytes) }
            return
        }
        guard let archive = archive_write_new() else { throw Failure(description: "libarchive: out of memory") }
        self.archive = archive
        try check(archive_write_set_format_pax_restricted(archive))
        try check(archive_write_add_filter_zstd(archive))
        try check(archive_write_set_filter_option(archive, "zstd", "compression-level", "19"))
        try check(archive_write_set_bytes_in_last_block(archive, 1))
        // Hand whole megabytes to the write callback instead of libarchive's default 10 KiB blocks.
        try check(archive_write_set_bytes_per_block(archive, Int32(FileReader.chunkSize)))
        let context = Unmanaged.passUnretained(self).toOpaque()
        try check(archive_write_open2(archive, context, nil, { _, context, buffer, length in
            let writer = Unmanaged<ArchiveWriter>.fromOpaque(context!).takeUnretainedValue()
            return writer.consume(buffer!, length)
        }, nil, nil))
    }

    deinit {
        if let archive { archive_write_free(archive) }
        try? output.close()
    }

    /// The zip's bytes, written and hashed as libarchive's are; a failure is thrown as it is.
    private func emit(_ bytes: UnsafeRawBufferPointer) throws {
        guard bytes.count > 0 else { return }
        if consume(bytes.baseAddress!, bytes.count) < 0, let writeError { throw writeError }
    }

    private func consume(_ buffer: UnsafeRawPointer, _ length: Int) -> Int {
        hashing.update(UnsafeRawBufferPointer(start: buffer, count: length))
        var offset = 0
        while offset < length {
            let n = Glibc.write(output.fileDescriptor, buffer + offset, length - offset)
            if n <= 0 {
                if n < 0 && errno == EINTR { continue }
                // Kept for `check`, which throws it instead of libarchive's words: the file and why (a write of
                // nothing to a regular file is a full device).
                writeError = WriteFailure(errno: n == 0 ? ENOSPC : errno, path: path)
                return -1
            }
            offset += n
        }
        written += length
        return length
    }

    private func check(_ status: Int32) throws {
        guard status == ARCHIVE_OK || status == ARCHIVE_WARN else {
            let message = archive.flatMap { archive_error_string($0) }.map { String(cString: $0) } ?? "status \(status)"
            throw writeError ?? Failure(description: "libarchive: \(message)")
        }
    }

    /// A tar entry's header (the zip writes its own).
    private func header(_ archive: OpaquePointer, _ path: String, size: Int) throws {
        guard let entry = archive_entry_new() else { throw Failure(description: "libarchive: out of memory") }
        defer { archive_entry_free(entry) }
        archive_entry_set_pathname_utf8(entry, path)
        archive_entry_set_size(entry, la_int64_t(size))
        archive_entry_set_filetype(entry, LIVERY_AE_IFREG)
        archive_entry_set_perm(entry, 0o644)
        archive_entry_set_mtime(entry, time_t(mtime), 0)
        archive_entry_set_uid(entry, 0)
        archive_entry_set_gid(entry, 0)
        try check(archive_write_header(archive, entry))
    }

    private func writeData(_ archive: OpaquePointer, _ data: Data) throws {
        try data.withUnsafeBytes { try writeData(archive, $0) }
    }

    private func writeData(_ archive: OpaquePointer, _ buffer: UnsafeRawBufferPointer) throws {
        do {
            var offset = 0
            while offset < buffer.count {
                let n = archive_write_data(archive, buffer.baseAddress! + offset, buffer.count - offset)
                guard n > 0 else {
                    let message = archive_error_string(archive).map { String(cString: $0) } ?? "write failed"
                    throw writeError ?? Failure(description: "libarchive: \(message)")
                }
                offset += n
            }
        }
    }

    /// Adds a file's bytes, streamed in chunks, under `path`.
    public func add(_ path: String, file: URL, size: Int, compress: Bool) throws {
        if let zip { return try zip.add(path, file: file, size: size, compress: compress) }
        guard let archive else { return }
        try header(archive, path, size: size)
        let reader = try FileReader(file)
        var copied = 0
        try reader.forEachChunk { chunk in
            try writeData(archive, chunk)
            copied += chunk.count
        }
        guard copied == size else { throw Failure(description: "\(file.path) changed size while being archived") }
        try check(archive_write_finish_entry(archive))
    }

    /// Adds generated bytes under `path`.
    public func add(_ path: String, data: Data, compress: Bool) throws {
        if let zip { return try data.withUnsafeBytes { try zip.add(path, bytes: $0, compress: compress) } }
        guard let archive else { return }
        try header(archive, path, size: data.count)
        try writeData(archive, data)
        try check(archive_write_finish_entry(archive))
    }

    /// Finishes the archive; returns its SHA-256 and size.
    public func finish() throws -> (sha256: SHA256Hex, size: Int) {
        if let zip {
            try zip.finish()
            self.zip = nil
        } else if let archive {
            try check(archive_write_close(archive))
        }
        // No fsync: publishing is atomic against a killed build (rename), and a machine crash loses at
        // most a release that is rebuilt from the same inputs.
        try WriteFailure.writing(path) { try output.close() }
        return (hashing.finalize(), written)
    }
}

/// SHA-256 computed on a background queue from copies of the chunks, at most `depth` chunks ahead.
final class DigestPipeline: @unchecked Sendable {
    // `hasher` is touched only on `queue`; `slots` bounds the chunks in flight.
    private var hasher = SHA256()
    private let queue = DispatchQueue(label: "livery.archive-digest")
    private let slots: DispatchSemaphore

    init(depth: Int = 4) {
        slots = DispatchSemaphore(value: depth)
    }

    func update(_ bytes: UnsafeRawBufferPointer) {
        let copy = Data(bytes)
        slots.wait()
        queue.async {
            self.hasher.update(data: copy)
            self.slots.signal()
        }
    }

    func finalize() -> SHA256Hex {
        queue.sync { hasher.finalize().hexString }
    }
}
