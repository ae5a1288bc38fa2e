import Foundation
import LiverySign
import LiveryReleaseFormat
import XCTest

/// SoftHSM2 tokens for the PKCS#11 tests, made once per test process in a temporary folder.
///
/// Once per process because SoftHSM reads `SOFTHSM2_CONF` (where its tokens are) in `C_Initialize`,
/// and a module is initialised once per process and shared by every signer: the variable must be set
/// before the first signer opens the module, and a token made after that is not seen (measured with
/// SoftHSM 2.6.1: the slot list is fixed at `C_Initialize`, changing the variable later changes nothing).
/// So every token and key the tests need is made here, before any signer runs.
///
/// Tokens: `livery` (user PIN `pin`, SO PIN 5678) with `ed-key` (Ed25519, id 01), `p256-key` (P-256,
/// id 02), `rsa-key` (RSA 2048, id 03), `orphan` (Ed25519, id 04, its public key object deleted) and
/// mismatched objects under ids 05 and 07 (see below);
/// `spare` (PIN 4321, no keys); `nopin` (initialised without a user PIN).
final class SoftHSMFixture: @unchecked Sendable { // immutable after init
    static let module = "/usr/lib/softhsm/libsofthsm2.so"
    /// Not digits alone: tests check that no output contains the PIN, and a short run of digits turns up by chance in
    /// key ids, UUIDs and temporary paths ("1234" did, in `keys list`'s store path, about one run in a hundred).
    static let pin = "pin-Lq7x"
    /// The variable the tests' URIs read the PIN from (`pin-source=env:LIVERY_TEST_SOFTHSM_PIN`).
    static let pinVariable = "LIVERY_TEST_SOFTHSM_PIN"

    let folder: URL
    /// The `softhsm2.conf` the tokens are in: `livery` processes started by a test need `SOFTHSM2_CONF` set to it.
    let configuration: URL
    /// Public keys as `pkcs11-tool --read-object --type pubkey` exports them (opensc 0.23 writes the
    /// Ed25519 one as PEM and the EC one as DER SubjectPublicKeyInfo).
    let ed25519PublicKeyFile: URL
    let p256PublicKeyFile: URL
    /// The first signer's first `publicKey()`: dlopen, C_Initialize, token search, session, key read.
    let firstOpenSeconds: Double

    private static let lock = NSLock()
    nonisolated(unsafe) private static var made: Result<SoftHSMFixture, Error>? // only under `lock`

    /// The process's fixture. Skips when SoftHSM2 or opensc is missing on a developer's machine; in CI
    /// (`CI` set) a missing tool fails instead, so the HSM tests cannot silently stop running.
    static func shared() throws -> SoftHSMFixture {
        lock.lock()
        defer { lock.unlock() }
        if made == nil { made = Result { try SoftHSMFixture() } }
        return try made!.get()
    }

    /// The URI of a key on the fixture's tokens, with the module and the PIN's variable.
    static func uri(_ path: String, pinSource: String = "env:\(pinVariable)") -> String {
        "pkcs11:\(path)?module-path=\(module)&pin-source=\(pinSource)"
    }

    private init() throws {
        let tools = [Self.module, "/usr/bin/softhsm2-util", "/usr/bin/pkcs11-tool"]
        if let missing = tools.first(where: { !FileManager.default.fileExists(atPath: $0) }) {
            let message = "\(missing) is missing: install softhsm2 and opensc (make test-deps)"
            if ProcessInfo.processInfo.environment["CI"] != nil { throw Failure(message) }
            throw XCTSkip(message)
        }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("livery-softhsm-\(UUID().uuidString.prefix(8))")
        let tokens = folder.appendingPathComponent("tokens")
        try FileManager.default.createDirectory(at: tokens, withIntermediateDirectories: true)
        Self.removeFolderAtExit(folder)
        configuration = folder.appendingPathComponent("softhsm2.conf")
        try "directories.tokendir = \(tokens.path)\nobjectstore.backend = file\nlog.level = ERROR\n".write(to: configuration, atomically: true, encoding: .utf8)
        // In this process's own environment: the module reads it when a signer first initialises it.
        setenv("SOFTHSM2_CONF", configuration.path, 1)
        setenv(Self.pinVariable, Self.pin, 1)
        let environment = ["SOFTHSM2_CONF": configuration.path]

        func run(_ arguments: [String]) throws -> String {
            let output = try LiveryProcess.tool(arguments, environment: environment)
            guard output.status == 0 else { throw Failure("`\(arguments.joined(separator: " "))` failed: \(output.stderr)\(output.stdout)") }
            return output.stdout
        }
        let tool = ["pkcs11-tool", "--module", Self.module]
        _ = try run(["softhsm2-util", "--init-token", "--free", "--label", "livery", "--pin", Self.pin, "--so-pin", "5678"])
        let onLivery = tool + ["--token-label", "livery", "--login", "--pin", Self.pin]
        _ = try run(onLivery + ["--keypairgen", "--key-type", "EC:edwards25519", "--label", "ed-key", "--id", "01"])
        _ = try run(onLivery + ["--keypairgen", "--key-type", "EC:prime256v1", "--label", "p256-key", "--id", "02"])
        _ = try run(onLivery + ["--keypairgen", "--key-type", "rsa:2048", "--label", "rsa-key", "--id", "03"])
        _ = try run(onLivery + ["--keypairgen", "--key-type", "EC:edwards25519", "--label", "orphan", "--id", "04"])
        _ = try run(onLivery + ["--delete-object", "--type", "pubkey", "--id", "04"])
        // Objects that lie: id 05 is one pair's public key beside another pair's private key (both Ed25519);
        // id 07 is a P-256 public key beside an Ed25519 private key.
        _ = try run(onLivery + ["--keypairgen", "--key-type", "EC:edwards25519", "--label", "mixed-a", "--id", "05"])
        _ = try run(onLivery + ["--keypairgen", "--key-type", "EC:edwards25519", "--label", "mixed-b", "--id", "06"])
        _ = try run(onLivery + ["--delete-object", "--type", "privkey", "--id", "05"])
        _ = try run(onLivery + ["--type", "privkey", "--id", "06", "--set-id", "05"])
        _ = try run(onLivery + ["--keypairgen", "--key-type", "EC:prime256v1", "--label", "kind-a", "--id", "07"])
        _ = try run(onLivery + ["--keypairgen", "--key-type", "EC:edwards25519", "--label", "kind-b", "--id", "08"])
        _ = try run(onLivery + ["--delete-object", "--type", "privkey", "--id", "07"])
        _ = try run(onLivery + ["--type", "privkey", "--id", "08", "--set-id", "07"])
        _ = try run(["softhsm2-util", "--init-token", "--free", "--label", "spare", "--pin", "4321", "--so-pin", "5678"])
        // Keys made during tests (`generateKey`) go to a token of their own, so `livery`'s listing stays as made here.
        _ = try run(["softhsm2-util", "--init-token", "--free", "--label", "custody", "--pin", Self.pin, "--so-pin", "5678"])
        // softhsm2-util insists on a user PIN; pkcs11-tool initialises the free slot's token without one.
        let slots = try run(["softhsm2-util", "--show-slots"])
        guard let free = Self.freeSlot(slots) else { throw Failure("no free SoftHSM slot in: \(slots)") }
        _ = try run(tool + ["--slot", free, "--init-token", "--label", "nopin", "--so-pin", "5678"])

        ed25519PublicKeyFile = folder.appendingPathComponent("ed-key.pub")
        p256PublicKeyFile = folder.appendingPathComponent("p256-key.pub")
        _ = try run(tool + ["--token-label", "livery", "--read-object", "--type", "pubkey", "--id", "01", "-o", ed25519PublicKeyFile.path])
        _ = try run(tool + ["--token-label", "livery", "--read-object", "--type", "pubkey", "--id", "02", "-o", p256PublicKeyFile.path])

        let start = DispatchTime.now()
        _ = try PKCS11Signer(uri: Self.uri("token=livery;object=ed-key")).publicKey()
        firstOpenSeconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }

    /// A new key pair (`EC:edwards25519` or `EC:prime256v1`) on the `custody` token, for tests that sign
    /// through `livery` processes: new processes see keys added to an existing token (this one sees them too,
    /// through new sessions).
    func generateKey(label: String, type: String) throws {
        let output = try LiveryProcess.tool(["pkcs11-tool", "--module", Self.module, "--token-label", "custody", "--login", "--pin", Self.pin,
                                             "--keypairgen", "--key-type", type, "--label", label],
                                            environment: ["SOFTHSM2_CONF": configuration.path])
        guard output.status == 0 else { throw Failure("pkcs11-tool could not make \(label): \(output.stderr)") }
    }

    /// The environment a `livery` process needs to reach the fixture's tokens.
    var environment: [String: String] { ["SOFTHSM2_CONF": configuration.path, Self.pinVariable: Self.pin] }

    /// The fixture lives as long as the process (SoftHSM keeps its files open): its folder goes at exit.
    nonisolated(unsafe) private static var folderToRemove: String? // set once, under `lock`
    private static func removeFolderAtExit(_ folder: URL) {
        folderToRemove = folder.path
        atexit { if let path = SoftHSMFixture.folderToRemove { try? FileManager.default.removeItem(atPath: path) } }
    }

    /// The id of the first slot `softhsm2-util --show-slots` lists as not initialised.
    private static func freeSlot(_ listing: String) -> String? {
        var slot: String?
        for line in listing.split(separator: "\n") {
            // "Slot 2" starts a slot; its indented "Slot info:" does not.
            if line.hasPrefix("Slot ") { slot = String(line.dropFirst(5)) }
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("Initialized:"), text.hasSuffix("no") { return slot }
        }
        return nil
    }

    // MARK: The independent verifier: Python's `cryptography`

    private static let verifier = """
        import sys
        from cryptography.exceptions import InvalidSignature
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec
        data = open(sys.argv[2], "rb").read()
        key = serialization.load_pem_public_key(data) if data.startswith(b"-----") else serialization.load_der_public_key(data)
        if sys.argv[1] == "raw":
            if isinstance(key, ec.EllipticCurvePublicKey):
                print(key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint).hex())
            else:
                print(key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw).hex())
            sys.exit(0)
        message = open(sys.argv[3], "rb").read()
        signature = bytes.fromhex(sys.argv[4])
        try:
            if isinstance(key, ec.EllipticCurvePublicKey):
                key.verify(signature, message, ec.ECDSA(hashes.SHA256()))
            else:
                key.verify(signature, message)
        except InvalidSignature:
            print("invalid")
            sys.exit(1)
        print("valid")
        """

    private func python(_ arguments: [String]) throws -> LiveryProcess.Output {
        let output = try LiveryProcess.tool(["python3", "-c", Self.verifier] + arguments)
        if output.stderr.contains("No module named 'cryptography'") {
            throw Failure("python3 lacks the cryptography package: run make test-deps (or pip install cryptography)")
        }
        return output
    }

    /// Whether Python's `cryptography` accepts `signature` over `message` with the key in `publicKeyFile`
    /// (Ed25519, or ECDSA with SHA-256 over a DER signature).
    func pythonVerifies(_ signature: Data, of message: Data, publicKeyFile: URL) throws -> Bool {
        let messageFile = folder.appendingPathComponent("message-\(UUID().uuidString)")
        try message.write(to: messageFile)
        defer { try? FileManager.default.removeItem(at: messageFile) }
        let output = try python(["verify", publicKeyFile.path, messageFile.path, signature.hexString])
        guard ["valid", "invalid"].contains(output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw Failure("the Python verifier failed: \(output.stderr)")
        }
        return output.status == 0
    }

    /// The exported public key's raw bytes in hex: Ed25519's 32 bytes, or P-256's uncompressed point.
    func pythonRawPublicKey(_ publicKeyFile: URL) throws -> String {
        let output = try python(["raw", publicKeyFile.path])
        guard output.status == 0 else { throw Failure("the Python key reader failed: \(output.stderr)") }
        return output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
