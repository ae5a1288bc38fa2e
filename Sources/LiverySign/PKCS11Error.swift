import CPKCS11
import Foundation

/// A PKCS#11 failure: the operation (`C_Login`), its `CKR_` code and the token or key concerned.
public struct PKCS11Error: Error, CustomStringConvertible, Sendable {
    /// The PKCS#11 function that failed, when one did.
    public var operation: String?
    /// The function's return value (`CK_RV`), when one failed.
    public var code: UInt?
    public var description: String

    public init(_ description: String) {
        self.description = description
    }

    /// `C_Sign failed with CKR_KEY_FUNCTION_NOT_PERMITTED (token 'livery', key 'ed-key')`.
    init(operation: String, _ code: CK_RV, _ subject: String) {
        self.operation = operation
        self.code = UInt(code)
        description = "\(operation) failed with \(PKCS11Error.name(of: code)) (\(subject))"
    }

    /// The `CKR_` name of a return value: those a signer meets (and a few neighbours), else the number in hex.
    public static func name(of code: UInt) -> String {
        switch code {
        case UInt(CKR_OK): return "CKR_OK"
        case UInt(CKR_CANCEL): return "CKR_CANCEL"
        case UInt(CKR_HOST_MEMORY): return "CKR_HOST_MEMORY"
        case UInt(CKR_SLOT_ID_INVALID): return "CKR_SLOT_ID_INVALID"
        case UInt(CKR_GENERAL_ERROR): return "CKR_GENERAL_ERROR"
        case UInt(CKR_FUNCTION_FAILED): return "CKR_FUNCTION_FAILED"
        case UInt(CKR_ARGUMENTS_BAD): return "CKR_ARGUMENTS_BAD"
        case UInt(CKR_CANT_LOCK): return "CKR_CANT_LOCK"
        case UInt(CKR_ATTRIBUTE_SENSITIVE): return "CKR_ATTRIBUTE_SENSITIVE"
        case UInt(CKR_ATTRIBUTE_TYPE_INVALID): return "CKR_ATTRIBUTE_TYPE_INVALID"
        case UInt(CKR_DATA_INVALID): return "CKR_DATA_INVALID"
        case UInt(CKR_DATA_LEN_RANGE): return "CKR_DATA_LEN_RANGE"
        case UInt(CKR_DEVICE_ERROR): return "CKR_DEVICE_ERROR"
        case UInt(CKR_DEVICE_MEMORY): return "CKR_DEVICE_MEMORY"
        case UInt(CKR_DEVICE_REMOVED): return "CKR_DEVICE_REMOVED"
        case UInt(CKR_FUNCTION_CANCELED): return "CKR_FUNCTION_CANCELED"
        case UInt(CKR_FUNCTION_NOT_SUPPORTED): return "CKR_FUNCTION_NOT_SUPPORTED"
        case UInt(CKR_KEY_HANDLE_INVALID): return "CKR_KEY_HANDLE_INVALID"
        case UInt(CKR_KEY_SIZE_RANGE): return "CKR_KEY_SIZE_RANGE"
        case UInt(CKR_KEY_TYPE_INCONSISTENT): return "CKR_KEY_TYPE_INCONSISTENT"
        case UInt(CKR_KEY_FUNCTION_NOT_PERMITTED): return "CKR_KEY_FUNCTION_NOT_PERMITTED"
        case UInt(CKR_MECHANISM_INVALID): return "CKR_MECHANISM_INVALID"
        case UInt(CKR_MECHANISM_PARAM_INVALID): return "CKR_MECHANISM_PARAM_INVALID"
        case UInt(CKR_OBJECT_HANDLE_INVALID): return "CKR_OBJECT_HANDLE_INVALID"
        case UInt(CKR_OPERATION_ACTIVE): return "CKR_OPERATION_ACTIVE"
        case UInt(CKR_OPERATION_NOT_INITIALIZED): return "CKR_OPERATION_NOT_INITIALIZED"
        case UInt(CKR_PIN_INCORRECT): return "CKR_PIN_INCORRECT"
        case UInt(CKR_PIN_INVALID): return "CKR_PIN_INVALID"
        case UInt(CKR_PIN_LEN_RANGE): return "CKR_PIN_LEN_RANGE"
        case UInt(CKR_PIN_EXPIRED): return "CKR_PIN_EXPIRED"
        case UInt(CKR_PIN_LOCKED): return "CKR_PIN_LOCKED"
        case UInt(CKR_SESSION_CLOSED): return "CKR_SESSION_CLOSED"
        case UInt(CKR_SESSION_COUNT): return "CKR_SESSION_COUNT"
        case UInt(CKR_SESSION_HANDLE_INVALID): return "CKR_SESSION_HANDLE_INVALID"
        case UInt(CKR_SESSION_PARALLEL_NOT_SUPPORTED): return "CKR_SESSION_PARALLEL_NOT_SUPPORTED"
        case UInt(CKR_SIGNATURE_INVALID): return "CKR_SIGNATURE_INVALID"
        case UInt(CKR_SIGNATURE_LEN_RANGE): return "CKR_SIGNATURE_LEN_RANGE"
        case UInt(CKR_TEMPLATE_INCOMPLETE): return "CKR_TEMPLATE_INCOMPLETE"
        case UInt(CKR_TEMPLATE_INCONSISTENT): return "CKR_TEMPLATE_INCONSISTENT"
        case UInt(CKR_TOKEN_NOT_PRESENT): return "CKR_TOKEN_NOT_PRESENT"
        case UInt(CKR_TOKEN_NOT_RECOGNIZED): return "CKR_TOKEN_NOT_RECOGNIZED"
        case UInt(CKR_USER_ALREADY_LOGGED_IN): return "CKR_USER_ALREADY_LOGGED_IN"
        case UInt(CKR_USER_NOT_LOGGED_IN): return "CKR_USER_NOT_LOGGED_IN"
        case UInt(CKR_USER_PIN_NOT_INITIALIZED): return "CKR_USER_PIN_NOT_INITIALIZED"
        case UInt(CKR_USER_TYPE_INVALID): return "CKR_USER_TYPE_INVALID"
        case UInt(CKR_USER_ANOTHER_ALREADY_LOGGED_IN): return "CKR_USER_ANOTHER_ALREADY_LOGGED_IN"
        case UInt(CKR_USER_TOO_MANY_TYPES): return "CKR_USER_TOO_MANY_TYPES"
        case UInt(CKR_BUFFER_TOO_SMALL): return "CKR_BUFFER_TOO_SMALL"
        case UInt(CKR_CRYPTOKI_NOT_INITIALIZED): return "CKR_CRYPTOKI_NOT_INITIALIZED"
        case UInt(CKR_CRYPTOKI_ALREADY_INITIALIZED): return "CKR_CRYPTOKI_ALREADY_INITIALIZED"
        case UInt(CKR_CURVE_NOT_SUPPORTED): return "CKR_CURVE_NOT_SUPPORTED"
        case UInt(CKR_DOMAIN_PARAMS_INVALID): return "CKR_DOMAIN_PARAMS_INVALID"
        default: return String(format: "CKR_0x%08lX", code)
        }
    }

    /// A failed `C_Login`, worded for the operator: the wrong PIN and a locked token are the common cases.
    /// `finalTry` is the token saying (`CKF_USER_PIN_FINAL_TRY`) that one more wrong PIN locks it.
    public static func login(_ code: UInt, token: String, finalTry: Bool = false) -> PKCS11Error {
        var error: PKCS11Error
        switch code {
        case UInt(CKR_PIN_INCORRECT):
            error = PKCS11Error("wrong PIN for token '\(token)'" + (finalTry ? ": one more wrong PIN locks it" : ""))
        case UInt(CKR_PIN_LOCKED):
            error = PKCS11Error("token '\(token)' is locked (too many wrong PINs): unlock it with the token's SO PIN")
        case UInt(CKR_PIN_EXPIRED):
            error = PKCS11Error("the PIN of token '\(token)' has expired: set a new one (pkcs11-tool --change-pin)")
        case UInt(CKR_USER_PIN_NOT_INITIALIZED):
            error = PKCS11Error("token '\(token)' has no user PIN yet: set one with the SO PIN (pkcs11-tool --init-pin)")
        case UInt(CKR_PIN_LEN_RANGE), UInt(CKR_PIN_INVALID):
            error = PKCS11Error("the PIN given for token '\(token)' is not one this token accepts (\(name(of: code))): check the pin-source")
        default:
            error = PKCS11Error(operation: "C_Login", CK_RV(code), "token '\(token)'")
        }
        error.operation = "C_Login"
        error.code = code
        return error
    }
}
