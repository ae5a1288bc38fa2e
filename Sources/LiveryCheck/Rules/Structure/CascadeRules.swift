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
        default: return nil
        }
    }

    /// `found` without the findings that depend on a kind of manifest that did not load in the tenant
    /// or one of its ancestors (every non-structural finding, when a tenant manifest did not load).
    static func filter(_ found: [Diagnostic], tenant: ResolvedTenant) -> [Diagnostic] {
        // A resolver document that does not parse, or is not there, leaves its tenant without tokens, as a
        // token file that does not load does: its own findings stand, the "not a token" ones that follow go.
        let unloaded = Set(((tenant.ancestors + [tenant.source]).flatMap(\.unloaded) + tenant.unloadedResolvers.values).map(\.kind))
        guard !unloaded.isEmpty else { return found }
        return found.filter { diagnostic in
            guard diagnostic.ruleID != BaseUnloadedRule.description.id, let inputs = inputs(of: diagnostic.ruleID) else { return true }
            return !unloaded.contains(.tenant) && inputs.isDisjoint(with: unloaded)
        }
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
