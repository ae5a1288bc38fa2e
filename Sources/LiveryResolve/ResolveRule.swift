/// Rule ids of findings made while resolving inheritance and token aliases.
public enum ResolveRule {
    public static let extendsUnknown = "structure.extends-unknown"
    public static let extendsCycle = "structure.extends-cycle"
    public static let tokenStructure = "branding.token-structure"
    public static let tokenType = "branding.token-type"
    public static let tokenProperty = "branding.token-property"
    public static let aliasUnknown = "branding.alias-unknown"
    public static let aliasCycle = "branding.alias-cycle"
    public static let aliasType = "branding.alias-type"
    public static let tokenValue = "branding.token-value"
    public static let resolver = "branding.resolver"
}
