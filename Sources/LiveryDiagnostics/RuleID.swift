/// A rule's id: its family and its name, dot-joined (`structure.syntax`, `references.library`).
///
/// Typed rather than a bare `String`, so a finding can only be given a rule id, never a message or a
/// path by mistake, and every id a finding carries can be checked against the registered rules
/// (`RuleSet`). Written as a literal where a rule declares itself.
public struct RuleID: RawRepresentable, Hashable, Sendable, Comparable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }

    /// The family: what comes before the dot (`structure` of `structure.syntax`).
    public var family: String { String(rawValue.prefix { $0 != "." }) }

    public var description: String { rawValue }

    public static func < (lhs: RuleID, rhs: RuleID) -> Bool { lhs.rawValue < rhs.rawValue }
}
