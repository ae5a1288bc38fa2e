import Dispatch
import Foundation
import LiveryCheck
import LiveryDiagnostics
import LiveryLoad
import LiveryMedia
import LiverySign

/// `livery watch`: a first check of a workspace (or of one tenant in it), then, on every change, a check of only the
/// tenants the change affects, and with `publishing`, a build of those it leaves without errors. What happens is
/// told as events (`Event`); printing them is the command's.
public final class WatchSession {
    /// Where `--build` publishes, and with which keys (nil: unsigned releases).
    public struct Publishing: Sendable {
        public var output: URL
        public var keys: KeyStore?

        public init(output: URL, keys: KeyStore?) {
            self.output = output
            self.keys = keys
        }
    }

    /// One check: the findings that appeared and disappeared, and the counts in the whole watched workspace after it.
    public struct Check: Sendable {
        /// True for the session's first check.
        public var initial: Bool
        /// The workspace-relative paths whose change started the check (empty for the first check).
        public var changed: [String]
        /// How many tenants were checked.
        public var checked: Int
        /// From the change seen to the findings known.
        public var milliseconds: Double
        public var change: FindingsLedger.Change
        public var errors: Int
        public var warnings: Int
    }

    public enum Event: Sendable {
        case checked(Check)
        /// The changed tenants were not built: they have this many errors (warnings count too when strict).
        case notBuilt(errors: Int, tenants: [String])
        /// A line the build says while it runs (another build holds the lock, development keys were made…).
        case buildProgress(String)
        case built(BuildResult)
        case buildFailed(any Error)
    }

    public let workspace: URL
    /// The workspace as findings name it.
    public let displayRoot: String
    /// The one tenant watched (with its ancestors' files reported only as its own findings would be); nil: every tenant.
    private let scope: Set<String>?
    private let strict: Bool
    private let publishing: Publishing?
    private let media: MediaMeasurements
    private let watcher: FileWatcher
    private var ledger: FindingsLedger
    private var dependents: TenantDependents
    /// The folders found when the session started, for its first check.
    private let discovered: WorkspaceFolders

    /// Starts watching `workspace` (before the first check, so that a save during it is not missed).
    public init(workspace: URL, displayRoot: String, tenant: String? = nil, strict: Bool = false, media: MediaMeasurements = MediaMeasurements(),
                publishing: Publishing? = nil) throws {
        watcher = try FileWatcher(root: workspace)
        self.workspace = workspace
        self.displayRoot = displayRoot
        scope = tenant.map { Set([$0]) }
        self.strict = strict
        self.publishing = publishing
        self.media = media
        ledger = FindingsLedger(displayRoot: displayRoot)
        discovered = WorkspaceFolders(discovering: workspace)
        dependents = TenantDependents(workspace: workspace, folders: discovered.folders)
    }

    /// Checks and, with `publishing`, builds, then does so again after every change, for ever.
    public func run(_ report: @escaping @Sendable (Event) -> Void) -> Never {
        start(report)
        while true { update(watcher.next(), report) }
    }

    /// The first check: every tenant (or the one watched), then their build.
    public func start(_ report: @escaping @Sendable (Event) -> Void) {
        let start = DispatchTime.now()
        let first = Validator.validate(workspace: workspace, displayRoot: displayRoot, rules: .all, only: scope, strict: strict, media: media,
                                       discovered: discovered)
        let everyone = Set(discovered.names).union(discovered.refused.map(\.name))
        let change = ledger.replace(scope ?? everyone, with: first.diagnostics)
        report(.checked(check(change, checked: first.checked.count, changed: [], since: start, initial: true)))
        if publishing != nil { publish(scope ?? Set(discovered.names), report) }
    }

    /// Checks the tenants that a change of `paths` (workspace-relative; "" when changes were lost) affects: their own
    /// and those that extend them. Then builds them.
    public func update(_ paths: Set<String>, _ report: @escaping @Sendable (Event) -> Void) {
        let start = DispatchTime.now()
        // "" (events were lost) or a change at the top level: check every tenant again.
        var changed = Set(paths.compactMap(TenantDependents.tenant(ofRelativePath:)))
        if paths.contains("") { changed = Set(WorkspaceFolders(discovering: workspace).names).union(ledger.all.compactMap(ledger.tenant(of:))) }
        var affected = dependents.affected(by: changed)
        if let scope { affected.formIntersection(scope) }
        guard !affected.isEmpty else { return }
        let now = WorkspaceFolders(discovering: workspace)
        let present = affected.intersection(now.names.union(now.refused.map(\.name)))
        let result = present.isEmpty ? nil
            : Validator.validate(workspace: workspace, displayRoot: displayRoot, rules: .all, only: present, strict: strict, media: media, discovered: now)
        // A tenant folder that was removed takes its findings with it.
        let change = ledger.replace(affected, with: result?.diagnostics ?? [])
        report(.checked(check(change, checked: present.count, changed: paths.filter { !$0.isEmpty }.sorted(), since: start, initial: false)))
        if publishing != nil && !present.isEmpty { publish(present, report) }
    }

    private func check(_ change: FindingsLedger.Change, checked: Int, changed: [String], since start: DispatchTime, initial: Bool) -> Check {
        let all = ledger.all
        return Check(initial: initial, changed: changed, checked: checked,
                     milliseconds: Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6,
                     change: change, errors: all.errorCount, warnings: all.warningCount)
    }

    /// Builds and publishes `tenants` when none of them has an error (a tenant's ancestors are checked with it).
    private func publish(_ tenants: Set<String>, _ report: @escaping @Sendable (Event) -> Void) {
        guard let publishing else { return }
        let blocking = ledger.all.filter { ($0.severity == .error || (strict && $0.severity == .warning)) && ledger.tenant(of: $0).map(tenants.contains) == true }
        guard blocking.isEmpty else {
            report(.notBuilt(errors: blocking.count, tenants: tenants.sorted()))
            return
        }
        let options = BuildOptions(only: tenants, strict: strict, keys: publishing.keys)
        do {
            let result = try ReleaseBuilder.build(workspace: workspace, displayRoot: displayRoot, output: publishing.output, options: options,
                                                  progress: { report(.buildProgress($0)) })
            report(.built(result))
        } catch {
            report(.buildFailed(error))
        }
    }
}
