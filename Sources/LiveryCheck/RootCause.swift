import LiveryDiagnostics
import LiveryLoad

/// The root cause first: a finding that only follows from another is folded into it, as a `related` note,
/// instead of standing as an error of its own before or after the cause. A latitude above 90 is one
/// `structure.range` error, with the stop "11,119,260 m from the route" and the tile the pack lacks for it as
/// notes under it, not three errors with the cause last.
///
/// A cause is a finding that a value is not what its field allows (`structure.range`, `structure.type`,
/// `structure.enum`): a finding of any other family follows from it when it is about the same value, at the same
/// place or naming that place among its own related places. A few findings are causes of some others' in the
/// same way (`causedBy`): a stop whose latitude and longitude read the other way round is on its route is in the
/// wrong place, and the tile its pack lacks for it follows from that.
public enum RootCause {
    /// The rules whose findings say a value itself is wrong: anything worked out from that value follows from them.
    static let causes: Set<RuleID> = [ShapeRule.range, ShapeRule.type, ShapeRule.choice]
    /// Findings (rule and message id) that other rules' findings about the same place follow from.
    static let causedBy: [String: Set<RuleID>] = ["content.route/stop-swapped": ["content.tile-coverage"]]

    /// `found` with every follow-on finding folded into its cause (the first one, in report order).
    public static func fold(_ found: [Diagnostic]) -> [Diagnostic] {
        var causeAt: [SourceLocation: Int] = [:]
        var narrowCauseAt: [SourceLocation: [(index: Int, follows: Set<RuleID>)]] = [:]
        for (index, diagnostic) in found.enumerated() where diagnostic.severity == .error {
            if causes.contains(diagnostic.ruleID) {
                if causeAt[diagnostic.location] == nil { causeAt[diagnostic.location] = index }
            } else if let follows = causedBy["\(diagnostic.ruleID)/\(diagnostic.messageID ?? "")"] {
                narrowCauseAt[diagnostic.location, default: []].append((index, follows))
            }
        }
        guard !causeAt.isEmpty || !narrowCauseAt.isEmpty else { return found }
        var result = found
        var folded = Set<Int>()
        for (index, diagnostic) in found.enumerated() where diagnostic.ruleID.family != "structure" {
            let places = [diagnostic.location] + diagnostic.related.map(\.location)
            let cause = places.lazy.compactMap { causeAt[$0] }.first
                ?? places.lazy.compactMap { narrowCauseAt[$0]?.first { $0.follows.contains(diagnostic.ruleID) && $0.index != index }?.index }.first
            // A cause that was itself folded keeps its notes with it.
            guard let cause, !folded.contains(cause) else { continue }
            result[cause].related.append(note(for: diagnostic))
            folded.insert(index)
        }
        return result.enumerated().filter { !folded.contains($0.offset) }.map(\.element)
    }

    /// How a folded finding reads under its cause: what it would have said, its rule, and where.
    static func note(for diagnostic: Diagnostic) -> RelatedLocation {
        RelatedLocation("follows from this: \(diagnostic.message) [\(diagnostic.ruleID)]", at: diagnostic.location)
    }
}
