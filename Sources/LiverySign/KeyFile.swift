import CLiverySystem
import Crypto
import Foundation
import LiveryStorage
import LiveryReleaseFormat
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Key files on disk (`<store>/<tenant>/<role>.key`), in the clear or encrypted with a passphrase
/// (`KeyFileDocument` is the format). Like ssh with its keys, a key file is read only when nobody
/// but its owner can read or change it or its folder.
///
/// Symbolic links: a key file may be a link (to a key kept on removable media, say). The link is
/// followed, and what it leads to is judged: it must be a regular file of ours that nobody else can
/// read or write, in a folder of ours that nobody else can enter, besides the folder of the link
/// itself. `encrypt` and `decrypt` rewrite the file the link leads to and leave the link alone.
///
/// Ownership: a key file and its folder must belong to the user running Livery (root included):
/// another user could otherwise replace the key, or read it later by changing its mode.
public enum KeyFile {
    /// The signer of the key in `url`. `passphrase` is asked for only if the file is encrypted.
    /// `checkingFolder`: also refuse a folder others can enter (a key store's folders; a holder's
    /// key on a USB drive or in a home folder is judged by its own mode only, as ssh does).
    public static func read(_ url: URL, uri: String? = nil, checkingFolder: Bool = true, passphrase: () throws -> String) throws -> any MetadataSigner {
        let (document, _) = try readDocument(url, checkingFolder: checkingFolder)
        return try material(document, passphrase: passphrase, file: url.path).signer(uri: uri ?? "file:" + url.path)
    }

    /// Whether `url` holds an encrypted key document. False for a file that is not a readable key
    /// file at all: `read` then says what is wrong with it.
    public static func isEncrypted(_ url: URL) -> Bool {
        (try? readDocument(url, checkingPermissions: false).document.isEncrypted) ?? false
    }

    /// The public key in `url`, without its passphrase (`keys list`). For an encrypted file it is the
    /// public key written in the clear, which only opening the file authenticates.
    public static func publicKey(_ url: URL, checkingFolder: Bool = true) throws -> TUFKey {
        try readDocument(url, checkingFolder: checkingFolder).document.publicKey
    }

    /// When a new key file reaches the disk.
    public enum Durability: Sendable {
        /// Before `write` returns: the file, then its folder, are flushed (every key a person makes:
        /// `livery keys init`, `keys generate`, rotations, ceremonies).
        case eachFile
        /// Later, by the caller, with one `makeDurable(folder:files:)` for several new files (the
        /// development keys a build makes for a tenant; see `KeyStore.createDevelopmentKeys`).
        case byCaller
    }

    /// Writes a new key file for an Ed25519 key: the legacy 64 hex digits without a passphrase,
    /// an encrypted document with one. Never replaces an existing file.
    public static func write(ed25519 key: Curve25519.Signing.PrivateKey, to url: URL, passphrase: String?, scrypt: ScryptParameters = .recommended(),
                             durability: Durability = .eachFile) throws {
        try create(try document(.ed25519(key), passphrase: passphrase, scrypt: scrypt, file: url.path), at: url, durability: durability)
    }

    /// Flushes new key files written with `.byCaller` and the folder entries naming them (and the
    /// folder's own entry in its parent) to the disk, with one flush: on Linux one `syncfs` of the
    /// folder's file system; elsewhere an `fsync` of each file, then of the folder and its parent.
    public static func makeDurable(folder: URL, files: [URL]) throws {
        #if os(Linux)
        guard livery_sync_file_system(folder.path) == 0 else {
            throw KeyFileError(folder.path, .io, "cannot be flushed to the disk: \(String(cString: strerror(errno)))")
        }
        #else
        for file in files {
            let descriptor = open(file.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
            guard descriptor >= 0 else { throw KeyFileError(file.path, .io, "cannot be opened to flush it: \(String(cString: strerror(errno)))") }
            defer { close(descriptor) }
            guard fsync(descriptor) == 0 else { throw KeyFileError(file.path, .io, "cannot be flushed to the disk: \(String(cString: strerror(errno)))") }
        }
        try syncFolder(folder.path)
        try syncFolder(folder.deletingLastPathComponent().path)
        #endif
    }

    /// Writes a new key file for a P-256 key: a plain document (`{"keytype":"ecdsa-sha2-nistp256",
    /// "livery-key":1,"private":…,"public":…}`) without a passphrase, an encrypted one with one.
    public static func write(p256 key: P256.Signing.PrivateKey, to url: URL, passphrase: String?, scrypt: ScryptParameters = .recommended()) throws {
        try create(try document(.p256(key), passphrase: passphrase, scrypt: scrypt, file: url.path), at: url)
    }

    /// Encrypts a key file in the clear, in place (atomically: a reader sees the old file or the new one).
    public static func encrypt(_ url: URL, passphrase: String, scrypt: ScryptParameters = .recommended()) throws {
        let (document, target) = try readDocument(url)
        guard !document.isEncrypted else {
            throw KeyFileError(url.path, .state, "is already encrypted", fix: "to change its passphrase, decrypt it, then encrypt it with the new one")
        }
        let material = try material(document, passphrase: { passphrase }, file: url.path)
        try replace(target, with: try self.document(material, passphrase: passphrase, scrypt: scrypt, file: url.path), material: material, passphrase: passphrase)
    }

    /// Decrypts an encrypted key file in place (atomically), to the legacy form for Ed25519 and a
    /// plain document for P-256.
    public static func decrypt(_ url: URL, passphrase: String) throws {
        let (document, target) = try readDocument(url)
        guard document.isEncrypted else { throw KeyFileError(url.path, .state, "is not encrypted") }
        let material = try material(document, passphrase: { passphrase }, file: url.path)
        try replace(target, with: .unencrypted(material), material: material, passphrase: nil)
    }

    /// Refuses a key file that is not a regular file of ours that only we can read and write
    /// (a link is judged by what it leads to).
    public static func checkPermissions(file: URL) throws {
        var info = stat()
        guard stat(file.path, &info) == 0 else { throw KeyFileError(file.path, .io, "cannot be read: \(String(cString: strerror(errno)))") }
        try judge(file: info, path: file.path)
    }

    /// Refuses a key folder that is not ours, or that others can list, enter or change.
    public static func checkPermissions(folder: URL) throws {
        var info = stat()
        guard stat(folder.path, &info) == 0 else { throw KeyFileError(folder.path, .io, "cannot be read: \(String(cString: strerror(errno)))") }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw KeyFileError(folder.path, .permissions, "is not a folder") }
        guard info.st_uid == geteuid() else {
            throw KeyFileError(folder.path, .permissions, "holds keys but belongs to another user (uid \(info.st_uid))", fix: "keep keys in a folder of your own")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw KeyFileError(folder.path, .permissions, "holds keys but other users can \(access(info.st_mode, folder: true)) it", fix: "run `chmod 700 \(folder.path)`")
        }
    }

    // MARK: - Reading

    /// The document in `url`, and the path of the file it came from (where a link leads).
    static func readDocument(_ url: URL, checkingPermissions: Bool = true, checkingFolder: Bool = true) throws -> (document: KeyFileDocument, target: String) {
        let path = url.path
        // O_NONBLOCK: a FIFO put where a key should be must not hang the reader (it is refused below).
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw KeyFileError(path, .io, "cannot be read: \(reason)", fix: errno == ENOENT ? "check the key store's path" : nil)
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw KeyFileError(path, .io, "cannot be read: \(String(cString: strerror(errno)))") }
        let target = resolvedPath(path)
        if checkingPermissions {
            // The descriptor is what gets read, so its file is the one judged (no window for a swap).
            try judge(file: info, path: path)
            if checkingFolder { try checkPermissions(folder: url.deletingLastPathComponent()) }
            let targetFolder = URL(fileURLWithPath: target).deletingLastPathComponent()
            if checkingFolder, targetFolder.standardizedFileURL.path != url.deletingLastPathComponent().standardizedFileURL.path {
                try checkPermissions(folder: targetFolder)
            }
        } else if info.st_mode & S_IFMT != S_IFREG {
            throw KeyFileError(path, .permissions, "is not a regular file")
        }
        guard Int(info.st_size) <= KeyFileDocument.maximumSize else {
            throw KeyFileError(path, .malformed, "is \(info.st_size) bytes long, too long to be a key file (at most \(KeyFileDocument.maximumSize))")
        }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while data.count <= KeyFileDocument.maximumSize {
            let count = Foundation.read(descriptor, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw KeyFileError(path, .io, "cannot be read: \(String(cString: strerror(errno)))") }
            if count == 0 { break }
            data.append(contentsOf: buffer[0..<count])
        }
        return (try KeyFileDocument.parse(data, file: path), target)
    }

    static func material(_ document: KeyFileDocument, passphrase: () throws -> String, file: String) throws -> KeyMaterial {
        switch document {
        case .legacy(let material), .plain(let material): return material
        case .encrypted(let sealed): return try sealed.open(passphrase: try passphrase(), file: file)
        }
    }

    private static func judge(file info: stat, path: String) throws {
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw KeyFileError(path, .permissions, "is not a regular file", fix: "a key file is a file (or a link to one)")
        }
        guard info.st_uid == geteuid() else {
            throw KeyFileError(path, .permissions, "belongs to another user (uid \(info.st_uid))", fix: "keep keys in files of your own")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw KeyFileError(path, .permissions, "is a private key that other users can \(access(info.st_mode, folder: false))", fix: "run `chmod 600 \(path)`")
        }
    }

    /// What the group and others may do with a file or folder of `mode`, in words.
    private static func access(_ mode: mode_t, folder: Bool) -> String {
        var verbs: [String] = []
        if mode & 0o044 != 0 { verbs.append(folder ? "list" : "read") }
        if mode & 0o022 != 0 { verbs.append(folder ? "change" : "write") }
        if folder, mode & 0o011 != 0 { verbs.append("enter") }
        if !folder, verbs.isEmpty { verbs.append("execute") }
        return verbs.joined(separator: " and ")
    }

    /// `path` with every symbolic link followed (the path itself if it cannot be resolved).
    private static func resolvedPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    // MARK: - Writing

    private static func document(_ material: KeyMaterial, passphrase: String?, scrypt: ScryptParameters, file: String) throws -> KeyFileDocument {
        guard let passphrase else { return .unencrypted(material) }
        guard !passphrase.isEmpty else { throw KeyFileError(file, .state, "cannot be encrypted with an empty passphrase", fix: "give a passphrase") }
        return .encrypted(try EncryptedKey.seal(material, passphrase: passphrase, scrypt: scrypt, file: file))
    }

    /// Creates `url` with `document`, mode 0600, refusing to replace anything already there.
    private static func create(_ document: KeyFileDocument, at url: URL, durability: Durability = .eachFile) throws {
        try writeNew(document.bytes, at: url.path, flush: durability == .eachFile)
        if durability == .eachFile { try syncFolder(url.deletingLastPathComponent().path) }
    }

    /// Writes `bytes` to a new file at `path` (O_EXCL, mode 0600) and, with `flush`, flushes it to the disk.
    private static func writeNew(_ bytes: Data, at path: String, flush: Bool = true) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            let code = errno
            if code == EEXIST { throw KeyFileError(path, .state, "already exists, and a key file is never replaced", fix: "choose another name, or move the old key away first") }
            throw WriteFailure.storage(errno: code, path: path) ?? KeyFileError(path, .io, "cannot be created: \(String(cString: strerror(code)))")
        }
        var written = false
        defer {
            close(descriptor)
            if !written { unlink(path) }
        }
        // The umask may have taken bits away from 0600, never added any; make it exactly 0600.
        guard fchmod(descriptor, 0o600) == 0 else { throw KeyFileError(path, .io, "cannot be made private: \(String(cString: strerror(errno)))") }
        try bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else {
                    let code = count == 0 ? ENOSPC : errno
                    throw WriteFailure.storage(errno: code, path: path) ?? KeyFileError(path, .io, "cannot be written: \(String(cString: strerror(code)))")
                }
                offset += count
            }
        }
        if flush {
            guard fsync(descriptor) == 0 else {
                let code = errno
                throw WriteFailure.storage(errno: code, path: path) ?? KeyFileError(path, .io, "cannot be flushed to the disk: \(String(cString: strerror(code)))")
            }
        }
        written = true
    }

    /// Replaces the key file at `path` with `document` through a new file in the same folder, renamed
    /// over it once it has been read back and found to hold the same key.
    private static func replace(_ path: String, with document: KeyFileDocument, material: KeyMaterial, passphrase: String?) throws {
        let target = URL(fileURLWithPath: path)
        let folder = target.deletingLastPathComponent().path
        let temporary = target.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent).\(Data(AES.GCM.Nonce()).hexString.prefix(12)).tmp").path
        try writeNew(document.bytes, at: temporary)
        var renamed = false
        defer { if !renamed { unlink(temporary) } }
        let reread = try self.material(try readDocument(URL(fileURLWithPath: temporary)).document, passphrase: { passphrase ?? "" }, file: temporary)
        guard reread == material, reread.publicKey == material.publicKey else {
            throw KeyFileError(path, .io, "was not rewritten: its new form did not read back as the same key")
        }
        guard rename(temporary, path) == 0 else { throw KeyFileError(path, .io, "cannot be replaced: \(String(cString: strerror(errno)))") }
        renamed = true
        try syncFolder(folder)
    }

    /// Flushes a folder's entries (a new or renamed file) to the disk.
    private static func syncFolder(_ path: String) throws {
        let descriptor = open(path.isEmpty ? "." : path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw KeyFileError(path, .io, "cannot be opened to flush it: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else {
            let code = errno
            throw WriteFailure.storage(errno: code, path: path) ?? KeyFileError(path, .io, "cannot be flushed to the disk: \(String(cString: strerror(code)))")
        }
    }
}

/// Why a key file cannot be read or written: which file, what is wrong, and what to do about it.
public struct KeyFileError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// Not a key file, or one cut short or changed (anything but its authenticated parts).
        case malformed
        /// A key file of a format, key type or cost this Livery does not read.
        case unsupported
        /// The passphrase does not open the file (or an authenticated part of it was changed).
        case wrongPassphrase
        /// The file or its folder can be read or changed by others, or is not a regular file of ours.
        case permissions
        /// The operation does not apply (the file exists, is already encrypted, …).
        case state
        /// The system refused a read or a write.
        case io
    }

    public var file: String
    public var kind: Kind
    public var problem: String
    public var fix: String?

    public init(_ file: String, _ kind: Kind, _ problem: String, fix: String? = nil) {
        self.file = file
        self.kind = kind
        self.problem = problem
        self.fix = fix
    }

    /// `problem` follows the file's path, unless it names the file itself ("wrong passphrase for …").
    public var description: String { (problem.contains(file) ? problem : "\(file) \(problem)") + (fix.map { ": \($0)" } ?? "") }
}
