import Foundation
import LiveryDiagnostics
import LiveryLoad
import LiveryReleaseFormat
import LiveryStorage

/// Where one key is kept, as a URI:
/// - `file:PATH[?passphrase-source=SOURCE]`: a key file (plain, or encrypted with a passphrase read
///   from `SOURCE`: `env:NAME`, `file:PATH`, `fd:N` or `prompt`). A relative path is relative to
///   the tenant's folder of the key store.
/// - `pkcs11:…`: a key inside a PKCS#11 token (RFC 7512), with `module-path` and `pin-source`.
public enum KeyReference: Sendable, Equatable, CustomStringConvertible {
    case file(path: String, passphrase: SecretSource?)
    case pkcs11(String)

    public init(parsing text: String) throws {
        if text.hasPrefix("pkcs11:") {
            do { _ = try PKCS11URI(parsing: text) } catch let error as PKCS11URIError { throw KeyConfigurationError(error.description) }
            self = .pkcs11(text)
            return
        }
        guard text.hasPrefix("file:"), text.count > 5 else {
            throw KeyConfigurationError("'\(text)' is not a key URI: use file:PATH or pkcs11:… (RFC 7512)")
        }
        var rest = String(text.dropFirst(5))
        if rest.hasPrefix("//") { rest = String(rest.dropFirst(2)) }
        var passphrase: SecretSource?
        if let question = rest.firstIndex(of: "?") {
            let query = rest[rest.index(after: question)...]
            rest = String(rest[..<question])
            for pair in query.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, parts[0] == "passphrase-source" else {
                    throw KeyConfigurationError("'\(text)': a file key URI takes only ?passphrase-source=env:NAME|file:PATH|fd:N|prompt (never the passphrase itself)")
                }
                passphrase = try SecretSource(parsing: parts[1].removingPercentEncoding ?? parts[1])
            }
        }
        guard !rest.isEmpty else { throw KeyConfigurationError("'\(text)' names no file") }
        self = .file(path: rest.removingPercentEncoding ?? rest, passphrase: passphrase)
    }

    public var description: String {
        switch self {
        case .file(let path, let passphrase):
            return "file:\(path)" + (passphrase.map { "?passphrase-source=\($0)" } ?? "")
        case .pkcs11(let uri):
            return uri
        }
    }

    /// The file a `file:` reference names, resolved against `folder`.
    public func fileURL(relativeTo folder: URL) -> URL? {
        guard case .file(let path, _) = self else { return nil }
        return path.hasPrefix("/") ? URL(fileURLWithPath: path) : folder.appendingPathComponent(path)
    }
}

public struct KeyConfigurationError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A tenant's `keys.yaml` in the key store: which keys sign each role on this machine. Keys held elsewhere (a root key in a safe, another
/// holder's token) are not listed: the published root says which keys a role trusts, this file
/// says which of them this machine can use.
///
/// ```yaml
/// root: [file:root-1.key]            # root-2 and root-3 are held by other people
/// targets: [file:targets.key]
/// snapshot: ["pkcs11:token=livery;object=acme-snapshot?module-path=/usr/lib/softhsm/libsofthsm2.so&pin-source=env:LIVERY_PIN"]
/// timestamp: ["pkcs11:token=livery;object=acme-timestamp?module-path=/usr/lib/softhsm/libsofthsm2.so&pin-source=env:LIVERY_PIN"]
/// ```
///
/// Thresholds are not here: the published root says how many signatures each role needs.
///
/// A line may also record the key's id, as `{uri: "file:/media/usb/root-2.key", keyid: "4e7f…"}`: Livery
/// writes it whenever it knows the key, so that a ceremony can tell whether a new root still trusts a key
/// that is away (its file on a holder's stick, its token unplugged) without opening it.
public struct KeyConfiguration: Sendable, Equatable {
    /// Each role's keys on this machine, in the order they sign.
    public var roles: [TUFRole: [KeyReference]]
    /// The key id recorded for a key, by the key's URI (`KeyReference.description`).
    public var keyIDs: [String: String]

    /// A role not given has no key on this machine (`[]`).
    public init(roles: [TUFRole: [KeyReference]], keyIDs: [String: String] = [:]) {
        self.roles = Dictionary(uniqueKeysWithValues: TUFRole.allCases.map { ($0, roles[$0] ?? []) })
        self.keyIDs = keyIDs
    }

    /// The key id recorded for `reference`, if any.
    public func keyID(of reference: KeyReference) -> String? { keyIDs[reference.description] }

    /// Lists `reference` for `role` (once), recording its key id when known.
    public mutating func add(_ reference: KeyReference, for role: TUFRole, keyID: String?) {
        if !(roles[role] ?? []).contains(reference) { roles[role, default: []].append(reference) }
        if let keyID { keyIDs[reference.description] = keyID }
    }

    public static let fileName = "keys.yaml"

    /// Reads `keys.yaml`; every mistake is an error naming the file, line and column.
    public static func load(_ url: URL) throws -> KeyConfiguration {
        let (node, _, diagnostics) = ManifestParser.load(url, displayPath: url.path)
        if let first = diagnostics.first(where: { $0.severity == .error }) {
            throw KeyConfigurationError("\(first.location): \(first.message)")
        }
        guard let node, let entries = node.entries else {
            throw KeyConfigurationError("\(url.path): expected a mapping of roles (root, targets, snapshot, timestamp) to lists of key URIs")
        }
        var roles: [TUFRole: [KeyReference]] = [:]
        var keyIDs: [String: String] = [:]
        func fail(_ location: SourceLocation, _ message: String) -> KeyConfigurationError {
            KeyConfigurationError("\(location): \(message)")
        }
        for entry in entries {
            guard let role = TUFRole(rawValue: entry.key) else {
                throw fail(entry.keyLocation, "'\(entry.key)' is not a role: use root, targets, snapshot or timestamp (delegated roles keep their keys under delegations/)")
            }
            guard let items = entry.value.items else {
                throw fail(entry.value.location, "\(role.rawValue) must be a list of key URIs (file:… or pkcs11:…), not \(entry.value.typeDescription)")
            }
            var keys: [KeyReference] = []
            for item in items {
                let (uri, keyID) = try Self.entry(item, fail: fail)
                let text = uri.string!
                do { keys.append(try KeyReference(parsing: text)) } catch let error as KeyConfigurationError {
                    throw fail(uri.location, error.description)
                } catch let error as SecretSourceError {
                    throw fail(uri.location, error.description)
                }
                if keys.dropLast().contains(keys.last!) { throw fail(uri.location, "\(text) is listed twice") }
                if let keyID { keyIDs[keys.last!.description] = keyID }
            }
            roles[role] = keys
        }
        return KeyConfiguration(roles: roles, keyIDs: keyIDs)
    }

    /// One line of a role: a URI, or `{uri: URI, keyid: ID}`. Returns the URI's node and the key id.
    private static func entry(_ item: Node, fail: (SourceLocation, String) -> KeyConfigurationError) throws -> (uri: Node, keyID: String?) {
        if item.string != nil { return (item, nil) }
        guard let fields = item.entries else {
            throw fail(item.location, "a key is a URI (file:… or pkcs11:…) or {uri: URI, keyid: ID}, not \(item.typeDescription)")
        }
        var uri: Node?, keyID: String?
        for field in fields {
            switch field.key {
            case "uri":
                guard field.value.string != nil else { throw fail(field.value.location, "uri is a key URI (file:… or pkcs11:…), not \(field.value.typeDescription)") }
                uri = field.value
            case "keyid":
                // A TUF key id: the SHA-256 of the key's canonical JSON, in lowercase hex.
                guard let id = field.value.string, id.count == 64, id.allSatisfy({ "0123456789abcdef".contains($0) }) else {
                    throw fail(field.value.location, "keyid is a key id (64 lowercase hex digits, as `livery keys list` shows it)")
                }
                keyID = id
            default:
                throw fail(field.keyLocation, "'\(field.key)' is not a field of a key: use uri, and keyid")
            }
        }
        guard let uri else { throw fail(item.location, "this key has no uri") }
        return (uri, keyID)
    }

    /// The file's text: every role in TUF order (`[]` for none), each URI quoted (pkcs11 URIs hold `;`, `?` and `&`),
    /// with its key id when one is recorded. Ids of keys no longer listed are not written.
    public var yaml: String {
        var text = "# Which keys sign each role of this tenant on this machine (docs/keys.md#keysyaml).\n"
        for role in TUFRole.allCases {
            let keys = roles[role] ?? []
            text += keys.isEmpty ? "\(role.rawValue): []\n" : "\(role.rawValue):\n" + keys.map { key in
                keyID(of: key).map { "  - {uri: \"\(key.description)\", keyid: \"\($0)\"}\n" } ?? "  - \"\(key.description)\"\n"
            }.joined()
        }
        return text
    }

    /// Writes the file atomically (a new file renamed over the old), mode 0600.
    public func write(to url: URL) throws {
        try AtomicFile.write(Data(yaml.utf8), to: url, mode: 0o600, durable: true)
    }
}

/// A signer opened on first use: a key file is read (and its passphrase asked for) or a token
/// logged into only when a signature or the public key is needed.
public final class LazySigner: MetadataSigner, @unchecked Sendable {
    public let uri: String
    private let opener: @Sendable () throws -> any MetadataSigner
    private let publicKeyReader: (@Sendable () throws -> TUFKey)?
    private let lock = NSLock()
    private var opened: (any MetadataSigner)?
    private var cachedKey: TUFKey?

    /// `publicKey`, when given, reads the public key without opening the signer (an encrypted key
    /// file keeps it in the clear: listing keys and matching them to a root asks no passphrase).
    public init(uri: String, publicKey: (@Sendable () throws -> TUFKey)? = nil, open: @escaping @Sendable () throws -> any MetadataSigner) {
        self.uri = uri
        publicKeyReader = publicKey
        opener = open
    }

    private func signer() throws -> any MetadataSigner {
        lock.lock()
        defer { lock.unlock() }
        if let opened { return opened }
        let signer = try opener()
        opened = signer
        return signer
    }

    public func publicKey() throws -> TUFKey {
        lock.lock()
        if let cachedKey { lock.unlock(); return cachedKey }
        lock.unlock()
        let key = try publicKeyReader?() ?? signer().publicKey()
        lock.lock()
        cachedKey = key
        lock.unlock()
        return key
    }

    public func sign(_ message: Data) throws -> Data {
        let signer = try signer()
        // The key in the clear beside an encrypted key is authenticated by opening it; still, a
        // signer whose key is not the one its public key said is never used.
        if publicKeyReader != nil, try signer.publicKey() != publicKey() {
            throw KeyStoreError(.unusableKey, uri, "\(uri): the key does not match the public key recorded beside it")
        }
        return try signer.sign(message)
    }
}
