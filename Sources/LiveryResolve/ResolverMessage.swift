import LiveryDiagnostics

/// The messages of `branding.resolver`: mistakes in a tenant's DTCG resolver document and in how
/// tenant.yaml names it. Said by `ResolverDocument`'s parser and by `TenantResolver`.
public enum ResolverMessage {
    // The document itself.
    public static func notAnObject() -> DiagnosticMessage {
        DiagnosticMessage("not-an-object", "a resolver document is a JSON object with version and resolutionOrder")
    }
    public static func unknownProperty(key: String) -> DiagnosticMessage {
        DiagnosticMessage("unknown-property", "'\(key)' is not a property of a resolver document")
    }
    public static func wrongVersion(found: String) -> DiagnosticMessage {
        DiagnosticMessage("wrong-version", "version must be \"2025.10\", found \(found)")
    }
    public static func noVersion() -> DiagnosticMessage {
        DiagnosticMessage("no-version", "a resolver document needs \"version\": \"2025.10\"")
    }
    public static func noResolutionOrder() -> DiagnosticMessage {
        DiagnosticMessage("no-resolution-order", "a resolver document needs a non-empty resolutionOrder array")
    }
    public static func referenceNotString() -> DiagnosticMessage {
        DiagnosticMessage("reference-not-string", "$ref must be a string")
    }

    // The resolution order.
    public static func noSet(name: String) -> DiagnosticMessage { DiagnosticMessage("no-set", "there is no set '\(name)'") }
    public static func noModifier(name: String) -> DiagnosticMessage { DiagnosticMessage("no-modifier", "there is no modifier '\(name)'") }
    public static func orderedTwice(name: String) -> DiagnosticMessage {
        DiagnosticMessage("ordered-twice", "'\(name)' is in the resolution order twice")
    }
    public static func orderReference() -> DiagnosticMessage {
        DiagnosticMessage("order-reference", "a resolution order item refers to a set (#/sets/…) or a modifier (#/modifiers/…)")
    }
    public static func inlineItem() -> DiagnosticMessage {
        DiagnosticMessage("inline-item", "an inline resolution order item needs \"name\" and \"type\" (set or modifier), or is a {\"$ref\": …}")
    }
    public static func itemType(type: String) -> DiagnosticMessage {
        DiagnosticMessage("item-type", "type is \"set\" or \"modifier\", found '\(type)'")
    }

    // Modifiers.
    public static func noContexts(modifier: String) -> DiagnosticMessage {
        DiagnosticMessage("no-contexts", "modifier '\(modifier)' needs contexts: an object of context names to token sources")
    }
    public static func oneContext(modifier: String) -> DiagnosticMessage {
        DiagnosticMessage("one-context", "modifier '\(modifier)' needs at least two contexts")
    }
    public static func defaultNotContext(modifier: String, contexts: String) -> DiagnosticMessage {
        DiagnosticMessage("default-not-context", "the default of modifier '\(modifier)' must be one of its contexts (\(contexts))")
    }

    // Sources.
    public static func sourcesNotArray() -> DiagnosticMessage {
        DiagnosticMessage("sources-not-array", "sources is an array of token sources")
    }
    public static func sourceShape() -> DiagnosticMessage {
        DiagnosticMessage("source-shape", "a source is a {\"$ref\": …} or inline tokens")
    }
    public static func sourceNotASet() -> DiagnosticMessage {
        DiagnosticMessage("source-not-a-set", "a set's or context's sources cannot refer to modifiers or to the resolution order")
    }
    public static func setCycle(name: String) -> DiagnosticMessage {
        DiagnosticMessage("set-cycle", "sets refer to each other in a cycle through '\(name)'")
    }
    public static func pointerIntoFile() -> DiagnosticMessage {
        DiagnosticMessage("pointer-into-file", "a source refers to a whole token file; a pointer into a file is not supported")
    }
    public static func outsideTenant(path: String) -> DiagnosticMessage {
        DiagnosticMessage("outside-tenant", "'\(path)' is not a token file inside the tenant folder")
    }
    public static func notATokenFile(path: String) -> DiagnosticMessage {
        DiagnosticMessage("not-a-token-file", "'\(path)' is not a token file of this tenant")
    }

    // How tenant.yaml names the document.
    public static func resolverAndTokens() -> DiagnosticMessage {
        DiagnosticMessage("resolver-and-tokens", "branding has both a resolver and tokens/modes; the resolver document lists every token file")
    }
    public static func resolverNotFound(path: String) -> DiagnosticMessage {
        DiagnosticMessage("resolver-not-found", "the resolver document '\(path)' is not a JSON file in this tenant")
    }
    public static func noTokens() -> DiagnosticMessage {
        DiagnosticMessage("no-tokens", "branding needs tokens (a list of token files) or a resolver document")
    }

    /// Whether a finding with this message leaves the tenant without the tokens of its resolver
    /// document: any mistake the parser finds makes it drop the whole document, and a document that is
    /// not there (or branding with neither tokens nor a resolver) gives none. A missing token file, or
    /// token files given beside the document, leave the rest of the tokens in place.
    static func leavesNoTokens(_ messageID: String?) -> Bool {
        guard let messageID else { return false }
        return !keepsTokens(messageID)
    }

    /// Whether a finding with this message leaves the resolver document's tokens in place: a missing
    /// token file, token files beside the document, and an unknown top-level property (a typo such as
    /// `descripton`, which changes nothing the document means).
    static func keepsTokens(_ messageID: String?) -> Bool {
        messageID.map(keepingTokens.contains) ?? false
    }
    private static let keepingTokens: Set<String> = [notATokenFile(path: "").id, resolverAndTokens().id, unknownProperty(key: "").id]
}
