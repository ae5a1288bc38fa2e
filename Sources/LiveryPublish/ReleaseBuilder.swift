import Foundation
import LiveryAssets
import LiveryCheck
import LiveryLoad
import LiveryDiagnostics
import LiveryPack
import LiveryResolve

/// Options of `livery build`.
public struct BuildOptions: Sendable {
    public var format: ArchiveFormat = .zip
    /// Tenants to build (nil: every tenant of the workspace).
    public var only: Set<String>?
    public var strict = false

    public init(format: ArchiveFormat = .zip, only: Set<String>? = nil, strict: Bool = false) {
        self.format = format
        self.only = only
        self.strict = strict
    }
}

/// What a build did for one tenant.
public struct TenantBuildReport: Sendable {
    public var tenant: String
    public var release: Int
    /// False when nothing changed since the published release.
    public var published: Bool
    public var bundles: Int
    /// Bundles whose archive this build wrote (the rest were reused).
    public var rebuilt: [String]
    public var bytes: Int
    /// True when the tenant's inputs were untouched since its last build, so it was not even loaded.
    public var untouched = false
}

/// The outcome of `livery build`.
public struct BuildResult: Sendable {
    public var validation: ValidationResult
    public var tenants: [TenantBuildReport]
    public var failures: [String]

    public var validationFailed: Bool { validation.diagnostics.errorCount > 0 }
}

/// `livery build`: validate, plan bundles, build the archives that changed, and publish every tenant
/// whose release changed, atomically, under one lock on `Output/`.
public enum ReleaseBuilder {
    public static func build(workspace: URL, displayRoot: String, output: URL, options: BuildOptions = BuildOptions(),
                             progress: @escaping @Sendable (String) -> Void = { _ in }) throws -> BuildResult {
        let lock = try OutputLock(output: output, waiting: progress)
        defer { withExtendedLifetime(lock) {} }
        Publisher.removeLeftovers(in: output)
        let store = try ContentStore(root: output.appendingPathComponent(".livery/store"))
        store.removeLeftovers()
        let records = try BuildRecords(store: store)
        let settings = "livery \(LiveryVersion.current) rules \(RuleRegistry.all.count) format \(options.format.rawValue) strict \(options.strict)"

        // Tenants whose inputs are all as they were at their last build are not even loaded.
        let folders = TenantLoader.discover(in: workspace).folders.map(\.lastPathComponent)
        let wanted = folders.filter { options.only?.contains($0) ?? true }
        var unchanged: [TenantBuildReport] = []
        var toBuild = Set<String>()
        for id in wanted {
            if let current = Publisher.currentManifest(tenant: id, output: output),
               records.isUnchanged(id, settings: settings, published: current.pointer.sha256) {
                unchanged.append(TenantBuildReport(tenant: id, release: current.manifest.release, published: false, bundles: current.manifest.bundles.count,
                                                   rebuilt: [], bytes: current.manifest.bundles.reduce(0) { $0 + $1.size }, untouched: true))
            } else {
                toBuild.insert(id)
            }
        }
        let validation = Validator.validate(workspace: workspace, displayRoot: displayRoot, only: options.only == nil && toBuild.count == wanted.count ? nil : toBuild,
                                            strict: options.strict)
        guard validation.diagnostics.errorCount == 0 else {
            return BuildResult(validation: validation, tenants: [], failures: [])
        }
        let builder = try BundleBuilder(store: store)
        let selected = validation.tenants.filter { toBuild.contains($0.id) }

        let outcomes = ParallelMap.map(selected) { tenant -> Result<TenantBuildReport, Error> in
            Result { try buildTenant(tenant, store: store, builder: builder, output: output, format: options.format) }
        }
        try store.flush()
        var reports = unchanged, failures: [String] = []
        for (tenant, outcome) in zip(selected, outcomes) {
            switch outcome {
            case .success(let report):
                reports.append(report)
                if let pointer = Publisher.currentManifest(tenant: tenant.id, output: output)?.pointer {
                    try records.record(tenant, settings: settings, manifest: pointer.sha256)
                }
            case .failure(let error): failures.append("\(tenant.id): \(error)")
            }
        }
        return BuildResult(validation: validation, tenants: reports.sorted { $0.tenant < $1.tenant }, failures: failures)
    }

    static func buildTenant(_ tenant: ResolvedTenant, store: ContentStore, builder: BundleBuilder, output: URL, format: ArchiveFormat) throws -> TenantBuildReport {
        // Hash every referenced asset on all cores first; planning then finds them ingested.
        var files = Set<URL>()
        for source in tenant.ancestors + [tenant.source] {
            for reference in source.assets {
                if case .success(let relative) = TenantPath.normalize(reference.path, baseDirectory: reference.baseDirectory),
                   case .success(let url) = source.paths.regularFile(relative) { files.insert(url) }
            }
        }
        let ingested = ParallelMap.map(Array(files)) { url in Result { try store.ingest(url) } }
        for outcome in ingested { _ = try outcome.get() }
        let specs = try BundlePlanner.plan(tenant, store: store)
        let built = try ParallelMap.map(specs) { spec in Result { try builder.build(spec, format: format) } }.map { try $0.get() }
        let minimum = tenant.tenant?["release"]?["minimumClientVersion"]?.string ?? "1.0.0"
        let current = Publisher.currentManifest(tenant: tenant.id, output: output)
        let rebuilt = built.filter(\.rebuilt).map(\.spec.id).sorted()
        let bytes = built.reduce(0) { $0 + $1.size }
        if let current {
            let same = DownloadManifest(tenant: tenant.id, release: current.manifest.release, format: format, minimumClientVersion: minimum, built: built)
            if same == current.manifest {
                return TenantBuildReport(tenant: tenant.id, release: current.manifest.release, published: false, bundles: built.count, rebuilt: rebuilt, bytes: bytes)
            }
        }
        let release = (current?.manifest.release ?? 0) + 1
        let manifest = DownloadManifest(tenant: tenant.id, release: release, format: format, minimumClientVersion: minimum, built: built)
        let stored = try store.put(manifest.bytes)
        try Publisher.publish(tenant: tenant.id, bundles: built, manifest: stored, release: release, output: output)
        return TenantBuildReport(tenant: tenant.id, release: release, published: true, bundles: built.count, rebuilt: rebuilt, bytes: bytes)
    }
}
