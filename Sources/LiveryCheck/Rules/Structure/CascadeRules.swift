import LiveryDiagnostics
import LiveryLoad
import LiveryResolve

/// Findings that only follow from a manifest that did not load are not reported as their own errors:
/// when a base's token file has a syntax error, its creators would otherwise get dozens of "not a
/// token" errors that all go away with one fix in the base.
enum Cascade {
    /// The manifest kinds a rule's findings are worked out from; nil for rules that check each file on
    /// its own (structure and assets), whose findings stand whatever else failed to load.
    static func inputs(of ruleID: RuleID) -> Set<ManifestKind>? {
        switch ruleID {
        case "references.token": return [.branding]
        case "references.library", "references.lesson-availability": return [.library, .program]
        case "references.locale-key", "references.locale-bundle": return [.locale]
        case "references.tour-language": return [.tour]
        // The resolver document's own mistakes are about that file alone.
        case ResolveRule.resolver: return nil
        default: break
        }
        switch ruleID.family {
        case "branding": return [.branding]
        case "localization": return [.locale]
        case "voice": return [.voice, .locale]
        case "content": return [.program, .library, .tour]
        // A listing is worked out from the tenant manifest's app: (names, identifiers) as much as from store.yaml:
        // with a tenant.yaml that does not parse, "the tenant has no app" would be false.
        case "store": return [.store, .tenant]
        default: return nil
        }
    }

    /// `found` without the findings that depend on a kind of manifest that did not load in the tenant
    /// or one of its ancestors (every non-structural finding, when a tenant manifest did not load). When the
    /// manifest is the tenant's own, they are folded into the finding that says why it did not load, as
    /// `related` notes (`RootCause.note`); a base's are summed up by `BaseUnloadedRule`'s note instead.
    static func filter(_ found: [Diagnostic], tenant: ResolvedTenant) -> [Diagnostic] {
        // A resolver document that does not parse, or is not there, leaves its tenant without tokens, as a
        // token file that does not load does: its own findings stand, the "not a token" ones that follow go.
        let unloaded = Set(((tenant.ancestors + [tenant.source]).flatMap(\.unloaded) + tenant.unloadedResolvers.values).map(\.kind))
        guard !unloaded.isEmpty else { return found }
        let follows = { (diagnostic: Diagnostic) -> Bool in
            guard diagnostic.ruleID != BaseUnloadedRule.description.id, let inputs = inputs(of: diagnostic.ruleID) else { return false }
            return unloaded.contains(.tenant) || !inputs.isDisjoint(with: unloaded)
        }
        // The tenant's own first unloaded manifest (the tenant manifest before others) takes the notes.
        let own = tenant.source.unloaded.sorted { ($0.kind == .tenant ? 0 : 1) < ($1.kind == .tenant ? 0 : 1) }.first?.reason
        var kept: [Diagnostic] = []
        var notes: [RelatedLocation] = []
        for diagnostic in found {
            if follows(diagnostic) { notes.append(RootCause.note(for: diagnostic)) } else { kept.append(diagnostic) }
        }
        if let own, !notes.isEmpty, let cause = kept.firstIndex(where: { $0.location == own.location && $0.ruleID == own.ruleID && $0.message == own.message }) {
            kept[cause].related += notes.sorted { $0.location < $1.location }
        }
        return kept
    }
}

struct BaseUnloadedRule: Rule {
    static let description = RuleDescription(
        id: "structure.base-unloaded", name: "Base not loaded", family: .structure,
        rationale: "When a manifest of a tenant's base does not load, the creator is checked without it: one note says so and names the base's error, instead of the many findings that would follow from it.",
        severity: .note,
        messages: [declare(Message.baseUnloaded)],
        triggering: [RuleExample("a base whose voice does not load", files: [
            "example/tenant.yaml": RuleExample.tenant(appending: "extends: ↓platform\n"),
            "platform/tenant.yaml": ExtendsUnknownRule.platform,
            "platform/locales/en.yaml": "nav:\n  home: Home\n",
            "platform/voice.yaml": "emoji: [sparing\n",
        ])],
        nonTriggering: [RuleExample("a base that loads", files: [
            "example/tenant.yaml": RuleExample.tenant(appending: "extends: platform\n"),
            "platform/tenant.yaml": ExtendsUnknownRule.platform,
            "platform/locales/en.yaml": "nav:\n  home: Home\n",
            "platform/voice.yaml": "emoji: sparing\n",
        ])])

    enum Message {
        static func baseUnloaded(file: String, others: String) -> DiagnosticMessage {
            DiagnosticMessage("base-unloaded", "checked without its base's \(file)\(others), which does not load: findings that follow from it are left out until it does")
        }
    }

    func check(_ context: RuleContext) -> [Diagnostic] {
        let unloaded = context.tenant.ancestors.flatMap(\.unloaded) + context.tenant.ancestors.compactMap { context.tenant.unloadedResolvers[$0.id] }
        guard let first = unloaded.first, let manifest = context.source.tenant else { return [] }
        let at = manifest.node["extends"]?.location ?? manifest.node.location
        let others = unloaded.count > 1 ? " and \(unloaded.count - 1) more of its base's files" : ""
        return [Diagnostic(.note, Message.baseUnloaded(file: first.displayPath, others: others),
                           at: at, rule: Self.description.id, hint: "fix the base's error first",
                           related: unloaded.map { RelatedLocation("\($0.reason.message) [\($0.reason.ruleID)]", at: $0.reason.location) })]
    }
}
