import CPKCS11
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A PKCS#11 module (a token vendor's shared library) loaded with dlopen and initialised, once per
/// path in the process: PKCS#11 lets a module be initialised only once (a second `C_Initialize`
/// answers `CKR_CRYPTOKI_ALREADY_INITIALIZED`), so every signer on the same module shares this.
/// It is never finalised or unloaded: another signer may still hold sessions on it.
final class PKCS11Module: @unchecked Sendable { // immutable after `load`; the module locks itself (CKF_OS_LOCKING_OK)
    let path: String
    let functions: UnsafeMutablePointer<CK_FUNCTION_LIST>

    private init(path: String, functions: UnsafeMutablePointer<CK_FUNCTION_LIST>) {
        self.path = path
        self.functions = functions
    }

    private final class Registry: @unchecked Sendable { // every access holds `lock`
        let lock = NSLock()
        var modules: [String: PKCS11Module] = [:]
    }
    private static let registry = Registry()

    /// The module at `path`, loaded and initialised on first use. A failed load is not remembered,
    /// so a later attempt (after the operator fixes the path) can succeed.
    static func shared(path: String) throws -> PKCS11Module {
        // One entry per file, whatever link or `..` led to it.
        let key = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        registry.lock.lock()
        defer { registry.lock.unlock() }
        if let module = registry.modules[key] { return module }
        let module = try load(path)
        registry.modules[key] = module
        return module
    }

    private static func load(_ path: String) throws -> PKCS11Module {
        guard FileManager.default.fileExists(atPath: path) else { throw PKCS11Error("cannot load PKCS#11 module \(path): no such file") }
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "dlopen failed"
            throw PKCS11Error("cannot load PKCS#11 module \(path): \(reason)")
        }
        guard let symbol = dlsym(handle, "C_GetFunctionList") else {
            dlclose(handle)
            throw PKCS11Error("cannot load PKCS#11 module \(path): it has no C_GetFunctionList, so it is not a PKCS#11 module")
        }
        let getFunctionList = unsafeBitCast(symbol, to: CK_C_GetFunctionList.self)
        var list: UnsafeMutablePointer<CK_FUNCTION_LIST>?
        let rv = getFunctionList(&list)
        guard rv == CKR_OK, let list else { throw PKCS11Error(operation: "C_GetFunctionList", rv, "module \(path)") }
        guard let initialize = list.pointee.C_Initialize else { throw PKCS11Error("PKCS#11 module \(path) has no C_Initialize") }
        // The module may be called from several threads (one session per signer): let it use the OS's locks.
        var arguments = CK_C_INITIALIZE_ARGS()
        arguments.flags = CK_FLAGS(CKF_OS_LOCKING_OK)
        let initialized = initialize(&arguments)
        // Already initialised: something else in the process (another library) loaded it first. It works as it is.
        guard initialized == CKR_OK || initialized == CKR_CRYPTOKI_ALREADY_INITIALIZED else {
            throw PKCS11Error(operation: "C_Initialize", initialized, "module \(path)")
        }
        return PKCS11Module(path: path, functions: list)
    }

    /// A function of the module's list, or an error naming it when the module leaves it out.
    func function<F>(_ name: String, _ keyPath: KeyPath<CK_FUNCTION_LIST, F?>) throws -> F {
        guard let function = functions.pointee[keyPath: keyPath] else { throw PKCS11Error("PKCS#11 module \(path) does not implement \(name)") }
        return function
    }
}
