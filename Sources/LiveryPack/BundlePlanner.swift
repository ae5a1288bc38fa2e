import Foundation
import LiveryReleaseFormat
import LiveryAssets
import LiveryDiagnostics
import LiveryLoad
import LiveryMedia
import LiveryRender
import LiveryResolve
import LiveryStorage

/// Splits a resolved tenant into bundles by how clients load them (docs/bundles.md):
///
/// - `core` (essential): `tenant.json` with `extends` applied, `tokens/<mode>.json` for every mode,
///   the resolved DTCG document of every mode (`tokens/<mode>.tokens.json`), the generated platform
///   files (`platform/swiftui/Theme.swift`, … from `Templates/platform/`, docs/platform-files.md),
///   `voice.json`, the small JSON documents of every program, tour and the library (so an app can
///   list them offline), and the tenant's logos, avatar, hero images and fonts;
/// - `locale.<locale>`: `locales/<locale>.json` and the generated `platform/ios/<locale>/Localizable.xcstrings` and
///   `platform/android/values…/strings.xml`, essential for the default locale, prefetched otherwise;
/// - `program.<id>`: the program and its cover, depending on the library bundles its lessons use;
/// - `library.<pack>` (or `library-item.<id>` for items in no pack): the items' media and subtitles,
///   from the tenant's library and its ancestors' (one merged catalog in core);
/// - `tour.<id>`: the tour, its images, route and tiles; `tour.<id>.<language>`: audio and subtitles.
///
/// Drafts (`status: draft`) are never packed; the availability windows of programs, tours and library
/// items go into the download manifest with their bundles (docs/schedules.md).
///
/// Bundle ids join a kind and slugs with dots, which slugs cannot contain, so no two bundles collide.
///
/// Files keep their path inside the tenant folder, so a JSON document's relative asset paths resolve
/// inside the bundle exactly as they did in the folder.
public enum BundlePlanner {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// `media` measures audio and video for the bundles' playing times (`BundleSpec.media`). `templates`
    /// are the workspace's platform templates when the caller has loaded them (a build loads them once
    /// for all its tenants); nil finds and loads them for this tenant. `memo` is shared by the tenants of
    /// one build: a locale bundle's generated files are made once for all tenants with the same strings.
    public static func plan(_ tenant: ResolvedTenant, store: ContentStore, media: MediaMeasurements = MediaMeasurements(),
                            templates: PlatformTemplates? = nil, memo: GeneratedFileMemo? = nil) throws -> [BundleSpec] {
        var planner = Planner(tenant: tenant, store: store, media: media, templates: templates, memo: memo)
        return try planner.run()
    }

    /// The platform templates a tenant's workspace uses: `Templates/platform/` beside the workspace, or
    /// where `PlatformTemplates.locate` finds them.
    public static func templates(workspace: URL) throws -> PlatformTemplates {
        guard let folder = PlatformTemplates.locate(workspace: workspace) else {
            throw Failure(description: "no Templates/platform/ folder beside \(workspace.path) or in the current folder (set LIVERY_TEMPLATES)")
        }
        do {
            return try PlatformTemplates.load(from: folder.appendingPathComponent("platform"), displayPath: folder.path + "/platform")
        } catch let failure as PlatformFiles.Failure {
            throw Failure(description: failure.description)
        }
    }

    private struct Planner {
        let tenant: ResolvedTenant
        let store: ContentStore
        let media: MediaMeasurements
        let templates: PlatformTemplates?
        let memo: GeneratedFileMemo?
        var sniffed: [SHA256Hex: Bool] = [:]

        init(tenant: ResolvedTenant, store: ContentStore, media: MediaMeasurements, templates: PlatformTemplates?, memo: GeneratedFileMemo?) {
            self.tenant = tenant
            self.store = store
            self.media = media
            self.templates = templates
            self.memo = memo
        }

        /// The measured playing time of the audio or video file a located path names, in milliseconds.
        func milliseconds(_ node: Node?, in source: TenantSource, manifestDirectory: String) -> Int? {
            guard let path = node?.string, let type = FileType(extensionOf: path), FileType.media.contains(type),
                  case .success(let relative) = TenantPath.normalize(path, baseDirectory: manifestDirectory),
                  case .success(let url) = source.paths.regularFile(relative),
                  case .success(let facts)? = media.measure(url, as: type) else { return nil }
            return facts.milliseconds
        }

        /// The tenant (itself or an ancestor) whose folder a located value was written in.
        func owner(of node: Node) -> TenantSource {
            (tenant.ancestors + [tenant.source]).last { node.location.file.hasPrefix($0.displayRoot + "/") } ?? tenant.source
        }

        /// The bundle entry for an asset path written in `manifestDirectory` of `source`.
        mutating func asset(_ node: Node, in source: TenantSource, manifestDirectory: String) throws -> BundleEntry? {
            guard let path = node.string else { return nil }
            guard case .success(let relative) = TenantPath.normalize(path, baseDirectory: manifestDirectory),
                  case .success(let url) = source.paths.regularFile(relative) else {
                throw Failure(description: "\(node.location): asset '\(path)' cannot be resolved (run `livery validate`)")
            }
            let stored = try store.ingest(url)
            let compress: Bool
            if let known = sniffed[stored.sha256] { compress = known } else {
                compress = !(FileSniffer.sniff(fileAt: stored.url)?.isCompressed ?? false)
                sniffed[stored.sha256] = compress
            }
            return BundleEntry(path: relative, file: stored, compress: compress)
        }

        mutating func assets(_ nodes: [Node?], in source: TenantSource, manifestDirectory: String) throws -> [BundleEntry] {
            try nodes.compactMap { $0 }.flatMap { node -> [BundleEntry] in
                if let items = node.items { return try items.compactMap { try asset($0, in: source, manifestDirectory: manifestDirectory) } }
                if let entries = node.entries { return try entries.compactMap { try asset($0.value, in: source, manifestDirectory: manifestDirectory) } }
                return try asset(node, in: source, manifestDirectory: manifestDirectory).map { [$0] } ?? []
            }
        }

        static func json(_ path: String, _ value: JSONValue) -> BundleEntry { BundleEntry(path: path, data: value.bytes) }

        /// The resolved DTCG documents and the platform files rendered from the templates found for
        /// the tenant's workspace. A tenant whose tokens cannot be named on every platform, or a
        /// template that does not parse, fails the build rather than shipping a partial theme.
        static func platformFiles(_ tenant: ResolvedTenant, templates: PlatformTemplates?) throws -> [BundleEntry] {
            let templates = try templates ?? BundlePlanner.templates(workspace: tenant.source.root.standardizedFileURL.deletingLastPathComponent())
            let (files, diagnostics) = PlatformFiles.generate(tenant, templates: templates)
            let errors = diagnostics.filter { $0.severity == .error }
            guard errors.isEmpty else {
                throw Failure(description: "platform files of '\(tenant.id)': " + errors.map(\.line).joined(separator: "\n"))
            }
            // The Xcode colour assets are for app build pipelines (`livery generate`): an app cannot
            // load an asset catalog it downloads, and some sixty small files a tenant would add about
            // 160 KB to every device's essential install (DiskSpaceTests measures it). They wait for a
            // bundle that only build pipelines fetch (issue 15, item 9). The build settings (xcconfig,
            // InfoPlist.strings, Gradle properties, app_name.xml) are read by builds, never by a
            // running app, and stay out for the same reason.
            // Store listings (fastlane metadata) are for release pipelines too.
            return files.filter { !$0.path.hasPrefix(ColorAssets.catalog + "/") && !BuildSettings.isBuildSetting($0.path) && !StoreListings.isStoreListing($0.path) }.map { file in
                BundleEntry(path: file.path.hasPrefix("tokens/") ? file.path : "platform/" + file.path, data: file.contents)
            }
        }

        static func jsonPath(_ manifest: Manifest) -> String {
            (manifest.relativePath as NSString).deletingPathExtension + ".json"
        }

        mutating func run() throws -> [BundleSpec] {
            var core = try coreDocuments()
            let (libraryBundles, itemBundle) = try library(core: &core)
            var bundles = libraryBundles
            bundles += try programs(itemBundle: itemBundle, core: &core)
            bundles += try tours(core: &core)
            bundles += try locales()
            bundles.append(BundleSpec(id: "core", kind: .core, policy: .essential, entries: core))
            try Self.checkPaths(bundles)
            return bundles.sorted { $0.id < $1.id }
        }

        /// Tenant configuration with `extends` applied, and its imagery (from whichever tenant wrote it); the tokens of
        /// every mode, the platform files and the voice.
        mutating func coreDocuments() throws -> [BundleEntry] {
            var core: [BundleEntry] = []
            if let merged = tenant.tenant {
                core.append(Self.json("tenant.json", JSONValue(merged)))
                let assetsNode = merged["assets"]
                for entry in assetsNode?.entries ?? [] {
                    core += try assets([entry.value], in: owner(of: entry.value), manifestDirectory: "")
                }
            }
            for (mode, tokens) in tenant.tokens {
                var object: [String: JSONValue] = [:]
                for (path, value) in tokens.values {
                    var token: [String: JSONValue] = ["$value": JSONValue(value)]
                    if let type = tokens.types[path] { token["$type"] = .string(type) }
                    if let ext = tokens.tokens[path]?.extensions { token["$extensions"] = JSONValue(ext) }
                    object[path] = .object(token)
                }
                core.append(Self.json("tokens/\(mode).json", .object(object)))
            }
            core += try Self.platformFiles(tenant, templates: templates)
            if let voice = tenant.voice { core.append(Self.json("voice.json", JSONValue(voice))) }
            return core
        }

        /// Library: the tenant's own and its ancestors' (program lessons may use both), merged into
        /// one catalog where a nearer tenant's item, category or pack replaces one with the same id.
        /// Where each item lives is data in library.json (`bundle`), not a naming rule.
        /// Returns the media bundles and each shipped item's bundle; the catalog goes into `core`.
        mutating func library(core: inout [BundleEntry]) throws -> (bundles: [BundleSpec], itemBundle: [String: String]) {
            var bundles: [BundleSpec] = []
            var itemBundle: [String: String] = [:]
            let library = MergedLibrary(tenant, includingDrafts: false)
            let items = Dictionary(library.items.map { ($0.id, (node: $0.node, owner: $0.owner, directory: $0.directory)) }, uniquingKeysWith: { a, _ in a })
            let itemOrder = library.items.map(\.id)
            let categories = Dictionary(library.categories.map { ($0.id, $0.node) }, uniquingKeysWith: { a, _ in a })
            let packs = Dictionary(library.packs.map { ($0.id, $0.node) }, uniquingKeysWith: { a, _ in a })
            let categoryOrder = library.categories.map(\.id), packOrder = library.packs.map(\.id)
            if !items.isEmpty {
                var packOf: [String: String] = [:]
                for id in packOrder {
                    for member in packs[id]?["items"]?.items ?? [] { if let itemID = member.string, packOf[itemID] == nil { packOf[itemID] = id } }
                }
                // A pack is one bundle with the pack's access (content.protected-pack-item refuses a protected
                // item in a public pack); an item on its own has its own.
                var media: [String: (subject: String, access: Access, entries: [BundleEntry], items: [String: Int], windows: [Availability])] = [:]
                for id in itemOrder {
                    guard let (item, owner, directory) = items[id] else { continue }
                    let bundleID = packOf[id].map { "library.\($0)" } ?? "library-item.\(id)"
                    let protected = packOf[id].map { packs[$0]?["protected"]?.bool == true } ?? (item["protected"]?.bool == true)
                    itemBundle[id] = bundleID
                    let entries = try assets([item["media"], item["subtitles"]], in: owner, manifestDirectory: directory)
                    media[bundleID, default: (packOf[id] ?? id, protected ? .voucher : .public, [], [:], [])].entries += entries
                    media[bundleID]!.windows.append(item.availability)
                    let played = (item["media"]?.entries ?? []).compactMap { milliseconds($0.value, in: owner, manifestDirectory: directory) }
                    if let longest = played.max() { media[bundleID]!.items[id] = longest }
                }
                for (bundleID, content) in media {
                    let playing = content.items.isEmpty ? nil : BundleMedia(milliseconds: content.items.values.reduce(0, +), items: content.items)
                    // A pack is shown while any of its items is.
                    bundles.append(BundleSpec(id: bundleID, kind: .libraryPack, subject: content.subject, policy: .onDemand, access: content.access, entries: content.entries,
                                              media: playing, availability: .union(content.windows)))
                }
                let catalog: JSONValue = .object([
                    "categories": .array(categoryOrder.compactMap { categories[$0].map(JSONValue.init) }),
                    // Packs list only the items that ship (drafts are left out); a pack of drafts only is left out.
                    "packs": .array(packOrder.compactMap { id -> JSONValue? in
                        guard let pack = packs[id], case .object(var fields) = JSONValue(pack) else { return nil }
                        let members = (pack["items"]?.items ?? []).compactMap(\.string).filter { items[$0] != nil }
                        guard !members.isEmpty else { return nil }
                        fields["items"] = .array(members.map(JSONValue.string))
                        return .object(fields)
                    }),
                    "items": .array(itemOrder.compactMap { id in
                        guard let item = items[id], case .object(var fields) = JSONValue(item.node) else { return nil }
                        if let bundle = itemBundle[id] { fields["bundle"] = .string(bundle) }
                        return .object(fields)
                    }),
                ])
                core.append(Self.json("library/library.json", catalog))
            }
            return (bundles, itemBundle)
        }

        /// A bundle per published program, depending on the library bundles its lessons use; its document goes into `core`.
        mutating func programs(itemBundle: [String: String], core: inout [BundleEntry]) throws -> [BundleSpec] {
            var bundles: [BundleSpec] = []
            let source = tenant.source
            for program in source.manifests(.program) where program.node.publicationStatus == .published {
                guard let id = program.node["id"]?.string else { continue }
                let document = Self.json(Self.jsonPath(program), JSONValue(program.node))
                core.append(document)
                var lessons = Set<String>()
                for week in program.node["weeks"]?.items ?? [] {
                    for day in week["days"]?.items ?? [] {
                        for item in day["items"]?.items ?? [] { if let lesson = item["lesson"]?.string, let bundle = itemBundle[lesson] { lessons.insert(bundle) } }
                    }
                }
                let entries = [document] + (try assets([program.node["cover"]], in: source, manifestDirectory: program.directory))
                bundles.append(BundleSpec(id: "program.\(id)", kind: .program, subject: id, policy: .onDemand,
                                          access: program.node["protected"]?.bool == true ? .voucher : .public, dependencies: Array(lessons).sorted(), entries: entries,
                                          availability: program.node.availability))
            }
            return bundles
        }

        /// Tours: shared media in one bundle, audio and subtitles per language; each document goes into `core`.
        mutating func tours(core: inout [BundleEntry]) throws -> [BundleSpec] {
            var bundles: [BundleSpec] = []
            let source = tenant.source
            for tour in source.manifests(.tour) where tour.node.publicationStatus == .published {
                guard let id = tour.node["id"]?.string else { continue }
                let window = tour.node.availability
                let access: Access = tour.node["protected"]?.bool == true ? .voucher : .public
                let document = Self.json(Self.jsonPath(tour), JSONValue(tour.node))
                core.append(document)
                let stops = tour.node["stops"]?.items ?? []
                var shared = [document]
                shared += try assets([tour.node["cover"], tour.node["map"], tour.node["route"], tour.node["tiles"]] + stops.map { $0["image"] },
                                     in: source, manifestDirectory: tour.directory)
                let tourID = "tour.\(id)"
                bundles.append(BundleSpec(id: tourID, kind: .tour, subject: id, policy: .onDemand, access: access, entries: shared, availability: window))
                for language in (tour.node["languages"]?.items ?? []).compactMap(\.string) {
                    let media = try assets(stops.flatMap { [$0["audio"]?[language], $0["subtitles"]?[language]] }, in: source, manifestDirectory: tour.directory)
                    var played: [String: Int] = [:]
                    for stop in stops {
                        if let stopID = stop["id"]?.string, let ms = milliseconds(stop["audio"]?[language], in: source, manifestDirectory: tour.directory) { played[stopID] = ms }
                    }
                    bundles.append(BundleSpec(id: "\(tourID).\(language)", kind: .tourLanguage, subject: id, locale: language, policy: .onDemand,
                                              access: access, dependencies: [tourID], entries: media,
                                              media: played.isEmpty ? nil : BundleMedia(milliseconds: played.values.reduce(0, +), stops: played),
                                              availability: window))
                }
            }
            return bundles
        }

        /// Locales: each locale's messages as JSON (docs/l10n.md#in-a-release).
        func locales() throws -> [BundleSpec] {
            var bundles: [BundleSpec] = []
            let defaultLocale = tenant.defaultLocale
            let platform = LocaleFiles(tenant, memo: memo)
            for locale in tenant.supportedLocales where tenant.locales[locale] != nil {
                bundles.append(BundleSpec(id: "locale.\(locale)", kind: .locale, locale: locale, policy: locale == defaultLocale ? .essential : .prefetch,
                                          entries: try platform.files(for: locale, memo: memo)))
            }
            return bundles
        }

        /// Refuses bundles that would put two different files at one path.
        static func checkPaths(_ bundles: [BundleSpec]) throws {
            for bundle in bundles where !bundle.conflicts.isEmpty {
                throw Failure(description: "bundle '\(bundle.id)' would hold different files at the same path: \(bundle.conflicts.joined(separator: ", ")) "
                              + "(an inherited file and the tenant's own file share a path; rename one of them)")
            }
            // A client unpacks bundles into one folder: a path must mean the same bytes in every bundle.
            var owners: [String: (sha: SHA256Hex, bundle: String)] = [:]
            for bundle in bundles {
                for entry in bundle.entries {
                    if let other = owners[entry.path], other.sha != entry.sha256 {
                        throw Failure(description: "'\(entry.path)' would be two different files, in bundles '\(other.bundle)' and '\(bundle.id)' "
                                      + "(an inherited file and the tenant's own file share a path; rename one of them)")
                    }
                    owners[entry.path] = (entry.sha256, bundle.id)
                }
            }
        }
    }
}
