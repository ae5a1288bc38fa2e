import Foundation

/// Bytes as hexadecimal text and back: digests, key ids, signatures, secrets. The one encoder and decoder
/// every module uses (the client included), so that "hex" means the same thing everywhere: lowercase
/// when written, either case when read, two digits a byte and nothing else.
public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// `bytes` as lowercase hex, two digits a byte.
    public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes `text` spells, or nil unless it is an even number of hex digits (either case) and nothing
    /// else: no sign, no `0x`, no spaces (`UInt8(_:radix:)` alone would take "+f" for a byte).
    public static func decode(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = value(ofDigit: utf8[index]), let low = value(ofDigit: utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    /// The value of one hex digit (`0`–`9`, `a`–`f`, `A`–`F`), or nil for any other byte. Inlinable: the JSON
    /// parsers call it for each digit of a `\u` escape.
    @inlinable
    public static func value(ofDigit byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

extension Data {
    /// The bytes as lowercase hex (`Hex.encode`).
    public var hexString: String { Hex.encode(self) }

    /// The bytes `hex` spells, or nil unless it is hex digits only, two a byte (`Hex.decode`).
    public init?(hex: String) {
        guard let bytes = Hex.decode(hex) else { return nil }
        self.init(bytes)
    }
}
