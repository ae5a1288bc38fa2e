import CPKCS11
import Crypto
import Foundation
import LiveryReleaseFormat

/// The public half of a key in a PKCS#11 token, read from its public key object (`CKA_KEY_TYPE`,
/// `CKA_EC_PARAMS`, `CKA_EC_POINT`): the two kinds TUF signs with.
enum PKCS11PublicKey {
    case ed25519(Curve25519.Signing.PublicKey)
    case p256(P256.Signing.PublicKey)

    var tufKey: TUFKey {
        switch self {
        case .ed25519(let key): return TUFKey(key)
        case .p256(let key): return TUFKey(key)
        }
    }

    var keyType: CK_KEY_TYPE {
        switch self {
        case .ed25519: return CK_KEY_TYPE(CKK_EC_EDWARDS)
        case .p256: return CK_KEY_TYPE(CKK_EC)
        }
    }

    // DER of the curve parameters (CKA_EC_PARAMS): an OID, or for Edwards curves also the PrintableString
    // name that PKCS#11 3.0 allows and SoftHSM and opensc write.
    static let ed25519OID: [UInt8] = [0x06, 0x03, 0x2B, 0x65, 0x70] // 1.3.101.112
    static let ed25519Name: [UInt8] = [0x13, 0x0C] + Array("edwards25519".utf8)
    static let p256OID: [UInt8] = [0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07] // 1.2.840.10045.3.1.7

    init(session: PKCS11Session, object: CK_OBJECT_HANDLE, named name: String) throws {
        let subject = "key \(name) on token '\(session.token)'"
        guard let keyType = try session.number(CK_ATTRIBUTE_TYPE(CKA_KEY_TYPE), of: object) else { throw PKCS11Error("the public \(subject) has no key type") }
        let params = try session.attribute(CK_ATTRIBUTE_TYPE(CKA_EC_PARAMS), of: object) ?? []
        let point = try session.attribute(CK_ATTRIBUTE_TYPE(CKA_EC_POINT), of: object) ?? []
        try self.init(keyType: keyType, params: params, point: point, subject: subject)
    }

    /// The key from its attributes; `subject` names it in errors.
    init(keyType: CK_KEY_TYPE, params: [UInt8], point: [UInt8], subject: String) throws {
        switch keyType {
        case CK_KEY_TYPE(CKK_EC_EDWARDS):
            guard params == Self.ed25519OID || params == Self.ed25519Name else {
                throw PKCS11Error("\(subject) is an Edwards key on \(Self.curveName(params)), not edwards25519: TUF's Edwards keys are Ed25519")
            }
            // An OCTET STRING holding the 32 bytes, as PKCS#11 specifies; some tokens give the bare 32.
            let raw = point.count == 34 && point[0] == 0x04 && point[1] == 32 ? Array(point[2...]) : point
            guard raw.count == 32, let key = try? Curve25519.Signing.PublicKey(rawRepresentation: raw) else {
                throw PKCS11Error("\(subject) has an Ed25519 point that is not 32 bytes (CKA_EC_POINT \(Data(point).hexString))")
            }
            self = .ed25519(key)
        case CK_KEY_TYPE(CKK_EC):
            guard params == Self.p256OID else {
                throw PKCS11Error("\(subject) is an ECDSA key on \(Self.curveName(params)): Livery signs with ECDSA on P-256 (prime256v1) only")
            }
            // An OCTET STRING holding the 65-byte uncompressed point; some tokens give the bare point.
            let raw = point.count == 67 && point[0] == 0x04 && point[1] == 65 ? Array(point[2...]) : point
            guard raw.count == 65, raw[0] == 0x04, let key = try? P256.Signing.PublicKey(x963Representation: raw) else {
                throw PKCS11Error("\(subject) has a P-256 point that is not an uncompressed point on the curve (CKA_EC_POINT \(Data(point).hexString))")
            }
            self = .p256(key)
        default:
            throw PKCS11Error("\(subject) is a \(Self.name(ofKeyType: keyType)) key: Livery signs with Ed25519 or ECDSA P-256 keys")
        }
    }

    static func name(ofKeyType type: CK_KEY_TYPE?) -> String {
        switch type {
        case CK_KEY_TYPE(CKK_RSA): return "CKK_RSA"
        case CK_KEY_TYPE(CKK_DSA): return "CKK_DSA"
        case CK_KEY_TYPE(CKK_DH): return "CKK_DH"
        case CK_KEY_TYPE(CKK_EC): return "CKK_EC"
        case CK_KEY_TYPE(CKK_EC_EDWARDS): return "CKK_EC_EDWARDS"
        case 0x41: return "CKK_EC_MONTGOMERY" // PKCS#11 3.0; p11-kit 0.24 does not define it
        case CK_KEY_TYPE(CKK_GENERIC_SECRET): return "CKK_GENERIC_SECRET"
        case CK_KEY_TYPE(CKK_AES): return "CKK_AES"
        case let type?: return String(format: "CKK_0x%lX", type)
        case nil: return "(unknown type)"
        }
    }

    /// A readable name for curve parameters: a known curve's name, else the OID, else the bytes in hex.
    static func curveName(_ params: [UInt8]) -> String {
        if params.count > 2, params[0] == 0x13 || params[0] == 0x0C, Int(params[1]) == params.count - 2 {
            return String(decoding: params[2...], as: UTF8.self)
        }
        guard params.count > 2, params[0] == 0x06, Int(params[1]) == params.count - 2, params[1] < 0x80 else {
            return "curve parameters \(Data(params).hexString)"
        }
        let oid = objectIdentifier(Array(params[2...]))
        let names = ["1.2.840.10045.3.1.7": "prime256v1 (P-256)", "1.3.132.0.34": "secp384r1 (P-384)", "1.3.132.0.35": "secp521r1 (P-521)",
                     "1.3.132.0.10": "secp256k1", "1.3.101.112": "edwards25519", "1.3.101.113": "edwards448 (Ed448)"]
        return names[oid] ?? "the curve with OID \(oid)"
    }

    private static func objectIdentifier(_ body: [UInt8]) -> String {
        var arcs: [UInt] = []
        var value: UInt = 0
        for byte in body {
            value = value << 7 | UInt(byte & 0x7F)
            if byte & 0x80 == 0 {
                if arcs.isEmpty {
                    arcs += value < 80 ? [value / 40, value % 40] : [2, value - 80]
                } else {
                    arcs.append(value)
                }
                value = 0
            }
        }
        return arcs.map(String.init).joined(separator: ".")
    }
}
