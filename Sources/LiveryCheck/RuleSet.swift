import LiveryDiagnostics

/// The rules a validation runs and every id a finding may carry, in the order `livery rules` lists them.
/// The check stage knows only its own rules (`RuleSet.check`); the composition layer adds the rules that use
/// later stages' code, such as the generated platform files and app icons (`RuleSet.all` in LiveryWorkflow).
public struct RuleSet: Sendable {
    public let rules: [any Rule.Type]
    /// Findings that commands other than validation make, about inputs that are not a tenant's
    /// (templates, translation files being imported): they have no examples to run on a tenant, but
    /// their ids are known, listed by `livery rules` and described in SARIF like every rule's.
    public let toolFindings: [RuleSummary]
    private let known: Set<RuleID>

    public init(_ rules: [any Rule.Type], toolFindings: [RuleSummary] = []) {
        self.rules = rules
        self.toolFindings = toolFindings
        known = Set(rules.map { $0.description.id } + toolFindings.map { RuleID($0.id) })
    }

    public var descriptions: [RuleDescription] { rules.map { $0.description } }

    /// Every id a finding can carry: the validation rules' and the tool findings'.
    public var summaries: [RuleSummary] { descriptions.map(\.summary) + toolFindings }

    /// Whether `id` is a rule or tool finding of this set.
    public func isKnown(_ id: RuleID) -> Bool { known.contains(id) }

    /// This set with `added` right after the rule `id`: a family's rules stay together in `livery rules` and
    /// docs/rules.md whichever module declares them.
    public func inserting(_ added: [any Rule.Type], after id: RuleID) -> RuleSet {
        // A misspelt id is a mistake in the registration itself, which every test of the rules runs into.
        guard let index = rules.firstIndex(where: { $0.description.id == id }) else { preconditionFailure("no rule \(id) to insert after") }
        var rules = rules
        rules.insert(contentsOf: added, at: index + 1)
        return RuleSet(rules, toolFindings: toolFindings)
    }

    /// This set with more tool findings after its own.
    public func adding(toolFindings more: [RuleSummary]) -> RuleSet {
        RuleSet(rules, toolFindings: toolFindings + more)
    }

    /// The check stage's own rules, by family.
    public static let check = RuleSet([
        // structure
        SyntaxRule.self, EncodingRule.self, FileSizeRule.self, LimitsRule.self, DuplicateKeyRule.self,
        TypeRule.self, RequiredKeyRule.self, UnknownKeyRule.self, EnumRule.self, SlugRule.self, FormatRule.self, RangeRule.self,
        IDMatchesPathRule.self, UniqueIDRule.self, DuplicateManifestRule.self, ExtendsUnknownRule.self, ExtendsCycleRule.self, BaseUnloadedRule.self, RuleOverrideRule.self, AppIdentityRule.self,
        // references
        LibraryReferenceRule.self, LessonAvailabilityRule.self, LocaleKeyReferenceRule.self, LocaleBundleRule.self, TourLanguageRule.self, TokenReferenceRule.self,
        // branding
        TokenStructureRule.self, TokenTypeRule.self, TokenPropertyRule.self, TokenValueRule.self, AliasUnknownRule.self, AliasCycleRule.self, AliasTypeRule.self, ResolverRule.self, BrandingModeRule.self,
        ExtensionValueRule.self, ColorHexFallbackRule.self, PaletteOnlyRule.self, CanonicalScaleRule.self, ContrastRule.self, TouchTargetRule.self,
        TabIdentityRule.self, DarkCoverageRule.self,
        // localization
        MissingTranslationRule.self, ExtraTranslationRule.self, UnsupportedLocaleFileRule.self, MessageSyntaxRule.self, PlaceholderMismatchRule.self, PluralCategoriesRule.self,
        PluralExtraCategoryRule.self, PluralLocaleRule.self, SelectOtherRule.self, MarkupRule.self, MaxLengthRule.self, WhitespaceRule.self, BidiControlRule.self,
        UntranslatedRule.self, RightToLeftRule.self,
        // voice
        VoiceEmojiRule.self, VoiceExclamationRule.self, VoiceFormalityRule.self, VoiceBannedTermRule.self, VoiceSentenceCaseRule.self,
        VoiceButtonLengthRule.self, VoiceTechnicalErrorTextRule.self, VoiceEmptyStateRule.self,
        // content
        StopOrderRule.self, TriggerRadiusRule.self, ProgramDaysRule.self, AchievementTiersRule.self, LibraryMediaKindRule.self, ProtectedPackItemRule.self, AvailabilityWindowRule.self, RouteRule.self, TileCoverageRule.self,
        // assets
        AssetPathRule.self, SymlinkEscapeRule.self, MissingAssetRule.self, NotRegularFileRule.self, FileTypeRule.self, FieldTypeRule.self, ImageHeaderRule.self, ImagePixelsRule.self, MediaFramesRule.self, MediaStreamableRule.self, ImageBudgetRule.self, SubtitleSyntaxRule.self, SubtitleTimingRule.self, SubtitleReadabilityRule.self, SubtitleMediaLengthRule.self, DeclaredDurationRule.self, BundleBudgetRule.self, XMLWellFormedRule.self, SVGSafetyRule.self,
        // store
        StoreRequiredTextRule.self, StoreUnknownKeyRule.self, StorePlainTextRule.self, StoreTextLengthRule.self, StoreKeywordsRule.self, StoreURLRule.self,
        StoreLocaleRule.self, StoreLocaleUnmappedRule.self,
    ])
}
