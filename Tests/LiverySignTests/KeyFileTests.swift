import Crypto
import LiveryTestSupport
import Foundation
import LiverySign
import LiveryReleaseFormat
import XCTest

/// Key files in the clear and encrypted with a passphrase (issue 19): what is written reads back
/// as the same key, what was changed or cut is refused with the file's name, and keys that others
/// could read are refused with the command that fixes them.
final class KeyFileTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("livery-keyfile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// The cheapest accepted scrypt cost, so that these tests stay fast (`testRecommendedScryptCost` times the real one).
    let fast = ScryptParameters.minimum()
    let message = Data("{\"_type\":\"timestamp\",\"version\":1}".utf8)

    func file(_ name: String) -> URL { folder.appendingPathComponent(name) }

    func neverAsked() throws -> String {
        XCTFail("the passphrase was asked for a file in the clear")
        return "unused"
    }

    func mode(_ url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    func assertSigns(_ signer: any MetadataSigner, as expected: TUFKey, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(try signer.publicKey(), expected, file: file, line: line)
        XCTAssertTrue(expected.verifies(try signer.sign(message).hexString, of: message), file: file, line: line)
    }

    func assertRefused(_ kind: KeyFileError.Kind, mentioning texts: [String], file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            guard let error = error as? KeyFileError else { return XCTFail("not a KeyFileError: \(error)", file: file, line: line) }
            XCTAssertEqual(error.kind, kind, "\(error)", file: file, line: line)
            for text in texts { XCTAssertTrue(error.description.contains(text), "'\(error)' does not mention '\(text)'", file: file, line: line) }
        }
    }

    /// The encrypted document in `url`, its fields as JSON, for tampering.
    func fields(_ url: URL) throws -> [String: JSONValue] {
        try XCTUnwrap(JSONValue.parse(try Data(contentsOf: url)).objectValue)
    }

    func rewrite(_ url: URL, _ fields: [String: JSONValue]) throws {
        try overwrite(url, JSONValue.object(fields).bytes)
    }

    func overwrite(_ url: URL, _ data: Data) throws {
        try data.write(to: url)
        chmod(url.path, 0o600)
    }

    // MARK: - Round trips

    func testPlainEd25519IsTheLegacyHexFormAndSigns() throws {
        let key = Curve25519.Signing.PrivateKey()
        let url = file("targets.key")
        try KeyFile.write(ed25519: key, to: url, passphrase: nil)
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), key.rawRepresentation.hexString + "\n")
        XCTAssertEqual(try mode(url), 0o600)
        XCTAssertFalse(KeyFile.isEncrypted(url))
        let signer = try KeyFile.read(url, passphrase: neverAsked)
        XCTAssertEqual(signer.uri, "file:" + url.path)
        try assertSigns(signer, as: TUFKey(key.publicKey))
    }

    func testLegacyKeyWithSurroundingWhitespaceIsRead() throws {
        let key = Curve25519.Signing.PrivateKey()
        let url = file("root.key")
        XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: Data("  \(key.rawRepresentation.hexString.uppercased())\r\n\n".utf8), attributes: [.posixPermissions: 0o600]))
        try assertSigns(try KeyFile.read(url, passphrase: neverAsked), as: TUFKey(key.publicKey))
    }

    func testPlainP256IsAOneLineDocumentAndSigns() throws {
        let key = P256.Signing.PrivateKey()
        let url = file("snapshot.key")
        try KeyFile.write(p256: key, to: url, passphrase: nil)
        let data = try Data(contentsOf: url)
        XCTAssertEqual(data.filter { $0 == 0x0A }.count, 1, "one line")
        let fields = try self.fields(url)
        XCTAssertEqual(fields["keytype"], .string("ecdsa-sha2-nistp256"))
        XCTAssertEqual(fields["public"], .string(TUFKey(key.publicKey).publicValue))
        XCTAssertEqual(fields["private"], .string(key.rawRepresentation.hexString))
        XCTAssertFalse(KeyFile.isEncrypted(url))
        try assertSigns(try KeyFile.read(url, passphrase: neverAsked), as: TUFKey(key.publicKey))
    }

    func testEncryptedKeysOfBothTypesReadBackWithTheirPassphrase() throws {
        let ed25519 = Curve25519.Signing.PrivateKey()
        let p256 = P256.Signing.PrivateKey()
        try KeyFile.write(ed25519: ed25519, to: file("a.key"), passphrase: "correct horse", scrypt: fast)
        try KeyFile.write(p256: p256, to: file("b.key"), passphrase: "battery staple", scrypt: fast)
        for (name, passphrase, expected) in [("a.key", "correct horse", TUFKey(ed25519.publicKey)), ("b.key", "battery staple", TUFKey(p256.publicKey))] {
            let url = file(name)
            XCTAssertTrue(KeyFile.isEncrypted(url))
            XCTAssertEqual(try mode(url), 0o600)
            let text = try String(contentsOf: url, encoding: .utf8)
            XCTAssertFalse(text.contains(ed25519.rawRepresentation.hexString) || text.contains(p256.rawRepresentation.hexString), "no key in the clear")
            XCTAssertEqual(text.filter { $0 == "\n" }.count, 1, "one line")
            // `keys list` knows the key without the passphrase.
            XCTAssertEqual(try KeyFile.publicKey(url), expected)
            var asked = 0
            let signer = try KeyFile.read(url) {
                asked += 1
                return passphrase
            }
            XCTAssertEqual(asked, 1)
            try assertSigns(signer, as: expected)
        }
        let fields = try self.fields(file("a.key"))
        XCTAssertEqual(fields["kdf"]?["name"], .string("scrypt"))
        XCTAssertEqual(fields["kdf"]?["n"], .int(1 << 14))
        XCTAssertEqual(fields["cipher"]?["name"], .string("aes-256-gcm"))
        XCTAssertEqual(fields["livery-key"], .int(1))
    }

    func testNewFilesAreCreatedWithDefaultCostByDefault() throws {
        try KeyFile.write(ed25519: Curve25519.Signing.PrivateKey(), to: file("default.key"), passphrase: "p")
        XCTAssertEqual(try fields(file("default.key"))["kdf"]?["n"], .int(1 << 16))
    }

    // MARK: - Refusals of the contents

    func testWrongPassphraseIsNamedAsSuch() throws {
        let url = file("timestamp.key")
        try KeyFile.write(ed25519: Curve25519.Signing.PrivateKey(), to: url, passphrase: "right", scrypt: fast)
        assertRefused(.wrongPassphrase, mentioning: ["wrong passphrase for \(url.path)"]) { _ = try KeyFile.read(url) { "wrong" } }
        assertRefused(.wrongPassphrase, mentioning: [url.path]) { _ = try KeyFile.read(url) { "" } }
    }

    func testChangedPublicKeyIsRefused() throws {
        let url = file("targets.key")
        try KeyFile.write(ed25519: Curve25519.Signing.PrivateKey(), to: url, passphrase: "pass", scrypt: fast)
        var fields = try self.fields(url)
        // Another valid key, so only the authenticated data can tell.
        fields["public"] = .string(TUFKey(Curve25519.Signing.PrivateKey().publicKey).publicValue)
        try rewrite(url, fields)
        assertRefused(.wrongPassphrase, mentioning: [url.path, "changed"]) { _ = try KeyFile.read(url) { "pass" } }
    }

    func testChangedScryptParametersAreRefused() throws {
        let url = file("targets.key")
        try KeyFile.write(ed25519: Curve25519.Signing.PrivateKey(), to: url, passphrase: "pass", scrypt: fast)
        let original = try fields(url)
        for (name, value) in [("n", JSONValue.int(1 << 15)), ("r", .int(9)), ("p", .int(2)), ("salt", .string(String(repeating: "00", count: 16)))] {
            guard case .object(var kdf)? = original["kdf"] else { return XCTFail("no kdf") }
            kdf[name] = value
            var fields = original
            fields["kdf"] = .object(kdf)
            try rewrite(url, fields)
            assertRefused(.wrongPassphrase, mentioning: [url.path]) { _ = try KeyFile.read(url) { "pass" } }
        }
    }

    func testChangedCiphertextTagOrNonceIsRefused() throws {
        let url = file("targets.key")
        try KeyFile.write(p256: P256.Signing.PrivateKey(), to: url, passphrase: "pass", scrypt: fast)
        let original = try fields(url)
        func flipped(_ value: JSONValue?) -> JSONValue {
            let text = value?.stringValue ?? ""
            return .string((text.first == "0" ? "1" : "0") + text.dropFirst())
        }
        var ciphertext = original
        ciphertext["ciphertext"] = flipped(original["ciphertext"])
        var tag = original
        tag["tag"] = flipped(original["tag"])
        var nonce = original
        nonce["cipher"] = .object(["name": .string("aes-256-gcm"), "nonce": flipped(original["cipher"]?["nonce"])])
        for fields in [ciphertext, tag, nonce] {
            try rewrite(url, fields)
            assertRefused(.wrongPassphrase, mentioning: [url.path]) { _ = try KeyFile.read(url) { "pass" } }
        }
    }

    func testAbsurdScryptCostIsRefusedBeforeAnyWork() throws {
        let url = file("targets.key")
        try KeyFile.write(ed25519: Curve25519.Signing.PrivateKey(), to: url, passphrase: "pass", scrypt: fast)
        let original = try fields(url)
        let hostile: [(String, JSONValue)] = [("n", .int(1 << 40)), ("n", .int(1 << 23)), ("n", .int(1 << 13)), ("n", .int(100_000)), ("n", .int(-1)),
                                              ("r", .int(1 << 30)), ("p", .int(1 << 30)), ("r", .int(1))]
        for (name, value) in hostile {
            guard case .object(var kdf)? = original["kdf"] else { return XCTFail("no kdf") }
            kdf[name] = value
            var fields = original
            fields["kdf"] = .object(kdf)
            try rewrite(url, fields)
            let start = Date()
            assertRefused(.unsupported, mentioning: [url.path, "scrypt"]) { _ = try KeyFile.read(url) { XCTFail("asked for a passphrase"); return "pass" } }
            XCTAssertLessThan(Date().timeIntervalSince(start), 0.5, "\(name) = \(value) was refused only after work")
        }
        // N = 2^22 is within the range but asks for 4 GiB at r = 8: refused for its memory.
        guard case .object(var kdf)? = original["kdf"] else { return XCTFail("no kdf") }
        kdf["n"] = .int(1 << 22)
        var fields = original
        fields["kdf"] = .object(kdf)
        try rewrite(url, fields)
        assertRefused(.unsupported, mentioning: ["MiB"]) { _ = try KeyFile.read(url) { "pass" } }
    }

    func testTruncatedFilesAreRefusedWithTheirPath() throws {
        let encrypted = file("encrypted.key")
        try KeyFile.write(ed25519: Curve25519.Signing.PrivateKey(), to: encrypted, passphrase: "pass", scrypt: fast)
        let data = try Data(contentsOf: encrypted)
        try overwrite(encrypted, data.prefix(data.count / 2))
        assertRefused(.malformed, mentioning: [encrypted.path, "cut short"]) { _ = try KeyFile.read(encrypted) { "pass" } }

        let legacy = file("legacy.key")
        try KeyFile.write(ed25519: Curve25519.Signing.PrivateKey(), to: legacy, passphrase: nil)
        let text = try Data(contentsOf: legacy)
        try overwrite(legacy, text.prefix(40))
        assertRefused(.malformed, mentioning: [legacy.path, "64 hexadecimal digits"]) { _ = try KeyFile.read(legacy, passphrase: neverAsked) }

        let empty = file("empty.key")
        XCTAssertTrue(FileManager.default.createFile(atPath: empty.path, contents: Data(), attributes: [.posixPermissions: 0o600]))
        assertRefused(.malformed, mentioning: [empty.path]) { _ = try KeyFile.read(empty, passphrase: neverAsked) }
    }

    func testDocumentsOfOtherFormatsOrWithUnknownFieldsAreRefused() throws {
        let url = file("targets.key")
        try KeyFile.write(p256: P256.Signing.PrivateKey(), to: url, passphrase: nil)
        let original = try fields(url)
        var newer = original
        newer["livery-key"] = .int(2)
        try rewrite(url, newer)
        assertRefused(.unsupported, mentioning: ["format 2"]) { _ = try KeyFile.read(url, passphrase: neverAsked) }
        var extra = original
        extra["comment"] = .string("hello")
        try rewrite(url, extra)
        assertRefused(.malformed, mentioning: ["\"comment\""]) { _ = try KeyFile.read(url, passphrase: neverAsked) }
        var mismatched = original
        mismatched["public"] = .string(TUFKey(P256.Signing.PrivateKey().publicKey).publicValue)
        try rewrite(url, mismatched)
        assertRefused(.malformed, mentioning: ["does not belong"]) { _ = try KeyFile.read(url, passphrase: neverAsked) }
    }

    /// Seeded mutations of valid documents (bytes flipped, cut, repeated): each is read or refused
    /// with a `KeyFileError`, never a crash, and no mutation of an encrypted file opens.
    func testMutatedDocumentsAreRefusedCleanly() throws {
        var generator = SeededGenerator(seed: 19)
        let material = KeyMaterial.ed25519(Curve25519.Signing.PrivateKey())
        let scrypt = ScryptParameters(n: 1 << 14, r: 8, p: 1, salt: Data(repeating: 7, count: 16))
        let key = SymmetricKey(data: Data(repeating: 0x42, count: 32))
        let sealed = try KeyFileDocument.encrypted(EncryptedKey.seal(material, key: key, scrypt: scrypt)).bytes
        let seeds = [sealed, KeyFileDocument.plain(.p256(P256.Signing.PrivateKey())).bytes, KeyFileDocument.legacy(material).bytes]
        for round in 0..<600 {
            var bytes = Array(seeds[round % seeds.count])
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let at = Int.random(in: 0..<max(bytes.count, 1), using: &generator)
                switch Int.random(in: 0..<4, using: &generator) {
                case 0 where !bytes.isEmpty: bytes[at] = UInt8.random(in: .min ... .max, using: &generator)
                case 1: bytes = Array(bytes.prefix(at))
                case 2 where !bytes.isEmpty: bytes.insert(contentsOf: bytes[at...].prefix(8), at: at)
                default: if !bytes.isEmpty { bytes[at] = Array("{}\":,0af1".utf8).randomElement(using: &generator)! }
                }
            }
            do {
                if case .encrypted(let document) = try KeyFileDocument.parse(Data(bytes), file: "mutant.key") {
                    let opened = try? document.open(key: key, file: "mutant.key")
                    XCTAssertTrue(opened == nil || opened == material, "round \(round): a changed document opened as another key")
                }
            } catch is KeyFileError {
                continue
            }
        }
    }

    // MARK: - Permissions

    func testGroupReadableKeyIsRefusedWithTheChmodThatFixesIt() throws {
        let url = file("targets.key")
        try KeyFile.write(ed25519: Curve25519.Signing.PrivateKey(), to: url, passphrase: nil)
        chmod(url.path, 0o640)
        assertRefused(.permissions, mentioning: ["other users can read", "`chmod 600 \(url.path)`"]) { _ = try KeyFile.read(url, passphrase: neverAsked) }
        chmod(url.path, 0o602)
        assertRefused(.permissions, mentioning: ["write", "`chmod 600 \(url.path)`"]) { try KeyFile.checkPermissions(file: url) }
        chmod(url.path, 0o600)
        XCTAssertNoThrow(try KeyFile.read(url, passphrase: neverAsked))
    }

    func testFolderOthersCanEnterIsRefusedWithTheChmodThatFixesIt() throws {
        let url = file("targets.key")
        try KeyFile.write(ed25519: Curve25519.Signing.PrivateKey(), to: url, passphrase: nil)
        chmod(folder.path, 0o755)
        assertRefused(.permissions, mentioning: ["list", "enter", "`chmod 700 \(folder.path)`"]) { _ = try KeyFile.read(url, passphrase: neverAsked) }
        chmod(folder.path, 0o701)
        assertRefused(.permissions, mentioning: ["`chmod 700 \(folder.path)`"]) { try KeyFile.checkPermissions(folder: folder) }
        chmod(folder.path, 0o700)
        XCTAssertNoThrow(try KeyFile.read(url, passphrase: neverAsked))
    }

    func testLinkIsJudgedByWhatItLeadsTo() throws {
        let elsewhere = folder.appendingPathComponent("media")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let key = Curve25519.Signing.PrivateKey()
        let target = elsewhere.appendingPathComponent("real.key")
        try KeyFile.write(ed25519: key, to: target, passphrase: nil)
        let link = file("targets.key")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        try assertSigns(try KeyFile.read(link, passphrase: neverAsked), as: TUFKey(key.publicKey))
        chmod(target.path, 0o644)
        assertRefused(.permissions, mentioning: ["`chmod 600 \(link.path)`"]) { _ = try KeyFile.read(link, passphrase: neverAsked) }
        chmod(target.path, 0o600)
        chmod(elsewhere.path, 0o755)
        assertRefused(.permissions, mentioning: ["`chmod 700 \(elsewhere.path)`"]) { _ = try KeyFile.read(link, passphrase: neverAsked) }
        chmod(elsewhere.path, 0o700)
        // Encrypting through the link rewrites the file it leads to, and keeps the link.
        try KeyFile.encrypt(link, passphrase: "pass", scrypt: fast)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link.path), target.path)
        XCTAssertTrue(KeyFile.isEncrypted(target))
    }

    func testSomethingOtherThanAFileIsRefusedWithoutHanging() throws {
        let fifo = file("fifo.key")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        assertRefused(.permissions, mentioning: [fifo.path, "not a regular file"]) { _ = try KeyFile.read(fifo, passphrase: neverAsked) }
        let subfolder = file("folder.key")
        try FileManager.default.createDirectory(at: subfolder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        assertRefused(.permissions, mentioning: ["not a regular file"]) { _ = try KeyFile.read(subfolder, passphrase: neverAsked) }
    }

    func testKeyOfAnotherUserIsRefused() throws {
        try XCTSkipUnless(geteuid() == 0, "needs root to give a file away")
        let url = file("targets.key")
        try KeyFile.write(ed25519: Curve25519.Signing.PrivateKey(), to: url, passphrase: nil)
        XCTAssertEqual(chown(url.path, 65534, 65534), 0)
        assertRefused(.permissions, mentioning: ["another user"]) { _ = try KeyFile.read(url, passphrase: neverAsked) }
        XCTAssertEqual(chown(url.path, 0, 0), 0)
        XCTAssertEqual(chown(folder.path, 65534, 65534), 0)
        assertRefused(.permissions, mentioning: [folder.path, "another user"]) { _ = try KeyFile.read(url, passphrase: neverAsked) }
    }

    // MARK: - Writing and rewriting

    func testAnExistingFileIsNeverReplaced() throws {
        let url = file("targets.key")
        try KeyFile.write(ed25519: Curve25519.Signing.PrivateKey(), to: url, passphrase: nil)
        let before = try Data(contentsOf: url)
        assertRefused(.state, mentioning: [url.path, "already exists"]) { try KeyFile.write(p256: P256.Signing.PrivateKey(), to: url, passphrase: nil) }
        XCTAssertEqual(try Data(contentsOf: url), before)
        // Nor is a link followed to create a file elsewhere.
        let link = file("link.key")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: folder.appendingPathComponent("nowhere.key").path)
        assertRefused(.state, mentioning: ["already exists"]) { try KeyFile.write(ed25519: Curve25519.Signing.PrivateKey(), to: link, passphrase: nil) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("nowhere.key").path))
    }

    func testEncryptingInPlaceKeepsTheKeyAndItsMode() throws {
        for type in KeyType.allCases {
            let url = file("\(type.rawValue).key")
            switch type {
            case .ed25519: try KeyFile.write(ed25519: Curve25519.Signing.PrivateKey(), to: url, passphrase: nil)
            case .p256: try KeyFile.write(p256: P256.Signing.PrivateKey(), to: url, passphrase: nil)
            }
            let plain = try Data(contentsOf: url)
            let keyID = try KeyFile.publicKey(url).keyID
            try KeyFile.encrypt(url, passphrase: "new passphrase", scrypt: fast)
            XCTAssertTrue(KeyFile.isEncrypted(url))
            XCTAssertEqual(try mode(url), 0o600)
            XCTAssertEqual(try KeyFile.publicKey(url).keyID, keyID)
            XCTAssertEqual(try KeyFile.read(url) { "new passphrase" }.publicKey().keyID, keyID)
            assertRefused(.state, mentioning: ["already encrypted"]) { try KeyFile.encrypt(url, passphrase: "again", scrypt: fast) }
            assertRefused(.wrongPassphrase, mentioning: [url.path]) { try KeyFile.decrypt(url, passphrase: "not it") }
            try KeyFile.decrypt(url, passphrase: "new passphrase")
            XCTAssertEqual(try Data(contentsOf: url), plain, "decrypting gives back the file in the clear, byte for byte")
            XCTAssertEqual(try mode(url), 0o600)
            assertRefused(.state, mentioning: ["not encrypted"]) { try KeyFile.decrypt(url, passphrase: "new passphrase") }
        }
        // No temporary file is left behind.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), ["ecdsa-sha2-nistp256.key", "ed25519.key"])
    }

    /// The cost of the scrypt parameters new files get, against the cheapest accepted ones in the
    /// same run. The recommendation is about 0.1–0.5 s per derivation on the build machine.
    func testRecommendedScryptCost() throws {
        func seconds(_ parameters: ScryptParameters) throws -> Double {
            let material = KeyMaterial.ed25519(Curve25519.Signing.PrivateKey())
            let start = Date()
            _ = try EncryptedKey.seal(material, passphrase: "timing", scrypt: parameters, file: "timing.key")
            return Date().timeIntervalSince(start)
        }
        let floor = try seconds(.minimum())
        let recommended = ScryptParameters.recommended()
        let cost = try seconds(recommended)
        print(String(format: "scrypt N=2^14 r=8: %.3f s; recommended N=2^%d r=%d p=%d: %.3f s (%.1f×)", floor, recommended.n.trailingZeroBitCount, recommended.r, recommended.p, cost, cost / floor))
        XCTAssertGreaterThan(cost / floor, 2, "the recommendation must cost more than the floor")
        XCTAssertLessThan(cost, 5, "a signing command should not wait seconds per key")
    }
}
