/// The plural categories of CLDR, in canonical order (the order `PluralRules.categories` uses).
public enum PluralCategory: String, Sendable, CaseIterable, Hashable, Comparable {
    case zero, one, two, few, many, other

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }

    private var rank: Int {
        switch self {
        case .zero: 0
        case .one: 1
        case .two: 2
        case .few: 3
        case .many: 4
        case .other: 5
        }
    }
}

/// The operands of a number as plural rules see it (UTS #35 Part 3, "Plural Operand Meanings").
///
/// The number is kept as its decimal digits rather than as a `Double`: plural rules depend on
/// visible trailing zeros ("1" is `one` in English, "1.0" is `other`), which a binary float cannot
/// carry, and on exact remainders of numbers of any size. The exponent of a compact form
/// ("1.2c3", "1.2e3") moves the decimal point and is kept as `e`; fraction digits left after the
/// move stay visible, so "1.20050c3" is 1200.50 with `v` = 2 and `e` = 3.
public struct PluralOperands: Sendable, Hashable, CustomStringConvertible {
    /// Digits of the integer part of the absolute value, most significant first, without leading
    /// zeros (empty for zero).
    let integerDigits: [UInt8]
    /// The visible fraction digits, trailing zeros included.
    let fractionDigits: [UInt8]
    /// The compact decimal exponent (`c`, also spelled `e`).
    public let e: Int

    /// An integer; the sign is dropped (rules see the absolute value).
    public init(_ value: Int) {
        integerDigits = Self.digits(of: value.magnitude)
        fractionDigits = []
        e = 0
    }

    /// A decimal as written: `-?digits(.digits)?([ce]digits)?`, e.g. "1.50", "0.010", "1.2c3".
    /// Returns nil for anything else (no grouping separators, no signs on the exponent, and
    /// exponents up to 999 so that a hostile "1e999999999" cannot allocate without bound).
    public init?(_ text: String) {
        var scalars = Substring(text).utf8[...]
        if scalars.first == UInt8(ascii: "-") { scalars = scalars.dropFirst() }
        func digitRun() -> [UInt8] {
            let run = scalars.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            scalars = scalars.dropFirst(run.count)
            return run.map { $0 - UInt8(ascii: "0") }
        }
        let whole = digitRun()
        guard !whole.isEmpty else { return nil }
        var fraction: [UInt8] = []
        if scalars.first == UInt8(ascii: ".") {
            scalars = scalars.dropFirst()
            fraction = digitRun()
            guard !fraction.isEmpty else { return nil }
        }
        var exponent = 0
        if let marker = scalars.first, marker == UInt8(ascii: "c") || marker == UInt8(ascii: "e") {
            scalars = scalars.dropFirst()
            let digits = digitRun()
            guard !digits.isEmpty, digits.count <= 3 else { return nil }
            exponent = digits.reduce(0) { $0 * 10 + Int($1) }
        }
        guard scalars.isEmpty else { return nil }
        // Move the decimal point right by the exponent, padding with zeros past the fraction.
        let moved = min(exponent, fraction.count)
        var integer = whole + fraction[..<moved]
        integer += [UInt8](repeating: 0, count: exponent - moved)
        self.integerDigits = Array(integer.drop { $0 == 0 })
        self.fractionDigits = Array(fraction[moved...])
        self.e = exponent
    }

    /// `c` is a synonym of `e` in UTS #35.
    public var c: Int { e }
    /// The number of visible fraction digits, with trailing zeros.
    public var v: Int { fractionDigits.count }
    /// The number of visible fraction digits, without trailing zeros.
    public var w: Int { trimmedFraction.count }
    /// The integer digits of n (saturating at `UInt64.max`; rules evaluate the exact digits).
    public var i: UInt64 { Self.saturatingValue(integerDigits) }
    /// The visible fraction digits as an integer, with trailing zeros (1.50 → 50).
    public var f: UInt64 { Self.saturatingValue(fractionDigits.drop { $0 == 0 }) }
    /// The visible fraction digits as an integer, without trailing zeros (1.50 → 5).
    public var t: UInt64 { Self.saturatingValue(trimmedFraction.drop { $0 == 0 }) }
    /// The absolute value, approximately; for display only, rules never evaluate it as a float.
    public var n: Double { Double(description.split(separator: "c")[0]) ?? .infinity }

    /// The plain decimal form (with "cN" appended when there is an exponent).
    public var description: String {
        let whole = integerDigits.isEmpty ? "0" : String(integerDigits.map { Character(Unicode.Scalar($0 + 48)) })
        let fraction = fractionDigits.isEmpty ? "" : "." + String(fractionDigits.map { Character(Unicode.Scalar($0 + 48)) })
        return whole + fraction + (e == 0 ? "" : "c\(e)")
    }

    private var trimmedFraction: ArraySlice<UInt8> {
        fractionDigits[...].reversed().drop { $0 == 0 }.reversed()[...]
    }

    private static func digits(of value: UInt) -> [UInt8] {
        guard value > 0 else { return [] }
        return String(value).utf8.map { $0 - UInt8(ascii: "0") }
    }

    private static func saturatingValue(_ digits: some Collection<UInt8>) -> UInt64 {
        var value: UInt64 = 0
        for digit in digits {
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
            if overflow1 || overflow2 { return .max }
            value = sum
        }
        return value
    }
}

/// One operand's value as a relation sees it: an integer (nil when it is larger than any constant
/// a rule can hold) and whether a nonzero fraction follows it (only `n` can have one).
struct PluralOperandValue: Equatable {
    var integer: UInt64?
    var hasFraction: Bool
}

extension PluralOperands {
    /// The exact value of `operand`, reduced modulo `modulus` when given. Remainders are taken
    /// digit by digit, so the integer part may have any length; the fraction of `n` survives the
    /// modulus (21.5 % 10 is 1.5).
    func value(of operand: PluralOperand, modulo modulus: UInt64?) -> PluralOperandValue {
        let digits: [UInt8]
        var hasFraction = false
        switch operand {
        case .n:
            digits = integerDigits
            hasFraction = fractionDigits.contains { $0 != 0 }
        case .i: digits = integerDigits
        case .f: digits = Array(fractionDigits.drop { $0 == 0 })
        case .t: digits = Array(trimmedFraction.drop { $0 == 0 })
        case .v: return Self.small(v, modulus)
        case .w: return Self.small(w, modulus)
        case .c, .e: return Self.small(e, modulus)
        }
        if let modulus {
            // Rule constants are below 10^18, so `remainder * 10 + 9` cannot overflow.
            let remainder = digits.reduce(UInt64(0)) { ($0 * 10 + UInt64($1)) % modulus }
            return PluralOperandValue(integer: remainder, hasFraction: hasFraction)
        }
        let value = Self.saturatingValue(digits)
        return PluralOperandValue(integer: value == .max ? nil : value, hasFraction: hasFraction)
    }

    private static func small(_ value: Int, _ modulus: UInt64?) -> PluralOperandValue {
        let magnitude = UInt64(value)
        return PluralOperandValue(integer: modulus.map { magnitude % $0 } ?? magnitude, hasFraction: false)
    }
}
