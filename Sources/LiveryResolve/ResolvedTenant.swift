import Foundation
import LiveryDiagnostics
import LiveryLoad

/// A tenant with `extends` applied: merged manifests, merged locale bundles and resolved tokens per mode.
public struct ResolvedTenant: Sendable {
    public var source: TenantSource
    /// Ancestors from the root down to the parent.
    public var ancestors: [TenantSource]
    /// The tenant manifest with inherited values merged in.
    public var tenant: Node?
    /// The voice manifest with inherited values merged in.
    public var voice: Node?
    /// Locale bundles by locale, inherited keys merged in (the tenant's own messages win).
    public var locales: [String: LocaleBundle]
    /// Resolved tokens by mode; the base mode is "default".
    public var tokens: [String: ResolvedTokens]
    /// Token-group `$extensions` by group path, across the inherited token files.
    public var tokenGroupExtensions: [String: Node]
    /// The resolver documents of the tenant and its ancestors that did not resolve, by tenant id: each
    /// left its tenant without tokens, so this tenant is checked without them, as without a token file
    /// that does not load.
    public var unloadedResolvers: [String: UnloadedManifest] = [:]

    public var id: String { source.id }
    public var defaultLocale: String? { tenant?["locales"]?["default"]?.string }
    public var supportedLocales: [String] { tenant?["locales"]?["supported"]?.items?.compactMap(\.string) ?? [] }
}

/// Applies `extends` and resolves tokens for every tenant of a workspace.
public enum TenantResolver {
    /// `workspace` names every tenant folder of the workspace when `sources` are only some of them (a
    /// lineage group): `extends` may name any of them, and hints suggest among all of them.
    public static func resolve(_ sources: [TenantSource], workspace: Set<String>? = nil) -> (tenants: [ResolvedTenant], diagnostics: [Diagnostic]) {
        let graph = TenantGraph(sources, workspace: workspace)
        var diagnostics = graph.diagnostics
        let byID = Dictionary(sources.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var parsedTokens: [String: (base: [DesignToken], modes: [String: [DesignToken]], extensions: [String: Node], extends: [GroupExtension],
                                    groupTypes: [String: String])] = [:]
        var parsedLocales: [String: [String: LocaleBundle]] = [:]
        // Tenants that compose their tokens with a resolver document: layers per combination.
        var combinations: [String: [String: [DesignToken]]] = [:]
        // Tenants whose resolver document did not resolve, with the first finding that says why.
        var brokenResolvers: [String: UnloadedManifest] = [:]

        for source in sources {
            var base: [DesignToken] = [], modes: [String: [DesignToken]] = [:], extensions: [String: Node] = [:], extends: [GroupExtension] = []
            var groupTypes: [String: String] = [:]
            let branding = source.tenant?.node["branding"]
            let directory = source.tenant?.directory ?? ""
            func files(_ node: Node?) -> [String] {
                (node?.items ?? []).compactMap { $0.string }.compactMap {
                    if case .success(let relative) = TenantPath.normalize($0, baseDirectory: directory) { return relative }
                    return nil
                }
            }
            let tokenManifests = Dictionary(source.manifests(.branding).map { ($0.relativePath, $0) }, uniquingKeysWith: { a, _ in a })
            let tenantFolder = source.paths.realRoot
            func parse(_ relative: String) -> [DesignToken] {
                guard let manifest = tokenManifests[relative] else { return [] }
                let parsed = TokenParser.parseFile(manifest.node)
                diagnostics += parsed.diagnostics
                extensions.merge(parsed.groupExtensions) { _, new in new }
                extends += parsed.groupExtends
                groupTypes.merge(parsed.groupTypes) { _, new in new }
                return parsed.tokens
            }
            for file in files(branding?["tokens"]) { base += parse(file) }
            for mode in branding?["modes"]?.entries ?? [] {
                modes[mode.key, default: []] += files(mode.value).flatMap(parse)
            }
            let resolverFindings = diagnostics.count
            if let resolverNode = branding?["resolver"] {
                if branding?["tokens"] != nil || branding?["modes"] != nil {
                    diagnostics.append(Diagnostic(.error, ResolverMessage.resolverAndTokens(), at: resolverNode.location, rule: ResolveRule.resolver))
                }
                if let path = files(Node(.sequence([resolverNode]), at: resolverNode.location)).first, let manifest = tokenManifests[path] {
                    let folder = path.split(separator: "/").dropLast().joined(separator: "/")
                    let (document, found) = ResolverDocument.parse(manifest.node) { reference in
                        if case .success(let relative) = TenantPath.normalize(reference, baseDirectory: folder) { return relative }
                        return nil
                    }
                    diagnostics += found
                    var parsedFiles: [String: [DesignToken]] = [:]
                    for combination in document?.combinations ?? [] {
                        guard let sources = try? document?.sources(for: combination.inputs) else { continue }
                        var layer: [DesignToken] = []
                        for source in sources {
                            switch source {
                            case .file(let file, let location):
                                if let cached = parsedFiles[file] { layer += cached; continue }
                                guard tokenManifests[file] != nil else {
                                    // The closest JSON file of the document's folder, written as the document writes its
                                    // references (relative to that folder); only the files it references were loaded.
                                    let written = folder.isEmpty ? file : file.hasPrefix(folder + "/") ? String(file.dropFirst(folder.count + 1)) : file
                                    let listed = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? tenantFolder : tenantFolder + "/" + folder)) ?? []
                                    let hint = DidYouMean.hint(for: written, among: listed.filter { $0.hasSuffix(".json") && $0 != (path as NSString).lastPathComponent })
                                    diagnostics.append(Diagnostic(.error, ResolverMessage.notATokenFile(path: file), at: location, rule: ResolveRule.resolver, hint: hint))
                                    parsedFiles[file] = []
                                    continue
                                }
                                parsedFiles[file] = parse(file)
                                layer += parsedFiles[file]!
                            case .inline(let node):
                                let parsed = TokenParser.parseFile(node)
                                if combination.name == "default" { diagnostics += parsed.diagnostics }
                                extends += parsed.groupExtends
                                groupTypes.merge(parsed.groupTypes) { _, new in new }
                                layer += parsed.tokens
                            }
                        }
                        combinations[source.id, default: [:]][combination.name] = layer
                    }
                } else if let path = branding?["resolver"]?.string {
                    diagnostics.append(Diagnostic(.error, ResolverMessage.resolverNotFound(path: path), at: resolverNode.location, rule: ResolveRule.resolver))
                }
            } else if branding != nil && branding?["tokens"] == nil {
                diagnostics.append(Diagnostic(.error, ResolverMessage.noTokens(), at: branding!.location, rule: ResolveRule.resolver))
            }
            if let failure = diagnostics[resolverFindings...].first(where: { $0.ruleID == ResolveRule.resolver && ResolverMessage.leavesNoTokens($0.messageID) }) {
                brokenResolvers[source.id] = UnloadedManifest(kind: .branding, displayPath: failure.location.file, reason: failure)
            }
            parsedTokens[source.id] = (base, modes, extensions, extends, groupTypes)

            var bundles: [String: LocaleBundle] = [:]
            for bundle in source.manifests(.locale).compactMap(\.localeBundle) { bundles[bundle.locale] = bundle }
            parsedLocales[source.id] = bundles
        }

        var resolved: [ResolvedTenant] = []
        for source in sources {
            let ancestors = (graph.ancestors[source.id] ?? []).compactMap { byID[$0] }
            let lineage = ancestors + [source]
            var tenant: Node?, voice: Node?
            for member in lineage {
                if let node = member.tenant?.node {
                    let isSelf = member.id == source.id
                    tenant = tenant.map { ManifestMerge.merge(parent: $0, child: node, skipping: isSelf ? ManifestMerge.identityKeys : []) } ?? node
                }
                if let node = member.manifests(.voice).first?.node {
                    voice = voice.map { ManifestMerge.merge(parent: $0, child: node) } ?? node
                }
            }
            var locales: [String: LocaleBundle] = [:]
            for member in lineage {
                for (locale, bundle) in parsedLocales[member.id] ?? [:] {
                    guard var merged = locales[locale] else { locales[locale] = bundle; continue }
                    let own = bundle.keys
                    merged.messages = merged.messages.filter { !own.contains($0.key) } + bundle.messages
                    // A key the child writes with a value that is not text is the child's (refused) key, not a gap.
                    merged.refused = merged.refused.filter { !own.contains($0.key) }.merging(bundle.refused) { _, child in child }
                    merged.file = bundle.file
                    merged.location = bundle.location
                    locales[locale] = merged
                }
            }
            let supported = Set(tenant?["locales"]?["supported"]?.items?.compactMap(\.string) ?? [])
            if !supported.isEmpty { locales = locales.filter { supported.contains($0.key) || parsedLocales[source.id]?[$0.key] != nil } }

            // Token layers: every ancestor's base files, then the tenant's; each mode adds its files on top.
            let baseLayers = lineage.map { parsedTokens[$0.id]?.base ?? [] }
            var modeNames = Set<String>()
            for member in lineage { modeNames.formUnion(parsedTokens[member.id]?.modes.keys ?? [:].keys) }
            var tokens: [String: ResolvedTokens] = [:]
            let extends = lineage.flatMap { parsedTokens[$0.id]?.extends ?? [] }
            var groupTypes: [String: String] = [:]
            for member in lineage { groupTypes.merge(parsedTokens[member.id]?.groupTypes ?? [:]) { _, new in new } }
            if lineage.contains(where: { combinations[$0.id] != nil }) {
                // With a resolver document in the lineage, each member gives, in lineage order, its
                // layers for the mode (its combination of that name, else its default one; or its
                // base files and that mode's files).
                for member in lineage { modeNames.formUnion((combinations[member.id] ?? [:]).keys.filter { $0 != "default" }) }
                for mode in ["default"] + modeNames.sorted() {
                    let layers = lineage.map { member -> [DesignToken] in
                        if let own = combinations[member.id] { return own[mode] ?? own["default"] ?? [] }
                        let parsed = parsedTokens[member.id]
                        return (parsed?.base ?? []) + (mode == "default" ? [] : parsed?.modes[mode] ?? [])
                    }
                    let (resolvedMode, found) = TokenResolver.resolve(layers, extends: extends, groupTypes: groupTypes)
                    diagnostics += found
                    tokens[mode] = resolvedMode
                }
                var groupExtensions: [String: Node] = [:]
                for member in lineage { groupExtensions.merge(parsedTokens[member.id]?.extensions ?? [:]) { _, new in new } }
                resolved.append(ResolvedTenant(source: source, ancestors: ancestors, tenant: tenant, voice: voice,
                                               locales: locales, tokens: tokens, tokenGroupExtensions: groupExtensions))
                continue
            }
            let (defaultTokens, defaultDiagnostics) = TokenResolver.resolve(baseLayers, extends: extends, groupTypes: groupTypes)
            diagnostics += defaultDiagnostics
            tokens["default"] = defaultTokens
            for mode in modeNames.sorted() {
                let modeLayers = lineage.map { parsedTokens[$0.id]?.modes[mode] ?? [] }
                let (modeTokens, modeDiagnostics) = TokenResolver.resolve(baseLayers + modeLayers, extends: extends, groupTypes: groupTypes)
                // Findings in base files are already reported for the default mode.
                diagnostics += modeDiagnostics
                tokens[mode] = modeTokens
            }
            var groupExtensions: [String: Node] = [:]
            for member in lineage { groupExtensions.merge(parsedTokens[member.id]?.extensions ?? [:]) { _, new in new } }
            resolved.append(ResolvedTenant(source: source, ancestors: ancestors, tenant: tenant, voice: voice,
                                           locales: locales, tokens: tokens, tokenGroupExtensions: groupExtensions,
                                           unloadedResolvers: brokenResolvers.filter { id, _ in lineage.contains { $0.id == id } }))
        }
        return (resolved, diagnostics.normalized())
    }
}
