import LiveryDiagnostics
import LiveryLoad
import LiveryMedia
import LiveryResolve

/// A validation rule: a stable id, a rationale, a default severity, and examples that are also its tests.
public protocol Rule: Sendable {
    static var description: RuleDescription { get }
    init()
    /// The findings of this rule for one tenant.
    func check(_ context: RuleContext) -> [Diagnostic]
}

/// The families of docs/rules.md.
public enum RuleFamily: String, Sendable, CaseIterable {
    case structure, references, branding, localization, voice, content, assets, store
}

/// Everything a rule documents about itself (the SwiftLint model).
public struct RuleDescription: Sendable {
    public var id: RuleID
    public var name: String
    public var family: RuleFamily
    public var rationale: String
    public var severity: Severity
    /// A security rule protects the platform (paths, symlinks, hostile input); tenants cannot turn it off.
    public var isSecurity: Bool
    /// Every message the rule can say, each with an id unique within the rule and a template
    /// (`declare(Message.constructor)`); a finding says one of them, built by the rule's typed constructor.
    public var messages: [MessageTemplate]
    /// Inputs on which the rule must report (at the `↓` marker, when there is one).
    public var triggering: [RuleExample] { makeTriggering() }
    /// Inputs on which the rule must stay silent.
    public var nonTriggering: [RuleExample] { makeNonTriggering() }
    // The examples are made when asked for (by tests, `livery rules` and the docs), not when a run first
    // reads the rule's id and severity: some are large by design (a 9 MiB manifest, half a million JSON
    // values), and every `livery validate` used to build them all and keep them (10 MB of RSS).
    private let makeTriggering: @Sendable () -> [RuleExample]
    private let makeNonTriggering: @Sendable () -> [RuleExample]

    public init(id: RuleID, name: String, family: RuleFamily, rationale: String, severity: Severity = .error, isSecurity: Bool = false,
                messages: [MessageTemplate] = [], triggering: @autoclosure @escaping @Sendable () -> [RuleExample],
                nonTriggering: @autoclosure @escaping @Sendable () -> [RuleExample]) {
        self.id = id
        self.name = name
        self.family = family
        self.rationale = rationale
        self.severity = severity
        self.isSecurity = isSecurity
        self.messages = messages
        makeTriggering = triggering
        makeNonTriggering = nonTriggering
    }

    public var summary: RuleSummary {
        RuleSummary(id: id.rawValue, name: name, rationale: rationale, severity: severity, family: family.rawValue, messages: messages)
    }
}

/// What one rule sees: the tenant being checked, every tenant of the workspace, and what loading and resolving found.
public struct RuleContext: Sendable {
    public var tenant: ResolvedTenant
    public var workspace: [String: ResolvedTenant]
    /// Findings of the loader and resolver for this tenant, by rule id.
    public var collected: [RuleID: [Diagnostic]]
    /// `displayRoot/` of the tenant: a file whose path starts with it is the tenant's own.
    let ownPrefix: String
    /// What several rules work out for this tenant, worked out once (see `RuleContextCache`).
    let cache = RuleContextCache()
    /// What the media probes measured (shared by every tenant of the run).
    public let media: MediaMeasurements

    public init(tenant: ResolvedTenant, workspace: [String: ResolvedTenant], collected: [RuleID: [Diagnostic]], media: MediaMeasurements = MediaMeasurements()) {
        self.tenant = tenant
        self.workspace = workspace
        self.collected = collected
        self.media = media
        ownPrefix = tenant.source.displayRoot + "/"
    }

    public var source: TenantSource { tenant.source }
}

/// Values several rules need for one tenant, computed by the first rule that asks. The rules of one
/// tenant run one after another on one thread (`RuleEngine.run`), so no lock is needed.
final class RuleContextCache: @unchecked Sendable {
    var translationPairing: TranslationPairing??
    var translationDifferences: TranslationDifferences?
    var subtitleDocuments: [SubtitleFile]?
    /// Each tour's route by the tour manifest's path (`.some(nil)`: the tour has no readable route).
    var tourRoutes: [String: TourRoute?] = [:]
    /// Findings several rules make together, by the key they share (`RuleContext.sharedFindings`).
    var shared: [String: [Diagnostic]] = [:]
}

extension RuleContext {
    /// The findings `make` gives for this tenant, made once for every rule that asks with the same `key`: the app icon
    /// rules decode the images once and each keeps its own findings.
    package func sharedFindings(_ key: String, _ make: () -> [Diagnostic]) -> [Diagnostic] {
        if let made = cache.shared[key] { return made }
        let made = make()
        cache.shared[key] = made
        return made
    }
}

/// A rule whose findings the loader or resolver makes while reading (syntax, shapes, aliases…);
/// the rule type describes and tests them like any other rule.
public protocol CollectedRule: Rule {}

extension CollectedRule {
    public func check(_ context: RuleContext) -> [Diagnostic] {
        context.collected[Self.description.id] ?? []
    }
}
