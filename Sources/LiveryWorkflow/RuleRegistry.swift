import LiveryCheck
import LiveryDiagnostics
import LiveryInterchange
import LiveryRender

extension RuleSet {
    /// Every rule Livery runs, in the order `livery rules` lists them: the check stage's own, with the rules that use
    /// the render stage's code among their family's, and the findings the render and interchange stages make
    /// outside validation.
    public static let all = RuleSet.check
        .inserting([PlatformNameRule.self, FontFallbackRule.self], after: "branding.palette-only")
        .inserting([LaunchScreenColorRule.self], after: "branding.dark-coverage")
        .inserting([AppIconMissingRule.self, AppIconSizeRule.self, AppIconOpaqueRule.self, AppIconSafeZoneRule.self, AppIconDecodeRule.self],
                   after: "assets.svg-safety")
        .adding(toolFindings:
            PlatformRule.renderingOnly.map { RuleSummary(id: $0.id.rawValue, name: "Template syntax", rationale: $0.rationale, severity: .error, family: $0.id.family) }
            + InterchangeRule.all.map { RuleSummary(id: $0.id.rawValue, name: $0.id.rawValue, rationale: $0.rationale, severity: .error, family: $0.id.family) })
}
