import LiveryLoad
import LiveryResolve

/// A tenant that extends another (a creator on her platform) against the base it extends: which
/// tokens the tenant sets itself, what the base had there, and the base's order. The brand sheet
/// shows every token once, in the base's place, marked where it is the tenant's own.
struct TokenLineage {
    /// The tenant's own name, and its base's (the tenant it extends).
    let name: String
    let baseName: String
    /// The base resolved alone, from the sources already loaded: what it is before the tenant's files.
    let base: ResolvedTenant
    /// The tenant's folder as token locations name it.
    let ownRoot: String

    /// Nil for a tenant that extends nothing.
    init?(_ tenant: ResolvedTenant, name: String) {
        guard let parent = tenant.ancestors.last,
              let base = TenantResolver.resolve(tenant.ancestors).tenants.first(where: { $0.id == parent.id }) else { return nil }
        self.name = name
        self.base = base
        baseName = base.tenant?["name"]?.string ?? base.id
        ownRoot = tenant.source.displayRoot
    }

    /// Whether the token at `path` is written in the tenant's own files.
    func isOwn(_ path: String, in tokens: ResolvedTokens) -> Bool {
        tokens.tokens[path].map { $0.location.file.hasPrefix(ownRoot + "/") } ?? false
    }

    /// The first of the tenant's own tokens on `path`'s alias chain: how an inherited token
    /// (`color.brand.primary`) comes to take the tenant's value (`color.palette.primary`).
    func ownTarget(of path: String, in tokens: ResolvedTokens) -> String? {
        var current = path
        var seen: Set<String> = [path]
        while let token = tokens.tokens[current], let next = TokenReference.curly(token.value)?.path, seen.insert(next).inserted {
            if isOwn(next, in: tokens) { return next }
            current = next
        }
        return nil
    }

    /// `paths` in the base's order (as the base's own sheet lists them), then the tenant's additions in theirs.
    func baseOrder(_ paths: [String]) -> [String] {
        let tokens = base.tokens["default"]?.tokens ?? [:]
        let lineage = (base.ancestors + [base.source]).map(\.displayRoot)
        return PlatformValues.sourceOrder(paths.filter { tokens[$0] != nil }, tokens: tokens, lineage: lineage) + paths.filter { tokens[$0] == nil }
    }
}
