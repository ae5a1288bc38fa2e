import LiveryDiagnostics
/// Rule ids of findings made while resolving inheritance and token aliases.
public enum ResolveRule {
    public static let extendsUnknown: RuleID = "structure.extends-unknown"
    public static let extendsCycle: RuleID = "structure.extends-cycle"
    public static let tokenStructure: RuleID = "branding.token-structure"
    public static let tokenType: RuleID = "branding.token-type"
    public static let tokenProperty: RuleID = "branding.token-property"
    public static let aliasUnknown: RuleID = "branding.alias-unknown"
    public static let aliasCycle: RuleID = "branding.alias-cycle"
    public static let aliasType: RuleID = "branding.alias-type"
    public static let tokenValue: RuleID = "branding.token-value"
    public static let resolver: RuleID = "branding.resolver"
}
