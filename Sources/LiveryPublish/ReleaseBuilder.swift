import CLiverySystem
import Foundation
import LiveryAssets
import LiveryCheck
import LiveryLoad
import LiveryDiagnostics
import LiveryPack
import LiveryResolve
import LiverySign
import LiveryTUF

/// Options of `livery build`.
public struct BuildOptions: Sendable {
    public var format: ArchiveFormat = .zip
    /// Tenants to build (nil: every tenant of the workspace).
    public var only: Set<String>?
    public var strict = false
    /// Where signing keys live; nil builds unsigned releases (tests of packing alone).
    public var keys: KeyStore?
    /// Re-sign the timestamp of every release that did not change, so it does not expire.
    public var refreshTimestamp = false

    public init(format: ArchiveFormat = .zip, only: Set<String>? = nil, strict: Bool = false, keys: KeyStore? = nil, refreshTimestamp: Bool = false) {
        self.format = format
        self.only = only
        self.strict = strict
        self.keys = keys
        self.refreshTimestamp = refreshTimestamp
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
    /// True when an unchanged release got a newly signed timestamp.
    public var timestampRefreshed = false
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
        let settings = "livery \(LiveryVersion.current) rules \(RuleRegistry.all.count) format \(options.format.rawValue) strict \(options.strict) mtime \(ArchiveWriter.entryTimestamp) signed \(options.keys != nil)"

        // Tenants whose inputs are all as they were at their last build are not even loaded.
        let discovered = TenantLoader.discover(in: workspace)
        let folders = discovered.folders.map(\.lastPathComponent)
        let wanted = folders.filter { options.only?.contains($0) ?? true }
        var unchanged: [TenantBuildReport] = []
        var toBuild = Set<String>()
        for id in wanted {
            let signedAsAsked = options.keys == nil || Publisher.signaturesCover(tenant: id, output: output)
            if let current = Publisher.currentManifest(tenant: id, output: output), signedAsAsked,
               records.isUnchanged(id, settings: settings, published: current.pointer.sha256) {
                unchanged.append(TenantBuildReport(tenant: id, release: current.manifest.release, published: false, bundles: current.manifest.bundles.count,
                                                   rebuilt: [], bytes: current.manifest.bundles.reduce(0) { $0 + $1.size }, untouched: true))
            } else {
                toBuild.insert(id)
            }
        }
        // Tenants are validated and packed in groups so memory stays bounded by a group, not the
        // workspace; nothing is published until every group has validated clean.
        let builder = try BundleBuilder(store: store)
        let ordered = wanted.filter { toBuild.contains($0) }
        var diagnostics: [Diagnostic] = []
        var checked: [String] = []
        var pending: [PreparedRelease] = []
        var failures: [String] = []
        // Tenants whose new release failed, with the index of their message in `failures`.
        var failed: [(tenant: String, failure: Int)] = []
        // A tenant folder the loader refuses (a symbolic link out of the workspace) is never loaded or
        // built, but its error stops the build, as it fails `livery validate`.
        let refused = Set(discovered.refused.map(\.name).filter { options.only?.contains($0) ?? true })
        if !refused.isEmpty {
            let validation = Validator.validate(workspace: workspace, displayRoot: displayRoot, only: refused, strict: options.strict)
            diagnostics += validation.diagnostics
            checked += validation.checked
        }
        for start in stride(from: 0, to: ordered.count, by: groupSize) {
            let group = Set(ordered[start..<min(start + groupSize, ordered.count)])
            let validation = Validator.validate(workspace: workspace, displayRoot: displayRoot, only: group, strict: options.strict)
            diagnostics += validation.diagnostics
            checked += validation.checked
            guard diagnostics.errorCount == 0 else { continue }
            let selected = validation.tenants.filter { group.contains($0.id) }
            let outcomes = ParallelMap.map(selected) { tenant in
                Result { try prepare(tenant, store: store, builder: builder, output: output, format: options.format, keys: options.keys) }
            }
            for (tenant, outcome) in zip(selected, outcomes) {
                switch outcome {
                case .success(let prepared): pending.append(prepared)
                case .failure(let error):
                    failed.append((tenant.id, failures.count))
                    failures.append("\(tenant.id): \(error)")
                }
            }
            progress("packed \(min(start + groupSize, ordered.count)) of \(ordered.count) changed tenant\(ordered.count == 1 ? "" : "s")")
            // Give the group's freed memory back to the system before loading the next group.
            livery_release_free_memory()
        }
        try store.flush()
        let validation = ValidationResult(diagnostics: diagnostics.normalized(), tenants: [], checked: Array(Set(checked)).sorted())
        guard diagnostics.errorCount == 0 else {
            return BuildResult(validation: validation, tenants: [], failures: [])
        }
        var reports = unchanged
        for prepared in pending {
            do {
                if let manifest = prepared.manifest {
                    var sign: ((URL) throws -> Void)?
                    if let store = options.keys {
                        let keys = try store.keys(for: prepared.report.tenant, create: true, warn: progress)
                        let targets = signedTargets(prepared, manifest: manifest)
                        sign = { folder in try RepositorySigner.sign(release: folder, targets: targets, keys: keys, warn: progress) }
                    }
                    try Publisher.publish(tenant: prepared.report.tenant, bundles: prepared.built, manifest: manifest, release: prepared.report.release,
                                          output: output, sign: sign)
                }
                reports.append(prepared.report)
                if let pointer = Publisher.currentManifest(tenant: prepared.report.tenant, output: output)?.pointer {
                    try records.record(prepared.report.tenant, inputs: prepared.inputs, settings: settings, manifest: pointer.sha256)
                }
            } catch {
                failed.append((prepared.report.tenant, failures.count))
                failures.append("\(prepared.report.tenant): \(error)")
            }
        }
        if options.refreshTimestamp, let keyStore = options.keys {
            func refresh(_ tenant: String) throws {
                let keys = try keyStore.keys(for: tenant, create: false, warn: progress)
                try Publisher.amend(tenant: tenant, output: output) { try RepositorySigner.refreshTimestamp(release: $0, keys: keys, warn: progress) }
            }
            for index in reports.indices where !reports[index].published {
                let tenant = reports[index].tenant
                do {
                    try refresh(tenant)
                    reports[index].timestampRefreshed = true
                } catch {
                    failures.append("\(tenant): cannot refresh the timestamp: \(error)")
                }
            }
            // A tenant whose new release failed (a creator's key away while their content changed,
            // say) keeps its published release live, so that one must not expire either.
            for (tenant, index) in failed where !reports.contains(where: { $0.tenant == tenant && $0.published })
                && Publisher.signaturesCover(tenant: tenant, output: output) {
                guard let release = Publisher.currentManifest(tenant: tenant, output: output)?.manifest.release else { continue }
                do {
                    try refresh(tenant)
                    failures[index] += " (release \(release) stays live, timestamp re-signed)"
                } catch {
                    failures.append("\(tenant): cannot refresh the timestamp of release \(release): \(error)")
                }
            }
        }
        return BuildResult(validation: validation, tenants: reports.sorted { $0.tenant < $1.tenant }, failures: failures)
    }

    /// The TUF targets of a release: the download manifest and every bundle, described in `custom`.
    static func signedTargets(_ prepared: PreparedRelease, manifest: StoredFile) -> [RepositorySigner.Target] {
        var targets = [RepositorySigner.Target(name: DownloadManifest.targetName, length: manifest.size, sha256: manifest.sha256,
                                               custom: .downloadManifest(release: prepared.report.release))]
        for bundle in prepared.built {
            let spec = bundle.spec
            let custom = TargetCustom.bundle(.init(id: spec.id, kind: spec.kind, policy: spec.policy, access: spec.access, locale: spec.locale, subject: spec.subject,
                                                   encryption: bundle.encryption))
            targets.append(RepositorySigner.Target(name: bundle.targetName, length: bundle.size, sha256: bundle.sha256, custom: custom))
        }
        return targets
    }

    /// How many tenants are loaded at once.
    static let groupSize = 6

    /// A tenant's release, packed and ready to publish (or found unchanged).
    struct PreparedRelease: Sendable {
        var report: TenantBuildReport
        var built: [BuiltBundle]
        /// The new download manifest in the store; nil when the release is unchanged.
        var manifest: StoredFile?
        var inputs: [String]
    }

    /// Packs a tenant's bundles. A signed build (`keys` set) encrypts its voucher bundles with keys
    /// derived from the tenant's content secret, made in the key store on first use; an unsigned build
    /// (tests of packing alone) leaves them plain.
    static func prepare(_ tenant: ResolvedTenant, store: ContentStore, builder: BundleBuilder, output: URL, format: ArchiveFormat,
                        keys: KeyStore?) throws -> PreparedRelease {
        let signed = keys != nil
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
        let secret = try specs.contains { $0.access == .voucher } ? keys?.contentSecret(for: tenant.id, create: true) : nil
        let built = try ParallelMap.map(specs) { spec in
            Result {
                let archive = try builder.build(spec, format: format).withoutEntries
                guard spec.access == .voucher, let secret else { return archive }
                return try builder.encrypt(archive, secret: secret)
            }
        }.map { try $0.get() }
        let minimum = tenant.tenant?["release"]?["minimumClientVersion"]?.string ?? "1.0.0"
        let current = Publisher.currentManifest(tenant: tenant.id, output: output)
        let rebuilt = built.filter(\.rebuilt).map(\.spec.id).sorted()
        let bytes = built.reduce(0) { $0 + $1.size }
        let inputs = BuildRecords.inputs(of: tenant)
        if let current {
            let same = DownloadManifest(tenant: tenant.id, release: current.manifest.release, format: format, minimumClientVersion: minimum, built: built)
            // An unsigned release is published again (same content, new metadata) once signing is asked for.
            if same == current.manifest && (!signed || Publisher.signaturesCover(tenant: tenant.id, output: output)) {
                let report = TenantBuildReport(tenant: tenant.id, release: current.manifest.release, published: false, bundles: built.count, rebuilt: rebuilt, bytes: bytes)
                return PreparedRelease(report: report, built: built, manifest: nil, inputs: inputs)
            }
        }
        let release = (current?.manifest.release ?? 0) + 1
        let manifest = DownloadManifest(tenant: tenant.id, release: release, format: format, minimumClientVersion: minimum, built: built)
        let stored = try store.put(manifest.bytes)
        let report = TenantBuildReport(tenant: tenant.id, release: release, published: true, bundles: built.count, rebuilt: rebuilt, bytes: bytes)
        return PreparedRelease(report: report, built: built, manifest: stored, inputs: inputs)
    }
}
