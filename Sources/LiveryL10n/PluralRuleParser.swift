/// The operands a plural rule can name (UTS #35 Part 3); `c` and `e` are synonyms.
enum PluralOperand: Character, Sendable, CaseIterable {
    case n = "n", i = "i", v = "v", w = "w", f = "f", t = "t", c = "c", e = "e"
}

/// A malformed plural rule: what was wrong and where (a 0-based offset in UTF-8 bytes).
public struct PluralRuleError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var offset: Int
    public var description: String { "\(message) at offset \(offset)" }
}

/// One relation, e.g. `i % 10 = 2..4,9` or `n not within 0..1`.
struct PluralRelation: Sendable, Hashable {
    var operand: PluralOperand
    var modulus: UInt64?
    var negated: Bool
    /// `within` accepts any value between the bounds; `=`, `in` and `is` only integers.
    var within: Bool
    var ranges: [ClosedRange<UInt64>]

    func matches(_ operands: PluralOperands) -> Bool {
        let value = operands.value(of: operand, modulo: modulus)
        return contains(value) != negated
    }

    private func contains(_ value: PluralOperandValue) -> Bool {
        guard let integer = value.integer else { return false }
        if within {
            // integer + fraction lies in a...b: the fraction may only be nonzero below b.
            return ranges.contains { integer >= $0.lowerBound && (integer < $0.upperBound || (integer == $0.upperBound && !value.hasFraction)) }
        }
        return !value.hasFraction && ranges.contains { $0.contains(integer) }
    }
}

/// A plural rule's condition: `or` of `and`s of relations (the only precedence UTS #35 has, with
/// no parentheses). An empty condition is always true (CLDR writes `other` that way).
public struct PluralCondition: Sendable, Hashable {
    let alternatives: [[PluralRelation]]

    /// Parses a condition in the UTS #35 syntax; a trailing `@integer`/`@decimal` sample section
    /// is ignored, since samples illustrate a rule and never change it.
    public init(_ text: String) throws(PluralRuleError) {
        var parser = PluralRuleParser(text)
        alternatives = try parser.parseCondition()
    }

    public func matches(_ operands: PluralOperands) -> Bool {
        alternatives.isEmpty || alternatives.contains { $0.allSatisfy { $0.matches(operands) } }
    }
}

/// A hand-written recursive-descent parser over the rule's bytes (the syntax is ASCII).
struct PluralRuleParser {
    /// Rule constants must stay below this so that digit-by-digit remainders cannot overflow.
    static let maximumConstant: UInt64 = 1_000_000_000_000_000_000 - 1

    private let bytes: [UInt8]
    private var position = 0

    init(_ text: String) {
        // The sample section starts at the first '@' and is not part of the condition.
        let all = Array(text.utf8)
        bytes = Array(all.prefix { $0 != UInt8(ascii: "@") })
    }

    mutating func parseCondition() throws(PluralRuleError) -> [[PluralRelation]] {
        skipSpaces()
        guard position < bytes.count else { return [] }
        var alternatives: [[PluralRelation]] = []
        repeat {
            var conjunction = [try parseRelation()]
            while acceptWord("and") { conjunction.append(try parseRelation()) }
            alternatives.append(conjunction)
        } while acceptWord("or")
        skipSpaces()
        guard position == bytes.count else { throw error("unexpected '\(rest)'") }
        return alternatives
    }

    private mutating func parseRelation() throws(PluralRuleError) -> PluralRelation {
        skipSpaces()
        let start = position
        guard let word = word(), word.count == 1, let operand = PluralOperand(rawValue: Character(word)) else {
            position = start
            throw error("expected an operand (n, i, v, w, f, t, c or e)")
        }
        var modulus: UInt64?
        if accept("%") || acceptWord("mod") {
            let value = try parseNumber()
            guard value > 0 else { throw error("modulus must not be zero") }
            modulus = value
        }
        skipSpaces()
        var negated = false, within = false
        if accept("!=") {
            negated = true
        } else if accept("=") {
            // `=` is `in`.
        } else if acceptWord("is") {
            negated = acceptWord("not")
            let value = try parseNumber()
            return PluralRelation(operand: operand, modulus: modulus, negated: negated, within: false, ranges: [value...value])
        } else {
            negated = acceptWord("not")
            if acceptWord("within") {
                within = true
            } else if !acceptWord("in") {
                throw error(negated ? "expected 'in' or 'within' after 'not'" : "expected '=', '!=', 'is', 'in', 'not' or 'within'")
            }
        }
        return PluralRelation(operand: operand, modulus: modulus, negated: negated, within: within, ranges: try parseRangeList())
    }

    private mutating func parseRangeList() throws(PluralRuleError) -> [ClosedRange<UInt64>] {
        var ranges: [ClosedRange<UInt64>] = []
        repeat {
            let low = try parseNumber()
            if accept("..") {
                let high = try parseNumber()
                guard low <= high else { throw error("range \(low)..\(high) is empty") }
                ranges.append(low...high)
            } else {
                ranges.append(low...low)
            }
        } while accept(",")
        return ranges
    }

    private mutating func parseNumber() throws(PluralRuleError) -> UInt64 {
        skipSpaces()
        let start = position
        var value: UInt64 = 0
        while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") {
            value = value * 10 + UInt64(bytes[position] - UInt8(ascii: "0"))
            position += 1
            guard value <= Self.maximumConstant else {
                position = start
                throw error("number is too large")
            }
        }
        guard position > start else { throw error("expected a number") }
        return value
    }

    // MARK: Tokens

    private mutating func skipSpaces() {
        while position < bytes.count, bytes[position] == UInt8(ascii: " ") || bytes[position] == UInt8(ascii: "\t")
            || bytes[position] == UInt8(ascii: "\n") || bytes[position] == UInt8(ascii: "\r") {
            position += 1
        }
    }

    /// Consumes `symbol` when it comes next (after spaces).
    private mutating func accept(_ symbol: String) -> Bool {
        skipSpaces()
        let symbolBytes = Array(symbol.utf8)
        guard bytes.count - position >= symbolBytes.count, Array(bytes[position..<position + symbolBytes.count]) == symbolBytes else {
            return false
        }
        position += symbolBytes.count
        return true
    }

    /// Consumes the keyword `keyword` when it is the next whole word.
    private mutating func acceptWord(_ keyword: String) -> Bool {
        skipSpaces()
        let start = position
        if word() == keyword { return true }
        position = start
        return false
    }

    private mutating func word() -> String? {
        let start = position
        while position < bytes.count, (bytes[position] | 0x20) >= UInt8(ascii: "a"), (bytes[position] | 0x20) <= UInt8(ascii: "z") {
            position += 1
        }
        return position > start ? String(decoding: bytes[start..<position], as: UTF8.self) : nil
    }

    private var rest: String { String(decoding: bytes[position...], as: UTF8.self).trimmingSuffixSpaces }

    private func error(_ message: String) -> PluralRuleError {
        PluralRuleError(message: message, offset: position)
    }
}

private extension String {
    var trimmingSuffixSpaces: String {
        String(reversed().drop { $0 == " " }.reversed())
    }
}
