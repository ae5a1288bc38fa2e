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
        var parsedTokens: [String: TenantTokenFiles] = [:]
        var parsedLocales: [String: [String: LocaleBundle]] = [:]
        // Tenants whose resolver document did not resolve, with the first finding that says why.
        var brokenResolvers: [String: UnloadedManifest] = [:]
        for source in sources {
            var reader = BrandingReader(source)
            reader.read()
            diagnostics += reader.diagnostics
            parsedTokens[source.id] = reader.parsed
            if let broken = reader.brokenResolver { brokenResolvers[source.id] = broken }

            var bundles: [String: LocaleBundle] = [:]
            for bundle in source.manifests(.locale).compactMap(\.localeBundle) { bundles[bundle.locale] = bundle }
            parsedLocales[source.id] = bundles
        }

        var resolved: [ResolvedTenant] = []
        for source in sources {
            let ancestors = (graph.ancestors[source.id] ?? []).compactMap { byID[$0] }
            let lineage = ancestors + [source]
            let (tenant, voice) = mergedManifests(lineage, of: source)
            let locales = mergedLocales(lineage, of: source, tenant: tenant, parsed: parsedLocales)
            let parsed = lineage.map { parsedTokens[$0.id] ?? TenantTokenFiles() }
            var groupExtensions: [String: Node] = [:]
            for member in parsed { groupExtensions.merge(member.extensions) { _, new in new } }
            if parsed.contains(where: { !$0.combinations.isEmpty }) {
                let (tokens, found) = resolveCombinations(parsed)
                diagnostics += found
                resolved.append(ResolvedTenant(source: source, ancestors: ancestors, tenant: tenant, voice: voice,
                                               locales: locales, tokens: tokens, tokenGroupExtensions: groupExtensions))
                continue
            }
            let (tokens, found) = resolveModes(parsed)
            diagnostics += found
            resolved.append(ResolvedTenant(source: source, ancestors: ancestors, tenant: tenant, voice: voice,
                                           locales: locales, tokens: tokens, tokenGroupExtensions: groupExtensions,
                                           unloadedResolvers: brokenResolvers.filter { id, _ in lineage.contains { $0.id == id } }))
        }
        return (resolved, diagnostics.normalized())
    }

    /// The tenant and voice manifests down the lineage, each member's values over its ancestors' (the tenant's own
    /// identity keys are not inherited).
    private static func mergedManifests(_ lineage: [TenantSource], of source: TenantSource) -> (tenant: Node?, voice: Node?) {
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
        return (tenant, voice)
    }

    /// The locale bundles down the lineage, each member's keys over its ancestors', limited to the supported locales
    /// (and the tenant's own bundles).
    private static func mergedLocales(_ lineage: [TenantSource], of source: TenantSource, tenant: Node?,
                                      parsed parsedLocales: [String: [String: LocaleBundle]]) -> [String: LocaleBundle] {
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
        return locales
    }

    /// Token layers from the lineage's token files (`parsed`, in lineage order): every ancestor's base files, then the
    /// tenant's; each mode adds its files on top.
    private static func resolveModes(_ parsed: [TenantTokenFiles]) -> ([String: ResolvedTokens], [Diagnostic]) {
        let baseLayers = parsed.map(\.base)
        var modeNames = Set<String>()
        for member in parsed { modeNames.formUnion(member.modes.keys) }
        let extends = parsed.flatMap(\.extends)
        let groupTypes = mergedGroupTypes(parsed)
        var diagnostics: [Diagnostic] = []
        var tokens: [String: ResolvedTokens] = [:]
        let (defaultTokens, defaultDiagnostics) = TokenResolver.resolve(baseLayers, extends: extends, groupTypes: groupTypes)
        diagnostics += defaultDiagnostics
        tokens["default"] = defaultTokens
        for mode in modeNames.sorted() {
            let modeLayers = parsed.map { $0.modes[mode] ?? [] }
            let (modeTokens, modeDiagnostics) = TokenResolver.resolve(baseLayers + modeLayers, extends: extends, groupTypes: groupTypes)
            // Findings in base files are already reported for the default mode.
            diagnostics += modeDiagnostics
            tokens[mode] = modeTokens
        }
        return (tokens, diagnostics)
    }

    /// With a resolver document in the lineage, each member gives, in lineage order, its layers for the mode (its
    /// combination of that name, else its default one; or its base files and that mode's files).
    private static func resolveCombinations(_ parsed: [TenantTokenFiles]) -> ([String: ResolvedTokens], [Diagnostic]) {
        var modeNames = Set<String>()
        for member in parsed { modeNames.formUnion(member.modes.keys) }
        for member in parsed { modeNames.formUnion(member.combinations.keys.filter { $0 != "default" }) }
        let extends = parsed.flatMap(\.extends)
        let groupTypes = mergedGroupTypes(parsed)
        var diagnostics: [Diagnostic] = []
        var tokens: [String: ResolvedTokens] = [:]
        for mode in ["default"] + modeNames.sorted() {
            let layers = parsed.map { member -> [DesignToken] in
                if !member.combinations.isEmpty { return member.combinations[mode] ?? member.combinations["default"] ?? [] }
                return member.base + (mode == "default" ? [] : member.modes[mode] ?? [])
            }
            let (resolvedMode, found) = TokenResolver.resolve(layers, extends: extends, groupTypes: groupTypes)
            diagnostics += found
            tokens[mode] = resolvedMode
        }
        return (tokens, diagnostics)
    }

    private static func mergedGroupTypes(_ parsed: [TenantTokenFiles]) -> [String: String] {
        var groupTypes: [String: String] = [:]
        for member in parsed { groupTypes.merge(member.groupTypes) { _, new in new } }
        return groupTypes
    }
}

/// What one tenant's own branding declares, before `extends` and references are applied.
private struct TenantTokenFiles {
    var base: [DesignToken] = []
    var modes: [String: [DesignToken]] = [:]
    var extensions: [String: Node] = [:]
    var extends: [GroupExtension] = []
    var groupTypes: [String: String] = [:]
    /// Layers by combination name, when the tenant composes its tokens with a resolver document.
    var combinations: [String: [DesignToken]] = [:]
}

/// Reads one tenant's branding: its token files and modes, or the combinations of its resolver document.
private struct BrandingReader {
    let source: TenantSource
    let branding: Node?
    let tokenManifests: [String: Manifest]
    private(set) var parsed = TenantTokenFiles()
    private(set) var diagnostics: [Diagnostic] = []
    /// The resolver document, when it did not resolve, with the first finding that says why.
    private(set) var brokenResolver: UnloadedManifest?

    init(_ source: TenantSource) {
        self.source = source
        branding = source.tenant?.node["branding"]
        tokenManifests = Dictionary(source.manifests(.branding).map { ($0.relativePath, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// The paths a list of files names, relative to the tenant folder; a path leaving it is left out.
    func files(_ node: Node?) -> [String] {
        let directory = source.tenant?.directory ?? ""
        return (node?.items ?? []).compactMap { $0.string }.compactMap {
            if case .success(let relative) = TenantPath.normalize($0, baseDirectory: directory) { return relative }
            return nil
        }
    }

    mutating func parse(_ relative: String) -> [DesignToken] {
        guard let manifest = tokenManifests[relative] else { return [] }
        let file = TokenParser.parseFile(manifest.node)
        diagnostics += file.diagnostics
        parsed.extensions.merge(file.groupExtensions) { _, new in new }
        parsed.extends += file.groupExtends
        parsed.groupTypes.merge(file.groupTypes) { _, new in new }
        return file.tokens
    }

    mutating func read() {
        for file in files(branding?["tokens"]) {
            let tokens = parse(file)
            parsed.base += tokens
        }
        for mode in branding?["modes"]?.entries ?? [] {
            let tokens = files(mode.value).flatMap { parse($0) }
            parsed.modes[mode.key, default: []] += tokens
        }
        let resolverFindings = diagnostics.count
        if let resolverNode = branding?["resolver"] {
            if branding?["tokens"] != nil || branding?["modes"] != nil {
                diagnostics.append(Diagnostic(.error, ResolverMessage.resolverAndTokens(), at: resolverNode.location, rule: ResolveRule.resolver))
            }
            if let path = files(Node(.sequence([resolverNode]), at: resolverNode.location)).first, let manifest = tokenManifests[path] {
                readResolver(manifest, at: path)
            } else if let path = branding?["resolver"]?.string {
                diagnostics.append(Diagnostic(.error, ResolverMessage.resolverNotFound(path: path), at: resolverNode.location, rule: ResolveRule.resolver))
            }
        } else if branding != nil && branding?["tokens"] == nil {
            diagnostics.append(Diagnostic(.error, ResolverMessage.noTokens(), at: branding!.location, rule: ResolveRule.resolver))
        }
        if let failure = diagnostics[resolverFindings...].first(where: { $0.ruleID == ResolveRule.resolver && ResolverMessage.leavesNoTokens($0.messageID) }) {
            brokenResolver = UnloadedManifest(kind: .branding, displayPath: failure.location.file, reason: failure)
        }
    }

    /// The layers of each combination of the resolver document at `path`.
    mutating func readResolver(_ manifest: Manifest, at path: String) {
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
                        missingTokenFile(file, at: location, resolver: path, folder: folder)
                        parsedFiles[file] = []
                        continue
                    }
                    parsedFiles[file] = parse(file)
                    layer += parsedFiles[file]!
                case .inline(let node):
                    let file = TokenParser.parseFile(node)
                    if combination.name == "default" { diagnostics += file.diagnostics }
                    parsed.extends += file.groupExtends
                    parsed.groupTypes.merge(file.groupTypes) { _, new in new }
                    layer += file.tokens
                }
            }
            parsed.combinations[combination.name] = layer
        }
    }

    /// A resolver document's reference to a file that is not a loaded token file, with a hint at the closest JSON file
    /// of the document's folder, written as the document writes its references (relative to that folder); only the
    /// files it references were loaded.
    mutating func missingTokenFile(_ file: String, at location: SourceLocation, resolver path: String, folder: String) {
        let written = folder.isEmpty ? file : file.hasPrefix(folder + "/") ? String(file.dropFirst(folder.count + 1)) : file
        let tenantFolder = source.paths.realRoot
        let listed = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? tenantFolder : tenantFolder + "/" + folder)) ?? []
        let hint = DidYouMean.hint(for: written, among: listed.filter { $0.hasSuffix(".json") && $0 != (path as NSString).lastPathComponent })
        diagnostics.append(Diagnostic(.error, ResolverMessage.notATokenFile(path: file), at: location, rule: ResolveRule.resolver, hint: hint))
    }
}
