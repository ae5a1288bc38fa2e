import CPKCS11
import Foundation

/// One open session on the token a PKCS#11 URI names: finding the token, logging in, finding
/// objects, reading their attributes and signing. Not thread-safe (PKCS#11 sessions are not):
/// `PKCS11Signer` uses it under its lock only.
final class PKCS11Session {
    let module: PKCS11Module
    let slot: CK_SLOT_ID
    /// The token's label, for messages.
    let token: String
    private let handle: CK_SESSION_HANDLE
    private var closed = false

    private init(module: PKCS11Module, slot: CK_SLOT_ID, token: String, handle: CK_SESSION_HANDLE) {
        self.module = module
        self.slot = slot
        self.token = token
        self.handle = handle
    }

    deinit { close() }

    func close() {
        guard !closed else { return }
        closed = true
        _ = module.functions.pointee.C_CloseSession?(handle)
    }

    /// Opens a read-only session on the one initialised token that matches `uri`'s token, slot and
    /// library attributes (all of them: an attribute the URI leaves out matches anything).
    static func open(_ module: PKCS11Module, matching uri: PKCS11URI) throws -> PKCS11Session {
        try checkLibrary(module, uri)
        let getSlotList = try module.function("C_GetSlotList", \.C_GetSlotList)
        var count: CK_ULONG = 0
        var slots: [CK_SLOT_ID] = []
        // The list can grow between the two calls (a token plugged in): ask again when it did.
        while true {
            var rv = getSlotList(CK_BBOOL(CK_TRUE), nil, &count)
            guard rv == CKR_OK else { throw PKCS11Error(operation: "C_GetSlotList", rv, "module \(module.path)") }
            slots = [CK_SLOT_ID](repeating: 0, count: Int(count))
            rv = slots.withUnsafeMutableBufferPointer { getSlotList(CK_BBOOL(CK_TRUE), $0.baseAddress, &count) }
            if rv == CKR_BUFFER_TOO_SMALL { continue }
            guard rv == CKR_OK else { throw PKCS11Error(operation: "C_GetSlotList", rv, "module \(module.path)") }
            slots = Array(slots.prefix(Int(count)))
            break
        }
        let getTokenInfo = try module.function("C_GetTokenInfo", \.C_GetTokenInfo)
        var present: [String] = []
        var matches: [(slot: CK_SLOT_ID, label: String)] = []
        for slot in slots {
            var info = CK_TOKEN_INFO()
            // A token pulled out between the two calls is simply not there.
            guard getTokenInfo(slot, &info) == CKR_OK, info.flags & CK_FLAGS(CKF_TOKEN_INITIALIZED) != 0 else { continue }
            let label = padded(info.label), serial = padded(info.serialNumber)
            let manufacturer = padded(info.manufacturerID), model = padded(info.model)
            present.append("'\(label)' (serial \(serial), slot \(slot))")
            guard uri.slotID.map({ $0 == UInt(slot) }) ?? true, uri.token.map({ $0 == label }) ?? true,
                  uri.serial.map({ $0 == serial }) ?? true, uri.manufacturer.map({ $0 == manufacturer }) ?? true,
                  uri.model.map({ $0 == model }) ?? true, try slotMatches(module, slot, uri) else { continue }
            matches.append((slot, label))
        }
        guard let match = matches.first else {
            let wanted = uri.token.map { "token '\($0)'" } ?? "the token the URI describes"
            throw PKCS11Error("no \(wanted) in PKCS#11 module \(module.path)"
                              + (present.isEmpty ? ": the module sees no initialised token" : "; tokens there: \(present.sorted().joined(separator: ", "))"))
        }
        guard matches.count == 1 else {
            throw PKCS11Error("\(matches.count) tokens match the URI in \(module.path) (\(matches.map { "'\($0.label)' in slot \($0.slot)" }.joined(separator: ", "))): "
                              + "add token=, serial= or slot-id= to choose one")
        }
        let openSession = try module.function("C_OpenSession", \.C_OpenSession)
        var handle: CK_SESSION_HANDLE = 0
        // Read-only is enough to sign, and a read-only session cannot change the token by mistake.
        let rv = openSession(match.slot, CK_FLAGS(CKF_SERIAL_SESSION), nil, nil, &handle)
        guard rv == CKR_OK else { throw PKCS11Error(operation: "C_OpenSession", rv, "token '\(match.label)'") }
        return PKCS11Session(module: module, slot: match.slot, token: match.label, handle: handle)
    }

    private static func checkLibrary(_ module: PKCS11Module, _ uri: PKCS11URI) throws {
        guard uri.libraryManufacturer != nil || uri.libraryDescription != nil || uri.libraryVersion != nil else { return }
        var info = CK_INFO()
        let rv = try module.function("C_GetInfo", \.C_GetInfo)(&info)
        guard rv == CKR_OK else { throw PKCS11Error(operation: "C_GetInfo", rv, "module \(module.path)") }
        let manufacturer = padded(info.manufacturerID), description = padded(info.libraryDescription)
        let version = PKCS11URI.Version(major: info.libraryVersion.major, minor: info.libraryVersion.minor)
        guard uri.libraryManufacturer.map({ $0 == manufacturer }) ?? true, uri.libraryDescription.map({ $0 == description }) ?? true,
              uri.libraryVersion.map({ $0 == version }) ?? true else {
            throw PKCS11Error("PKCS#11 module \(module.path) is '\(description)' \(version) by '\(manufacturer)', not the library the URI describes")
        }
    }

    private static func slotMatches(_ module: PKCS11Module, _ slot: CK_SLOT_ID, _ uri: PKCS11URI) throws -> Bool {
        guard uri.slotDescription != nil || uri.slotManufacturer != nil else { return true }
        var info = CK_SLOT_INFO()
        guard try module.function("C_GetSlotInfo", \.C_GetSlotInfo)(slot, &info) == CKR_OK else { return false }
        return (uri.slotDescription.map { $0 == padded(info.slotDescription) } ?? true)
            && (uri.slotManufacturer.map { $0 == padded(info.manufacturerID) } ?? true)
    }

    /// A blank-padded PKCS#11 text field (some modules pad with NUL) as a string.
    static func padded<T>(_ field: T) -> String {
        var bytes = withUnsafeBytes(of: field) { Array($0) }
        while let last = bytes.last, last == 0x20 || last == 0 { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: Login

    func tokenFlags() throws -> CK_FLAGS {
        var info = CK_TOKEN_INFO()
        let rv = try module.function("C_GetTokenInfo", \.C_GetTokenInfo)(slot, &info)
        guard rv == CKR_OK else { throw PKCS11Error(operation: "C_GetTokenInfo", rv, "token '\(token)'") }
        return info.flags
    }

    /// Logs the user in when the token wants it and nobody has yet (a login holds for every
    /// session of the process on the token, so another signer may have done it). The PIN comes from
    /// `pinSource`, else from a PIN pad when the token has one, else from a prompt on the terminal.
    func logIn(pinSource: SecretSource?) throws {
        let flags = try tokenFlags()
        guard flags & CK_FLAGS(CKF_LOGIN_REQUIRED) != 0 else { return }
        var info = CK_SESSION_INFO()
        let rv = try module.function("C_GetSessionInfo", \.C_GetSessionInfo)(handle, &info)
        guard rv == CKR_OK else { throw PKCS11Error(operation: "C_GetSessionInfo", rv, "token '\(token)'") }
        if info.state == CK_STATE(CKS_RO_USER_FUNCTIONS) || info.state == CK_STATE(CKS_RW_USER_FUNCTIONS) { return }
        // Do not spend a try (or ask for a PIN) on a token that says it is locked.
        if flags & CK_FLAGS(CKF_USER_PIN_LOCKED) != 0 { throw PKCS11Error.login(UInt(CKR_PIN_LOCKED), token: token) }
        let login = try module.function("C_Login", \.C_Login)
        let result: CK_RV
        if pinSource == nil, flags & CK_FLAGS(CKF_PROTECTED_AUTHENTICATION_PATH) != 0 {
            result = login(handle, CK_USER_TYPE(CKU_USER), nil, 0)
        } else {
            var pin = Array(try (pinSource ?? .prompt).read(what: "the PIN of token '\(token)'").utf8)
            // Best effort: the copy in this array is wiped; Swift strings cannot be.
            defer { for index in pin.indices { pin[index] = 0 } }
            let length = CK_ULONG(pin.count)
            result = pin.withUnsafeMutableBufferPointer { login(handle, CK_USER_TYPE(CKU_USER), $0.baseAddress, length) }
        }
        if result == CKR_OK || result == CKR_USER_ALREADY_LOGGED_IN { return }
        let finalTry = ((try? tokenFlags()) ?? 0) & CK_FLAGS(CKF_USER_PIN_FINAL_TRY) != 0
        throw PKCS11Error.login(UInt(result), token: token, finalTry: finalTry)
    }

    // MARK: Objects

    /// The objects of `objectClass` with this label and id (either may be left out), at most `limit`.
    func findObjects(_ objectClass: CK_OBJECT_CLASS, label: String?, id: Data?, limit: Int = 16) throws -> [CK_OBJECT_HANDLE] {
        var template: [(CK_ATTRIBUTE_TYPE, [UInt8])] = [(CK_ATTRIBUTE_TYPE(CKA_CLASS), withUnsafeBytes(of: objectClass) { Array($0) })]
        if let label { template.append((CK_ATTRIBUTE_TYPE(CKA_LABEL), Array(label.utf8))) }
        if let id { template.append((CK_ATTRIBUTE_TYPE(CKA_ID), Array(id))) }
        let findInit = try module.function("C_FindObjectsInit", \.C_FindObjectsInit)
        let find = try module.function("C_FindObjects", \.C_FindObjects)
        let findFinal = try module.function("C_FindObjectsFinal", \.C_FindObjectsFinal)
        var rv = Self.withTemplate(template) { findInit(handle, $0, $1) }
        guard rv == CKR_OK else { throw PKCS11Error(operation: "C_FindObjectsInit", rv, "token '\(token)'") }
        defer { _ = findFinal(handle) }
        var found = [CK_OBJECT_HANDLE](repeating: 0, count: limit)
        var count: CK_ULONG = 0
        rv = found.withUnsafeMutableBufferPointer { find(handle, $0.baseAddress, CK_ULONG(limit), &count) }
        guard rv == CKR_OK else { throw PKCS11Error(operation: "C_FindObjects", rv, "token '\(token)'") }
        return Array(found.prefix(Int(count)))
    }

    /// An attribute's bytes, or nil when the object has no such attribute or will not say.
    func attribute(_ type: CK_ATTRIBUTE_TYPE, of object: CK_OBJECT_HANDLE) throws -> [UInt8]? {
        let getAttribute = try module.function("C_GetAttributeValue", \.C_GetAttributeValue)
        var query = CK_ATTRIBUTE(type: type, pValue: nil, ulValueLen: 0)
        var rv = getAttribute(handle, object, &query, 1)
        if rv == CKR_ATTRIBUTE_TYPE_INVALID || rv == CKR_ATTRIBUTE_SENSITIVE || query.ulValueLen == CK_ULONG.max { return nil }
        guard rv == CKR_OK else { throw PKCS11Error(operation: "C_GetAttributeValue", rv, "token '\(token)'") }
        var value = [UInt8](repeating: 0, count: Int(query.ulValueLen))
        rv = value.withUnsafeMutableBytes { buffer in
            var attribute = CK_ATTRIBUTE(type: type, pValue: buffer.baseAddress, ulValueLen: CK_ULONG(buffer.count))
            let rv = getAttribute(handle, object, &attribute, 1)
            query.ulValueLen = attribute.ulValueLen
            return rv
        }
        guard rv == CKR_OK else { throw PKCS11Error(operation: "C_GetAttributeValue", rv, "token '\(token)'") }
        return Array(value.prefix(Int(query.ulValueLen)))
    }

    /// A `CK_ULONG` attribute (`CKA_KEY_TYPE`, `CKA_CLASS`).
    func number(_ type: CK_ATTRIBUTE_TYPE, of object: CK_OBJECT_HANDLE) throws -> CK_ULONG? {
        guard let bytes = try attribute(type, of: object), bytes.count == MemoryLayout<CK_ULONG>.size else { return nil }
        return bytes.withUnsafeBytes { $0.loadUnaligned(as: CK_ULONG.self) }
    }

    // MARK: Signing

    /// One `C_SignInit` + `C_Sign` with a mechanism that takes no parameters.
    func sign(_ data: [UInt8], mechanism: CK_MECHANISM_TYPE, key: CK_OBJECT_HANDLE, subject: String) throws -> [UInt8] {
        var parameters = CK_MECHANISM(mechanism: mechanism, pParameter: nil, ulParameterLen: 0)
        var rv = try module.function("C_SignInit", \.C_SignInit)(handle, &parameters, key)
        guard rv == CKR_OK else { throw PKCS11Error(operation: "C_SignInit", rv, subject) }
        let sign = try module.function("C_Sign", \.C_Sign)
        // Room for any signature a token makes (P-521 is 132 bytes, RSA-4096 512): no second call for the size.
        var signature = [UInt8](repeating: 0, count: 1024)
        var length = CK_ULONG(signature.count)
        // Never a null pointer, even for an empty message: some modules check the pointer before the length.
        var input = data.isEmpty ? [0] : data
        let inputLength = CK_ULONG(data.count)
        rv = input.withUnsafeMutableBufferPointer { input in
            signature.withUnsafeMutableBufferPointer { sign(handle, input.baseAddress, inputLength, $0.baseAddress, &length) }
        }
        guard rv == CKR_OK else { throw PKCS11Error(operation: "C_Sign", rv, subject) }
        return Array(signature.prefix(Int(length)))
    }

    private static func withTemplate<R>(_ items: [(CK_ATTRIBUTE_TYPE, [UInt8])], _ body: (UnsafeMutablePointer<CK_ATTRIBUTE>, CK_ULONG) -> R) -> R {
        let buffers = items.map { item -> UnsafeMutableRawPointer in
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: max(item.1.count, 1), alignment: MemoryLayout<CK_ULONG>.alignment)
            item.1.withUnsafeBytes { bytes in if let base = bytes.baseAddress { buffer.copyMemory(from: base, byteCount: bytes.count) } }
            return buffer
        }
        defer { buffers.forEach { $0.deallocate() } }
        var template = zip(items, buffers).map { item, buffer in CK_ATTRIBUTE(type: item.0, pValue: buffer, ulValueLen: CK_ULONG(item.1.count)) }
        return template.withUnsafeMutableBufferPointer { body($0.baseAddress!, CK_ULONG($0.count)) }
    }
}
