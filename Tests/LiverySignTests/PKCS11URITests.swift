import Foundation
import LiverySign
import XCTest

/// The PKCS#11 URI parser (RFC 7512): the RFC's own examples with the values they stand for, the
/// redacted form, and what it refuses. No module is loaded here.
final class PKCS11URITests: XCTestCase {
    private func parse(_ text: String) throws -> PKCS11URI { try PKCS11URI(parsing: text) }

    private func refusal(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> PKCS11URIError? {
        do {
            let uri = try PKCS11URI(parsing: text)
            XCTFail("accepted \(text) as \(uri)", file: file, line: line)
            return nil
        } catch let error as PKCS11URIError {
            return error
        } catch {
            XCTFail("unexpected \(error)", file: file, line: line)
            return nil
        }
    }

    // MARK: RFC 7512, section 3: its examples

    func testReadsTheRFCExamplesIntoTheValuesTheyStandFor() throws {
        XCTAssertEqual(try parse("pkcs11:"), PKCS11URI())

        var expected = PKCS11URI()
        expected.object = "my-pubkey"
        expected.type = .publicKey
        XCTAssertEqual(try parse("pkcs11:object=my-pubkey;type=public"), expected)

        expected = PKCS11URI()
        expected.object = "my-key"
        expected.type = .privateKey
        expected.pinSource = .file("/etc/token")
        XCTAssertEqual(try parse("pkcs11:object=my-key;type=private?pin-source=file:/etc/token"), expected)

        expected = PKCS11URI()
        expected.token = "The Software PKCS#11 Softtoken"
        expected.manufacturer = "Snake Oil, Inc."
        expected.model = "1.0"
        expected.object = "my-certificate"
        expected.type = .certificate
        expected.id = Data([0x69, 0x95, 0x3E, 0x5C, 0xF4, 0xBD, 0xEC, 0x91])
        expected.serial = ""
        expected.pinSource = .file("/etc/token_pin")
        XCTAssertEqual(try parse("pkcs11:token=The%20Software%20PKCS%2311%20Softtoken;manufacturer=Snake%20Oil,%20Inc.;model=1.0;"
                                 + "object=my-certificate;type=cert;id=%69%95%3E%5C%F4%BD%EC%91;serial=?pin-source=file:/etc/token_pin"), expected)

        expected = PKCS11URI()
        expected.object = "my-sign-key"
        expected.type = .privateKey
        expected.moduleName = "mypkcs11"
        XCTAssertEqual(try parse("pkcs11:object=my-sign-key;type=private?module-name=mypkcs11"), expected)

        expected.moduleName = nil
        expected.modulePath = "/mnt/libmypkcs11.so.1"
        XCTAssertEqual(try parse("pkcs11:object=my-sign-key;type=private?module-path=/mnt/libmypkcs11.so.1"), expected)

        expected = PKCS11URI()
        expected.slotDescription = "Sun Metaslot"
        XCTAssertEqual(try parse("pkcs11:slot-description=Sun%20Metaslot"), expected)

        expected = PKCS11URI()
        expected.libraryManufacturer = "Snake Oil, Inc."
        expected.libraryDescription = "Soft Token Library"
        expected.libraryVersion = .init(major: 1, minor: 23)
        XCTAssertEqual(try parse("pkcs11:library-manufacturer=Snake%20Oil,%20Inc.;library-description=Soft%20Token%20Library;library-version=1.23"), expected)

        // Escapes are case-insensitive; a version without a minor number is MAJOR.0.
        expected = PKCS11URI()
        expected.token = "My token% created by Joe"
        expected.libraryVersion = .init(major: 3, minor: 0)
        expected.id = Data([0x01, 0x02, 0x03, 0xBA, 0xDD, 0xCA, 0xFE, 0x04, 0x05, 0x06])
        XCTAssertEqual(try parse("pkcs11:token=My%20token%25%20created%20by%20Joe;library-version=3;id=%01%02%03%Ba%dd%Ca%fe%04%05%06"), expected)

        expected = PKCS11URI()
        expected.token = "A name with a substring %;"
        expected.object = "my-certificate"
        expected.type = .certificate
        XCTAssertEqual(try parse("pkcs11:token=A%20name%20with%20a%20substring%20%25%3B;object=my-certificate;type=cert"), expected)

        expected.token = "Name with a small A with acute: \u{E1}"
        XCTAssertEqual(try parse("pkcs11:token=Name%20with%20a%20small%20A%20with%20acute:%20%C3%A1;object=my-certificate;type=cert"), expected)

        // Vendor attributes, in the path and in the query: ignored, and listed by name only.
        expected.token = "my-token"
        expected.pinSource = .file("/etc/token_pin")
        expected.ignoredAttributes = ["vendor-aaa", "vendor-bbb"]
        XCTAssertEqual(try parse("pkcs11:token=my-token;object=my-certificate;type=cert;vendor-aaa=value-a?pin-source=file:/etc/token_pin&vendor-bbb=value-b"), expected)
    }

    func testRefusesTheRFCExampleThatCarriesAPIN() throws {
        let error = refusal("pkcs11:token=Software%20PKCS%2311%20softtoken;manufacturer=Snake%20Oil,%20Inc.?pin-value=the-pin")
        XCTAssertEqual(error?.attribute, "pin-value")
        XCTAssertEqual(error?.description, "invalid PKCS#11 URI: a PIN may not be written in a PKCS#11 URI (it would be seen in `ps`, shell history and "
                       + "configuration files): remove pin-value and give pin-source=env:NAME, file:PATH, fd:N or prompt")
        XCTAssertFalse(error?.description.contains("the-pin") ?? true)
        // Anywhere, even when something else is also wrong: the PIN is never echoed.
        XCTAssertEqual(refusal("pkcs11:pin-value=1234;token=%zz")?.attribute, "pin-value")
        XCTAssertEqual(refusal("pkcs11:object=k?pin-source=env:P&pin-value=secret%")?.attribute, "pin-value")
    }

    // MARK: The redacted form

    func testRedactedFormIsCanonicalAndReadsBackTheSame() throws {
        let uri = try parse("pkcs11:id=%01%02%03%Ba%dd%Ca%fe%04%05%06;library-version=3;token=My%20token%25%20created%20by%20Joe"
                            + "?pin-source=file:/etc/token%20pin&module-path=/usr/lib/softhsm/libsofthsm2.so&vendor-x=secret")
        XCTAssertEqual(uri.redacted, "pkcs11:token=My%20token%25%20created%20by%20Joe;library-version=3.0;id=%01%02%03%BA%DD%CA%FE%04%05%06"
                       + "?module-path=/usr/lib/softhsm/libsofthsm2.so&pin-source=file:/etc/token%20pin")
        XCTAssertEqual(uri.description, uri.redacted)
        var withoutVendor = uri
        withoutVendor.ignoredAttributes = []
        XCTAssertEqual(try parse(uri.redacted), withoutVendor)

        let examples = ["pkcs11:token=The%20Software%20PKCS%2311%20Softtoken;manufacturer=Snake%20Oil,%20Inc.;model=1.0;object=my-certificate;type=cert;"
                        + "id=%69%95%3E%5C%F4%BD%EC%91;serial=?pin-source=file:/etc/token_pin",
                        "pkcs11:slot-description=Sun%20Metaslot;slot-manufacturer=Sun;slot-id=4294967296;object=%C3%A1%3B%26",
                        "pkcs11:library-manufacturer=Snake%20Oil,%20Inc.;library-description=Soft%20Token%20Library;library-version=1.23?module-name=softhsm2",
                        "pkcs11:object=k?pin-source=env:LIVERY_PIN", "pkcs11:object=k?pin-source=fd:3", "pkcs11:object=k?pin-source=prompt"]
        for example in examples {
            let parsed = try parse(example)
            XCTAssertEqual(try parse(parsed.redacted), parsed, example)
        }
        XCTAssertEqual(try parse(examples[1]).redacted, "pkcs11:slot-description=Sun%20Metaslot;slot-manufacturer=Sun;slot-id=4294967296;object=%C3%A1%3B%26")
        XCTAssertEqual(try parse("PKCS11:object=k").redacted, "pkcs11:object=k")
    }

    // MARK: Refusals

    func testRefusesBadPercentEscapes() {
        for (text, shown) in [("pkcs11:token=a%G1", "%G1"), ("pkcs11:token=a%4", "%4"), ("pkcs11:token=a%", "%"), ("pkcs11:id=%0x01", "%0x")] {
            let error = refusal(text)
            XCTAssertEqual(error?.attribute, text.contains("id=") ? "id" : "token", text)
            XCTAssertTrue(error?.message.hasPrefix("bad percent escape '\(shown)' in ") ?? false, "\(text): \(String(describing: error))")
        }
        XCTAssertEqual(refusal("pkcs11:object=k?module-path=/lib/%zz.so")?.attribute, "module-path")
    }

    func testRefusesAnAttributeGivenTwice() {
        XCTAssertEqual(refusal("pkcs11:token=a;object=k;token=b")?.message, "attribute 'token' appears twice in the path: give it once")
        XCTAssertEqual(refusal("pkcs11:id=%01;id=%01")?.attribute, "id")
        XCTAssertEqual(refusal("pkcs11:object=k?module-path=/a.so&module-path=/b.so")?.message, "attribute 'module-path' appears twice in the query: give it once")
        XCTAssertEqual(refusal("pkcs11:object=k?pin-source=env:A&pin-source=env:B")?.attribute, "pin-source")
        // A vendor attribute may not repeat in the path, but may in the query (RFC 7512 allows it there).
        XCTAssertEqual(refusal("pkcs11:x-a=1;x-a=2")?.attribute, "x-a")
        XCTAssertEqual(try parse("pkcs11:object=k?x-b=1&x-b=2").ignoredAttributes, ["x-b"])
    }

    func testRefusesCharactersTheGrammarReserves() {
        XCTAssertEqual(refusal("pkcs11:token=My Token")?.message, "byte 0x20 may not stand unencoded in token: write it percent-encoded (%20)")
        XCTAssertEqual(refusal("pkcs11:object=a/b")?.message, "'/' may not stand unencoded in object: write it percent-encoded (%2F)")
        XCTAssertEqual(refusal("pkcs11:object=k?module-path=/a&b.so")?.message, "an attribute in the query has no '=' (each is NAME=VALUE, separated by '&')")
        XCTAssertEqual(refusal("pkcs11:object=\u{E1}")?.message, "byte 0xC3 may not stand unencoded in object: write it percent-encoded (%C3)")
        XCTAssertEqual(refusal("pkcs11:object=k#frag")?.message, "a PKCS#11 URI has no fragment: write '#' in a value as %23")
        XCTAssertEqual(refusal("pkcs11:token=a;")?.message, "an attribute in the path has no '=' (each is NAME=VALUE, separated by ';')")
        XCTAssertEqual(refusal("pkcs11:to ken=a")?.message, "'to ken' is not an attribute name (letters, digits, '-' and '_')")
        XCTAssertEqual(refusal("pkcs11:=a")?.message, "'' is not an attribute name (letters, digits, '-' and '_')")
        XCTAssertEqual(refusal("pkcs12:token=a")?.message, "a PKCS#11 URI starts with 'pkcs11:'")
        XCTAssertEqual(refusal("token=a")?.message, "a PKCS#11 URI starts with 'pkcs11:'")
    }

    func testRefusesValuesThatCannotMeanAnything() {
        XCTAssertEqual(refusal("pkcs11:type=key")?.message, "type is one of public, private, cert, secret-key or data, not 'key'")
        XCTAssertEqual(refusal("pkcs11:slot-id=0x1")?.message, "slot-id is a decimal number, not '0x1'")
        XCTAssertEqual(refusal("pkcs11:slot-id=")?.attribute, "slot-id")
        XCTAssertEqual(refusal("pkcs11:library-version=1.2.3")?.message, "library-version is MAJOR or MAJOR.MINOR, each a number up to 255, not '1.2.3'")
        XCTAssertEqual(refusal("pkcs11:library-version=256")?.attribute, "library-version")
        XCTAssertEqual(refusal("pkcs11:token=%FF")?.message, "token is not UTF-8 text once percent-decoded")
        XCTAssertEqual(refusal("pkcs11:object=a%00b")?.message, "object contains a NUL byte (%00)")
        XCTAssertEqual(refusal("pkcs11:object=k?module-path=libsofthsm2.so")?.message, "module-path must be an absolute path, not 'libsofthsm2.so'")
        XCTAssertEqual(refusal("pkcs11:object=k?module-name=../../tmp/evil")?.attribute, "module-name")
        // A PIN written as the pin-source by mistake is not echoed either.
        let error = refusal("pkcs11:object=k?pin-source=123456")
        XCTAssertEqual(error?.message, "pin-source is env:NAME, file:PATH, fd:N or prompt (where the PIN is, never the PIN)")
        XCTAssertFalse(error?.description.contains("123456") ?? true)
    }

    // MARK: What a signer needs

    func testSignerNeedsAnObjectOrAnIdAndAModuleButLoadsNothing() throws {
        XCTAssertThrowsError(try PKCS11Signer(uri: "pkcs11:token=livery?module-path=/usr/lib/softhsm/libsofthsm2.so")) { error in
            XCTAssertEqual((error as? PKCS11URIError)?.attribute, "object")
            XCTAssertEqual("\(error)", "invalid PKCS#11 URI: the URI names no key: add object=LABEL and/or id=%XX (pkcs11-tool --list-objects shows both)")
        }
        XCTAssertThrowsError(try PKCS11Signer(uri: "pkcs11:object=k;type=cert?module-path=/m.so")) { error in
            XCTAssertEqual((error as? PKCS11URIError)?.message, "type=cert does not name a signing key: write type=private or leave type out")
        }
        XCTAssertThrowsError(try PKCS11Signer(uri: "pkcs11:object=k")) { error in
            XCTAssertEqual((error as? PKCS11URIError)?.attribute, "module-path")
            XCTAssertTrue("\(error)".contains("/usr/lib/softhsm/libsofthsm2.so"), "\(error)")
        }
        XCTAssertThrowsError(try PKCS11Signer(uri: "pkcs11:object=k?pin-value=1234&module-path=/m.so")) { error in
            XCTAssertEqual((error as? PKCS11URIError)?.attribute, "pin-value")
        }
        // Made without touching the module: a path that does not exist fails only on first use.
        let signer = try PKCS11Signer(uri: "pkcs11:object=k;type=private;id=%01?module-path=/nonexistent/module.so&pin-source=env:NOPE")
        XCTAssertEqual(signer.uri, "pkcs11:object=k;type=private;id=%01?module-path=/nonexistent/module.so&pin-source=env:NOPE")
        XCTAssertEqual(signer.modulePath, "/nonexistent/module.so")
    }

    func testModuleNameIsLookedUpInTheModuleFolders() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livery-p11-modules-\(UUID().uuidString.prefix(8))")
        let first = folder.appendingPathComponent("first"), second = folder.appendingPathComponent("second")
        try FileManager.default.createDirectory(at: first, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: second, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = FileManager.default.createFile(atPath: second.appendingPathComponent("libvendor.so").path, contents: Data())
        _ = FileManager.default.createFile(atPath: second.appendingPathComponent("other.so").path, contents: Data())
        _ = FileManager.default.createFile(atPath: first.appendingPathComponent("other.so").path, contents: Data())
        let folders = [first.path, second.path]
        XCTAssertEqual(try parse("pkcs11:object=k?module-name=vendor").resolvedModulePath(folders: folders), second.path + "/libvendor.so")
        XCTAssertEqual(try parse("pkcs11:object=k?module-name=other").resolvedModulePath(folders: folders), first.path + "/other.so")
        // module-path wins over module-name.
        XCTAssertEqual(try parse("pkcs11:object=k?module-name=vendor&module-path=/opt/m.so").resolvedModulePath(folders: folders), "/opt/m.so")
        XCTAssertThrowsError(try parse("pkcs11:object=k?module-name=absent").resolvedModulePath(folders: folders)) { error in
            XCTAssertEqual((error as? PKCS11URIError)?.message, "no PKCS#11 module named 'absent' in \(first.path), \(second.path): give its path with module-path")
        }
        #if os(Linux)
        if FileManager.default.fileExists(atPath: "/usr/lib/softhsm/libsofthsm2.so") {
            XCTAssertEqual(try parse("pkcs11:object=k?module-name=softhsm2").resolvedModulePath(), "/usr/lib/softhsm/libsofthsm2.so")
        }
        #endif
    }

    // MARK: Messages

    func testLoginFailuresNameTheTokenAndTheWayOut() {
        XCTAssertEqual(PKCS11Error.login(0xA0, token: "livery").description, "wrong PIN for token 'livery'")
        XCTAssertEqual(PKCS11Error.login(0xA0, token: "livery", finalTry: true).description, "wrong PIN for token 'livery': one more wrong PIN locks it")
        XCTAssertEqual(PKCS11Error.login(0xA4, token: "livery").description, "token 'livery' is locked (too many wrong PINs): unlock it with the token's SO PIN")
        XCTAssertEqual(PKCS11Error.login(0xA4, token: "livery").operation, "C_Login")
        XCTAssertEqual(PKCS11Error.login(0xA4, token: "livery").code, 0xA4)
        XCTAssertEqual(PKCS11Error.login(0x30, token: "livery").description, "C_Login failed with CKR_DEVICE_ERROR (token 'livery')")
    }

    func testReturnValuesAreNamedAsThePKCS11StandardNamesThem() {
        XCTAssertEqual(PKCS11Error.name(of: 0), "CKR_OK")
        XCTAssertEqual(PKCS11Error.name(of: 0x70), "CKR_MECHANISM_INVALID")
        XCTAssertEqual(PKCS11Error.name(of: 0x191), "CKR_CRYPTOKI_ALREADY_INITIALIZED")
        XCTAssertEqual(PKCS11Error.name(of: 0x101), "CKR_USER_NOT_LOGGED_IN")
        XCTAssertEqual(PKCS11Error.name(of: 0x8000_0001), "CKR_0x80000001")
    }
}
