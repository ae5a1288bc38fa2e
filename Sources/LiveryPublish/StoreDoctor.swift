import Foundation
import LiveryLoad
import LiveryAssets
import LiverySign
import LiveryStorage
import LiveryReleaseFormat
import LiveryStorage

/// `livery store verify` and `livery store repair`: re-hash the content store and every channel's
/// published targets, and put back what a crash, a bad disk or a stray edit damaged.
public enum StoreDoctor {
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        public enum Kind: String, Sendable {
            /// A store object whose bytes are not its name's SHA-256 (and not a tenant file edited since).
            case damagedObject = "damaged object"
            /// A store object that is a tenant file edited in place since it was stored: never used, removable.
            case staleObject = "stale object"
            /// A published target whose bytes are not the SHA-256 its name starts with.
            case damagedTarget = "damaged target"
        }

        public var kind: Kind
        /// Relative to the output folder.
        public var path: String
        /// The SHA-256 the file should have.
        public var expected: String
        public var tenant: String?
        public var channel: ReleaseChannel?

        public var description: String { "\(kind.rawValue): \(path)" }
    }

    public struct Report: Sendable {
        public var problems: [Problem] = []
        public var objectsChecked = 0
        public var targetsChecked = 0
        public var bytesRead: Int64 = 0
        public var damaged: [Problem] { problems.filter { $0.kind != .staleObject } }

        /// `livery store verify`'s text: each problem, then the count of what was checked and found.
        public var text: String {
            problems.map { "\($0)\n" }.joined()
                + "checked \(objectsChecked) stored objects and \(targetsChecked) published targets (\(ByteCount.text(bytesRead))): "
                + "\(damaged.count) damaged, \(problems.count - damaged.count) stale\n"
        }
    }

    /// Re-hashes every store object and every file in each channel's `targets/`.
    public static func verify(output: URL) throws -> Report {
        var report = Report()
        let store = try ContentStore(root: output.appendingPathComponent(".livery/store"))
        for object in store.allObjects() {
            let url = store.objectURL(object.sha256)
            report.objectsChecked += 1
            report.bytesRead += object.size
            guard (try? FileDigest.sha256(of: url).digest) != object.sha256 else { continue }
            let stale = store.isIngested(object.sha256) && !store.isIntact(object.sha256)
            report.problems.append(Problem(kind: stale ? .staleObject : .damagedObject, path: ".livery/store/objects/\(object.sha256.prefix(2))/\(object.sha256)",
                                           expected: object.sha256))
        }
        for tenant in ((try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []).filter({ !$0.hasPrefix(".") }).sorted() {
            for channel in Publisher.channels(tenant: tenant, output: output) {
                let repository = Publisher.repository(tenant: tenant, channel: channel, output: output)
                for folder in ["targets", "targets/staged"] {
                    for name in ((try? FileManager.default.contentsOfDirectory(atPath: repository.appendingPathComponent(folder).path)) ?? []).sorted() where name.count > 65 {
                        let url = repository.appendingPathComponent(folder).appendingPathComponent(name)
                        guard FileStamp(path: url.path) != nil else { continue }
                        report.targetsChecked += 1
                        report.bytesRead += FileStamp(path: url.path)?.size ?? 0
                        let expected = String(name.prefix(64))
                        // A file index is named by its table's digest, and its table vouches for the rest (docs/deltas.md).
                        let actual = FileIndex.isObjectName(name) ? FileManager.default.contents(atPath: url.path).flatMap(FileIndex.nameDigest(ofObject:))
                            : try? FileDigest.sha256(of: url).digest
                        guard actual != expected else { continue }
                        let relative = String(url.standardizedFileURL.path.dropFirst(output.standardizedFileURL.path.count + 1))
                        report.problems.append(Problem(kind: .damagedTarget, path: relative, expected: expected, tenant: tenant, channel: channel))
                    }
                }
            }
        }
        return report
    }

    public struct Repair: Sendable {
        public var removedObjects: [String] = []
        public var replacedTargets: [String] = []
        /// Damaged targets of a previous release that nothing can re-create (the sources now build
        /// the current release): taken out of the channel, as the next release would have done.
        public var droppedTargets: [String] = []
        /// Targets of a current or staged release no intact copy was found for, even after rebuilding.
        public var unrepaired: [Problem] = []

        /// One line per thing done or left undone.
        public var text: String {
            (removedObjects.map { "removed \($0)" } + replacedTargets.map { "replaced \($0)" }
                + droppedTargets.map { "dropped \($0) (a previous release's; the sources now build the current one)" }
                + unrepaired.map { "NOT REPAIRED \($0)" }).map { $0 + "\n" }.joined()
        }
    }

    /// `livery store repair`: what was done (nil when the check found nothing to do), and the check after it.
    public struct Checkup: Sendable {
        public var repair: Repair?
        public var report: Report
        /// Damage left, or something that could not be repaired.
        public var failed: Bool { !report.damaged.isEmpty || !(repair?.unrepaired.isEmpty ?? true) }
        public var text: String { (repair?.text ?? "") + report.text }
    }

    /// Verifies the output folder, repairs what it found (`repair`), and verifies again.
    public static func verifyAndRepair(output: URL, rebuild: (Set<String>) throws -> Void) throws -> Checkup {
        let report = try verify(output: output)
        guard !report.problems.isEmpty else { return Checkup(repair: nil, report: report) }
        let result = try repair(output: output, report: report, rebuild: rebuild)
        return Checkup(repair: result, report: try verify(output: output))
    }

    /// Removes damaged and stale store objects, rebuilds what `rebuild` can (it is given the tenants
    /// whose damaged targets have no intact copy, and must re-create their objects, e.g. by building
    /// them from their sources), then replaces each damaged target from an intact copy (a store object
    /// or another channel's target with the right SHA-256), switching each channel atomically.
    public static func repair(output: URL, report: Report, rebuild: (Set<String>) throws -> Void) throws -> Repair {
        var result = Repair()
        do {
            let lock = try OutputLock(output: output, waiting: { _ in })
            defer { withExtendedLifetime(lock) {} }
            let store = try ContentStore(root: output.appendingPathComponent(".livery/store"))
            for problem in report.problems where problem.kind != .damagedTarget {
                try store.remove(problem.expected)
                result.removedObjects.append(problem.path)
            }
        }
        let targets = report.problems.filter { $0.kind == .damagedTarget }
        guard !targets.isEmpty else { return result }
        var copies = IntactCopies(store: try ContentStore(root: output.appendingPathComponent(".livery/store")),
                                  tenants: Set(targets.compactMap(\.tenant)), output: output)
        let missing = Set(targets.filter { copies.copy(of: $0.expected) == nil }.compactMap(\.tenant))
        if !missing.isEmpty {
            try rebuild(missing)
            copies.forget()
        }
        let lock = try OutputLock(output: output, waiting: { _ in })
        defer { withExtendedLifetime(lock) {} }
        let byRepository = Dictionary(grouping: targets) { "\($0.tenant ?? "")/\($0.channel?.name ?? "")" }
        for (_, problems) in byRepository.sorted(by: { $0.key < $1.key }) {
            try repairTargets(problems, output: output, copies: &copies, into: &result)
        }
        return result
    }

    /// Replaces the damaged targets of one channel (`problems`) from intact copies, and drops those without one that
    /// the channel no longer serves, in one amendment of the channel; those it serves stay, unrepaired.
    private static func repairTargets(_ problems: [Problem], output: URL, copies: inout IntactCopies, into result: inout Repair) throws {
        guard let tenant = problems[0].tenant, let channel = problems[0].channel else { return }
        let repository = Publisher.repository(tenant: tenant, channel: channel, output: output)
        let fixable = problems.compactMap { problem in copies.copy(of: problem.expected).map { (problem, $0) } }
        let live = liveTargets(tenant: tenant, channel: channel, output: output)
        let rest = problems.filter { problem in !fixable.contains { $0.0 == problem } }
        let droppable = rest.filter { !live.contains($0.expected) }
        result.unrepaired += rest.filter { live.contains($0.expected) }
        guard !fixable.isEmpty || !droppable.isEmpty else { return }
        let base = repository.standardizedFileURL.path.dropFirst(output.standardizedFileURL.path.count + 1)
        try Publisher.amend(tenant: tenant, channel: channel, output: output) { staging in
            for (problem, source) in fixable {
                let relative = String(problem.path.dropFirst(base.count + 1))
                let destination = staging.appendingPathComponent(relative)
                // The staged file is a hard link to the damaged one: replace the link, never write through it.
                unlink(destination.path)
                try Publisher.linkOrCopy(source, to: destination)
                result.replacedTargets.append(problem.path)
            }
            for problem in droppable {
                unlink(staging.appendingPathComponent(String(problem.path.dropFirst(base.count + 1))).path)
                result.droppedTargets.append(problem.path)
            }
        }
    }

    /// What the channel serves now: its release and a staged one. Anything else in targets/ is a previous release's.
    private static func liveTargets(tenant: String, channel: ReleaseChannel, output: URL) -> Set<String> {
        var live = Set<String>()
        if let current = Publisher.currentManifest(tenant: tenant, channel: channel, output: output) {
            live.insert(current.pointer.sha256)
            live.formUnion(current.manifest.bundles.map(\.sha256))
        }
        if let staged = Publisher.stagedManifest(tenant: tenant, channel: channel, output: output) {
            live.insert(staged.sha256)
            live.formUnion(staged.manifest.bundles.map(\.sha256))
        }
        return live
    }

    /// Intact copies of damaged targets by SHA-256: the store object, or a file with that hash in a target folder of
    /// one of `tenants`' channels. Each candidate is hashed once per look-up round (a tour bundle can be hundreds of
    /// megabytes); `forget` clears the memo after a rebuild, which may have put new objects in the store.
    private struct IntactCopies {
        let store: ContentStore
        let tenants: Set<String>
        let output: URL
        private var found: [String: URL?] = [:]

        init(store: ContentStore, tenants: Set<String>, output: URL) {
            self.store = store
            self.tenants = tenants
            self.output = output
        }

        mutating func copy(of sha: String) -> URL? {
            if let known = found[sha] { return known }
            let copy = search(sha)
            found[sha] = copy
            return copy
        }

        mutating func forget() { found = [:] }

        private func search(_ sha: String) -> URL? {
            let object = store.objectURL(sha)
            if (try? FileDigest.sha256(of: object).digest) == sha { return object }
            for tenant in tenants {
                for channel in Publisher.channels(tenant: tenant, output: output) {
                    let repository = Publisher.repository(tenant: tenant, channel: channel, output: output)
                    for folder in ["targets", "targets/staged"] {
                        for name in (try? FileManager.default.contentsOfDirectory(atPath: repository.appendingPathComponent(folder).path)) ?? [] where name.hasPrefix(sha) {
                            let url = repository.appendingPathComponent(folder).appendingPathComponent(name)
                            if (try? FileDigest.sha256(of: url).digest) == sha { return url }
                        }
                    }
                }
            }
            return nil
        }
    }
}
