import Foundation
import LiveryEncoding

/// A key (or token, or module) named by a PKCS#11 URI, RFC 7512:
/// `pkcs11:token=livery;object=root-key?module-path=/usr/lib/softhsm/libsofthsm2.so&pin-source=env:LIVERY_PIN`.
///
/// Path attributes (separated by `;`) say which token and object; query attributes (separated by
/// `&`) say which module to load and where the PIN comes from. Values are percent-decoded as RFC 3986
/// says; `id` is bytes (`id=%01`), the others UTF-8 text. The parser follows the RFC's grammar and
/// refuses what it does not allow (a raw space, a bad `%` escape, an attribute given twice), and it
/// refuses `pin-value` outright: a PIN written into a URI ends up in shell history, `ps` output and
/// configuration files. Vendor attributes (any other name the grammar allows, such as `vendor-aaa`)
/// are ignored and listed in `ignoredAttributes`, so a command can warn about a misspelt `tokn=`.
public struct PKCS11URI: Sendable, Equatable, CustomStringConvertible {
    /// The `type` attribute: which class of object the URI names.
    public enum ObjectType: String, Sendable, Equatable {
        case publicKey = "public", privateKey = "private", certificate = "cert", secretKey = "secret-key", data
    }

    /// `library-version`: `major[.minor]`, compared with the module's `CK_INFO.libraryVersion`.
    public struct Version: Sendable, Equatable, CustomStringConvertible {
        public var major: UInt8
        public var minor: UInt8
        public init(major: UInt8, minor: UInt8) {
            self.major = major
            self.minor = minor
        }
        public var description: String { "\(major).\(minor)" }
    }

    // Path: the token (CK_TOKEN_INFO), the module (CK_INFO), the slot (CK_SLOT_INFO) and the object.
    public var token: String?
    public var manufacturer: String?
    public var serial: String?
    public var model: String?
    public var libraryManufacturer: String?
    public var libraryDescription: String?
    public var libraryVersion: Version?
    public var slotDescription: String?
    public var slotManufacturer: String?
    public var slotID: UInt?
    /// The object's label (`CKA_LABEL`).
    public var object: String?
    public var type: ObjectType?
    /// The object's `CKA_ID`, as bytes.
    public var id: Data?
    // Query: the module and the PIN.
    /// An absolute path to the module (a shared library).
    public var modulePath: String?
    /// A module's name, looked up in `PKCS11URI.moduleFolders` (see `resolvedModulePath()`).
    public var moduleName: String?
    /// Where the PIN comes from (`env:NAME`, `file:PATH`, `fd:N`, `prompt`): a location, never the PIN.
    public var pinSource: SecretSource?
    /// Vendor attributes the URI carried, which Livery does not use (names only: values may be secrets).
    public var ignoredAttributes: [String] = []

    public init() {}

    public var description: String { redacted }

    /// Reads a PKCS#11 URI. Errors name the attribute at fault but never echo a value that could be a PIN.
    public init(parsing text: String) throws {
        guard text.count >= 7, text.prefix(7).lowercased() == "pkcs11:" else {
            throw PKCS11URIError(nil, "a PKCS#11 URI starts with 'pkcs11:'")
        }
        let rest = text.dropFirst(7)
        if rest.contains("#") { throw PKCS11URIError(nil, "a PKCS#11 URI has no fragment: write '#' in a value as %23") }
        let path: Substring
        let query: Substring?
        if let mark = rest.firstIndex(of: "?") {
            path = rest[..<mark]
            query = rest[rest.index(after: mark)...]
        } else {
            path = rest
            query = nil
        }
        let pathAttributes = try Self.split(path, separator: ";", component: "path")
        let queryAttributes = try query.map { try Self.split($0, separator: "&", component: "query") } ?? []
        // Before anything else looks at a value: a PIN must not reach an error message either.
        if (pathAttributes + queryAttributes).contains(where: { $0.name == "pin-value" }) {
            throw PKCS11URIError("pin-value", "a PIN may not be written in a PKCS#11 URI (it would be seen in `ps`, shell history and configuration files): "
                                 + "remove pin-value and give pin-source=env:NAME, file:PATH, fd:N or prompt")
        }
        var seen = Set<String>()
        for attribute in pathAttributes {
            guard seen.insert(attribute.name).inserted else {
                throw PKCS11URIError(attribute.name, "attribute '\(attribute.name)' appears twice in the path: give it once")
            }
            try assignPath(attribute.name, Self.decode(attribute.value, of: attribute.name, allowed: Self.pathCharacters))
        }
        seen.removeAll()
        for attribute in queryAttributes {
            let standard = Self.queryNames.contains(attribute.name)
            if standard, !seen.insert(attribute.name).inserted {
                throw PKCS11URIError(attribute.name, "attribute '\(attribute.name)' appears twice in the query: give it once")
            }
            let bytes = try Self.decode(attribute.value, of: attribute.name, allowed: Self.queryCharacters)
            if standard {
                try assignQuery(attribute.name, bytes)
            } else if !ignoredAttributes.contains(attribute.name) {
                // RFC 7512 lets a vendor query attribute repeat.
                ignoredAttributes.append(attribute.name)
            }
        }
    }

    private static let pathNames: Set<String> = ["token", "manufacturer", "serial", "model", "library-manufacturer", "library-description",
                                                 "library-version", "object", "type", "id", "slot-description", "slot-manufacturer", "slot-id"]
    private static let queryNames: Set<String> = ["pin-source", "module-name", "module-path"]

    private mutating func assignPath(_ name: String, _ bytes: [UInt8]) throws {
        switch name {
        case "id":
            id = Data(bytes)
        case "token": token = try Self.text(bytes, of: name)
        case "manufacturer": manufacturer = try Self.text(bytes, of: name)
        case "serial": serial = try Self.text(bytes, of: name)
        case "model": model = try Self.text(bytes, of: name)
        case "library-manufacturer": libraryManufacturer = try Self.text(bytes, of: name)
        case "library-description": libraryDescription = try Self.text(bytes, of: name)
        case "slot-description": slotDescription = try Self.text(bytes, of: name)
        case "slot-manufacturer": slotManufacturer = try Self.text(bytes, of: name)
        case "object": object = try Self.text(bytes, of: name)
        case "library-version":
            let value = try Self.text(bytes, of: name)
            let parts = value.split(separator: ".", omittingEmptySubsequences: false)
            guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
                  let major = UInt8(parts[0]), let minor = parts.count == 2 ? UInt8(parts[1]) : 0 else {
                throw PKCS11URIError(name, "library-version is MAJOR or MAJOR.MINOR, each a number up to 255, not '\(value)'")
            }
            libraryVersion = Version(major: major, minor: minor)
        case "slot-id":
            let value = try Self.text(bytes, of: name)
            guard !value.isEmpty, value.allSatisfy({ $0.isASCII && $0.isNumber }), let number = UInt(value) else {
                throw PKCS11URIError(name, "slot-id is a decimal number, not '\(value)'")
            }
            slotID = number
        case "type":
            let value = try Self.text(bytes, of: name)
            guard let kind = ObjectType(rawValue: value) else {
                throw PKCS11URIError(name, "type is one of public, private, cert, secret-key or data, not '\(value)'")
            }
            type = kind
        default:
            // RFC 7512 allows vendor attributes in the path; Livery has none.
            ignoredAttributes.append(name)
        }
    }

    private mutating func assignQuery(_ name: String, _ bytes: [UInt8]) throws {
        let value = try Self.text(bytes, of: name)
        switch name {
        case "module-path":
            // A relative path would depend on the working folder, and a bare name makes dlopen search LD_LIBRARY_PATH.
            guard value.hasPrefix("/") else { throw PKCS11URIError(name, "module-path must be an absolute path, not '\(value)'") }
            modulePath = value
        case "module-name":
            guard !value.isEmpty, !value.contains("/") else {
                throw PKCS11URIError(name, "module-name is a module's name such as 'softhsm2' (without folders: use module-path for a path)")
            }
            moduleName = value
        default:
            // The value is not echoed: someone may have written the PIN itself here.
            guard let source = try? SecretSource(parsing: value) else {
                throw PKCS11URIError(name, "pin-source is env:NAME, file:PATH, fd:N or prompt (where the PIN is, never the PIN)")
            }
            pinSource = source
        }
    }

    // MARK: Syntax (RFC 7512 section 2.3, RFC 3986 for percent-encoding)

    private static func split(_ component: Substring, separator: Character, component name: String) throws -> [(name: String, value: Substring)] {
        guard !component.isEmpty else { return [] }
        return try component.split(separator: separator, omittingEmptySubsequences: false).map { piece in
            guard let equals = piece.firstIndex(of: "=") else {
                // Not echoed: in the query it could be a PIN written without its name.
                throw PKCS11URIError(nil, "an attribute in the \(name) has no '=' (each is NAME=VALUE, separated by '\(separator)')")
            }
            let attributeName = String(piece[..<equals])
            guard !attributeName.isEmpty, attributeName.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") }) else {
                throw PKCS11URIError(nil, "'\(attributeName.prefix(40))' is not an attribute name (letters, digits, '-' and '_')")
            }
            return (attributeName, piece[piece.index(after: equals)...])
        }
    }

    /// RFC 3986's unreserved characters and the reserved ones RFC 7512 lets stand unencoded in a path value.
    private static let pathCharacters = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:[]@!$'()*+,=&".utf8)
    /// In a query value `&` separates attributes, while `/`, `?` and `|` may stand unencoded.
    private static let queryCharacters = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:[]@!$'()*+,=/?|".utf8)

    private static func decode(_ value: Substring, of name: String, allowed: Set<UInt8>) throws -> [UInt8] {
        let raw = Array(value.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count)
        var index = 0
        while index < raw.count {
            let byte = raw[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < raw.count, let high = Hex.value(ofDigit: raw[index + 1]), let low = Hex.value(ofDigit: raw[index + 2]) else {
                    let shown = String(decoding: raw[index..<min(index + 3, raw.count)], as: UTF8.self)
                    throw PKCS11URIError(name, "bad percent escape '\(shown)' in \(name): '%' must be followed by two hex digits (write '%' itself as %25)")
                }
                bytes.append(high << 4 | low)
                index += 3
            } else {
                guard allowed.contains(byte) else {
                    let character = String(decoding: [byte], as: UTF8.self)
                    let shown = byte < 0x80 && byte > 0x20 ? "'\(character)'" : String(format: "byte 0x%02X", byte)
                    throw PKCS11URIError(name, "\(shown) may not stand unencoded in \(name): write it percent-encoded (\(String(format: "%%%02X", byte)))")
                }
                bytes.append(byte)
                index += 1
            }
        }
        return bytes
    }

    /// A text value: UTF-8 without NUL (every value reaches C). Not held to the length of its PKCS#11
    /// field (a token label has 32 bytes): RFC 7512's own examples include a longer label, which simply
    /// matches no token.
    private static func text(_ bytes: [UInt8], of name: String) throws -> String {
        guard let value = String(bytes: bytes, encoding: .utf8) else { throw PKCS11URIError(name, "\(name) is not UTF-8 text once percent-decoded") }
        guard !bytes.contains(0) else { throw PKCS11URIError(name, "\(name) contains a NUL byte (%00)") }
        return value
    }

    // MARK: Writing

    /// The URI without secrets, in a fixed attribute order: for messages, logs and `MetadataSigner.uri`.
    /// It never holds a PIN (pin-value is refused when parsing); pin-source is only where the PIN is,
    /// so it stays. Vendor attributes are dropped: Livery ignored them, and their values could be anything.
    public var redacted: String {
        var path: [String] = []
        func add(_ name: String, _ value: String?) { if let value { path.append("\(name)=\(Self.encode(Array(value.utf8), keeping: Self.unreserved))") } }
        add("token", token)
        add("manufacturer", manufacturer)
        add("serial", serial)
        add("model", model)
        add("library-manufacturer", libraryManufacturer)
        add("library-description", libraryDescription)
        if let libraryVersion { path.append("library-version=\(libraryVersion)") }
        add("slot-description", slotDescription)
        add("slot-manufacturer", slotManufacturer)
        if let slotID { path.append("slot-id=\(slotID)") }
        add("object", object)
        if let type { path.append("type=\(type.rawValue)") }
        // An id is bytes: every one is written as %XX, as RFC 7512 recommends.
        if let id { path.append("id=" + id.map { String(format: "%%%02X", $0) }.joined()) }
        var query: [String] = []
        let queryKept = Self.unreserved.union("/:".utf8)
        if let moduleName { query.append("module-name=\(Self.encode(Array(moduleName.utf8), keeping: queryKept))") }
        if let modulePath { query.append("module-path=\(Self.encode(Array(modulePath.utf8), keeping: queryKept))") }
        if let pinSource { query.append("pin-source=\(Self.encode(Array(pinSource.description.utf8), keeping: queryKept))") }
        return "pkcs11:" + path.joined(separator: ";") + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
    }

    private static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)

    private static func encode(_ bytes: [UInt8], keeping kept: Set<UInt8>) -> String {
        bytes.map { kept.contains($0) ? String(UnicodeScalar($0)) : String(format: "%%%02X", $0) }.joined()
    }

    /// How the key is named in messages: `'root-key' (id 01)`, `'root-key'` or `id 01`.
    public var objectDescription: String {
        let idText = id.map { "id \($0.hexString)" }
        switch (object, idText) {
        case let (label?, idText?): return "'\(label)' (\(idText))"
        case let (label?, nil): return "'\(label)'"
        case let (nil, idText?): return idText
        case (nil, nil): return "(any object)"
        }
    }

    // MARK: The module

    /// Where `module-name` is looked for, in order: Debian's multiarch folder for PKCS#11 modules (opensc,
    /// p11-kit's proxy), the older `/usr/lib/pkcs11`, and SoftHSM2's folder. In each, NAME is tried as
    /// `NAME`, `NAME.so` and `libNAME.so` (`.dylib` on Apple platforms): `module-name=softhsm2` finds
    /// `/usr/lib/softhsm/libsofthsm2.so`, `module-name=opensc-pkcs11` finds opensc's module.
    public static let moduleFolders: [String] = {
        #if arch(arm64)
        let multiarch = "/usr/lib/aarch64-linux-gnu/pkcs11"
        #else
        let multiarch = "/usr/lib/x86_64-linux-gnu/pkcs11"
        #endif
        return [multiarch, "/usr/lib/pkcs11", "/usr/lib/softhsm"]
    }()

    /// The module to load: `module-path` when given (it wins over `module-name`), else the first file
    /// `module-name` resolves to in `folders`. Only looks at file names; the module is not loaded.
    public func resolvedModulePath(folders: [String] = PKCS11URI.moduleFolders) throws -> String {
        if let modulePath { return modulePath }
        guard let moduleName else {
            throw PKCS11URIError("module-path", "the URI names no PKCS#11 module: add ?module-path=/path/to/module.so "
                                 + "(SoftHSM2 on Debian: /usr/lib/softhsm/libsofthsm2.so) or ?module-name=NAME")
        }
        #if canImport(Darwin)
        let candidates = [moduleName, "\(moduleName).dylib", "lib\(moduleName).dylib", "\(moduleName).so", "lib\(moduleName).so"]
        #else
        let candidates = [moduleName, "\(moduleName).so", "lib\(moduleName).so"]
        #endif
        for folder in folders {
            for candidate in candidates {
                let path = folder + "/" + candidate
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue { return path }
            }
        }
        throw PKCS11URIError("module-name", "no PKCS#11 module named '\(moduleName)' in \(folders.joined(separator: ", ")): give its path with module-path")
    }
}

/// A PKCS#11 URI that cannot be used, with the attribute at fault when there is one.
public struct PKCS11URIError: Error, CustomStringConvertible, Sendable, Equatable {
    public var attribute: String?
    public var message: String
    public init(_ attribute: String?, _ message: String) {
        self.attribute = attribute
        self.message = message
    }
    public var description: String { "invalid PKCS#11 URI: \(message)" }
}
