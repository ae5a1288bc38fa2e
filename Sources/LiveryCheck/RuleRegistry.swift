import LiveryRender
import LiveryInterchange
import LiveryDiagnostics

/// Every rule Livery runs, in the order `livery rules` lists them.
public enum RuleRegistry {
    public static let all: [any Rule.Type] = [
        // structure
        SyntaxRule.self, EncodingRule.self, FileSizeRule.self, LimitsRule.self, DuplicateKeyRule.self,
        TypeRule.self, RequiredKeyRule.self, UnknownKeyRule.self, EnumRule.self, SlugRule.self, FormatRule.self, RangeRule.self,
        IDMatchesPathRule.self, UniqueIDRule.self, DuplicateManifestRule.self, ExtendsUnknownRule.self, ExtendsCycleRule.self, BaseUnloadedRule.self, RuleOverrideRule.self, AppIdentityRule.self,
        // references
        LibraryReferenceRule.self, LessonAvailabilityRule.self, LocaleKeyReferenceRule.self, LocaleBundleRule.self, TourLanguageRule.self, TokenReferenceRule.self,
        // branding
        TokenStructureRule.self, TokenTypeRule.self, TokenPropertyRule.self, TokenValueRule.self, AliasUnknownRule.self, AliasCycleRule.self, AliasTypeRule.self, ResolverRule.self, BrandingModeRule.self,
        ExtensionValueRule.self, ColorHexFallbackRule.self, PaletteOnlyRule.self, PlatformNameRule.self, FontFallbackRule.self, CanonicalScaleRule.self, ContrastRule.self, TouchTargetRule.self,
        TabIdentityRule.self, DarkCoverageRule.self, LaunchScreenColorRule.self,
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
        AppIconMissingRule.self, AppIconSizeRule.self, AppIconOpaqueRule.self, AppIconSafeZoneRule.self, AppIconDecodeRule.self,
        // store
        StoreRequiredTextRule.self, StoreUnknownKeyRule.self, StorePlainTextRule.self, StoreTextLengthRule.self, StoreKeywordsRule.self, StoreURLRule.self,
        StoreLocaleRule.self, StoreLocaleUnmappedRule.self,
    ]

    public static var descriptions: [RuleDescription] { all.map { $0.description } }

    /// Findings that commands other than validation make, about inputs that are not a tenant's
    /// (templates, translation files being imported): they have no examples to run on a tenant, but
    /// their ids are known, listed by `livery rules` and described in SARIF like every rule's.
    public static let toolFindings: [RuleSummary] =
        PlatformRule.renderingOnly.map { RuleSummary(id: $0.id.rawValue, name: "Template syntax", rationale: $0.rationale, severity: .error, family: $0.id.family) }
        + InterchangeRule.all.map { RuleSummary(id: $0.id.rawValue, name: $0.id.rawValue, rationale: $0.rationale, severity: .error, family: $0.id.family) }

    /// Every id a finding can carry: the validation rules' and the tool findings'.
    public static var summaries: [RuleSummary] { descriptions.map(\.summary) + toolFindings }

    /// Whether `id` is a registered rule or tool finding.
    public static func isKnown(_ id: RuleID) -> Bool { known.contains(id) }
    private static let known = Set(summaries.map { RuleID($0.id) })
}
