import Crypto
import Foundation
import LiverySign
import LiveryReleaseFormat
import XCTest

/// The key store's failures travel typed (issue 34): its own as `KeyStoreError` with what they concern, a key
/// file's as `KeyFileError`, keys.yaml's as `KeyConfigurationError`; none is a `TUFError`, and the messages are
/// the ones a command ends with.
final class KeyStoreErrorTests: XCTestCase {
    var root: URL!
    var store: KeyStore!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("livery-keystore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        store = KeyStore(root: root)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    func tenantFolder() throws -> URL {
        let folder = store.folder(for: "acme")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return folder
    }

    func testATenantWithoutKeysIsTheKeyStoresError() {
        XCTAssertThrowsError(try store.keys(for: "acme", create: false, warn: { _ in })) { error in
            XCTAssertEqual(error as? KeyStoreError, KeyStoreError(.noKeys, "acme", "tenant 'acme' has no keys in \(self.root.path)/acme; create keys with `livery keys init acme`"))
        }
    }

    func testAnInterruptedRotationNamesTheTenant() throws {
        FileManager.default.createFile(atPath: try tenantFolder().appendingPathComponent("targets.key.new").path, contents: Data())
        XCTAssertThrowsError(try store.keys(for: "acme", create: false, warn: { _ in })) { error in
            let failure = error as? KeyStoreError
            XCTAssertEqual(failure?.kind, .interruptedRotation)
            XCTAssertEqual(failure?.subject, "acme")
            XCTAssertTrue(failure?.description.hasPrefix("a rotation of the targets key of 'acme' was interrupted") ?? false, "\(error)")
        }
    }

    func testKeysInitOverExistingKeysIsRefused() throws {
        _ = try tenantFolder()
        try Data("root: [file:root.key]\n".utf8).write(to: store.configurationFile(for: "acme"))
        XCTAssertThrowsError(try store.initialize(tenant: "acme", given: [:], counts: [:], thresholds: [:])) { error in
            XCTAssertEqual((error as? KeyStoreError)?.kind, .keysExist, "\(error)")
        }
    }

    func testABrokenKeysYAMLTravelsAsItself() throws {
        try Data("- file:root.key\n".utf8).write(to: try tenantFolder().appendingPathComponent(KeyConfiguration.fileName))
        XCTAssertThrowsError(try store.keys(for: "acme", create: false, warn: { _ in })) { error in
            XCTAssertTrue(error is KeyConfigurationError, "\(type(of: error)): \(error)")
        }
    }

    func testAKeyFileThatIsNoKeyIsAKeyFileErrorAndAnUnusableKeyToItsRole() throws {
        let folder = try tenantFolder()
        let file = folder.appendingPathComponent("root.key")
        FileManager.default.createFile(atPath: file.path, contents: Data("not a key\n".utf8), attributes: [.posixPermissions: 0o600])
        XCTAssertThrowsError(try KeyStore.openKey(.file(path: "root.key", passphrase: nil), relativeTo: folder)) { error in
            XCTAssertEqual((error as? KeyFileError)?.file, file.path, "\(type(of: error)): \(error)")
        }
        // Asked for the role's trusted signers, the key store says which key of which role cannot be used, and why.
        let key = TUFKey(Curve25519.Signing.PrivateKey().publicKey)
        let document = TUFDocument.root(version: 1, expires: Date().addingTimeInterval(86_400),
                                        keys: Dictionary(uniqueKeysWithValues: TUFRole.allCases.map { ($0, [key]) }), thresholds: [:])
        let keys = TenantKeys(signers: [.root: [store.signer(.file(path: "root.key", passphrase: nil), tenant: "acme")]])
        XCTAssertThrowsError(try keys.signers(for: .root, trustedBy: try Root(signed: document), version: 1)) { error in
            let failure = error as? KeyStoreError
            XCTAssertEqual(failure?.kind, .unusableKey, "\(type(of: error)): \(error)")
            XCTAssertEqual(failure?.subject, "file:root.key")
            XCTAssertTrue(failure?.description.hasPrefix("the root key file:root.key cannot be used: \(file.path)") ?? false, "\(error)")
        }
    }
}
