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
        TokenStructureRule.self, TokenTypeRule.self, TokenPropertyRule.self, TokenValueRule.self, AliasUnknownRule.self, AliasCycleRule.self, AliasTypeRule.self, BrandingModeRule.self,
        ExtensionValueRule.self, ColorHexFallbackRule.self, PaletteOnlyRule.self, PlatformNameRule.self, CanonicalScaleRule.self, ContrastRule.self, TouchTargetRule.self,
        TabIdentityRule.self, DarkCoverageRule.self,
        // localization
        MissingTranslationRule.self, ExtraTranslationRule.self, MessageSyntaxRule.self, PlaceholderMismatchRule.self, PluralCategoriesRule.self,
        PluralExtraCategoryRule.self, PluralLocaleRule.self, SelectOtherRule.self, MarkupRule.self, MaxLengthRule.self, WhitespaceRule.self, BidiControlRule.self,
        UntranslatedRule.self, RightToLeftRule.self,
        // voice
        VoiceEmojiRule.self, VoiceExclamationRule.self, VoiceFormalityRule.self, VoiceBannedTermRule.self, VoiceSentenceCaseRule.self,
        VoiceButtonLengthRule.self, VoiceTechnicalErrorTextRule.self, VoiceEmptyStateRule.self,
        // content
        StopOrderRule.self, TriggerRadiusRule.self, ProgramDaysRule.self, AchievementTiersRule.self, LibraryMediaKindRule.self, ProtectedPackItemRule.self, AvailabilityWindowRule.self, RouteRule.self, TileCoverageRule.self,
        // assets
        AssetPathRule.self, SymlinkEscapeRule.self, MissingAssetRule.self, NotRegularFileRule.self, FileTypeRule.self, FieldTypeRule.self, ImageHeaderRule.self, ImagePixelsRule.self, MediaFramesRule.self, MediaStreamableRule.self, ImageBudgetRule.self, SubtitleSyntaxRule.self, SubtitleTimingRule.self, SubtitleReadabilityRule.self, SubtitleMediaLengthRule.self, DeclaredDurationRule.self, BundleBudgetRule.self, XMLWellFormedRule.self, SVGSafetyRule.self,
    ]

    public static var descriptions: [RuleDescription] { all.map { $0.description } }
    public static var summaries: [RuleSummary] { descriptions.map(\.summary) }
}
