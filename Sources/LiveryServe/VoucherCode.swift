import Crypto
import Foundation

/// A voucher code: 20 random Crockford base32 digits (100 bits), shown in five groups of four.
///
/// Crockford's alphabet leaves out I, L, O and U, so a code read aloud or copied by hand survives:
/// input is case-insensitive, O reads as 0, I and L as 1, and dashes and spaces are ignored. Only
/// the SHA-256 of the normalised form is stored; the first group is kept in clear so that
/// `livery vouchers list` can show which code is which (it leaves 80 bits unknown).
public struct VoucherCode: Sendable, Equatable, CustomStringConvertible {
    static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
    public static let digits = 20
    static let groupSize = 4

    /// The 20 digits, upper case, without dashes.
    public let normalised: String

    /// A new random code (`SystemRandomNumberGenerator` reads the kernel's CSPRNG).
    public static func random() -> VoucherCode {
        var generator = SystemRandomNumberGenerator()
        return VoucherCode(normalised: String((0..<digits).map { _ in alphabet[Int(generator.next(upperBound: UInt8(alphabet.count)))] }))
    }

    private init(normalised: String) {
        self.normalised = normalised
    }

    /// Reads a code as a person typed it; nil unless it is exactly 20 Crockford digits.
    public init?(typed: String) {
        guard let digits = Self.normalise(typed), digits.count == Self.digits else { return nil }
        normalised = digits
    }

    /// Upper case, dashes and spaces dropped, look-alike letters mapped; nil on any other character.
    static func normalise(_ typed: String) -> String? {
        var out = ""
        for character in typed.uppercased() {
            switch character {
            case "-", " ": continue
            case "O": out.append("0")
            case "I", "L": out.append("1")
            default:
                guard alphabet.contains(character) else { return nil }
                out.append(character)
            }
            guard out.count <= digits else { return nil }
        }
        return out
    }

    /// Groups of four joined by dashes: `K7QF-9XWM-2HDR-T4PB-6NZC`.
    public var description: String {
        stride(from: 0, to: normalised.count, by: Self.groupSize).map { start in
            let from = normalised.index(normalised.startIndex, offsetBy: start)
            return String(normalised[from..<normalised.index(from, offsetBy: Self.groupSize)])
        }.joined(separator: "-")
    }

    /// The first group, stored in clear to tell codes apart in listings.
    public var prefix: String { String(normalised.prefix(Self.groupSize)) }

    /// What the database keeps instead of the code.
    public var sha256: String { SHA256.hash(data: Data(normalised.utf8)).hexString }

    /// A typed prefix as `list` shows it (`K7QF` or `k7qf-…`), normalised; nil when it is not one.
    public static func prefix(typed: String) -> String? {
        let trimmed = typed.replacingOccurrences(of: "…", with: "")
        guard let digits = normalise(trimmed), digits.count == groupSize else { return nil }
        return digits
    }
}
